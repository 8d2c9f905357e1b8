import CourseModel

/// A `swift core` block must show its core file as it is (one final newline aside).
package enum CoreListingRules {
    /// The core file a listing shows, or a finding that says why there is none.
    package static func coreFile(for block: CodeBlock, in lesson: Lesson,
                                 coreFiles: [CoreFile]) -> Result<CoreFile, Diagnostic> {
        guard case let .coreListing(name) = block.role else {
            preconditionFailure("not a core listing")
        }
        let here = lesson.location(line: block.line)
        guard let name else {
            if coreFiles.count == 1 { return .success(coreFiles[0]) }
            if coreFiles.isEmpty {
                return .failure(.error(.coreListingUnknown, "a core listing, but the course has no core files ('core' in course.json)", at: here))
            }
            return .failure(.error(
                .coreListingAmbiguous,
                "the course has \(coreFiles.count) core files; name one: 'swift core=\(coreFiles.first?.name ?? "Name.swift")'",
                at: here))
        }
        if let file = coreFiles.first(where: { $0.name == name }) { return .success(file) }
        return .failure(.error(
            .coreListingUnknown,
            "no core file named '\(name)' (core files: \(coreFiles.map(\.name).joined(separator: ", ")))",
            at: here))
    }

    /// Whether a listing shows the file's text.
    package static func matches(_ listing: String, _ file: CoreFile) -> Bool {
        sameIgnoringFinalNewline(listing, normalizingLineEnds(file.text))
    }

    /// The finding for a listing that differs from its file: at the first line that differs,
    /// with a diff from the listing to the file.
    package static func drift(_ block: CodeBlock, in lesson: Lesson, file: CoreFile) -> Diagnostic {
        let listing = LineDiff.lines(block.code)
        let actual = LineDiff.lines(normalizingLineEnds(file.text))
        let first = LineDiff.firstDifference(listing, actual)
        return .error(
            .coreListingDrift,
            "core listing differs from \(file.displayPath) (run 'coursebook check --update' to copy the file in)",
            at: lesson.location(line: block.firstCodeLine + first),
            attachment: LineDiff.unified(from: block.code, to: normalizingLineEnds(file.text),
                                         oldLabel: "listing (\(lesson.path):\(block.line))",
                                         newLabel: file.displayPath))
    }
}
