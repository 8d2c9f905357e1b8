@testable import CourseChecking
import CourseModel
import TestSupport
import Testing

struct CoreListingRulesTests {
    let core = CoreFile(name: "Core.swift", path: "/x/Core.swift", displayPath: "Sources/Core.swift",
                        text: "struct A {}\nstruct B {}\n")

    @Test func aListingMatchesWithOrWithoutTheFinalNewline() {
        #expect(CoreListingRules.matches("struct A {}\nstruct B {}\n", core))
        #expect(CoreListingRules.matches("struct A {}\nstruct B {}", core))
        #expect(!CoreListingRules.matches("struct A {}\nstruct C {}\n", core))
        #expect(!CoreListingRules.matches("struct A {}\nstruct B {}\n\n", core))
    }

    @Test func driftPointsAtTheFirstDifferingLine() {
        let (read, _) = lesson("# T\n\n```swift core\nstruct A {}\nstruct C {}\n```\n")
        let found = CoreListingRules.drift(read.codeBlocks[0], in: read, file: core)
        #expect(found.location == SourceLocation(file: "lessons/01-test.md", line: 5))
        #expect(found.attachment == """
            --- listing (lessons/01-test.md:3)
            +++ Sources/Core.swift
            @@ -1,2 +1,2 @@
             struct A {}
            -struct C {}
            +struct B {}

            """)
    }

    @Test func namingTheCoreFile() throws {
        let other = CoreFile(name: "Other.swift", path: "/x/Other.swift", displayPath: "Other.swift", text: "")
        let (read, _) = lesson("# T\n\n```swift core\n```\n\n```swift core=Nope.swift\n```\n\n```swift core=Other.swift\n```\n")
        let blocks = read.codeBlocks
        #expect(try CoreListingRules.coreFile(for: blocks[0], in: read, coreFiles: [core]).get() == core)
        #expect(throws: Diagnostic.self) { try CoreListingRules.coreFile(for: blocks[0], in: read, coreFiles: [core, other]).get() }
        #expect(throws: Diagnostic.self) { try CoreListingRules.coreFile(for: blocks[1], in: read, coreFiles: [core, other]).get() }
        #expect(try CoreListingRules.coreFile(for: blocks[2], in: read, coreFiles: [core, other]).get() == other)
    }

    @Test func aCoreListingInACourseWithoutCore() {
        let (read, _) = lesson("# T\n\n```swift core\n```\n")
        let found = CoreListingRules.coreFile(for: read.codeBlocks[0], in: read, coreFiles: [])
        guard case .failure(let diagnostic) = found else { Issue.record("a core listing without core files passed"); return }
        #expect(diagnostic.summary == "a core listing, but the course has no core files ('core' in course.json)")
        #expect(diagnostic.location?.line == 3)
    }
}
