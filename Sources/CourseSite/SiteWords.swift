import ChangeDiagrams
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
    package var notRunBadge: String
    package var notVerified: String
    package var illustration: String
    package var illustrationNote: String
    /// A group's blocks (`group=NAME`): the first says it begins one program, the others link
    /// back to it.
    package var startsProgram: String
    package var continuesProgram: String
    package var coreFile: String
    package var coreRepeated: String
    /// The label of a block of a course module (`swift module=NAME`), before its name.
    package var module: String
    package var skipToContent: String
    /// What the link beside a heading says to assistive technology, given the heading.
    package var sectionLink: @Sendable (String) -> String
    /// The index's way in: `start` above the first lesson's title.
    package var start: String
    /// The limitations page: what a limitation note is (a heading and one paragraph), the
    /// heading of its index by lesson, and what a note's section link says.
    package var aboutNotesTitle: String
    package var aboutNotes: String
    package var notesByLesson: String
    package var inSection: String
    /// Search: the field's label and placeholder, the button, what the search page says while
    /// it works, when nothing matches, and when it cannot search (no script, or opened from
    /// disk, where browsers do not let a page load the index).
    package var search: String
    package var searchPlaceholder: String
    package var searchButton: String
    /// `{count}` and `{query}` are filled in by the search page's script.
    package var searchResults: String
    package var searchNothing: String
    package var searchNeedsScript: String
    package var searchNeedsServer: String
    /// The search dialog's close button, and the link that goes back to the top of a long page.
    package var searchClose: String
    package var backToTop: String
    /// The single page with the whole course, and what its link says.
    package var wholeCourse: String
    package var wholeCourseLink: String
    /// The titles of the callouts: GitHub's five (`> [!NOTE]` ...) and DocC's asides
    /// (`> Experiment:` ...), every kind.
    package var calloutTitles: [CalloutKind: String]
    /// What a footnote's link back to the text says to assistive technology.
    package var footnoteBack: String
    /// What a verified output's label says: the Swift version that produced it.
    package var verifiedWith: @Sendable (String) -> String
    /// `language mode 6`: the language mode on a provenance line.
    package var languageMode: @Sendable (String) -> String
    /// A scenario the compiler refused, as its `errors` block said: the badge, the word before
    /// each message (what a screen reader hears first), and where the message stands.
    package var refusedBadge: String
    package var compileError: String
    package var errorPlace: @Sendable (Int, Int) -> String
    /// The end of a program that trapped, as its `trap` block said: the word before the
    /// runtime's message, and what stands for a message the runtime did not write.
    package var trap: String
    package var trapWithoutMessage: String
    package var scenarioCount: @Sendable (Int) -> String
    package var noteCount: @Sendable (Int) -> String
    package var footer: @Sendable (String) -> String
    /// The footer of a course that shows programs the compiler refused.
    package var footerWithRefusals: @Sendable (String) -> String
    /// What change diagrams say around their pictures.
    package var diagram: DiagramWords
    /// An output shown as its block's patterns: what a `...` line stands for (its accessible
    /// name), the mark of a line with wildcards, and the label of a block in any order.
    package var linesLeftOut: String
    package var patternLine: String
    package var anyOrder: String

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
        onThisPage: "Bu sayfada",
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
        notRunBadge: "çalıştırılmadı",
        notVerified: "Bu çıktı doğrulanmadı.",
        illustration: "Örnek kod",
        illustrationNote: "çalıştırılmaz, yalnız sözdizimi denetlenir",
        startsProgram: "bir programın ilk parçası; sonraki parçalar onu sürdürür",
        continuesProgram: "yukarıda başlayan programı sürdürür",
        coreFile: "Çekirdek dosya",
        coreRepeated: "önceki derstekiyle aynı; açmak için tıklayın",
        module: "Modül",
        skipToContent: "İçeriğe geç",
        sectionLink: { "Bu bölüme bağlantı: \($0)" },
        start: "Baştan başlayın",
        aboutNotesTitle: "Ölçüm sınırı nedir?",
        aboutNotes: "Kurstaki her ölçüm bir modelin ya da gerçek çerçevenin belli bir durumda ne yaptığını gösterir; gösterdiği kadarını. Ölçüm sınırı (DR notu), bir ölçümün neyi kapsamadığını söyleyen numaralı nottur: modelin bilmediği bir davranış, yalnız belgelerden bilinen bir kural, sonucu değiştirebilecek bir koşul. Notlar kurs boyunca DR1’den başlayarak sırayla numaralanır; bir bölüm ya kendi notunu yazar ya da önceki bir notu anar. Bir sonucu okurken notuna da bakın: sonuç, notun çizdiği sınırın içinde geçerlidir.",
        notesByLesson: "Derslere göre",
        inSection: "Bölüm",
        search: "Ara",
        searchPlaceholder: "Kursta ara",
        searchButton: "Ara",
        searchResults: "“{query}” için {count} sonuç",
        searchNothing: "“{query}” için sonuç yok.",
        searchNeedsScript: "Arama JavaScript ister. Tarayıcınızda JavaScript kapalıysa kursun tamamını tek sayfada açıp tarayıcının sayfada bulma komutunu (Ctrl-F) kullanın.",
        searchNeedsServer: "Arama, site bir sunucudan açıldığında çalışır (örneğin sitenin klasöründe “python3 -m http.server”); diskten açılan bir sayfa arama dizinini yükleyemez. Şimdilik kursun tamamını tek sayfada açıp Ctrl-F ile arayın.",
        searchClose: "Kapat",
        backToTop: "Başa dön",
        wholeCourse: "Kursun tamamı",
        wholeCourseLink: "Tek sayfada bütün kurs",
        calloutTitles: SiteWords.turkishCalloutTitles,
        footnoteBack: "Metne dön",
        verifiedWith: { "Swift \($0) ile doğrulandı" },
        languageMode: { "dil kipi \($0)" },
        refusedBadge: "derleyici reddetti",
        compileError: "derleme hatası",
        errorPlace: { "satır \($0), sütun \($1)" },
        trap: "tuzak",
        trapWithoutMessage: "program durdu; çalışma zamanı bir ileti yazmadı (bir taşmada olduğu gibi)",
        scenarioCount: { "\($0) senaryo doğrulandı" },
        noteCount: { "\($0) ölçüm sınırı" },
        footer: { "Bu sitedeki her çıktı, coursebook ile Swift \($0) üzerinde çalıştırılarak doğrulandı." },
        footerWithRefusals: { "Bu sitedeki her çıktı coursebook ile Swift \($0) üzerinde çalıştırılarak, her derleme hatası derlenerek doğrulandı." },
        diagram: .turkish,
        linesLeftOut: "burada satırlar atlandı",
        patternLine: "desen",
        anyOrder: "herhangi bir sırada")

    package static let english = SiteWords(
        contents: "Contents",
        lessons: "Lessons",
        lesson: "Lesson",
        onThisPage: "On this page",
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
        notRunBadge: "not run",
        notVerified: "This output is not verified.",
        illustration: "Illustration",
        illustrationNote: "not run, only parsed",
        startsProgram: "the first part of one program, continued below",
        continuesProgram: "continues the program begun above",
        coreFile: "Core file",
        coreRepeated: "the same as before; click to open",
        module: "Module",
        skipToContent: "Skip to content",
        sectionLink: { "Link to this section: \($0)" },
        start: "Start at the beginning",
        aboutNotesTitle: "What is a limitation note?",
        aboutNotes: "Every measurement in the course shows what a model or the real framework does in one situation, and no more. A limitation note (a DR note) is a numbered note that says what a measurement did not cover: a behaviour the model does not know, a rule known only from the documentation, a condition that could change the result. Notes are numbered from DR1 through the whole course; a section either states a note of its own or cites an earlier one. Read a result with its note: it holds within the limit the note draws.",
        notesByLesson: "By lesson",
        inSection: "Section",
        search: "Search",
        searchPlaceholder: "Search the course",
        searchButton: "Search",
        searchResults: "Results for “{query}”: {count}",
        searchNothing: "No results for “{query}”.",
        searchNeedsScript: "Search needs JavaScript. With JavaScript off, open the whole course on one page and use your browser’s find command (Ctrl-F).",
        searchNeedsServer: "Search works when the site is served (for example “python3 -m http.server” in the site’s folder); a page opened from disk cannot load the search index. Meanwhile, open the whole course on one page and use Ctrl-F.",
        searchClose: "Close",
        backToTop: "Back to top",
        wholeCourse: "The whole course",
        wholeCourseLink: "The whole course on one page",
        calloutTitles: SiteWords.englishCalloutTitles,
        footnoteBack: "Back to the text",
        verifiedWith: { "verified with Swift \($0)" },
        languageMode: { "language mode \($0)" },
        refusedBadge: "compiler refused",
        compileError: "compile error",
        errorPlace: { "line \($0), column \($1)" },
        trap: "trap",
        trapWithoutMessage: "the program stopped; the runtime wrote no message (as for an overflow)",
        scenarioCount: { "\($0) scenario\($0 == 1 ? "" : "s") verified" },
        noteCount: { "\($0) limitation\($0 == 1 ? "" : "s")" },
        footer: { "Every output on this site was verified by running it with Swift \($0) through coursebook." },
        footerWithRefusals: { "Every output on this site was verified by running it, and every compile error by compiling it, with Swift \($0) through coursebook." },
        diagram: .english,
        linesLeftOut: "lines left out here",
        patternLine: "pattern",
        anyOrder: "in any order")
}

extension SiteWords {
    /// Every callout kind's title in English: GitHub's words and DocC's display names.
    static let englishCalloutTitles: [CalloutKind: String] = [
        .note: "Note", .tip: "Tip", .important: "Important", .warning: "Warning", .caution: "Caution",
        .experiment: "Experiment", .attention: "Attention", .author: "Author", .authors: "Authors",
        .bug: "Bug", .complexity: "Complexity", .copyright: "Copyright", .date: "Date",
        .invariant: "Invariant", .mutatingVariant: "Mutating Variant",
        .nonMutatingVariant: "Non-Mutating Variant", .postcondition: "Postcondition",
        .precondition: "Precondition", .remark: "Remark", .requires: "Requires", .since: "Since",
        .toDo: "To Do", .version: "Version", .throws: "Throws", .seeAlso: "See Also",
    ]

    /// Every callout kind's title in Turkish.
    static let turkishCalloutTitles: [CalloutKind: String] = [
        .note: "Not", .tip: "İpucu", .important: "Önemli", .warning: "Uyarı", .caution: "Dikkat",
        .experiment: "Deneyin", .attention: "Dikkat", .author: "Yazar", .authors: "Yazarlar",
        .bug: "Hata", .complexity: "Karmaşıklık", .copyright: "Telif hakkı", .date: "Tarih",
        .invariant: "Değişmez", .mutatingVariant: "Değiştiren biçimi",
        .nonMutatingVariant: "Değiştirmeyen biçimi", .postcondition: "Son koşul",
        .precondition: "Ön koşul", .remark: "Açıklama", .requires: "Gerektirir", .since: "Şu sürümden beri",
        .toDo: "Yapılacak", .version: "Sürüm", .throws: "Fırlatır", .seeAlso: "Ayrıca bakın",
    ]
}
