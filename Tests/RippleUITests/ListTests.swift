import Foundation
import RippleUI
import Testing

@Suite @MainActor struct ListTests {
    struct Task: Identifiable, Equatable {
        let id: Int
        var title: String
        var done = false
    }

    struct Row: View {
        @Binding var task: Task
        var body: some View {
            Toggle(task.title, isOn: $task.done)
        }
    }

    struct Checklist: View {
        @State var tasks = [Task(id: 1, title: "Milk"), Task(id: 2, title: "Eggs"), Task(id: 3, title: "Tea")]
        var body: some View {
            VStack {
                List($tasks) { $task in
                    Row(task: $task)
                }
                Button("Insert first") { tasks.insert(Task(id: 4, title: "Bread"), at: 0) }
                Button("Delete Milk") { tasks.removeAll { $0.title == "Milk" } }
                Text("Done: " + tasks.filter(\.done).map(\.title).joined(separator: ", "))
            }
        }
    }

    @Test func rowsEditTheRightElementAfterInsertsAndDeletes() throws {
        let tree = RenderTree(Checklist())
        try tree.tap("Insert first")
        try tree.tap("Delete Milk")
        // Eggs was second, then third, now second again: its row still edits Eggs.
        try tree.toggle("Eggs")
        #expect(tree.texts == [
            "[Bread: off]", "[Eggs: on]", "[Tea: off]", "Insert first", "Delete Milk", "Done: Eggs",
        ])
        try tree.toggle("Tea")
        #expect(tree.texts.last == "Done: Eggs, Tea")
    }

    @Test func forEachBindingsAndOnDelete() throws {
        struct Editor: View {
            @State var names = ["Ann", "Bo", "Cy"].enumerated().map { Task(id: $0, title: $1) }
            var body: some View {
                Form {
                    Section(header: Text("People")) {
                        ForEach($names) { $person in
                            TextField("Name \(person.id)", text: $person.title)
                        }
                        .onDelete { names.remove(atOffsets: $0) }
                    }
                    Text(names.map(\.title).joined(separator: "+"))
                }
            }
        }
        let tree = RenderTree(Editor())
        try tree.delete("[Name 0: Ann]")
        try tree.type("Bob", into: "Name 1")
        #expect(tree.texts == ["People", "[Name 1: Bob]", "[Name 2: Cy]", "Bob+Cy"])
        #expect(throws: RenderTreeLookupError.self) { try tree.delete("Zed") }
    }

    @Test func removeAndMoveAtOffsetsMatchSwiftUI() throws {
        var letters = ["a", "b", "c", "d", "e"]
        letters.move(fromOffsets: IndexSet([0, 2]), toOffset: 4)
        #expect(letters == ["b", "d", "a", "c", "e"])
        letters.remove(atOffsets: IndexSet([1, 3]))
        #expect(letters == ["b", "a", "e"])
    }
}
