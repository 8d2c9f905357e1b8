internal import CourseFiles
internal import CourseModel
package import CoursePipeline
internal import CourseReports
import Foundation
import LessonParsing
internal import PreviewServer

/// `coursebook serve`: `watch` with a site folder of its own, served on 127.0.0.1 by the
/// preview server. After every round the open pages reload: to the new site when the build
/// passed, to the check's findings when it did not. The site folder is temporary and removed
/// when the command stops; the script that reloads pages is added by the server as it sends
/// them, so the site on disk is the one `build` publishes.
package struct CoursePreview: Sendable {
    package var course: String
    package var shared: SharedOptions
    package var port: UInt16
    package var search: Bool

    package init(course: String, shared: SharedOptions, port: UInt16, search: Bool) {
        self.course = course
        self.shared = shared
        self.port = port
        self.search = search
    }

    /// Starts the server, says where (`listening` gets its address), then runs the watch's
    /// rounds; returns only when it cannot go on (see `CourseWatch.run`).
    package func run(listening: (String) -> Void, starting: (_ changed: [String]) -> Void = { _ in },
                     _ report: (CourseWatch.Round) -> Void) throws(PipelineError) -> Never {
        try CourseWatch.requireFolder(course)
        var template = Array((NSTemporaryDirectory() + "/coursebook-serve-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw PipelineError(path: NSTemporaryDirectory(), status: .siteNotWritten, diagnostic: .error(
                .siteNotWritten, "cannot make a folder for the preview: \(String(cString: strerror(errno)))", at: nil))
        }
        let scratch = URL(fileURLWithPath: String(cString: made)).standardizedFileURL.path
        // Removed when a signal stops the command, with everything in it.
        Interruption.hold(scratch)
        let site = scratch + "/site"
        let server: PreviewServer
        do {
            server = try PreviewServer(root: site, port: port, title: Self.title(of: course))
        } catch {
            try? FileManager.default.removeItem(atPath: scratch)
            throw PipelineError(path: nil, status: .watchOrServeUnavailable,
                                diagnostic: .error(.previewUnavailable, error.description, at: nil))
        }
        // A stop (Ctrl-C, the usual end) stops the server first: its threads end with it.
        let stopping = Interruption.whenStopped { server.stop() }
        listening("http://127.0.0.1:\(server.port)/")
        let watch = CourseWatch(course: course, shared: shared, out: site, search: search)
        do {
            try watch.run(starting: starting) { round in
                server.show(Self.content(of: round.outcome))
                report(round)
            }
        } catch {
            Interruption.forget(stopping)
            server.stop()
            try? FileManager.default.removeItem(atPath: scratch)
            throw error
        }
    }

    /// What the pages show after a round.
    static func content(of outcome: CourseWatch.Outcome) -> PreviewServer.Content {
        switch outcome {
        case .built:
            return .site
        case .checked(let checked):
            return checked.report.succeeded ? .site : .failure(title: "The check failed",
                                                               text: ReportText.plain(checked.report, cacheUsed: checked.cacheUsed))
        case .failed(let error):
            var text = error.checked.map { ReportText.plain($0.report, cacheUsed: $0.cacheUsed) } ?? ""
            // A failed check is all the page needs to say; that the preview's own folder was
            // not written would only name a temporary folder.
            if error.status != .checkFailed || error.checked == nil {
                text += DiagnosticFormatter(colors: false).format(error.diagnostic) + "\n"
            }
            let title: String
            switch error.status {
            case .checkFailed: title = "The check failed"
            case .courseUnreadable: title = "The course cannot be read"
            case .templateInvalid: title = "A template does not fit its page"
            default: title = "The site was not built"
            }
            return .failure(title: title, text: text)
        }
    }

    /// The course's title for the server's own pages, or the folder's name.
    static func title(of course: String) -> String {
        let folder = URL(fileURLWithPath: course).standardizedFileURL
        if let bytes = readFile(atPath: folder.path + "/course.json"),
           let config = try? CourseConfigReader.read(bytes, file: "course.json") {
            return config.title
        }
        return folder.lastPathComponent
    }
}
