/// A finding about a course, as data: what went wrong, where, and how bad it is.
/// One writer (`DiagnosticFormatter`) turns these into `file:line:column: error: ...` lines.
package struct Diagnostic: Error, Sendable, Equatable, Codable {
    package enum Severity: String, Sendable, Comparable, Codable {
        /// Informational: says what the tool left out and why; never fails a check, not even
        /// with `--strict`.
        case note
        case warning, error

        private var rank: Int { self == .note ? 0 : self == .warning ? 1 : 2 }

        package static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    /// A secondary place that explains the finding (`note:` lines).
    package struct Note: Sendable, Equatable, Codable {
        package var location: SourceLocation?
        package var message: String

        package init(_ message: String, at location: SourceLocation? = nil) {
            self.location = location
            self.message = message
        }
    }

    package var severity: Severity
    package var location: SourceLocation?
    /// The kind of finding, stable for tests and tools; people read `summary`.
    package var id: DiagnosticID
    package var summary: String
    package var notes: [Note]
    /// Lines printed under the finding as they are: a unified diff, a program's output.
    package var attachment: String?

    package init(_ severity: Severity, _ id: DiagnosticID, _ summary: String,
                 at location: SourceLocation?, notes: [Note] = [], attachment: String? = nil) {
        self.severity = severity
        self.location = location
        self.id = id
        self.summary = summary
        self.notes = notes
        self.attachment = attachment
    }

    package static func error(_ id: DiagnosticID, _ summary: String, at location: SourceLocation?,
                              notes: [Note] = [], attachment: String? = nil) -> Diagnostic {
        Diagnostic(.error, id, summary, at: location, notes: notes, attachment: attachment)
    }

    package static func warning(_ id: DiagnosticID, _ summary: String, at location: SourceLocation?,
                                notes: [Note] = [], attachment: String? = nil) -> Diagnostic {
        Diagnostic(.warning, id, summary, at: location, notes: notes, attachment: attachment)
    }

    package static func note(_ id: DiagnosticID, _ summary: String, at location: SourceLocation?,
                             notes: [Note] = [], attachment: String? = nil) -> Diagnostic {
        Diagnostic(.note, id, summary, at: location, notes: notes, attachment: attachment)
    }

    /// The same finding as an error: what `--strict` does to warnings.
    package var asError: Diagnostic {
        var copy = self
        copy.severity = .error
        return copy
    }
}

/// Every kind of finding coursebook reports, by its stable name (`output-mismatch` ...).
package enum DiagnosticID: String, Sendable, CaseIterable, Codable {
    // Reading the course.
    case courseUnreadable = "course-unreadable"
    case lessonWithoutTitle = "lesson-without-title"
    case rawHTML = "raw-html"
    case unknownAttribute = "unknown-attribute"
    case conflictingAttributes = "conflicting-attributes"
    case skipWithoutScenario = "skip-without-scenario"
    case nestedBlock = "nested-block"
    case footnoteUndefined = "footnote-undefined"
    case calloutUnknown = "callout-unknown"
    case linkTargetMissing = "link-target-missing"
    case linkTargetOutside = "link-target-outside"
    case linkTargetAmbiguous = "link-target-ambiguous"
    case linkSchemeUnknown = "link-scheme-unknown"
    case linkRootPath = "link-root-path"
    case linkTargetReserved = "link-target-reserved"
    case bidiControl = "bidi-control"
    // Scenarios and their outputs.
    case scenarioWithoutOutput = "scenario-without-output"
    case outputWithoutScenario = "output-without-scenario"
    case outputRepeated = "output-repeated"
    case outputMismatch = "output-mismatch"
    case outputUnholdable = "output-unholdable"
    case outputPatternTooCostly = "output-pattern-too-costly"
    case compileError = "compile-error"
    case coreCompileError = "core-compile-error"
    case scenarioCrashed = "scenario-crashed"
    case scenarioTimeout = "scenario-timeout"
    case scenarioOutputCap = "scenario-output-cap"
    case scenarioLimit = "scenario-limit"
    case languageModeInvalid = "language-mode-invalid"
    // Listings that must fail: `errors` and `trap` blocks.
    case errorsWithoutScenario = "errors-without-scenario"
    case trapWithoutScenario = "trap-without-scenario"
    case errorsRepeated = "errors-repeated"
    case trapRepeated = "trap-repeated"
    case expectationConflict = "expectation-conflict"
    case errorsLineMalformed = "errors-line-malformed"
    case errorsLineOutside = "errors-line-outside"
    case errorsMismatch = "errors-mismatch"
    case errorsCompiled = "errors-compiled"
    case errorsInCore = "errors-in-core"
    case trapMalformed = "trap-malformed"
    case trapMismatch = "trap-mismatch"
    case trapMissing = "trap-missing"
    // Programs told over several blocks: `group=NAME`.
    case groupNameInvalid = "group-name-invalid"
    case groupExpectation = "group-expectation"
    case groupPrintedAfterLast = "group-printed-after-last"
    case groupNotReached = "group-not-reached"
    // Modules of the course: `swift module=NAME`.
    case moduleNameInvalid = "module-name-invalid"
    case moduleCompileError = "module-compile-error"
    case moduleNotBuilt = "module-not-built"
    case toolchainUnavailable = "toolchain-unavailable"
    case sandboxUnavailable = "sandbox-unavailable"
    case cacheUnusable = "cache-unusable"
    // Core listings and illustrations.
    case coreListingDrift = "core-listing-drift"
    case coreListingAmbiguous = "core-listing-ambiguous"
    case coreListingUnknown = "core-listing-unknown"
    case illustrationSyntax = "illustration-syntax"
    case swiftUnread = "swift-unread"
    // Change diagrams.
    case diagramTreeUnwritten = "diagram-tree-unwritten"
    case diagramTreeDisagrees = "diagram-tree-disagrees"
    case noDiagramWithoutScenario = "no-diagram-without-scenario"
    // Limitation notes.
    case limitNoteGap = "limit-note-gap"
    case limitNoteOrder = "limit-note-order"
    case limitNoteRepeated = "limit-note-repeated"
    case limitNoteUnknown = "limit-note-unknown"
    case limitNoteFullStop = "limit-note-full-stop"
    case limitNoteNumber = "limit-note-number"
    case sectionWithoutLimitNote = "section-without-limit-note"
    // Updating lessons.
    case updateFailed = "update-failed"
    case lessonChanged = "lesson-changed"
    // Building the site.
    case languageWords = "language-words"
    case templateInvalid = "template-invalid"
    case siteNotWritten = "site-not-written"
    case searchTimedOut = "search-timed-out"
    case checkFailed = "check-failed"
    // Reports, the author's loop.
    case reportNotWritten = "report-not-written"
    case reportUnreadable = "report-unreadable"
    case lessonNotCreated = "lesson-not-created"
    case previewUnavailable = "preview-unavailable"
    case watchUnavailable = "watch-unavailable"
    // The editor (`coursebook lsp`).
    case checkCancelled = "check-cancelled"
}
