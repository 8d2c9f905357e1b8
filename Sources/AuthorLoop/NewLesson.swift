internal import CourseFiles
internal import CourseModel
package import CoursePipeline
import Foundation
import LessonParsing

/// What `coursebook new lesson` wrote.
package struct NewLesson: Sendable, Equatable {
    /// The lesson file as messages name it (`lessons/07-yeni-olcum.md`).
    package var path: String
    /// The number of its limitation note.
    package var limitNote: Int
    /// Whether the title was too long for a file name and the name holds only its first words.
    package var shortened = false
}

extension NewLesson {
    /// `coursebook new lesson TITLE [COURSE_DIR]`: the course's next lesson file, numbered
    /// after the last one, named from the title, holding the skeleton of a lesson whose
    /// limitation note takes the next free number. An existing file is never written over.
    package static func write(_ options: NewLessonOptions) throws(PipelineError) -> NewLesson {
        guard let title = options.title else {
            throw PipelineError(path: nil, status: .usage, diagnostic: .error(
                .lessonNotCreated, "the lesson's title is missing: 'coursebook new lesson TITLE [COURSE_DIR]'", at: nil))
        }
        let folder = options.course
        let absolute = URL(fileURLWithPath: folder).standardizedFileURL.path
        let configPath = displayPath(folder, "course.json")
        let config: CourseConfig
        do {
            config = try CourseConfigReader.read(CourseLoader.readConfig(folder: absolute, display: configPath), file: configPath)
        } catch {
            throw PipelineError(path: configPath, status: .courseUnreadable, diagnostic: error.diagnostic)
        }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: absolute)) ?? []).filter(CourseLoader.isLessonFileName)
        // The notes are counted in the lessons as the check reads them, so a course that
        // cannot be read says why before anything is written.
        var lastNote = 0
        if !names.isEmpty {
            let loaded = try Pipeline().load(folder, forPages: false)
            lastNote = loaded.course.lessons.flatMap(\.notes).map(\.number).max() ?? 0
        }
        let (fileName, shortened) = LessonSkeleton.fileName(after: names, title: title, language: config.language)
        let text = LessonSkeleton.text(title: title, language: config.language, limitNote: lastNote + 1,
                                       errors: options.errors)
        do {
            try Self.writeNew(Array(text.utf8), to: absolute + "/" + fileName)
        } catch {
            throw PipelineError(path: displayPath(folder, fileName), status: .siteNotWritten, diagnostic: .error(
                .lessonNotCreated, "cannot write the new lesson: \(error)", at: SourceLocation(file: displayPath(folder, fileName), line: 0)))
        }
        return NewLesson(path: displayPath(folder, fileName), limitNote: lastNote + 1, shortened: shortened)
    }

    /// Writes a file that must not exist yet, whole or not at all: into a hidden file beside
    /// it, then linked to its name (which fails if the name is taken).
    static func writeNew(_ bytes: [UInt8], to path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        // A short name of its own: the lesson's may take all the room a name has.
        let scratch = folder + "/.coursebook-new-lesson-\(getpid())"
        try writeNewFile(bytes, to: scratch)
        defer { unlink(scratch) }
        guard link(scratch, path) == 0 else {
            throw NewFileError(description: errno == EEXIST ? "\(path) already exists" : "\(path): \(String(cString: strerror(errno)))")
        }
    }
}

struct NewFileError: Error, CustomStringConvertible {
    var description: String
}

/// The skeleton of a new lesson, in the course's language (Turkish or English; English for
/// any other): the title, an opening, one measurement section with a scenario, an empty
/// `output` block for `check --update` to fill, and the section's limitation note. HTML
/// comments say what goes where; they never reach the page.
package enum LessonSkeleton {
    /// The most bytes a file name may have (Linux's `NAME_MAX`).
    static let longestName = 255

    /// `07-yeni-olcum.md`: the number after the highest of `existing` (as wide as theirs, two
    /// digits at least), and the title folded into a name (`ders`/`lesson` when it has no
    /// letter or digit that folds to ASCII). A name longer than a file name may be keeps the
    /// title's first words (cut inside a word only when the first is itself too long);
    /// `shortened` says so.
    package static func fileName(after existing: [String], title: String,
                                 language: String) -> (name: String, shortened: Bool) {
        var highest = 0
        var width = 2
        for name in existing {
            let digits = name.prefix { $0.isASCII && $0.isNumber }
            width = max(width, digits.count)
            highest = max(highest, Int(digits) ?? 0)
        }
        let number = String(highest + 1)
        let padded = String(repeating: "0", count: max(0, width - number.count)) + number
        let slug = foldedSlug(title)
        let room = longestName - "\(padded)-.md".utf8.count
        let kept = shortenedSlug(slug, toBytes: room)
        return ("\(padded)-\(kept.isEmpty ? words(language).fallbackName : kept).md", kept.utf8.count < slug.utf8.count)
    }

    /// `slug` (ASCII words joined by `-`) in at most `bytes` bytes: whole words while they fit.
    static func shortenedSlug(_ slug: String, toBytes bytes: Int) -> String {
        guard slug.utf8.count > bytes else { return slug }
        let head = slug.utf8.prefix(bytes + 1)
        // A dash right after the room (or inside it) ends the last word that fits.
        if let cut = head.lastIndex(of: UInt8(ascii: "-")), cut > head.startIndex {
            return String(decoding: slug.utf8[..<cut], as: UTF8.self)
        }
        return String(decoding: slug.utf8.prefix(bytes), as: UTF8.self)
    }

    /// - Parameter errors: the scenario is one the compiler refuses (a constant assigned
    ///   again), under an empty `errors` block instead of an `output` block.
    package static func text(title: String, language: String, limitNote: Int, errors: Bool = false) -> String {
        let words = words(language)
        let literal = title.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        let scenario = errors ? """
            ```swift scenario
            // main.swift — \(words.refusedCaption)
            let title = "\(literal)"
            title = "\(literal)!"
            ```

            ```errors
            ```

            <!-- \(words.errorsNote) -->
            """ : """
            ```swift scenario
            // main.swift — \(words.caption)
            print("\(literal)")
            ```

            ```output
            ```

            <!-- \(words.readingNote) -->
            """
        return """
            # \(title)

            \(words.opening(title))

            <!-- \(words.openingNote) -->

            ## \(words.section)

            <!-- \(errors ? words.errorsSectionNote : words.sectionNote) -->

            \(scenario)

            DR\(limitNote). \(words.limitNote)

            """
    }

    struct Words {
        var fallbackName: String
        var opening: (String) -> String
        var openingNote: String
        var section: String
        var sectionNote: String
        var caption: String
        var readingNote: String
        var limitNote: String
        var refusedCaption: String
        var errorsSectionNote: String
        var errorsNote: String
    }

    static func words(_ language: String) -> Words {
        if language.lowercased() == "tr" || language.lowercased().hasPrefix("tr-") {
            return Words(
                fallbackName: "ders",
                opening: { "Bu ders \($0) konusunu bir ölçümle inceliyor." },
                openingNote: "Önceki dersin açık bıraktığı soruyu ve bu dersin baktığı tetiği yazın.",
                section: "Ölçüm",
                sectionNote: "Okurun yazacağı kodu bir `swift` bloğunda gösterin; aynı durumu aşağıdaki senaryoda ölçün. 'coursebook check --update' çıktı bloğunu doldurur.",
                caption: "bu ölçüm neyi gösteriyor",
                readingNote: "Sayıların ne dediğini yazın: ne yeniden hesaplandı, ne atlandı ve neden.",
                limitNote: "Bu ölçümün neyi ölçmediğini buraya yazın.",
                refusedCaption: "derleyicinin reddettiği kod",
                errorsSectionNote: "Derleyicinin reddetmesi gereken kodu aşağıdaki senaryoya yazın. 'coursebook check --update' errors bloğunu derleyicinin hatalarıyla doldurur.",
                errorsNote: "Derleyicinin neden reddettiğini yazın; aynı kodun derlenen hâlini başka bir senaryoda gösterebilirsiniz.")
        }
        return Words(
            fallbackName: "lesson",
            opening: { "This lesson looks at \($0) through one measurement." },
            openingNote: "Say what the previous lesson left open, and what this one measures.",
            section: "Measurement",
            sectionNote: "Show the code a reader would write, then measure the same situation in the scenario below. 'coursebook check --update' fills in its output block.",
            caption: "what this measurement shows",
            readingNote: "Say what the numbers mean.",
            limitNote: "Write here what this measurement did not measure.",
            refusedCaption: "what the compiler refuses",
            errorsSectionNote: "Write the code the compiler must refuse in the scenario below. 'coursebook check --update' fills its errors block with the compiler's errors.",
            errorsNote: "Say why the compiler refuses it; another scenario can show the code that compiles.")
    }
}
