/// What a failed link of a batch says about its members. The linker names where each bad
/// reference is: the object file (one per batch file, `scenarios-K-....o`) and the function
/// that makes it, in its mangled form. GNU gold puts both before its words
/// (`/tmp/T/scenarios-0-1.o:scenarios-0-1.o:function $s4main8RoundingV1rSiSgyF: error:
/// undefined reference to 'round'`); lld under them (`>>>               /tmp/T/scenarios-0-1.o:
/// ($s4main8RoundingV1rSiSgyF)`). A function is a member's when it is the member's own
/// (`__coursebookScenarioN`, or a closure or local type in it) or belongs to a type the member
/// lifted (`$s4main8Rounding...`: no other member of the batch mentions that name).
package enum LinkBlame: Equatable {
    /// The members (indices into the run's scenarios) the linker's words name.
    case members(Set<Int>)
    /// No member, but the batch files whose objects it names: these are the members in them.
    case files(Set<Int>)
    /// Nothing of the batch: any member may be the one.
    case nothing

    /// A member of a batch as the linker can name it: its place among the batch files and the
    /// names it lifted to the top level (none in a batch of plain scenarios).
    package struct Member: Equatable {
        package var index: Int
        package var file: Int
        package var liftedNames: [String]

        package init(index: Int, file: Int, liftedNames: [String] = []) {
            self.index = index
            self.file = file
            self.liftedNames = liftedNames
        }
    }

    /// What `place` (a linker diagnostic's `linkerPlace`) names of `members`.
    package static func of(_ place: String, members: [Member]) -> LinkBlame {
        var named = Set<Int>()
        for symbol in symbols(in: place) {
            if let owner = ScenarioProgram.scenario(linkedIn: symbol), members.contains(where: { $0.index == owner }) {
                named.insert(owner)
            } else if let owner = members.first(where: { $0.liftedNames.contains { mangles(symbol, name: $0) } }) {
                named.insert(owner.index)
            }
        }
        if !named.isEmpty { return .members(named) }
        let files = batchFiles(in: place)
        let inFiles = Set(members.filter { files.contains($0.file) }.map(\.index))
        return inFiles.isEmpty ? .nothing : .files(inFiles)
    }

    /// The mangled Swift names (`$s...`) in a linker's place, in order.
    static func symbols(in place: String) -> [String] {
        var found: [String] = []
        var rest = place[...]
        while let start = rest.range(of: "$s") {
            let symbol = rest[start.lowerBound...].prefix { !" \t\n():'`\"".contains($0) }
            found.append(String(symbol))
            rest = rest[start.upperBound...]
        }
        return found
    }

    /// Whether `symbol` holds `name` as one of its identifiers: its length, then the name,
    /// with no digit before that would make the length another.
    static func mangles(_ symbol: String, name: String) -> Bool {
        let identifier = "\(name.utf8.count)\(name)"
        var rest = symbol[...]
        while let found = rest.range(of: identifier) {
            let before = symbol[..<found.lowerBound].last
            if before.map({ !$0.isNumber }) ?? true { return true }
            rest = rest[found.upperBound...]
        }
        return false
    }

    /// The batch files (`scenarios-K.swift`, by K) whose objects a linker's place names: the
    /// driver names an object after its source (`scenarios-K-<random>.o`).
    static func batchFiles(in place: String) -> Set<Int> {
        var files = Set<Int>()
        for word in place.split(whereSeparator: { " \t\n:()".contains($0) }) where word.hasSuffix(".o") {
            let name = word.split(separator: "/").last ?? word
            guard name.hasPrefix(ScenarioProgram.batchFilePrefix) else { continue }
            let digits = name.dropFirst(ScenarioProgram.batchFilePrefix.count).prefix { $0.isASCII && $0.isNumber }
            let after = name.dropFirst(ScenarioProgram.batchFilePrefix.count + digits.count)
            if let number = Int(digits), after.hasPrefix("-") || after.hasPrefix(".") { files.insert(number) }
        }
        return files
    }
}
