internal import CourseModel
internal import SwiftParser
internal import SwiftSyntax

/// The view trees a scenario builds, read from its syntax tree without running it: every
/// `ViewTree(nodes:storage:)` call whose views are `ViewNode(...)` calls and whose storage is a
/// dictionary literal, all with literal arguments, is a tree written out; any other is not,
/// with the reason. A string may also be named by a `let` bound once in the scenario to a
/// plain string literal (`let key = "session.objectWillChange"`), and the nodes or the storage
/// by one bound once to their literal (`let storage: [String: Storage] = [...]`).
enum ViewTreeReading {
    static func of(_ file: SourceFileSyntax) -> ScenarioTrees {
        let constants = StringConstants(file)
        let finder = TreeCallFinder(viewMode: .sourceAccurate)
        finder.walk(file)
        guard !finder.calls.isEmpty else { return .none }
        let converter = SourceLocationConverter(fileName: "", tree: file)
        var trees = ScenarioTrees()
        for call in finder.calls {
            let line = call.startLocation(converter: converter).line
            switch Self.tree(call, constants: constants) {
            case .success(let (views, storage)):
                trees.written.append(WrittenTree(binding: Self.binding(of: call), line: line, views: views, storage: storage))
            case .failure(let reason):
                trees.unwritten.append(UnwrittenTree(line: line, reason: reason.text))
            }
        }
        return trees
    }

    /// Why a `ViewTree(...)` is not written out.
    struct Unwritten: Error {
        var text: String
        init(_ text: String) { self.text = text }
    }

    private static func tree(_ call: FunctionCallExprSyntax, constants: StringConstants)
        -> Result<([WrittenView], [(key: String, storage: KeyStorage)]), Unwritten> {
        let arguments = Array(call.arguments)
        guard call.trailingClosure == nil, arguments.count == 2,
              arguments[0].label?.text == "nodes", arguments[1].label?.text == "storage" else {
            return .failure(Unwritten("it is not called as ViewTree(nodes: [...], storage: [...])"))
        }
        guard let array = constants.literal(arguments[0].expression, as: ArrayExprSyntax.self) else {
            return .failure(Unwritten("its nodes are not an array literal"))
        }
        var views: [WrittenView] = []
        for element in array.elements {
            switch view(element.expression, constants: constants) {
            case .success(let view): views.append(view)
            case .failure(let reason): return .failure(reason)
            }
        }
        let storageExpression = arguments[1].expression
        guard let dictionary = constants.literal(storageExpression, as: DictionaryExprSyntax.self) else {
            return .failure(Unwritten("its storage is not a dictionary literal"))
        }
        var storage: [(key: String, storage: KeyStorage)] = []
        if case .elements(let elements) = dictionary.content {
            for element in elements {
                guard let key = constants.value(of: element.key) else {
                    return .failure(Unwritten("a storage key is not a string literal"))
                }
                guard let place = keyStorage(element.value, constants: constants) else {
                    return .failure(Unwritten("the storage of '\(key)' is not .state(owner:), .model(object:) or .environment with a string literal"))
                }
                storage.append((key, place))
            }
        }
        return .success((views, storage))
    }

    private static func view(_ expression: ExprSyntax, constants: StringConstants) -> Result<WrittenView, Unwritten> {
        guard let call = expression.as(FunctionCallExprSyntax.self),
              call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == "ViewNode",
              call.trailingClosure == nil else {
            return .failure(Unwritten("a node is not a ViewNode(...) call"))
        }
        let arguments = Array(call.arguments)
        guard arguments.count == 3, arguments[0].label == nil,
              arguments[1].label?.text == "parent", arguments[2].label?.text == "reads" else {
            return .failure(Unwritten("a node is not written as ViewNode(name, parent:, reads:)"))
        }
        guard let name = constants.value(of: arguments[0].expression) else {
            return .failure(Unwritten("the name of a view is not a string literal"))
        }
        var parent: String?
        if !arguments[1].expression.is(NilLiteralExprSyntax.self) {
            guard let value = constants.value(of: arguments[1].expression) else {
                return .failure(Unwritten("the parent of '\(name)' is neither nil nor a string literal"))
            }
            parent = value
        }
        guard let readsArray = arguments[2].expression.as(ArrayExprSyntax.self) else {
            return .failure(Unwritten("what '\(name)' reads is not an array literal"))
        }
        var reads: [String] = []
        for element in readsArray.elements {
            guard let key = constants.value(of: element.expression) else {
                return .failure(Unwritten("a key that '\(name)' reads is not a string literal"))
            }
            reads.append(key)
        }
        return .success(WrittenView(name, parent: parent, reads: reads))
    }

    private static func keyStorage(_ expression: ExprSyntax, constants: StringConstants) -> KeyStorage? {
        if let member = expression.as(MemberAccessExprSyntax.self) {
            guard member.declName.baseName.text == "environment", isStorageBase(member.base) else { return nil }
            return .environment
        }
        guard let call = expression.as(FunctionCallExprSyntax.self), call.trailingClosure == nil,
              let member = call.calledExpression.as(MemberAccessExprSyntax.self), isStorageBase(member.base),
              call.arguments.count == 1, let argument = call.arguments.first,
              let value = constants.value(of: argument.expression) else { return nil }
        switch (member.declName.baseName.text, argument.label?.text) {
        case ("state", "owner"): return .state(owner: value)
        case ("model", "object"): return .model(object: value)
        default: return nil
        }
    }

    /// `.environment` or `Storage.environment`.
    private static func isStorageBase(_ base: ExprSyntax?) -> Bool {
        guard let base else { return true }
        return base.as(DeclReferenceExprSyntax.self)?.baseName.text == "Storage"
    }

    /// `let tree = ViewTree(...)` → `tree`.
    private static func binding(of call: FunctionCallExprSyntax) -> String? {
        guard let initializer = call.parent?.as(InitializerClauseSyntax.self),
              let binding = initializer.parent?.as(PatternBindingSyntax.self) else { return nil }
        return binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
    }
}

/// Every `ViewTree(...)` (or `ViewTree.init(...)`) call of a file, in source order.
private final class TreeCallFinder: SyntaxVisitor {
    var calls: [FunctionCallExprSyntax] = []

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        let called = node.calledExpression
        if called.as(DeclReferenceExprSyntax.self)?.baseName.text == "ViewTree" {
            calls.append(node)
        } else if let member = called.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "init",
                  member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "ViewTree" {
            calls.append(node)
        }
        return .visitChildren
    }
}

/// The names a scenario binds once, with `let`, to a plain string literal, or to an array or
/// dictionary literal: what a written tree may use in place of the literal. A name declared
/// anywhere else too (a parameter, another variable) is not one, since which declaration a use
/// means would take a compiler to say.
private struct StringConstants {
    private var values: [String: String] = [:]
    private var collections: [String: ExprSyntax] = [:]

    init(_ file: SourceFileSyntax) {
        let collector = DeclarationCollector(viewMode: .sourceAccurate)
        collector.walk(file)
        for (name, count) in collector.counts where count == 1 {
            if let value = collector.literals[name] { values[name] = value }
            if let literal = collector.collections[name] { collections[name] = literal }
        }
    }

    /// An array or dictionary literal, written in place or named by a constant.
    func literal<Literal: ExprSyntaxProtocol>(_ expression: ExprSyntax, as kind: Literal.Type) -> Literal? {
        if let literal = expression.as(kind) { return literal }
        guard let reference = expression.as(DeclReferenceExprSyntax.self), reference.argumentNames == nil else { return nil }
        return collections[reference.baseName.text]?.as(kind)
    }

    /// The string an expression stands for: a string literal without interpolation, or the
    /// name of such a constant.
    func value(of expression: ExprSyntax) -> String? {
        if let literal = expression.as(StringLiteralExprSyntax.self) {
            guard literal.segments.allSatisfy({ $0.is(StringSegmentSyntax.self) }) else { return nil }
            return literal.representedLiteralValue
        }
        if let reference = expression.as(DeclReferenceExprSyntax.self), reference.argumentNames == nil {
            return values[reference.baseName.text]
        }
        return nil
    }
}

private final class DeclarationCollector: SyntaxVisitor {
    var counts: [String: Int] = [:]
    var literals: [String: String] = [:]
    var collections: [String: ExprSyntax] = [:]

    override func visit(_ node: IdentifierPatternSyntax) -> SyntaxVisitorContinueKind {
        let name = node.identifier.text
        counts[name, default: 0] += 1
        guard let binding = node.parent?.as(PatternBindingSyntax.self), binding.accessorBlock == nil,
              let declaration = binding.parent?.parent?.as(VariableDeclSyntax.self),
              declaration.bindingSpecifier.tokenKind == .keyword(.let),
              let value = binding.initializer?.value else { return .visitChildren }
        if binding.typeAnnotation == nil || binding.typeAnnotation?.type.trimmedDescription == "String",
           let literal = value.as(StringLiteralExprSyntax.self),
           literal.segments.allSatisfy({ $0.is(StringSegmentSyntax.self) }),
           let text = literal.representedLiteralValue {
            literals[name] = text
        } else if value.is(ArrayExprSyntax.self) || value.is(DictionaryExprSyntax.self) {
            collections[name] = value
        }
        return .visitChildren
    }

    override func visit(_ node: FunctionParameterSyntax) -> SyntaxVisitorContinueKind {
        counts[(node.secondName ?? node.firstName).text, default: 0] += 1
        return .visitChildren
    }

    override func visit(_ node: ClosureShorthandParameterSyntax) -> SyntaxVisitorContinueKind {
        counts[node.name.text, default: 0] += 1
        return .visitChildren
    }

    override func visit(_ node: ClosureParameterSyntax) -> SyntaxVisitorContinueKind {
        counts[(node.secondName ?? node.firstName).text, default: 0] += 1
        return .visitChildren
    }

    override func visit(_ node: EnumCaseElementSyntax) -> SyntaxVisitorContinueKind {
        counts[node.name.text, default: 0] += 1
        return .visitChildren
    }

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        counts[node.name.text, default: 0] += 1
        return .visitChildren
    }
}
