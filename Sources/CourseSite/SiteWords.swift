import LessonParsing

/// The words the tool itself puts on pages, in the course's language. Turkish and English are
/// built in; `course.json`'s `language` chooses (by its first subtag).
package struct SiteWords: Sendable {
    package var contents: String
    package var lessons: String
    package var lesson: String
    package var onThisPage: String
    package var previous: String
    package var next: String
    package var home: String
    package var limitations: String
    package var limitationsIntro: String
    package var limitNote: String
    package var allLimitations: String
    package var backToLesson: String
    package var scenario: String
    package var output: String
    package var verifiedBadge: String
    package var notRunBadge: String
    package var notVerified: String
    package var illustration: String
    package var illustrationNote: String
    package var coreFile: String
    package var coreRepeated: String
    package var skipToContent: String
    package var sectionLink: String
    /// The titles of GitHub's five callouts (`> [!NOTE]` ...).
    package var calloutTitles: [CalloutKind: String]
    /// What a footnote's link back to the text says to assistive technology.
    package var footnoteBack: String
    package var verifiedWith: @Sendable (String) -> String
    package var scenarioCount: @Sendable (Int) -> String
    package var noteCount: @Sendable (Int) -> String
    package var footer: @Sendable (String) -> String

    /// The words for a BCP 47 tag; nil when none are built in for its language.
    package static func forLanguage(_ tag: String) -> SiteWords? {
        switch tag.split(separator: "-").first?.lowercased() {
        case "tr": return .turkish
        case "en": return .english
        default: return nil
        }
    }

    package static let turkish = SiteWords(
        contents: "İçindekiler",
        lessons: "Dersler",
        lesson: "Ders",
        onThisPage: "Bu derste",
        previous: "Önceki ders",
        next: "Sonraki ders",
        home: "Ana sayfa",
        limitations: "Ölçüm sınırları",
        limitationsIntro: "Kurstaki her ölçüm, neyi ölçmediğini bir sınır notuyla söyler. Bütün notlar, derslere göre:",
        limitNote: "Ölçüm sınırı",
        allLimitations: "Bütün sınırlar",
        backToLesson: "derste gör",
        scenario: "Senaryo",
        output: "Çıktı",
        verifiedBadge: "doğrulandı",
        notRunBadge: "çalıştırılmadı",
        notVerified: "Bu senaryo çalıştırılmadı; çıktısı doğrulanmadı.",
        illustration: "Örnek kod",
        illustrationNote: "çalıştırılmaz, yalnız sözdizimi denetlenir",
        coreFile: "Çekirdek dosya",
        coreRepeated: "önceki derstekiyle aynı; açmak için tıklayın",
        skipToContent: "İçeriğe geç",
        sectionLink: "Bu bölüme bağlantı",
        calloutTitles: [.note: "Not", .tip: "İpucu", .important: "Önemli", .warning: "Uyarı", .caution: "Dikkat"],
        footnoteBack: "Metne dön",
        verifiedWith: { "Bu çıktı, yukarıdaki kod Swift \($0) ile çalıştırılarak üretildi." },
        scenarioCount: { "\($0) senaryo doğrulandı" },
        noteCount: { "\($0) ölçüm sınırı" },
        footer: { "Bu sitedeki her çıktı, coursebook ile Swift \($0) üzerinde çalıştırılarak doğrulandı." })

    package static let english = SiteWords(
        contents: "Contents",
        lessons: "Lessons",
        lesson: "Lesson",
        onThisPage: "In this lesson",
        previous: "Previous lesson",
        next: "Next lesson",
        home: "Home",
        limitations: "Limitations",
        limitationsIntro: "Every measurement in the course states what it did not measure. All the notes, by lesson:",
        limitNote: "Limitation",
        allLimitations: "All limitations",
        backToLesson: "see in the lesson",
        scenario: "Scenario",
        output: "Output",
        verifiedBadge: "verified",
        notRunBadge: "not run",
        notVerified: "This scenario was not run; its output is not verified.",
        illustration: "Illustration",
        illustrationNote: "not run, only parsed",
        coreFile: "Core file",
        coreRepeated: "the same as before; click to open",
        skipToContent: "Skip to content",
        sectionLink: "Link to this section",
        calloutTitles: [.note: "Note", .tip: "Tip", .important: "Important", .warning: "Warning", .caution: "Caution"],
        footnoteBack: "Back to the text",
        verifiedWith: { "This output was produced by running the code above with Swift \($0)." },
        scenarioCount: { "\($0) scenario\($0 == 1 ? "" : "s") verified" },
        noteCount: { "\($0) limitation\($0 == 1 ? "" : "s")" },
        footer: { "Every output on this site was verified by running it with Swift \($0) through coursebook." })
}
