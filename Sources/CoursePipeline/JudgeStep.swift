import CourseChecking
internal import CourseFiles
internal import CourseModel
internal import CourseReports
internal import CourseSite
import Foundation
import LessonParsing

/// The judge step: every rule and every scenario's outcome judged into one report, made once
/// by a `CheckReportBuilder` (with `--update`, the lessons it rewrote are written first, so that
/// one that could not be written is judged failed in that same report); the report's files
/// written, whatever it says; a build stops here when the check failed, and otherwise gets
/// what its pages are made of.
extension Pipeline {
    func judge(_ context: inout PipelineContext) throws(PipelineError) {
        let course = context.loaded.course
        let ran = context.ran!
        var builder = CheckReportBuilder(strict: context.options.strict, scope: context.scope)
        CourseCheck.judge(course, findings: context.loaded.diagnostics + (context.sitePlan?.findings ?? []) + ran.readingFindings,
                          facts: ran.facts, outcomes: ran.outcomes, run: ran.run, update: context.update,
                          durations: ran.durations, into: &builder)
        builder.ran(ran.run, compilerVersion: ran.compilerVersion, compilerLanguageMode: ran.compilerLanguageMode)
        if context.update, context.writes {
            let (written, notWritten) = Self.write(builder.plannedRewrites)
            builder.wrote(written, notWritten: notWritten)
        }
        let checked = Checked(report: builder.report(of: course), cache: CacheUse(
            used: context.cacheFolder != nil, refusals: ran.cacheRefusals, problem: ran.cacheProblem))
        context.checked = checked
        if context.writes {
            try writeReports(checked, of: course, to: context.options.reports)
        }
        guard context.pipeline == .build else { return }
        guard checked.report.succeeded else {
            let out = context.out ?? ""
            throw PipelineError(path: out, status: .checkFailed,
                                diagnostic: .error(.checkFailed, "the check failed; \(out) was not written", at: nil),
                                checked: checked)
        }
        context.siteInput = siteInput(&context, checked: checked)
    }

    /// `--update`: the lessons the check rewrote, each written atomically and once. Each file is
    /// read again just before it is replaced: one that changed since the check read it (an
    /// author saved it meanwhile) is left as it is now, with a finding; so is one that cannot be
    /// written.
    static func write(_ rewrites: [LessonRewrite]) -> (written: [LessonRewrite], notWritten: [(lesson: Int, finding: Diagnostic)]) {
        var written: [LessonRewrite] = []
        var notWritten: [(lesson: Int, finding: Diagnostic)] = []
        for rewrite in rewrites {
            let lessonStart = rewrite.updates.first.map { SourceLocation(file: $0.location.file, line: 1) }
            do {
                guard readFile(atPath: rewrite.path) == rewrite.original else {
                    notWritten.append((rewrite.lessonIndex, .error(
                        .lessonChanged,
                        "the lesson changed while the check ran, so it was not updated; check it again (with --update) to update what it holds now",
                        at: lessonStart)))
                    continue
                }
                try writeAtomically(rewrite.bytes, to: rewrite.path)
                written.append(rewrite)
            } catch {
                notWritten.append((rewrite.lessonIndex, .error(.updateFailed, "cannot write the lesson: \(error)", at: lessonStart)))
            }
        }
        return (written, notWritten)
    }

    /// `--report FILE`: each file written whole, whatever the check found. A file that cannot
    /// be written stops the command (exit status 4), after the check's findings are shown.
    func writeReports(_ checked: Checked, of course: Course, to files: [ReportFile]) throws(PipelineError) {
        guard !files.isEmpty else { return }
        try Self.write(ReportDocument(course: course, report: checked.report), to: files, checked: checked)
    }

    /// What the pages are made of: the course (with the linked files the site carries), its
    /// documents and the facts of its Swift blocks (handed over: the context keeps neither, so
    /// that the pages can let each lesson's go once used), the report, the templates and words,
    /// and the drawings' store.
    func siteInput(_ context: inout PipelineContext, checked: Checked) -> SiteInput {
        let plan = context.sitePlan!
        var course = context.loaded.course
        course.linkedFiles = plan.linkedFiles
        let documents = context.loaded.documents, facts = context.ran!.facts
        context.loaded.documents = []
        context.ran = nil
        let counts = self.counts
        let drawer = DiagramDrawer(storeFolder: context.cacheFolder, toolVersion: ToolBuild.keyVersion(CoursebookVersion.current),
                                   onDraw: { counts.diagramsDrawn.add(1, ordering: .relaxed) })
        let diagrams = drawer.diagrams(of: checked.report, words: plan.words.diagram, lessons: course.lessons.count)
        context.drawings = diagrams
        return SiteInput(course: course, documents: documents, report: checked.report, facts: facts,
                         templates: plan.templates, words: plan.words, search: context.search, diagrams: diagrams)
    }
}
