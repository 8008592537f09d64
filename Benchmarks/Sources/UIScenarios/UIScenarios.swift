// RippleUI's render tree: what a change costs in a list of 1,000 rows, and object-level push vs
// property-level pull over one model read by 100 views. Ripple only (nothing else runs views here);
// the issue's absolute targets are in Targets.swift.
import BenchHarness
import RippleObservation
import RippleUI

// MARK: Models

/// One row's model: an Observable class (its property is tracked per row).
@Observable final class RowItem: Identifiable {
    let id: Int
    var value: Int
    init(id: Int) {
        self.id = id
        value = id
    }
}

/// The selected row's id, held by the parent.
@Observable final class Selection {
    var id = 0
}

@Observable final class Observable10 {
    var p0 = 0
    var p1 = 0
    var p2 = 0
    var p3 = 0
    var p4 = 0
    var p5 = 0
    var p6 = 0
    var p7 = 0
    var p8 = 0
    var p9 = 0
}

final class Published10: ObservableObject {
    @Published var p0 = 0
    @Published var p1 = 0
    @Published var p2 = 0
    @Published var p3 = 0
    @Published var p4 = 0
    @Published var p5 = 0
    @Published var p6 = 0
    @Published var p7 = 0
    @Published var p8 = 0
    @Published var p9 = 0
}

// MARK: Views

struct Row: View {
    let item: RowItem
    let isSelected: Bool
    var body: some View { Text("\(item.id): \(item.value)\(isSelected ? " ✓" : "")") }
}

struct RowList: View {
    let items: [RowItem]
    let selection: Selection
    var body: some View {
        VStack {
            ForEach(items) { item in Row(item: item, isSelected: item.id == selection.id) }
        }
    }
}

/// Reads property `index % 10` of an Observable model (plain property: observation is the model's).
struct PullReader: View {
    let model: Observable10
    let index: Int
    var body: some View { Text("\(read())") }
    private func read() -> Int {
        switch index % 10 {
        case 0: model.p0
        case 1: model.p1
        case 2: model.p2
        case 3: model.p3
        case 4: model.p4
        case 5: model.p5
        case 6: model.p6
        case 7: model.p7
        case 8: model.p8
        default: model.p9
        }
    }
}

/// Reads property `index % 10` of an ObservableObject held as `@ObservedObject` (object level).
struct PushReader: View {
    @ObservedObject var model: Published10
    let index: Int
    var body: some View { Text("\(read())") }
    private func read() -> Int {
        switch index % 10 {
        case 0: model.p0
        case 1: model.p1
        case 2: model.p2
        case 3: model.p3
        case 4: model.p4
        case 5: model.p5
        case 6: model.p6
        case 7: model.p7
        case 8: model.p8
        default: model.p9
        }
    }
}

/// A row with a button whose title shows the row's own `@State` count.
struct CountingRow: View {
    let id: Int
    @State private var count = 0
    var body: some View {
        HStack {
            Text("Row \(id)")
            Button("Tap \(id): \(count)") { count += 1 }
        }
    }
}

/// 1,000 counting rows in a list.
struct CountingRows: View {
    var body: some View {
        List {
            ForEach(0..<1_000, id: \.self) { CountingRow(id: $0) }
        }
    }
}

/// What a prepared run keeps alive: the tree, its models, the number of operations to run, and
/// (for builds) the trees built, released after the measured region.
final class Prepared: @unchecked Sendable {
    let count: Int
    var tree: RenderTree?
    var items: [RowItem] = []
    var selection = Selection()
    var observable = Observable10()
    var published = Published10()
    var built: [RenderTree] = []

    init(count: Int) { self.count = count }
}

// MARK: Scenarios

public enum UISuite {
    /// One row's value changes among `rows`, then the tree flushes: the cost of an update should
    /// follow what changed, not how many rows there are.
    static func oneRowChanges(amongRows rows: Int, named name: String) -> Scenario {
        Scenario("RippleUI: 1 of \(name) rows changes (per update)", library: "Ripple") {
            .prepared(
                prepare: { n in
                    MainActor.assumeIsolated { () -> Prepared in
                        let prepared = Prepared(count: n)
                        prepared.items = (0..<rows).map(RowItem.init)
                        prepared.tree = RenderTree(RowList(items: prepared.items, selection: prepared.selection))
                        return prepared
                    }
                },
                run: { object in
                    let prepared = object as! Prepared
                    MainActor.assumeIsolated {
                        let tree = prepared.tree!
                        for step in 0..<prepared.count {
                            prepared.items[(step &* 7) % rows].value &+= 1
                            tree.flush()
                        }
                    }
                })
        }
    }
    public static func scenarios() -> [Scenario] {
        [
            oneRowChanges(amongRows: 1_000, named: "1,000"),
            oneRowChanges(amongRows: 10_000, named: "10,000"),
            Scenario("RippleUI: selection passed to 1,000 rows (per update)", library: "Ripple") {
                .prepared(
                    prepare: { n in
                        MainActor.assumeIsolated { () -> Prepared in
                            let prepared = Prepared(count: n)
                            prepared.items = (0..<1_000).map(RowItem.init)
                            prepared.tree = RenderTree(RowList(items: prepared.items, selection: prepared.selection))
                            return prepared
                        }
                    },
                    run: { object in
                        let prepared = object as! Prepared
                        MainActor.assumeIsolated {
                            let tree = prepared.tree!
                            for step in 0..<prepared.count {
                                prepared.selection.id = (step &* 97) % 1_000
                                tree.flush()
                            }
                        }
                    })
            },
            Scenario("RippleUI: tap a button among 1,000 @State rows (per tap, after the first)", library: "Ripple") {
                .prepared(
                    prepare: { n in
                        MainActor.assumeIsolated { () -> Prepared in
                            let prepared = Prepared(count: n)
                            let tree = RenderTree(CountingRows())
                            // The first lookup names every button once (the index is built lazily).
                            try! tree.tap("Tap 999: 0")
                            prepared.tree = tree
                            return prepared
                        }
                    },
                    run: { object in
                        let prepared = object as! Prepared
                        MainActor.assumeIsolated {
                            let tree = prepared.tree!
                            // The last row: a walk of the tree would cost the most there.
                            for step in 0..<prepared.count {
                                try! tree.tap("Tap 999: \(step + 1)")
                            }
                        }
                    })
            },
            Scenario("RippleUI: first tap among 1,000 @State rows", library: "Ripple") {
                .prepared(
                    prepare: { n in
                        MainActor.assumeIsolated { () -> Prepared in
                            let prepared = Prepared(count: n)
                            prepared.built = (0..<n).map { _ in RenderTree(CountingRows()) }
                            return prepared
                        }
                    },
                    run: { object in
                        let prepared = object as! Prepared
                        MainActor.assumeIsolated {
                            for tree in prepared.built { try! tree.tap("Tap 999: 0") }
                        }
                    })
            },
            Scenario("RippleUI: initial build of 1,000 rows", library: "Ripple") {
                .prepared(
                    prepare: { n in
                        let prepared = Prepared(count: n)
                        prepared.items = (0..<1_000).map(RowItem.init)
                        prepared.built.reserveCapacity(n)
                        return prepared
                    },
                    run: { object in
                        let prepared = object as! Prepared
                        MainActor.assumeIsolated {
                            for _ in 0..<prepared.count {
                                prepared.built.append(RenderTree(RowList(items: prepared.items, selection: prepared.selection)))
                            }
                        }
                    })
            },
            Scenario("RippleUI: 100 views read 1 of 10 properties, 1 changes: ObservableObject (push)", library: "Ripple") {
                .prepared(
                    prepare: { n in
                        MainActor.assumeIsolated { () -> Prepared in
                            let prepared = Prepared(count: n)
                            let model = prepared.published
                            prepared.tree = RenderTree(VStack { ForEach(0..<100) { PushReader(model: model, index: $0) } })
                            return prepared
                        }
                    },
                    run: { object in
                        let prepared = object as! Prepared
                        MainActor.assumeIsolated {
                            let tree = prepared.tree!
                            for _ in 0..<prepared.count {
                                prepared.published.p3 &+= 1
                                tree.flush()
                            }
                        }
                    })
            },
            Scenario("RippleUI: 100 views read 1 of 10 properties, 1 changes: @Observable (pull)", library: "Ripple") {
                .prepared(
                    prepare: { n in
                        MainActor.assumeIsolated { () -> Prepared in
                            let prepared = Prepared(count: n)
                            let model = prepared.observable
                            prepared.tree = RenderTree(VStack { ForEach(0..<100) { PullReader(model: model, index: $0) } })
                            return prepared
                        }
                    },
                    run: { object in
                        let prepared = object as! Prepared
                        MainActor.assumeIsolated {
                            let tree = prepared.tree!
                            for _ in 0..<prepared.count {
                                prepared.observable.p3 &+= 1
                                tree.flush()
                            }
                        }
                    })
            },
        ]
    }
}
