import CourseModel
import Foundation

/// Turns what the Markdown layer found in a lesson into a `Lesson`: the roles of its code
/// blocks, scenarios paired with their `output` blocks, its limitation notes. The findings
/// that need nothing but the lesson's own structure come back as diagnostics.
package enum LessonAssembly {
    package static func assemble(
        fileName: String, path: String, source: SourceText, elements: [LessonElement]
    ) -> (Lesson, [Diagnostic]) {
        var assembly = Assembly(path: path, source: source)
        for element in elements { assembly.take(element) }
        assembly.checkWhole()
        let lesson = Lesson(
            fileName: fileName, path: path, source: source, title: assembly.title, headings: assembly.headings,
            codeBlocks: assembly.codeBlocks, scenarios: assembly.scenarios, notes: assembly.notes,
            mentions: assembly.mentions, introduction: assembly.introduction, links: assembly.links)
        return (lesson, assembly.diagnostics + BidiControlRule.findings(in: lesson))
    }

    /// A lesson as far as its elements have been taken, in order, and what was found so far.
    private struct Assembly {
        let path: String
        let source: SourceText
        var diagnostics: [Diagnostic] = []
        var headings: [Heading] = []
        var codeBlocks: [CodeBlock] = []
        var scenarios: [Scenario] = []
        var notes: [LimitNote] = []
        var introduction: Paragraph?
        var title: String?
        var mentions: [LimitNoteReference] = []
        /// The label of the note just read: the Markdown layer reports it with the mentions.
        var ownLabel: LimitNoteReference?
        /// The label of a note too large to hold, reported once, as that note.
        var oversizedLabel: (label: String, line: Int)?
        var links: [LessonLink] = []
        var autolinkPlaces = AutolinkPlaces()
        var containerKinds: [Int: CodeContainer.Kind] = [:]

        init(path: String, source: SourceText) {
            self.path = path
            self.source = source
        }

        func at(_ line: Int, _ column: Int = 1) -> SourceLocation {
            SourceLocation(file: path, line: line, column: column)
        }

        mutating func take(_ element: LessonElement) {
            switch element {
            case let .heading(level, text, line):
                headings.append(Heading(level: level, text: text, line: line))
                if level == 1, title == nil { title = text }
            case let .paragraph(text, line, block):
                paragraph(text, line: line, block: block)
            case let .mention(number, line):
                let reference = LimitNoteReference(number: number, line: line)
                if reference == ownLabel { ownLabel = nil } else { mentions.append(reference) }
            case let .oversizedMention(label, line):
                if let own = oversizedLabel, own == (label, line) { oversizedLabel = nil; return }
                diagnostics.append(.warning(
                    .limitNoteUnknown,
                    "\(label) is mentioned, but its number is too large for any limitation note",
                    at: at(line)))
            case let .rawHTML(line, column):
                diagnostics.append(.warning(
                    .rawHTML,
                    "raw HTML is shown on the page as text, not passed through; write Markdown, or one of the allowed tags exactly (<kbd>, <sub>, <sup>, <br>, <mark>, <abbr title=\"...\">, <details>, <summary>)",
                    at: at(line, column)))
            case let .undefinedFootnote(label, line, column):
                diagnostics.append(.warning(
                    .footnoteUndefined,
                    "footnote '[^\(label)]' has no definition; add a line '[^\(label)]: ...' (it is shown as text)",
                    at: at(line, column)))
            case let .unknownCallout(kind, line):
                diagnostics.append(.warning(
                    .calloutUnknown,
                    "'[!\(kind)]' is not a callout (known: \(CalloutKind.allCases.map { "[!\($0.marker)]" }.joined(separator: ", "))); the quote is shown as it is",
                    at: at(line)))
            case let .link(link):
                links.append(autolinkPlaces.placed(link, in: source))
            case let .code(element):
                code(element)
            }
        }

        /// A limitation note (`DR3. ...`), a label that almost is one, or prose: the first
        /// prose paragraph after the title is the lesson's introduction.
        mutating func paragraph(_ text: String, line: Int, block: Int) {
            switch LimitNoteLabel.parse(text) {
            case let .note(number, body):
                notes.append(LimitNote(number: number, text: body, line: line))
                ownLabel = LimitNoteReference(number: number, line: line)
            case let .numberTooLarge(label):
                oversizedLabel = (label, line)
                diagnostics.append(.error(
                    .limitNoteNumber,
                    "'\(label).' starts a limitation note whose number is too large to hold; notes are numbered DR1, DR2 ... through the course",
                    at: at(line)))
            case let .missingFullStop(label):
                diagnostics.append(.warning(
                    .limitNoteFullStop,
                    "paragraph starts with '\(label)' but is not a limitation note; write '\(label). ...' to make it one",
                    at: at(line)))
                if title != nil, introduction == nil { introduction = Paragraph(text: text, line: line, block: block) }
            case .none:
                if title != nil, introduction == nil { introduction = Paragraph(text: text, line: line, block: block) }
            }
        }

        /// A code block: its role read from its info string; a scenario begins, or an
        /// `output`, `errors` or `trap` block goes with the scenario above it.
        mutating func code(_ element: CodeBlockElement) {
            let (role, language, attributes, findings) = interpret(element, at: at)
            diagnostics += findings
            let block = CodeBlock(
                id: element.id, role: role, language: language, attributes: attributes,
                code: normalizingLineEnds(element.literal), line: element.line,
                fence: element.fence,
                columnOffsets: columnOffsets(of: element, in: source),
                container: element.container?.id)
            codeBlocks.append(block)
            if let container = element.container { containerKinds[container.id] = container.kind }
            switch role {
            case .scenario, .skippedScenario:
                scenarios.append(Scenario(block: block, isSkipped: role == .skippedScenario,
                                          languageMode: languageMode(of: attributes)))
            case .output, .errors, .trap:
                if let finding = attach(block, to: &scenarios, containerKinds: containerKinds, at: at) {
                    diagnostics.append(finding)
                }
            default:
                break
            }
        }

        /// What only the whole lesson shows: no title, groups, scenarios without an output.
        mutating func checkWhole() {
            if title == nil {
                diagnostics.append(.error(
                    .lessonWithoutTitle,
                    "lesson has no title: its first level-1 heading ('# ...') names it",
                    at: at(1)))
            }
            diagnostics += groupFindings(scenarios, at: at)
            for scenario in scenarios where !scenario.isSkipped && scenario.expectation.output == nil {
                if scenario.expectation.isEmpty, scenario.group != nil {
                    // A block of a group passes what it prints on to the group's next `output` block.
                    continue
                } else if scenario.expectation.isEmpty {
                    diagnostics.append(.error(
                        .scenarioWithoutOutput,
                        "scenario has no 'output' block; add one after it (or run 'coursebook check --update')",
                        at: at(scenario.line)))
                } else if let trap = scenario.expectation.trap {
                    diagnostics.append(.error(
                        .scenarioWithoutOutput,
                        "scenario has no 'output' block before its 'trap' block at line \(trap.line); add one (an empty one when it prints nothing before the trap), or run 'coursebook check --update'",
                        at: at(scenario.line)))
                }
            }
        }
    }

    /// Puts an `output`, `errors` or `trap` block with the scenario above it (the last one so
    /// far), or says why it cannot stand there. A scenario has an `output` block or an
    /// `errors` block, never both; a `trap` block follows its `output` block (a missing one is
    /// reported with the scenario, so that `--update` can insert it). Inside a list item or a
    /// quote, as at the top level: the scenario stands in the same one.
    static func attach(_ block: CodeBlock, to scenarios: inout [Scenario], containerKinds: [Int: CodeContainer.Kind] = [:],
                       at: (Int, Int) -> SourceLocation) -> Diagnostic? {
        let kind = block.role == .errors ? "errors" : block.role == .trap ? "trap" : "output"
        let id: DiagnosticID = block.role == .errors ? .errorsWithoutScenario : block.role == .trap ? .trapWithoutScenario : .outputWithoutScenario
        guard var scenario = scenarios.last else {
            return .error(id, "'\(kind)' block has no scenario above it", at: at(block.line, 1))
        }
        if block.container != scenario.block.container {
            func place(_ container: Int?) -> String {
                guard let container else { return "at the top level" }
                return containerKinds[container] == .quote ? "in a quote" : "in a list item"
            }
            let there = place(block.container), scenarioPlace = place(scenario.block.container)
            let quoteHint = there == "in a quote" || scenarioPlace == "in a quote" ? " (a line of only '>' between two blocks keeps them in one quote)" : ""
            return .error(
                id,
                "'\(kind)' block \(there) has no scenario above it there: the scenario above it stands \(there == scenarioPlace ? "in another one" : scenarioPlace); a scenario's '\(kind)' block follows it in the same list item or quote\(quoteHint)",
                at: at(block.line, 1), notes: [.init("the scenario above it is here", at: at(scenario.line, 1))])
        }
        var expectation = scenario.expectation
        func earlier(_ other: CodeBlock, _ what: String) -> [Diagnostic.Note] {
            [.init("its '\(what)' block is here", at: at(other.line, 1))]
        }
        switch block.role {
        case .output:
            if let first = expectation.output {
                return .error(.outputRepeated, "second 'output' block for the scenario at line \(scenario.line); a scenario has exactly one",
                              at: at(block.line, 1), notes: [.init("its first 'output' block is here", at: at(first.line, 1))])
            }
            if let errors = expectation.errors {
                return .error(.expectationConflict, "the scenario at line \(scenario.line) has an 'errors' block: it must not compile, so it prints nothing; a scenario has an 'output' block or an 'errors' block, never both",
                              at: at(block.line, 1), notes: earlier(errors, "errors"))
            }
            if let trap = expectation.trap {
                return .error(.expectationConflict, "an 'output' block comes before the 'trap' block of its scenario (line \(scenario.line)), not after it",
                              at: at(block.line, 1), notes: earlier(trap, "trap"))
            }
            expectation.output = block
        case .errors:
            if let first = expectation.errors {
                return .error(.errorsRepeated, "second 'errors' block for the scenario at line \(scenario.line); a scenario has at most one",
                              at: at(block.line, 1), notes: [.init("its first 'errors' block is here", at: at(first.line, 1))])
            }
            if let other = expectation.output ?? expectation.trap {
                let what = other.role == .trap ? "trap" : "output"
                return .error(.expectationConflict, "the scenario at line \(scenario.line) already has an '\(what)' block; a scenario has an 'output' block or an 'errors' block, never both",
                              at: at(block.line, 1), notes: earlier(other, what))
            }
            expectation.errors = block
        default:
            if let first = expectation.trap {
                return .error(.trapRepeated, "second 'trap' block for the scenario at line \(scenario.line); a scenario has at most one",
                              at: at(block.line, 1), notes: [.init("its first 'trap' block is here", at: at(first.line, 1))])
            }
            if let errors = expectation.errors {
                return .error(.expectationConflict, "the scenario at line \(scenario.line) has an 'errors' block: it must not compile, so it never runs and cannot trap",
                              at: at(block.line, 1), notes: earlier(errors, "errors"))
            }
            expectation.trap = block
        }
        scenario.expectation = expectation
        scenarios[scenarios.count - 1] = scenario
        return nil
    }

    /// What the blocks of a group may not say: an `errors` block (the group is one program that
    /// must run; the failing code is a scenario of its own), a `trap` block but after its last
    /// block, a language mode other than its first block's, or `skip` on some blocks only.
    static func groupFindings(_ scenarios: [Scenario], at: (Int, Int) -> SourceLocation) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        var members: [String: [Scenario]] = [:]
        var order: [String] = []
        for scenario in scenarios {
            guard let group = scenario.group else { continue }
            if members[group] == nil { order.append(group) }
            members[group, default: []].append(scenario)
        }
        for group in order {
            let blocks = members[group]!
            let first = blocks[0]
            for (index, scenario) in blocks.enumerated() {
                if let errors = scenario.expectation.errors {
                    findings.append(.error(
                        .groupExpectation,
                        "an 'errors' block never follows a block of a group ('group=\(group)'): the group is one program that runs; write the code that must not compile as a scenario of its own, with the group's code it needs as hidden lines ('# ')",
                        at: at(errors.line, 1)))
                }
                if let trap = scenario.expectation.trap, index != blocks.count - 1 {
                    findings.append(.error(
                        .groupExpectation,
                        "a 'trap' block may follow only the last block of the group 'group=\(group)' (line \(blocks.last!.line)): it is about the whole program",
                        at: at(trap.line, 1)))
                }
                if index > 0, scenario.languageMode != first.languageMode {
                    findings.append(.error(
                        .groupExpectation,
                        "the blocks of the group 'group=\(group)' are one program in one language mode: this block's differs from the first block's (line \(first.line))",
                        at: at(scenario.line, 1)))
                }
                if index > 0, scenario.isSkipped != first.isSkipped {
                    findings.append(.error(
                        .groupExpectation,
                        "the blocks of the group 'group=\(group)' are one program: 'skip' is on all of them or on none (the first block, line \(first.line), \(first.isSkipped ? "has" : "has not"))",
                        at: at(scenario.line, 1)))
                }
            }
        }
        return findings
    }

    /// A scenario's `language-mode=N` attribute, when it names a mode (`interpret` reports one
    /// that does not).
    static func languageMode(of attributes: [String]) -> LanguageMode? {
        attributes.lazy.compactMap { attribute in
            attribute.hasPrefix(LanguageMode.attributePrefix)
                ? LanguageMode(rawValue: String(attribute.dropFirst(LanguageMode.attributePrefix.count))) : nil
        }.first
    }

    /// The autolinks (`<...>`) written on each line, by their text, with their columns:
    /// found once per line, so that a line of a thousand links costs one pass.
    struct AutolinkPlaces {
        private var byLine: [Int: [String: [Int]]] = [:]
        private var taken: [Int: [String: Int]] = [:]

        /// A link whose place is where its source says. cmark-gfm 0.29 places an autolink
        /// (`<doc:Name>`, `<https://...>`) by its offset in the paragraph's text, which counts
        /// the lines before it and none of the quote's or list's marks; the line is right. A
        /// link that does not stand where it is placed is found on its line as `<destination>`
        /// (the first not yet taken).
        mutating func placed(_ link: LessonLink, in source: SourceText) -> LessonLink {
            guard link.line >= 1, link.line <= source.lineCount else { return link }
            let line = source.content(ofLine: link.line)
            let at = line.startIndex + link.column - 1
            if link.column >= 1, at < line.endIndex, [UInt8(ascii: "["), UInt8(ascii: "!")].contains(line[at]) {
                return link
            }
            let written = "<" + link.destination + ">"
            if byLine[link.line] == nil { byLine[link.line] = Self.autolinks(in: line) }
            let columns = byLine[link.line]![written] ?? []
            let index = taken[link.line, default: [:]][written, default: 0]
            guard index < columns.count else { return link }
            taken[link.line, default: [:]][written] = index + 1
            var placed = link
            placed.column = columns[index]
            return placed
        }

        /// Every `<...>` on a line with no space or `<` inside, by its text, with its columns.
        private static func autolinks(in line: ArraySlice<UInt8>) -> [String: [Int]] {
            var found: [String: [Int]] = [:]
            var open: Int?
            for index in line.indices {
                switch line[index] {
                case UInt8(ascii: "<"): open = index
                case UInt8(ascii: " "), UInt8(ascii: "\t"): open = nil
                case UInt8(ascii: ">"):
                    if let start = open {
                        found[String(decoding: line[start...index], as: UTF8.self), default: []].append(start - line.startIndex + 1)
                    }
                    open = nil
                default: break
                }
            }
            return found
        }
    }

    /// The role a code block's info string gives it, with findings about the string itself.
    static func interpret(
        _ element: CodeBlockElement, at: (Int, Int) -> SourceLocation
    ) -> (CodeBlockRole, String, [String], [Diagnostic]) {
        let words = element.info.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        let language = words.first ?? ""
        let attributes = Array(words.dropFirst())
        let location = at(element.line, element.column)
        var (role, findings): (CodeBlockRole, [Diagnostic])
        switch language {
        case "swift":
            (role, findings) = SwiftAttributes.read(attributes, at: location).role(at: location)
        case "output", "errors", "trap":
            role = language == "output" ? .output : language == "errors" ? .errors : .trap
            findings = expectationAttributeFindings(language, attributes, at: location)
        default:
            (role, findings) = (.other, [])
        }
        // The page moves footnotes to its end, away from the lesson's order of programs.
        if element.container?.isInFootnote == true, role != .other {
            findings.append(.warning(
                .nestedBlock,
                "a '\(element.info)' block inside a footnote is shown as it is and not checked; put it in the lesson's text (a list item or a quote is fine)",
                at: location))
            role = .other
        }
        return (role, language, attributes, findings)
    }

    /// `output unordered`: its lines compared in any order (the only attribute of the three).
    private static func expectationAttributeFindings(_ language: String, _ attributes: [String],
                                                     at location: SourceLocation) -> [Diagnostic] {
        let unknown = language == "output" ? attributes.filter { $0 != OutputPattern.unorderedAttribute } : attributes
        guard !unknown.isEmpty else { return [] }
        return [.warning(
            .unknownAttribute,
            language == "output"
                ? "an 'output' block takes one attribute, 'unordered'; '\(unknown.joined(separator: " "))' is ignored"
                : "an '\(language)' block takes no attributes; '\(attributes.joined(separator: " "))' is ignored",
            at: location)]
    }

    /// The attributes of a `swift` block, as read, and what was wrong with each.
    private struct SwiftAttributes {
        var isScenario = false, skip = false, noDiagram = false, mode = false, group = false
        /// `core` (nil inside: the listing of no file in particular) or `core=Name.swift`.
        var core: String?? = .none
        var module: String?
        var findings: [Diagnostic] = []

        static func read(_ attributes: [String], at location: SourceLocation) -> SwiftAttributes {
            var read = SwiftAttributes()
            for attribute in attributes { read.take(attribute, at: location) }
            return read
        }

        mutating func take(_ attribute: String, at location: SourceLocation) {
            switch attribute {
            case "scenario": isScenario = true
            case "skip": skip = true
            case Scenario.noDiagramAttribute: noDiagram = true
            case _ where attribute.hasPrefix(LanguageMode.attributePrefix):
                mode = true
                let value = attribute.dropFirst(LanguageMode.attributePrefix.count)
                if LanguageMode(rawValue: String(value)) == nil {
                    findings.append(.error(
                        .languageModeInvalid,
                        "'\(attribute)': the language mode is \(LanguageMode.allCases.map { "\(LanguageMode.attributePrefix)\($0.rawValue)" }.joined(separator: " or "))",
                        at: location))
                }
            case _ where attribute.hasPrefix(Scenario.groupAttributePrefix):
                group = true
                let name = attribute.dropFirst(Scenario.groupAttributePrefix.count)
                if name.isEmpty || !name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) {
                    findings.append(.error(
                        .groupNameInvalid,
                        "'\(attribute)': a group's name is letters, digits, '-' and '_' (group=shop)",
                        at: location))
                }
            case _ where attribute.hasPrefix(CourseModule.attributePrefix):
                let name = String(attribute.dropFirst(CourseModule.attributePrefix.count))
                if let problem = CourseModule.nameProblem(name) {
                    findings.append(.error(.moduleNameInvalid, "'\(attribute)': \(problem); the block is shown, not compiled", at: location))
                } else {
                    module = name
                }
            case "core": core = .some(nil)
            case _ where attribute.hasPrefix("core="):
                let name = String(attribute.dropFirst("core=".count))
                core = .some(name.isEmpty ? nil : name)
            default:
                findings.append(.warning(
                    .unknownAttribute,
                    "unknown attribute '\(attribute)' on a swift block (known: scenario, skip, no-diagram, language-mode=5, language-mode=6, group=NAME, module=NAME, core, core=Name.swift)",
                    at: location))
            }
        }

        /// The block's role, with the findings of its attributes and of those that do not go
        /// together.
        func role(at location: SourceLocation) -> (CodeBlockRole, [Diagnostic]) {
            var findings = self.findings
            var module = self.module
            if isScenario, core != nil {
                findings.append(.error(
                    .conflictingAttributes,
                    "a swift block is either a scenario or a core listing, not both",
                    at: location))
            }
            if module != nil, isScenario || core != nil {
                findings.append(.error(
                    .conflictingAttributes,
                    "a 'module=NAME' block is part of a library module, not \(isScenario ? "a scenario" : "a core listing"); write the scenario that uses it as a block of its own that imports it",
                    at: location))
                module = nil
            }
            for (given, finding) in [
                (skip, Diagnostic.warning(.skipWithoutScenario, "'skip' applies only to 'swift scenario' blocks", at: location)),
                (noDiagram, .warning(.noDiagramWithoutScenario, "'no-diagram' applies only to 'swift scenario' blocks", at: location)),
                (mode, .warning(.unknownAttribute, "'language-mode=N' applies only to 'swift scenario' blocks; this block is not compiled", at: location)),
                (group, .warning(.unknownAttribute, "'group=NAME' applies only to 'swift scenario' blocks; this block is not compiled", at: location)),
            ] where given && !isScenario {
                findings.append(finding)
            }
            if isScenario { return (skip ? .skippedScenario : .scenario, findings) }
            if case .some(let name) = core { return (.coreListing(name: name), findings) }
            if let module { return (.moduleListing(name: module), findings) }
            return (.illustration, findings)
        }
    }

    /// For each line of the block's code, how many bytes of its source line come first.
    static func columnOffsets(of element: CodeBlockElement, in source: SourceText) -> [Int] {
        let code = Array(normalizingLineEnds(element.literal).utf8)
        let first = element.fence == nil ? element.line : element.line + 1
        var offsets: [Int] = []
        code.withUnsafeBufferPointer { code in
            source.bytes.withUnsafeBufferPointer { file in
                var start = 0
                while start < code.count {
                    let end = memchr(code.baseAddress! + start, Int32(UInt8(ascii: "\n")), code.count - start)
                        .map { code.baseAddress!.distance(to: $0.assumingMemoryBound(to: UInt8.self)) } ?? code.count
                    let length = end - start
                    let number = first + offsets.count
                    var offset = 0
                    if number >= 1, number <= source.lineCount {
                        let line = source.lines[number - 1].content
                        if line.count >= length,
                           length == 0 || memcmp(file.baseAddress! + line.upperBound - length, code.baseAddress! + start, length) == 0 {
                            offset = line.count - length
                        }
                    }
                    offsets.append(offset)
                    start = end + 1
                }
            }
        }
        return offsets
    }
}
