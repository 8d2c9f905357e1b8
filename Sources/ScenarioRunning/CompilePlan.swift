import CourseFiles
import CourseModel
import Foundation
import Synchronization

/// The commands one `swiftc` compile runs, as the driver itself lists them (`-###`): a frontend
/// job per source file, `swift-autolink-extract`, and the link through `clang`, which in turn
/// runs the linker.
///
/// The driver takes 80 ms to plan even the smallest program and `clang` 35 ms to hand over to
/// the linker, while an edited scenario compiles in 300 ms. So the plan is learned once per
/// compiler and file names, kept in `CompilePlanStore`, and replayed: the same commands, with
/// the same arguments, in a temporary folder of our own. The program is the one the driver
/// would have made (only the bytes the driver itself varies from run to run, a build id and a
/// module hash, differ). Whatever the replay cannot reproduce exactly (a frontend that
/// crashes, a tool that cannot start, a link that fails) is left to the driver, whose own
/// messages then stand.
package struct CompilePlan: Sendable, Codable, Equatable {
    /// One frontend job per source file, in the driver's order.
    package var frontends: [[String]]
    /// `swift-autolink-extract`: the libraries the objects ask for, into a response file.
    package var autolink: [String]
    /// The link through `clang`.
    package var link: [String]
    /// The driver's temporary folder in these commands.
    package var temporaryFolder: String
    /// The sources and the output the driver was given.
    package var sources: [String]
    package var output: String

    /// Reads the driver's `-###` listing; nil unless it is exactly one frontend job per source,
    /// then autolink extraction, then one link, all in one temporary folder.
    package static func read(_ listing: String, sources: [String], output: String) -> CompilePlan? {
        var jobs: [[String]] = []
        for line in listing.split(separator: "\n") where !line.allSatisfy(\.isWhitespace) {
            guard let words = ShellWords.split(line), !words.isEmpty else { return nil }
            jobs.append(words)
        }
        func tool(_ job: [String]) -> String { (job[0] as NSString).lastPathComponent }
        guard jobs.count == sources.count + 2, !sources.isEmpty else { return nil }
        let frontends = Array(jobs.prefix(sources.count))
        let autolink = jobs[sources.count], link = jobs[sources.count + 1]
        guard frontends.allSatisfy({ tool($0) == "swift-frontend" && $0.count > 2 && $0[1] == "-frontend" && $0[2] == "-c" }),
              tool(autolink) == "swift-autolink-extract", tool(link) == "clang",
              let extracted = argument(after: "-o", in: autolink) else { return nil }
        let temporaryFolder = (extracted as NSString).deletingLastPathComponent
        guard temporaryFolder.hasPrefix("/"), temporaryFolder.count > 1,
              frontends.allSatisfy({ argument(after: "-o", in: $0).map { $0.hasPrefix(temporaryFolder + "/") } ?? false }),
              link.contains("@" + extracted),
              sources.allSatisfy({ source in frontends.allSatisfy { $0.contains(source) } }),
              argument(after: "-o", in: link) == output else { return nil }
        return CompilePlan(frontends: frontends, autolink: autolink, link: link,
                           temporaryFolder: temporaryFolder, sources: sources, output: output)
    }

    /// The same plan for other sources of the same names (the objects are named after them),
    /// another output, and another temporary folder; nil when the names differ.
    package func replacing(sources newSources: [String], output newOutput: String,
                           temporaryFolder newFolder: String) -> CompilePlan? {
        guard newSources.count == sources.count,
              zip(sources, newSources).allSatisfy({ ($0 as NSString).lastPathComponent == ($1 as NSString).lastPathComponent }),
              (output as NSString).lastPathComponent == (newOutput as NSString).lastPathComponent else { return nil }
        var whole = Dictionary(zip(sources, newSources), uniquingKeysWith: { first, _ in first })
        whole[output] = newOutput
        let prefix = temporaryFolder + "/"
        func replaced(_ job: [String]) -> [String] {
            job.map { word in
                if let new = whole[word] { return new }
                if let range = word.range(of: prefix) { return word.replacingCharacters(in: range, with: newFolder + "/") }
                return word
            }
        }
        return CompilePlan(frontends: frontends.map(replaced), autolink: replaced(autolink), link: replaced(link),
                           temporaryFolder: newFolder, sources: newSources, output: newOutput)
    }

    /// The response file autolink extraction writes and the link reads.
    var autolinkFile: String { Self.argument(after: "-o", in: autolink)! }

    /// The objects autolink extraction reads, in order.
    var autolinkInputs: [String] {
        var inputs: [String] = []
        var words = autolink.dropFirst().makeIterator()
        while let word = words.next() {
            if word == "-o" { _ = words.next() } else { inputs.append(word) }
        }
        return inputs
    }

    static func argument(after flag: String, in job: [String]) -> String? {
        guard let index = job.firstIndex(of: flag), index + 1 < job.count else { return nil }
        return job[index + 1]
    }
}

/// The command `clang` runs to link, as it lists it (`-###`, with the response file already
/// read), with the link's temporary folder and output as placeholders.
package struct LinkerCommand: Sendable, Codable, Equatable {
    package var words: [String]

    static let folderMark = "\u{1}folder\u{1}"
    static let outputMark = "\u{1}output\u{1}"

    /// Reads `clang -###`: nil unless it lists exactly one job, a linker.
    package static func read(_ listing: String, temporaryFolder: String, output: String) -> LinkerCommand? {
        let jobs = listing.split(separator: "\n").filter { $0.hasPrefix(" \"") }
        guard jobs.count == 1, let words = ShellWords.split(jobs[0]), let first = words.first,
              (first as NSString).lastPathComponent.hasPrefix("ld") else { return nil }
        return LinkerCommand(words: words.map { mark($0, temporaryFolder: temporaryFolder, output: output) })
    }

    /// The command for a link in `temporaryFolder` that writes `output`.
    package func command(temporaryFolder: String, output: String) -> [String] {
        words.map { word in
            word == Self.outputMark ? output : word.replacingOccurrences(of: Self.folderMark, with: temporaryFolder)
        }
    }

    static func mark(_ word: String, temporaryFolder: String, output: String) -> String {
        if word == output { return outputMark }
        return word.replacingOccurrences(of: temporaryFolder + "/", with: folderMark + "/")
    }
}

/// The `.swift1_autolink_entries` sections of an ELF object: all that `swift-autolink-extract`
/// reads of it. Its answer for the same sections is the same, so it is kept by them
/// (`CompilePlanStore`) and the tool runs once per set of libraries, not once per compile.
package enum AutolinkSections {
    /// The sections' contents, in order, each followed by a NUL; nil when the file is not a
    /// 64-bit little-endian ELF object this reader understands (the tool then runs).
    package static func read(objectAt path: String) -> [UInt8]? {
        guard let bytes = readFile(atPath: path) else { return nil }
        return read(bytes)
    }

    package static func read(_ bytes: [UInt8]) -> [UInt8]? {
        func integer<T: FixedWidthInteger>(_ type: T.Type, at offset: Int) -> T? {
            guard offset >= 0, offset + MemoryLayout<T>.size <= bytes.count else { return nil }
            var value: T = 0
            for index in (0..<MemoryLayout<T>.size).reversed() { value = value << 8 | T(bytes[offset + index]) }
            return value
        }
        guard bytes.count >= 64, bytes[0..<4].elementsEqual([0x7F, 0x45, 0x4C, 0x46]), bytes[4] == 2, bytes[5] == 1,
              let tableOffset = integer(UInt64.self, at: 0x28), let entrySize = integer(UInt16.self, at: 0x3A),
              let count = integer(UInt16.self, at: 0x3C), let namesIndex = integer(UInt16.self, at: 0x3E),
              count > 0, entrySize >= 40, namesIndex < count, tableOffset < UInt64(bytes.count) else { return nil }
        func section(_ index: Int) -> (name: UInt32, type: UInt32, offset: Int, size: Int)? {
            let start = Int(tableOffset) + index * Int(entrySize)
            guard let name = integer(UInt32.self, at: start), let type = integer(UInt32.self, at: start + 4),
                  let offset = integer(UInt64.self, at: start + 24), let size = integer(UInt64.self, at: start + 32),
                  offset <= UInt64(bytes.count), size <= UInt64(bytes.count) - offset else { return nil }
            return (name, type, Int(offset), Int(size))
        }
        guard let names = section(Int(namesIndex)) else { return nil }
        let wanted = Array(".swift1_autolink_entries".utf8)
        var found: [UInt8] = []
        for index in 0..<Int(count) {
            guard let current = section(index) else { return nil }
            let nameStart = names.offset + Int(current.name)
            guard current.name < names.size, nameStart + wanted.count < bytes.count,
                  bytes[nameStart..<nameStart + wanted.count].elementsEqual(wanted) else { continue }
            guard bytes[nameStart + wanted.count] == 0 else { continue }
            // SHT_NOBITS holds nothing in the file.
            if current.type != 8 { found += bytes[current.offset..<current.offset + current.size] }
            found.append(0)
        }
        return found
    }
}

/// Splits a command line as a POSIX shell would: words separated by blanks, with single
/// quotes, double quotes and backslashes; nil when a quote is left open. (The driver and
/// `clang` quote what they list so that a shell can run it.)
package enum ShellWords {
    package static func split(_ line: some StringProtocol) -> [String]? {
        var words: [String] = []
        var word = "", inWord = false
        var iterator = line.makeIterator()
        while let character = iterator.next() {
            switch character {
            case " ", "\t":
                if inWord { words.append(word); word = ""; inWord = false }
            case "'":
                inWord = true
                while true {
                    guard let next = iterator.next() else { return nil }
                    if next == "'" { break }
                    word.append(next)
                }
            case "\"":
                inWord = true
                while true {
                    guard let next = iterator.next() else { return nil }
                    if next == "\"" { break }
                    if next == "\\" {
                        guard let escaped = iterator.next() else { return nil }
                        if !"\"\\$`".contains(escaped) { word.append("\\") }
                        word.append(escaped)
                    } else {
                        word.append(next)
                    }
                }
            case "\\":
                guard let escaped = iterator.next() else { return nil }
                inWord = true
                word.append(escaped)
            default:
                inWord = true
                word.append(character)
            }
        }
        if inWord { words.append(word) }
        return words
    }
}

/// Learned plans, by compiler and file names, kept in a file of the user's cache (never in a
/// course's folder: they are commands this tool runs) so that the next command finds them.
package final class CompilePlanStore: Sendable {
    private struct Contents: Codable {
        var compiles: [String: CompilePlan] = [:]
        /// The frontend's command of a type-check, by the driver's arguments (optional: a file
        /// written before type-checks were kept reads as having none).
        var typeChecks: [String: [String]]? = [:]
        var linkers: [String: LinkerCommand] = [:]
        /// What `swift-autolink-extract` wrote, by the sections it read.
        var autolinks: [String: String] = [:]
    }

    private let file: String?
    private let contents: Locked<Contents?>
    /// Objects of the tool's own libraries, by module and source, once per process: the path,
    /// clang's refusal, or nil when the store could not keep one.
    private let objects = Locked<[String: Result<String, SwiftCompiler.RunnerFailure>?]>([:])
    /// How many plans were learned from the driver and from `clang`, how many answers of
    /// `swift-autolink-extract` were kept, and how many compiles were replayed to their end
    /// (tests read them).
    package let learnedCompiles = Atomic<Int>(0)
    package let learnedLinks = Atomic<Int>(0)
    package let learnedAutolinks = Atomic<Int>(0)
    package let replayedCompiles = Atomic<Int>(0)
    private let writeFailure = Mutex<String?>(nil)
    /// Why the plans could not be kept, the first time they could not (a full disk, a folder
    /// that cannot be made): the next process asks the driver again.
    package var writeProblem: String? { writeFailure.withLock { $0 } }

    /// - Parameter file: where plans persist; nil keeps them for this process only.
    package init(file: String?) {
        self.file = file
        contents = Locked(file == nil ? Contents() : nil)
    }

    /// Where objects of the tool's own libraries are kept: beside the plans, or (plans kept in
    /// memory) in a folder of this user's own under the system's temporary folder.
    var objectFolder: String? {
        if let file {
            let folder = (file as NSString).deletingLastPathComponent
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            return folder
        }
        let folder = NSTemporaryDirectory() + "/coursebook-objects-\(getuid())"
        _ = mkdir(folder, 0o700)
        var info = stat()
        // Nobody else's folder, nor a link to one.
        guard lstat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == getuid(),
              info.st_mode & 0o077 == 0 else { return nil }
        return folder
    }

    /// The object of `key`, made by `make` the first time this process asks: its path, why
    /// it cannot be made, or nil when the store cannot keep it. Each answer is remembered for
    /// this process, except one of a cancelled compile.
    func object(_ key: String, unlessCancelled cancellation: Cancellation? = nil,
                make: () -> Result<String, SwiftCompiler.RunnerFailure>?) -> Result<String, SwiftCompiler.RunnerFailure>? {
        objects.withLock { objects in
            if let known = objects[key] { return known }
            let made = make()
            let madeIt = if case .success = made { true } else { false }
            if madeIt || cancellation?.isCancelled != true { objects[key] = .some(made) }
            return made
        }
    }

    func compilePlan(_ key: String) -> CompilePlan? { withContents { $0.compiles[key] } }
    func typeCheckJob(_ key: String) -> [String]? { withContents { $0.typeChecks?[key] } }

    func keep(typeCheck job: [String], as key: String) {
        learnedCompiles.add(1, ordering: .relaxed)
        save { $0.typeChecks = ($0.typeChecks ?? [:]).merging([key: job]) { $1 } }
    }
    func linker(_ key: String) -> LinkerCommand? { withContents { $0.linkers[key] } }
    func autolink(_ key: String) -> String? { withContents { $0.autolinks[key] } }

    func forgetLinker(_ key: String) {
        save { $0.linkers[key] = nil }
    }

    func keep(autolink: String, as key: String) {
        learnedAutolinks.add(1, ordering: .relaxed)
        save { $0.autolinks[key] = autolink }
    }

    func keep(_ plan: CompilePlan, as key: String) {
        learnedCompiles.add(1, ordering: .relaxed)
        save { $0.compiles[key] = plan }
    }

    func keep(_ linker: LinkerCommand, as key: String) {
        learnedLinks.add(1, ordering: .relaxed)
        save { $0.linkers[key] = linker }
    }

    private func withContents<T>(_ body: (inout Contents) -> T) -> T {
        contents.withLock { contents in
            if contents == nil {
                // A file that is missing or unreadable is an empty store: plans are learned anew.
                contents = file.flatMap { readFile(atPath: $0) }.flatMap { try? JSONDecoder().decode(Contents.self, from: Data($0)) }
                    ?? Contents()
            }
            return body(&contents!)
        }
    }

    private func save(_ change: (inout Contents) -> Void) {
        let bytes: [UInt8]? = withContents { contents in
            change(&contents)
            return file == nil ? nil : (try? JSONEncoder().encode(contents)).map { Array($0) }
        }
        guard let file, let bytes else { return }
        let folder = (file as NSString).deletingLastPathComponent
        do throws(FileWriteError) {
            try makeFolders(folder)
        } catch {
            failedToWrite("cannot make \(folder): \(error.reason)")
            return
        }
        do throws(FileWriteError) {
            try writeAtomically(bytes, to: file, keepingPermissions: false)
        } catch {
            failedToWrite("cannot write \(file): \(error.reason)")
        }
    }

    private func failedToWrite(_ why: String) {
        writeFailure.withLock { $0 = $0 ?? why }
    }
}
