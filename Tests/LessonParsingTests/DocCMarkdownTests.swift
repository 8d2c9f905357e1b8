import BackgroundWork
import CourseModel
import Foundation
@testable import LessonParsing
import TestSupport
import Testing

/// A lesson written for DocC: its asides, its `doc:` links and its images by name, as the
/// Markdown layer reads them and as a page shows them with the course's answers.
struct DocCMarkdownTests {
    func parse(_ text: String) -> LessonDocument {
        LessonMarkdown.parse(text, counts: WorkCounts())
    }

    /// Answers as a site would: `doc:Other` and `doc:Other#Part` exist, and an image `chart`.
    let references = CourseReferences(
        docLink: { name, fragment in
            guard name == "Other" || name.isEmpty else { return nil }
            switch fragment {
            case nil: return .init(href: "02-other.html", title: "The Other Lesson")
            case "Part": return .init(href: "02-other.html#part", title: "A Part")
            default: return nil
            }
        },
        image: { name, alt in name == "chart" ? "<picture data-alt=\"\(alt)\"></picture>" : nil })

    @Test func docCAsidesAreCalloutsOfTheirKind() {
        let blocks = parse("""
            > Note: A *note*.

            > experiment: Try it.
            > On two lines.

            > See Also: The other lesson.

            > Precondition:
            > The index is in range.

            > Caution: GitHub's word.
            """).renderBlocks { _ in nil }
        #expect(blocks == [
            .callout(.note, title: nil, html: "<p>A <em>note</em>.</p>\n"),
            .callout(.experiment, title: nil, html: "<p>Try it.\nOn two lines.</p>\n"),
            .callout(.seeAlso, title: nil, html: "<p>The other lesson.</p>\n"),
            .callout(.precondition, title: nil, html: "<p>The index is in range.</p>\n"),
            .callout(.caution, title: nil, html: "<p>GitHub's word.</p>\n"),
        ])
    }

    @Test func anUnknownTagAloneOnItsLineTitlesItsAside() {
        let document = parse("""
            > Deprecated:
            > Use the other one.

            > Grammar of a type:
            >
            > *type* → *identifier*

            > grammar of whitespace:

            > He said: this stays a quote.

            > No colon here.
            """)
        let blocks = document.renderBlocks { _ in nil }
        #expect(blocks.count == 5)
        #expect(blocks[0] == .callout(.note, title: "Deprecated", html: "<p>Use the other one.</p>\n"))
        #expect(blocks[1] == .callout(.note, title: "Grammar of a type", html: "<p><em>type</em> → <em>identifier</em></p>\n"))
        #expect(blocks[2] == .callout(.note, title: "Grammar Of Whitespace", html: ""))
        #expect(blocks[3] == .html("<blockquote>\n<p>He said: this stays a quote.</p>\n</blockquote>\n", block: 3))
        #expect(blocks[4] == .html("<blockquote>\n<p>No colon here.</p>\n</blockquote>\n", block: 4))
        // Neither the quotes nor the asides draw a finding.
        #expect(!document.elements.contains { if case .unknownCallout = $0 { true } else { false } })
    }

    @Test func gitHubMarkersAreGitHubsFiveKinds() {
        #expect(CalloutKind(marker: "NOTE") == .note)
        #expect(CalloutKind(marker: "caution") == .caution)
        #expect(CalloutKind(marker: "EXPERIMENT") == nil)
        #expect(CalloutKind(asideTag: "NonMutatingVariant") == .nonMutatingVariant)
        #expect(CalloutKind(asideTag: "Non-Mutating Variant") == .nonMutatingVariant)
        #expect(CalloutKind(asideTag: "To Do") == .toDo)
        #expect(CalloutKind(asideTag: "Deprecated") == nil)
        #expect(CalloutKind.allCases.count == 25)
        #expect(CalloutKind.allCases.filter { $0.style == $0 } == CalloutKind.gitHub)
        #expect(CalloutKind.experiment.style == .tip && CalloutKind.remark.style == .note)
        let document = parse("> [!EXPERIMENT]\n> Not GitHub's.\n")
        #expect(document.elements.contains(.unknownCallout(kind: "EXPERIMENT", line: 1)))
    }

    @Test func docLinksGoToTheirPagesAndShowTheirTitles() {
        let document = parse("""
            See <doc:Other>, <doc:Other#Part>, [this part](doc:Other#Part) and <doc:#Part>.

            Broken: <doc:Missing>, <doc:Other#Nowhere>, [*kept* words](doc:Missing#X).
            """)
        let links = document.elements.compactMap { if case .link(let link) = $0 { link.target } else { nil } }
        #expect(links.first == .doc(name: "Other", fragment: nil))
        let blocks = document.renderBlocks(mentionHref: { _ in nil }, references: references)
        #expect(blocks == [
            .html("<p>See <a href=\"02-other.html\">The Other Lesson</a>, <a href=\"02-other.html#part\">A Part</a>, <a href=\"02-other.html#part\">this part</a> and <a href=\"02-other.html#part\">A Part</a>.</p>\n", block: 0),
            .html("<p>Broken: Missing, Nowhere, kept words.</p>\n", block: 1),
        ])
        // Another page's rendering reads the same (the first one settled it).
        #expect(document.renderBlocks(mentionHref: { _ in nil }, references: .none) == blocks)
    }

    @Test func withoutTheCourseADocLinkIsItsText() {
        let blocks = parse("<doc:Other#Two-Words> and <doc:Other>\n").renderBlocks { _ in nil }
        #expect(blocks == [.html("<p>Two Words and Other</p>\n", block: 0)])
    }

    @Test func imagesNamedTheDocCWayShowTheCoursesPicture() {
        let document = parse("![A *chart*](chart) ![none](other) ![file](chart.png)\n\n| a |\n|---|\n| ![in a cell](chart) |\n")
        let blocks = document.renderBlocks(mentionHref: { _ in nil }, references: references)
        #expect(blocks[0] == .html("<p><picture data-alt=\"A chart\"></picture> <img src=\"other\" alt=\"none\" /> <img src=\"chart.png\" alt=\"file\" /></p>\n", block: 0))
        guard case .html(let table, _) = blocks[1] else { Issue.record("no table: \(blocks)"); return }
        #expect(table.contains("<td><picture data-alt=\"in a cell\"></picture></td>"))
    }

    /// 50,000 levels of emphasis, each with a `doc:` link that gives way to its text, and at
    /// every 100th an image that gives way to a picture: read, placed and rendered in one pass
    /// each (as `DeepNestingTests` does for the rest of what a page changes). Not an image at
    /// every level: cmark-gfm's own inline parser walks every open emphasis at each `]`
    /// (50,000 links inside 50,000 open emphases take `cmark-gfm` alone 60 s, 10,000 take 1 s),
    /// which no rewriting after the parse can change.
    @Test func fiftyThousandNestedDocLinksAndImagesAreRendered() throws {
        let depth = 50_000, imageEvery = 100
        let plain = "*x <doc:Missing> ", pictured = "*x <doc:Missing> ![i](chart) "
        let text = (0..<depth).map { $0 % imageEvery == 0 ? pictured : plain }.joined() + "y" + String(repeating: " z*", count: depth) + "\n"
        let (lesson, _) = TestSupport.lesson(text)
        let links = lesson.links.filter { $0.destination == "doc:Missing" }
        #expect(links.count == depth)
        let images = depth / imageEvery
        #expect(links.last?.column == 4 + (depth - 1) * plain.utf8.count + images * (pictured.utf8.count - plain.utf8.count))
        #expect(lesson.links.filter(\.isImage).count == images)
        let blocks = parse(text).renderBlocks(mentionHref: { _ in nil }, references: references)
        guard case .html(let html, _)? = blocks.first else { Issue.record("no paragraph"); return }
        // Past the depth no reader needs (`NestingLimit`) the page keeps the text alone: the
        // emphases and pictures of the first levels, every link's text.
        #expect(html.ranges(of: "<em>x Missing <picture data-alt=\"i\"></picture> ").count == 1)
        #expect(html.ranges(of: "<em>x Missing ").count == 31)
        #expect(html.ranges(of: "x Missing ").count == depth)
        #expect(!html.contains("doc:") && !html.contains("<img"))
    }

    @Test func footnoteLabelsAreKnownBeforeThePage() {
        let document = parse("A[^b] and B[^a-1].\n\n[^a-1]: First defined.\n\n[^b]: Cited first.\n\n[^unused]: Never cited.\n")
        #expect(Set(document.footnoteLabels) == ["a-1", "b"])
        guard case let .footnotes(_, labels) = document.renderBlocks(mentionHref: { _ in nil }).last else {
            Issue.record("no footnotes"); return
        }
        #expect(Set(labels) == Set(document.footnoteLabels))
    }

    @Test func anAutolinkStandsWhereItsSourceSays() {
        let text = "First line of a paragraph,\nthen <doc:B> on the second.\n\n> quote <doc:C>\n> more <doc:D>\n\n- item <doc:E>\n  cont <doc:F> [g](g.md)\n"
        let (lesson, _) = TestSupport.lesson(text)
        #expect(lesson.links.map { "\($0.line):\($0.column)" } == ["2:6", "4:9", "5:8", "7:8", "8:8", "8:16"])
    }
}

/// `doc:` links and DocC's images checked against a course folder.
struct DocCLinkCheckTests {
    func lesson(_ fileName: String, headings: [String], links: [(String, Bool)]) -> Lesson {
        Lesson(fileName: fileName, path: "C/\(fileName)", source: SourceText(""), title: headings.first,
               headings: headings.enumerated().map { Heading(level: $0.offset == 0 ? 1 : 2, text: $0.element, line: $0.offset + 1) },
               codeBlocks: [], scenarios: [], notes: [], mentions: [], introduction: nil,
               links: links.enumerated().map { LessonLink(destination: $0.element.0, isImage: $0.element.1, line: $0.offset + 1, column: 1) })
    }

    @Test func docLinksThatNameNothingAreWarningsAtTheirLines() {
        let lessons = [
            lesson("01-the-basics.md", headings: ["The Basics", "Optionals"], links: [
                ("doc:TheBasics", false), ("doc:TheBasics#Optionals", false), ("doc:#Optionals", false),
                ("doc:SummaryOfTheGrammar", false), ("doc:TheBasics#Integers", false), ("doc:AB", false),
            ]),
            lesson("02-a-b.md", headings: ["A B"], links: []),
            lesson("03-ab.md", headings: ["AB"], links: []),
        ]
        let found = LinkCheck.check(lessons, folder: "/nowhere", displayFolder: "C", lessonFiles: [])
        #expect(found.diagnostics.map(\.id) == [.linkTargetMissing, .linkTargetMissing, .linkTargetAmbiguous])
        #expect(found.diagnostics.map { $0.location?.line } == [4, 5, 6])
        #expect(found.diagnostics.allSatisfy { $0.severity == .warning })
        #expect(found.diagnostics[0].summary.hasSuffix("no lesson file is named so (NN-summary-of-the-grammar.md)"))
        #expect(found.diagnostics[1].summary == "link 'doc:TheBasics#Integers' names no heading of 01-the-basics.md: none of its headings reads 'Integers' (compared by letters and digits, case aside)")
        #expect(found.diagnostics[2].summary == "link 'doc:AB' could name 02-a-b.md or 03-ab.md; it goes to the first: rename one of them")
        #expect(LinkCheck.kebabCase("SummaryOfTheGrammar") == "summary-of-the-grammar")
        #expect(LinkCheck.kebabCase("UTF8Strings") == "utf8-strings")
    }

    @Test func imagesByNameAreFoundInTheCoursesFolders() throws {
        let folder = temporaryFolder("docc-images")
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = FileManager.default
        for path in ["Assets/chart@2x.png", "Assets/chart~dark@2x.png", "Assets/Deep/er/chart.png", "Old/twice.png",
                     "Assets/twice.png", "Assets/.hidden.png", ".git/secret.png", "site/hidden.png", "site/.coursebook-site",
                     "Assets/notes.txt"] {
            let url = folder.appendingPathComponent(path)
            try files.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
                      0, 0, 0, 40, 0, 0, 0, 20]).write(to: url)
        }
        try files.createSymbolicLink(atPath: folder.appendingPathComponent("Assets/outside.png").path, withDestinationPath: "/etc/hostname")
        try files.createSymbolicLink(atPath: folder.appendingPathComponent("Assets/linked.png").path, withDestinationPath: "chart@2x.png")
        try Data("x".utf8).write(to: folder.appendingPathComponent("plain"))
        let lessons = [lesson("01-a.md", headings: ["A"], links: [
            ("chart", true), ("twice", true), ("hidden", true), ("secret", true), ("outside", true), ("linked", true),
            ("plain", true), ("notes", true), ("chart", false),
        ])]
        let found = LinkCheck.check(lessons, folder: folder.path, displayFolder: "C", lessonFiles: ["01-a.md"])
        #expect(found.diagnostics.map(\.id) == [.linkTargetAmbiguous, .linkTargetMissing, .linkTargetMissing, .linkTargetMissing,
                                                 .linkTargetMissing, .linkTargetMissing])
        #expect(found.diagnostics.map { $0.location?.line } == [2, 3, 4, 5, 8, 9])
        #expect(found.diagnostics[0].summary == "image 'twice' has the same variant twice: C/Assets/twice.png and C/Old/twice.png; DocC needs an image's name to be unique in the course, so the site shows the first")
        #expect(found.diagnostics[1].summary == "image 'hidden' points at nothing: C/hidden does not exist, and no image in the course's folders has that name (hidden.png, hidden@2x.png, hidden~dark.png ...)")
        let chart = try #require(found.doccImages["chart"])
        #expect(chart.variants == [
            .init(path: "Assets/Deep/er/chart.png", scale: 1, isDark: false, pixelSize: PixelSize(width: 40, height: 20)),
            .init(path: "Assets/chart@2x.png", scale: 2, isDark: false, pixelSize: PixelSize(width: 40, height: 20)),
            .init(path: "Assets/chart~dark@2x.png", scale: 2, isDark: true, pixelSize: PixelSize(width: 40, height: 20)),
        ])
        #expect(found.doccImages["twice"]?.variants.map(\.path) == ["Assets/twice.png"])
        #expect(found.doccImages["linked"]?.variants.map(\.path) == ["Assets/linked.png"])
        #expect(found.files == ["Assets/Deep/er/chart.png", "Assets/chart@2x.png", "Assets/chart~dark@2x.png",
                                "Assets/twice.png", "Assets/linked.png", "plain"])
        // A `doc:` link is not an image: `chart` as a link is a file that does not exist.
        #expect(found.diagnostics[5].summary == "link 'chart' points at nothing: C/chart does not exist")
    }
}
