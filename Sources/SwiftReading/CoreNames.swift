internal import SwiftParser
internal import SwiftSyntax

/// The names of a core file that a scenario's own top-level names could change: what the file
/// declares at file scope (a scenario declaring the same name would redeclare it in main.swift),
/// and the names it uses that nothing in the file declares (they reach the module's or the
/// standard library's globals, which a top-level name of main.swift would shadow). A name used
/// where a parameter, a local or a member of the file declares it is the file's own and is left
/// out: a global of the same name cannot change it.
enum CoreNames {
    static func of(_ tree: SourceFileSyntax) -> Set<String> {
        var names: Set<String> = []
        var members: Set<String> = []
        for item in tree.statements {
            if let declaration = item.item.as(DeclSyntax.self) { names.formUnion(declaredNames(declaration)) }
        }
        let collector = MemberCollector(viewMode: .sourceAccurate)
        collector.walk(tree)
        members = collector.members
        let resolver = FreeNames(fileNames: names, members: members)
        resolver.walk(tree)
        return names.union(resolver.free)
    }

    /// The names a declaration introduces where it stands.
    static func declaredNames(_ declaration: DeclSyntax) -> [String] {
        if let function = declaration.as(FunctionDeclSyntax.self) { return [function.name.text] }
        if let variable = declaration.as(VariableDeclSyntax.self) {
            return variable.bindings.flatMap { patternNames($0.pattern) }
        }
        if let type = declaration.asProtocol(NamedDeclSyntax.self) { return [type.name.text] }
        if let alias = declaration.as(TypeAliasDeclSyntax.self) { return [alias.name.text] }
        if let enumCase = declaration.as(EnumCaseDeclSyntax.self) { return enumCase.elements.map(\.name.text) }
        return []
    }

    static func patternNames(_ pattern: PatternSyntax) -> [String] {
        if let identifier = pattern.as(IdentifierPatternSyntax.self) { return [identifier.identifier.text] }
        if let tuple = pattern.as(TuplePatternSyntax.self) { return tuple.elements.flatMap { patternNames($0.pattern) } }
        if let binding = pattern.as(ValueBindingPatternSyntax.self) { return patternNames(binding.pattern) }
        return []
    }
}

/// Every name declared inside a type's body (properties, methods, cases, nested types).
private final class MemberCollector: SyntaxVisitor {
    var members: Set<String> = []

    override func visit(_ node: MemberBlockItemSyntax) -> SyntaxVisitorContinueKind {
        members.formUnion(CoreNames.declaredNames(node.decl))
        return .visitChildren
    }
}

/// The names used that no enclosing scope of the file declares.
private final class FreeNames: SyntaxVisitor {
    private var scopes: [Set<String>]
    private let members: Set<String>
    private var typeDepth = 0
    var free: Set<String> = []

    init(fileNames: Set<String>, members: Set<String>) {
        scopes = [fileNames]
        self.members = members
        super.init(viewMode: .sourceAccurate)
    }

    private func isDeclared(_ name: String) -> Bool {
        (typeDepth > 0 && members.contains(name)) || scopes.contains { $0.contains(name) }
    }

    override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
        // `a.b`: `b` is a member of `a`, not a name looked up here.
        if let access = node.parent?.as(MemberAccessExprSyntax.self), access.declName.id == node.id {
            return .visitChildren
        }
        let name = node.baseName.text
        if !isDeclared(name), name != "self", name != "Self", name != "super" { free.insert(name) }
        return .visitChildren
    }

    override func visit(_ node: IdentifierTypeSyntax) -> SyntaxVisitorContinueKind {
        let name = node.name.text
        if !isDeclared(name), name != "Self" { free.insert(name) }
        return .visitChildren
    }

    // Types: their members are in scope inside them.
    override func visit(_ node: MemberBlockSyntax) -> SyntaxVisitorContinueKind {
        typeDepth += 1
        return .visitChildren
    }

    override func visitPost(_ node: MemberBlockSyntax) { typeDepth -= 1 }

    // Functions, initializers, subscripts, closures: their parameters.
    override func visit(_ node: FunctionParameterClauseSyntax) -> SyntaxVisitorContinueKind { .visitChildren }

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        scopes.append(Set(node.signature.parameterClause.parameters.map { ($0.secondName ?? $0.firstName).text }
            + (node.genericParameterClause?.parameters.map(\.name.text) ?? [])))
        return .visitChildren
    }

    override func visitPost(_ node: FunctionDeclSyntax) { scopes.removeLast() }

    override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind {
        scopes.append(Set(node.signature.parameterClause.parameters.map { ($0.secondName ?? $0.firstName).text }))
        return .visitChildren
    }

    override func visitPost(_ node: InitializerDeclSyntax) { scopes.removeLast() }

    override func visit(_ node: SubscriptDeclSyntax) -> SyntaxVisitorContinueKind {
        scopes.append(Set(node.parameterClause.parameters.map { ($0.secondName ?? $0.firstName).text }))
        return .visitChildren
    }

    override func visitPost(_ node: SubscriptDeclSyntax) { scopes.removeLast() }

    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind {
        var names: Set<String> = ["$0", "$1", "$2", "$3", "$4", "$5", "newValue", "oldValue"]
        if let parameters = node.signature?.parameterClause {
            switch parameters {
            case .simpleInput(let shorthand): names.formUnion(shorthand.map(\.name.text))
            case .parameterClause(let clause): names.formUnion(clause.parameters.map { ($0.secondName ?? $0.firstName).text })
            @unknown default: break
            }
        }
        scopes.append(names)
        return .visitChildren
    }

    override func visitPost(_ node: ClosureExprSyntax) { scopes.removeLast() }

    // Accessors see `newValue` and `oldValue`.
    override func visit(_ node: AccessorBlockSyntax) -> SyntaxVisitorContinueKind {
        scopes.append(["newValue", "oldValue"])
        return .visitChildren
    }

    override func visitPost(_ node: AccessorBlockSyntax) { scopes.removeLast() }

    // A block: its locals (Swift allows no use before the declaration, so all of them will do),
    // and the names bound by `if let`, `guard let`, `for x in`, `catch`.
    override func visit(_ node: CodeBlockItemListSyntax) -> SyntaxVisitorContinueKind {
        var names: Set<String> = ["error"]
        for item in node {
            if let declaration = item.item.as(DeclSyntax.self) { names.formUnion(CoreNames.declaredNames(declaration)) }
            if let guardStatement = item.item.as(GuardStmtSyntax.self) { names.formUnion(conditionNames(guardStatement.conditions)) }
        }
        scopes.append(names)
        return .visitChildren
    }

    override func visitPost(_ node: CodeBlockItemListSyntax) { scopes.removeLast() }

    override func visit(_ node: IfExprSyntax) -> SyntaxVisitorContinueKind {
        scopes.append(conditionNames(node.conditions))
        return .visitChildren
    }

    override func visitPost(_ node: IfExprSyntax) { scopes.removeLast() }

    override func visit(_ node: WhileStmtSyntax) -> SyntaxVisitorContinueKind {
        scopes.append(conditionNames(node.conditions))
        return .visitChildren
    }

    override func visitPost(_ node: WhileStmtSyntax) { scopes.removeLast() }

    override func visit(_ node: ForStmtSyntax) -> SyntaxVisitorContinueKind {
        scopes.append(Set(CoreNames.patternNames(node.pattern)))
        return .visitChildren
    }

    override func visitPost(_ node: ForStmtSyntax) { scopes.removeLast() }

    override func visit(_ node: SwitchCaseSyntax) -> SyntaxVisitorContinueKind {
        // `case .x(let value)`: bound names, found anywhere in the case's patterns.
        let binder = PatternNames(viewMode: .sourceAccurate)
        binder.walk(node.label)
        scopes.append(binder.names)
        return .visitChildren
    }

    override func visitPost(_ node: SwitchCaseSyntax) { scopes.removeLast() }

    private func conditionNames(_ conditions: ConditionElementListSyntax) -> Set<String> {
        var names: Set<String> = []
        for condition in conditions {
            if let binding = condition.condition.as(OptionalBindingConditionSyntax.self) {
                names.formUnion(CoreNames.patternNames(binding.pattern))
            } else if let match = condition.condition.as(MatchingPatternConditionSyntax.self) {
                let binder = PatternNames(viewMode: .sourceAccurate)
                binder.walk(match.pattern)
                names.formUnion(binder.names)
            }
        }
        return names
    }
}

/// The names a pattern binds (`let value`, `(let a, let b)`).
private final class PatternNames: SyntaxVisitor {
    var names: Set<String> = []

    override func visit(_ node: IdentifierPatternSyntax) -> SyntaxVisitorContinueKind {
        names.insert(node.identifier.text)
        return .visitChildren
    }
}
