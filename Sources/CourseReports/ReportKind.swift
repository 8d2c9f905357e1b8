/// The files `--report` writes, told apart by their names' endings.
package enum ReportKind: String, Sendable, Equatable {
    /// `result.json`: the `ReportDocument`, whose schema the README documents.
    case json
    /// `junit.xml`: JUnit XML, one test case per scenario.
    case junit

    /// The kind a file's name asks for, or nil (the name must end in `.json` or `.xml`).
    package init?(path: String) {
        let lower = path.lowercased()
        if lower.hasSuffix(".json") { self = .json } else if lower.hasSuffix(".xml") { self = .junit } else { return nil }
    }

    /// The file's bytes for a document.
    package func render(_ document: ReportDocument) -> [UInt8] {
        switch self {
        case .json: return document.json()
        case .junit: return Array(JUnitReport.xml(document).utf8)
        }
    }
}

/// A `--report FILE`: its path and the kind its name asks for. Made only from a name that asks
/// for one, where the command line is read, so nothing later has a suffix to refuse.
package struct ReportFile: Sendable, Equatable {
    package var path: String
    package var kind: ReportKind

    /// The report a file's name asks for, or nil (the name must end in `.json` or `.xml`).
    package init?(path: String) {
        guard let kind = ReportKind(path: path) else { return nil }
        self.path = path
        self.kind = kind
    }
}

/// How findings are printed: for people and editors (`path:line:column: error: ...` on
/// standard error), or as GitHub Actions annotations.
package enum DiagnosticStyle: String, Sendable, Equatable, CaseIterable {
    case text
    case github

    /// `--format` when given, else `github` inside GitHub Actions (`GITHUB_ACTIONS=true`).
    package static func resolve(_ given: DiagnosticStyle?, environment: [String: String]) -> DiagnosticStyle {
        given ?? (environment["GITHUB_ACTIONS"] == "true" ? .github : .text)
    }
}
