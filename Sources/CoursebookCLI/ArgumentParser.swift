/// A small, strict parser for one subcommand's arguments: known flags, options that take a
/// value (`--out DIR` or `--out=DIR`), and at most a given number of positional arguments.
/// Anything else is a usage error that names the argument.
struct ArgumentSpec {
    var flags: Set<String>
    var options: Set<String>
    var maxPositionals: Int
}

struct ParsedArguments: Equatable {
    var flags: Set<String> = []
    var options: [String: String] = [:]
    var positionals: [String] = []

    func has(_ flag: String) -> Bool { flags.contains(flag) }
}

struct UsageError: Error, Equatable {
    var message: String
}

extension ArgumentSpec {
    func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
                guard parsed.positionals.count < maxPositionals else {
                    throw UsageError(message: "unexpected argument '\(argument)'")
                }
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" { onlyPositionals = true; continue }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            if flags.contains(name) {
                guard inlineValue == nil else { throw UsageError(message: "'\(name)' takes no value") }
                parsed.flags.insert(name)
            } else if options.contains(name) {
                guard parsed.options[name] == nil else { throw UsageError(message: "'\(name)' is given twice") }
                if let inlineValue {
                    parsed.options[name] = inlineValue
                } else {
                    guard index < arguments.count, !arguments[index].hasPrefix("--") else {
                        throw UsageError(message: "'\(name)' needs a value")
                    }
                    parsed.options[name] = arguments[index]
                    index += 1
                }
            } else {
                throw UsageError(message: "unknown option '\(name)'")
            }
        }
        return parsed
    }
}
