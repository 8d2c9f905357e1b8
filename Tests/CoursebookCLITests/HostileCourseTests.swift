import Foundation
import TestSupport
import Testing

/// A course made to publish what is not its own, or to drive the terminal that prints its
/// findings: refused with a message that names the file, and nothing outside the course
/// reaches a lesson or a site.
@Suite(.serialized) struct HostileCourseTests {
    /// A course of one passing lesson (and `course.json` as given) in a scratch folder.
    func course(config: String = #"{ "title": "T", "language": "en", "limitNotes": "optional" }"#) throws -> URL {
        let folder = temporaryFolder("hostile-course").appendingPathComponent("course")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(config.utf8).write(to: folder.appendingPathComponent("course.json"))
        try Data("# One\n\n```swift scenario\nprint(1)\n```\n\n```output\n1\n```\n".utf8)
            .write(to: folder.appendingPathComponent("01-one.md"))
        return folder
    }

    func link(_ path: URL, to target: String) throws {
        try FileManager.default.createSymbolicLink(atPath: path.path, withDestinationPath: target)
    }

    @Test func aLessonThatLinksOutOfTheCourseIsRefused() throws {
        let folder = try course()
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        try link(folder.appendingPathComponent("02-leak.md"), to: "/etc/hostname")
        let result = try coursebook(["check", folder.path, "--no-cache"])
        #expect(result.status == 2)
        #expect(result.standardError == "\(folder.path)/02-leak.md: error: the lesson is a symbolic link to a file outside the course folder (/etc/hostname)\n")
    }

    @Test func updateWritesTheFileALessonLinksTo() throws {
        let folder = try course()
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let drafts = folder.appendingPathComponent("drafts")
        try FileManager.default.createDirectory(at: drafts, withIntermediateDirectories: true)
        try Data("# Two\n\n```swift scenario\nprint(2)\n```\n\n```output\nold\n```\n".utf8)
            .write(to: drafts.appendingPathComponent("two.md"))
        try link(folder.appendingPathComponent("02-two.md"), to: "drafts/two.md")
        let result = try coursebook(["check", folder.path, "--no-cache", "--update"])
        #expect(result.status == 0, "\(result)")
        #expect(try String(contentsOf: drafts.appendingPathComponent("two.md"), encoding: .utf8).contains("```output\n2\n```"))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.appendingPathComponent("02-two.md").path)
                == "drafts/two.md")
    }

    @Test func aCoreOutsideTheCourseRepositoryIsRefused() throws {
        let folder = try course(config: #"{ "title": "T", "language": "en",\#n  "core": ["/etc/hostname"] }"#)
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let result = try coursebook(["check", folder.path, "--no-cache"])
        #expect(result.status == 2)
        #expect(result.standardError.hasPrefix("\(folder.path)/course.json:2:1: error: core file '/etc/hostname' lies outside the course's repository"),
                "\(result)")
    }

    @Test func templatesComeFromTheCourseAlone() throws {
        let outside = try course(config: #"{ "title": "T", "language": "en", "limitNotes": "optional", "templates": "/etc" }"#)
        defer { try? FileManager.default.removeItem(at: outside.deletingLastPathComponent()) }
        let site = outside.deletingLastPathComponent().appendingPathComponent("site")
        let refused = try coursebook(["build", outside.path, "--no-cache", "--out", site.path])
        #expect(refused.status == 3)
        #expect(refused.standardError.contains("the templates folder lies outside the course's repository"), "\(refused)")

        let linking = try course(config: #"{ "title": "T", "language": "en", "limitNotes": "optional", "templates": "look" }"#)
        defer { try? FileManager.default.removeItem(at: linking.deletingLastPathComponent()) }
        let look = linking.appendingPathComponent("look")
        try FileManager.default.createDirectory(at: look, withIntermediateDirectories: true)
        try link(look.appendingPathComponent("netrc.css"), to: "/etc/hostname")
        let linked = try coursebook(["build", linking.path, "--no-cache", "--out", site.path])
        #expect(linked.status == 3)
        #expect(linked.standardError.contains("look/netrc.css: error: a symbolic link that leads out of the templates folder"), "\(linked)")
        #expect(!FileManager.default.fileExists(atPath: site.path))
    }

    @Test func whatALessonPrintsCannotDriveTheTerminal() throws {
        let folder = try course()
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        try Data("# Two\n\n```swift scenario\nprint(\"\\u{1B}]0;owned\\u{07}\\u{1B}[31mred\")\nlet crash: [Int] = []\nprint(crash[1])\n```\n\n```output\nred\n```\n".utf8)
            .write(to: folder.appendingPathComponent("02-two.md"))
        let result = try coursebook(["check", folder.path, "--no-cache"])
        #expect(result.status == 1)
        #expect(!result.standardError.contains("\u{1B}") && !result.standardError.contains("\u{07}"), "\(result)")
        #expect(result.standardError.contains("<U+001B>]0;owned<U+0007><U+001B>[31mred"), "\(result)")

        try Data("# Three\n".utf8).write(to: folder.appendingPathComponent("03-a\nb.md"))
        let named = try coursebook(["check", folder.path, "--no-cache"])
        #expect(named.status == 2)
        #expect(named.standardError == "\(folder.path): error: a lesson file's name holds a control character (03-a<U+000A>b.md); rename it\n", "\(named)")
    }
}
