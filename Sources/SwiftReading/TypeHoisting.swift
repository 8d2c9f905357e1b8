internal import CourseModel
internal import SwiftSyntax

/// Which type declarations of a scenario a batch may lift to the top level of a file of its own
/// (module `main`), the rest of the scenario staying in the function that runs it, so that it
/// prints what it prints as `main.swift`: its types keep their names (`main.Foo` in
/// `String(reflecting:)`, `dump`, a class's default description), their members and their
/// conformances, since they stand at the top level of the module `main` either way.
///
/// Lifted: a `struct`, `class`, `enum`, `protocol` or `typealias`, and an extension of one of
/// those the scenario declares, each on lines of its own, with no modifier but an access level,
/// `final` or `indirect`, and no attribute but those that change only the declaration itself
/// (`@propertyWrapper`, `@escaping`, `@discardableResult` ...). Never lifted, so the scenario
/// stays a program of its own: an extension of a type it does not declare (`extension Int`
/// changes every other scenario of the batch), an operator, an actor, a global actor, `@main`,
/// a macro, and any declaration that mentions a name the scenario's top-level code declares (its
/// variables and functions are locals of the function in a batch, out of a type's reach).
/// Nor a name the compiler looks up on its own (`IntegerLiteralType` changes what every file's
/// `1` is). Which scenarios may share a batch (no lifted name another mentions) is the runner's
/// to say.
enum TypeHoisting {
    static let modifiers: Set<String> = ["final", "indirect", "public", "internal", "private", "fileprivate"]
    static let attributes: Set<String> = [
        "escaping", "autoclosure", "discardableResult", "propertyWrapper", "resultBuilder", "dynamicMemberLookup",
        "dynamicCallable", "Sendable", "unchecked", "frozen", "inlinable", "usableFromInline",
    ]

    /// The lifting of `types` (the top-level declarations of `file` that a function cannot
    /// hold), given the names its top-level code declares; nil when one cannot be lifted.
    static func of(_ file: SourceFileSyntax, types: [DeclSyntax], topLevelNames: [String]) -> ScenarioHoisting? {
        let declared = types.compactMap(name(of:))
        // Names the compiler looks up itself at the top level (`IntegerLiteralType` gives a
        // literal's default type to every file of the module), and the reserved `_` ones.
        guard !declared.contains(where: { $0.hasSuffix("LiteralType") || $0.hasPrefix("_") }) else { return nil }
        let topLevel = Set(topLevelNames)
        for declaration in types {
            guard liftable(declaration, declaredTypes: declared, topLevelNames: topLevel) else { return nil }
        }
        guard !types.isEmpty else { return ScenarioHoisting(lines: [], names: []) }
        // Whole lines: no other statement shares a line with a lifted declaration.
        let converter = SourceLocationConverter(fileName: "main.swift", tree: file)
        let items = Array(file.statements)
        let lifted = Set(types.map(\.id))
        func firstLine(_ item: CodeBlockItemSyntax) -> Int { converter.location(for: item.positionAfterSkippingLeadingTrivia).line }
        func lastLine(_ item: CodeBlockItemSyntax) -> Int { converter.location(for: item.endPositionBeforeTrailingTrivia).line }
        var lines: [ClosedRange<Int>] = []
        for (index, item) in items.enumerated() {
            guard let declaration = item.item.as(DeclSyntax.self), lifted.contains(declaration.id) else { continue }
            let first = firstLine(item), last = lastLine(item)
            if index > 0, lastLine(items[index - 1]) >= first { return nil }
            if index + 1 < items.count, firstLine(items[index + 1]) <= last { return nil }
            lines.append(first...last)
        }
        return ScenarioHoisting(lines: lines, names: declared)
    }

    /// The name a type declaration declares at the top level; nil for any other declaration.
    static func name(of declaration: DeclSyntax) -> String? {
        let token: TokenSyntax
        if let type = declaration.as(StructDeclSyntax.self) {
            token = type.name
        } else if let type = declaration.as(ClassDeclSyntax.self) {
            token = type.name
        } else if let type = declaration.as(EnumDeclSyntax.self) {
            token = type.name
        } else if let type = declaration.as(ProtocolDeclSyntax.self) {
            token = type.name
        } else if let alias = declaration.as(TypeAliasDeclSyntax.self) {
            token = alias.name
        } else {
            return nil
        }
        return bare(token.text)
    }

    private static func liftable(_ declaration: DeclSyntax, declaredTypes: [String], topLevelNames: Set<String>) -> Bool {
        if let extended = declaration.as(ExtensionDeclSyntax.self) {
            guard let type = extended.extendedType.as(IdentifierTypeSyntax.self), type.genericArgumentClause == nil,
                  declaredTypes.contains(bare(type.name.text)) else { return false }
        } else if name(of: declaration) == nil {
            return false
        }
        let modifiers = declaration.asProtocol(WithModifiersSyntax.self)?.modifiers.map(\.name.text) ?? []
        guard modifiers.allSatisfy(Self.modifiers.contains) else { return false }
        var afterAt = false
        for token in declaration.tokens(viewMode: .sourceAccurate) {
            if afterAt, !attributes.contains(token.text) { return false }
            afterAt = token.tokenKind == .atSign
            if case .identifier(let text) = token.tokenKind, topLevelNames.contains(bare(text)) { return false }
        }
        return true
    }

    private static func bare(_ name: String) -> String {
        name.hasPrefix("`") && name.hasSuffix("`") && name.count > 1 ? String(name.dropFirst().dropLast()) : name
    }
}
