// A model shared by processes through a PostgreSQL stream. Run it twice against one server:
//
//   swift run RipplePostgresExample model --url postgres://postgres@127.0.0.1:5432/postgres --name alice
//   swift run RipplePostgresExample model --url postgres://postgres@127.0.0.1:5432/postgres --name bob
//
// and each line typed in one appears in both. The tests also run it as two processes:
// `produce` appends numbered values, `verify` checks it received them all, in order, once each.
import Dispatch
import Foundation
import Ripple
import RipplePostgres

/// One note of the shared board.
struct Note: Codable, Sendable, Equatable {
    var author: String
    var text: String
}

/// The shared model, written the way models are: `items` follows the stream; `add` appends to it.
/// Every process running it sees every note, in the same order.
@MainActor
final class NoteBoard: ObservableObject {
    @Published private(set) var items: [Note] = []
    private let stream: PostgresStream<Note>

    init(stream: PostgresStream<Note>) {
        self.stream = stream
        stream.publisher(from: .beginning)
            .map(\.value)
            .scan([Note]()) { notes, note in notes + [note] }
            .replaceError(with: [])  // a stream of this type never holds undecodable values
            .receive(on: DispatchQueue.main)
            .assign(to: &$items)
    }

    /// Appends a note; it reaches `items` here and in every other process through the stream.
    func add(_ text: String, by author: String) async throws {
        try await stream.append(Note(author: author, text: text))
    }
}

func argument(_ name: String) -> String? {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: "--\(name)"), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    exit(1)
}

let mode = CommandLine.arguments.dropFirst().first ?? "help"
let url = argument("url") ?? ProcessInfo.processInfo.environment["POSTGRES_URL"] ?? "postgres://postgres@127.0.0.1:5432/postgres"
let streamName = argument("stream") ?? "ripple_example_notes"
let count = Int(argument("count") ?? "10") ?? 10

/// The values `produce` appends: "0", "1", …, as the text of notes by "producer".
func numbered(_ index: Int) -> Note { Note(author: "producer", text: String(index)) }

do {
    let client = try PostgresEventClient(url: url)
    let stream = try client.stream(streamName, of: Note.self)
    try await stream.prepare()
    switch mode {
    case "produce":
        for index in 0..<count { try await stream.append(numbered(index)) }
        print("appended \(count)")
    case "verify":
        // A plain subscription: every value from the beginning, checked as it arrives.
        let done = DispatchSemaphore(value: 0)
        let checked = Checked()
        let subscription = stream.publisher(from: .beginning).sink(
            receiveCompletion: { completion in fail("stream ended: \(completion)") },
            receiveValue: { event in
                if checked.receive(event.value, expected: numbered, count: count) { done.signal() }
            })
        print("listening")
        fflush(nil)
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                done.wait()
                continuation.resume()
            }
        }
        subscription.cancel()
        print(checked.summary)
    case "model":
        // The shared model: type lines to add notes; every process prints every note.
        let name = argument("name") ?? "anonymous"
        let board = NoteBoard(stream: stream)
        let printed = board.$items.sink { items in
            if let last = items.last { print("[\(items.count)] \(last.author): \(last.text)") }
        }
        while let line = readLine() {
            try await board.add(line, by: name)
        }
        try await Task.sleep(for: .seconds(1))
        printed.cancel()
    case "model-demo":
        // Non-interactive: add `count` notes, wait until the board holds `expect` notes, print them.
        let name = argument("name") ?? "anonymous"
        let expect = Int(argument("expect") ?? String(count)) ?? count
        let board = NoteBoard(stream: stream)
        for index in 0..<count { try await board.add("note \(index)", by: name) }
        let deadline = ContinuousClock.now + .seconds(30)
        while board.items.count < expect && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        for note in board.items { print("\(note.author): \(note.text)") }
        if board.items.count < expect { fail("saw \(board.items.count) notes, expected \(expect)") }
    default:
        print("usage: RipplePostgresExample produce|verify|model|model-demo [--url URL] [--stream NAME] [--count N] [--name NAME]")
    }
    await client.shutdown()
} catch {
    fail("\(error)")
}

/// What `verify` has seen: whether every value so far came in order, once.
final class Checked: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    private var problems: [String] = []

    /// Records `value`; true once `count` values have arrived.
    func receive(_ value: Note, expected: (Int) -> Note, count: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if value != expected(next) { problems.append("at \(next): \(value.text)") }
        next += 1
        return next == count
    }

    var summary: String {
        lock.lock()
        defer { lock.unlock() }
        return problems.isEmpty ? "received \(next) in order" : "out of order: \(problems.prefix(5))"
    }
}
