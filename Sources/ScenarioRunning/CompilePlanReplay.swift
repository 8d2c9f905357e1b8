import CourseFiles
import Processes
import Foundation
import Synchronization

/// Replaying the driver's plan of a compile (see `CompilePlan`): the frontend jobs, the
/// autolink extraction and the link, run as the driver would have run them.
extension SwiftCompiler {
    /// The compile by the driver's own plan, without the driver (see `CompilePlan`): the
    /// frontend jobs `jobs` at a time, autolink extraction, the linker. Nil when the driver
    /// must run instead: no plan can be had, a tool cannot start, a frontend crashed, the
    /// extraction or the link failed (the driver then says so in its own words).
    func replay(_ arguments: [String], sources: [String], output: String, workingDirectory: String,
                        jobs: Int, deadline: ContinuousClock.Instant?, plans: CompilePlanStore,
                        failedLink: inout LinkerCommand?) -> Ran? {
        var template = Array(arguments)
        for (index, word) in template.enumerated() {
            if let source = sources.firstIndex(of: word) {
                template[index] = "\u{1}source \(source) \((word as NSString).lastPathComponent)"
            } else if word == output {
                template[index] = "\u{1}output \((word as NSString).lastPathComponent)"
            }
        }
        let key = ([executable, stamp, driverEnvironment] + template).joined(separator: "\u{0}")
        guard let folder = makeScratchFolder(prefix: workingDirectory + "/objects-") else { return nil }
        defer { try? FileManager.default.removeItem(atPath: folder) }

        guard let learned = learnedPlan(key, arguments, sources: sources, output: output,
                                        workingDirectory: workingDirectory, deadline: deadline, plans: plans),
              let plan = learned.replacing(sources: sources, output: output, temporaryFolder: folder) else { return nil }
        let printed: Ran
        switch runFrontends(plan, jobs: jobs, workingDirectory: workingDirectory, deadline: deadline) {
        case .driversToReport: return nil
        case .failed(let failure): return failure
        case .compiled(let ran): printed = ran
        }
        guard let libraries = libraries(plan, workingDirectory: workingDirectory, deadline: deadline, plans: plans),
              let linked = link(plan, libraries: libraries, folder: folder, output: output, workingDirectory: workingDirectory,
                                deadline: deadline, plans: plans, failedLink: &failedLink) else { return nil }
        if linked.outOfMemory { return linked }
        var done = printed
        done.standardOutput += linked.standardOutput
        done.standardError += linked.standardError
        plans.replayedCompiles.add(1, ordering: .relaxed)
        return done
    }

    /// The driver's plan for these arguments: learned before (`plans`), or asked of the
    /// driver now (`-###`) and kept.
    private func learnedPlan(_ key: String, _ arguments: [String], sources: [String], output: String,
                             workingDirectory: String, deadline: ContinuousClock.Instant?,
                             plans: CompilePlanStore) -> CompilePlan? {
        if let known = plans.compilePlan(key) { return known }
        guard let listing = run([executable] + arguments + ["-###"], in: workingDirectory, until: deadline),
              listing.termination.isSuccess,
              let plan = CompilePlan.read(String(decoding: listing.standardOutput, as: UTF8.self),
                                          sources: sources, output: output) else { return nil }
        plans.keep(plan, as: key)
        return plan
    }

    /// How a replay's frontend jobs ended.
    private enum FrontendsRun {
        /// Every job compiled; what they printed, in the driver's order.
        case compiled(Ran)
        /// A job failed as a compile fails (errors, a time or memory limit): what they printed.
        case failed(Ran)
        /// A job could not start, or crashed: the driver runs instead and says so in its words.
        case driversToReport
    }

    /// The frontends, `jobs` at a time in the driver's order; after a failure no new one
    /// starts (as the driver does), and what every started job printed is kept in order.
    private func runFrontends(_ plan: CompilePlan, jobs: Int, workingDirectory: String,
                              deadline: ContinuousClock.Instant?) -> FrontendsRun {
        let ran = Locked<[Ran?]>(Array(repeating: nil, count: plan.frontends.count))
        let next = Atomic<Int>(0)
        let failed = Atomic<Bool>(false)
        let unstartable = Atomic<Bool>(false)
        let work: @Sendable () -> Void = {
            while !failed.load(ordering: .relaxed) {
                let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard index < plan.frontends.count else { return }
                guard let job = self.run(plan.frontends[index], in: workingDirectory, until: deadline) else {
                    unstartable.store(true, ordering: .relaxed)
                    failed.store(true, ordering: .relaxed)
                    return
                }
                if !job.termination.isSuccess || job.timedOut || job.outOfMemory { failed.store(true, ordering: .relaxed) }
                ran.withLock { $0[index] = job }
            }
        }
        let helpers = (1..<min(jobs, plan.frontends.count)).map { _ in Background(work) }
        work()
        for helper in helpers { helper.wait() }
        let frontends = ran.withLock { $0 }.compactMap { $0 }
        if unstartable.load(ordering: .relaxed) { return .driversToReport }
        let printed = Ran(termination: .exited(0), standardOutput: frontends.flatMap(\.standardOutput),
                          standardError: frontends.flatMap(\.standardError), timedOut: frontends.contains(where: \.timedOut),
                          outOfMemory: frontends.contains(where: \.outOfMemory))
        guard failed.load(ordering: .relaxed) else { return .compiled(printed) }
        // A crash is the driver's to report, in its words (one at the memory limit is ours).
        if frontends.contains(where: { if case .signaled = $0.termination { !$0.timedOut && !$0.outOfMemory } else { false } }) {
            return .driversToReport
        }
        var failure = printed
        failure.termination = frontends.first(where: { !$0.termination.isSuccess })?.termination ?? .exited(1)
        if case .exited = failure.termination { failure.termination = .exited(1) }
        return .failed(failure)
    }

    /// The libraries the objects ask for: the tool's answer for the same sections, or the
    /// tool's run; nil when it cannot be had.
    private func libraries(_ plan: CompilePlan, workingDirectory: String, deadline: ContinuousClock.Instant?,
                           plans: CompilePlanStore) -> [UInt8]? {
        let sections = plan.autolinkInputs.map(AutolinkSections.read(objectAt:))
        let autolinkKey = sections.contains(where: { $0 == nil }) ? nil
            : ([stamp] + sections.map { Data($0!).base64EncodedString() }).joined(separator: "\u{0}")
        if let autolinkKey, let known = plans.autolink(autolinkKey) {
            let libraries = Array(known.utf8)
            guard (try? writeAtomically(libraries, to: plan.autolinkFile, keepingPermissions: false)) != nil else { return nil }
            return libraries
        }
        guard let extracted = run(plan.autolink, in: workingDirectory, until: deadline),
              extracted.termination.isSuccess, !extracted.timedOut,
              let written = readFile(atPath: plan.autolinkFile) else { return nil }
        if let autolinkKey { plans.keep(autolink: String(decoding: written, as: UTF8.self), as: autolinkKey) }
        return written
    }

    /// The linker, as `clang` would run it for this link and these libraries; nil when the
    /// link failed, which is the driver's to report, in its words (and `clang`'s). The
    /// linker's command is then learned anew next time, in case the system's libraries moved.
    private func link(_ plan: CompilePlan, libraries: [UInt8], folder: String, output: String, workingDirectory: String,
                      deadline: ContinuousClock.Instant?, plans: CompilePlanStore,
                      failedLink: inout LinkerCommand?) -> Ran? {
        let linkKey = ([stamp, driverEnvironment] + plan.link.map { LinkerCommand.mark($0, temporaryFolder: folder, output: output) }
                       + [String(decoding: libraries, as: UTF8.self)]).joined(separator: "\u{0}")
        var linker = plans.linker(linkKey)
        if linker == nil,
           let listing = run(plan.link + ["-###"], in: workingDirectory, until: deadline), listing.termination.isSuccess,
           let command = LinkerCommand.read(String(decoding: listing.standardError, as: UTF8.self),
                                            temporaryFolder: folder, output: output) {
            plans.keep(command, as: linkKey)
            linker = command
        }
        let linked = linker.flatMap { run($0.command(temporaryFolder: folder, output: output), in: workingDirectory, until: deadline) }
        if let linked, linked.outOfMemory { return linked }
        guard let linked, linked.termination.isSuccess, !linked.timedOut else {
            // A link killed by a cancellation says nothing about the command.
            if cancellation?.isCancelled != true { plans.forgetLinker(linkKey) }
            if let linker, let linked, case .exited(let status) = linked.termination, status != 0, !linked.timedOut {
                failedLink = linker
            }
            return nil
        }
        return linked
    }
}
