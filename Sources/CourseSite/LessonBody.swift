import CourseKit

/// The HTML of a lesson's content, block by block: headings with anchors, prose as cmark-gfm
/// rendered it, scenarios as figures with their verified output, illustrations and core
/// listings labelled, limitation notes set apart as asides.
struct LessonBody {
    /// A `##` heading of the lesson, for the sidebar.
    struct Section: Equatable {
        var title: String
        var anchor: String
    }

    var html: String
    var sections: [Section]
    /// The rendered first paragraph after the title, for the index.
    var introduction: String

    /// What the body needs to know beyond the lesson itself.
    struct Context {
        var words: SiteWords
        var swiftVersion: String
        /// The results of the lesson's scenarios, by the line of their opening fence.
        var results: [Int: ScenarioResult]
        /// The names of the course's core files.
        var coreFileNames: [String]
        /// Core files (by name) already listed in an earlier lesson: listed again collapsed.
        var coreShownBefore: Set<String>
        /// The href of note n from this page, nil when the course has no such note.
        var noteHref: (Int) -> String?
        /// Where the limitations page lists note n.
        var limitationsHref: (Int) -> String
    }

    init(_ lesson: Lesson, context: Context) {
        let blocks = LessonMarkdown.render(String(decoding: lesson.source.bytes, as: UTF8.self),
                                           mentionHref: context.noteHref)
        // Headings never take the ids of the notes, their labels or the layout's main element.
        var anchors = AnchorNamer(reserved: Set(lesson.notes.flatMap { ["dr\($0.number)", "dr\($0.number)-label"] } + ["main"]))
        var html = ""
        var sections: [Section] = []
        var introduction = ""
        var sawTitle = false
        let codeBlocks = Dictionary(lesson.codeBlocks.map { ($0.line, $0) }, uniquingKeysWith: { first, _ in first })
        let outputLines = Set(lesson.scenarios.compactMap { $0.expected?.line })
        var coreShown = context.coreShownBefore

        for block in blocks {
            switch block {
            case let .heading(level, text, innerHTML, _):
                if level == 1, !sawTitle {
                    // The page template shows the title; the body starts after it.
                    sawTitle = true
                    continue
                }
                let anchor = anchors.anchor(for: text)
                if level == 2 { sections.append(Section(title: text, anchor: anchor)) }
                html += "<h\(level) id=\"\(anchor)\">\(innerHTML) <a class=\"anchor\" href=\"#\(anchor)\" aria-label=\"\(escapeHTML(context.words.sectionLink))\">#</a></h\(level)>\n"
            case let .code(line):
                guard let code = codeBlocks[line] else { continue }
                if code.role == .output, outputLines.contains(line) { continue }
                html += Self.figure(for: code, in: lesson, context: context, coreShown: &coreShown)
            case let .limitNote(number, innerHTML, _):
                let label = "DR\(number)"
                html += """
                    <aside class="limit" id="dr\(number)" aria-labelledby="dr\(number)-label">
                    <p class="limit-label" id="dr\(number)-label"><a href="#dr\(number)">\(label)</a> <span>\(escapeHTML(context.words.limitNote))</span></p>
                    <p>\(innerHTML)</p>
                    <p class="limit-more"><a href="\(escapeHTML(context.limitationsHref(number)))">\(escapeHTML(context.words.allLimitations))</a></p>
                    </aside>

                    """
            case let .html(fragment, line):
                if let paragraph = lesson.introduction, paragraph.line == line { introduction = fragment }
                html += fragment
            }
        }
        self.html = html
        self.sections = sections
        self.introduction = introduction
    }

    private static func figure(for block: CodeBlock, in lesson: Lesson, context: Context,
                               coreShown: inout Set<String>) -> String {
        let words = context.words
        switch block.role {
        case .scenario, .skippedScenario:
            let result = context.results[block.line]
            let scenario = result?.scenario ?? lesson.scenarios.first { $0.line == block.line }
            // The first comment line becomes the caption, so the code below starts after it.
            var code = block.code
            var caption = ""
            if let text = scenario?.caption {
                caption = "<code>main.swift</code> — " + escapeHTML(text)
                code = String(code.drop { $0 != "\n" }.dropFirst())
            }
            var html = """
                <figure class="scenario\(block.role == .skippedScenario ? " skipped" : "")">
                <figcaption><span class="kind">\(escapeHTML(words.scenario))</span> \(caption)</figcaption>
                <pre class="code"><code class="language-swift">\(SwiftHighlighter.html(code))</code></pre>

                """
            if let output = result?.verifiedOutput {
                html += """
                    <div class="output verified">
                    <p class="output-label"><span class="badge">✓ \(escapeHTML(words.verifiedBadge))</span> \(escapeHTML(words.output)) · <span class="provenance">\(escapeHTML(words.verifiedWith(context.swiftVersion)))</span></p>
                    <pre><samp>\(escapeHTML(output.hasSuffix("\n") ? String(output.dropLast()) : output))</samp></pre>
                    </div>

                    """
            } else {
                html += """
                    <div class="output unverified">
                    <p class="output-label"><span class="badge">\(escapeHTML(words.notRunBadge))</span> \(escapeHTML(words.notVerified))</p>

                    """
                if let expected = scenario?.expected {
                    html += "<pre><samp>\(escapeHTML(String(trimmingFinalNewline(expected.code))))</samp></pre>\n"
                }
                html += "</div>\n"
            }
            return html + "</figure>\n"
        case .illustration:
            return """
                <figure class="illustration">
                <figcaption><span class="kind">\(escapeHTML(words.illustration))</span> \(escapeHTML(words.illustrationNote))</figcaption>
                <pre class="code"><code class="language-swift">\(SwiftHighlighter.html(block.code))</code></pre>
                </figure>

                """
        case .coreListing(let name):
            let fileName = name ?? (context.coreFileNames.count == 1 ? context.coreFileNames[0] : "")
            let title = escapeHTML(words.coreFile) + (fileName.isEmpty ? "" : ": <code>\(escapeHTML(fileName))</code>")
            let listing = "<pre class=\"code\"><code class=\"language-swift\">\(SwiftHighlighter.html(block.code))</code></pre>\n"
            let shownBefore = coreShown.contains(fileName)
            coreShown.insert(fileName)
            if shownBefore {
                return "<details class=\"core\">\n<summary>\(title) <span class=\"note\">\(escapeHTML(words.coreRepeated))</span></summary>\n\(listing)</details>\n"
            }
            return "<figure class=\"core\">\n<figcaption>\(title)</figcaption>\n\(listing)</figure>\n"
        case .output, .other:
            let language = block.language
            let code = language == "swift" ? SwiftHighlighter.html(block.code) : escapeHTML(block.code)
            let attribute = language.isEmpty ? "" : " class=\"language-\(escapeHTML(language))\""
            return "<pre class=\"code\"><code\(attribute)>\(code)</code></pre>\n"
        }
    }
}
