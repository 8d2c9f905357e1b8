import Foundation
import Testing

/// Change diagrams through the built binary: drawn on the page, a note (never a failure) for a
/// tree built at run time, an error for an output that names a view the tree lacks, and both
/// ways of turning them off.
struct DiagramCommandTests {
    func run(_ arguments: [String], in folder: URL = fixtures) throws -> CommandResult {
        let cache = temporaryFolder("diagram-cache")
        defer { try? FileManager.default.removeItem(at: cache) }
        return try coursebook(arguments + ["--cache-dir", cache.path], in: folder)
    }

    @Test func theCheckNotesWhatItCannotDrawAndStillPasses() throws {
        for strict in [false, true] {
            let result = try run(["check", "diagrams"] + (strict ? ["--strict"] : []))
            let errorOrWarning = strict ? "error" : "warning"
            #expect(result.status == (strict ? 1 : 0), "\(result)")
            #expect(result.standardError == """
                diagrams/01-diagrams.md:31:1: note: no change diagrams for this scenario: its view tree is built when it runs (its nodes are not an array literal); write its views and storage out as literals, or add 'no-diagram' to the block
                diagrams/01-diagrams.md:34:1: note: the view tree is here
                diagrams/01-diagrams.md:70:1: \(errorOrWarning): 'no-diagram' applies only to 'swift scenario' blocks

                """, "\(result)")
            #expect(result.standardOutput.hasSuffix("\(strict ? "1 error, 0 warnings" : "0 errors, 1 warning"), 1 note\n3 passed, 0 failed\n"), "\(result)")
        }
    }

    @Test func anOutputThatNamesAViewTheTreeLacksIsAnError() throws {
        let result = try run(["check", "diagram-disagrees"])
        #expect(result.status == 1, "\(result)")
        #expect(result.standardError == """
            diagram-disagrees/01-forged.md:5:1: error: the output and the view tree disagree: output line 6 (`elle: count`) names 'Ghost', which is not in the scenario's view tree
            diagram-disagrees/01-forged.md:7:1: note: the view tree is here

            """, "\(result)")
        #expect(result.standardOutput.hasSuffix("1 error, 0 warnings\n1 passed, 0 failed\n"), "\(result)")
        // Nothing is published from it.
        let out = temporaryFolder("diagram-disagrees").appendingPathComponent("site")
        defer { try? FileManager.default.removeItem(at: out.deletingLastPathComponent()) }
        #expect(try run(["build", "diagram-disagrees", "--out", out.path, "--no-search"]).status == 1)
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test func thePageDrawsEveryChangeOfTheWrittenTreeAndNothingElse() throws {
        let out = temporaryFolder("diagrams-site").appendingPathComponent("site")
        defer { try? FileManager.default.removeItem(at: out.deletingLastPathComponent()) }
        let result = try run(["build", "diagrams", "--out", out.path, "--no-search"])
        #expect(result.status == 0, "\(result)")
        let page = try String(contentsOf: out.appendingPathComponent("01-diagrams.html"), encoding: .utf8)
        #expect(page.components(separatedBy: "<div class=\"diagrams\" data-pagefind-ignore>").count == 2)
        #expect(page.components(separatedBy: "<figure class=\"diagram").count == 3)
        #expect(page.contains("aria-label=\"arttir: count changed (@State of Counter). Recomputed: Counter (yerel), Label (ebeveyn). Skipped: App, Footer. Tree: under App, Counter, Footer; under Counter, Label.\""))
        #expect(page.contains("aria-label=\"tema: theme changed (environment value). Recomputed: Label (ortam), Footer (ortam). Skipped: App, Counter."))
        // Under the output of its scenario, inside its figure.
        let figure = page.components(separatedBy: "<figure class=\"scenario\">")[1]
        #expect(figure.contains("<div class=\"output verified\"") && figure.contains("<div class=\"diagrams\""))
        // The whole course carries them too.
        let whole = try String(contentsOf: out.appendingPathComponent("print.html"), encoding: .utf8)
        #expect(whole.components(separatedBy: "<figure class=\"diagram").count == 3)
    }

    /// `"diagrams": "off"` in course.json: no picture, no note, no error.
    @Test func theCourseCanTurnThemOff() throws {
        for fixture in ["diagrams", "diagram-disagrees"] {
            let course = try copyOfFixture(fixture)
            defer { try? FileManager.default.removeItem(at: course.deletingLastPathComponent()) }
            let config = course.appendingPathComponent("course.json")
            let text = try String(contentsOf: config, encoding: .utf8)
            try text.replacingOccurrences(of: "\"language\": \"en\",", with: "\"language\": \"en\", \"diagrams\": \"off\",")
                .write(to: config, atomically: true, encoding: .utf8)
            let out = course.deletingLastPathComponent().appendingPathComponent("site")
            let result = try run(["build", course.path, "--out", out.path, "--no-search"])
            #expect(result.status == 0, "\(result)")
            #expect(!result.standardError.contains("note:") && !result.standardError.contains("error:"), "\(result)")
            let page = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasPrefix("01-") }
                .map { try String(contentsOf: out.appendingPathComponent($0), encoding: .utf8) }.joined()
            #expect(!page.isEmpty && !page.contains("class=\"diagram"))
        }
    }

    @Test func aWrongSettingIsAnErrorAtItsLine() throws {
        let course = try copyOfFixture("diagrams")
        defer { try? FileManager.default.removeItem(at: course.deletingLastPathComponent()) }
        try #"{ "title": "T", "language": "en", "core": ["Invalidation.swift"],\#n  "diagrams": "no" }"#
            .write(to: course.appendingPathComponent("course.json"), atomically: true, encoding: .utf8)
        let result = try run(["check", course.path])
        #expect(result.status == 2, "\(result)")
        #expect(result.standardError.hasSuffix("course.json:2:1: error: 'diagrams' is \"on\" or \"off\", not \"no\"\n"), "\(result)")
    }
}
