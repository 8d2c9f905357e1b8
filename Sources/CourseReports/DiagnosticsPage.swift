import CourseModel

/// The manual's page of every finding (`docs/diagnostics.md`), written from `DiagnosticID` and
/// its `reference`: the id, the severities it is reported at, a message as printed, the fix.
package enum DiagnosticsPage {
    package static func markdown() -> String {
        var page = """
        # Diagnostics

        Every finding coursebook prints has a stable id: the `id` of the JSON report, the
        `type` of a JUnit failure, the title of a GitHub annotation. A finding is an **error**
        (the command fails), a **warning** (it fails under `--strict`) or a **note** (it says what
        was left out and why, and never fails). This page is generated from the tool's own table
        of findings (`make docs-reference` writes it again); a test fails when the two differ.

        | id | severity |
        |---|---|

        """
        for id in DiagnosticID.allCases {
            page += "| [`\(id.rawValue)`](#\(id.rawValue)) | \(severities(id.reference)) |\n"
        }
        for id in DiagnosticID.allCases {
            let reference = id.reference
            page += """

            ## \(id.rawValue)

            \(severities(reference).prefix(1).uppercased() + severities(reference).dropFirst()).

            ```text
            \(reference.severities[0].rawValue): \(reference.example)
            ```

            \(reference.fix)

            """
        }
        return page
    }

    private static func severities(_ reference: DiagnosticReference) -> String {
        reference.severities.map(\.rawValue).joined(separator: " or ")
    }
}
