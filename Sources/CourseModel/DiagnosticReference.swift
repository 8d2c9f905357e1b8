/// What the manual says of one kind of finding: how bad it is, what it looks like and how to
/// fix it. `docs/diagnostics.md` is generated from these (`make docs-reference`), and a test
/// fails when the page and this table drift apart.
package struct DiagnosticReference: Sendable, Equatable {
    /// The severities the finding is reported at (a warning is an error under `--strict`).
    package var severities: [Diagnostic.Severity]
    /// A message as coursebook prints it.
    package var example: String
    /// What an author does about it.
    package var fix: String

    init(_ severity: Diagnostic.Severity, _ example: String, fix: String) {
        self.severities = [severity]
        self.example = example
        self.fix = fix
    }
}

extension DiagnosticID {
    /// The manual's words on this finding; a new case does not compile until it has them.
    package var reference: DiagnosticReference {
        switch self {
        case .courseUnreadable:
            return .init(.error, "no course.json: a course folder needs one (title, language; core when scenarios share code)",
                         fix: "Give the command a course folder: one with a valid `course.json`, UTF-8 lessons named `NN-slug.md` and core files inside the course's repository. The message names the file and line.")
        case .lessonWithoutTitle:
            return .init(.error, "lesson has no title: its first level-1 heading ('# ...') names it",
                         fix: "Start the lesson with a `# Title` heading.")
        case .rawHTML:
            return .init(.warning, "raw HTML is shown on the page as text, not passed through; write Markdown, or one of the allowed tags exactly (<kbd>, <sub>, <sup>, <br>, <mark>, <abbr>, <details>, <summary>)",
                         fix: "Write the same in Markdown, or use one of the allowed tags exactly as listed, with no attributes.")
        case .unknownAttribute:
            return .init(.warning, "unknown attribute 'scenaro' on a swift block (known: scenario, skip, no-diagram, language-mode=5, language-mode=6, group=NAME, module=NAME, core, core=Name.swift)",
                         fix: "Correct the spelling of the block's info string; the block is shown but not run until it is one of the known forms.")
        case .conflictingAttributes:
            return .init(.error, "a swift block is either a scenario or a core listing, not both",
                         fix: "Keep one of `scenario` and `core` on the block.")
        case .skipWithoutScenario:
            return .init(.warning, "'skip' applies only to 'swift scenario' blocks",
                         fix: "Remove `skip`, or make the block a `swift scenario skip`.")
        case .nestedBlock:
            return .init(.warning, "a 'swift scenario' block inside a footnote is shown as it is and not checked; put it in the lesson's text (a list item or a quote is fine)",
                         fix: "Move the block out of the footnote into the lesson's text; inside a list item or a quote it is checked as at the top level.")
        case .footnoteUndefined:
            return .init(.warning, "footnote '[^source]' has no definition; add a line '[^source]: ...' (it is shown as text)",
                         fix: "Add the footnote's definition, or remove the reference.")
        case .calloutUnknown:
            return .init(.warning, "'[!NOOT]' is not a callout (known: [!NOTE], [!TIP], [!IMPORTANT], [!WARNING], [!CAUTION])",
                         fix: "Use one of the known callout kinds; the quote is shown as a plain quote until then.")
        case .linkTargetMissing:
            return .init(.warning, "link 'doc:SummaryOfTheGrammar' names no lesson: a doc: link names a lesson by its file name without NN- and .md, case and dashes aside, and no lesson file is named so (NN-summary-of-the-grammar.md)",
                         fix: "Point the link at a lesson, heading, file or image that exists in the course folder (the message says what is missing).")
        case .linkTargetOutside:
            return .init(.warning, "link '../notes.md' points outside the course folder; the site carries only files inside it",
                         fix: "Copy the file into the course folder and link it there, or link a web address.")
        case .linkTargetAmbiguous:
            return .init(.warning, "image 'twice' has the same variant twice: book/Assets/twice.png and book/Old/twice.png; DocC needs an image's name to be unique in the course, so the site shows the first",
                         fix: "Rename or remove one of the files, so that each DocC image name is one file (and its `@2x`, `~dark` variants).")
        case .linkSchemeUnknown:
            return .init(.warning, "link 'javascript:alert(1)' goes nowhere: the site links only http, https and mailto addresses and files of the course",
                         fix: "Link a web address (`https:`), a `mailto:` address or a file of the course.")
        case .linkRootPath:
            return .init(.warning, "link '/images/a.png' starts at the root of the web server, which the course cannot know; write it relative to the lesson",
                         fix: "Write the path relative to the lesson (`images/a.png`).")
        case .linkTargetReserved:
            return .init(.warning, "'assets/style.css' is where the site keeps a file of its own, so the site cannot carry it; move or rename it",
                         fix: "Move or rename the file out of the names the site uses for its own files (`assets/`, `pagefind/`, `index.html` ...).")
        case .bidiControl:
            return .init(.warning, "U+202E RIGHT-TO-LEFT OVERRIDE in a scenario reorders how the code reads; remove it; the page shows it as a visible mark",
                         fix: "Remove the bidirectional control character; it makes code read differently from how it compiles.")
        case .scenarioWithoutOutput:
            return .init(.error, "scenario has no 'output' block; add one after it (or run 'coursebook check --update')",
                         fix: "Run `coursebook check --update` to write what the scenario prints, read it, and keep it.")
        case .outputWithoutScenario:
            return .init(.error, "'output' block has no scenario above it",
                         fix: "Put the `output` block after the `swift scenario` block it belongs to, in the same list item or quote when the scenario stands in one, or remove it.")
        case .outputRepeated:
            return .init(.error, "second 'output' block for the scenario at line 7; a scenario has exactly one",
                         fix: "Keep one `output` block per scenario (in a group, one after each block that prints).")
        case .outputMismatch:
            return .init(.error, "output of the scenario at line 7 differs from its 'output' block at line 17",
                         fix: "Read the diff printed under the finding. If the run is right, `coursebook check --update` rewrites the block; if the lesson is right, fix the code.")
        case .outputUnholdable:
            return .init(.error, "scenario printed U+0000 NULL on line 2 of its output, which an 'output' block cannot hold (a lesson is text); print it some other way, such as its escaped form",
                         fix: "Print the value in a visible form (`debugPrint`, an escaped string) instead of the raw character.")
        case .outputPatternTooCostly:
            return .init(.error, "the patterns of the 'output' block at line 12 take more than 1000000 steps to compare with what the scenario at line 5 printed; use fewer '...' lines or globs",
                         fix: "Use fewer `...` lines and `*` globs in the block, or print less.")
        case .compileError:
            return .init(.error, "the program of the group 'group=counter' does not compile (its first error is at line 19), so this block did not run",
                         fix: "Read the compiler's errors printed under the finding, at their lines in the lesson, and fix the code; a listing that must not compile takes an `errors` block.")
        case .coreCompileError:
            return .init(.error, "the core files do not compile; no scenario was run",
                         fix: "Fix the core files (`core` in `course.json`): every scenario is compiled with them.")
        case .scenarioCrashed:
            return .init(.error, "scenario crashed: signal 4 (SIGILL: a Swift trap)",
                         fix: "Fix the code, or, if the crash is what the listing teaches, add a `trap` block with the runtime's message.")
        case .scenarioTimeout:
            return .init(.error, "scenario ran longer than 10 s and was stopped (--timeout sets the limit)",
                         fix: "Make the scenario end sooner, or raise `--timeout`.")
        case .scenarioOutputCap:
            return .init(.error, "scenario printed more than 1 MiB and was stopped; its output is cut there",
                         fix: "Print less: a lesson cannot show more than a reader reads.")
        case .scenarioLimit:
            return .init(.error, "scenario used more than 512 MiB of memory and was stopped (--memory-limit raises the limit)",
                         fix: "Use less of the resource named, or raise the option the message names.")
        case .languageModeInvalid:
            return .init(.error, "'language-mode=7': the language mode is language-mode=5 or language-mode=6",
                         fix: "Write `language-mode=5` or `language-mode=6` (or `\"languageMode\"` `\"5\"` / `\"6\"` in `course.json`).")
        case .errorsWithoutScenario:
            return .init(.error, "'errors' block has no scenario above it",
                         fix: "Put the `errors` block right after the scenario that must not compile.")
        case .trapWithoutScenario:
            return .init(.error, "'trap' block has no scenario above it",
                         fix: "Put the `trap` block after the scenario (and its `output` block) that must crash.")
        case .errorsRepeated:
            return .init(.error, "second 'errors' block for the scenario at line 7; a scenario has at most one",
                         fix: "Merge the two blocks into one.")
        case .trapRepeated:
            return .init(.error, "second 'trap' block for the scenario at line 7; a scenario has at most one",
                         fix: "Keep one `trap` block: a program traps once.")
        case .expectationConflict:
            return .init(.error, "the scenario at line 7 has an 'errors' block: it must not compile, so it prints nothing; a scenario has an 'output' block or an 'errors' block, not both",
                         fix: "Keep the `errors` block for code that must not compile, or the `output` (and `trap`) blocks for code that runs.")
        case .errorsLineMalformed:
            return .init(.error, "an 'errors' line is 'LINE:COLUMN: error: MESSAGE' or 'LINE: error: MESSAGE' (LINE counted in the scenario)",
                         fix: "Write each expected error as the compiler prints it, with the line counted from the scenario's first line; `--update` writes them.")
        case .errorsLineOutside:
            return .init(.error, "the scenario has 4 lines, so it has no line 9 for an error to stand at",
                         fix: "Count the line from the scenario's first line, or let `--update` write the block.")
        case .errorsMismatch:
            return .init(.error, "the compiler's errors for the scenario at line 7 differ from its 'errors' block at line 14",
                         fix: "Read the diff; if the compiler is right, `coursebook check --update` rewrites the block.")
        case .errorsCompiled:
            return .init(.error, "the scenario at line 7 compiles, but its 'errors' block says it must not (plain 'swiftc' finds no error in it)",
                         fix: "Make the code wrong in the way the lesson teaches, or turn the block into a scenario with an `output` block.")
        case .errorsInCore:
            return .init(.error, "type-checking the scenario at line 7 meets an error in the core files; an 'errors' block lists errors in the scenario's own code, so the core must compile with it",
                         fix: "Change the scenario so that its error is in its own code (a name it declares clashing with the core's is an error in the core).")
        case .trapMalformed:
            return .init(.error, "a 'trap' block holds one line: the runtime's message as the program traps (none for a trap it says nothing of)",
                         fix: "Keep one line in the block: the message, as `--update` writes it.")
        case .trapMismatch:
            return .init(.error, "the scenario at line 7 trapped with another message than its 'trap' block at line 15 says",
                         fix: "Read both messages; `coursebook check --update` writes the one the runtime gave.")
        case .trapMissing:
            return .init(.error, "the scenario at line 7 ran to its end (exit status 0), but its 'trap' block at line 15 says it traps",
                         fix: "Make the program trap where the lesson says, or remove the `trap` block.")
        case .groupNameInvalid:
            return .init(.error, "'group=two words': a group's name is letters, digits, '-' and '_' (group=shop)",
                         fix: "Name the group with letters, digits, `-` and `_`.")
        case .groupExpectation:
            return .init(.error, "a 'trap' block may follow only the last block of the group 'group=shop' (line 40): it is about the whole program",
                         fix: "Move the `trap` block after the group's last block; write code that must not compile as a scenario of its own with an `errors` block.")
        case .groupPrintedAfterLast:
            return .init(.error, "the group 'group=shop' printed after its last 'output' block; add an 'output' block after this block (or run 'coursebook check --update')",
                         fix: "Add an `output` block after the block that printed, or let `--update` add it.")
        case .groupNotReached:
            return .init(.error, "block not run: the group's program stopped in its block at line 22",
                         fix: "Fix the block the program stopped in (its own finding says why); the blocks after it run again then.")
        case .moduleNameInvalid:
            return .init(.error, "'module=main': 'main' is the module every scenario is compiled as; a course module takes another name; the block is shown, not compiled",
                         fix: "Name the module with a Swift identifier that is not `main`, not a core file's name and not a module of the toolchain (`Foundation`, `Observation` ...).")
        case .moduleCompileError:
            return .init(.error, "module 'Counter': cannot convert value of type 'String' to expected argument type 'Int'",
                         fix: "Fix the module's code at the line named: every `swift module=NAME` block of the course is one module, compiled alone as a library.")
        case .moduleNotBuilt:
            return .init(.error, "not run: the scenario imports the module 'Counter', which does not compile (its errors are reported at its blocks)",
                         fix: "Fix the module's errors (reported at its blocks); the scenarios that import it run again then.")
        case .toolchainUnavailable:
            return .init(.error, "cannot find 'swiftc' on PATH: scenarios need the Swift toolchain (set COURSEBOOK_SWIFTC to choose a compiler)",
                         fix: "Install the Swift toolchain, or put its `bin` folder on `PATH`.")
        case .sandboxUnavailable:
            return .init(.error, "the sandbox is required (--sandbox required) and cannot start here: bubblewrap is not installed ('make' installs it: Debian package bubblewrap)",
                         fix: "Install bubblewrap (`apt-get install bubblewrap`) and allow user namespaces, or run without `--sandbox required`.")
        case .cacheUnusable:
            return .init(.error, "--cache-dir .cache/cb: this is a file; the cache needs a folder",
                         fix: "Give `--cache-dir` a folder of your own that coursebook can write.")
        case .coreListingDrift:
            return .init(.error, "core listing differs from Invalidation.swift (run 'coursebook check --update' to copy the file in)",
                         fix: "Run `coursebook check --update` to copy the core file into the listing.")
        case .coreListingAmbiguous:
            return .init(.error, "the course has 2 core files; name one: 'swift core=Invalidation.swift'",
                         fix: "Name the core file the listing shows: ` ```swift core=Name.swift `.")
        case .coreListingUnknown:
            return .init(.error, "a core listing, but the course has no core files ('core' in course.json)",
                         fix: "List the file under `core` in `course.json`, or make the block an illustration (` ```swift `).")
        case .illustrationSyntax:
            return .init(.warning, "illustration is not valid Swift: expected '}' to end function",
                         fix: "Fix the listing, or write it as another language (` ```text `) if it is not Swift.")
        case .swiftUnread:
            return .init(.warning, "coursebook did not read this Swift block: it is nested deeper than 256 levels; it is compiled as a program of its own",
                         fix: "Nothing is wrong with the result: the block is still compiled and run, alone. Simplify it to let it be batched.")
        case .diagramTreeUnwritten:
            return .init(.note, "no change diagrams for this scenario: its view tree is built in a loop; write its views and storage out as literals, or add 'no-diagram' to the block",
                         fix: "Write the tree's views and storage as literals, or add `no-diagram` to the block.")
        case .diagramTreeDisagrees:
            return .init(.error, "the output and the view tree disagree: output line 1 names 'Sidebar', which the tree does not have",
                         fix: "Make the scenario's tree and its output agree, or add `no-diagram` to the block.")
        case .noDiagramWithoutScenario:
            return .init(.warning, "'no-diagram' applies only to 'swift scenario' blocks",
                         fix: "Remove `no-diagram` from the block.")
        case .limitNoteGap:
            return .init(.error, "DR4 follows DR2: DR3 is missing",
                         fix: "Number limitation notes DR1, DR2 ... without gaps, in course order.")
        case .limitNoteOrder:
            return .init(.error, "DR3 comes after DR5; notes are numbered in course order",
                         fix: "Renumber the notes in the order they appear through the course.")
        case .limitNoteRepeated:
            return .init(.error, "DR2 repeats a number already used",
                         fix: "Give the note the next free number, or cite the first one instead of repeating it.")
        case .limitNoteUnknown:
            return .init(.warning, "DR12 is mentioned, but the course has no such limitation note",
                         fix: "Cite a note that exists, or write the note.")
        case .limitNoteFullStop:
            return .init(.warning, "paragraph starts with 'DR3' but is not a limitation note; write 'DR3. ...' to make it one",
                         fix: "Write `DR3.` followed by the note, or reword the paragraph's start.")
        case .limitNoteNumber:
            return .init(.error, "'DR99999999999999999999.' starts a limitation note whose number is too large to hold; notes are numbered DR1, DR2 ... through the course",
                         fix: "Give the note its number in course order.")
        case .sectionWithoutLimitNote:
            return .init(.warning, "section 'Turning a Page' holds a scenario but no limitation note; say what the measurement did not cover ('DRn. ...') or cite an earlier note ('DRn')",
                         fix: "Add a `DRn.` paragraph that says what the measurement left out, or cite an earlier note; a course that teaches rather than measures sets `\"limitNotes\": \"optional\"`.")
        case .updateFailed:
            return .init(.error, "cannot update: a tab stands before the fence of the block at line 17 inside a list or a quote; indent with spaces, or write the block by hand",
                         fix: "Write the block by hand where `--update` cannot, as the message says.")
        case .lessonChanged:
            return .init(.error, "the lesson changed while the check ran, so it was not updated; check it again (with --update) to update what it holds now",
                         fix: "Run the check again: nothing of the edit was lost.")
        case .languageWords:
            return .init(.warning, "no built-in words for language 'fi'; pages use English for the words the tool adds",
                         fix: "Nothing to fix for the lessons; the words coursebook adds to pages (\"Lesson\", \"Search\" ...) come in English for this language.")
        case .templateInvalid:
            return .init(.error, "lesson.html:12: unknown placeholder '{{lesson.titel}}'",
                         fix: "Fix the template at the line named; the manual's page on the site lists every name a template may use.")
        case .siteNotWritten:
            return .init(.error, "cannot write the site to _site: Permission denied",
                         fix: "Give `--out` a folder coursebook may write (and not one that holds files of another build).")
        case .searchTimedOut:
            return .init(.error, "cannot index the site for search: Pagefind took longer than 60 s and was stopped (COURSEBOOK_SEARCH_TIME_LIMIT)",
                         fix: "Raise `COURSEBOOK_SEARCH_TIME_LIMIT`, or build with `--no-search`; nothing was written.")
        case .checkFailed:
            return .init(.error, "the check failed, so the site was not built",
                         fix: "Fix what the check reported; `build` writes a site only for a course that passes.")
        case .reportNotWritten:
            return .init(.error, "cannot write the report out/result.json: it is a symbolic link (to ../result.json), and coursebook writes a report only as a file of its own; give the path of the file itself",
                         fix: "Give `--report` the path of a file (not a link), in a folder that can be written; the name ends in `.json` (coursebook's own) or `.xml` (JUnit).")
        case .reportUnreadable:
            return .init(.error, "shard-2.json: not a coursebook report",
                         fix: "Give `merge-reports` the JSON reports that `check --shard K/N --report` wrote, unchanged.")
        case .lessonNotCreated:
            return .init(.error, "cannot write the new lesson: mycourse/02-first-steps.md exists",
                         fix: "Choose another title, or remove the file.")
        case .previewUnavailable:
            return .init(.error, "cannot serve the preview on port 8000: Address already in use",
                         fix: "Stop what holds the port, or give `serve` another with `--port N`.")
        case .watchUnavailable:
            return .init(.error, "cannot watch mycourse: inotify watch limit reached",
                         fix: "Raise `fs.inotify.max_user_watches`, or watch a smaller folder.")
        case .checkCancelled:
            return .init(.note, "the check was cancelled: a newer edit is checked instead",
                         fix: "Nothing: the editor shows the newer check's findings.")
        }
    }
}
