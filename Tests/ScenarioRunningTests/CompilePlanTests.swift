@testable import Processes
@testable import ScenarioRunning
import CourseModel
import Foundation
import TestSupport
import Testing

/// The driver's plan, learned once and replayed: the programs and the messages are the
/// driver's own. These compile real programs with the toolchain's `swiftc`.
struct CompilePlanTests {
    let corePath = packageRoot.appendingPathComponent("Sources/Invalidation/Invalidation.swift").path

    /// A compiler that replays (plans kept in `planFile`, or in memory), and one that always
    /// runs the driver.
    func compilers(planFile: String? = nil) throws -> (replaying: SwiftCompiler, driver: SwiftCompiler) {
        let replaying = try SwiftCompiler.locate(versionCache: nil, planCache: planFile)
        var driver = replaying
        driver.plans = nil
        return (replaying, driver)
    }

    /// Writes `main.swift` into a folder of its own and compiles it with the core.
    func compile(_ code: String, with compiler: SwiftCompiler, in folder: URL, _ name: String) -> (CompileResult, String) {
        let place = folder.appendingPathComponent(name).path
        try? FileManager.default.createDirectory(atPath: place, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: place + "/main.swift", contents: Data(code.utf8))
        let result = compiler.compile(sources: [place + "/main.swift", corePath], output: place + "/program",
                                      workingDirectory: place, jobs: 2)
        return (result, place + "/program")
    }

    func output(of program: String) throws -> String {
        var watcher = CollectingWatcher(timeLimit: .seconds(10))
        _ = try ChildProcess(executable: program, arguments: []).run(watching: &watcher)
        return String(decoding: watcher.standardOutput, as: UTF8.self)
    }

    @Test func aReplayedCompileMakesTheDriversProgramAndLearnsOnce() throws {
        let folder = temporaryFolder("plan-replay")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (replaying, driver) = try compilers()
        let code = "import Foundation\nlet tree = ViewTree(nodes: [ViewNode(\"A\", parent: nil, reads: [\"k\"])], storage: [\"k\": .state(owner: \"A\")])\ncountCauses(tree.change(\"c\", key: \"k\"))\nprint(String(format: \"%.1f\", 2.5))\n"
        let (byDriver, driverProgram) = compile(code, with: driver, in: folder, "driver")
        #expect(byDriver.succeeded, "\(byDriver.transcript)")
        for attempt in 1...3 {
            let (replayed, program) = compile(code, with: replaying, in: folder, "replay-\(attempt)")
            #expect(replayed.succeeded, "\(replayed.transcript)")
            #expect(try output(of: program) == (try output(of: driverProgram)))
        }
        // Learned from the driver and `clang` once; the tool's answer for these objects too.
        #expect(replaying.plans?.learnedCompiles.load(ordering: .relaxed) == 1)
        #expect(replaying.plans?.learnedLinks.load(ordering: .relaxed) == 1)
        #expect(replaying.plans?.learnedAutolinks.load(ordering: .relaxed) == 1)
        #expect(replaying.plans?.replayedCompiles.load(ordering: .relaxed) == 3)
        // The objects are gone with the compile: only the program is left.
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("replay-1").path)
        #expect(left.sorted() == ["main.swift", "program"])
    }

    /// `COURSEBOOK_COMPILE_REPLAY=off` runs the driver for every compile: nothing is learned or
    /// replayed, and the program is the same.
    @Test func replayingCanBeTurnedOff() throws {
        #expect(SwiftCompiler.replaysDriverPlans([:]))
        #expect(SwiftCompiler.replaysDriverPlans(["COURSEBOOK_COMPILE_REPLAY": "on"]))
        #expect(!SwiftCompiler.replaysDriverPlans(["COURSEBOOK_COMPILE_REPLAY": "off"]))
        let folder = temporaryFolder("plan-replay-off")
        defer { try? FileManager.default.removeItem(at: folder) }
        var off = try compilers().replaying
        off.replaysDriverPlans = false
        for attempt in 1...2 {
            let (result, program) = compile("print(\"off \\(\(attempt))\")\n", with: off, in: folder, "off-\(attempt)")
            #expect(result.succeeded, "\(result.transcript)")
            #expect(try output(of: program) == "off \(attempt)\n")
        }
        #expect(off.plans?.learnedCompiles.load(ordering: .relaxed) == 0)
        #expect(off.plans?.replayedCompiles.load(ordering: .relaxed) == 0)
    }

    /// A plan is learned again when the environment the driver reads changes (PATH finds the
    /// linker, SDKROOT and SWIFT_* steer the driver), not when anything else does.
    @Test func thePlansKeyHoldsWhatTheDriverReads() {
        let base = ["PATH": "/usr/bin:/bin", "HOME": "/root", "TMPDIR": "/tmp"]
        let key = SwiftCompiler.driverEnvironment(base, sandboxed: false)
        #expect(key == "PATH=/usr/bin:/bin")
        #expect(SwiftCompiler.driverEnvironment(base.merging(["HOME": "/home/a", "TMPDIR": "/var/tmp"]) { $1 }, sandboxed: false) == key)
        for (name, value) in [("PATH", "/opt/bin:/usr/bin"), ("SDKROOT", "/sdk"), ("SWIFT_DRIVER_SWIFT_FRONTEND_EXEC", "/x"),
                              ("LD_LIBRARY_PATH", "/lib/x"), ("LIBRARY_PATH", "/lib/y"), ("CPATH", "/inc")] {
            #expect(SwiftCompiler.driverEnvironment(base.merging([name: value]) { $1 }, sandboxed: false) != key, "\(name)")
        }
        // In the sandbox the driver sees a fixed environment, whatever coursebook's is.
        #expect(SwiftCompiler.driverEnvironment(base, sandboxed: true)
                == SwiftCompiler.driverEnvironment(["PATH": "/elsewhere"], sandboxed: true))
    }

    /// In the compiler's sandbox the plan replays too (every job it runs finds the files it
    /// names: the core, the dynamic loader the link names through /lib64), and makes the same
    /// program.
    @Test func aSandboxedCompileIsReplayedToo() throws {
        let folder = temporaryFolder("plan-sandboxed")
        defer { try? FileManager.default.removeItem(at: folder) }
        var (replaying, driver) = try compilers(planFile: folder.appendingPathComponent("cache/plans").path)
        let placement = Sandbox.resolve(.required, runtimeFolder: replaying.runtimeFolder, hidden: [], memo: nil)
        guard placement.sandbox != nil else { Issue.record("no sandbox here: \(placement)"); return }
        replaying.confinement = CompilerConfinement(placement: placement, limits: ScenarioLimits())
        let code = "let tree = ViewTree(nodes: [ViewNode(\"A\", parent: nil, reads: [\"k\"])], storage: [\"k\": .state(owner: \"A\")])\nprint(countCauses(tree.change(\"c\", key: \"k\")))\n"
        let (byDriver, driverProgram) = compile(code, with: driver, in: folder, "driver")
        #expect(byDriver.succeeded, "\(byDriver.transcript)")
        for attempt in 1...3 {
            let (replayed, program) = compile(code, with: replaying, in: folder, "replay-\(attempt)")
            #expect(replayed.succeeded, "\(replayed.transcript)")
            #expect(try output(of: program) == (try output(of: driverProgram)))
        }
        #expect(replaying.plans?.replayedCompiles.load(ordering: .relaxed) == 3)
    }

    @Test func plansOutliveTheProcessInTheirFile() throws {
        let folder = temporaryFolder("plan-file")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("plans").path
        let first = try compilers(planFile: file).replaying
        #expect(compile("print(1)\n", with: first, in: folder, "a").0.succeeded)
        #expect(first.plans?.learnedCompiles.load(ordering: .relaxed) == 1)
        let second = try compilers(planFile: file).replaying
        let (result, program) = compile("print(2)\n", with: second, in: folder, "b")
        #expect(result.succeeded)
        #expect(try output(of: program) == "2\n")
        #expect(second.plans?.learnedCompiles.load(ordering: .relaxed) == 0)
        #expect(second.plans?.learnedLinks.load(ordering: .relaxed) == 0)
        #expect(second.plans?.replayedCompiles.load(ordering: .relaxed) == 1)
        #expect(first.plans?.writeProblem == nil && second.plans?.writeProblem == nil)
    }

    /// Plans that cannot be kept (a file stands where their folder would be; a full disk is
    /// the same to them) leave the compile as it was, and the store says why, once.
    @Test func plansThatCannotBeKeptAreSaid() throws {
        let folder = temporaryFolder("plan-file-blocked")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data().write(to: folder.appendingPathComponent("file"))
        let blocked = try compilers(planFile: folder.appendingPathComponent("file/plans").path).replaying
        let (result, program) = compile("print(3)\n", with: blocked, in: folder, "c")
        #expect(result.succeeded)
        #expect(try output(of: program) == "3\n")
        #expect(blocked.plans?.writeProblem == "cannot make \(folder.path)/file: Not a directory", "\(blocked.plans?.writeProblem ?? "none")")
        // Where the folder is there and the file's name a folder holds, the write is what fails.
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("plans/inside"), withIntermediateDirectories: true)
        let taken = try compilers(planFile: folder.appendingPathComponent("plans").path).replaying
        #expect(compile("print(4)\n", with: taken, in: folder, "d").0.succeeded)
        #expect(taken.plans?.writeProblem == "cannot write \(folder.path)/plans: Is a directory", "\(taken.plans?.writeProblem ?? "none")")
    }

    /// A type error and a failed link read as the driver's: the same diagnostics, the same
    /// exit status, and for the link the driver's and `clang`'s own words.
    @Test func failuresReadAsTheDriversDo() throws {
        let folder = temporaryFolder("plan-failures")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (replaying, driver) = try compilers()
        // Learn the plan with a program that compiles, so that the failures are replayed.
        #expect(compile("print(0)\n", with: replaying, in: folder, "learn").0.succeeded)
        let typeError = "let x: Int = \"a\"\nprint(undefinedThing)\n"
        let unresolved = "@_silgen_name(\"coursebook_nowhere\") func nowhere()\nnowhere()\n"
        for (index, code) in [typeError, unresolved].enumerated() {
            let (byDriver, _) = compile(code, with: driver, in: folder, "driver-\(index)")
            let (replayed, _) = compile(code, with: replaying, in: folder, "replay-\(index)")
            #expect(!replayed.succeeded)
            #expect(replayed.termination == byDriver.termination)
            #expect(replayed.diagnostics.map(\.message) == byDriver.diagnostics.map(\.message))
            if index == 1 {
                // The failed link drops the linker's command: the next link learns it anew.
                #expect(replaying.plans?.learnedLinks.load(ordering: .relaxed) == 1)
                #expect(compile("print(3)\n", with: replaying, in: folder, "relearn").0.succeeded)
                #expect(replaying.plans?.learnedLinks.load(ordering: .relaxed) == 2)
                #expect(replayed.transcript.contains("coursebook_nowhere"))
                #expect(replayed.transcript.contains("linker command failed"), "\(replayed.transcript)")
                #expect(replayed.transcript.contains("link command failed"), "\(replayed.transcript)")
            } else {
                #expect(replayed.diagnostics.map(\.line) == [1, 2])
            }
        }
    }

    /// The batch runner is compiled once (by the toolchain's clang) and kept beside the plans:
    /// a batch's `main.swift` then only declares it, and a second process finds the object.
    @Test func theBatchRunnerIsCompiledOnceAndLinked() throws {
        let folder = temporaryFolder("plan-runner")
        defer { try? FileManager.default.removeItem(at: folder) }
        // A cache folder that does not exist yet (a fresh machine) is made.
        let file = folder.appendingPathComponent("cache/plans").path
        let first = try compilers(planFile: file).replaying
        let elsewhere = folder.appendingPathComponent("batch").path
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        let object = try first.runnerObject(source: ScenarioProgram.runnerSource, orIn: elsewhere).get()
        #expect(object.hasPrefix(folder.path + "/cache/CoursebookBatchRunner-") && object.hasSuffix(".o"))
        var made = stat()
        #expect(stat(object, &made) == 0)
        let second = try compilers(planFile: file).replaying
        #expect(try second.runnerObject(source: ScenarioProgram.runnerSource, orIn: elsewhere).get() == object)
        var found = stat()
        #expect(stat(object, &found) == 0 && found.st_mtim.tv_nsec == made.st_mtim.tv_nsec && found.st_ino == made.st_ino)
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty)
        // Without a store it is compiled into the batch's folder; C that does not compile gives none.
        let driver = try compilers().driver
        #expect(try driver.runnerObject(source: ScenarioProgram.runnerSource, orIn: elsewhere).get() == elsewhere + "/coursebook-batch-runner.o")
        guard case .failure(let failure) = driver.runnerObject(source: "this is not C", orIn: elsewhere) else {
            Issue.record("C that does not compile gave an object")
            return
        }
        #expect(failure.reason.hasPrefix("\(driver.clang) ended with exit status 1: coursebook-batch-runner.c:1:1: error:"), "\(failure.reason)")
        // A store that cannot take the object (here its folder is a file; a full disk is the
        // same to it): the batch's folder has it, each time, and batches are still made.
        // (clang removed the object its failed compile would have written over.)
        #expect(access(elsewhere + "/coursebook-batch-runner.o", F_OK) != 0)
        let blocked = folder.appendingPathComponent("blocked")
        try Data().write(to: blocked)
        let full = try compilers(planFile: blocked.path + "/plans").replaying
        #expect(try full.runnerObject(source: ScenarioProgram.runnerSource, orIn: elsewhere).get() == elsewhere + "/coursebook-batch-runner.o")
        #expect(access(elsewhere + "/coursebook-batch-runner.o", R_OK) == 0)

        let runner = ScenarioRunner(compiler: second, coreFiles: [], settings: RunSettings(), cache: nil)
        let main = try #require(runner.batchProgram([(0, ScenarioSource(code: "print(1)\n", file: "a.md", firstLine: 3, columnOffsets: [0]))]).last)
        #expect(main.name == "main.swift")
        #expect(main.contents.contains("@_silgen_name(\"coursebook_batch_start\")"))
        #expect(!main.contents.contains("fork()") && !main.contents.contains("import"))
    }

    @Test func shellWordsReadTheDriversAndClangsQuoting() {
        #expect(ShellWords.split("/bin/tool -c 'ma'\\''in.swift' -o 'pro gram'") == ["/bin/tool", "-c", "ma'in.swift", "-o", "pro gram"])
        #expect(ShellWords.split(#" "/usr/bin/ld.gold" "-o" "a \"b\" \\c \d" "@x""#) == ["/usr/bin/ld.gold", "-o", #"a "b" \c \d"#, "@x"])
        #expect(ShellWords.split("a 'open") == nil)
        #expect(ShellWords.split("a\\ b  c") == ["a b", "c"])
    }

    @Test func aPlanIsReadOnlyWhenItIsTheExpectedShape() {
        let listing = """
        /t/swift-frontend -frontend -c -primary-file /w/main.swift /c/Core.swift -o /tmp/TD.1/main-1.o
        /t/swift-frontend -frontend -c /w/main.swift -primary-file /c/Core.swift -o /tmp/TD.1/Core-1.o
        /t/swift-autolink-extract /tmp/TD.1/main-1.o /tmp/TD.1/Core-1.o -o /tmp/TD.1/main-2.autolink
        /t/clang -pie /tmp/TD.1/main-1.o /tmp/TD.1/Core-1.o @/tmp/TD.1/main-2.autolink -o /w/program
        """
        let plan = CompilePlan.read(listing, sources: ["/w/main.swift", "/c/Core.swift"], output: "/w/program")
        #expect(plan?.temporaryFolder == "/tmp/TD.1")
        #expect(plan?.autolinkInputs == ["/tmp/TD.1/main-1.o", "/tmp/TD.1/Core-1.o"])
        let moved = plan?.replacing(sources: ["/v/main.swift", "/c/Core.swift"], output: "/v/program", temporaryFolder: "/v/objects")
        #expect(moved?.frontends[0] == ["/t/swift-frontend", "-frontend", "-c", "-primary-file", "/v/main.swift", "/c/Core.swift", "-o", "/v/objects/main-1.o"])
        #expect(moved?.link == ["/t/clang", "-pie", "/v/objects/main-1.o", "/v/objects/Core-1.o", "@/v/objects/main-2.autolink", "-o", "/v/program"])
        // Other file names make other objects: that plan is not this one.
        #expect(plan?.replacing(sources: ["/v/other.swift", "/c/Core.swift"], output: "/v/program", temporaryFolder: "/v/o") == nil)
        // A job the replay does not know, or one frontend short: the driver runs.
        #expect(CompilePlan.read(listing.replacingOccurrences(of: "/t/clang", with: "/t/swift-driver"),
                                 sources: ["/w/main.swift", "/c/Core.swift"], output: "/w/program") == nil)
        #expect(CompilePlan.read(listing, sources: ["/w/main.swift"], output: "/w/program") == nil)
    }

    /// The sections the tool reads, from a real object: a program that imports Foundation asks
    /// for more libraries than one that does not.
    @Test func autolinkSectionsAreReadFromObjects() throws {
        let folder = temporaryFolder("plan-autolink")
        defer { try? FileManager.default.removeItem(at: folder) }
        let compiler = try SwiftCompiler.locate(versionCache: nil)
        func sections(_ code: String, _ name: String) throws -> String {
            let source = folder.appendingPathComponent("\(name).swift").path
            FileManager.default.createFile(atPath: source, contents: Data(code.utf8))
            var watcher = CollectingWatcher(timeLimit: .seconds(120))
            let object = folder.appendingPathComponent("\(name).o").path
            _ = try ChildProcess(executable: compiler.executable, arguments: ["-c", source, "-o", object, "-module-name", name])
                .run(watching: &watcher)
            let read = try #require(AutolinkSections.read(objectAt: object))
            return String(decoding: read, as: UTF8.self)
        }
        let plain = try sections("print(1)\n", "plain")
        let foundation = try sections("import Foundation\nprint(Date())\n", "withFoundation")
        #expect(plain.contains("-lswiftCore\u{0}"))
        #expect(!plain.contains("-lFoundation\u{0}"))
        #expect(foundation.contains("-lFoundation\u{0}"))
        #expect(AutolinkSections.read(Array("not an object".utf8)) == nil)
    }

    /// A made-up object: only sections of exactly that name count, in order; a cut file is
    /// not read at all.
    @Test func autolinkSectionsAreFoundByTheirWholeName() {
        func little(_ value: Int, _ size: Int) -> [UInt8] { (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        let names = Array("\0.shstrtab\0.swift1_autolink_entries\0.swift1_autolink_entriesX\0".utf8)
        let contents: [[UInt8]] = [names, Array("-lA\0-lB\0".utf8), Array("-lZ\0".utf8), Array("-lC\0".utf8)]
        // name offsets in `names`, and each section's type (1 progbits, 3 string table)
        let sections: [(name: Int, type: Int)] = [(1, 3), (11, 1), (36, 1), (11, 1)]
        var body: [UInt8] = []
        var placed: [(offset: Int, size: Int)] = []
        for content in contents {
            placed.append((64 + body.count, content.count))
            body += content
        }
        let tableOffset = 64 + body.count
        var header = [0x7F, 0x45, 0x4C, 0x46, 2, 1, 1] + [UInt8](repeating: 0, count: 64 - 7)
        header.replaceSubrange(0x28..<0x30, with: little(tableOffset, 8))
        header.replaceSubrange(0x3A..<0x3C, with: little(64, 2))
        header.replaceSubrange(0x3C..<0x3E, with: little(contents.count + 1, 2))
        header.replaceSubrange(0x3E..<0x40, with: little(1, 2))
        var table = [UInt8](repeating: 0, count: 64)  // section 0 is empty
        for (section, place) in zip(sections, placed) {
            var entry = [UInt8](repeating: 0, count: 64)
            entry.replaceSubrange(0..<4, with: little(section.name, 4))
            entry.replaceSubrange(4..<8, with: little(section.type, 4))
            entry.replaceSubrange(24..<32, with: little(place.offset, 8))
            entry.replaceSubrange(32..<40, with: little(place.size, 8))
            table += entry
        }
        // The string table is section 1: the header above names index 1, and section 0 is empty.
        let object = header + body + table
        #expect(AutolinkSections.read(object).map { String(decoding: $0, as: UTF8.self) } == "-lA\0-lB\0\0-lC\0\0")
        #expect(AutolinkSections.read(Array(object.prefix(object.count - 30))) == nil)
    }
}
