import Foundation
@testable import LessonParsing
import TestSupport
import Testing

/// coursebook writes a lesson's HTML itself, from the Swift values cmark-gfm's tree was copied
/// into (`MarkdownHTML`): byte for byte what cmark-gfm's own renderer writes for the same
/// source, outside the nodes coursebook changes for its pages. Held together here over every
/// lesson of the fixtures and of the repository's course, and over what they seldom hold, so
/// that a new cmark-gfm or a change to the renderer cannot drift unseen.
struct MarkdownHTMLTests {
    /// Every Markdown file under Tests/Fixtures and lessons/.
    static let lessonFiles: [URL] = {
        var files: [URL] = []
        for folder in [fixtures, packageRoot.appendingPathComponent("lessons")] {
            guard let walk = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in walk where url.pathExtension == "md" { files.append(url) }
        }
        return files.sorted { $0.path < $1.path }
    }()

    @Test func everyLessonOfTheFixturesRendersAsCmarkGFMRendersIt() throws {
        #expect(Self.lessonFiles.count > 50)
        var differing: [String] = []
        for file in Self.lessonFiles {
            guard let text = try? String(contentsOf: file, encoding: .utf8) else { continue }  // not-utf8
            if LessonMarkdown.plainHTML(of: text) != LessonMarkdown.cmarkHTML(of: text) {
                differing.append(file.path.replacingOccurrences(of: packageRoot.path + "/", with: ""))
            }
        }
        #expect(differing == [])
    }

    /// What the lessons seldom hold, each as cmark-gfm renders it.
    static let rarities: [String] = [
        // Footnotes: referenced twice, from inside another footnote, by another case, unused,
        // defined in a quote and a list, with a label the address escapes.
        "x[^c] y[^A] z[^a]\n\n[^un]: unused\n\n> [^a]: in quote[^c]\n\n- item\n\n  [^c]: in list\n",
        "a[^x&é'y] b[^2]\n\n[^x&é'y]: one\n\n    code in a note\n[^2]: two\n\n    para two\n",
        "[^n]\n\n[^n]: ends in a list\n\n    - one\n    - two\n",
        // Tables: alignments, a header alone, cells with inline markup, more rows.
        "| a | b | c | d |\n|:-|-:|:-:|---|\n| x | ~~y~~ | `z` | **w** |\n| 1 | 2 |\n\n| only |\n|---|\n",
        // Task lists, tight and loose lists, ordered starts, nested lists.
        "- [ ] task\n- [x] done\n\n3. three\n4. four\n\n* loose\n\n* list\n  - tight\n  - inner\n",
        // Links and images: titles, escapes in addresses, dangerous schemes, autolinks.
        "[l](<a b'\"&<>[]\\^`{|}~é> \"t&'\") ![im *g* `c` <b>h</b>](x.png \"tt\")\n\n"
            + "<javascript:x> <VBSCRIPT:y> [d](data:image/png;base64,AA) [e](data:text/html,x) www.example.com"
            + " https://a.example/p?q=1&r=2 x@example.com\n",
        // Raw HTML in safe mode, entities, breaks, headings, rules, code.
        "<div>\nblock\n</div>\n\ninline <b>x</b> &amp; &copy; \\* hard  \nbreak\\\nsoft\nline\n\n# H1\n## H2 *e*\n\n---\n\n"
            + "```swift  extra words\nlet x = \"<&>\"\n```\n\n    indented\n\n~~~\nplain\n~~~\n",
        // Quotes holding everything.
        "> # in quote\n> - a\n>\n> ```\n> code\n> ```\n>\n> > deeper\n",
    ]

    @Test(arguments: rarities)
    func whatLessonsSeldomHoldRendersAsCmarkGFMRendersIt(_ text: String) {
        #expect(LessonMarkdown.plainHTML(of: text) == LessonMarkdown.cmarkHTML(of: text))
    }

    /// The footnotes' labels as the anchors write them, read from the definitions' lines.
    @Test func footnoteLabelsComeFromTheirDefinitions() {
        let tree = CMarkReader.tree(of: "a[^A] b[^b-2]\n\n> [^a]: one\n\n[^b-2]: two\n")
        let labels = tree.nodes.compactMap { node -> String? in
            if case let .footnoteDefinition(label, _) = node.kind { label } else { nil }
        }
        #expect(labels == ["a", "b-2"])
    }
}

/// One file talks to cmark-gfm (swift-markdown's way): no other source imports it, and no
/// other holds a pointer into a C library's tree.
struct CMarkBoundaryTests {
    @Test func onlyTheReaderImportsCmarkGFM() throws {
        let sources = packageRoot.appendingPathComponent("Sources")
        var importing: [String] = []
        var pointing: [String] = []
        guard let walk = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil) else { return }
        for case let url as URL in walk where url.pathExtension == "swift" {
            let text = try String(contentsOf: url, encoding: .utf8)
            let name = url.path.replacingOccurrences(of: sources.path + "/", with: "")
            if text.contains("import CCmarkGFM") { importing.append(name) }
            if name.hasPrefix("LessonParsing/"), text.contains("OpaquePointer") { pointing.append(name) }
        }
        #expect(importing == ["LessonParsing/CMarkReader.swift"])
        #expect(pointing == ["LessonParsing/CMarkReader.swift"])
    }
}
