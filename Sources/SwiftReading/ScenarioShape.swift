internal import SwiftParser
internal import SwiftSyntax
internal import CourseModel

/// A scenario's shape read from its syntax tree: whether it can live inside a function next to
/// other scenarios, or needs a program of its own. When in doubt, a program of its own: the
/// answer is then slower, never different.
struct ShapeReading: Equatable {
    /// It must be `main.swift` of a program of its own.
    var needsOwnProgram: Bool
    /// It declares `@main`: it must be compiled as a library file with no top-level code.
    var hasMainAttribute: Bool

    init(needsOwnProgram: Bool, hasMainAttribute: Bool) {
        self.needsOwnProgram = needsOwnProgram || hasMainAttribute
        self.hasMainAttribute = hasMainAttribute
    }

    /// Words without which no top-level item needs file scope. Most scenarios hold none of
    /// them, and then the parser need not run at all.
    static let fileScopeHints = ["import", "extension", "protocol", "operator", "precedencegroup",
                                 "macro", "@", "#", "private", "internal", "public", "open",
                                 "package", "static", "nonisolated", "await"]

    /// Whether the code's shape can be known without parsing it: it holds none of the hints.
    static func isPlainlyBatchable(_ code: String) -> Bool {
        !fileScopeHints.contains(where: code.containsBytes)
    }

    /// The shape of a parsed scenario.
    init(_ file: SourceFileSyntax, code: String) {
        var needsOwnProgram = false
        var hasMainAttribute = false
        for item in file.statements {
            switch item.item {
            case .decl(let declaration):
                if Self.declarationNeedsFileScope(declaration) { needsOwnProgram = true }
                if Self.attributes(of: declaration).contains(where: { $0 == "main" }) {
                    hasMainAttribute = true
                }
            default:
                break
            }
        }
        // Top-level `await` makes main.swift asynchronous; a plain function cannot await.
        if !needsOwnProgram, AwaitFinder.containsAwait(file) { needsOwnProgram = true }
        // `#function` names the function around it: `main` only in a program of its own.
        if code.containsBytes("#function") { needsOwnProgram = true }
        self.needsOwnProgram = needsOwnProgram || hasMainAttribute
        self.hasMainAttribute = hasMainAttribute
    }

    private static func declarationNeedsFileScope(_ declaration: DeclSyntax) -> Bool {
        if declaration.is(ImportDeclSyntax.self) || declaration.is(ExtensionDeclSyntax.self)
            || declaration.is(ProtocolDeclSyntax.self) || declaration.is(OperatorDeclSyntax.self)
            || declaration.is(PrecedenceGroupDeclSyntax.self) || declaration.is(MacroDeclSyntax.self)
            || declaration.is(MacroExpansionDeclSyntax.self) || declaration.is(IfConfigDeclSyntax.self) {
            return true
        }
        // Attributes (a macro such as `@Observable`, `@main`, a global actor) and access
        // modifiers (`private`, `public` ...) are not allowed, or mean something else, on a
        // local declaration.
        if !attributes(of: declaration).isEmpty { return true }
        let modifiers = declaration.asProtocol(WithModifiersSyntax.self)?.modifiers ?? []
        return modifiers.contains { modifier in
            ["private", "fileprivate", "internal", "public", "open", "package", "static", "nonisolated"]
                .contains(modifier.name.text)
        }
    }

    private static func attributes(of declaration: DeclSyntax) -> [String] {
        guard let attributes = declaration.asProtocol(WithAttributesSyntax.self)?.attributes else { return [] }
        return attributes.compactMap { element in
            element.as(AttributeSyntax.self)?.attributeName.trimmedDescription
        }
    }
}

/// Finds an `await` that is not inside a closure or a function of the scenario's own.
private final class AwaitFinder: SyntaxVisitor {
    private var found = false

    static func containsAwait(_ file: SourceFileSyntax) -> Bool {
        let finder = AwaitFinder(viewMode: .sourceAccurate)
        finder.walk(file)
        return finder.found
    }

    override func visit(_ node: AwaitExprSyntax) -> SyntaxVisitorContinueKind {
        found = true
        return .skipChildren
    }

    override func visit(_ node: ForStmtSyntax) -> SyntaxVisitorContinueKind {
        if node.awaitKeyword != nil { found = true }
        return .visitChildren
    }

    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
}
