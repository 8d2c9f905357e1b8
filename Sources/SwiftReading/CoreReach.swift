/// Whether a scenario's code can change what type-checking the core files says of them.
///
/// Type-checking an `errors` scenario with the core files is `swiftc -typecheck main.swift
/// CORE...`: a job for `main.swift` (the core read only as far as the scenario uses it) and a
/// job for the core files, which checks their bodies and is most of the work. The core's job
/// says the same for every scenario that the core cannot see: one that declares no name the
/// core's code holds (the core's names and every name it looks up, such as `print` or `min`,
/// and the names Swift looks up for literals), that extends no type, imports no module
/// (whose members another file would see), declares no operator, precedence group, operator
/// function or macro, and uses no attribute or `#` that could be a macro. For those, the
/// core's job runs once per run and language mode instead of once per scenario; for any
/// other, it runs with the scenario, as the driver runs it.
///
/// The test reads tokens (comments and strings skipped, an interpolation's code read), and
/// it errs towards "it can": a name declared anywhere, a member's or a local's too, counts.
package enum CoreReach {
    /// Every identifier of the core files' code (but a member after a dot), with the names Swift
    /// looks up for a literal's default type (a module's `typealias IntegerLiteralType = Double`
    /// changes every file's).
    package static func names(ofCore texts: [String]) -> Set<String> {
        var names: Set<String> = ["IntegerLiteralType", "FloatLiteralType", "BooleanLiteralType", "StringLiteralType",
                                  "ExtendedGraphemeClusterType", "UnicodeScalarType", "_MaxBuiltinIntegerType",
                                  "_MaxBuiltinFloatType"]
        for text in texts {
            var previous: [String] = ["", ""]
            for token in SwiftTokens.scan(text) {
                // A member reached after a dot is looked up in its type, where no name of
                // another file's top level is found (after `...`, a range, it is not a member).
                let member = previous[1] == "." && previous[0] != "."
                if token.kind == .identifier, !member { names.insert(token.text) }
                previous = [previous[1], token.text]
            }
        }
        return names
    }

    /// Attributes of the language itself: any other `@Name` may be a macro that adds an
    /// extension or a declaration.
    static let builtInAttributes: Set<String> = [
        "available", "discardableResult", "escaping", "autoclosure", "inlinable", "usableFromInline", "frozen",
        "MainActor", "Sendable", "unchecked", "preconcurrency", "propertyWrapper", "resultBuilder",
        "dynamicMemberLookup", "dynamicCallable", "main", "objc", "nonobjc", "testable", "warn_unqualified_access",
        "globalActor", "unknown", "convention", "inline", "backDeployed", "retroactive", "isolated", "nonisolated",
        "noescape", "requires_stored_property_inits", "objcMembers", "GKInspectable", "IBAction", "IBOutlet",
    ]

    /// `#` words of the language itself: any other may be a macro that declares something.
    static let builtInPoundWords: Set<String> = [
        "if", "elseif", "else", "endif", "available", "unavailable", "warning", "error", "file", "fileID", "filePath",
        "line", "column", "function", "dsohandle", "sourceLocation", "selector", "keyPath",
    ]

    static let declarationWords: Set<String> = [
        "struct", "class", "enum", "actor", "protocol", "typealias", "associatedtype",
    ]

    /// The names a `let`, `var` or `case` at `start` binds: each pattern of its list (`let a = 1,
    /// b = 2`, `let (x, y) = p`, `case one, two`), not its types or values. The list ends at a
    /// keyword or a `{` outside brackets.
    static func boundNames(after start: Int, in tokens: [SwiftTokens.Token]) -> [String] {
        enum Part { case pattern, type, value }
        var names: [String] = []
        var part = Part.pattern
        var depth = 0
        var index = start + 1
        while index < tokens.count {
            let token = tokens[index]
            if depth == 0, token.kind == .keyword, token.text != "let", token.text != "var" { break }
            switch token.text {
            case "(", "[": depth += 1
            case ")", "]": depth -= 1
            case "{":
                if depth == 0 { return names }
                depth += 1
            case "}": depth -= 1
            case ":" where depth == 0: part = .type
            case "=" where depth == 0: part = .value
            case "," where depth == 0: part = .pattern
            default:
                if part == .pattern, token.kind == .identifier { names.append(token.text) }
            }
            if depth < 0 { break }
            index += 1
        }
        return names
    }

    /// Whether the core's type-check cannot depend on `code`, given the core's `names`.
    package static func leavesCoreAlone(_ code: String, coreNames: Set<String>) -> Bool {
        let tokens = SwiftTokens.scan(code)
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            let next = index + 1 < tokens.count ? tokens[index + 1] : nil
            switch token.kind {
            case .keyword where ["extension", "import", "operator", "precedencegroup", "macro"].contains(token.text):
                return false
            case .keyword where token.text == "func":
                // An operator function (`static func +`) joins every `+` the core writes.
                guard let next, next.kind == .identifier else { return false }
                if coreNames.contains(next.text) { return false }
            case .keyword where token.text == "let" || token.text == "var" || token.text == "case":
                if boundNames(after: index, in: tokens).contains(where: coreNames.contains) { return false }
            case .keyword where declarationWords.contains(token.text):
                if let next, next.kind == .identifier, coreNames.contains(next.text) { return false }
            case .attribute where !builtInAttributes.contains(token.text):
                return false
            case .pound where !builtInPoundWords.contains(token.text):
                return false
            case .unreadable:
                return false
            default:
                break
            }
            index += 1
        }
        return true
    }
}

/// Swift's tokens as far as `CoreReach` needs them: identifiers (backticks taken off), the
/// keywords that declare, `@attribute` and `#word`, punctuation one character at a time.
/// Comments and string literals are skipped, the code of an interpolation is read. Code
/// left open (a comment, a string) ends in an `unreadable` token.
enum SwiftTokens {
    enum Kind: Equatable { case identifier, keyword, attribute, pound, punctuation, unreadable }

    struct Token: Equatable {
        var kind: Kind
        var text: String
    }

    static let keywords: Set<String> = [
        "let", "var", "func", "struct", "class", "enum", "actor", "protocol", "typealias", "associatedtype", "case",
        "extension", "import", "operator", "precedencegroup", "macro", "init", "deinit", "subscript", "static",
        "if", "else", "for", "in", "while", "repeat", "switch", "default", "return", "throw", "throws", "try",
        "catch", "do", "guard", "defer", "break", "continue", "fallthrough", "where", "is", "as", "self", "Self",
        "super", "nil", "true", "false", "inout", "some", "any", "await", "async", "rethrows", "private",
        "fileprivate", "internal", "public", "open", "package", "final", "mutating", "nonmutating", "override",
    ]

    static func scan(_ text: String) -> [Token] {
        var scanner = Scanner(bytes: Array(text.utf8))
        while scanner.index < scanner.bytes.count {
            guard scanner.step() else { return scanner.tokens + [Token(kind: .unreadable, text: "")] }
        }
        return scanner.interpolations.isEmpty ? scanner.tokens : scanner.tokens + [Token(kind: .unreadable, text: "")]
    }

    /// Where `scan` is in the bytes, what it has read, and the strings and interpolations it
    /// is inside.
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0
        var tokens: [Token] = []
        /// For each interpolation, the parenthesis depth that its `)` closes and the string it
        /// is in: whether that is multi-line and its number of `#`.
        var interpolations: [(depth: Int, string: (multiline: Bool, hashes: Int))] = []
        var depth = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        /// Reads what starts at `index`; false when it is left open (a comment, a string).
        mutating func step() -> Bool {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                index += 1
            case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "/"):
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
            case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "*"):
                return skipBlockComment()
            case UInt8(ascii: "\""):
                return openString(at: index, hashes: 0)
            case UInt8(ascii: "#"):
                return pound()
            case UInt8(ascii: "@"):
                prefixed(.attribute, "@")
            case UInt8(ascii: "`"):
                var end = index + 1
                while end < bytes.count, bytes[end] != UInt8(ascii: "`"), bytes[end] != UInt8(ascii: "\n") { end += 1 }
                guard end < bytes.count, bytes[end] == UInt8(ascii: "`") else { return false }
                tokens.append(Token(kind: .identifier, text: String(decoding: bytes[(index + 1)..<end], as: UTF8.self)))
                index = end + 1
            case _ where Self.isIdentifierStart(byte):
                let (text, end) = word(at: index)
                tokens.append(Token(kind: keywords.contains(text) ? .keyword : .identifier, text: text))
                index = end
            case UInt8(ascii: "("):
                depth += 1
                tokens.append(Token(kind: .punctuation, text: "("))
                index += 1
            case UInt8(ascii: ")"):
                return closeParenthesis()
            default:
                tokens.append(Token(kind: .punctuation, text: String(decoding: [byte], as: UTF8.self)))
                index += 1
            }
            return true
        }

        static func isIdentifierStart(_ byte: UInt8) -> Bool {
            (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F || byte >= 0x80
        }

        static func isIdentifierPart(_ byte: UInt8) -> Bool { isIdentifierStart(byte) || (byte >= 0x30 && byte <= 0x39) }

        func word(at start: Int) -> (String, Int) {
            var end = start
            while end < bytes.count, Self.isIdentifierPart(bytes[end]) { end += 1 }
            return (String(decoding: bytes[start..<end], as: UTF8.self), end)
        }

        /// `/* ... */`, nested ones included.
        mutating func skipBlockComment() -> Bool {
            var nesting = 1
            index += 2
            while index < bytes.count, nesting > 0 {
                if bytes[index...].starts(with: Array("/*".utf8)) { nesting += 1; index += 2 }
                else if bytes[index...].starts(with: Array("*/".utf8)) { nesting -= 1; index += 2 }
                else { index += 1 }
            }
            return nesting == 0
        }

        /// `@word` or `#word` (`kind`), or the character alone.
        mutating func prefixed(_ kind: Kind, _ mark: String) {
            if index + 1 < bytes.count, Self.isIdentifierStart(bytes[index + 1]) {
                let (text, end) = word(at: index + 1)
                tokens.append(Token(kind: kind, text: text))
                index = end
            } else {
                tokens.append(Token(kind: .punctuation, text: mark))
                index += 1
            }
        }

        /// A raw string (`#"..."#`), `#word`, or `#` alone.
        mutating func pound() -> Bool {
            var hashes = 0
            while index + hashes < bytes.count, bytes[index + hashes] == UInt8(ascii: "#") { hashes += 1 }
            if index + hashes < bytes.count, bytes[index + hashes] == UInt8(ascii: "\"") {
                return openString(at: index + hashes, hashes: hashes)
            }
            if hashes == 1 {
                prefixed(.pound, "#")
            } else {
                tokens.append(Token(kind: .punctuation, text: "#"))
                index += 1
            }
            return true
        }

        /// Skips a string literal's text from `start` (after its opening quotes) to its end or
        /// to an interpolation; returns where reading goes on, or nil when it is left open.
        func skipString(from start: Int, multiline: Bool, hashes: Int) -> (next: Int, interpolation: Bool)? {
            var position = start
            let closing = Array(repeating: UInt8(ascii: "\""), count: multiline ? 3 : 1) + Array(repeating: UInt8(ascii: "#"), count: hashes)
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\\") {
                    // An escape or an interpolation needs as many `#` after the backslash.
                    var hashCount = 0
                    while position + 1 + hashCount < bytes.count, bytes[position + 1 + hashCount] == UInt8(ascii: "#") { hashCount += 1 }
                    if hashCount == hashes {
                        let after = position + 1 + hashCount
                        if after < bytes.count, bytes[after] == UInt8(ascii: "(") { return (after + 1, true) }
                        position = after + 1
                        continue
                    }
                }
                if !multiline, byte == UInt8(ascii: "\n") { return nil }
                if bytes[position...].starts(with: closing) { return (position + closing.count, false) }
                position += 1
            }
            return nil
        }

        /// A string literal whose first quote is at `start`.
        mutating func openString(at start: Int, hashes: Int) -> Bool {
            let multiline = bytes[start...].starts(with: Array("\"\"\"".utf8))
            guard let (next, interpolation) = skipString(from: start + (multiline ? 3 : 1), multiline: multiline, hashes: hashes) else {
                return false
            }
            index = next
            if interpolation {
                interpolations.append((depth, (multiline, hashes)))
                depth += 1
            }
            return true
        }

        /// `)`: the end of an interpolation, after which its string goes on, or punctuation.
        mutating func closeParenthesis() -> Bool {
            depth -= 1
            guard let open = interpolations.last, open.depth == depth else {
                tokens.append(Token(kind: .punctuation, text: ")"))
                index += 1
                return true
            }
            interpolations.removeLast()
            guard let (next, interpolation) = skipString(from: index + 1, multiline: open.string.multiline,
                                                         hashes: open.string.hashes) else { return false }
            index = next
            if interpolation {
                interpolations.append((depth, open.string))
                depth += 1
            }
            return true
        }
    }
}
