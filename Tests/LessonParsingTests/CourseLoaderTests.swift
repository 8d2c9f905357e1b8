import BackgroundWork
@testable import LessonParsing
import CourseModel
import Foundation
import TestSupport
import Testing

struct CourseLoaderTests {
    func makeCourse(_ files: [String: [UInt8]]) -> URL {
        let folder = temporaryFolder("loader")
        for (name, bytes) in files {
            let url = folder.appendingPathComponent(name)
            try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: url.path, contents: Data(bytes))
        }
        return folder
    }

    func loadError(_ files: [String: [UInt8]]) -> Diagnostic? {
        let folder = makeCourse(files)
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            _ = try CourseLoader.load(folder: folder.path)
            return nil
        } catch {
            var diagnostic = error.diagnostic
            if let file = diagnostic.location?.file {
                diagnostic.location?.file = file.replacingOccurrences(of: folder.path, with: "C")
            }
            return diagnostic
        }
    }

    let config = Array(#"{ "title": "T", "language": "en", "core": ["Core.swift"] }"#.utf8)

    @Test func readsLessonsInOrderOfName() throws {
        let folder = makeCourse(["course.json": config, "Core.swift": Array("struct C {}\n".utf8),
                                 "10-b.md": Array("# B\n".utf8), "02-a.md": Array("# A\n".utf8),
                                 "notes.md": [], "README.md": []])
        defer { try? FileManager.default.removeItem(at: folder) }
        let counts = WorkCounts()
        let loaded = try CourseLoader.load(folder: folder.path, counts: counts)
        let (course, diagnostics) = (loaded.course, loaded.diagnostics)
        #expect(course.lessons.map(\.fileName) == ["02-a.md", "10-b.md"])
        #expect(loaded.documents.count == 2)
        #expect(counts.markdownParses.load(ordering: .relaxed) == 2)
        #expect(course.lessons.map(\.title) == ["A", "B"])
        #expect(course.coreFiles.map(\.name) == ["Core.swift"])
        #expect(course.config == CourseConfig(title: "T", language: "en", core: ["Core.swift"]))
        #expect(diagnostics.isEmpty)
    }

    /// A check makes no pages: it keeps what it read from each lesson, not the parsed trees.
    @Test func aLoadForNoPagesKeepsNoDocuments() throws {
        let folder = makeCourse(["course.json": config, "Core.swift": Array("struct C {}\n".utf8),
                                 "01-a.md": Array("# A\n\nIntro.\n\n```swift\nprint(1)\n```\n".utf8),
                                 "02-b.md": Array("# B\n".utf8)])
        defer { try? FileManager.default.removeItem(at: folder) }
        let forPages = try CourseLoader.load(folder: folder.path)
        let forCheck = try CourseLoader.load(folder: folder.path, forPages: false)
        #expect(forPages.documents.count == 2)
        #expect(forCheck.documents.isEmpty)
        #expect(forCheck.course.lessons.map(\.title) == ["A", "B"])
        #expect(forCheck.course.lessons.map(\.scenarios.count) == forPages.course.lessons.map(\.scenarios.count))
        #expect(forCheck.diagnostics == forPages.diagnostics)
    }

    @Test func noCourseJSON() {
        #expect(loadError(["01-a.md": []])?.summary == "no course.json: a course folder needs one (title, language; core when scenarios share code)")
    }

    @Test func invalidJSONNamesItsLine() {
        let found = loadError(["course.json": Array("{\n  \"title\": \"T\",\n  oops\n}".utf8)])
        #expect(found?.location?.file == "C/course.json")
        #expect(found?.location?.line == 3)
        #expect(found?.summary.hasPrefix("not valid JSON") == true)
    }

    @Test(arguments: [
        (#"{ "title": "T", "language": "en", "core": ["C.swift"], "theme": 1 }"#, "unknown key 'theme' (known: title, language, core, description, templates, typography, limitNotes, diagrams, languageMode, glossary, labels)"),
        (#"{ "title": "T", "language": "en", "labels": ["02-words.md"] }"#, "'labels' must be an object of lesson files and what each page is (\"08-ozet.md\": \"Özet\"), every label a non-empty string"),
        (#"{ "title": "T", "language": "en", "labels": { "02-words.md": 2 } }"#, "'labels' must be an object of lesson files and what each page is (\"08-ozet.md\": \"Özet\"), every label a non-empty string"),
        (#"{ "language": "en", "core": ["C.swift"] }"#, "missing 'title'"),
        (#"{ "title": 3, "language": "en", "core": ["C.swift"] }"#, "'title' must be a non-empty string"),
        (#"{ "title": "T", "language": "en us", "core": ["C.swift"] }"#, "'language' must be a BCP 47 tag such as \"tr\" or \"en-GB\""),
        (#"{ "title": "T", "language": "en", "core": "C.swift" }"#, "'core' must be a list of paths (relative to the course folder)"),
        (#"{ "title": "T", "language": "en", "core": [""] }"#, "'core' must be a list of paths (relative to the course folder)"),
        (#"[1]"#, "course.json must hold one object: { \"title\": ..., \"language\": ..., \"core\": [...] }"),
        (#"{ "title": "T", "language": "en", "core": ["C.swift"], "typography": "fancy" }"#, "'typography' is \"plain\" or \"smart\", not \"fancy\""),
        (#"{ "title": "T", "language": "en", "limitNotes": "sometimes" }"#, "'limitNotes' is \"required\" or \"optional\", not \"sometimes\""),
        (#"{ "title": "T", "language": "en", "limitNotes": false }"#, "'limitNotes' must be a non-empty string"),
        (#"{ "title": "T", "language": "en", "languageMode": "7" }"#, "'languageMode' is \"5\" or \"6\" (the Swift language mode scenarios are compiled in: -swift-version N)"),
        (#"{ "title": "T", "language": "en", "languageMode": true }"#, "'languageMode' is \"5\" or \"6\" (the Swift language mode scenarios are compiled in: -swift-version N)"),
        (#"{ "title": "T", "language": "en", "languageMode": "6.0" }"#, "'languageMode' is \"5\" or \"6\" (the Swift language mode scenarios are compiled in: -swift-version N)"),
    ])
    func strictSettings(json: String, message: String) {
        #expect(loadError(["course.json": Array(json.utf8)])?.summary == message)
    }

    /// The manual's table of `course.json`'s keys (docs/lesson-format.md) lists exactly the keys
    /// the reader knows, which `CourseFile.Key` declares.
    @Test func theManualListsEveryKeyOfCourseJSON() throws {
        let page = try String(contentsOf: packageRoot.appendingPathComponent("docs/lesson-format.md"), encoding: .utf8)
        let table = page.components(separatedBy: "## Lessons")[0]
        let listed = table.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("| `"), let end = line.dropFirst(3).firstIndex(of: "`") else { return nil }
            return String(line[line.index(line.startIndex, offsetBy: 3)..<end])
        }
        #expect(listed.sorted() == CourseConfigReader.knownKeys.sorted())
        #expect(Set(listed).count == listed.count)
    }

    @Test func anUnknownKeyListsTheKnownOnesAtItsLine() {
        let json = "{ \"title\": \"T\",\n  \"language\": \"en\",\n  \"colour\": \"red\" }"
        let found = loadError(["course.json": Array(json.utf8)])
        #expect(found?.summary == "unknown key 'colour' (known: title, language, core, description, templates, typography, limitNotes, diagrams, languageMode, glossary, labels)")
        #expect(found?.location?.line == 3)
    }

    @Test(arguments: [(#""6""#, LanguageMode.swift6), ("5", .swift5), ("null", nil)])
    func aLanguageMode(value: String, mode: LanguageMode?) throws {
        let json = value == "null" ? #"{ "title": "T", "language": "en" }"# : #"{ "title": "T", "language": "en", "languageMode": \#(value) }"#
        #expect(try CourseConfigReader.read(Array(json.utf8), file: "course.json").languageMode == mode)
    }

    /// The glossary is one of the course's lessons; a name that is none is an error at its line.
    @Test func theGlossaryIsALessonOfTheCourse() throws {
        let json = "{ \"title\": \"T\", \"language\": \"en\", \"limitNotes\": \"optional\",\n  \"glossary\": \"09-terms.md\" }"
        let found = loadError(["course.json": Array(json.utf8), "01-a.md": Array("# A\n".utf8)])
        #expect(found?.summary == "'glossary' names '09-terms.md', which is not a lesson file of the course (lessons are named NN-slug.md)")
        #expect(found?.location?.line == 2)
        let folder = makeCourse(["course.json": Array(json.replacingOccurrences(of: "09-terms.md", with: "01-a.md").utf8),
                                 "01-a.md": Array("# A\n".utf8)])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try CourseLoader.load(folder: folder.path).course.config.glossary == "01-a.md")
    }

    @Test func aCourseWithoutCore() throws {
        let folder = makeCourse([
            "course.json": Array(#"{ "title": "Book", "language": "en", "limitNotes": "optional" }"#.utf8),
            "01-a.md": Array("# A\n".utf8),
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let loaded = try CourseLoader.load(folder: folder.path)
        #expect(loaded.course.coreFiles.isEmpty)
        #expect(loaded.course.config == CourseConfig(title: "Book", language: "en", core: [], limitNotes: .optional))
        let noCoreKey = makeCourse([
            "course.json": Array(#"{ "title": "Book", "language": "en", "core": [] }"#.utf8),
            "01-a.md": Array("# A\n".utf8),
        ])
        defer { try? FileManager.default.removeItem(at: noCoreKey) }
        #expect(try CourseLoader.load(folder: noCoreKey.path).course.config.limitNotes == .required)
    }

    @Test func aMissingCoreFileIsNamedAtItsLine() {
        let found = loadError(["course.json": Array("{ \"title\": \"T\", \"language\": \"en\",\n  \"core\": [\"../Nope.swift\"] }".utf8)])
        #expect(found?.summary.hasPrefix("core file '../Nope.swift' does not exist") == true)
        #expect(found?.location?.line == 2)
    }

    /// A core that is there but is no Swift file says what it is, not that it is missing.
    @Test func aCoreThatIsAFolderOrADeviceSaysSo() throws {
        let folder = makeCourse(["course.json": Array("{ \"title\": \"T\", \"language\": \"en\",\n  \"core\": [\"Core\"] }".utf8),
                                 "Core/inside.swift": [], "01-a.md": Array("# A\n".utf8)])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: CourseReadError("core file 'Core' is a folder, not a Swift file (\(folder.path)/Core)",
                                        file: folder.path + "/course.json", line: 2)) {
            try CourseLoader.load(folder: folder.path)
        }
        try Data(#"{ "title": "T", "language": "en", "core": ["/dev/null"] }"#.utf8).write(to: folder.appendingPathComponent("course.json"))
        #expect(throws: CourseReadError("core file '/dev/null' is not a regular file but a device (/dev/null)",
                                        file: folder.path + "/course.json", line: 1)) {
            try CourseLoader.load(folder: folder.path)
        }
    }

    /// `X` and `./X` are one file: compiled twice it would fail every scenario.
    @Test(arguments: [
        ("{ \"title\": \"T\", \"language\": \"en\", \"core\": [\n  \"Core.swift\",\n  \"./Core.swift\"\n] }", 3,
         "core file './Core.swift' is listed twice: 'Core.swift' is the same file; list it once"),
        ("{ \"title\": \"T\", \"language\": \"en\", \"core\": [\n  \"Core.swift\",\n  \"Core.swift\"\n] }", 3,
         "core file 'Core.swift' is listed twice: 'Core.swift' is the same file; list it once"),
        ("{ \"title\": \"T\", \"language\": \"en\", \"core\": [\n  \"Core.swift\",\n  \"more/Core.swift\"\n] }", 3,
         "core file 'more/Core.swift' has the same file name as 'Core.swift'; the compiler needs core files with different names"),
    ])
    func aCoreListedTwiceIsAnErrorAtItsLine(json: String, line: Int, message: String) {
        let found = loadError(["course.json": Array(json.utf8), "Core.swift": [], "more/Core.swift": [], "01-a.md": Array("# A\n".utf8)])
        #expect(found?.summary == message)
        #expect(found?.location == SourceLocation(file: "C/course.json", line: line))
    }

    /// JSON keeps the last of two equal keys; course.json names the second.
    @Test func aKeyGivenTwiceIsAnErrorAtItsLine() {
        let found = loadError(["course.json": Array("{\n  \"title\": \"A\",\n  \"language\": \"en\",\n  \"title\": \"B\"\n}".utf8),
                               "01-a.md": Array("# A\n".utf8)])
        #expect(found?.summary == "key 'title' is given twice (first at line 2); keep one")
        #expect(found?.location == SourceLocation(file: "C/course.json", line: 4))
        // Equal strings elsewhere are not keys.
        #expect(CourseConfigReader.topLevelKeys(Array(#"{ "core": ["title", "a\"b"], "title": "core" }"#.utf8)).map(\.key)
                == ["core", "title"])
    }

    @Test func aLessonThatIsNotUTF8IsNamedWithItsLine() {
        let found = loadError(["course.json": config, "Core.swift": [],
                               "01-a.md": Array("# A\n\nok\nbad \u{00E7}".utf8).dropLast(1) + [0xE7, 0x0A]])
        #expect(found?.location?.file == "C/01-a.md")
        #expect(found?.location?.line == 4)
        #expect(found?.summary.hasPrefix("not UTF-8") == true)
    }

    @Test func noLessons() {
        #expect(loadError(["course.json": config, "Core.swift": []])?.summary
                == "no lesson files: lessons are named NN-slug.md (01-intro.md ...)")
    }

    @Test func noFolder() {
        #expect(throws: CourseReadError.self) { try CourseLoader.load(folder: "/nonexistent/course") }
    }

    @Test(arguments: [("01-a.md", true), ("1-x.md", true), ("01-.md", false), ("a-01.md", false),
                      ("01-a.markdown", false), ("01a.md", false)])
    func lessonFileNames(name: String, isLesson: Bool) {
        #expect(CourseLoader.isLessonFileName(name) == isLesson)
    }
}
