/// A finding about a course, as data: what went wrong, where, and how bad it is.
/// One writer (`DiagnosticFormatter`) turns these into `file:line:column: error: ...` lines.
package struct Diagnostic: Error, Sendable, Equatable {
    package enum Severity: String, Sendable, Comparable {
        case warning, error

        package static func < (lhs: Severity, rhs: Severity) -> Bool {
            lhs == .warning && rhs == .error
        }
    }

    /// A secondary place that explains the finding (`note:` lines).
    package struct Note: Sendable, Equatable {
        package var location: SourceLocation?
        package var message: String

        package init(_ message: String, at location: SourceLocation? = nil) {
            self.location = location
            self.message = message
        }
    }

    package var severity: Severity
    package var location: SourceLocation?
    /// A stable name for the kind of finding (`output-mismatch`, `limit-note-gap` ...), for
    /// tests and tools; people read `summary`.
    package var id: String
    package var summary: String
    package var notes: [Note]
    /// Lines printed under the finding as they are: a unified diff, a program's output.
    package var attachment: String?

    package init(_ severity: Severity, _ id: String, _ summary: String,
                 at location: SourceLocation?, notes: [Note] = [], attachment: String? = nil) {
        self.severity = severity
        self.location = location
        self.id = id
        self.summary = summary
        self.notes = notes
        self.attachment = attachment
    }

    package static func error(_ id: String, _ summary: String, at location: SourceLocation?,
                              notes: [Note] = [], attachment: String? = nil) -> Diagnostic {
        Diagnostic(.error, id, summary, at: location, notes: notes, attachment: attachment)
    }

    package static func warning(_ id: String, _ summary: String, at location: SourceLocation?,
                                notes: [Note] = [], attachment: String? = nil) -> Diagnostic {
        Diagnostic(.warning, id, summary, at: location, notes: notes, attachment: attachment)
    }

    /// The same finding as an error: what `--strict` does to warnings.
    package var asError: Diagnostic {
        var copy = self
        copy.severity = .error
        return copy
    }
}
