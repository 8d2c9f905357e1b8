// InputComparison.swift — SwiftUI'nin girdi karşılaştırmasının küçük bir modeli.
// Sınıflandırıcı (Invalidation.swift) bir görünümün neyi okuduğunu elle yazılmış bir ağaçtan
// alır. Bu dosya görünümlerin body'lerini gerçekten çalıştırır: bir body yeniden hesaplanınca
// kurduğu her çocuğun girdilerini öncekilerle karşılaştırır ve yalnız girdisi değişen çocuğun
// body'sini hesaplar. Her değişiklik için sınıflandırıcınınkiyle aynı biçimde bir satır yazar.
import Observation

/// Modelde bir görünüm. Saklı özellikleri girdileridir; `body` çocuklarını kurar ve okuduğu
/// her durumu, ortam değerini `graph` üzerinden okur.
protocol ModelView {
    @ChildViews func body(_ graph: ViewGraph) -> any ModelView
}

extension ModelView {
    /// Çocuğu olmayan bir görünümün body'si.
    func body(_ graph: ViewGraph) -> any ModelView { ViewList(parts: []) }
}

/// `body` içindeki görünümleri sırasıyla toplar; `if` ile `else` kolları ayrı kimlik alır.
@resultBuilder
enum ChildViews {
    static func buildExpression(_ view: any ModelView) -> any ModelView { view }
    /// `print(...)` gibi bir ifade: görünüm değildir, body hesaplandığı anda çalışır.
    static func buildExpression(_ nothing: Void) -> any ModelView { ViewList(parts: []) }
    static func buildBlock(_ parts: any ModelView...) -> any ModelView { ViewList(parts: parts) }
    static func buildEither(first: any ModelView) -> any ModelView { Branch(name: "if", content: first) }
    static func buildEither(second: any ModelView) -> any ModelView { Branch(name: "else", content: second) }
    static func buildOptional(_ content: (any ModelView)?) -> any ModelView {
        Branch(name: content == nil ? "else" : "if", content: content ?? ViewList(parts: []))
    }
}

/// Bir `@State`'e giden `Binding`: durumun anahtarı ve `Binding`'in kurulduğu andaki değer.
struct StateBinding<Value> {
    let key: String
    let snapshot: Value
}

// MARK: Yapı parçaları: ağaçta görünüm değildirler, içlerindekinin kimliğine katılırlar.

/// Bir yapı parçasının içindeki görünüm ve parçanın ona kattıkları.
struct Part {
    var slot: String
    var view: any ModelView
    var nameSuffix = ""
    var environment: [String: Any] = [:]
    var comparesWithEquals = false
}

protocol Structure { var parts: [Part] { get } }

/// body'deki görünümler, sırayla: her biri sırasını kimliğine katar.
struct ViewList: ModelView, Structure {
    let parts: [Part]
    init(parts: [any ModelView]) { self.parts = parts.enumerated().map { Part(slot: "\($0.offset)", view: $0.element) } }
}

/// `if` ya da `else` kolu.
struct Branch: ModelView, Structure {
    let name: String
    let content: any ModelView
    var parts: [Part] { [Part(slot: name, view: content)] }
}

/// `ForEach`: her öğe kimliğini `id`'den alır; çocuğun adına `[id]` eklenir.
struct ForEach: ModelView, Structure {
    let parts: [Part]
    init<Element, ID: Hashable>(_ data: [Element], id: (Element) -> ID,
                                @ChildViews content: (Element) -> any ModelView) {
        parts = data.map { Part(slot: "[\(id($0))]", view: content($0), nameSuffix: "[\(id($0))]") }
    }
}

/// `AnyView`: türü silinmiş görünüm. İçindeki türün adı kimliğin parçasıdır.
struct AnyView: ModelView, Structure {
    let content: any ModelView
    init(_ content: any ModelView) { self.content = content }
    var parts: [Part] { [Part(slot: "AnyView", view: content)] }
}

struct EquatableView: ModelView, Structure {
    let content: any ModelView
    var parts: [Part] { [Part(slot: "", view: content, comparesWithEquals: true)] }
}

struct IdentifiedView: ModelView, Structure {
    let id: String
    let content: any ModelView
    var parts: [Part] { [Part(slot: "id=\(id)", view: content)] }
}

struct EnvironmentWriter: ModelView, Structure {
    let key: String
    let value: Any
    let content: any ModelView
    var parts: [Part] { [Part(slot: "", view: content, environment: [key: value])] }
}

extension ModelView {
    /// `.id(_:)`: açık kimlik. Değişince görünüm ağaçtan kalkar, yerine yenisi kurulur.
    func id(_ id: some Hashable) -> any ModelView { IdentifiedView(id: "\(id)", content: self) }
    /// `.environment(\.key, value)`: bu görünüme ve altındakilere bir ortam değeri.
    func environment(_ key: String, _ value: Any) -> any ModelView {
        EnvironmentWriter(key: key, value: value, content: self)
    }
    /// `.environment(object)`: bir nesneyi türüyle ortama koyar.
    func environment(_ object: AnyObject) -> any ModelView {
        EnvironmentWriter(key: "\(type(of: object))", value: object, content: self)
    }
}

extension ModelView where Self: Equatable {
    /// `.equatable()`: girdiler alan alan değil, görünümün kendi `==`'iyle karşılaştırılır.
    func equatable() -> any ModelView { EquatableView(content: self) }
}

// MARK: Karşılaştırma

/// İki girdi eşit mi: SwiftUI ekibinden John Harper'ın anlattığı kural (bildirilen,
/// belgelenmemiş). Düz veri (POD) alan alan, baytlarıyla karşılaştırılır ve `==`'ine
/// bakılmaz; düz veri olmayan `Equatable` değer `==` ile; closure hiçbir zaman eşit değildir;
/// sınıf örneği kimliğiyle (`===`); geri kalanı alanları tek tek, aynı kurallarla.
func sameInput(_ old: Any, _ new: Any) -> Bool {
    guard type(of: old) == type(of: new) else { return false }
    // Değerin gerçek türüyle çalışmak için `Any`'nin kutusu açılır.
    func isPlainData<T>(_ value: T) -> Bool { _isPOD(T.self) }
    func equalBytes<T>(_ old: T) -> Bool {
        withUnsafeBytes(of: old) { a in withUnsafeBytes(of: new as! T) { b in a.elementsEqual(b) } }
    }
    let plainData = _openExistential(old, do: isPlainData)
    let oldFields = Array(Mirror(reflecting: old).children), newFields = Array(Mirror(reflecting: new).children)
    if plainData, oldFields.isEmpty { return _openExistential(old, do: equalBytes) }
    if !plainData, let old = old as? any Equatable { return old.isEqual(to: new) }
    if "\(type(of: old))".contains(" -> ") { return false }   // bir closure
    if type(of: old) is AnyClass { return (old as AnyObject) === (new as AnyObject) }
    guard oldFields.count == newFields.count else { return false }
    return zip(oldFields, newFields).allSatisfy { $0.label == $1.label && sameInput($0.value, $1.value) }
}

extension Equatable {
    /// Bu değer, aynı türden öteki değere `==` ile eşit mi.
    func isEqual(to other: Any) -> Bool { (other as? Self) == self }
}

// MARK: Ağaç

/// Ağaca kurulmuş bir görünüm: kimliği, son girdileri ve son body'sinin okudukları.
final class MountedView {
    let identity: String
    let name: String
    var value: any ModelView
    var comparesWithEquals: Bool
    var environment: [String: Any]
    var children: [MountedView] = []
    var reads: [String: String] = [:]          // anahtar → tetik
    var seenEnvironment: [String: Any?] = [:]  // okunan ortam değerleri (nil: varsayılan)
    var ownedKeys: [String] = []
    var generation = 0                         // son body hesaplamasının sırası

    init(_ part: Part, identity: String, name: String) {
        self.identity = identity
        self.name = name
        value = part.view
        comparesWithEquals = part.comparesWithEquals
        environment = part.environment
    }
}

/// Body'leri hesaplayan model: durumları tutar, değişiklikleri yayar ve satırları yazar.
final class ViewGraph {
    private let trees: [ViewTree]
    private var root: MountedView!
    private var states: [String: Any] = [:]
    private var owners: [String: MountedView] = [:]
    private var dirty: [String: String] = [:]        // kimlik → kendi bağımlılığından gelen tetik
    private var current: MountedView?
    private var currentEnvironment: [String: Any] = [:]
    private var recomputed: [String: String] = [:]   // bu değişiklikte: kimlik → tetik
    private var removed: [String] = []
    private var renders = 0                          // bütün body hesaplamaları, sırayla

    /// Kökü kurar ve bütün ağacı bir kez çizer (satır yazmaz). `trees`, senaryonun ağacı düz
    /// yazdığı hâlleridir: body'lerin kurduğu ağaç her seferinde onlardan biri olmalı.
    init(_ rootView: some ModelView, trees: [ViewTree]) {
        self.trees = trees
        let name = "\(type(of: rootView))"
        root = MountedView(Part(slot: "", view: rootView), identity: name, name: name)
        render(root, environment: [:], cause: "ilk")
        _ = writtenTree()
    }

    // MARK: body'nin içinden

    /// `@State private var key = initial`: durum görünümün ilk kurulumunda doğar. Bir
    /// `ForEach` satırının durum anahtarı satırın `[id]`'sini de taşır.
    func state<Value>(_ key: String, initial: Value) -> StateBinding<Value> {
        let view = current!
        let key = key + (view.name.firstIndex(of: "[").map { String(view.name[$0...]) } ?? "")
        if owners[key] == nil {
            states[key] = initial
            owners[key] = view
            view.ownedKeys.append(key)
        }
        return StateBinding(key: key, snapshot: states[key] as! Value)
    }

    /// Bir durumu okur. Sahibin okuması `yerel`, `Binding`'i saklı özelliği olarak tutan
    /// görünümünki `baglama` bağımlılığı kurar. İkisi de değilse (`Binding` örneğin ortamdan
    /// geldiyse) bağımlılık kurulmaz ve `Binding`'in kurulduğu andaki değer döner.
    func read<Value>(_ binding: StateBinding<Value>) -> Value {
        let view = current!
        let isField = Mirror(reflecting: view.value).children.contains { ($0.value as? Keyed)?.key == binding.key }
        let isOwner = owners[binding.key] === view
        guard let value = states[binding.key] as? Value, isOwner || isField else { return binding.snapshot }
        view.reads[binding.key] = isOwner ? "yerel" : "baglama"
        return value
    }

    /// `@Environment(\.key)`: en yakın atanın koyduğu değer, hiçbiri koymadıysa varsayılan.
    func environment<Value>(_ key: String, default value: Value) -> Value {
        let view = current!
        view.reads[key] = "ortam"
        view.seenEnvironment[key] = currentEnvironment[key]
        return currentEnvironment[key] as? Value ?? value
    }

    /// `@Environment(Type.self)`: türüyle ortama konmuş nesne; yoksa ölümcül hata.
    func environment<Object: AnyObject>(_ type: Object.Type) -> Object {
        guard let object = environment("\(type)", default: nil as Object?) else {
            fatalError("ortamda \(type) türünde nesne yok")
        }
        return object
    }

    // MARK: Değişiklikler

    /// Bir durum yeni değerini alır (bir düğme, bir `Binding` üzerinden yazan çocuk ...).
    @discardableResult
    func set<Value>(_ label: String, _ key: String, to value: Value) -> [Recompute] {
        guard owners[key] != nil else { fatalError("\(key): ağaçta bu durumun sahibi yok") }
        states[key] = value
        for view in preorder() {
            if let cause = view.reads[key], cause != "ortam" { dirty[view.identity] = cause }
        }
        return update(label, key)
    }

    /// `@Observable` bir nesnede bir değişiklik: `mutate` çalışır; gerçek Observation
    /// çerçevesinin haber verdiği görünümler `gozlem` ile yeniden hesaplanır.
    @discardableResult
    func change(_ label: String, key: String, _ mutate: () -> Void) -> [Recompute] {
        mutate()
        let observed = Set(dirty.keys)
        let result = update(label, key)
        let tree = writtenTree()
        for view in preorder() where observed.contains(view.identity) {
            guard tree.nodes.first(where: { $0.name == view.name })?.reads.contains(key) == true else {
                fatalError("\(view.name), \(key) değişince tetiklendi ama yazılı ağaçta \(key) okumuyor")
            }
        }
        return result
    }

    private func update(_ label: String, _ key: String) -> [Recompute] {
        (recomputed, removed) = ([:], [])
        visit(root, environment: [:])
        dirty = [:]
        let all = preorder()
        let result = all.compactMap { view in recomputed[view.identity].map { Recompute(view: view.name, cause: $0) } }
        let skipped = all.filter { recomputed[$0.identity] == nil }.map(\.name)
        let recomputedText = result.isEmpty ? "yok" : result.map { "\($0.view) \($0.cause)" }.joined(separator: ", ")
        let skippedText = skipped.isEmpty ? "yok" : skipped.joined(separator: ",")
        print("\(label): \(key) degisti | yeniden \(recomputedText) | atlanan \(skippedText)")
        for line in removed { print("  kalkan: \(line)") }
        _ = writtenTree()
        return result
    }

    // MARK: Yayılma

    /// Değişikliğin bu görünüme ulaşıp ulaşmadığına bakar: kendi bağımlılığı değiştiyse ya
    /// da okuduğu ortam değeri değiştiyse body'si hesaplanır, yoksa çocuklarına geçilir.
    private func visit(_ view: MountedView, environment: [String: Any]) {
        let environment = environment.merging(view.environment) { $1 }
        if let cause = dirty[view.identity] { return render(view, environment: environment, cause: cause) }
        let environmentChanged = view.seenEnvironment.contains { key, seen in
            switch (seen, environment[key]) {
            case (nil, nil): false
            case (let old?, let new?): !sameInput(old, new)
            default: true
            }
        }
        if environmentChanged { return render(view, environment: environment, cause: "ortam") }
        for child in view.children { visit(child, environment: environment) }
    }

    private func render(_ view: MountedView, environment: [String: Any], cause: String) {
        recomputed[view.identity] = recomputed[view.identity] ?? cause
        dirty[view.identity] = nil
        (view.reads, view.seenEnvironment) = ([:], [:])
        renders += 1
        view.generation = renders
        let identity = view.identity, generation = renders
        (current, currentEnvironment) = (view, environment)
        // onChange, değişikliği yapan kodun içinden, aynı iş parçacığında çağrılır (willSet);
        // model tek iş parçacığında çalıştığı için kendini ona verebilir. Zayıf bağla verir:
        // modelin kaydı onChange'i model değişene dek tutar, model de ağacın içindedir;
        // güçlü bir bağ, bırakılan ağacı modelle birlikte bellekte tutardı.
        nonisolated(unsafe) weak var graph = self
        let content = withObservationTracking { view.value.body(self) } onChange: {
            graph?.observed(identity, generation)
        }
        current = nil
        reconcile(view, parts: flatten(content, prefix: view.identity + "/"), environment: environment)
    }

    /// Observation'ın haberi: görünüm hâlâ ağaçtaysa ve haberi veren izleme onun son
    /// body'sinin izlemesiyse yeniden hesaplanacaktır (eski izlemeler sayılmaz).
    private func observed(_ identity: String, _ generation: Int) {
        guard preorder().first(where: { $0.identity == identity })?.generation == generation else { return }
        dirty[identity] = dirty[identity] ?? "gozlem"
    }

    /// body'nin yeni kurduğu çocukları eskileriyle eşler: kimliği kalmayan kalkar, yeni
    /// kimlik ilk kez kurulur, kalanın girdileri karşılaştırılır.
    private func reconcile(_ view: MountedView, parts: [(identity: String, name: String, part: Part)],
                           environment: [String: Any]) {
        let kept = Set(parts.map(\.identity))
        for child in view.children where !kept.contains(child.identity) { unmount(child) }
        var old = Dictionary(uniqueKeysWithValues: view.children.map { ($0.identity, $0) })
        view.children = parts.map { entry in
            guard let child = old.removeValue(forKey: entry.identity) else {
                let child = MountedView(entry.part, identity: entry.identity, name: entry.name)
                render(child, environment: environment.merging(child.environment) { $1 }, cause: "ilk")
                return child
            }
            let equal = entry.part.comparesWithEquals
                ? (child.value as? any Equatable)?.isEqual(to: entry.part.view) ?? false
                : sameInput(child.value, entry.part.view)
            (child.value, child.environment) = (entry.part.view, entry.part.environment)
            if !equal, dirty[child.identity] == nil { dirty[child.identity] = "ebeveyn" }
            visit(child, environment: environment)
            return child
        }
    }

    /// Görünüm ve altındakiler ağaçtan kalkar; sahip oldukları durumlar silinir.
    private func unmount(_ view: MountedView) {
        let lost = view.ownedKeys.map { key in "\(key)=\(states[key].map { "\($0)" } ?? "?")" }
        removed.append(view.name + (lost.isEmpty ? "" : " | silinen: " + lost.joined(separator: ", ")))
        for key in view.ownedKeys { (states[key], owners[key]) = (nil, nil) }
        view.children.forEach(unmount)
    }

    private func flatten(_ view: any ModelView, prefix: String, suffix: String = "", environment: [String: Any] = [:],
                         comparesWithEquals: Bool = false) -> [(identity: String, name: String, part: Part)] {
        guard let structure = view as? any Structure else {
            let name = "\(type(of: view))" + suffix
            return [(prefix + name, name, Part(slot: "", view: view, environment: environment,
                                               comparesWithEquals: comparesWithEquals))]
        }
        return structure.parts.flatMap { part in
            flatten(part.view, prefix: prefix + part.slot + "/", suffix: suffix + part.nameSuffix,
                    environment: environment.merging(part.environment) { $1 },
                    comparesWithEquals: comparesWithEquals || part.comparesWithEquals)
        }
    }

    private func preorder() -> [MountedView] {
        func walk(_ view: MountedView) -> [MountedView] { [view] + view.children.flatMap(walk) }
        return walk(root)
    }

    // MARK: Yazılı ağaçla denetim

    /// body'lerin kurduğu ağaca uyan yazılı ağaç: aynı adlar, aynı sıra ve ebeveynler, aynı
    /// okunan durum ve ortam anahtarları, bunların depolandığı yerler. (`.model` anahtarlarını
    /// Observation izler; onlar `change`'de denetlenir.) Uyan yoksa senaryo durur: sayfadaki
    /// çizim body'lerin kurmadığı bir ağaçtan çizilmesin.
    private func writtenTree() -> ViewTree {
        let built = preorder()
        var parentName: [String: String] = [:]
        for view in built { for child in view.children { parentName[child.identity] = view.name } }
        func fits(_ node: ViewNode, _ view: MountedView, in tree: ViewTree) -> Bool {
            let written = node.reads.filter { key in
                if case .model = tree.storage[key] { return false }
                return true
            }
            let stored = view.reads.allSatisfy { key, cause in
                switch tree.storage[key] {
                case .environment?: cause == "ortam"
                case .state(let owner)?: cause != "ortam" && owner == owners[key]?.name
                default: false
                }
            }
            return node.name == view.name && node.parent == parentName[view.identity]
                && written == Set(view.reads.keys) && stored
        }
        if let tree = trees.first(where: { tree in
            tree.nodes.count == built.count && zip(tree.nodes, built).allSatisfy { fits($0, $1, in: tree) }
        }) {
            return tree
        }
        let description = built.map { "\($0.name) (\(parentName[$0.identity] ?? "kök")) \($0.reads.keys.sorted())" }
        fatalError("body'lerin kurduğu ağaç yazılı ağaçların hiçbiri değil: " + description.joined(separator: "; "))
    }
}

private protocol Keyed { var key: String { get } }
extension StateBinding: Keyed {}

/// Body'si hesaplanan görünümleri tetiğe göre sayar ve tek satır yazar.
func countBodies(_ recomputes: [Recompute]) {
    let causes = ["yerel", "baglama", "ebeveyn", "gozlem", "ortam", "ilk"]
    let counted = (causes + Set(recomputes.map(\.cause)).subtracting(causes).sorted()).compactMap { cause in
        let count = recomputes.filter { $0.cause == cause }.count
        return count == 0 ? nil : "\(cause) \(count)"
    }
    print("body: \(recomputes.count)" + (counted.isEmpty ? "" : " (\(counted.joined(separator: ", ")))"))
}
