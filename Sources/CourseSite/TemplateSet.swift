import CourseFiles
import CourseModel
import Foundation

/// The templates a site is written with: the page templates, checked against their schemas,
/// and the assets (the stylesheet and any other file of the templates folder).
package struct TemplateSet: Sendable {
    package var layout: Template
    package var index: Template
    package var lesson: Template
    package var limitations: Template
    /// The whole course on one page.
    package var print: Template
    package var search: Template
    /// Files copied into the site's `assets/` folder, by name.
    package var assets: [String: [UInt8]]
    /// Whether the layout is the built-in one (the course's templates folder has none): the
    /// search index may then read the lesson pages without their navigation (`SearchCopy`).
    package var layoutIsBuiltIn = true

    package static let pageTemplates = ["layout.html", "index.html", "lesson.html", "limitations.html", "print.html", "search.html"]

    /// The built-in templates (the repository's `templates/`, carried inside the tool).
    package static func builtIn() throws(TemplateError) -> TemplateSet {
        try load(folder: nil, displayFolder: "built-in templates")
    }

    /// The templates of `folder`; a file it does not have comes from the built-in ones. The
    /// folder must lie inside `trustedRoot` (the course's repository), and no file of it may be
    /// a link that leads out of it: what is copied into a site comes from the course alone.
    package static func load(folder: String?, displayFolder: String,
                             trustedRoot: String? = nil) throws(TemplateError) -> TemplateSet {
        var texts: [String: (text: String, display: String)] = [:]
        var ownTemplates: Set<String> = []
        var assets: [String: [UInt8]] = [:]
        for (name, text) in embeddedTemplates {
            if pageTemplates.contains(name) {
                texts[name] = (text, "built-in templates/\(name)")
            } else {
                assets[name] = Array(text.utf8)
            }
        }
        if let folder {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
                throw TemplateError(template: displayFolder, line: 0, message: "no templates folder here")
            }
            let real = Confinement.resolved(folder) ?? folder
            if let trustedRoot, !Confinement.isInside(real, trustedRoot) {
                throw TemplateError(template: displayFolder, line: 0,
                                    message: "the templates folder lies outside the course's repository (\(trustedRoot)); a site is made from the course's own files")
            }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            for name in names.sorted() where !name.hasPrefix(".") {
                let path = folder + "/" + name
                let display = displayFolder + "/" + escapingControls(name)
                var isSubfolder: ObjCBool = false
                if FileManager.default.fileExists(atPath: path, isDirectory: &isSubfolder), isSubfolder.boolValue { continue }
                guard let target = Confinement.resolved(path), Confinement.isInside(target, real) else {
                    throw TemplateError(template: display, line: 0, message: "a symbolic link that leads out of the templates folder")
                }
                guard let bytes = readFile(atPath: target) else {
                    throw TemplateError(template: display, line: 0, message: "cannot read the template (it must be a plain file)")
                }
                let data = Data(bytes)
                if pageTemplates.contains(name) {
                    guard let text = String(data: data, encoding: .utf8) else {
                        throw TemplateError(template: display, line: 0, message: "template is not UTF-8")
                    }
                    texts[name] = (text, display)
                    ownTemplates.insert(name)
                } else {
                    assets[name] = Array(data)
                }
            }
        }
        func template(_ name: String, _ schema: TemplateSchema) throws(TemplateError) -> Template {
            guard let source = texts[name] else {
                throw TemplateError(template: "built-in templates/\(name)", line: 0, message: "missing from the tool")
            }
            return try Template(name: source.display, text: source.text, schema: schema)
        }
        var set = TemplateSet(layout: try template("layout.html", SiteSchema.layout),
                              index: try template("index.html", SiteSchema.index),
                              lesson: try template("lesson.html", SiteSchema.lesson),
                              limitations: try template("limitations.html", SiteSchema.limitations),
                              print: try template("print.html", SiteSchema.print),
                              search: try template("search.html", SiteSchema.search),
                              assets: assets)
        set.layoutIsBuiltIn = !ownTemplates.contains("layout.html")
        return set
    }
}
