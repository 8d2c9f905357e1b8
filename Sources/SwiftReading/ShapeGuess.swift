/// A guess, from a scenario's words alone and without the parser, of whether it fits a batch
/// (see `ShapeReading`, which decides): what lets a cold check start compiling the batch while
/// the parser is still reading the scenarios. The guess never decides anything — the batch it
/// began is used only when the parser's shapes put exactly the same scenarios in it — so
/// erring either way costs time, never an answer.
///
/// It skips comments and strings (not the code of an interpolation) and follows braces: a
/// brace after `if`, `guard … else`, `for`, `while`, `switch`, `do`, `repeat` or `catch` opens a
/// statement's body, any other one a closure or a function. It says "a program of its own" for
/// an attribute or a `#` anywhere in the code; at the top level, a declaration other than `let`,
/// `var` and `func`, a modifier before one, `defer`, a property observer, a `let`/`var` with an
/// accessor block, or a name the core files use declared where the top level could declare it;
/// outside closures and functions, `return` and `await`. Where it cannot tell (a `switch` used
/// as a value, say) it errs towards a program of its own. Code left open (a parenthesis, a brace,
/// a string) does not parse, and has a program of its own.
package enum ShapeGuess {
    /// Declarations that make a program of its own at the top level.
    static let declarations: Set<String> = [
        "struct", "class", "enum", "actor", "protocol", "extension", "import", "typealias", "init",
        "deinit", "subscript", "operator", "precedencegroup", "macro", "associatedtype",
        "defer",
    ]
    /// Statements that make a program of its own outside closures and functions.
    static let statements: Set<String> = ["return", "await"]
    /// Property observers, wherever they stand (the guess does not follow accessor blocks).
    static let observers: Set<String> = ["willSet", "didSet"]
    /// Declaration modifiers: one before `let`, `var` or `func` makes a program of its own.
    static let modifiers: Set<String> = [
        "lazy", "static", "private", "fileprivate", "internal", "public", "open", "package", "final",
        "weak", "unowned", "mutating", "nonmutating", "nonisolated", "isolated", "override", "convenience",
        "required", "dynamic", "indirect", "prefix", "postfix", "infix", "optional", "distributed",
        "consuming", "borrowing", "__consuming", "_const", "reasync", "sending",
    ]
    /// Statements whose braces are their bodies, not closures.
    static let controlStatements: Set<String> = [
        "if", "guard", "else", "for", "while", "switch", "do", "repeat", "catch",
    ]

    /// Whether the scenario `code` would go into a batch, given the top-level names the core
    /// files use (`coreNames`).
    package static func fitsBatch(_ code: String, coreNames: Set<String>) -> Bool {
        var code = code
        return code.withUTF8 { bytes in
            var reading = Reading(bytes: bytes, coreNames: coreNames)
            return reading.fitsBatch()
        }
    }

    private enum Mode {
        /// Code; in a string interpolation, the parenthesis depth its closing `)` returns to.
        case code(parenthesesAtStart: Int?)
        case string(multiline: Bool)
    }

    /// The code inside one pair of braces (the scenario itself the outermost).
    private struct Level {
        /// A closure's or a function's body, or inside one.
        var inClosure: Bool
        /// The parenthesis depth at its opening brace.
        var parentheses: Int
        /// The first word of the statement being read, nil before it.
        var statementWord: String?
        var atStatementStart = true
    }

    /// Where a byte stands: at the statement level of the innermost braces (not inside
    /// parentheses), and at the top level of the scenario.
    private struct Place {
        var statementLevel: Bool
        var topLevel: Bool
    }

    /// What reading one punctuation byte came to.
    private enum Step {
        /// The code needs a program of its own.
        case ownProgram
        /// The byte (and what it opened: a comment, a string's start) is read.
        case read
        /// Its effect is taken; it is read as any other byte that is not a word's.
        case readOn
    }

    /// One reading of a scenario's bytes, from the first to the one that says "a program of its
    /// own", or the end.
    private struct Reading {
        let bytes: UnsafeBufferPointer<UInt8>
        let coreNames: Set<String>
        var index = 0
        var parentheses = 0
        /// Strings and the interpolations inside them, innermost last.
        var modes: [Mode] = [.code(parenthesesAtStart: nil)]
        var levels = [Level(inClosure: false, parentheses: 0)]
        var previousWasModifier = false
        var expectingName = false
        var tupleNames = false
        var tupleDepth = 0
        /// A top-level `let`/`var` whose `=` has not come: a `{` now opens an accessor block.
        var bindingBeforeValue = false

        init(bytes: UnsafeBufferPointer<UInt8>, coreNames: Set<String>) {
            self.bytes = bytes
            self.coreNames = coreNames
        }

        func byte(_ offset: Int) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }

        mutating func fitsBatch() -> Bool {
            while index < bytes.count {
                if case .string(let multiline) = modes[modes.count - 1] {
                    readInString(multiline: multiline)
                    continue
                }
                let current = bytes[index]
                let level = levels[levels.count - 1]
                let place = Place(statementLevel: parentheses == level.parentheses,
                                  topLevel: levels.count == 1 && parentheses == 0)
                switch readPunctuation(current, at: place) {
                case .ownProgram: return false
                case .read: continue
                case .readOn: break
                }
                if isIdentifierByte(current), !(current >= UInt8(ascii: "0") && current <= UInt8(ascii: "9")) {
                    guard readWord(at: place) else { return false }
                } else {
                    readOtherByte(current, at: place)
                }
            }
            // Code left open does not parse: the parser gives it a program of its own.
            return parentheses == 0 && levels.count == 1 && modes.count == 1
        }

        /// A byte of a string: its end, an interpolation's start, an escape, or text.
        mutating func readInString(multiline: Bool) {
            let current = bytes[index]
            if current == UInt8(ascii: "\\") {
                if byte(1) == UInt8(ascii: "(") {
                    modes.append(.code(parenthesesAtStart: parentheses))
                    parentheses += 1
                }
                index += 2
                return
            }
            if current == UInt8(ascii: "\""), !multiline {
                modes.removeLast()
                index += 1
                return
            }
            if current == UInt8(ascii: "\""), byte(1) == UInt8(ascii: "\""), byte(2) == UInt8(ascii: "\"") {
                modes.removeLast()
                index += 3
                return
            }
            index += 1
        }

        /// A comment, from its `//` or `/*` to its end (block comments nest).
        mutating func skipComment() {
            if byte(1) == UInt8(ascii: "/") {
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
                return
            }
            var nesting = 0
            repeat {
                if bytes[index] == UInt8(ascii: "/"), byte(1) == UInt8(ascii: "*") {
                    nesting += 1
                    index += 2
                } else if bytes[index] == UInt8(ascii: "*"), byte(1) == UInt8(ascii: "/") {
                    nesting -= 1
                    index += 2
                } else {
                    index += 1
                }
            } while nesting > 0 && index < bytes.count
        }

        /// Comments, strings, attributes, statement ends, braces, parentheses and commas.
        mutating func readPunctuation(_ current: UInt8, at place: Place) -> Step {
            let level = levels.count - 1
            switch current {
            case UInt8(ascii: "/") where byte(1) == UInt8(ascii: "/") || byte(1) == UInt8(ascii: "*"):
                skipComment()
                return .read
            case UInt8(ascii: "\""):
                let multiline = byte(1) == UInt8(ascii: "\"") && byte(2) == UInt8(ascii: "\"")
                modes.append(.string(multiline: multiline))
                index += multiline ? 3 : 1
                return .read
            case UInt8(ascii: "@"), UInt8(ascii: "#"):
                // An attribute, a place literal, a raw string, a compiler directive.
                return .ownProgram
            case UInt8(ascii: "\n"), UInt8(ascii: ";"):
                if place.statementLevel {
                    levels[level].atStatementStart = true
                    levels[level].statementWord = nil
                }
                if place.topLevel { bindingBeforeValue = false }
                index += 1
                return .read
            case UInt8(ascii: "="):
                if place.topLevel { bindingBeforeValue = false }
            case UInt8(ascii: "{"):
                if place.topLevel, bindingBeforeValue { return .ownProgram }
                let isBody = place.statementLevel && controlStatements.contains(levels[level].statementWord ?? "")
                levels.append(Level(inClosure: levels[level].inClosure || !isBody, parentheses: parentheses))
                index += 1
                return .read
            case UInt8(ascii: "}"):
                if levels.count > 1 { levels.removeLast() }
                index += 1
                return .read
            case UInt8(ascii: "("), UInt8(ascii: "["):
                if expectingName, place.topLevel {
                    expectingName = false
                    tupleNames = true
                    tupleDepth = parentheses + 1
                }
                parentheses += 1
            case UInt8(ascii: ")"), UInt8(ascii: "]"):
                parentheses -= 1
                if tupleNames, parentheses < tupleDepth { tupleNames = false }
                if case .code(let start?) = modes[modes.count - 1], parentheses == start {
                    modes.removeLast()
                }
            case UInt8(ascii: ","):
                // The next binding of `let a = 1, b = 2` (or a condition of a top-level `if`).
                if place.topLevel { expectingName = true }
            default:
                break
            }
            return .readOn
        }

        /// A byte that is not a word's (after its punctuation, if any, was taken).
        mutating func readOtherByte(_ current: UInt8, at place: Place) {
            let blank = current == UInt8(ascii: " ") || current == UInt8(ascii: "\t") || current == UInt8(ascii: "\r")
            if !blank, place.statementLevel { levels[levels.count - 1].atStatementStart = false }
            // `private(set) var`: the parentheses belong to the modifier.
            if !blank, current != UInt8(ascii: "("), current != UInt8(ascii: ")") { previousWasModifier = false }
            index += 1
        }

        /// A word: false when it makes a program of its own.
        mutating func readWord(at place: Place) -> Bool {
            let level = levels.count - 1
            let start = index
            while index < bytes.count, isIdentifierByte(bytes[index]) { index += 1 }
            let word = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)

            if levels.count == 1, declarations.contains(word) { return false }
            if observers.contains(word) { return false }
            if !levels[level].inClosure, statements.contains(word) { return false }
            let declares = word == "let" || word == "var" || word == "func"
            if declares, previousWasModifier, levels.count == 1 { return false }
            if expectingName || tupleNames {
                if coreNames.contains(word) { return false }
                expectingName = false
            }
            if declares, place.topLevel {
                expectingName = true
                if word != "func", levels[level].atStatementStart { bindingBeforeValue = true }
            }
            if place.statementLevel {
                if levels[level].atStatementStart || word == "else" || word == "catch" {
                    levels[level].statementWord = word
                }
                levels[level].atStatementStart = false
            }
            previousWasModifier = levels.count == 1
                && (modifiers.contains(word) || (previousWasModifier && ["set", "unsafe", "safe"].contains(word)))
            return true
        }
    }

    fileprivate static func isIdentifierByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_") || byte >= 0x80
    }
}
