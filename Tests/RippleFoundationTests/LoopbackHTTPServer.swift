import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A tiny HTTP/1.1 server on a BSD socket bound to 127.0.0.1 (an ephemeral port), for tests only.
///
/// Routes: `/hello` answers 200 "hello"; `/missing` answers 404 "no such page"; `/stall` sends the
/// headers and 3 of the 1,000 bytes it announces, then waits until the client closes the
/// connection (recorded in ``closedStalls``). Each connection has its own thread; every wait is
/// bounded. `stop()` closes the listening socket.
final class LoopbackHTTPServer: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32
    private let lock = NSLock()
    private var requestCount = 0
    private var closedStallCount = 0
    private let stallStarted = DispatchSemaphore(value: 0)
    private let stallClosed = DispatchSemaphore(value: 0)

    init() throws {
        let fd = socket(AF_INET, streamSocket, 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        port = Self.port(of: fd)
        listener = fd
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// A port on 127.0.0.1 nothing listens on: bound, then closed, so connecting is refused.
    static func refusingPort() -> UInt16 {
        let fd = socket(AF_INET, streamSocket, 0)
        var address = loopback(port: 0)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        let port = port(of: fd)
        close(fd)
        return port
    }

    func url(_ path: String, port: UInt16? = nil) -> URL {
        URL(string: "http://127.0.0.1:\(port ?? self.port)\(path)")!
    }

    /// Waits (bounded) until a `/stall` request has received its partial body.
    func waitForStall(seconds: Double = 30) -> Bool {
        stallStarted.wait(timeout: .now() + seconds) == .success
    }

    /// Waits (bounded) until the client closed a stalled connection.
    func waitForStallClosed(seconds: Double = 30) -> Bool {
        stallClosed.wait(timeout: .now() + seconds) == .success
    }

    var closedStalls: Int { lock.withLock { closedStallCount } }

    /// How many requests the server has read.
    var requests: Int { lock.withLock { requestCount } }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            Thread.detachNewThread { [self] in serve(connection) }
        }
    }

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var request = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !String(decoding: request, as: UTF8.self).contains("\r\n\r\n") {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return }
            request += buffer[0..<count]
            if request.count > 65_536 { return }
        }
        let line = String(decoding: request, as: UTF8.self).split(separator: "\r\n").first ?? ""
        let path = line.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
        lock.withLock { requestCount += 1 }
        switch path {
        case "/hello":
            send(connection, status: "200 OK", body: "hello")
        case "/stall":
            let head = "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\nContent-Type: text/plain\r\n\r\nabc"
            write(connection, head)
            stallStarted.signal()
            // Wait for the client to go away: recv returns 0 (closed) or fails (reset, timeout).
            while recv(connection, &buffer, buffer.count, 0) > 0 {}
            lock.withLock { closedStallCount += 1 }
            stallClosed.signal()
        default:
            send(connection, status: "404 Not Found", body: "no such page")
        }
    }

    private func send(_ connection: Int32, status: String, body: String) {
        write(connection, "HTTP/1.1 \(status)\r\nContent-Length: \(body.utf8.count)\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n\(body)")
    }

    private func write(_ connection: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { sendBytes(connection, $0) }
            guard count > 0 else { return }
            sent += count
        }
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    private static func port(of fd: Int32) -> UInt16 {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return UInt16(bigEndian: address.sin_port)
    }
}

#if canImport(Glibc)
private let streamSocket = Int32(SOCK_STREAM.rawValue)
private func sendBytes(_ connection: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
    Glibc.send(connection, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
}
#else
private let streamSocket = SOCK_STREAM
private func sendBytes(_ connection: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
    Darwin.send(connection, bytes.baseAddress, bytes.count, 0)
}
#endif
