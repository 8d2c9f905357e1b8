/// The words of change diagrams: plain text with `{name}` places, so that they can be part of
/// a diagram's cache key.
package struct DiagramWords: Sendable, Equatable {
    /// Above a scenario's diagrams: what the pictures show and how to read them.
    package var title: String
    /// `{label}: {key} changed` (the caption of one diagram, and the start of its text
    /// alternative); the label and the key are set as code in the caption.
    package var changed: String
    /// Where the key lives: `{owner}`, `{object}` filled in.
    package var stateOf: String
    package var modelOf: String
    package var environment: String
    package var noStorage: String
    /// The text alternative: the views recomputed (`{views}`), those skipped, `none` for an
    /// empty list, and the tree, a parent at a time (`{parent}`, `{children}`).
    package var recomputed: String
    package var skipped: String
    package var none: String
    package var tree: String
    package var under: String
    /// A picture that stands for several identical changes in a row: `{count}` of them.
    package var times: String
    /// The legend: what each cause means, and what a plain box means.
    package var causes: [String: String]
    package var skippedMeaning: String

    /// Everything, in a fixed order: part of a diagram's cache key.
    package var canonicalText: String {
        ([title, changed, stateOf, modelOf, environment, noStorage, recomputed, skipped, none, tree, under, times, skippedMeaning]
            + causes.sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] }).joined(separator: "\u{0}")
    }

    package static let turkish = DiagramWords(
        title: "Her değişiklikte görünüm ağacı: dolu kutular yeniden hesaplandı (tetiği altında yazılı), kesikli kutular atlandı.",
        changed: "{label}: {key} değişti",
        stateOf: "@State, sahibi {owner}",
        modelOf: "@Observable nesne {object}",
        environment: "ortam değeri",
        noStorage: "depolaması yazılmamış",
        recomputed: "Yeniden hesaplanan: {views}.",
        skipped: "Atlanan: {views}.",
        none: "yok",
        tree: "Ağaç: {parents}.",
        under: "{parent} altında {children}",
        times: "{count} kez",
        causes: [
            "yerel": "görünümün kendi @State’i",
            "ebeveyn": "bir atası yeniden hesaplandı, girdisi değişti",
            "baglama": "saklı özelliği olan bir Binding’i okudu",
            "gozlem": "okuduğu @Observable özellik",
            "ortam": "okuduğu ortam değeri",
            "kural-disi": "ne kendisinin ne atasının @State’i",
            "olcum-disi": "depolaması yazılmamış anahtar",
            "ilk": "ağaca ilk kez girdi",
        ],
        skippedMeaning: "atlandı: body’si yeniden hesaplanmadı")

    package static let english = DiagramWords(
        title: "The view tree at each change: filled boxes recomputed (their cause written inside), dashed boxes were skipped.",
        changed: "{label}: {key} changed",
        stateOf: "@State of {owner}",
        modelOf: "@Observable object {object}",
        environment: "environment value",
        noStorage: "no storage written",
        recomputed: "Recomputed: {views}.",
        skipped: "Skipped: {views}.",
        none: "none",
        tree: "Tree: {parents}.",
        under: "under {parent}, {children}",
        times: "{count} times",
        causes: [
            "yerel": "its own @State",
            "ebeveyn": "an ancestor recomputed and its input changed",
            "baglama": "read a Binding it stores",
            "gozlem": "an @Observable property it reads",
            "ortam": "an environment value it reads",
            "kural-disi": "@State of neither it nor an ancestor",
            "olcum-disi": "a key with no storage written",
            "ilk": "entered the tree for the first time",
        ],
        skippedMeaning: "skipped: body not recomputed")
}
