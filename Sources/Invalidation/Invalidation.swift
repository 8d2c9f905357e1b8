// Invalidation.swift — SwiftUI'nin bağımlılık kuralının küçük bir modeli.
// SwiftUI Linux'ta çalışmaz. Bu dosya SwiftUI'yi çalıştırmaz; elle yazılmış bir görünüm
// ağacında bir değer değişince hangi görünümlerin body'si yeniden hesaplanır ve değişiklik
// onlara hangi yoldan ulaşır, bunu söyler.

/// Bir anahtarın (görünümlerin okuduğu bir değerin) saklandığı yer.
enum Storage {
    /// Bir görünümün `@State` değeri; `owner` o görünümün adı.
    case state(owner: String)
    /// `@Observable` bir nesnenin bir özelliği; `object` nesnenin adı.
    case model(object: String)
    /// `.environment(...)` ile ağaca konan bir değer.
    case environment
}

/// Ağaçtaki bir görünüm: adı, ebeveyni ve body'sinin okuduğu anahtarlar.
struct ViewNode {
    let name: String
    let parent: String?
    let reads: Set<String>

    init(_ name: String, parent: String?, reads: Set<String>) {
        self.name = name
        self.parent = parent
        self.reads = reads
    }
}

/// Yeniden hesaplanan bir görünüm ve onu tetikleyen yol.
struct Recompute {
    let view: String
    let cause: String
}

/// Görünümler (ağaç sırasıyla) ve her anahtarın nerede saklandığı.
struct ViewTree {
    let nodes: [ViewNode]
    let storage: [String: Storage]

    /// Adı verilen görünümün ataları, en yakın olandan başlayarak.
    func ancestors(of name: String) -> [String] {
        var result: [String] = []
        var next = nodes.first { $0.name == name }?.parent
        // Yanlışlıkla döngü kuran bir ağaçta sonsuza dek yürümemek için.
        while let parent = next, parent != name, !result.contains(parent) {
            result.append(parent)
            next = nodes.first { $0.name == parent }?.parent
        }
        return result
    }

    /// `node`, `key` anahtarını okuyorsa: o anahtar değişince tetik hangisidir.
    func cause(of node: ViewNode, key: String) -> String {
        switch storage[key] {
        case nil:
            return "olcum-disi"
        case .environment:
            return "ortam"
        case .model:
            return "gozlem"
        case .state(let owner):
            if owner == node.name { return "yerel" }
            if ancestors(of: node.name).contains(owner) { return "ebeveyn" }
            return "kural-disi"
        }
    }

    /// `key` bir kez değişir. Onu okuyan görünümler ağaç sırasıyla yeniden hesaplanır,
    /// ötekiler atlanır. Bir satır yazar ve yeniden hesaplananları döndürür.
    func change(_ label: String, key: String) -> [Recompute] {
        let recomputed = nodes.filter { $0.reads.contains(key) }
            .map { Recompute(view: $0.name, cause: cause(of: $0, key: key)) }
        let skipped = nodes.filter { !$0.reads.contains(key) }.map { $0.name }

        let recomputedText = recomputed.isEmpty
            ? "yok" : recomputed.map { "\($0.view) \($0.cause)" }.joined(separator: ", ")
        let skippedText = skipped.isEmpty ? "yok" : skipped.joined(separator: ",")
        print("\(label): \(key) degisti | yeniden \(recomputedText) | atlanan \(skippedText)")
        return recomputed
    }
}

/// Yeniden hesaplamaları tetiğe göre sayar: hep dört satır, hep bu sırayla.
/// `kural-disi` ve `olcum-disi` sayılmaz.
func countCauses(_ recomputes: [Recompute]) {
    for cause in ["yerel", "ebeveyn", "gozlem", "ortam"] {
        let count = recomputes.filter { $0.cause == cause }.count
        print("\(cause): \(count)")
    }
}
