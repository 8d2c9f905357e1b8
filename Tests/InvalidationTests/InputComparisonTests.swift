import Observation
import Testing
@testable import Invalidation

// The views these tests build, as a lesson's scenario would write them.

private struct Inbox: ModelView {
    var badgeEquatable = false
    func body(_ graph: ViewGraph) -> any ModelView {
        let unread = graph.state("unread", initial: 0)
        let count = graph.read(unread)
        Row(title: "Gelen", count: count)
        Folder(name: "Arşiv", count: count)
        Compose(onSend: {})
        if badgeEquatable { Dot(count: count, muted: false).equatable() } else { Dot(count: count, muted: false) }
    }
}
private struct Row: ModelView {
    let title: String
    let count: Int
    func body(_ graph: ViewGraph) -> any ModelView { Badge(count: count) }
}
private struct Badge: ModelView { let count: Int }
private struct Folder: ModelView, Equatable {
    let name: String
    let count: Int
    // Not plain data (a String): SwiftUI is reported to prefer this == without .equatable().
    static func == (a: Folder, b: Folder) -> Bool { a.name == b.name }
}
private struct Compose: ModelView { let onSend: () -> Void }
/// Plain data: its own == is used only behind .equatable().
private struct Dot: ModelView, Equatable {
    let count: Int
    let muted: Bool
    static func == (a: Dot, b: Dot) -> Bool { a.muted == b.muted }
}

private let inboxTree = ViewTree(nodes: [
    ViewNode("Inbox", parent: nil, reads: ["unread"]),
    ViewNode("Row", parent: "Inbox", reads: []),
    ViewNode("Badge", parent: "Row", reads: []),
    ViewNode("Folder", parent: "Inbox", reads: []),
    ViewNode("Compose", parent: "Inbox", reads: []),
    ViewNode("Dot", parent: "Inbox", reads: []),
], storage: ["unread": .state(owner: "Inbox")])

private struct Tabs: ModelView {
    let passValue: Bool
    func body(_ graph: ViewGraph) -> any ModelView {
        let on = graph.state("on", initial: true)
        if passValue { Feed(isOn: graph.read(on)) } else { BoundFeed(isOn: on) }
        Settings(isOn: on)
    }
}
private struct Feed: ModelView { let isOn: Bool }
private struct BoundFeed: ModelView {
    let isOn: StateBinding<Bool>
    func body(_ graph: ViewGraph) -> any ModelView { let _ = graph.read(isOn) }
}
private struct Settings: ModelView {
    let isOn: StateBinding<Bool>
    func body(_ graph: ViewGraph) -> any ModelView { Toggle(isOn: isOn) }
}
private struct Toggle: ModelView {
    let isOn: StateBinding<Bool>
    func body(_ graph: ViewGraph) -> any ModelView { let _ = graph.read(isOn) }
}

private struct Screen: ModelView {
    enum Style { case branches, ternary, anyView }
    let style: Style
    func body(_ graph: ViewGraph) -> any ModelView {
        let compact = graph.read(graph.state("compact", initial: false))
        switch style {
        case .branches:
            if compact { Timer(compact: true) } else { Timer(compact: false) }
        case .ternary:
            Timer(compact: compact)
        case .anyView:
            compact ? AnyView(Clock()) : AnyView(Timer(compact: false))
        }
    }
}
private struct Timer: ModelView {
    let compact: Bool
    func body(_ graph: ViewGraph) -> any ModelView { let _ = graph.read(graph.state("elapsed", initial: 0)) }
}
private struct Clock: ModelView {}

private struct Reader: ModelView {
    let withID: Bool
    func body(_ graph: ViewGraph) -> any ModelView {
        let book = graph.read(graph.state("book", initial: "a"))
        if withID { Pages(book: book).id(book) } else { Pages(book: book) }
    }
}
private struct Pages: ModelView {
    let book: String
    func body(_ graph: ViewGraph) -> any ModelView { let _ = graph.read(graph.state("page", initial: 0)) }
}

private struct Item { let name: String }
private struct ItemList: ModelView {
    let byOffset: Bool
    func body(_ graph: ViewGraph) -> any ModelView {
        let items = graph.read(graph.state("items", initial: [Item(name: "a"), Item(name: "b")]))
        if byOffset {
            ForEach(Array(items.enumerated()), id: \.offset) { ItemRow(item: $0.element) }
        } else {
            ForEach(items, id: \.name) { ItemRow(item: $0) }
        }
    }
}
private struct ItemRow: ModelView {
    let item: Item
    func body(_ graph: ViewGraph) -> any ModelView { let _ = graph.read(graph.state("open", initial: false)) }
}

private struct App: ModelView {
    func body(_ graph: ViewGraph) -> any ModelView {
        let size = graph.read(graph.state("size", initial: 17))
        Column(footnotes: false).environment("font", size)
        Column(footnotes: true).environment("font", size)
        Status()
    }
}
private struct Column: ModelView {
    let footnotes: Bool
    func body(_ graph: ViewGraph) -> any ModelView {
        if footnotes { Text().environment("font", 13) } else { Text() }
    }
}
private struct Text: ModelView {
    func body(_ graph: ViewGraph) -> any ModelView { let _ = graph.environment("font", default: 17) }
}
private struct Status: ModelView {
    func body(_ graph: ViewGraph) -> any ModelView { let _ = graph.environment("font", default: 17) }
}

@Observable private final class Cart {
    var total = 0
    var coupon = ""
}
private struct CartScreen: ModelView {
    let cart: Cart
    let passTotal: Bool
    func body(_ graph: ViewGraph) -> any ModelView {
        Bar(cart: cart)
        if passTotal { Total(total: cart.total) } else { TotalReader(cart: cart) }
    }
}
private struct Bar: ModelView { let cart: Cart }
private struct Total: ModelView { let total: Int }
private struct TotalReader: ModelView {
    let cart: Cart
    func body(_ graph: ViewGraph) -> any ModelView { let _ = cart.total }
}

private struct Shelf: ModelView {
    let cart: Cart
    func body(_ graph: ViewGraph) -> any ModelView {
        let shown = graph.read(graph.state("shown", initial: true))
        let watch = graph.read(graph.state("watch", initial: true))
        if shown { Watcher(cart: cart, watch: watch) }
    }
}
private struct Watcher: ModelView {
    let cart: Cart
    let watch: Bool
    func body(_ graph: ViewGraph) -> any ModelView { if watch { let _ = cart.total } }
}

private struct Talker: ModelView {
    func body(_ graph: ViewGraph) -> any ModelView {
        let n = graph.read(graph.state("n", initial: 0))
        print("  Talker: \(n)")
    }
}

@Observable private final class Session { var name = "Deniz" }
private struct SessionRoot: ModelView {
    func body(_ graph: ViewGraph) -> any ModelView {
        let session = graph.read(graph.state("session", initial: Session()))
        Badge2().environment(session)
    }
}
private struct Badge2: ModelView {
    func body(_ graph: ViewGraph) -> any ModelView { let _ = graph.environment(Session.self).name }
}

private struct Host: ModelView {
    let ownerReads: Bool
    func body(_ graph: ViewGraph) -> any ModelView {
        let playing = graph.state("playing", initial: "yok")
        if ownerReads { let _ = graph.read(playing) }
        Episode().environment("playingBinding", playing)
    }
}
private struct Episode: ModelView {
    func body(_ graph: ViewGraph) -> any ModelView {
        let binding = graph.environment("playingBinding", default: StateBinding(key: "", snapshot: "varsayılan"))
        let _ = graph.read(binding)
    }
}

extension InvalidationTests {
    /// The input comparison model, read back through standard output like the classifier.
    @Suite struct InputComparisonTests {
        @Test func plainDataIsComparedByItsBytesAndIgnoresItsOwnEquals() {
            #expect(!sameInput(Dot(count: 1, muted: false), Dot(count: 2, muted: false)))
            #expect(sameInput(Dot(count: 1, muted: false), Dot(count: 1, muted: false)))
        }

        @Test func otherEquatableValuesAreComparedWithTheirEquals() {
            #expect(sameInput(Folder(name: "a", count: 1), Folder(name: "a", count: 2)))
            #expect(!sameInput(Folder(name: "a", count: 1), Folder(name: "b", count: 1)))
            #expect(sameInput("x", "x") && !sameInput("x", "y"))
            #expect(sameInput([1, 2], [1, 2]) && !sameInput([1, 2], [2, 1]))
        }

        @Test func closuresNeverCompareEqualAndObjectsCompareByIdentity() {
            let action: () -> Void = {}
            #expect(!sameInput(action, action))
            #expect(!sameInput(Compose(onSend: action), Compose(onSend: action)))
            let cart = Cart()
            #expect(sameInput(Bar(cart: cart), Bar(cart: cart)))
            #expect(!sameInput(Bar(cart: cart), Bar(cart: Cart())))
        }

        @Test func otherValuesAreComparedFieldByFieldAndTypesMustMatch() {
            #expect(sameInput(Row(title: "a", count: 1), Row(title: "a", count: 1)))
            #expect(!sameInput(Row(title: "a", count: 1), Row(title: "b", count: 1)))
            #expect(sameInput(Item(name: "a"), Item(name: "a")) && !sameInput(Item(name: "a"), Item(name: "b")))
            #expect(!sameInput(1, 1.0))
            #expect(sameInput(Optional(Item(name: "a")) as Any, Optional(Item(name: "a")) as Any))
            #expect(!sameInput(Optional(Item(name: "a")) as Any, Optional<Item>.none as Any))
            #expect(sameInput(StateBinding(key: "k", snapshot: 1), StateBinding(key: "k", snapshot: 1)))
            #expect(!sameInput(StateBinding(key: "k", snapshot: 1), StateBinding(key: "k", snapshot: 2)))
        }

        @Test func aParentsBodyRunsItsChildrenWhoseInputsChanged() {
            let printed = capturingStandardOutput {
                let app = ViewGraph(Inbox(), trees: [inboxTree])
                countBodies(app.set("yenile", "unread", to: 3))
                countBodies(app.set("yine", "unread", to: 3))
            }
            #expect(printed == """
                yenile: unread degisti | yeniden Inbox yerel, Row ebeveyn, Badge ebeveyn, Compose ebeveyn, Dot ebeveyn | atlanan Folder
                body: 5 (yerel 1, ebeveyn 4)
                yine: unread degisti | yeniden Inbox yerel, Compose ebeveyn | atlanan Row,Badge,Folder,Dot
                body: 2 (yerel 1, ebeveyn 1)

                """)
        }

        @Test func equatableMakesAPlainDataViewUseItsEquals() {
            let printed = capturingStandardOutput {
                _ = ViewGraph(Inbox(badgeEquatable: true), trees: [inboxTree]).set("yenile", "unread", to: 3)
            }
            #expect(printed.hasSuffix("| atlanan Folder,Dot\n"), "\(printed)")
        }

        @Test func aBindingIsTheChildsOwnDependency() {
            let tree = { (feed: String, reads: Set<String>) in
                ViewTree(nodes: [
                    ViewNode("Tabs", parent: nil, reads: feed == "Feed" ? ["on"] : []),
                    ViewNode(feed, parent: "Tabs", reads: reads),
                    ViewNode("Settings", parent: "Tabs", reads: []),
                    ViewNode("Toggle", parent: "Settings", reads: ["on"]),
                ], storage: ["on": .state(owner: "Tabs")])
            }
            let printed = capturingStandardOutput {
                _ = ViewGraph(Tabs(passValue: false), trees: [tree("BoundFeed", ["on"])]).set("kapat", "on", to: false)
                _ = ViewGraph(Tabs(passValue: true), trees: [tree("Feed", [])]).set("kapat", "on", to: false)
            }
            #expect(printed == """
                kapat: on degisti | yeniden BoundFeed baglama, Toggle baglama | atlanan Tabs,Settings
                kapat: on degisti | yeniden Tabs yerel, Feed ebeveyn, Settings ebeveyn, Toggle baglama | atlanan yok

                """)
        }

        @Test func branchesAndTypesGiveIdentitiesAndAStateLivesAsLongAsItsView() {
            let tree = ViewTree(nodes: [
                ViewNode("Screen", parent: nil, reads: ["compact"]),
                ViewNode("Timer", parent: "Screen", reads: ["elapsed"]),
            ], storage: ["compact": .state(owner: "Screen"), "elapsed": .state(owner: "Timer")])
            let clock = ViewTree(nodes: [
                ViewNode("Screen", parent: nil, reads: ["compact"]),
                ViewNode("Clock", parent: "Screen", reads: []),
            ], storage: ["compact": .state(owner: "Screen")])
            let printed = capturingStandardOutput {
                for style in [Screen.Style.branches, .ternary, .anyView] {
                    let app = ViewGraph(Screen(style: style), trees: [tree, clock])
                    app.set("tik", "elapsed", to: 12)
                    app.set("kucult", "compact", to: true)
                }
            }
            #expect(printed == """
                tik: elapsed degisti | yeniden Timer yerel | atlanan Screen
                kucult: compact degisti | yeniden Screen yerel, Timer ilk | atlanan yok
                  kalkan: Timer | silinen: elapsed=12
                tik: elapsed degisti | yeniden Timer yerel | atlanan Screen
                kucult: compact degisti | yeniden Screen yerel, Timer ebeveyn | atlanan yok
                tik: elapsed degisti | yeniden Timer yerel | atlanan Screen
                kucult: compact degisti | yeniden Screen yerel, Clock ilk | atlanan yok
                  kalkan: Timer | silinen: elapsed=12

                """)
        }

        @Test func aNewIDRemovesTheViewAndItsState() {
            let tree = ViewTree(nodes: [
                ViewNode("Reader", parent: nil, reads: ["book"]),
                ViewNode("Pages", parent: "Reader", reads: ["page"]),
            ], storage: ["book": .state(owner: "Reader"), "page": .state(owner: "Pages")])
            let printed = capturingStandardOutput {
                for withID in [false, true] {
                    let app = ViewGraph(Reader(withID: withID), trees: [tree])
                    app.set("ilerle", "page", to: 7)
                    app.set("kitap", "book", to: "b")
                }
            }
            #expect(printed == """
                ilerle: page degisti | yeniden Pages yerel | atlanan Reader
                kitap: book degisti | yeniden Reader yerel, Pages ebeveyn | atlanan yok
                ilerle: page degisti | yeniden Pages yerel | atlanan Reader
                kitap: book degisti | yeniden Reader yerel, Pages ilk | atlanan yok
                  kalkan: Pages | silinen: page=7

                """)
        }

        @Test func forEachRowsKeepTheStateOfTheirIdentity() {
            func tree(_ ids: [String]) -> ViewTree {
                ViewTree(nodes: [ViewNode("ItemList", parent: nil, reads: ["items"])]
                         + ids.map { ViewNode("ItemRow[\($0)]", parent: "ItemList", reads: ["open[\($0)]"]) },
                         storage: ["items": .state(owner: "ItemList")].merging(ids.map { ("open[\($0)]", Storage.state(owner: "ItemRow[\($0)]")) }) { $1 })
            }
            let printed = capturingStandardOutput {
                let byOffset = ViewGraph(ItemList(byOffset: true), trees: [tree(["0", "1"]), tree(["0"])])
                byOffset.set("ac", "open[0]", to: true)
                byOffset.set("sil", "items", to: [Item(name: "b")])
                let byName = ViewGraph(ItemList(byOffset: false), trees: [tree(["a", "b"]), tree(["b"])])
                byName.set("ac", "open[a]", to: true)
                byName.set("sil", "items", to: [Item(name: "b")])
            }
            #expect(printed == """
                ac: open[0] degisti | yeniden ItemRow[0] yerel | atlanan ItemList,ItemRow[1]
                sil: items degisti | yeniden ItemList yerel, ItemRow[0] ebeveyn | atlanan yok
                  kalkan: ItemRow[1] | silinen: open[1]=false
                ac: open[a] degisti | yeniden ItemRow[a] yerel | atlanan ItemList,ItemRow[b]
                sil: items degisti | yeniden ItemList yerel | atlanan ItemRow[b]
                  kalkan: ItemRow[a] | silinen: open[a]=true

                """)
        }

        @Test func anEnvironmentValueReachesTheReadersUnderItsNearestWriter() {
            // Two columns of one name would be one box on a page; a lesson names them apart.
            let both = ViewTree(nodes: [
                ViewNode("App", parent: nil, reads: ["size"]),
                ViewNode("Column", parent: "App", reads: []),
                ViewNode("Text", parent: "Column", reads: ["font"]),
                ViewNode("Column", parent: "App", reads: []),
                ViewNode("Text", parent: "Column", reads: ["font"]),
                ViewNode("Status", parent: "App", reads: ["font"]),
            ], storage: ["size": .state(owner: "App"), "font": .environment])
            let printed = capturingStandardOutput {
                _ = ViewGraph(App(), trees: [both]).set("buyut", "size", to: 18)
            }
            #expect(printed == """
                buyut: size degisti | yeniden App yerel, Text ortam | atlanan Column,Column,Text,Status

                """)
        }

        @Test func observationRecomputesTheReadersAndAValuePassedOnMakesTheCarrierPay() {
            let reader = ViewTree(nodes: [
                ViewNode("CartScreen", parent: nil, reads: []),
                ViewNode("Bar", parent: "CartScreen", reads: []),
                ViewNode("TotalReader", parent: "CartScreen", reads: ["cart.total"]),
            ], storage: ["cart.total": .model(object: "cart")])
            let passed = ViewTree(nodes: [
                ViewNode("CartScreen", parent: nil, reads: ["cart.total"]),
                ViewNode("Bar", parent: "CartScreen", reads: []),
                ViewNode("Total", parent: "CartScreen", reads: []),
            ], storage: ["cart.total": .model(object: "cart")])
            let printed = capturingStandardOutput {
                let cart = Cart()
                let app = ViewGraph(CartScreen(cart: cart, passTotal: false), trees: [reader])
                app.change("kargo", key: "cart.total") { cart.total += 30 }
                app.change("ayni", key: "cart.total") { cart.total = 30 }
                app.change("sifir", key: "cart.total") { cart.total += 0 }
                let other = Cart()
                let worse = ViewGraph(CartScreen(cart: other, passTotal: true), trees: [passed])
                worse.change("kargo", key: "cart.total") { other.total += 30 }
            }
            #expect(printed == """
                kargo: cart.total degisti | yeniden TotalReader gozlem | atlanan CartScreen,Bar
                ayni: cart.total degisti | yeniden yok | atlanan CartScreen,Bar,TotalReader
                sifir: cart.total degisti | yeniden TotalReader gozlem | atlanan CartScreen,Bar
                kargo: cart.total degisti | yeniden CartScreen gozlem, Total ebeveyn | atlanan Bar

                """)
        }

        /// The registrar of an observed model keeps a body's onChange until the model changes,
        /// and the graph holds the model: a graph let go is freed all the same (no cycle).
        @Test func aGraphLetGoIsFreedThoughItsModelStillTracksIt() {
            let reader = ViewTree(nodes: [
                ViewNode("CartScreen", parent: nil, reads: []),
                ViewNode("Bar", parent: "CartScreen", reads: []),
                ViewNode("TotalReader", parent: "CartScreen", reads: ["cart.total"]),
            ], storage: ["cart.total": .model(object: "cart")])
            weak var released: ViewGraph?
            let cart = Cart()
            _ = capturingStandardOutput {
                let graph = ViewGraph(CartScreen(cart: cart, passTotal: false), trees: [reader])
                graph.change("kargo", key: "cart.total") { cart.total += 30 }
                released = graph
            }
            #expect(released == nil)
            cart.total += 1  // the tracking left in the registrar reaches nothing
        }

        @Test func theTrackingOfAViewThatLeftTheTreeReachesNoViewMountedAfterIt() {
            let storage: [String: Storage] = ["shown": .state(owner: "Shelf"), "watch": .state(owner: "Shelf"),
                                              "cart.total": .model(object: "cart")]
            let shown = ViewTree(nodes: [
                ViewNode("Shelf", parent: nil, reads: ["shown", "watch"]),
                ViewNode("Watcher", parent: "Shelf", reads: ["cart.total"]),
            ], storage: storage)
            let hidden = ViewTree(nodes: [ViewNode("Shelf", parent: nil, reads: ["shown", "watch"])], storage: storage)
            let printed = capturingStandardOutput {
                let cart = Cart()
                let app = ViewGraph(Shelf(cart: cart), trees: [shown, hidden])
                app.set("gizle", "shown", to: false)
                app.set("izleme", "watch", to: false)
                app.set("goster", "shown", to: true)
                app.change("kargo", key: "cart.total") { cart.total += 30 }
            }
            #expect(printed == """
                gizle: shown degisti | yeniden Shelf yerel | atlanan yok
                  kalkan: Watcher
                izleme: watch degisti | yeniden Shelf yerel | atlanan yok
                goster: shown degisti | yeniden Shelf yerel, Watcher ilk | atlanan yok
                kargo: cart.total degisti | yeniden yok | atlanan Shelf,Watcher

                """)
        }

        @Test func replacingTheEnvironmentObjectReachesItsReadersAndTheOldObjectIsForgotten() {
            let tree = ViewTree(nodes: [
                ViewNode("SessionRoot", parent: nil, reads: ["session"]),
                ViewNode("Badge2", parent: "SessionRoot", reads: ["Session", "session.name"]),
            ], storage: ["session": .state(owner: "SessionRoot"), "Session": .environment,
                         "session.name": .model(object: "session")])
            let printed = capturingStandardOutput {
                let app = ViewGraph(SessionRoot(), trees: [tree])
                let old = Session()
                app.set("cikis", "session", to: old)
                app.change("ad", key: "session.name") { old.name = "Ece" }
                app.set("yeni", "session", to: Session())
                app.change("eski-ad", key: "session.name") { old.name = "Can" }
            }
            #expect(printed == """
                cikis: session degisti | yeniden SessionRoot yerel, Badge2 ortam | atlanan yok
                ad: session.name degisti | yeniden Badge2 gozlem | atlanan SessionRoot
                yeni: session degisti | yeniden SessionRoot yerel, Badge2 ortam | atlanan yok
                eski-ad: session.name degisti | yeniden yok | atlanan SessionRoot,Badge2

                """)
        }

        @Test func aBindingReadFromTheEnvironmentIsASnapshotRenewedOnlyByItsOwner() {
            let tree = { (reads: Set<String>) in
                ViewTree(nodes: [
                    ViewNode("Host", parent: nil, reads: reads),
                    ViewNode("Episode", parent: "Host", reads: ["playingBinding"]),
                ], storage: ["playing": .state(owner: "Host"), "playingBinding": .environment])
            }
            let printed = capturingStandardOutput {
                _ = ViewGraph(Host(ownerReads: false), trees: [tree([])]).set("dinle", "playing", to: "42")
                _ = ViewGraph(Host(ownerReads: true), trees: [tree(["playing"])]).set("dinle", "playing", to: "42")
            }
            #expect(printed == """
                dinle: playing degisti | yeniden yok | atlanan Host,Episode
                dinle: playing degisti | yeniden Host yerel, Episode ortam | atlanan yok

                """)
        }

        @Test func aBodyMayPrintWhatItShowsWhenItRuns() {
            let tree = ViewTree(nodes: [ViewNode("Talker", parent: nil, reads: ["n"])], storage: ["n": .state(owner: "Talker")])
            let printed = capturingStandardOutput {
                _ = ViewGraph(Talker(), trees: [tree]).set("bir", "n", to: 1)
            }
            #expect(printed == "  Talker: 0\n  Talker: 1\nbir: n degisti | yeniden Talker yerel | atlanan yok\n")
        }

        @Test func countBodiesCountsEveryCauseInOneLine() {
            let printed = capturingStandardOutput {
                countBodies([Recompute(view: "A", cause: "ilk"), Recompute(view: "B", cause: "baglama"),
                             Recompute(view: "C", cause: "baglama"), Recompute(view: "D", cause: "yeni")])
                countBodies([])
            }
            #expect(printed == "body: 4 (baglama 2, ilk 1, yeni 1)\nbody: 0\n")
        }

        @Test func aBodyThatBuildsAnUnwrittenTreeStopsTheScenario() async {
            await #expect(processExitsWith: .failure) {
                let wrong = ViewTree(nodes: [ViewNode("Inbox", parent: nil, reads: [])], storage: [:])
                _ = ViewGraph(Inbox(), trees: [wrong])
            }
        }

        @Test func aMissingEnvironmentObjectStopsTheScenario() async {
            await #expect(processExitsWith: .failure) {
                let tree = ViewTree(nodes: [ViewNode("Badge2", parent: nil, reads: ["Session"])],
                                    storage: ["Session": .environment])
                _ = ViewGraph(Badge2(), trees: [tree])
            }
        }
    }
}
