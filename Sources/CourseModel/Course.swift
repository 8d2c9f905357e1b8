/// A course: its settings, its core files and its lessons in order.
package struct Course: Sendable {
    /// The course folder as the author named it (`lessons`), for messages.
    package var folder: String
    /// The course folder as an absolute path.
    package var folderPath: String
    package var config: CourseConfig
    package var coreFiles: [CoreFile]
    package var lessons: [Lesson]
    /// Files the lessons link to or show (images, downloads), as paths inside the course
    /// folder: the site carries each at the same path.
    package var linkedFiles: [String]
    /// The images the lessons name the DocC way (`![](remainderInteger)`), by name; their
    /// files are among `linkedFiles`.
    package var doccImages: [String: DocCImage]

    package init(folder: String, folderPath: String, config: CourseConfig, coreFiles: [CoreFile],
                 lessons: [Lesson], linkedFiles: [String] = [], doccImages: [String: DocCImage] = [:]) {
        self.folder = folder
        self.folderPath = folderPath
        self.config = config
        self.coreFiles = coreFiles
        self.lessons = lessons
        self.linkedFiles = linkedFiles
        self.doccImages = doccImages
    }

    /// `course.json` as messages name it.
    package var configPath: String { displayPath(folder, "course.json") }
}

/// `course.json`.
package struct CourseConfig: Sendable, Equatable {
    package var title: String
    /// A BCP 47 tag: `<html lang>` and the language of the words the tool puts on pages.
    package var language: String
    /// The Swift files every scenario is compiled with, relative to the course folder.
    package var core: [String]
    /// A paragraph that introduces the course: the index's lead (plain text).
    package var description: String?
    /// A folder of templates, relative to the course folder; nil for the built-in ones.
    package var templates: String?
    /// How prose is typeset.
    package var typography: Typography
    /// Whether every measured section must state or cite a limitation note.
    package var limitNotes: LimitNotePolicy
    /// Whether scenarios get change diagrams.
    package var diagrams: DiagramPolicy
    /// The language mode scenarios are compiled in (`-swift-version N`); nil for the
    /// compiler's default. A block may give its own (`language-mode=N`).
    package var languageMode: LanguageMode?
    /// The lesson file that is the course's glossary (`08-glossary.md`), nil for none: its
    /// two-column tables are shown as definition lists, and the lessons link its terms.
    package var glossary: String?
    /// What a page says it is, by lesson file, for pages that are no numbered lesson
    /// (`"08-ozet.md": "Özet"`, `"10-ek.md": "Ek"`): their eyebrow says this instead of
    /// "Lesson N", and the contents show it in place of their number.
    package var labels: [String: String]

    package init(title: String, language: String, core: [String], description: String? = nil,
                 templates: String? = nil, typography: Typography = .plain,
                 limitNotes: LimitNotePolicy = .required, diagrams: DiagramPolicy = .on,
                 languageMode: LanguageMode? = nil, glossary: String? = nil,
                 labels: [String: String] = [:]) {
        self.languageMode = languageMode
        self.title = title
        self.language = language
        self.core = core
        self.description = description
        self.templates = templates
        self.typography = typography
        self.limitNotes = limitNotes
        self.diagrams = diagrams
        self.glossary = glossary
        self.labels = labels
    }
}

/// `course.json`'s `"diagrams"`: whether each change line of a scenario's output is drawn as
/// the scenario's view tree, coloured by what recomputed and why.
package enum DiagramPolicy: String, Sendable, Equatable, CaseIterable {
    /// Every scenario that prints change lines gets its diagrams (the default).
    case on
    /// No scenario does, and their trees are not read for them.
    case off
}

/// `course.json`'s `"limitNotes"`: whether a `##` section that runs a scenario must say what
/// its measurement did not cover. Numbering rules hold either way for the notes a course has.
package enum LimitNotePolicy: String, Sendable, Equatable, CaseIterable {
    /// Every measured section states a note or cites an earlier one (a warning otherwise).
    case required
    /// A course that measures nothing (a language book) writes notes only where it wants.
    case optional
}

/// `course.json`'s `"typography"`: how the prose of the lessons is typeset.
package enum Typography: String, Sendable, Equatable, CaseIterable {
    /// Quotes, dashes and dots as the author typed them (the default).
    case plain
    /// Straight quotes become typographic ones (“ ” ‘ ’), `--` and `---` an en and an em dash,
    /// `...` an ellipsis: in prose only, never inside code, outputs or scenarios.
    case smart
}

/// A Swift file that every scenario is compiled with.
package struct CoreFile: Sendable, Equatable {
    /// The file name (`Invalidation.swift`): what `swift core=Name.swift` names.
    package var name: String
    /// The absolute path.
    package var path: String
    /// The path as messages show it.
    package var displayPath: String
    package var text: String

    package init(name: String, path: String, displayPath: String, text: String) {
        self.name = name
        self.path = path
        self.displayPath = displayPath
        self.text = text
    }
}

/// A path to show in messages: `folder/name` with `.` and `..` folded where that can be done
/// without the file system (`lessons/../Sources/X.swift` is `Sources/X.swift`).
package func displayPath(_ folder: String, _ relative: String) -> String {
    let joined = relative.hasPrefix("/") ? relative : (folder.isEmpty || folder == "." ? relative : "\(folder)/\(relative)")
    let isAbsolute = joined.hasPrefix("/")
    var parts: [Substring] = []
    for part in joined.split(separator: "/", omittingEmptySubsequences: true) {
        switch part {
        case ".": continue
        case "..":
            if let last = parts.last, last != ".." { parts.removeLast() } else if !isAbsolute { parts.append(part) }
        default: parts.append(part)
        }
    }
    let path = parts.joined(separator: "/")
    return isAbsolute ? "/" + path : (path.isEmpty ? "." : path)
}
