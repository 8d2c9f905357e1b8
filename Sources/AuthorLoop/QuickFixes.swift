package import CourseModel
import CourseChecking

/// The quick fixes of a checked lesson: for a scenario whose `output`, `errors` or `trap`
/// block says something else than the run gave, "accept the output this run printed" (the
/// errors the compiler gave, the trap this run ended with); for one without an `output` block,
/// "insert the missing output block". Each is the edit `check --update` would make for those
/// blocks, byte for byte (the same plan, `CourseCheck.updateEdits`, spliced by the same
/// `BlockRewrite`), sent as a `WorkspaceEdit` for the editor to apply: the server never
/// writes the file behind the editor's back.
package enum QuickFixes {
    /// The findings a fix answers.
    static let answered: Set<String> = [
        DiagnosticID.outputMismatch, .scenarioWithoutOutput, .errorsMismatch, .errorsLineMalformed, .errorsLineOutside,
        .trapMismatch, .trapMalformed,
    ].reduce(into: []) { $0.insert($1.rawValue) }

    /// The code actions for the lines of `range`. `diagnostics` are those the client sent
    /// along; the ones a fix answers are named in it.
    package static func actions(for range: TextRange, in checked: CheckedLesson, uri: String, encoding: PositionEncoding,
                                documentChanges: Bool, diagnostics: [JSONValue]) -> [JSONValue] {
        let lesson = checked.lesson
        let positions = TextPositions(lesson.source, encoding: encoding)
        var actions: [JSONValue] = []
        for scenario in lesson.scenarios where !scenario.isSkipped {
            let lastLine = CheckedLesson.lastLine(of: scenario.expectation.blocks.last ?? scenario.block)
            let lines = TextRange(positions.start(ofLine: scenario.line), positions.end(ofLine: lastLine))
            guard lines.overlapsLines(range),
                  let outcome = checked.results[scenario.block.id]?.outcome else { continue }
            let edits = CourseCheck.updateEdits(for: scenario, outcome: outcome, in: lesson)
            guard !edits.isEmpty, let (bytes, _) = try? BlockRewrite.apply(edits, to: lesson.source) else { continue }
            let textEdit = self.textEdit(from: lesson.source, to: bytes, positions: positions)
            let workspaceEdit: JSONValue = documentChanges
                ? ["documentChanges": [["textDocument": ["uri": .string(uri), "version": checked.version.map(JSONValue.int) ?? .null],
                                        "edits": [textEdit]]]]
                : ["changes": .object([uri: [textEdit]])]
            let fixed = diagnostics.filter { diagnostic in
                guard let code = diagnostic["code"]?.string, answered.contains(code),
                      let place = TextRange(diagnostic["range"]) else { return false }
                return place.overlapsLines(lines)
            }
            var action: [String: JSONValue] = ["title": .string(title(of: edits)), "kind": "quickfix", "isPreferred": true,
                                               "edit": workspaceEdit]
            if !fixed.isEmpty { action["diagnostics"] = .array(fixed) }
            actions.append(.object(action))
        }
        return actions
    }

    /// What accepting `edits` does, in the words of the blocks it writes.
    static func title(of edits: [BlockRewrite.Edit]) -> String {
        var roles: [CodeBlockRole] = []
        var inserts = false
        for edit in edits {
            switch edit.kind {
            case .replaceCode(let block): roles.append(block.role)
            case .insertOutput: inserts = true
            }
        }
        if inserts { return roles.contains(.trap) ? "Insert the missing output block and accept the trap this run gave"
                                                  : "Insert the missing output block" }
        switch (roles.contains(.output), roles.contains(.errors), roles.contains(.trap)) {
        case (_, true, _): return "Accept the errors the compiler gave"
        case (true, _, true): return "Accept the output and the trap this run gave"
        case (false, _, true): return "Accept the trap this run gave"
        default: return "Accept the output this run printed"
        }
    }

    /// One text edit that turns the file into `new`: the whole lines between what the two
    /// share at their start and at their end. Cut at line starts, it is the same edit in
    /// every position encoding.
    package static func textEdit(from old: SourceText, to new: [UInt8], positions: TextPositions) -> JSONValue {
        let oldBytes = old.bytes
        var prefix = 0
        while prefix < oldBytes.count, prefix < new.count, oldBytes[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < oldBytes.count - prefix, suffix < new.count - prefix,
              oldBytes[oldBytes.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
        // Back to the start of the line the change begins in, on to the start of the line
        // after the one it ends in.
        let startLine = old.lines.lastIndex { $0.content.lowerBound <= prefix }
        let start = startLine.map { old.lines[$0].content.lowerBound } ?? 0
        var oldEnd = oldBytes.count - suffix
        if let line = old.lines.first(where: { $0.whole.upperBound >= oldEnd && $0.content.lowerBound < oldEnd }) {
            oldEnd = line.whole.upperBound
        }
        let newEnd = new.count - (oldBytes.count - oldEnd)
        let text = String(decoding: new[start..<max(start, newEnd)], as: UTF8.self)
        return ["range": TextRange(positions.position(ofOffset: start), positions.position(ofOffset: oldEnd)).json,
                "newText": .string(text)]
    }
}
