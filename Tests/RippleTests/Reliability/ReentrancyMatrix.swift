/// The defined outcome of every cell of the re-entrancy matrix.
///
/// Each scenario: a probe subscribes (in `receive(subscription:)` it runs its action if that is
/// the cell's callback, then requests `.unlimited`); the test sends 1, then 2, then completes the
/// source; the probe runs its action once, at the first time its callback happens. The outcome is
/// what the probe saw — `S` subscription, numbers for values, `F` finished — and, for
/// "subscribe another", what the second subscriber (unlimited demand) saw.
enum ReentrancyMatrix {
    typealias Source = Heavy.ReentrancyMatrixTests.Source
    typealias Callback = Heavy.ReentrancyMatrixTests.Callback
    typealias Action = Heavy.ReentrancyMatrixTests.Action

    static let expected: [Source: [Callback: [Action: String]]] = [
        .passthrough: [
            .subscription: [.send: "S 1 2 F", .complete: "S F", .cancel: "S", .request: "S 1 2 F", .subscribeAnother: "S 1 2 F / other: S 1 2 F"],
            .value: [.send: "S 1 100 2 F", .complete: "S 1 F", .cancel: "S 1", .request: "S 1 2 F", .subscribeAnother: "S 1 2 F / other: S 2 F"],
            .completion: [.send: "S 1 2 F", .complete: "S 1 2 F", .cancel: "S 1 2 F", .request: "S 1 2 F", .subscribeAnother: "S 1 2 F / other: S F"],
        ],
        .currentValue: [
            .subscription: [.send: "S 100 1 2 F", .complete: "S F", .cancel: "S", .request: "S 0 1 2 F", .subscribeAnother: "S 0 1 2 F / other: S 0 1 2 F"],
            .value: [.send: "S 0 100 1 2 F", .complete: "S 0 F", .cancel: "S 0", .request: "S 0 1 2 F", .subscribeAnother: "S 0 1 2 F / other: S 0 1 2 F"],
            .completion: [.send: "S 0 1 2 F", .complete: "S 0 1 2 F", .cancel: "S 0 1 2 F", .request: "S 0 1 2 F", .subscribeAnother: "S 0 1 2 F / other: S F"],
        ],
        .published: [
            .subscription: [.send: "S 100 1 2", .complete: "S 0 1 2", .cancel: "S", .request: "S 0 1 2", .subscribeAnother: "S 0 1 2 / other: S 0 1 2"],
            .value: [.send: "S 0 100 1 2", .complete: "S 0 1 2", .cancel: "S 0", .request: "S 0 1 2", .subscribeAnother: "S 0 1 2 / other: S 0 1 2"],
            .completion: [.send: "S 0 1 2", .complete: "S 0 1 2", .cancel: "S 0 1 2", .request: "S 0 1 2", .subscribeAnother: "S 0 1 2"],
        ],
        .future: [
            .subscription: [.send: "S 100 F", .complete: "S 1 F", .cancel: "S", .request: "S 1 F", .subscribeAnother: "S 1 F / other: S 1 F"],
            .value: [.send: "S 1 F", .complete: "S 1 F", .cancel: "S 1", .request: "S 1 F", .subscribeAnother: "S 1 F / other: S 1 F"],
            .completion: [.send: "S 1 F", .complete: "S 1 F", .cancel: "S 1 F", .request: "S 1 F", .subscribeAnother: "S 1 F / other: S 1 F"],
        ],
        .merge: [
            .subscription: [.send: "S 1 2 F", .complete: "S F", .cancel: "S", .request: "S 1 2 F", .subscribeAnother: "S 1 2 F / other: S 1 2 F"],
            .value: [.send: "S 1 100 2 F", .complete: "S 1 F", .cancel: "S 1", .request: "S 1 2 F", .subscribeAnother: "S 1 2 F / other: S 2 F"],
            .completion: [.send: "S 1 2 F", .complete: "S 1 2 F", .cancel: "S 1 2 F", .request: "S 1 2 F", .subscribeAnother: "S 1 2 F / other: S F"],
        ],
        .combineLatest: [
            .subscription: [.send: "S 1 2 F", .complete: "S F", .cancel: "S", .request: "S 1 2 F", .subscribeAnother: "S 1 2 F / other: S 1 2 F"],
            .value: [.send: "S 1 100 2 F", .complete: "S 1 F", .cancel: "S 1", .request: "S 1 2 F", .subscribeAnother: "S 1 2 F / other: S 2 F"],
            .completion: [.send: "S 1 2 F", .complete: "S 1 2 F", .cancel: "S 1 2 F", .request: "S 1 2 F", .subscribeAnother: "S 1 2 F / other: S F"],
        ],
        .flatMap: [
            .subscription: [.send: "S 1 2 F", .complete: "S F", .cancel: "S", .request: "S 1 2 F", .subscribeAnother: "S 1 2 F / other: S 1 2 F"],
            .value: [.send: "S 1 100 2 F", .complete: "S 1 F", .cancel: "S 1", .request: "S 1 2 F", .subscribeAnother: "S 1 2 F / other: S 2 F"],
            .completion: [.send: "S 1 2 F", .complete: "S 1 2 F", .cancel: "S 1 2 F", .request: "S 1 2 F", .subscribeAnother: "S 1 2 F / other: S F"],
        ],
        .buffer: [
            .subscription: [.send: "S 100 1 2 F", .complete: "S F", .cancel: "S", .request: "S 1 2 F", .subscribeAnother: "S 1 2 F / other: S 1 2 F"],
            .value: [.send: "S 1 100 2 F", .complete: "S 1 F", .cancel: "S 1", .request: "S 1 2 F", .subscribeAnother: "S 1 2 F / other: S 2 F"],
            .completion: [.send: "S 1 2 F", .complete: "S 1 2 F", .cancel: "S 1 2 F", .request: "S 1 2 F", .subscribeAnother: "S 1 2 F / other: S F"],
        ],
        .zip: [
            .subscription: [.send: "S 1 2 F", .complete: "S F", .cancel: "S", .request: "S 1 2 F", .subscribeAnother: "S 1 2 F / other: S 1 2 F"],
            .value: [.send: "S 1 100 2 F", .complete: "S 1 F", .cancel: "S 1", .request: "S 1 2 F", .subscribeAnother: "S 1 2 F / other: S 2 F"],
            .completion: [.send: "S 1 2 F", .complete: "S 1 2 F", .cancel: "S 1 2 F", .request: "S 1 2 F", .subscribeAnother: "S 1 2 F / other: S F"],
        ],
        .switchToLatest: [
            .subscription: [.send: "S 1 2 F", .complete: "S F", .cancel: "S", .request: "S 1 2 F", .subscribeAnother: "S 1 2 F / other: S 1 2 F"],
            .value: [.send: "S 1 100 2 F", .complete: "S 1 F", .cancel: "S 1", .request: "S 1 2 F", .subscribeAnother: "S 1 2 F / other: S 2 F"],
            .completion: [.send: "S 1 2 F", .complete: "S 1 2 F", .cancel: "S 1 2 F", .request: "S 1 2 F", .subscribeAnother: "S 1 2 F / other: S F"],
        ],
        .share: [
            .subscription: [.send: "S 1 2 F", .complete: "S F", .cancel: "S", .request: "S 1 2 F", .subscribeAnother: "S 1 2 F / other: S 1 2 F"],
            .value: [.send: "S 1 100 2 F", .complete: "S 1 F", .cancel: "S 1", .request: "S 1 2 F", .subscribeAnother: "S 1 2 F / other: S 2 F"],
            .completion: [.send: "S 1 2 F", .complete: "S 1 2 F", .cancel: "S 1 2 F", .request: "S 1 2 F", .subscribeAnother: "S 1 2 F / other: S F"],
        ],
    ]

    static func markdownTable() -> String {
        var lines = ["| source | callback | " + Action.allCases.map(\.rawValue).joined(separator: " | ") + " |"]
        lines.append("|---|---|" + String(repeating: "---|", count: Action.allCases.count))
        for source in Source.allCases {
            for callback in Callback.allCases {
                let cells = Action.allCases.map { expected[source]?[callback]?[$0] ?? "?" }
                lines.append("| \(source.rawValue) | \(callback.rawValue) | " + cells.joined(separator: " | ") + " |")
            }
        }
        return lines.joined(separator: "\n")
    }
}
