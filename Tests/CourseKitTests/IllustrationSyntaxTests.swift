@testable import CourseKit
import Testing

struct IllustrationSyntaxTests {
    @Test func validSwiftUICodeParses() {
        let (read, _) = lesson("""
            # T

            ```swift
            import SwiftUI

            struct Counter: View {
                @State private var count = 0
                var body: some View {
                    Button("Artır") { count += 1 }
                        .environment(\\.colorScheme, .dark)
                }
            }
            ```

            """)
        #expect(IllustrationSyntax.check(read.codeBlocks[0], in: read).isEmpty)
    }

    @Test func aSyntaxErrorIsAWarningAtTheLessonLineAndColumn() {
        let (read, _) = lesson("# T\n\n  ```swift\n  let x = (1, \n  struct {}\n  ```\n")
        let found = IllustrationSyntax.check(read.codeBlocks[0], in: read)
        #expect(!found.isEmpty)
        #expect(found.allSatisfy { $0.severity == .warning && $0.id == "illustration-syntax" })
        #expect(found[0].location?.file == "lessons/01-test.md")
        #expect((4...5).contains(found[0].location?.line ?? 0))
        #expect((found[0].location?.column ?? 0) > 2)
    }
}
