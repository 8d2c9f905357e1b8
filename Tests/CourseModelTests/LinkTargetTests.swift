import CourseModel
import Testing

struct LinkTargetTests {
    @Test(arguments: [
        ("https://swift.org", false, LinkTarget.web),
        ("HTTP://example.com", false, .web),
        ("mailto:a@b.c", false, .web),
        ("//cdn.example.com/x.png", true, .web),
        ("data:image/png;base64,AAAA", true, .web),
        ("data:image/png;base64,AAAA", false, .unknownScheme("data")),
        ("data:text/html,x", true, .unknownScheme("data")),
        ("doc:Intro", false, .doc(name: "Intro", fragment: nil)),
        ("doc:Attributes#Declaration-Attributes", false, .doc(name: "Attributes", fragment: "Declaration-Attributes")),
        ("doc:TSPL/The%20Basics#Type%20Safety", false, .doc(name: "The Basics", fragment: "Type Safety")),
        ("doc://org.swift.tspl/documentation/TSPL/Closures", false, .doc(name: "Closures", fragment: nil)),
        ("doc:#Arrays", false, .doc(name: "", fragment: "Arrays")),
        ("DOC:Intro", false, .doc(name: "Intro", fragment: nil)),
        ("doc:Intro", true, .unknownScheme("doc")),
        ("JavaScript:alert(1)", false, .unknownScheme("javascript")),
        ("#dr3", false, .fragment),
        ("", false, .fragment),
        ("/images/a.png", true, .rootPath),
        ("02-b.md#ortam", false, .relative(path: "02-b.md", fragment: "ortam")),
        ("img/my%20plan.png?v=2", true, .relative(path: "img/my plan.png", fragment: nil)),
        ("a:b/c.png", true, .unknownScheme("a")),
        ("./1x:y.png", true, .relative(path: "./1x:y.png", fragment: nil)),
    ])
    func whereALinkGoes(destination: String, isImage: Bool, target: LinkTarget) {
        #expect(LinkTarget(destination, isImage: isImage) == target)
    }

    @Test func pathsInsideTheCourse() {
        #expect(LinkTarget.coursePath("./images/../02-a.md") == "02-a.md")
        #expect(LinkTarget.coursePath("img//a.png") == "img/a.png")
        #expect(LinkTarget.coursePath("../x.md") == nil)
        #expect(LinkTarget.coursePath("a/../../x.md") == nil)
        #expect(LinkTarget.coursePath(".") == "")
    }

    @Test func aLessonFileBecomesItsPage() {
        #expect(Lesson.pageName(ofFile: "02-kapsam.md") == "02-kapsam.html")
    }
}
