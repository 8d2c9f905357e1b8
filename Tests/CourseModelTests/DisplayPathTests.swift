import CourseModel
import Testing

struct DisplayPathTests {
    @Test(arguments: [
        ("lessons", "course.json", "lessons/course.json"),
        ("lessons", "../Sources/X.swift", "Sources/X.swift"),
        (".", "01-a.md", "01-a.md"),
        ("a/b", "../../../x.swift", "../x.swift"),
        ("/abs/lessons", "../Sources/X.swift", "/abs/Sources/X.swift"),
        ("lessons", "/etc/core.swift", "/etc/core.swift"),
    ])
    func folds(folder: String, relative: String, expected: String) {
        #expect(displayPath(folder, relative) == expected)
    }
}
