internal import SwiftDiagnostics
internal import SwiftSyntax

/// Code left out of an illustration with `...`, as books write it: a body `{ ... }`, a line of
/// only `...` among statements or members. Swift has no such statement (`...` is an operator
/// and needs an operand), so the parser calls it unexpected code; an illustration is read
/// as if the elided code were there.
enum Elision {
    /// Whether a parse diagnostic is only about an elision: the code it calls unexpected is
    /// `...` and nothing else (`{ ... }`, or `...` alone on a line). A `...` beside other
    /// unexpected code (`let x = ... + `) is still reported.
    static func explains(_ diagnostic: SwiftDiagnostics.Diagnostic) -> Bool {
        guard let unexpected = diagnostic.node.as(UnexpectedNodesSyntax.self) else { return false }
        let tokens = unexpected.tokens(viewMode: .sourceAccurate).filter { $0.presence == .present }
        return !tokens.isEmpty && tokens.allSatisfy { $0.text == "..." }
    }
}
