import CourseModel
import Foundation
@testable import LessonParsing
import TestSupport
import Testing

struct LinkCheckTests {
    /// A course folder with an image, a hidden file, a folder, a symbolic link out of the
    /// course, and one lesson with `links`.
    func check(_ links: [String], images: Set<String> = []) throws -> LinkCheck.Findings {
        let folder = temporaryFolder("links")
        defer { try? FileManager.default.removeItem(at: folder) }
        let manager = FileManager.default
        try manager.createDirectory(at: folder.appendingPathComponent("img/sub"), withIntermediateDirectories: true)
        try manager.createDirectory(at: folder.appendingPathComponent(".git"), withIntermediateDirectories: true)
        try Data("png".utf8).write(to: folder.appendingPathComponent("img/a.png"))
        try Data("[core]".utf8).write(to: folder.appendingPathComponent(".git/config"))
        try manager.createSymbolicLink(atPath: folder.appendingPathComponent("img/out.png").path,
                                       withDestinationPath: "/etc/hostname")
        let lesson = Lesson(fileName: "01-a.md", path: "C/01-a.md", source: SourceText("# A\n"), title: "A",
                            headings: [], codeBlocks: [], scenarios: [], notes: [], mentions: [],
                            introduction: nil,
                            links: links.enumerated().map { index, destination in
                                LessonLink(destination: destination, isImage: images.contains(destination),
                                           line: index + 1, column: 3)
                            })
        return LinkCheck.check([lesson], folder: folder.path, displayFolder: "C", lessonFiles: ["01-a.md", "02-b.md"])
    }

    @Test func whatTheSiteCanCarry() throws {
        let found = try check(["02-b.md#x", "./img/a.png", "img/sub/../a.png", "https://swift.org", "#top", "mailto:a@b.c"],
                              images: ["./img/a.png"])
        #expect(found.diagnostics.isEmpty)
        #expect(found.files == ["img/a.png"])
    }

    @Test func whatAReaderCouldNotFollow() throws {
        let found = try check(["img/none.png", "../outside.md", ".git/config", "img/out.png", "img/sub",
                               "doc:Intro", "javascript:alert(1)", "/img/a.png"],
                              images: ["img/none.png"])
        #expect(found.files.isEmpty)
        #expect(found.diagnostics.map(\.id) == [.linkTargetMissing, .linkTargetOutside, .linkTargetOutside,
                                                 .linkTargetOutside, .linkTargetMissing, .linkTargetMissing,
                                                 .linkSchemeUnknown, .linkRootPath])
        #expect(found.diagnostics.allSatisfy { $0.severity == .warning })
        #expect(found.diagnostics.map { $0.location?.line } == Array(1...8))
        #expect(found.diagnostics[0].summary == "image 'img/none.png' points at nothing: C/img/none.png does not exist")
        #expect(found.diagnostics[5].summary
                == "link 'doc:Intro' names no lesson: a doc: link names a lesson by its file name without NN- and .md, case and dashes aside, and no lesson file is named so (NN-intro.md)")
        #expect(found.diagnostics[6].summary.contains("'javascript:' addresses are taken off pages for safety"))
    }
}
