import BackgroundWork
import CourseFiles
import CourseModel
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A program that answers requests one at a time (`coursebook read-swift`, which reads Swift
/// blocks with the toolchain's parser so that no block can hang or crash the command that asks):
/// the requests are framed in a file that is its standard input, its answers framed on its
/// standard output, each frame a length (4 bytes, little-endian) and that many bytes. Each
/// answer must come within its request's time limit; a program that takes longer is killed,
/// and one that ends (a crash) gives no answer for the request it was at. Either way that
/// request gets why, and a new program is started for the requests after it.
package struct AnsweringChild: Sendable {
    package var executable: String
    package var arguments: [String]
    package var environment: [String: String]

    package init(executable: String, arguments: [String], environment: [String: String] = [:]) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
    }

    /// Why a request got no answer.
    package enum Failure: Error, Sendable, Equatable {
        /// The program took longer than the request's time limit, and was killed.
        case tookTooLong(Duration)
        /// The program ended before it answered.
        case ended(Termination)
        /// The program could not be started (the message says why).
        case notStarted(String)
    }

    /// One answer per request, in order, from `programs` programs at once (each on a run of
    /// consecutive requests, split by their sizes), each answer within `timeLimit(request)`.
    /// `scratch` is a folder for the requests' files, which are removed.
    package func ask(_ requests: [[UInt8]], programs: Int, scratch: String,
                     timeLimit: @Sendable ([UInt8]) -> Duration) -> [Result<[UInt8], Failure>] {
        guard !requests.isEmpty else { return [] }
        let runs = Self.split(requests.map(\.count), into: max(1, programs))
        return runs.concurrentMap { run in
            ask(Array(requests[run]), scratch: scratch, timeLimit: timeLimit)
        }.flatMap { $0 }
    }

    /// Consecutive runs of about equal size, as many as `parts` (fewer when there are fewer).
    static func split(_ sizes: [Int], into parts: Int) -> [Range<Int>] {
        let total = sizes.reduce(0) { $0 + $1 + 64 }
        var runs: [Range<Int>] = []
        var start = 0, sum = 0
        for (index, size) in sizes.enumerated() {
            sum += size + 64
            let share = total * (runs.count + 1) / parts
            if sum >= share, runs.count < parts - 1 {
                runs.append(start..<(index + 1))
                start = index + 1
            }
        }
        if start < sizes.count { runs.append(start..<sizes.count) }
        return runs
    }

    /// The answers to `requests`, one program after another as they fail.
    private func ask(_ requests: [[UInt8]], scratch: String,
                     timeLimit: ([UInt8]) -> Duration) -> [Result<[UInt8], Failure>] {
        var answers: [Result<[UInt8], Failure>] = []
        while answers.count < requests.count {
            let pending = Array(requests[answers.count...])
            let input = scratch + "/requests-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            // Removed however the run ends (a stop removes what is held).
            Interruption.hold(input)
            defer {
                unlink(input)
                Interruption.release(input)
            }
            do {
                try writeNewFile(Self.frames(pending), to: input, mode: 0o600)
            } catch {
                return answers + pending.map { _ in .failure(.notStarted("cannot write its requests: \(error)")) }
            }
            var child = ChildProcess(executable: executable, arguments: arguments, environment: environment,
                                     inheritsEnvironment: false)
            child.standardInput = input
            var watcher = AnswerWatcher(limits: pending.map(timeLimit))
            let termination: Termination
            do {
                termination = try child.run(watching: &watcher)
            } catch {
                return answers + pending.map { _ in .failure(.notStarted(error.description)) }
            }
            answers += watcher.answers.prefix(pending.count).map { .success($0) }
            guard watcher.answers.count < pending.count else { break }
            // The request it was at when it ended or was killed.
            answers.append(.failure(watcher.timedOut ? .tookTooLong(watcher.limits[watcher.answers.count]) : .ended(termination)))
        }
        return answers
    }

    /// Requests (or answers) as frames.
    package static func frames(_ payloads: [[UInt8]]) -> [UInt8] {
        var bytes: [UInt8] = []
        for payload in payloads { bytes += frame(payload) }
        return bytes
    }

    package static func frame(_ payload: [UInt8]) -> [UInt8] {
        let count = UInt32(payload.count)
        return (0..<4).map { UInt8(truncatingIfNeeded: count >> (8 * $0)) } + payload
    }

    /// The whole frames at the start of `bytes`, and how many bytes they took.
    package static func unframed(_ bytes: ArraySlice<UInt8>) -> (payloads: [[UInt8]], used: Int) {
        var payloads: [[UInt8]] = []
        var index = bytes.startIndex
        while bytes.endIndex - index >= 4 {
            let count = (0..<4).reduce(0) { $0 | Int(bytes[index + $1]) << (8 * $1) }
            guard bytes.endIndex - index - 4 >= count else { break }
            payloads.append(Array(bytes[(index + 4)..<(index + 4 + count)]))
            index += 4 + count
        }
        return (payloads, index - bytes.startIndex)
    }
}

/// Takes the answers off a program's output as they come; the deadline is the current
/// request's limit from the last answer on.
private struct AnswerWatcher: ChildWatcher {
    let limits: [Duration]
    var answers: [[UInt8]] = []
    var pending: [UInt8] = []
    var lastAnswer = ContinuousClock.now
    var timedOut = false

    init(limits: [Duration]) { self.limits = limits }

    var deadline: ContinuousClock.Instant? {
        answers.count < limits.count ? lastAnswer + limits[answers.count] : nil
    }

    mutating func received(_ bytes: ArraySlice<UInt8>, from stream: ChildStream, at time: ContinuousClock.Instant) -> Bool {
        guard stream == .standardOutput else { return true }
        pending += bytes
        let (payloads, used) = AnsweringChild.unframed(pending[...])
        pending.removeFirst(used)
        if !payloads.isEmpty { lastAnswer = time }
        answers += payloads
        // More answers than requests is not a program that answers: it is stopped.
        return answers.count <= limits.count
    }

    mutating func deadlinePassed() { timedOut = true }
}
