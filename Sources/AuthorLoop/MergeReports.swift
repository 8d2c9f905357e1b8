internal import CourseFiles
internal import CourseModel
package import CoursePipeline
package import CourseReports
import Foundation

/// `coursebook merge-reports`: the JSON reports of a check's shards made one.
package enum ShardReports {
    /// `coursebook merge-reports SHARD.json ...`: the shards' JSON reports read and joined
    /// into one verdict (`ReportMerge`), written to `--report` files when asked. A report that
    /// cannot be read, or reports that do not make one whole course, stop it (exit status 2).
    package static func merge(_ options: MergeReportsOptions) throws(PipelineError) -> ReportDocument {
        var documents: [(file: String, document: ReportDocument)] = []
        for file in options.inputs {
            guard let bytes = readFile(atPath: file) else {
                throw Self.unreadable(file, "cannot read the report")
            }
            do {
                documents.append((file, try ReportDocument.read(bytes)))
            } catch {
                throw Self.unreadable(file, error.reason)
            }
        }
        let merged: ReportDocument
        do {
            merged = try ReportMerge.merge(documents)
        } catch {
            throw Self.unreadable(error.file, error.reason)
        }
        try Pipeline.write(merged, to: options.reports, checked: nil)
        return merged
    }

    private static func unreadable(_ file: String?, _ reason: String) -> PipelineError {
        PipelineError(path: file, status: .courseUnreadable,
                      diagnostic: .error(.reportUnreadable, reason, at: file.map { SourceLocation(file: $0, line: 0) }))
    }
}
