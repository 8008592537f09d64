import RippleUI
import Testing

@Suite @MainActor struct DateAndGeometryTests {
    static func date(_ day: Int, _ hour: Int, _ minute: Int) -> Date {
        Calendar.current.date(from: DateComponents(year: 2026, month: 3, day: day, hour: hour, minute: minute))!
    }

    @Test func aDatePickerIsShownAndSetFromTheTestAPI() throws {
        struct Reminder: View {
            @State private var due = DateAndGeometryTests.date(14, 9, 30)
            var body: some View {
                Form {
                    DatePicker("Due", selection: $due, in: DateAndGeometryTests.date(1, 0, 0)...)
                    DatePicker("Day", selection: $due, displayedComponents: .date)
                    Text(due > DateAndGeometryTests.date(20, 0, 0) ? "late" : "soon")
                }
            }
        }
        let tree = RenderTree(Reminder())
        #expect(tree.texts == ["[Due: 2026-03-14 09:30]", "[Day: 2026-03-14]", "soon"])
        try tree.pick(Self.date(25, 18, 5), in: "Due")
        #expect(tree.texts == ["[Due: 2026-03-25 18:05]", "[Day: 2026-03-25]", "late"])
        // Before the range: kept at its start, as the wheel keeps it.
        try tree.pick(Self.date(1, 0, 0).addingTimeInterval(-86_400), in: "Due")
        #expect(tree.texts.first == "[Due: 2026-03-01 00:00]")
        #expect(throws: RenderTreeLookupError.self) { try tree.pick(Date(), in: "Start") }
    }

    @Test func aGeometryReaderSeesTheSizeATestGives() {
        struct Adaptive: View {
            var body: some View {
                GeometryReader { proxy in
                    if proxy.size.width > 600 { Text("wide \(Int(proxy.size.width))") } else { Text("narrow \(Int(proxy.size.width))") }
                }
            }
        }
        let tree = RenderTree(Adaptive())
        #expect(tree.texts == ["narrow 393"])
        tree.screenSize = CGSize(width: 1024, height: 768)
        #expect(tree.texts == ["wide 1024"])
        #expect(tree.log == ["Adaptive: @identity"])
    }
}
