import CourseModel
import HTMLText
import LessonParsing

/// The HTML of a lesson's content, block by block: headings with anchors, prose as cmark-gfm
/// rendered it, scenarios as figures with their verified output, illustrations and core
/// listings labelled, limitation notes set apart as asides.
struct LessonBody {
    /// A `##` heading of the lesson, for the page map: its title, its anchor and the
    /// limitation notes that stand in it.
    struct Section: Equatable {
        var title: String
        var anchor: String
        var notes: [Int] = []
    }

    var html: String
    var sections: [Section]
    /// Notes that stand before the first `##` heading.
    var leadingNotes: [Int]
    /// The rendered first paragraph after the title.
    var introduction: String
    /// Whether the introduction is the lesson's lead: set in emphasis as a whole.
    var introductionIsLead = false
    /// What the index says of the lesson: its lead whole, or the first sentence of its
    /// introduction.
    var summary: String { introductionIsLead ? introduction : firstSentence(ofHTML: introduction) }
    /// The section each note stands in; a note before the first section has none.
    var sectionOfNote: [Int: Section] {
        var found: [Int: Section] = [:]
        for section in sections { for note in section.notes { found[note] = section } }
        return found
    }

    /// What the body needs to know beyond the lesson itself.
    struct Context {
        var words: SiteWords
        var swiftVersion: String
        /// The language mode a scenario was compiled in, for its provenance line.
        var languageMode: (Scenario) -> LanguageMode? = { _ in nil }
        /// The results of the lesson's scenarios, by the identity of their code block.
        var results: [Int: ScenarioResult]
        /// A Swift block as highlighted HTML, from what the Swift parser learned of it.
        var highlighted: (CodeBlock) -> String
        /// A scenario's change diagrams as HTML, by its block's identity (empty for none).
        var diagrams: (Int) -> String = { _ in "" }
        /// The names of the course's core files.
        var coreFileNames: [String]
        /// Core files (by name) already listed in an earlier lesson: listed again collapsed.
        var coreShownBefore: Set<String>
        /// The href of note n from this page, nil when the course has no such note.
        var noteHref: (Int) -> String?
        /// Where the site explains what a limitation note is.
        var aboutNotesHref: String
        /// The anchors of the lesson's headings (`AnchorNamer.headingAnchors`), which links
        /// from other lessons use too.
        var headingAnchors: [String?] = []
        /// Where the lesson's `doc:` links go and how its DocC images are shown.
        var references: CourseReferences = .none
        /// The course's glossary, nil for none; `isGlossary`: this lesson is it (its
        /// two-column tables are definition lists), else the lesson links the terms it uses.
        var glossary: Glossary? = nil
        var isGlossary = false
    }

    init(_ lesson: Lesson, document: LessonDocument, context: Context) {
        let blocks = document.renderBlocks(mentionHref: context.noteHref, references: context.references)
        var writer = Writer(lesson, document: document, blocks: blocks, context: context)
        for block in blocks { writer.add(block) }
        // Kept until the whole-course page is written, with every other lesson's: without the
        // room its growth left at its end (a quarter of it, on average).
        // Bidirectional controls in code or prose are shown as what they are (`BidiTokens`).
        self.html = BidiTokens.inHTML(writer.html).compacted
        self.sections = writer.sections
        self.leadingNotes = writer.leadingNotes
        self.introduction = BidiTokens.inHTML(writer.introduction)
        self.introductionIsLead = writer.introductionIsLead
    }

    /// The inside of `<p><em>...</em></p>`, nil for a paragraph that is not emphasis whole.
    static func lead(_ paragraph: String) -> String? {
        let open = "<p><em>", close = "</em></p>\n"
        guard paragraph.hasPrefix(open), paragraph.hasSuffix(close) else { return nil }
        let inner = paragraph.dropFirst(open.count).dropLast(close.count)
        // `*a* b *c*` starts and ends with emphasis but is not emphasis whole.
        guard !inner.contains("</em>") else { return nil }
        return String(inner)
    }

    /// What the page shows under a scenario's code: its verified output (with the Swift version
    /// and the language mode that produced it, and a trap's message as the program's end), the
    /// compiler's errors of a scenario it refused, or what its blocks say, marked as not run.
    /// Search leaves outputs out (`data-pagefind-ignore`): they repeat the classifier's few
    /// words and would crowd the prose out of the excerpts. The compiler's messages stay in.
    private static func output(of scenario: Scenario, context: Context) -> String {
        let words = context.words
        let result = context.results[scenario.block.id]
        let mode = context.languageMode(scenario).map { " · " + words.languageMode($0.rawValue) } ?? ""
        if let errors = result?.verifiedErrors {
            // The page shows the code without its caption line: lines are counted as shown.
            return refusal(errors, linesHidden: scenario.caption == nil ? 0 : 1,
                           provenance: words.refusedBadge + " · Swift " + context.swiftVersion + mode, words: words)
        }
        if let output = result?.verifiedOutput {
            var html = """
                <div class="output verified\(result?.verifiedTrap == nil ? "" : " trapped")" data-pagefind-ignore>
                <p class="output-label"><span class="kind">\(escapeHTML(words.output))</span>\(scenario.expectation.output?.isUnordered == true ? " <span class=\"badge\">" + escapeHTML(words.anyOrder) + "</span>" : "") <span class="badge"><span aria-hidden="true">✓</span> \(escapeHTML(words.verifiedWith(context.swiftVersion) + mode))</span></p>

                """
            if let block = scenario.expectation.output, case let pattern = block.outputPattern, pattern.hasPatterns {
                // A block with patterns is shown as its author wrote it: the run matched it,
                // and what it printed in full changes from run to run.
                html += "<pre><samp>\(patternLines(pattern, words: words))</samp></pre>\n"
            } else if result?.verifiedTrap == nil || !output.isEmpty {
                html += "<pre><samp>\(outputLines(output.hasSuffix("\n") ? String(output.dropLast()) : output))</samp></pre>\n"
            }
            if let trap = result?.verifiedTrap { html += trapLine(trap, words: words) }
            return html + "</div>\n" + context.diagrams(scenario.block.id)
        }
        // A block of a group with no `output` block of its own passes what it prints on to
        // the group's next one, which shows it.
        if scenario.group != nil, scenario.expectation.isEmpty { return "" }
        var html = """
            <div class="output unverified" data-pagefind-ignore>
            <p class="output-label"><span class="kind">\(escapeHTML(words.output))</span> <span class="badge">\(escapeHTML(words.notRunBadge))</span> \(escapeHTML(words.notVerified))</p>

            """
        for block in scenario.expectation.blocks {
            html += "<pre><samp>\(outputLines(String(trimmingFinalNewline(block.code))))</samp></pre>\n"
        }
        return html + "</div>\n"
    }

    /// The compiler's errors of a refused scenario, each with its place (its line as the page
    /// shows the code) and a word a screen reader says first; the lines they stand on are
    /// marked in the code above.
    private static func refusal(_ errors: [CompilerError], linesHidden: Int, provenance: String, words: SiteWords) -> String {
        var html = """
            <div class="refusal">
            <p class="output-label" data-pagefind-ignore><span class="badge"><span aria-hidden="true">✓</span> \(escapeHTML(provenance))</span></p>
            <ul class="compile-errors">

            """
        for error in errors {
            html += "<li><span class=\"error-kind\" data-pagefind-ignore>\(escapeHTML(words.compileError))</span> <span class=\"error-place\" data-pagefind-ignore>\(escapeHTML(words.errorPlace(error.line > linesHidden ? error.line - linesHidden : error.line, error.column))):</span> <code class=\"error-message\">\(escapeHTML(error.message))</code></li>\n"
        }
        return html + "</ul>\n</div>\n"
    }

    /// A trap's message, set apart under the output as the program's end.
    private static func trapLine(_ message: String, words: SiteWords) -> String {
        let text = message.isEmpty ? "<span class=\"trap-silent\">\(escapeHTML(words.trapWithoutMessage))</span>"
                                   : "<samp>\(escapeHTML(message))</samp>"
        return "<p class=\"trap\"><span class=\"trap-kind\">\(escapeHTML(words.trap))</span> \(text)</p>\n"
    }

    /// An output block's patterns, one element per line as `outputLines` makes them: a `...`
    /// line as a marker named for the lines it leaves out, a glob line as written without its
    /// ` (glob)` mark, its wildcards set apart and the line marked as a pattern, a literal line
    /// as it is.
    static func patternLines(_ pattern: OutputPattern, words: SiteWords) -> String {
        var html: [String] = []
        for line in pattern.lines {
            switch line.kind {
            case .literal:
                let text = escapeHTML(line.text)
                html.append(breakingAfterCommas(text))
            case .anyLines:
                html.append("<span class=\"badge elision\" role=\"img\" aria-label=\"\(escapeHTML(words.linesLeftOut))\">⋯</span>")
            case .glob(let pieces):
                var text = ""
                for piece in pieces {
                    switch piece {
                    case .text(let run): text += escapeHTML(run)
                    case .anyRun: text += "<b class=\"wildcard\">*</b>"
                    case .oneCharacter: text += "<b class=\"wildcard\">?</b>"
                    }
                }
                html.append(text + " <span class=\"badge pattern-mark\">\(escapeHTML(words.patternLine))</span>")
            }
        }
        return lines(html.joined(separator: "\n"), droppingFinalNewline: false)
    }

    /// A code block as its role shows it: a figure, or a listing alone.
    private static func figure(for block: CodeBlock, in lesson: Lesson, context: Context,
                               coreShown: inout Set<String>, outputApart: Set<Int>) -> String {
        let words = context.words
        switch block.role {
        case .scenario, .skippedScenario:
            return scenarioFigure(for: block, in: lesson, context: context, outputApart: outputApart)
        case .illustration:
            return """
                <figure class="illustration">
                <figcaption data-pagefind-ignore><span class="kind">\(escapeHTML(words.illustration))</span> \(escapeHTML(words.illustrationNote))</figcaption>
                <pre class="code" tabindex="0"><code class="language-swift">\(Self.lines(context.highlighted(block)))</code></pre>
                </figure>

                """
        case .coreListing(let name):
            return coreFigure(for: block, named: name, context: context, coreShown: &coreShown)
        case .moduleListing(let name):
            // A block of a course module: code that scenarios import, labelled with its module's name.
            return """
                <figure class="core module">
                <figcaption><span class="kind" data-pagefind-ignore>\(escapeHTML(words.module))</span> <code>\(escapeHTML(name))</code></figcaption>
                <pre class="code" tabindex="0"><code class="language-swift">\(Self.lines(context.highlighted(block)))</code></pre>
                </figure>

                """
        case .output, .errors, .trap, .other:
            return plainListing(block, context: context)
        }
    }

    /// A scenario's figure: its caption, its code with a refused scenario's errors marked, the
    /// note that ties a group's blocks into one program, and its output unless shown apart.
    private static func scenarioFigure(for block: CodeBlock, in lesson: Lesson, context: Context,
                                       outputApart: Set<Int>) -> String {
        let words = context.words
        let result = context.results[block.id]
        let scenario = result?.scenario ?? lesson.scenarios.first { $0.block.id == block.id }
        // The first comment line becomes the caption, so the code below starts after it. A
        // line comment's span ends before its line end, so the HTML's first line is it.
        var highlighted = context.highlighted(block)
        var caption = ""
        if let text = scenario?.caption {
            caption = "<code>main.swift</code> — " + escapeHTML(text)
            highlighted = String(highlighted.drop { $0 != "\n" }.dropFirst())
        }
        let errors = result?.verifiedErrors ?? []
        let marks = errorMarks(errors, in: block, firstShown: scenario?.caption == nil ? 1 : 2)
        let refused = errors.isEmpty ? "" : " refused"
        let group = groupNote(for: block, in: lesson, words: words, captioned: !caption.isEmpty)
        var html = """
            <figure class="scenario\(block.role == .skippedScenario ? " skipped" : "")\(refused)"\(group.anchor)>
            <figcaption><span class="kind" data-pagefind-ignore>\(escapeHTML(words.scenario))</span> \(caption)\(group.note)</figcaption>
            <pre class="code" tabindex="0"><code class="language-swift">\(Self.lines(highlighted, marking: marks))</code></pre>

            """
        if let scenario, !(scenario.expected.map { outputApart.contains($0.id) } ?? false) {
            html += output(of: scenario, context: context)
        }
        return html + "</figure>\n"
    }

    /// A refused scenario's erroring lines, each with the columns to mark under it, by the
    /// line's index among the lines shown (hidden lines are not; `firstShown` is the first
    /// line of the block shown as code, after a caption's).
    private static func errorMarks(_ errors: [CompilerError], in block: CodeBlock, firstShown: Int) -> [Int: [String]] {
        let hidden = HiddenLines.hiddenLineNumbers(block.code)
        var marks: [Int: [String]] = [:]
        for error in errors where !hidden.contains(error.line) {
            let shownLine = error.line - hidden.filter { $0 < error.line }.count
            guard shownLine >= firstShown else { continue }
            marks[shownLine - firstShown, default: []].append(characterColumn(error, in: HiddenLines.compiled(block.code)))
        }
        return marks
    }

    /// A group's first block begins one program (its figure gets the anchor); the others link
    /// back to it. Empty for a block in no group.
    private static func groupNote(for block: CodeBlock, in lesson: Lesson, words: SiteWords,
                                  captioned: Bool) -> (note: String, anchor: String) {
        guard let group = block.group, let first = lesson.scenarios.first(where: { $0.group == group }) else {
            return ("", "")
        }
        let anchor = "group-" + AnchorNamer.slug(group)
        let space = captioned ? " " : ""
        if first.block.id == block.id {
            return (space + "<span class=\"group-note\" data-pagefind-ignore>\(escapeHTML(words.startsProgram))</span>",
                    " id=\"\(anchor)\"")
        }
        return (space + "<a class=\"group-note\" href=\"#\(anchor)\" data-pagefind-ignore>\(escapeHTML(words.continuesProgram))</a>", "")
    }

    /// A core file's listing, by its file's name; shown again, it is folded away.
    private static func coreFigure(for block: CodeBlock, named name: String?, context: Context,
                                   coreShown: inout Set<String>) -> String {
        let words = context.words
        let fileName = name ?? (context.coreFileNames.count == 1 ? context.coreFileNames[0] : "")
        let title = escapeHTML(words.coreFile) + (fileName.isEmpty ? "" : ": <code>\(escapeHTML(fileName))</code>")
        let listing = "<pre class=\"code\" tabindex=\"0\"><code class=\"language-swift\">\(Self.lines(context.highlighted(block)))</code></pre>\n"
        let shownBefore = coreShown.contains(fileName)
        coreShown.insert(fileName)
        if shownBefore {
            return "<details class=\"core\">\n<summary>\(title) <span class=\"note\">\(escapeHTML(words.coreRepeated))</span></summary>\n\(listing)</details>\n"
        }
        return "<figure class=\"core\">\n<figcaption>\(title)</figcaption>\n\(listing)</figure>\n"
    }

    /// A block shown as code alone: a program's output, expected errors or trap, another
    /// language's text.
    private static func plainListing(_ block: CodeBlock, context: Context) -> String {
        let language = block.language
        // What a program printed is shown as it was; an illustration in another language
        // shows its placeholders as Swift's listings do.
        let code = language == "swift" ? context.highlighted(block)
            : block.role == .other ? PlaceholderText.tokens(inEscapedCode: escapeHTML(block.code)) : escapeHTML(block.code)
        let attribute = language.isEmpty ? "" : " class=\"language-\(escapeHTML(language))\""
        return "<pre class=\"code\" tabindex=\"0\"><code\(attribute)>\(Self.lines(code))</code></pre>\n"
    }
}

extension String {
    /// The same text in storage of its own size: a string grown by appending keeps the room
    /// its last doubling made.
    var compacted: String {
        let count = utf8.count
        guard count > 15 else { return self }
        var copy = self
        return copy.withUTF8 { bytes in
            String(unsafeUninitializedCapacity: count) { buffer in
                _ = buffer.initialize(fromContentsOf: bytes)
                return count
            }
        }
    }
}

extension LessonBody {
    /// A lesson's body written block by block: what is written so far (the HTML, the sections
    /// and their notes, the introduction), and what writing the next block needs to know.
    private struct Writer {
        let lesson: Lesson
        let context: Context
        /// The headings' anchors, one per heading in order (the title's is nil); on the
        /// glossary's page the terms have their anchors first.
        let anchors: [String?]
        /// The blocks that say what a scenario must do (output, errors, trap), by their
        /// identity: shown with their scenario.
        let scenarioOfOutput: [Int: Scenario]
        /// Those shown where they stand instead (see `outputsApart`).
        let outputsApart: Set<Int>
        /// Whether prose links the glossary's terms it uses (each once).
        let linksTerms: Bool
        var linkedTerms: Set<String> = []
        /// Core files listed so far, in this lesson or an earlier one: listed again collapsed.
        var coreShown: Set<String>
        var headingIndex = 0
        var sawTitle = false

        var html = ""
        var sections: [Section] = []
        var leadingNotes: [Int] = []
        var introduction = ""
        var introductionIsLead = false

        init(_ lesson: Lesson, document: LessonDocument, blocks: [RenderedBlock], context: Context) {
            self.lesson = lesson
            self.context = context
            linksTerms = !context.isGlossary && context.glossary != nil
            let glossaryAnchors = context.isGlossary ? context.glossary?.anchors ?? [] : []
            anchors = context.headingAnchors.count == lesson.headings.count ? context.headingAnchors
                : AnchorNamer.headingAnchors(of: lesson, footnoteLabels: document.footnoteLabels, reserving: glossaryAnchors)
            var scenarioOfOutput: [Int: Scenario] = [:]
            for scenario in lesson.scenarios {
                for block in scenario.expectation.blocks { scenarioOfOutput[block.id] = scenario }
            }
            self.scenarioOfOutput = scenarioOfOutput
            outputsApart = Self.outputsApart(in: lesson, blocks: blocks)
            coreShown = context.coreShownBefore
        }

        /// An output (or errors) block that a `<details>` hides (an exercise: predict first,
        /// then open) is shown where it stands, with the rest of what its scenario must do, not
        /// in its scenario's figure. A block inside a list item or a quote stands in the HTML of
        /// its container.
        static func outputsApart(in lesson: Lesson, blocks: [RenderedBlock]) -> Set<Int> {
            let nestedPieces = blocks.flatMap { block -> [NestedCodeBlock.Piece] in
                switch block {
                case let .html(fragment, _), let .callout(_, _, fragment): NestedCodeBlock.pieces(of: fragment)
                default: []
                }
            }
            let inDetails = Set(blocks.compactMap { block -> Int? in
                if case .code(let id, inDetails: true) = block { id } else { nil }
            } + nestedPieces.compactMap { piece -> Int? in
                if case .code(let id, inDetails: true) = piece { id } else { nil }
            })
            return Set(lesson.scenarios.compactMap { scenario -> Int? in
                guard let first = scenario.expectation.blocks.first, inDetails.contains(first.id),
                      !inDetails.contains(scenario.block.id) else { return nil }
                return first.id
            })
        }

        mutating func add(_ block: RenderedBlock) {
            switch block {
            case let .heading(level, text, innerHTML):
                heading(level, text, innerHTML)
            case .code(let id, _):
                let code = codeBlock(id)
                html += code
            case let .limitNote(number, innerHTML):
                limitNote(number, innerHTML)
            case let .callout(kind, ownTitle, inner):
                // A callout is a note in the flow of the lesson (role="note"), not a landmark,
                // and looks unlike the limitation notes, which are the tool's own. GitHub's and
                // DocC's alike: titled in the course's language (or as the author titled a DocC
                // aside of a kind DocC does not know), drawn in its kind's style.
                let title = ownTitle ?? context.words.calloutTitles[kind] ?? kind.marker
                let inside = withCodeBlocks(inner) { writer, prose in writer.terms(prose) }
                html += "<div class=\"callout callout-\(kind.style.rawValue)\" role=\"note\">\n<p class=\"callout-title\">\(escapeHTML(title))</p>\n\(inside)</div>\n"
            case let .footnotes(section, _):
                html += section.replacingOccurrences(of: "aria-label=\"Back to content\"",
                                                     with: "aria-label=\"\(escapeHTML(context.words.footnoteBack))\"")
            case let .html(fragment, block):
                prose(fragment, block: block)
            }
        }

        mutating func heading(_ level: Int, _ text: String, _ innerHTML: String) {
            defer { headingIndex += 1 }
            if level == 1, !sawTitle {
                // The page template shows the title; the body starts after it.
                sawTitle = true
                return
            }
            let anchor = (anchors.indices.contains(headingIndex) ? anchors[headingIndex] : nil) ?? AnchorNamer.slug(text)
            if level == 2 { sections.append(Section(title: text, anchor: anchor)) }
            // The link to the heading stands beside it, not in it, so that the heading's
            // name is its text alone; the link's own name says which heading it is for.
            let linkName = escapeHTML(context.words.sectionLink(text))
            html += "<div class=\"heading\"><h\(level) id=\"\(anchor)\">\(innerHTML)</h\(level)><a class=\"anchor\" href=\"#\(anchor)\" aria-label=\"\(linkName)\" data-pagefind-ignore>#</a></div>\n"
        }

        mutating func limitNote(_ number: Int, _ innerHTML: String) {
            let label = "DR\(number)"
            if sections.isEmpty { leadingNotes.append(number) } else { sections[sections.count - 1].notes.append(number) }
            let text = terms(innerHTML)
            // A note, not a landmark: a page has many of them. Its kind links to what a
            // limitation note is.
            html += """
                <aside class="limit" id="dr\(number)" role="note" aria-labelledby="dr\(number)-label">
                <p class="limit-label" id="dr\(number)-label" data-pagefind-ignore><a href="#dr\(number)">\(label)</a> <a class="limit-kind" href="\(escapeHTML(context.aboutNotesHref))">\(escapeHTML(context.words.limitNote))</a></p>
                <p>\(text)</p>
                </aside>

                """
        }

        /// A paragraph, a table, a list or a quote: the lead, the glossary's definitions, a
        /// table that scrolls, or prose with its code blocks put in.
        mutating func prose(_ fragment: String, block: Int) {
            if let paragraph = lesson.introduction, paragraph.block == block {
                // A first paragraph set in emphasis as a whole (`*...*`) is the lesson's
                // lead: shown as one, and on the index in place of the first sentence.
                if let lead = LessonBody.lead(fragment) {
                    introduction = "<p>\(lead)</p>\n"
                    introductionIsLead = true
                    let text = terms(lead)
                    html += "<p class=\"lead\">\(text)</p>\n"
                    return
                }
                introduction = fragment
            }
            if context.isGlossary, let list = context.glossary?.definitionList(fragment) {
                html += list
            } else if let table = RenderedTable(html: fragment) {
                let text = terms(table.html())
                html += text
            } else {
                // A table inside a list or a quote scrolls sideways: a keyboard can reach it.
                let text = withCodeBlocks(fragment) { writer, prose in
                    writer.terms(prose.containsBytes("<table>") && prose.contains("<table>") ? prose.replacingOccurrences(of: "<table>", with: "<table tabindex=\"0\">") : prose)
                }
                html += text
            }
        }

        /// Prose with the glossary's terms it uses linked, each the first time only.
        mutating func terms(_ html: String) -> String {
            guard linksTerms, let glossary = context.glossary else { return html }
            return glossary.linkingTerms(in: html, linked: &linkedTerms)
        }

        /// A code block as the page shows it; an output block inside its scenario's figure,
        /// or apart.
        mutating func codeBlock(_ id: Int) -> String {
            let code = lesson.codeBlocks[id]
            if code.role == .output || code.role == .errors || code.role == .trap, let scenario = scenarioOfOutput[id] {
                return outputsApart.contains(id) ? LessonBody.output(of: scenario, context: context) : ""
            }
            return LessonBody.figure(for: code, in: lesson, context: context, coreShown: &coreShown, outputApart: outputsApart)
        }

        /// The HTML of a list or a quote with its code blocks put in, its prose as `prose` makes it.
        mutating func withCodeBlocks(_ fragment: String, prose: (inout Writer, String) -> String) -> String {
            var joined = ""
            for piece in NestedCodeBlock.pieces(of: fragment) {
                switch piece {
                case .html(let html): joined += prose(&self, html)
                case .code(let id, _): joined += codeBlock(id)
                }
            }
            return joined
        }
    }
}
