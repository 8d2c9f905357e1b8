@testable import CourseChecking
import CourseModel
import TestSupport
import Testing

struct LimitNoteRulesTests {
    @Test func numberedThroughTheCourseInOrder() {
        let (read, _) = course(["# A\n\nDR1. a\n\nDR2. b\n", "# B\n\nDR3. c\n"])
        #expect(LimitNoteRules.check(read.lessons).isEmpty)
    }

    @Test func gapRepeatAndOrder() {
        let (read, _) = course([
            "# A\n\nDR1. a\n\nDR3. gap\n",
            "# B\n\nDR3. repeat\n\nDR2. late\n\nDR6. two missing\n",
        ])
        let found = LimitNoteRules.check(read.lessons)
        #expect(found.ids == ["limit-note-gap", "limit-note-repeated", "limit-note-order", "limit-note-gap"])
        #expect(found.map(\.summary) == [
            "DR3 follows DR1: DR2 is missing",
            "DR3 repeats a number already used",
            "DR2 comes after DR3; notes are numbered in course order",
            "DR6 follows DR3: DR4 to DR5 are missing",
        ])
        #expect(found.map { $0.location?.description } == [
            "lessons/01-lesson.md:5:1", "lessons/02-lesson.md:3:1", "lessons/02-lesson.md:5:1",
            "lessons/02-lesson.md:7:1",
        ])
        #expect(found[1].notes == [.init("DR3 is first here", at: SourceLocation(file: "lessons/01-lesson.md", line: 5))])
    }

    @Test func theFirstNoteIsDR1() {
        let (read, _) = course(["# A\n\nDR2. a\n"])
        #expect(LimitNoteRules.check(read.lessons).map(\.summary)
                == ["DR2 is the course's first limitation note, but numbering starts at DR1"])
    }

    @Test func aMeasuredSectionStatesALimit() {
        let (read, _) = course(["""
            # A

            ## Measured without a note

            ```swift scenario
            print(1)
            ```

            ## Measured with a note

            ```swift scenario
            print(1)
            ```

            DR1. a

            ## Skipped only

            ```swift scenario skip
            print(1)
            ```

            """])
        let found = LimitNoteRules.check(read.lessons)
        #expect(found.ids == ["section-without-limit-note"])
        #expect(found[0].severity == .warning)
        #expect(found[0].location?.line == 3)
        #expect(LimitNoteRules.check(read.lessons, policy: .optional).isEmpty)
    }

    @Test func optionalNotesAreStillNumberedAndNamed() {
        let (read, _) = course(["# A\n\n## S\n\n```swift scenario\nprint(1)\n```\n\nDR2. a\n\nSee DR7.\n"])
        #expect(LimitNoteRules.check(read.lessons, policy: .optional).ids
                == ["limit-note-gap", "limit-note-unknown"])
    }

    @Test func mentionsNameRealNotes() {
        let (read, _) = course(["# A\n\nDR1. a\n\nSee DR1 and DR9.\n"])
        let found = LimitNoteRules.check(read.lessons)
        #expect(found.map(\.summary) == ["DR9 is mentioned, but the course has no such limitation note"])
    }
}
