import CourseModel

/// A report as JUnit XML (`--report junit.xml`), the format CI systems show as tests: one
/// `<testsuite>` per lesson and one `<testcase>` per scenario, named by the lesson and the
/// scenario's caption, its diff or crash in the `<failure>`. Findings that belong to no
/// scenario (a limitation note out of order, a broken link) are test cases of their file too,
/// one per file, failed when any of them is an error, so that the JUnit view never shows a
/// green course that the check failed.
package enum JUnitReport {
    package static func xml(_ document: ReportDocument) -> String {
        var suites: [(file: String, cases: [String], tests: Int, failures: Int, skipped: Int, time: Double)] = []
        func suite(_ file: String) -> Int {
            if let index = suites.firstIndex(where: { $0.file == file }) { return index }
            suites.append((file, [], 0, 0, 0, 0))
            return suites.count - 1
        }
        for file in document.files where document.scenarios.contains(where: { $0.file == file }) { _ = suite(file) }

        for scenario in document.scenarios {
            let index = suite(scenario.file)
            let lessonName = lessonName(scenario.file)
            let what = scenario.expectation == "errors" ? ", must not compile" : scenario.expectation == "trap" ? ", must trap" : ""
            let name = "\(lessonName): \(scenario.caption ?? "scenario") (line \(scenario.line)\(what))"
            let expected = expectationText(scenario)
            var body = ""
            switch scenario.status {
            case "failed":
                let first = scenario.findings.first
                let message = first?.message ?? "scenario failed"
                let details = scenario.findings.map(plainText).joined(separator: "\n")
                body = "<failure message=\"\(attribute(message))\" type=\"\(attribute(first?.id ?? "scenario-failed"))\">"
                    + text(expected.map { $0 + "\n" + details } ?? details) + "</failure>"
                suites[index].failures += 1
            case "skipped":
                body = "<skipped message=\"swift scenario skip: shown, not run\"/>"
                suites[index].skipped += 1
            default:
                if let expected { body = "<system-out>" + text(expected) + "</system-out>" }
            }
            suites[index].tests += 1
            suites[index].time += scenario.duration
            let open = "<testcase name=\"\(attribute(name))\" classname=\"\(attribute(scenario.file))\" file=\"\(attribute(scenario.file))\" line=\"\(scenario.line)\" time=\"\(seconds(scenario.duration))\""
            suites[index].cases.append(body.isEmpty ? open + "/>" : open + ">" + body + "</testcase>")
        }

        // Findings of no scenario, by file: one test case each, named for the file's rules.
        let own = Set(document.scenarios.flatMap { $0.findings })
        var byFile: [(file: String, findings: [ReportDocument.Finding])] = []
        for finding in document.diagnostics where !own.contains(finding) {
            let file = finding.file ?? document.course
            if let index = byFile.firstIndex(where: { $0.file == file }) {
                byFile[index].findings.append(finding)
            } else {
                byFile.append((file, [finding]))
            }
        }
        for (file, findings) in byFile {
            let index = suite(file)
            let errors = findings.filter { $0.severity == "error" }
            let details = findings.map(plainText).joined(separator: "\n")
            let open = "<testcase name=\"\(attribute(lessonName(file))): rules of the file\" classname=\"\(attribute(file))\" file=\"\(attribute(file))\" time=\"0.000\">"
            if let first = errors.first {
                suites[index].failures += 1
                suites[index].cases.append(open + "<failure message=\"\(attribute(first.message))\" type=\"\(attribute(first.id))\">"
                    + text(details) + "</failure></testcase>")
            } else {
                suites[index].cases.append(open + "<system-out>" + text(details) + "</system-out></testcase>")
            }
            suites[index].tests += 1
        }

        let tests = suites.reduce(0) { $0 + $1.tests }
        let failures = suites.reduce(0) { $0 + $1.failures }
        let time = suites.reduce(0.0) { $0 + $1.time }
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        // The root has no `skipped` in the format CI systems read; each suite counts its own.
        xml += "<testsuites name=\"\(attribute(document.title))\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"0\" time=\"\(seconds(time))\">\n"
        for (number, suite) in suites.enumerated() {
            xml += "  <testsuite name=\"\(attribute(suite.file))\" id=\"\(number)\" tests=\"\(suite.tests)\" failures=\"\(suite.failures)\" errors=\"0\" skipped=\"\(suite.skipped)\" time=\"\(seconds(suite.time))\">\n"
            for testCase in suite.cases { xml += "    " + testCase + "\n" }
            xml += "  </testsuite>\n"
        }
        xml += "</testsuites>\n"
        return xml
    }

    /// What a scenario that must not compile or must trap was expected to do, in words (nil for
    /// one that must print its output: its name says enough).
    static func expectationText(_ scenario: ReportDocument.ScenarioEntry) -> String? {
        func indented(_ text: String?) -> String {
            let lines = (text ?? "").split(separator: "\n", omittingEmptySubsequences: false)
            let kept = lines.last == "" ? lines.dropLast() : lines[...]
            return kept.isEmpty ? "    (nothing)" : kept.map { "    " + $0 }.joined(separator: "\n")
        }
        switch scenario.expectation {
        case "errors":
            return "expected: the compiler refuses it (plain swiftc) with these errors\n" + indented(scenario.expected)
        case "trap":
            return "expected: it prints\n" + indented(scenario.output?.expected) + "\nthen traps with\n" + indented(scenario.expected)
        default:
            return nil
        }
    }

    /// `01-counter` out of `lessons/01-counter.md`.
    static func lessonName(_ file: String) -> String {
        let name = file.split(separator: "/").last.map(String.init) ?? file
        return name.hasSuffix(".md") ? String(name.dropLast(3)) : name
    }

    /// A finding as `check` prints it, without colour.
    static func plainText(_ finding: ReportDocument.Finding) -> String {
        guard let diagnostic = finding.diagnostic else { return finding.message }
        return DiagnosticFormatter(colors: false).format(diagnostic)
    }

    static func seconds(_ value: Double) -> String {
        let milliseconds = Int((value * 1000).rounded())
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }

    /// Text inside an element: `&`, `<`, `>` as entities, and every character that XML 1.0
    /// cannot hold (its `Char` production leaves out the C0 controls but tab, line feed and
    /// carriage return, and U+FFFE and U+FFFF) shown as `<U+FFFE>`, written `&lt;U+FFFE&gt;`,
    /// as everywhere else a lesson's text is shown; the rest of what `escapingControls` shows
    /// so (a carriage return, C1 controls, bidirectional controls) likewise, so that a CI page
    /// that shows the text cannot be driven by it. The token is text, never markup: the
    /// document stays well-formed whatever a scenario printed.
    static func text(_ value: String) -> String {
        var shown = ""
        for scalar in escapingControls(value, keepingLines: true).unicodeScalars {
            switch scalar {
            case "&": shown += "&amp;"
            case "<": shown += "&lt;"
            case ">": shown += "&gt;"
            default:
                if isXMLCharacter(scalar) {
                    shown.unicodeScalars.append(scalar)
                } else {
                    shown += "&lt;" + codePointName(scalar) + "&gt;"
                }
            }
        }
        return shown
    }

    /// XML 1.0's `Char`: tab, line feed, carriage return, U+0020–U+D7FF, U+E000–U+FFFD and
    /// U+10000 on (a Swift string holds no surrogate).
    static func isXMLCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }

    /// Text inside an attribute: as `text`, with quotes, and line ends and tabs as character
    /// references (an attribute's own line ends would be read as spaces).
    static func attribute(_ value: String) -> String {
        text(value).replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "\n", with: "&#10;").replacingOccurrences(of: "\t", with: "&#9;")
    }
}
