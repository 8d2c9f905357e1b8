import CourseModel
import Testing

/// DocC's names of lessons, headings and images, as a course of lesson files answers them.
struct DocCNamesTests {
    func lesson(_ fileName: String, headings: [String]) -> Lesson {
        Lesson(fileName: fileName, path: "C/\(fileName)", source: SourceText(""), title: headings.first,
               headings: headings.enumerated().map { Heading(level: $0.offset == 0 ? 1 : 2, text: $0.element, line: $0.offset + 1) },
               codeBlocks: [], scenarios: [], notes: [], mentions: [], introduction: nil)
    }

    @Test func namesMeetByTheirLettersAndDigits() {
        #expect(DocName.key("ClassesAndStructures") == DocName.key("classes-and-structures"))
        #expect(DocName.key("Type-Safety-and-Type-Inference") == DocName.key("Type Safety and Type Inference"))
        #expect(DocName.key("Sınırlayıcı Ölçüm") == "sinirlayiciolcum")
        #expect(DocName.key("型推論") == "型推論")
        #expect(DocName.key("UTF-8") == "utf8")
        // ASCII is taken as it is, the rest folded: both in one heading, as slugs and keys.
        #expect(foldedSlug("Defining a Class: `init()` & Co. 2") == "defining-a-class-init-co-2")
        #expect(foldedSlug("Crème Brûlée, ÉTÉ 1999 — Ñandú") == "creme-brulee-ete-1999-nandu")
        #expect(DocName.key("Crème-Brûlée") == "cremebrulee")
        #expect(DocName.lessonName(ofFile: "09-classes-and-structures.md") == "classes-and-structures")
        #expect(DocName.lessonName(ofFile: "1-a.md") == "a")
        // DocC's anchor: words joined by `-`, punctuation and backticks dropped, case kept.
        #expect(DocName.anchor(ofHeading: "Defining a Class") == "Defining-a-Class")
        #expect(DocName.anchor(ofHeading: "Strings — and `Characters`!") == "Strings-and-Characters")
    }

    @Test func aDocLinkGoesToTheLessonAndHeadingItNames() {
        let lessons = [
            lesson("01-the-basics.md", headings: ["The Basics", "Constants and Variables", "Optionals", "Optional Binding"]),
            lesson("02-classes-and-structures.md", headings: ["Structures and Classes", "Definition Syntax"]),
        ]
        let links = DocLinks(lessons)
        #expect(links.resolve(name: "ClassesAndStructures", fragment: nil, from: 0) == .lesson(1))
        #expect(links.resolve(name: "TheBasics", fragment: "Optional-Binding", from: 1) == .heading(lesson: 0, heading: 3))
        #expect(links.resolve(name: "thebasics", fragment: "optionalbinding", from: 1) == .heading(lesson: 0, heading: 3))
        // The title counts as a heading; an empty name is the lesson itself.
        #expect(links.resolve(name: "TheBasics", fragment: "The-Basics", from: 1) == .heading(lesson: 0, heading: 0))
        #expect(links.resolve(name: "", fragment: "Definition-Syntax", from: 1) == .heading(lesson: 1, heading: 1))
        #expect(links.resolve(name: "TheBasics", fragment: "", from: 1) == .lesson(0))
        #expect(links.resolve(name: "SummaryOfTheGrammar", fragment: nil, from: 0) == .noLesson)
        #expect(links.resolve(name: "", fragment: nil, from: 0) == .noLesson)
        #expect(links.resolve(name: "TheBasics", fragment: "Integers", from: 1) == .noHeading(lesson: 0))
        #expect(links.resolve(name: "TheBasics", fragment: "---", from: 1) == .noHeading(lesson: 0))
    }

    @Test func twoLessonsOfOneNameGoToTheFirst() {
        let links = DocLinks([lesson("01-a-b.md", headings: ["A"]), lesson("02-ab.md", headings: ["B"])])
        #expect(links.lessons(named: "AB") == [0, 1])
        #expect(links.resolve(name: "AB", fragment: nil, from: 0) == .lesson(0))
    }

    @Test func imageFileNamesAsDocCReadsThem() {
        #expect(DocCImage.parse(fileName: "chart.png")! == ("chart", false, 1))
        #expect(DocCImage.parse(fileName: "chart@2x.png")! == ("chart", false, 2))
        #expect(DocCImage.parse(fileName: "chart~dark@3x.JPG")! == ("chart", true, 3))
        #expect(DocCImage.parse(fileName: "chart~dark.svg")! == ("chart", true, 1))
        // The marks in another order are part of the name, as for DocC.
        #expect(DocCImage.parse(fileName: "chart@2x~dark.png")! == ("chart@2x", true, 1))
        #expect(DocCImage.parse(fileName: "chart@4x.gif")! == ("chart@4x", false, 1))
        #expect(DocCImage.parse(fileName: "~dark.png")! == ("~dark", false, 1))
        #expect(DocCImage.parse(fileName: "notes.txt") == nil)
        #expect(DocCImage.parse(fileName: ".png") == nil)
        #expect(DocCImage.isName("remainderInteger"))
        #expect(!DocCImage.isName("remainderInteger.png"))
        #expect(!DocCImage.isName("Assets/remainderInteger"))
        // Light before dark, each by scale.
        let image = DocCImage(variants: [.init(path: "b~dark.png", scale: 1, isDark: true), .init(path: "b@2x.png", scale: 2, isDark: false),
                                         .init(path: "b.png", scale: 1, isDark: false)])
        #expect(image.variants.map(\.path) == ["b.png", "b@2x.png", "b~dark.png"])
    }

    @Test func pixelSizesFromTheHeaders() {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
                            0, 0, 0x02, 0x24, 0, 0, 0, 0x7A, 8, 2, 0, 0, 0]
        #expect(PixelSize.of(png) == PixelSize(width: 548, height: 122))
        #expect(PixelSize.of(Array("GIF89a".utf8) + [0x10, 0x01, 0x20, 0x00]) == PixelSize(width: 272, height: 32))
        // A JPEG: its metadata segment, then the frame header (height 300, width 400).
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0x4A, 0x46, 0xFF, 0xC4, 0x00, 0x02,
                             0xFF, 0xC0, 0x00, 0x11, 0x08, 0x01, 0x2C, 0x01, 0x90, 0x03]
        #expect(PixelSize.of(jpeg) == PixelSize(width: 400, height: 300))
        #expect(PixelSize.of(Array("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8)) == nil)
        #expect(PixelSize.of(Array(png.prefix(20))) == nil)
        #expect(PixelSize.of([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x00, 0, 0, 0, 0]) == nil)
    }
}
