import RippleUI
import Testing

/// The README's RippleUI example, verbatim apart from the assertions.
@Suite @MainActor struct ReadmeDataFlowExampleTests {
    final class CountViewModel: ObservableObject {
        @Published var count = 0
    }

    struct CountView: View {
        @StateObject var viewModel = CountViewModel()
        let rootCount: Int
        var body: some View {
            VStack {
                Text("Root: \(rootCount) Count: \(viewModel.count)")
                Button("Counter Add") { viewModel.count += 1 }
            }
        }
    }

    struct ContentView: View {
        @State private var rootCount = 0
        var body: some View {
            VStack {
                CountView(rootCount: rootCount)
                Button("Root Add") { rootCount += 1 }
            }
        }
    }

    @Test func example() throws {
        let tree = RenderTree(ContentView())
        try tree.tap("Counter Add")
        try tree.tap("Root Add")
        #expect(tree.texts.first == "Root: 1 Count: 1")
        #expect(tree.log.last == "CountView: @self changed")
    }
}
