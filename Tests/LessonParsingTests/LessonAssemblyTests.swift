@testable import LessonParsing
import CourseModel
import TestSupport
import Testing

struct LessonAssemblyTests {
    @Test func rolesFromInfoStrings() {
        let (read, diagnostics) = lesson("""
            # T

            ```swift scenario
            print(1)
            ```

            ```output
            1
            ```

            ```swift scenario skip
            print(2)
            ```

            ```swift core=Core.swift
            x
            ```

            ```swift core
            x
            ```

            ```swift
            x
            ```

            ```text
            x
            ```

            """)
        #expect(diagnostics.isEmpty)
        #expect(read.codeBlocks.map(\.role) == [.scenario, .output, .skippedScenario,
                                                 .coreListing(name: "Core.swift"), .coreListing(name: nil),
                                                 .illustration, .other])
        #expect(read.scenarios.count == 2)
        #expect(read.scenarios[0].expected?.code == "1\n")
        #expect(read.scenarios[1].isSkipped)
        #expect(read.title == "T")
    }

    @Test func outputPairsWithTheNearestScenarioAbove() {
        let (read, diagnostics) = lesson("""
            # T

            ```output
            orphan
            ```

            ```swift scenario
            print(1)
            ```

            ```swift scenario
            print(2)
            ```

            ```output
            2
            ```

            ```output
            again
            ```

            """)
        #expect(diagnostics.ids == ["output-without-scenario", "output-repeated", "scenario-without-output"])
        #expect(diagnostics.map { $0.location?.line } == [3, 19, 7])
        #expect(read.scenarios[1].expected?.code == "2\n")
    }

    @Test func aSkippedScenarioNeedsNoOutput() {
        let (_, diagnostics) = lesson("# T\n\n```swift scenario skip\nx\n```\n")
        #expect(diagnostics.isEmpty)
    }

    @Test func aLessonWithoutTitle() {
        let (read, diagnostics) = lesson("## Only a section\n\ntext\n")
        #expect(read.title == nil)
        #expect(diagnostics.ids == ["lesson-without-title"])
        #expect(diagnostics[0].location == SourceLocation(file: "lessons/01-test.md", line: 1))
    }

    /// A block in a footnote is shown where the page puts footnotes, at its end, so it is not
    /// checked; one in a quote is.
    @Test func unknownAttributesAndBlocksInFootnotesAreFlagged() {
        let (read, diagnostics) = lesson("""
            # T

            ```swift scenaro
            x
            ```

            Text.[^a]

            [^a]: A footnote.

                ```swift scenario
                print(1)
                ```

            ```swift skip
            x
            ```

            ```swift scenario core
            x
            ```

            > ```swift scenario
            > print(2)
            > ```

            """)
        // cmark-gfm moves a footnote's definition to the end of the document: its block comes last.
        #expect(diagnostics.ids == ["unknown-attribute", "skip-without-scenario", "conflicting-attributes", "nested-block",
                                    "scenario-without-output", "scenario-without-output"])
        #expect(diagnostics[3].summary == "a 'swift scenario' block inside a footnote is shown as it is and not checked; put it in the lesson's text (a list item or a quote is fine)")
        #expect(diagnostics[3].location?.line == 11)
        #expect(read.codeBlocks[4].role == .other)
        #expect(read.codeBlocks[3].role == .scenario)
        #expect(diagnostics[5].location?.line == 23)
    }

    @Test func limitNotesAndIntroduction() {
        let (read, diagnostics) = lesson("""
            # T

            DR1. Before the introduction is not an introduction.

            The introduction.

            DR2 without a full stop.

            DR3.
            """)
        #expect(read.notes.map(\.number) == [1, 3])
        #expect(read.notes[0].text == "Before the introduction is not an introduction.")
        #expect(read.introduction == Paragraph(text: "The introduction.", line: 5, block: 2))
        #expect(diagnostics.ids == ["limit-note-full-stop"])
        #expect(read.mentions == [LimitNoteReference(number: 2, line: 7)])
    }

    /// Raw HTML is a warning at its line and column that says what happens to it and what to
    /// write instead.
    @Test func rawHTMLIsAWarningThatSaysWhatToWrite() {
        let (_, diagnostics) = lesson("# T\n\nHi <b onclick=\"x()\">there</b>.\n")
        #expect(diagnostics == [
            .warning(.rawHTML, "raw HTML is shown on the page as text, not passed through; write Markdown, or one of the allowed tags exactly (<kbd>, <sub>, <sup>, <br>, <mark>, <abbr title=\"...\">, <details>, <summary>)",
                     at: SourceLocation(file: "lessons/01-test.md", line: 3, column: 4)),
            .warning(.rawHTML, "raw HTML is shown on the page as text, not passed through; write Markdown, or one of the allowed tags exactly (<kbd>, <sub>, <sup>, <br>, <mark>, <abbr title=\"...\">, <details>, <summary>)",
                     at: SourceLocation(file: "lessons/01-test.md", line: 3, column: 26)),
        ])
    }

    /// A number too large to hold is never silently taken for no note at all.
    @Test func aNoteNumberTooLargeIsAnErrorAndItsMentionAWarning() {
        let (read, diagnostics) = lesson("""
            # T

            DR1. A note.

            DR99999999999999999999. Meant as a note.

            See DR99999999999999999999 and DR1.
            """)
        #expect(read.notes.map(\.number) == [1])
        #expect(diagnostics.map(\.summary) == [
            "'DR99999999999999999999.' starts a limitation note whose number is too large to hold; notes are numbered DR1, DR2 ... through the course",
            "DR99999999999999999999 is mentioned, but its number is too large for any limitation note",
        ])
        #expect(diagnostics.map(\.severity) == [.error, .warning])
        #expect(diagnostics.map { $0.location?.line } == [5, 7])
        #expect(read.mentions == [LimitNoteReference(number: 1, line: 7)])
    }

    @Test(arguments: [
        ("DR10. Text", LimitNoteLabel.note(number: 10, body: "Text")),
        ("DR1.", .note(number: 1, body: "")),
        ("DR3 text", .missingFullStop(label: "DR3")),
        ("DR3: text", .missingFullStop(label: "DR3")),
        ("DR3.5 is a version", .none),
        ("DRX. no", .none),
        ("Not DR1.", .none),
        ("DR99999999999999999999. Too large", .numberTooLarge(label: "DR99999999999999999999")),
    ])
    func noteLabels(text: String, expected: LimitNoteLabel) {
        #expect(LimitNoteLabel.parse(text) == expected)
    }

    @Test func columnOffsetsFollowIndentAndQuotes() {
        let (read, _) = lesson("# T\n\n   ```swift\n   let a = 1\n     let b = 2\n   ```\n")
        let block = read.codeBlocks[0]
        #expect(block.code == "let a = 1\n  let b = 2\n")
        #expect(block.columnOffsets == [3, 3])
        #expect(block.lessonPosition(codeLine: 2, codeColumn: 3) == (5, 6))
    }

    @Test func sectionsRunToTheNextHeadingOfLevelTwoOrLess() {
        let (read, _) = lesson("# T\n\n## A\n\n### A1\n\n## B\n\n# U\n\n## C\n")
        #expect(read.sections.map(\.heading.text) == ["A", "B", "C"])
        #expect(read.sections.map(\.lines) == [3..<7, 7..<9, 11..<Int.max])
    }

    @Test func captions() {
        func caption(_ code: String) -> String? {
            Scenario(block: CodeBlock(id: 0, role: .scenario, language: "swift", attributes: [], code: code,
                                      line: 1, fence: nil, columnOffsets: []),
                     isSkipped: false).caption
        }
        #expect(caption("// main.swift — sayaç değişince\nx") == "sayaç değişince")
        #expect(caption("// main.swift - plain dash\nx") == "plain dash")
        #expect(caption("// just a comment  \nx") == "just a comment")
        #expect(caption("let x = 1\n") == nil)
        #expect(caption("// main.swift\n") == nil)
    }
}

/// Where `output`, `errors` and `trap` blocks may stand, and the `language-mode=N` attribute.
struct ExpectationBlocksTests {
    @Test func errorsAndTrapBlocksBelongToTheScenarioAbove() {
        let (read, found) = lesson("""
            # L

            ```swift scenario
            let x = 1
            x = 2
            ```

            ```errors
            2:1: error: cannot assign to value: 'x' is a 'let' constant
            ```

            ```swift scenario language-mode=6
            print([1][2])
            ```

            ```output
            ```

            ```trap
            Fatal error: Index out of range
            ```

            """)
        #expect(found.isEmpty)
        #expect(read.scenarios.map(\.expectation.kind) == [.errors, .trap])
        #expect(read.scenarios[0].expectation.errors?.line == 8 && read.scenarios[0].expectation.output == nil)
        #expect(read.scenarios[1].expectation.output?.line == 16 && read.scenarios[1].expectation.trap?.line == 19)
        #expect(read.scenarios.map(\.languageMode) == [nil, .swift6])
        #expect(read.codeBlocks.map(\.role) == [.scenario, .errors, .scenario, .output, .trap])
    }

    @Test(arguments: [
        ("```output\n```\n\n```errors\n```\n", "expectation-conflict", 10,
         "the scenario at line 3 already has an 'output' block; a scenario has an 'output' block or an 'errors' block, never both"),
        ("```errors\n```\n\n```output\n```\n", "expectation-conflict", 10,
         "the scenario at line 3 has an 'errors' block: it must not compile, so it prints nothing; a scenario has an 'output' block or an 'errors' block, never both"),
        ("```errors\n```\n\n```trap\n```\n", "expectation-conflict", 10,
         "the scenario at line 3 has an 'errors' block: it must not compile, so it never runs and cannot trap"),
        ("```errors\n```\n\n```errors\n```\n", "errors-repeated", 10,
         "second 'errors' block for the scenario at line 3; a scenario has at most one"),
        ("```output\n```\n\n```trap\n```\n\n```trap\n```\n", "trap-repeated", 13,
         "second 'trap' block for the scenario at line 3; a scenario has at most one"),
        ("```output\n```\n\n```trap\n```\n\n```output\n```\n", "output-repeated", 13,
         "second 'output' block for the scenario at line 3; a scenario has exactly one"),
        ("```trap\n```\n", "scenario-without-output", 3,
         "scenario has no 'output' block before its 'trap' block at line 7; add one (an empty one when it prints nothing before the trap), or run 'coursebook check --update'"),
    ])
    func whereTheBlocksMayNotStand(blocks: String, id: String, line: Int, message: String) {
        let (_, found) = lesson("# L\n\n```swift scenario\nx\n```\n\n" + blocks)
        #expect(found.map(\.id.rawValue) == [id])
        #expect(found.first?.location?.line == line)
        #expect(found.first?.summary == message)
    }

    @Test func errorsOrTrapWithoutAScenario() {
        let (_, found) = lesson("# L\n\n```errors\n```\n\n```trap\n```\n")
        #expect(found.map(\.id) == [.errorsWithoutScenario, .trapWithoutScenario])
        #expect(found.map(\.summary) == ["'errors' block has no scenario above it", "'trap' block has no scenario above it"])
    }

    @Test func languageModeAttribute() {
        let (read, found) = lesson("# L\n\n```swift scenario language-mode=7\nx\n```\n\n```output\n```\n\n```swift language-mode=6\ny\n```\n")
        #expect(read.scenarios[0].languageMode == nil)
        #expect(found.map(\.id) == [.languageModeInvalid, .unknownAttribute])
        #expect(found[0].summary == "'language-mode=7': the language mode is language-mode=5 or language-mode=6")
        #expect(found[0].severity == .error)
        #expect(found[1].summary == "'language-mode=N' applies only to 'swift scenario' blocks; this block is not compiled")
    }
}
