import Foundation
import PostgresNIO
import RipplePostgres
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The PostgreSQL server the tests run against: `POSTGRES_URL` when it is set, otherwise a throwaway
/// cluster of the tests' own (initdb into a temporary folder, a free loopback port), started once per
/// test process and removed when the process ends — by a watchdog that outlives a crash, too.
///
/// CI runs as root and `initdb` refuses root, so there the cluster runs as the `postgres` user the
/// Debian package creates. Nothing is skipped silently: no server binaries and no `POSTGRES_URL` is
/// a failure that says what to install.
enum TestServer {
    struct Info: Sendable {
        var url: String
        /// The cluster's folder and binaries, when the tests own the server (nil for `POSTGRES_URL`).
        var ownCluster: (dataDirectory: String, binaries: String, user: String?)?
    }

    static let binaries = ProcessInfo.processInfo.environment["POSTGRES_BIN"] ?? "/usr/lib/postgresql/15/bin"

    /// Whether the tests started the server themselves, so that they can stop and restart it.
    static var ownsServer: Bool { ProcessInfo.processInfo.environment["POSTGRES_URL"] == nil }

    private static let started: Result<Info, TestServerError> = {
        if let url = ProcessInfo.processInfo.environment["POSTGRES_URL"] {
            return .success(Info(url: url, ownCluster: nil))
        }
        do { return .success(try startCluster()) } catch let error as TestServerError {
            return .failure(error)
        } catch {
            return .failure(TestServerError(message: "\(error)"))
        }
    }()

    /// The server, started on first use.
    static func info() throws -> Info { try started.get() }

    /// A client for the server; unique names keep tests that run in parallel apart.
    static func client(_ label: String = "test") throws -> PostgresEventClient {
        var configuration = try PostgresEventClient.Configuration(url: info().url)
        configuration.applicationName = "ripple-\(label)"
        configuration.reconnectBackoff = .init(initial: .milliseconds(20), maximum: .milliseconds(300))
        return PostgresEventClient(configuration: configuration)
    }

    /// A name no other test uses (streams, channels, consumers).
    static func uniqueName(_ prefix: String) -> String {
        "\(prefix)_\(UInt32.random(in: 0...UInt32.max))_\(UInt16.random(in: 0...UInt16.max))"
    }

    /// Runs SQL through a connection of its own (for setting up or inspecting what a test needs).
    static func execute(_ sql: String) async throws -> [[String?]] {
        var configuration = try PostgresEventClient.Configuration(url: info().url)
        configuration.applicationName = "ripple-test-admin"
        let connection = try await PostgresConnection.connect(
            configuration: configuration.connectionConfiguration, id: 1, logger: Logger(label: "test"))
        do {
            let rows = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: Logger(label: "test"))
            var result: [[String?]] = []
            for try await row in rows {
                result.append(row.map { cell in try? cell.decode(String?.self) ?? nil })
            }
            try await connection.close()
            return result
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// Stops the tests' own server and starts it again on the same port (fast shutdown: every
    /// connection is dropped).
    static func restart() throws {
        guard let cluster = try info().ownCluster else {
            throw TestServerError(message: "restart needs the tests' own server (POSTGRES_URL is set)")
        }
        try run(
            "\(cluster.binaries)/pg_ctl", ["-D", cluster.dataDirectory, "-m", "fast", "-w", "-t", "30", "restart",
                                          "-l", "\(cluster.dataDirectory)/server.log"],
            as: cluster.user)
    }

    // MARK: Starting a cluster

    private static func startCluster() throws -> Info {
        let initdb = "\(binaries)/initdb"
        guard FileManager.default.isExecutableFile(atPath: initdb) else {
            throw TestServerError(message: """
                No PostgreSQL server binaries at \(binaries) and no POSTGRES_URL: install the server \
                (Debian: apt-get install -y postgresql), set POSTGRES_BIN to its bin folder, or set \
                POSTGRES_URL to an existing server (postgres://user:password@host:port/database).
                """)
        }
        let user: String? = getuid() == 0 ? "postgres" : nil
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("ripple-postgres-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        if let user {
            try run("/bin/chown", [user, folder], as: nil)
        }
        let data = "\(folder)/data"
        try run(initdb, ["-D", data, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"],
                as: user)
        let port = try freeLoopbackPort()
        // Test-only durability settings: the tests restart the server, never the machine.
        let settings = """
            listen_addresses = '127.0.0.1'
            port = \(port)
            unix_socket_directories = '\(folder)'
            max_connections = 200
            fsync = off
            synchronous_commit = off
            full_page_writes = off
            shared_buffers = 64MB
            """
        try (settings + "\n").appendToFile("\(data)/postgresql.conf")
        try run("\(binaries)/pg_ctl", ["-D", data, "-w", "-t", "60", "-l", "\(data)/server.log", "start"], as: user)
        try startWatchdog(folder: folder, data: data, user: user)
        return Info(url: "postgres://postgres@127.0.0.1:\(port)/postgres", ownCluster: (data, binaries, user))
    }

    /// A shell that waits for this test process to end, then stops the server and removes its folder.
    private static func startWatchdog(folder: String, data: String, user: String?) throws {
        let stop = "\(binaries)/pg_ctl -D '\(data)' -m immediate -w -t 30 stop"
        let stopAs = user.map { "runuser -u \($0) -- \(stop)" } ?? stop
        let script = """
            while kill -0 \(getpid()) 2>/dev/null; do sleep 0.5; done
            \(stopAs) >/dev/null 2>&1
            rm -rf '\(folder)'
            """
        try spawn("/bin/sh", ["-c", script], as: nil, output: "/dev/null")
    }

    /// Runs `tool` (as `user`, through runuser, when given) and waits for it. posix_spawn and
    /// waitpid rather than Foundation's Process, whose wait can hang when the tool leaves a
    /// daemon behind (pg_ctl start); the output goes to a file, not a pipe, for the same reason.
    private static func run(_ tool: String, _ arguments: [String], as user: String?) throws {
        let log = FileManager.default.temporaryDirectory
            .appendingPathComponent("ripple-postgres-tool-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).log").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let pid = try spawn(tool, arguments, as: user, output: log)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let exited = (status & 0x7f) == 0 && ((status >> 8) & 0xff) == 0
        guard exited else {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw TestServerError(message: "\(tool) \(arguments.joined(separator: " ")) failed (\(status)): \(text)")
        }
    }

    /// Starts `tool` with stdin from /dev/null and stdout and stderr to `output`.
    @discardableResult
    private static func spawn(_ tool: String, _ arguments: [String], as user: String?, output: String) throws -> pid_t {
        let argv = (user.map { ["/usr/sbin/runuser", "-u", $0, "--", tool] } ?? [tool]) + arguments
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var cArguments = argv.map { strdup($0) } + [nil]
        defer { for argument in cArguments { free(argument) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, argv[0], &actions, nil, &cArguments, environ)
        guard result == 0 else { throw TestServerError(message: "cannot start \(argv[0]): \(result)") }
        return pid
    }

    private static func freeLoopbackPort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestServerError(message: "socket() failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw TestServerError(message: "bind() failed") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

struct TestServerError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

extension String {
    fileprivate func appendToFile(_ path: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(utf8))
    }
}
