import RippleUI
import Testing

/// The README's "Real apps, and testing them" sample, with its printed output as assertions.
@Suite @MainActor struct ReadmeSurfaceExampleTests {
    struct Adder: View {
        @State private var name = ""
        @State private var names: [String] = []
        var body: some View {
            VStack {
                TextField("Name", text: $name)
                Button("Add") { names.append(name); name = "" }
                    .disabled(name.isEmpty)
                Text("\(names.count) names")
            }
        }
    }

    @Test func example() throws {
        let tree = RenderTree(Adder())
        try tree.tap("Add")
        try tree.type("Ada", into: "Name")
        try tree.tap("Add")
        #expect(tree.texts == ["[Name: ]", "Add", "1 names"])
        let error = #expect(throws: RenderTreeLookupError.self) { try tree.tap("Ad d") }
        #expect(error?.description == #"no button "Ad d" on screen; buttons: "Add"; texts: "[Name: ]", "Add", "1 names""#)
    }
}
