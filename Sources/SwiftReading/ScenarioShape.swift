internal import SwiftParser
internal import SwiftSyntax
internal import CourseModel

/// A scenario's shape read from its syntax tree: whether it may run inside a function of a
/// batch program (forked into a process of its own, see ScenarioRunning) and print exactly what
/// it prints as `main.swift`, or needs a program of its own.
///
/// The rule is a list of what is known to behave the same at the top level of `main.swift`
/// and inside a function: variables without accessors or modifiers, functions, expressions and
/// statements. Anything else — a type (its name prints differently when local), an extension,
/// an import, a `return` or `defer` at the top level, `lazy`, an observed variable, `await`,
/// `#function`, `#line` and the other literals that name a place in the source, an attribute or a
/// modifier, code that does not parse — makes a program of its
/// own. When in doubt, a program of its own: the answer is then slower, never different.
struct ShapeReading: Equatable {
    /// It must be `main.swift` of a program of its own.
    var needsOwnProgram: Bool
    /// It declares `@main`: it must be compiled as a library file with no top-level code.
    var hasMainAttribute: Bool
    /// The names it declares at its top level (functions, variables). In `main.swift` they are
    /// the module's and could change what a name in a core file means; the runner compiles a
    /// scenario whose names the core files use as a program of its own.
    var declaredNames: [String]
    /// For a scenario that needs a program of its own only for its type declarations: how a
    /// batch can lift them out of the function that runs the rest (see `TypeHoisting`).
    var hoisting: ScenarioHoisting?

    init(needsOwnProgram: Bool, hasMainAttribute: Bool, declaredNames: [String] = [], hoisting: ScenarioHoisting? = nil) {
        self.needsOwnProgram = needsOwnProgram || hasMainAttribute
        self.hasMainAttribute = hasMainAttribute
        self.declaredNames = declaredNames
        self.hoisting = hasMainAttribute ? nil : hoisting
    }

    /// The shape of a parsed scenario.
    init(_ file: SourceFileSyntax, code: String) {
        // Code that does not parse is compiled alone, and its errors are the compiler's own.
        var needsOwnProgram = file.hasError
        // A reason other than a type declaration a batch could lift out (see `TypeHoisting`).
        var otherReason = file.hasError
        var hasMainAttribute = false
        var names: [String] = []
        var types: [DeclSyntax] = []
        for item in file.statements {
            switch item.item {
            case .decl(let declaration):
                if Self.attributes(of: declaration).contains("main") { hasMainAttribute = true }
                if let function = declaration.as(FunctionDeclSyntax.self), Self.isPlain(declaration) {
                    names.append(function.name.text)
                } else if let variable = declaration.as(VariableDeclSyntax.self), Self.isPlain(declaration),
                          variable.bindings.allSatisfy({ $0.accessorBlock == nil }) {
                    names += variable.bindings.flatMap { Self.names(in: $0.pattern) }
                } else {
                    needsOwnProgram = true
                    types.append(declaration)
                }
            case .stmt(let statement):
                // A top-level `defer` runs at once in main.swift, at the end in a function.
                if statement.is(DeferStmtSyntax.self) { needsOwnProgram = true; otherReason = true }
            case .expr:
                break
            @unknown default:
                needsOwnProgram = true
                otherReason = true
            }
        }
        // `return` at the top level: a function allows it, main.swift does not. Top-level
        // `await` makes main.swift asynchronous; a plain function cannot await.
        let topLevel = TopLevelFinder.find(in: file)
        if topLevel.returns || topLevel.awaits { needsOwnProgram = true; otherReason = true }
        // `#function` names the function around it, `#line` and `#file` the place in the file:
        // what main.swift prints only in a program of its own, where the code is main.swift.
        if PlaceLiterals.appear(in: code) { needsOwnProgram = true; otherReason = true }
        let hoisting = otherReason || hasMainAttribute ? nil : TypeHoisting.of(file, types: types, topLevelNames: names)
        self.init(needsOwnProgram: needsOwnProgram, hasMainAttribute: hasMainAttribute, declaredNames: names,
                  hoisting: hoisting)
    }

    /// A declaration with no attribute and no modifier (`lazy`, `static`, `private`, `async` ...).
    private static func isPlain(_ declaration: DeclSyntax) -> Bool {
        attributes(of: declaration).isEmpty
            && (declaration.asProtocol(WithModifiersSyntax.self)?.modifiers.isEmpty ?? true)
    }

    private static func attributes(of declaration: DeclSyntax) -> [String] {
        guard let attributes = declaration.asProtocol(WithAttributesSyntax.self)?.attributes else { return [] }
        return attributes.compactMap { element in
            element.as(AttributeSyntax.self)?.attributeName.trimmedDescription
        }
    }

    private static func names(in pattern: PatternSyntax) -> [String] {
        if let identifier = pattern.as(IdentifierPatternSyntax.self) { return [identifier.identifier.text] }
        if let tuple = pattern.as(TuplePatternSyntax.self) { return tuple.elements.flatMap { names(in: $0.pattern) } }
        return []
    }
}

/// Literals whose value is where they stand (`#file` also finds `#fileID` and `#filePath`),
/// and the directive that would move that place. In a core file they matter too: a default
/// argument `line: Int = #line` takes the caller's place, which is a scenario's.
package enum PlaceLiterals {
    static let all = ["#function", "#file", "#line", "#column", "#dsohandle", "#sourceLocation"]

    /// Whether the text holds one (in code, a comment or a string: the answer errs on the safe
    /// side, a program of its own).
    package static func appear(in text: String) -> Bool {
        all.contains(where: text.containsBytes)
    }
}

/// Finds `return` and `await` (`for await` too) in the top-level code of a scenario, not
/// inside a closure, a function, a type or an accessor of its own: one walk for both, each
/// node told apart by its kind (cheaper than asking its type), stopping once both are found.
private final class TopLevelFinder: SyntaxAnyVisitor {
    private(set) var returns = false
    private(set) var awaits = false

    private init() {
        super.init(viewMode: .sourceAccurate)
    }

    static func find(in file: SourceFileSyntax) -> (returns: Bool, awaits: Bool) {
        let finder = TopLevelFinder()
        finder.walk(file)
        return (finder.returns, finder.awaits)
    }

    override func visitAny(_ node: Syntax) -> SyntaxVisitorContinueKind {
        if returns && awaits { return .skipChildren }
        switch node.kind {
        case .token:
            return .skipChildren
        case .returnStmt:
            returns = true
        case .awaitExpr:
            awaits = true
        case .forStmt:
            if node.as(ForStmtSyntax.self)?.awaitKeyword != nil { awaits = true }
        case .closureExpr, .functionDecl, .accessorBlock, .classDecl, .structDecl, .actorDecl, .enumDecl,
             .extensionDecl, .protocolDecl, .initializerDecl, .deinitializerDecl, .subscriptDecl:
            return .skipChildren
        default:
            break
        }
        return .visitChildren
    }
}
