import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Files a pull request can make that are not what their names say: a lesson, a linked file or
/// `course.json` that is a named pipe; two lesson names that Unicode calls one; folders and
/// links planted beside `--out` under the names of a build's own; a `--report` that is a link.
/// Each is refused at once with a message naming it, and nothing blocks, crashes or is adopted.
/// The odd files are made here, in a scratch folder (git could not carry them).
@Suite(.serialized) struct HostileFilesTests {
    /// A course of one passing lesson in a scratch folder (its parent is the test's root).
    func course() throws -> URL {
        let folder = temporaryFolder("hostile-files").appendingPathComponent("course")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(#"{ "title": "T", "language": "en", "limitNotes": "optional" }"#.utf8)
            .write(to: folder.appendingPathComponent("course.json"))
        try Data("# One\n\n```swift scenario\nprint(1)\n```\n\n```output\n1\n```\n".utf8)
            .write(to: folder.appendingPathComponent("01-one.md"))
        return folder
    }

    func fifo(_ url: URL) throws {
        try #require(mkfifo(url.path, 0o644) == 0, "mkfifo: \(String(cString: strerror(errno)))")
    }

    @Test func aLessonThatIsANamedPipeIsRefusedAtOnce() throws {
        let folder = try course()
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        try fifo(folder.appendingPathComponent("02-pipe.md"))
        for command in ["check", "build"] {
            let out = folder.deletingLastPathComponent().appendingPathComponent("site").path
            let result = try coursebook([command, folder.path, "--no-cache"] + (command == "build" ? ["--out", out] : []))
            #expect(result.status == 2, "\(result)")
            #expect(result.standardOutput == "")
            #expect(result.standardError == "\(folder.path)/02-pipe.md: error: the lesson is not a regular file but a named pipe (FIFO); a lesson is a plain Markdown file\n", "\(result)")
        }
    }

    @Test func aCourseJSONThatIsANamedPipeIsNotMissing() throws {
        let folder = try course()
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let config = folder.appendingPathComponent("course.json")
        try FileManager.default.removeItem(at: config)
        try fifo(config)
        let result = try coursebook(["check", folder.path, "--no-cache"])
        #expect(result.status == 2)
        #expect(result.standardError == "\(folder.path)/course.json: error: course.json is not a regular file but a named pipe (FIFO); it must be a plain JSON file\n", "\(result)")
        let new = try coursebook(["new", "lesson", "Two", folder.path])
        #expect(new.status == 2)
        #expect(new.standardError.contains("course.json is not a regular file but a named pipe (FIFO)"), "\(new)")
    }

    @Test func aTemplateThatIsANamedPipeIsRefusedAtOnce() throws {
        let folder = try course()
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        try Data(#"{ "title": "T", "language": "en", "limitNotes": "optional", "templates": "look" }"#.utf8)
            .write(to: folder.appendingPathComponent("course.json"))
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("look"), withIntermediateDirectories: true)
        try fifo(folder.appendingPathComponent("look/layout.html"))
        let site = folder.deletingLastPathComponent().appendingPathComponent("site")
        let result = try coursebook(["build", folder.path, "--no-cache", "--out", site.path])
        #expect(result.status == 3, "\(result)")
        #expect(result.standardError == "\(folder.path)/look/layout.html: error: cannot read the template (it must be a plain file)\n", "\(result)")
    }

    /// JSON nested 100,000 deep: Foundation's parser stops at 512 levels, and the course
    /// cannot be read, at the place it stopped.
    @Test func aCourseJSONNestedDeepIsAnErrorNotACrash() throws {
        let folder = try course()
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let nested = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        try Data(#"{ "title": "T", "language": "en", "x": \#(nested) }"#.utf8).write(to: folder.appendingPathComponent("course.json"))
        let result = try coursebook(["check", folder.path, "--no-cache"])
        #expect(result.status == 2)
        #expect(result.standardError == "\(folder.path)/course.json:1:552: error: not valid JSON: too many nested arrays or dictionaries\n", "\(result)")
    }

    /// A link to a named pipe is a warning at the link, and the pipe is never opened: the
    /// build writes the site without it.
    @Test func aLinkedNamedPipeIsAWarningAndNeverOpened() throws {
        let folder = try course()
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        try Data("# Two\n\nThe [data](data.txt) of it.\n".utf8).write(to: folder.appendingPathComponent("02-two.md"))
        try fifo(folder.appendingPathComponent("data.txt"))
        let warning = "\(folder.path)/02-two.md:3:5: warning: link 'data.txt' points at a named pipe (FIFO), not a regular file; the site carries regular files only, and coursebook does not open it\n"
        let checked = try coursebook(["check", folder.path, "--no-cache"])
        #expect(checked.status == 0)
        #expect(checked.standardError == warning, "\(checked)")
        let site = folder.deletingLastPathComponent().appendingPathComponent("site")
        let built = try coursebook(["build", folder.path, "--no-cache", "--no-search", "--out", site.path])
        #expect(built.status == 0, "\(built)")
        #expect(built.standardError == warning)
        #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent("data.txt").path))
        let strict = try coursebook(["check", folder.path, "--no-cache", "--strict"])
        #expect(strict.status == 1)
    }

    /// `01-café.md` with a composed `é` and with `e` and a combining accent: two files to git
    /// and the file system, one to Swift's `==`. An error naming both, not a crash.
    @Test func twoLessonNamesEqualUnderNormalizationAreAnError() throws {
        let folder = try course()
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let composed = "02-caf\u{E9}.md", decomposed = "02-cafe\u{301}.md"
        for name in [composed, decomposed] {
            try Data("# Café\n".utf8).write(to: URL(fileURLWithPath: folder.path + "/" + name))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == 4)
        let result = try coursebook(["check", folder.path, "--no-cache"])
        #expect(result.status == 2, "\(result)")
        #expect(result.standardError == "\(folder.path): error: two lesson files have names that are equal under Unicode normalization, \(decomposed) (02-cafe<U+0301>.md) and \(composed) (02-caf<U+00E9>.md); Swift and most tools take them for one file: rename one\n", "\(result)")
    }

    /// Two linked files whose names differ only so are two files: each is carried, with its
    /// own bytes.
    @Test func linkedFilesEqualUnderNormalizationAreTwoFiles() throws {
        let folder = try course()
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let composed = "caf\u{E9}.txt", decomposed = "cafe\u{301}.txt"
        try Data("composed".utf8).write(to: URL(fileURLWithPath: folder.path + "/" + composed))
        try Data("decomposed".utf8).write(to: URL(fileURLWithPath: folder.path + "/" + decomposed))
        try Data("# Two\n\n[One](\(composed)) and [two](\(decomposed)).\n".utf8).write(to: folder.appendingPathComponent("02-two.md"))
        let site = folder.deletingLastPathComponent().appendingPathComponent("site")
        let built = try coursebook(["build", folder.path, "--no-cache", "--no-search", "--out", site.path])
        #expect(built.status == 0, "\(built)")
        #expect(built.standardOutput.hasSuffix("; 2 files the lessons link to\n"), "\(built)")
        #expect(FileManager.default.contents(atPath: site.path + "/" + composed) == Data("composed".utf8))
        #expect(FileManager.default.contents(atPath: site.path + "/" + decomposed) == Data("decomposed".utf8))
    }

    /// A site moved aside under a build's name, committed to the repository: a build (here one
    /// whose check fails) refuses it before any scenario runs, and puts nothing in place.
    @Test func aPlantedOldSiteIsNeverPutInPlace() throws {
        let folder = try course()
        let root = folder.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: root) }
        try Data("# Two\n\n```swift scenario\nprint(2)\n```\n\n```output\nthree\n```\n".utf8)
            .write(to: folder.appendingPathComponent("02-two.md"))
        let planted = root.appendingPathComponent("._site.coursebook-old-x")
        try FileManager.default.createDirectory(at: planted, withIntermediateDirectories: true)
        try Data("pwned".utf8).write(to: planted.appendingPathComponent("index.html"))
        let out = root.appendingPathComponent("_site")
        let result = try coursebook(["build", folder.path, "--no-cache", "--out", out.path])
        #expect(result.status == 4, "\(result)")
        #expect(result.standardOutput == "")
        #expect(result.standardError == "coursebook build: build failed in step read: \(out.path): \(planted.path) was not left by a coursebook build of this user (it has no marker of a build); a build neither puts it in place nor removes it: remove it yourself, or choose another --out\n", "\(result)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
        #expect(FileManager.default.contents(atPath: planted.appendingPathComponent("index.html").path) == Data("pwned".utf8))

        // A link of that name, to a site this user built: refused too.
        try FileManager.default.removeItem(at: planted)
        try FileManager.default.removeItem(at: folder.appendingPathComponent("02-two.md"))
        let real = root.appendingPathComponent("real")
        #expect(try coursebook(["build", folder.path, "--no-cache", "--no-search", "--out", real.path]).status == 0)
        try FileManager.default.createSymbolicLink(at: planted, withDestinationURL: real)
        let linked = try coursebook(["build", folder.path, "--no-cache", "--no-search", "--out", out.path])
        #expect(linked.status == 4)
        #expect(linked.standardError.contains("\(planted.path) was not left by a coursebook build of this user (it is a symbolic link, not a folder)"), "\(linked)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    /// A lock file committed as a link: the build creates nothing where it points.
    @Test func aPlantedLockLinkIsRefused() throws {
        let folder = try course()
        let root = folder.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: root) }
        let lock = root.appendingPathComponent("._site.coursebook-lock")
        let target = root.appendingPathComponent("owned")
        try FileManager.default.createSymbolicLink(atPath: lock.path, withDestinationPath: target.path)
        let out = root.appendingPathComponent("_site")
        let result = try coursebook(["build", folder.path, "--no-cache", "--out", out.path])
        #expect(result.status == 4, "\(result)")
        #expect(result.standardError == "coursebook build: build failed in step read: \(out.path): cannot use the lock file \(lock.path): it is a symbolic link; remove it, or choose another --out\n", "\(result)")
        #expect(!FileManager.default.fileExists(atPath: target.path))
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    /// A title longer than a file name may be: the name keeps its first words, and says so.
    @Test func newLessonShortensALongTitle() throws {
        let folder = try course()
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let title = (1...55).map { "Word\($0)" }.joined(separator: " ")
        #expect(title.count > 330)
        let result = try coursebook(["new", "lesson", title, folder.path])
        #expect(result.status == 0, "\(result)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("02-") }
        #expect(names.count == 1)
        let name = try #require(names.first)
        #expect(name.utf8.count <= 255 && name.hasPrefix("02-word1-word2-") && name.hasSuffix(".md"), "\(name)")
        let last = try #require(name.dropLast(3).split(separator: "-").last)
        #expect(title.lowercased().split(separator: " ").contains(last), "cut inside a word: \(name)")
        #expect(result.standardOutput.hasPrefix("wrote \(folder.path)/\(name) (its limitation note is DR1)\nthe title is too long for a file name (255 bytes at most): the name holds its first words\nnext: "), "\(result)")
        let text = try String(contentsOfFile: folder.path + "/" + name, encoding: .utf8)
        #expect(text.hasPrefix("# \(title)\n"))
        // Nothing else was left in the course folder.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["01-one.md", name, "course.json"])
    }

    /// `--report` through a link is refused: the link stays, nothing is written where it
    /// points, and the check's own verdict is still printed.
    @Test func aReportThatIsALinkIsRefused() throws {
        let folder = try course()
        let root = folder.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: root) }
        let target = root.appendingPathComponent("target.xml")
        try Data("keep".utf8).write(to: target)
        let report = root.appendingPathComponent("report.xml")
        try FileManager.default.createSymbolicLink(atPath: report.path, withDestinationPath: target.path)
        let result = try coursebook(["check", folder.path, "--no-cache", "--report", report.path])
        #expect(result.status == 4, "\(result)")
        #expect(result.standardOutput == "compiled 1 scenario (1 swiftc run), cache not used\n1 passed, 0 failed\n")
        #expect(result.standardError == "coursebook check: check failed in step judge: cannot write the report \(report.path): it is a symbolic link (to \(target.path)), and coursebook writes a report only as a file of its own; give the path of the file itself\n", "\(result)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: report.path) == target.path)
        #expect(FileManager.default.contents(atPath: target.path) == Data("keep".utf8))
    }
}
