@testable import AuthorLoop
import CoursePipeline
import CourseModel
import Foundation
import TestSupport
import Testing

struct WatchPlanTests {
    let plan = WatchPlan(course: "/w/course", courseDisplay: "course",
                         coreFiles: ["/w/Sources/Core.swift": "Sources/Core.swift"],
                         templates: "/w/course/templates", out: "/w/course/_site")

    @Test(arguments: [
        ("/w/course/01-a.md", true),
        ("/w/course/course.json", true),
        ("/w/course/images/plan.png", true),
        ("/w/course", true),
        ("/w/course/templates/layout.html", true),
        ("/w/Sources/Core.swift", true),
        ("/w/Sources/Other.swift", false),
        ("/w/course/.coursebook-cache/ab", false),
        ("/w/course/.01-a.md.swp", false),
        ("/w/course/01-a.md~", false),
        ("/w/course/#01-a.md#", false),
        ("/w/course/4913", false),
        ("/w/course/_site/index.html", false),
        ("/w/course/_site", false),
        ("/w/course-old/01-a.md", false),
        ("/elsewhere/01-a.md", false),
    ])
    func whatCallsForARun(path: String, relevant: Bool) {
        #expect(plan.isRelevant(path) == relevant)
    }

    @Test func changesAreShownAsTheUserNamedThem() {
        #expect(plan.display("/w/course/01-a.md") == "course/01-a.md")
        #expect(plan.display("/w/course") == "course")
        #expect(plan.display("/w/Sources/Core.swift") == "Sources/Core.swift")
        #expect(WatchPlan(course: "/w/course", courseDisplay: ".").display("/w/course/01-a.md") == "01-a.md")
    }

    /// The folders to watch come from course.json: the course and its subfolders (not hidden
    /// ones, not the site), the core's folder, the templates; a course.json that cannot be read
    /// keeps the last core and templates.
    @Test func foldersComeFromTheCourse() throws {
        let root = temporaryFolder("watch-plan")
        defer { try? FileManager.default.removeItem(at: root) }
        let resolved = try #require(realpath(root.path, nil))
        defer { free(resolved) }
        let real = String(cString: resolved)
        let course = real + "/course"
        for folder in ["course/images/small", "course/.coursebook-cache", "course/_site/assets", "course/my-templates", "Sources"] {
            try FileManager.default.createDirectory(atPath: real + "/" + folder, withIntermediateDirectories: true)
        }
        try #"{ "title": "T", "language": "en", "core": ["../Sources/Core.swift"], "templates": "my-templates" }"#
            .write(toFile: course + "/course.json", atomically: true, encoding: .utf8)
        try "struct Core {}\n".write(toFile: real + "/Sources/Core.swift", atomically: true, encoding: .utf8)
        let plan = WatchPlan.read(folder: course, out: course + "/_site", previous: nil)
        #expect(plan.coreFiles == [real + "/Sources/Core.swift": course + "/../Sources/Core.swift"].mapValues { _ in displayPath(course, "../Sources/Core.swift") })
        #expect(plan.templates == course + "/my-templates")
        #expect(plan.folders() == [course, course + "/images", course + "/images/small", course + "/my-templates", real + "/Sources"])

        try "{".write(toFile: course + "/course.json", atomically: true, encoding: .utf8)
        let broken = WatchPlan.read(folder: course, out: nil, previous: plan)
        #expect(broken.coreFiles == plan.coreFiles && broken.templates == plan.templates)
    }
}

struct LessonSkeletonTests {
    @Test func theNextNumberAndAName() {
        #expect(LessonSkeleton.fileName(after: [], title: "Görünüm Kimliği", language: "tr").name == "01-gorunum-kimligi.md")
        #expect(LessonSkeleton.fileName(after: ["01-a.md", "09-b.md", "03-c.md"], title: "Next", language: "en").name == "10-next.md")
        #expect(LessonSkeleton.fileName(after: ["001-a.md", "002-b.md"], title: "Three", language: "en").name == "003-three.md")
        #expect(LessonSkeleton.fileName(after: ["99-z.md"], title: "Hundred", language: "en").name == "100-hundred.md")
        #expect(LessonSkeleton.fileName(after: [], title: "観察", language: "ja").name == "01-lesson.md")
        #expect(LessonSkeleton.fileName(after: [], title: "観察", language: "tr").name == "01-ders.md")
        #expect(LessonSkeleton.fileName(after: [], title: "Next", language: "en").shortened == false)
    }

    /// A title longer than a file name may be: the name keeps whole words and fits in 255
    /// bytes; one word longer than that is cut inside.
    @Test func aLongTitleGivesTheFirstWordsThatFit() {
        let words = (1...60).map { "word\($0)" }.joined(separator: " ")
        let (name, shortened) = LessonSkeleton.fileName(after: ["08-a.md"], title: words, language: "en")
        #expect(shortened)
        #expect(name.utf8.count <= 255 && name.utf8.count > 240, "\(name.utf8.count)")
        #expect(name.hasPrefix("09-word1-word2-") && name.hasSuffix(".md"))
        let slug = name.dropFirst(3).dropLast(3)
        #expect(slug.split(separator: "-").allSatisfy { words.split(separator: " ").contains($0) }, "\(slug)")
        let long = LessonSkeleton.fileName(after: [], title: String(repeating: "a", count: 400), language: "en")
        #expect(long.name == "01-" + String(repeating: "a", count: 249) + ".md" && long.shortened)
        #expect(LessonSkeleton.shortenedSlug("ab-cd-ef", toBytes: 5) == "ab-cd")
        #expect(LessonSkeleton.shortenedSlug("ab-cd-ef", toBytes: 4) == "ab")
        #expect(LessonSkeleton.shortenedSlug("ab-cd-ef", toBytes: 8) == "ab-cd-ef")
    }

    /// The skeleton parses as a lesson with a title, one measured section, a scenario with an
    /// empty output block, and its note.
    @Test func theSkeletonIsALesson() {
        let text = LessonSkeleton.text(title: #"Say "\n""#, language: "en", limitNote: 12)
        let (lesson, findings) = TestSupport.lesson(text, path: "c/05-say-n.md")
        #expect(findings.isEmpty)
        #expect(lesson.title == #"Say "\n""#)
        #expect(lesson.scenarios.count == 1)
        #expect(lesson.scenarios.first?.code == #"""
            // main.swift — what this measurement shows
            print("Say \"\\n\"")

            """#)
        #expect(lesson.scenarios.first?.expected?.code == "")
        #expect(lesson.notes.map(\.number) == [12])
        #expect(lesson.sections.map(\.heading.text) == ["Measurement"])
        #expect(LessonSkeleton.text(title: "Ölçüm", language: "tr-TR", limitNote: 1).contains("\nDR1. Bu ölçümün neyi ölçmediğini"))
    }
}

struct PreviewContentTests {
    /// A failed check's page holds its findings and tally, not the preview's folder; a course
    /// that cannot be read says why.
    @Test func whatThePageShows() {
        let report = CheckReport(diagnostics: [.error(.outputMismatch, "differs", at: SourceLocation(file: "c/01-a.md", line: 3, column: 1))],
                                 results: [], rewrites: [], compiledCount: 1, cachedCount: 2, compilerRuns: 1, compilerVersion: "Swift")
        let checked = Pipeline.Checked(report: report, cacheUsed: true)
        let failed = PipelineError(path: "/tmp/x/site", status: .checkFailed,
                                   diagnostic: .error(.checkFailed, "the check failed; /tmp/x/site was not written", at: nil), checked: checked)
        #expect(CoursePreview.content(of: .failed(failed)) == .failure(title: "The check failed", text: """
            c/01-a.md:3:1: error: differs

            compiled 1 scenario (1 swiftc run), 2 from the cache
            1 error, 0 warnings
            0 passed, 0 failed

            """))
        let unreadable = PipelineError(path: "c/course.json", status: .courseUnreadable,
                                       diagnostic: .error(.courseUnreadable, "invalid JSON", at: SourceLocation(file: "c/course.json", line: 1, column: 2)))
        #expect(CoursePreview.content(of: .failed(unreadable)) == .failure(title: "The course cannot be read",
                                                                         text: "c/course.json:1:2: error: invalid JSON\n"))
    }
}

/// `new lesson` with no title is wrong usage, not a lesson named after nothing, and nothing
/// is written.
struct NewLessonUsageTests {
    @Test func aLessonWithNoTitleIsUsage() throws {
        #expect(NewLessonOptions().title == nil)
        let root = temporaryFolder("new-lesson-no-title")
        defer { try? FileManager.default.removeItem(at: root) }
        var lesson = NewLessonOptions()
        lesson.course = root.appendingPathComponent("no-course").path
        #expect {
            try NewLesson.write(lesson)
        } throws: { error in
            (error as? PipelineError)?.status == .usage
                && (error as? PipelineError)?.diagnostic.summary == "the lesson's title is missing: 'coursebook new lesson TITLE [COURSE_DIR]'"
        }
        #expect(!FileManager.default.fileExists(atPath: lesson.course))
    }
}
