import BackgroundWork
import CourseModel
@testable import CourseSite
import LessonParsing
import TestSupport
import Testing

/// How a page shows what DocC names: images by their variants, headings by the anchors that
/// `doc:` links from other lessons use.
struct DocCPageTests {
    typealias Variant = DocCImage.Variant

    @Test func aDoubleScaleImageAloneIsShownAtHalfItsPixels() {
        let image = DocCImage(variants: [Variant(path: "Assets/r@2x.png", scale: 2, isDark: false, pixelSize: PixelSize(width: 548, height: 122))])
        #expect(DocCPicture.html(image, alt: "A \"line\"") == "<img src=\"Assets/r@2x.png\" srcset=\"Assets/r@2x.png 2x\" width=\"274\" height=\"61\" alt=\"A &quot;line&quot;\">")
    }

    @Test func aDarkVariantIsThePicturesSourceForADarkScreen() {
        let image = DocCImage(variants: [
            Variant(path: "A/c~dark@2x.png", scale: 2, isDark: true),
            Variant(path: "A/c@2x.png", scale: 2, isDark: false, pixelSize: PixelSize(width: 600, height: 200)),
            Variant(path: "A/c.png", scale: 1, isDark: false, pixelSize: PixelSize(width: 300, height: 100)),
            Variant(path: "A/c~dark.png", scale: 1, isDark: true),
        ])
        #expect(DocCPicture.html(image, alt: "") == "<picture><source media=\"screen and (prefers-color-scheme: dark)\" srcset=\"A/c~dark.png 1x, A/c~dark@2x.png 2x\"><img src=\"A/c.png\" srcset=\"A/c.png 1x, A/c@2x.png 2x\" width=\"300\" height=\"100\" alt=\"\"></picture>")
        // A vector file alone: no size to give, no srcset to write.
        #expect(DocCPicture.html(DocCImage(variants: [Variant(path: "d.svg", scale: 1, isDark: false)]), alt: "d") == "<img src=\"d.svg\" alt=\"d\">")
        // Only a dark variant: shown everywhere.
        #expect(DocCPicture.html(DocCImage(variants: [Variant(path: "e~dark.png", scale: 1, isDark: true)]), alt: "") == "<img src=\"e~dark.png\" alt=\"\">")
        #expect(DocCPicture.href("My Assets/a,b@2x.png") == "My%20Assets/a%2Cb@2x.png")
    }

    @Test func headingAnchorsAreThePagesOwnAndKnownBeforeIt() throws {
        let text = "# T\n\n## Fn x\n\n## Notes\n\nA[^x].\n\n## Notes\n\n## Main\n\nDR1. A note.\n\n## DR1\n\n[^x]: Foot.\n"
        let (lesson, _) = TestSupport.lesson(text)
        let document = LessonMarkdown.parse(text, counts: WorkCounts())
        let anchors = AnchorNamer.headingAnchors(of: lesson, footnoteLabels: document.footnoteLabels)
        #expect(anchors == [nil, "fn-x-2", "notes", "notes-2", "main-2", "dr1-2"])
        // The page gives its headings exactly these.
        let body = LessonBody(lesson, document: document, context: LessonBody.Context(
            words: .english, swiftVersion: "6", results: [:], highlighted: { $0.code }, coreFileNames: [],
            coreShownBefore: [], noteHref: { "#dr\($0)" }, aboutNotesHref: "limitations.html#about-notes"))
        #expect(body.sections.map(\.anchor) == ["fn-x-2", "notes", "notes-2", "main-2", "dr1-2"])
    }

    @Test func everyCalloutKindHasATitleInBothLanguages() {
        for kind in CalloutKind.allCases {
            #expect(SiteWords.english.calloutTitles[kind]?.isEmpty == false, "\(kind)")
            #expect(SiteWords.turkish.calloutTitles[kind]?.isEmpty == false, "\(kind)")
        }
        #expect(SiteWords.english.calloutTitles[.nonMutatingVariant] == "Non-Mutating Variant")
        #expect(SiteWords.turkish.calloutTitles[.experiment] == "Deneyin")
    }
}
