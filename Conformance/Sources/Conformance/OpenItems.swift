// Ripple divergences that are found and owned but not fixed yet. A divergence whose shrunk case
// involves one of these is reported (with its example) but does not fail the run; any other
// divergence does. Remove an entry when its fix lands, so the oracle guards it from then on.
import ConformanceModel
import Foundation

struct OpenItem {
    /// The bare operator name (as in the divergence family) or source kind ("Just", "Sequence").
    let name: String
    let owner: String
    let what: String
}

let openItems: [OpenItem] = [
    // Sources (matched only when the shrunk case has no operator left).
    OpenItem(name: "Just", owner: "async-api",
        what: "Just(v).setFailureType(to:) is Result.Publisher; its subscription describes itself \"Result\", Combine's \"Once\""),
    OpenItem(name: "Sequence", owner: "async-api",
        what: "Publishers.Sequence's subscription describes itself \"Array<Int>\", Combine's as the sequence (\"[1, 2]\")"),
    // Operators owned by async-api.
    OpenItem(name: "catch", owner: "async-api", what: "catch: order of subscription events / demand"),
    OpenItem(name: "retry", owner: "async-api", what: "retry: subscription object and demand across resubscription"),
    OpenItem(name: "append", owner: "async-api", what: "append/prepend (Concatenate): subscription object and demand"),
    OpenItem(name: "prepend", owner: "async-api", what: "append/prepend (Concatenate): subscription object and demand"),
    // Operators owned by operators (being fixed).
    OpenItem(name: "tryScan", owner: "operators", what: "own subscription"),
    OpenItem(name: "tryRemoveDuplicates", owner: "operators", what: "own subscription"),
    OpenItem(name: "tryPrefix", owner: "operators", what: "own subscription"),
    OpenItem(name: "tryMap", owner: "operators", what: "own subscription"),
    OpenItem(name: "tryFilter", owner: "operators", what: "own subscription"),
    OpenItem(name: "tryDrop", owner: "operators", what: "own subscription"),
    OpenItem(name: "tryCompactMap", owner: "operators", what: "own subscription"),
    OpenItem(name: "removeDuplicates", owner: "operators", what: "own subscription"),
    OpenItem(name: "drop", owner: "operators", what: "own subscription"),
    OpenItem(name: "dropFirst", owner: "operators", what: "own subscription, up-front demand"),
    OpenItem(name: "prefix", owner: "operators", what: "own subscription, moment of finishing"),
    OpenItem(name: "output", owner: "operators", what: "own subscription, moment of finishing"),
    OpenItem(name: "replaceEmpty", owner: "operators", what: "own subscription, demand"),
    OpenItem(name: "replaceError", owner: "operators", what: "demand"),
    OpenItem(name: "first", owner: "operators", what: "finishing without demand"),
    OpenItem(name: "last", owner: "operators", what: "finishing without demand"),
    OpenItem(name: "tryFirst", owner: "operators", what: "finishing without demand"),
    OpenItem(name: "tryLast", owner: "operators", what: "finishing without demand"),
    OpenItem(name: "min", owner: "operators", what: "finishing without demand"),
    OpenItem(name: "max", owner: "operators", what: "finishing without demand"),
    OpenItem(name: "tryMin", owner: "operators", what: "finishing without demand"),
    OpenItem(name: "tryMax", owner: "operators", what: "finishing without demand"),
    OpenItem(name: "tryAllSatisfy", owner: "operators", what: "finishing without demand"),
    OpenItem(name: "collect", owner: "operators", what: "finishing without demand"),
    OpenItem(name: "subscribe", owner: "operators", what: "subscribe(on:): events after cancel"),
]

private let sourceNames: Set<String> = ["Just", "Sequence", "Empty", "Fail", "subject"]

/// The open item a shrunk divergence belongs to, if any: a source's item only when no operator
/// is left in the shrunk case, an operator's when the operator is in it.
func openItem(for family: String) -> OpenItem? {
    let parts = family.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
    return openItems.first { item in
        sourceNames.contains(item.name) ? parts == [item.name] : parts.contains(item.name)
    }
}
