// The Ripple Playground: runnable chapters that go with the README and the DocC articles.
// `swift run Playground` runs every chapter; `swift run Playground 1` runs one;
// `swift run Playground --list` lists them.

let chapters: [Chapter] = [
    CallbacksChapter(),
    ObservableObjectChapter(),
    PushVsPullChapter(),
    SearchAsYouTypeChapter(),
    StateChapter(),
    ObjectOwnershipChapter(),
    ViewsPushPullChapter(),
    ViewModelBindingChapter(),
    EnvironmentChapter(),
    ObservableModelsChapter(),
    SeeingPipelinesChapter(),
]

let arguments = Array(CommandLine.arguments.dropFirst())

if arguments.contains("--list") {
    for (index, chapter) in chapters.enumerated() {
        print("\(index + 1). \(chapter.title)")
    }
} else {
    let selected: [Int]
    if arguments.isEmpty {
        selected = Array(chapters.indices)
    } else {
        selected = arguments.compactMap { Int($0).map { $0 - 1 } }.filter { chapters.indices.contains($0) }
        if selected.isEmpty {
            print("No such chapter: \(arguments.joined(separator: " ")). Try --list.")
        }
    }
    for index in selected {
        let chapter = chapters[index]
        print("━━━ Chapter \(index + 1): \(chapter.title) ━━━")
        print(chapter.summary)
        print("")
        try await chapter.run()
        print("")
    }
}
