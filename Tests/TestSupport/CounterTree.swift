import CourseModel

/// One written tree and the classifier's lines for two changes in it (a local change of
/// `count`, an environment change of `theme`), which the diagram rules and the whole check
/// are tested on.
package enum CounterTree {
    package static let tree = WrittenTree(binding: "tree", line: 2, views: [
        WrittenView("App", parent: nil, reads: []),
        WrittenView("Counter", parent: "App", reads: ["count"]),
        WrittenView("Label", parent: "Counter", reads: ["count", "theme"]),
        WrittenView("Footer", parent: "App", reads: ["theme"]),
    ], storage: [("count", .state(owner: "Counter")), ("theme", .environment)])

    package static let output = """
        arttir: count degisti | yeniden Counter yerel, Label ebeveyn | atlanan App,Footer
        yerel: 1
        tema: theme degisti | yeniden Label ortam, Footer ortam | atlanan App,Counter

        """
}
