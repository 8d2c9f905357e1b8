import CoursePipeline
@testable import CourseSite
import Foundation
import TestSupport
import Testing

/// Pagefind reads copies of the lesson pages without their navigation (`SearchCopy`): the
/// index it makes of them is byte for byte the one it makes of the pages themselves.
struct SearchCopyTests {
    @Test func pagefindMakesOfTheCopiesTheIndexItMakesOfThePages() throws {
        guard let pagefind = Self.onPath("pagefind") else {
            Issue.record("pagefind is not installed: 'make' installs it (pip install pagefind-bin)")
            return
        }
        var options = BuildCommandOptions()
        options.shared.course = fixtures.appendingPathComponent("site").path
        options.shared.cache = .none
        options.search = true
        let (_, files, copies) = try Pipeline().siteFilesAndSearchCopies(options)
        let lessonPages = ["01-first.html", "02-second.html"]
        #expect(copies.map(\.path) == lessonPages)
        let pages = files.filter { lessonPages.contains($0.path) }
        #expect(pages.count == 2)
        for (page, copy) in zip(pages, copies) {
            let text = String(decoding: page.bytes, as: UTF8.self), copied = String(decoding: copy.bytes, as: UTF8.self)
            // The page lists both lessons (twice) and its sections; the copy lists nothing.
            #expect(text.contains("toc-sections") && text.contains("class=\"page-map\"") && text.contains("aria-current=\"page\""))
            #expect(!copied.contains("toc-sections") && !copied.contains("class=\"page-map\"") && !copied.contains("aria-current=\"page\""))
            #expect(copied.components(separatedBy: "<ol class=\"toc\">").count == 3)
            #expect(copied.count < text.count)
        }
        let root = temporaryFolder("search-copy")
        defer { try? FileManager.default.removeItem(at: root) }
        func index(_ files: [SiteFile], _ name: String) throws -> [String: Data] {
            let site = root.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
            for file in files { try Data(file.bytes).write(to: site.appendingPathComponent(file.path)) }
            let output = root.appendingPathComponent(name + "-index")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: pagefind)
            process.arguments = ["--site", site.path, "--output-path", output.path]
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            var found: [String: Data] = [:]
            for case let name as String in FileManager.default.enumerator(atPath: output.path)?.allObjects ?? [] {
                var isFolder: ObjCBool = false
                if FileManager.default.fileExists(atPath: output.appendingPathComponent(name).path, isDirectory: &isFolder), !isFolder.boolValue {
                    found[name] = FileManager.default.contents(atPath: output.appendingPathComponent(name).path)
                }
            }
            return found
        }
        let fromPages = try index(pages, "pages"), fromCopies = try index(copies, "copies")
        #expect(fromPages.keys.contains { $0.hasPrefix("fragment/") })
        #expect(fromPages.keys.sorted() == fromCopies.keys.sorted())
        #expect(fromPages == fromCopies)
    }

    /// A layout of the course's own may put anything around the article: its pages are read as
    /// they are, and get no copies.
    @Test func aLayoutOfTheCoursesOwnGetsNoCopies() throws {
        let folder = temporaryFolder("own-layout")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try TemplateSet.load(folder: folder.path, displayFolder: "templates").layoutIsBuiltIn)
        let builtIn = try TemplateSet.builtIn()
        try embeddedTemplates["layout.html"]!.write(to: folder.appendingPathComponent("layout.html"), atomically: true, encoding: .utf8)
        let own = try TemplateSet.load(folder: folder.path, displayFolder: "templates")
        #expect(!own.layoutIsBuiltIn && !SearchCopy.applies(to: own) && SearchCopy.applies(to: builtIn))
    }

    static func onPath(_ name: String) -> String? {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
