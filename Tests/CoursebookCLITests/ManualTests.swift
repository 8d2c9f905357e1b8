import Foundation
import Testing
import TestSupport

/// The README is the front door and the manual lives under `docs/`: the README stays short and
/// links every page of the manual, and no link in either leads to a file or a heading that is
/// not there.
struct ManualTests {
    static let pages = ["lesson-format", "listings", "commands", "editor", "ci", "strangers", "site",
                        "how-a-check-runs", "performance", "contributing", "diagnostics"]
    static var files: [String] { ["README.md", "CHANGELOG.md"] + pages.map { "docs/\($0).md" } }

    @Test func theReadmeIsAFrontDoorToEveryPage() throws {
        let readme = try Self.read("README.md")
        #expect(readme.split(separator: "\n", omittingEmptySubsequences: false).count <= 250)
        for page in Self.pages {
            #expect(readme.contains("](docs/\(page).md)"), "the README does not link docs/\(page).md")
        }
        let onDisk = try FileManager.default.contentsOfDirectory(atPath: packageRoot.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }
        #expect(Set(onDisk) == Set(Self.pages.map { $0 + ".md" }), "a page of docs/ the README does not list, or the other way")
    }

    @Test func everyLinkLeadsToAFileAndHeadingThatExist() throws {
        for file in Self.files {
            let broken = try Self.brokenLinks(in: file)
            #expect(broken.isEmpty, "\(file): \(broken)")
        }
    }

    @Test func aBrokenLinkIsFound() throws {
        // A link to a heading that is not there and one to a missing file, or the test above proves nothing.
        let text = "# Title\n\nSee [one](commands.md#no-such-heading), [two](missing.md), [three](#title), `[code](gone.md)`.\n"
        let broken = try Self.brokenLinks(text: text, at: "docs/example.md")
        #expect(broken == ["commands.md#no-such-heading", "missing.md"])
    }

    static func read(_ file: String) throws -> String {
        try String(contentsOf: packageRoot.appendingPathComponent(file), encoding: .utf8)
    }

    static func brokenLinks(in file: String) throws -> [String] {
        try brokenLinks(text: try read(file), at: file)
    }

    /// The relative links of a Markdown text (outside code) that name no file, or no heading of it.
    static func brokenLinks(text: String, at file: String) throws -> [String] {
        let folder = URL(fileURLWithPath: file).deletingLastPathComponent().relativePath
        return try prose(text).flatMap { line in
            // Inline code shows Markdown as text: `[a](b.md)` there is an example, not a link.
            line.replacing(/`+[^`]*`+/, with: "").matches(of: /\]\(([^)\s]+)\)/).map { String($0.output.1) }
        }.filter { link in
            if link.contains(":") { return false }  // https:, mailto:, doc:
            let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let target = parts[0].isEmpty ? file : (folder == "." ? parts[0] : folder + "/" + parts[0])
            let url = packageRoot.appendingPathComponent(target).standardizedFileURL
            let targetText: String
            if target == file { targetText = text } else {
                guard let read = try? String(contentsOf: url, encoding: .utf8) else {
                    return !FileManager.default.fileExists(atPath: url.path)
                }
                targetText = read
            }
            guard parts.count == 2, url.pathExtension == "md" else { return false }
            return !(try prose(targetText)).contains { anchor(ofHeading: $0) == parts[1] }
        }
    }

    /// The lines of a Markdown text outside fenced code.
    static func prose(_ text: String) throws -> [String] {
        var fence: String?
        var lines: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if let run = line.prefixMatch(of: /`{3,}|~{3,}/)?.output {
                if fence == nil { fence = String(run); continue }
                if line.trimmingCharacters(in: .whitespaces) == fence, run.count >= fence!.count { fence = nil; continue }
            }
            if fence == nil { lines.append(line) }
        }
        return lines
    }

    /// GitHub's anchor for a heading line: its words in lower case, joined by `-`, punctuation left out.
    static func anchor(ofHeading line: String) -> String? {
        guard let heading = line.prefixMatch(of: /#{1,6} (.*)/)?.output.1 else { return nil }
        let kept = heading.lowercased().filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == " " }
        return String(kept.map { $0 == " " ? "-" : $0 })
    }
}
