import CourseModel
import Processes

/// Watches a scenario program run, and stops it when the scenario under way runs past its time
/// or prints past the output cap.
///
/// A batch program writes only frames on its standard output (see `ScenarioProgram`): where a
/// scenario begins, what it printed on each stream, how its process ended. A program of one
/// scenario has no frames: its whole output is that scenario's, and it begins when the program
/// starts.
struct ScenarioWatcher: ChildWatcher {
    enum Stop: Equatable {
        case timedOut, outputCapped
        /// The launcher stopped the program at a limit.
        case limit(ScenarioLimit)
    }

    let timeLimit: Duration
    let outputCap: Int
    /// The limits the program runs under, or nil when it runs under none (no launcher).
    let limits: ScenarioLimits?
    private let isSingle: Bool
    private var frames = FrameStream()
    private var outputs: [Int: [UInt8]] = [:]
    private var errors: [Int: [UInt8]] = [:]
    /// How each scenario's process ended, for those that did.
    private(set) var endings: [Int: Termination] = [:]
    /// The scenarios that ended, in order.
    private(set) var ended: [Int] = []
    /// The program broke the frame protocol: what it wrote cannot be trusted.
    private(set) var garbled = false
    /// How long each scenario that ended ran, from its begin frame to its end frame.
    private var ranFor: [Int: Duration] = [:]

    /// The scenario under way and when it began.
    private(set) var current: (index: Int, start: ContinuousClock.Instant)?
    /// When the program started or last ended a scenario: nothing else should take long
    /// between scenarios, so the time limit runs from here too.
    private var quietSince = ContinuousClock.now
    private(set) var stop: Stop?

    /// A watcher for a batch program.
    init(timeLimit: Duration, outputCap: Int, limits: ScenarioLimits? = nil) {
        self.timeLimit = timeLimit
        self.outputCap = outputCap
        self.limits = limits
        isSingle = false
    }

    /// A watcher for a program of one scenario, which begins now.
    init(single index: Int, timeLimit: Duration, outputCap: Int, limits: ScenarioLimits? = nil) {
        self.timeLimit = timeLimit
        self.outputCap = outputCap
        self.limits = limits
        isSingle = true
        current = (index, ContinuousClock.now)
    }

    var deadline: ContinuousClock.Instant? { (current?.start ?? quietSince) + timeLimit }

    mutating func deadlinePassed() { stop = .timedOut }

    mutating func launcherStopped(atLimit name: String) {
        guard let limits, stop == nil else { return }
        switch name {
        case "memory": stop = .limit(.memory(bytes: limits.memory))
        case "processes": stop = .limit(.processes(count: limits.processes))
        case "files": stop = .limit(.openFiles(count: limits.openFiles))
        default:
            if name.hasPrefix("space ") {
                stop = .limit(.temporarySpace(folder: String(name.dropFirst(6)), bytes: limits.temporarySpace))
            }
        }
    }

    mutating func received(_ bytes: ArraySlice<UInt8>, from stream: ChildStream,
                           at time: ContinuousClock.Instant) -> Bool {
        if isSingle {
            guard let index = current?.index else { return true }
            switch stream {
            case .standardOutput: Self.keep(bytes, as: index, in: &outputs, cap: outputCap)
            case .standardError: Self.keep(bytes, as: index, in: &errors, cap: outputCap)
            }
            return !overCap()
        }
        // A batch program's own standard error holds nothing of a scenario's.
        guard stream == .standardOutput else { return true }
        guard let found = frames.append(bytes) else {
            garbled = true
            return false
        }
        for frame in found {
            switch frame.kind {
            case .begin:
                current = (frame.index, time)
            case .output:
                Self.keep(frame.payload[...], as: frame.index, in: &outputs, cap: outputCap)
            case .errors:
                Self.keep(frame.payload[...], as: frame.index, in: &errors, cap: outputCap)
            case .end:
                guard let ending = Self.termination(frame.payload) else {
                    garbled = true
                    return false
                }
                endings[frame.index] = ending
                ended.append(frame.index)
                if let current, current.index == frame.index { ranFor[frame.index] = time - current.start }
                current = nil
                quietSince = time
            }
        }
        return !overCap()
    }

    /// Keeps bytes of one scenario's stream; past the cap (and a little more, to know that it
    /// was passed) the rest is dropped.
    private static func keep(_ bytes: ArraySlice<UInt8>, as index: Int, in streams: inout [Int: [UInt8]], cap: Int) {
        let room = cap + 1 - (streams[index]?.count ?? 0)
        guard room > 0 else { return }
        streams[index, default: []] += bytes.prefix(room)
    }

    private mutating func overCap() -> Bool {
        guard let current, (outputs[current.index]?.count ?? 0) > outputCap else { return false }
        stop = .outputCapped
        return true
    }

    /// `e0`, `e3`: the exit status; `s4`: the signal.
    static func termination(_ payload: [UInt8]) -> Termination? {
        guard let kind = payload.first, let number = Int32(String(decoding: payload.dropFirst(), as: UTF8.self)) else {
            return nil
        }
        switch kind {
        case UInt8(ascii: "e"): return .exited(number)
        case UInt8(ascii: "s"): return .signaled(number)
        default: return nil
        }
    }

    /// What each scenario that began in this run came to, given how the program ended. The
    /// scenarios named for the program that are missing here never began: the program was
    /// stopped (or died) before them.
    func outcomes(after termination: Termination) -> [Int: ScenarioOutcome] {
        var outcomes: [Int: ScenarioOutcome] = [:]
        for index in ended {
            let output = text(outputs[index] ?? []), standardError = text(errors[index] ?? [])
            let ending = endings[index] ?? .exited(0)
            outcomes[index] = ending.isSuccess
                ? .completed(output: output, standardError: standardError, fromCache: false)
                : crashed(ending, output: output, standardError: standardError)
        }
        guard let current else { return outcomes }
        let printed = text(Array((outputs[current.index] ?? []).prefix(outputCap)))
        let standardError = text(Array((errors[current.index] ?? []).prefix(outputCap)))
        switch stop {
        case .timedOut:
            outcomes[current.index] = .timedOut(limit: timeLimit, output: printed, standardError: standardError)
        case .outputCapped:
            outcomes[current.index] = .outputCapped(cap: outputCap, output: printed, standardError: standardError)
        case .limit(let limit):
            outcomes[current.index] = .limitReached(limit, output: printed, standardError: standardError)
        case nil:
            if isSingle && termination.isSuccess {
                outcomes[current.index] = .completed(output: printed, standardError: standardError, fromCache: false)
            } else {
                let how = garbled ? Termination.exited(-1) : termination
                outcomes[current.index] = crashed(how, output: printed, standardError: standardError)
            }
        }
        return outcomes
    }

    /// A scenario that did not end well: crashed, or (a signal after the Swift runtime's own
    /// "failed to allocate" message) out of memory under its limit, which the kernel holds each
    /// process to without telling anyone.
    private func crashed(_ ending: Termination, output: String, standardError: String) -> ScenarioOutcome {
        if let limits, case .signaled = ending, standardError.contains(Self.allocationFailure) {
            return .limitReached(.memory(bytes: limits.memory), output: output, standardError: standardError)
        }
        return .crashed(ending, output: output, standardError: standardError)
    }

    /// What the Swift runtime prints when an allocation fails ("Fatal error: failed to allocate
    /// 1073741856 bytes of memory with alignment 8").
    static let allocationFailure = "Fatal error: failed to allocate "

    /// How long each scenario of this run ran; one still under way (stopped, or a program of
    /// one scenario) until now.
    func durations() -> [Int: Duration] {
        var durations = ranFor
        if let current { durations[current.index] = ContinuousClock.now - current.start }
        return durations
    }

    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}

/// The frames of a batch program's standard output: `RS kind index SP length RS` and then
/// `length` bytes of payload. Lengths are counted by the batch program, so no byte a scenario
/// prints is ever read as a frame.
struct FrameStream {
    enum Kind: UInt8 {
        case begin = 0x42   // B
        case output = 0x4F  // O
        case errors = 0x45  // E
        case end = 0x58     // X
    }

    struct Frame: Equatable {
        var kind: Kind
        var index: Int
        var payload: [UInt8]
    }

    /// Bytes of a frame not yet complete.
    private var pending: [UInt8] = []
    /// Headers are short: a longer one is not a header.
    static let longestHeader = 48

    /// Adds bytes and returns the frames they complete, in order; nil when the stream breaks
    /// the protocol.
    mutating func append(_ bytes: ArraySlice<UInt8>) -> [Frame]? {
        pending += bytes
        var frames: [Frame] = []
        var start = 0
        while start < pending.count {
            guard pending[start] == 0x1E else { return nil }
            let searchEnd = min(pending.count, start + Self.longestHeader)
            guard let close = pending[(start + 1)..<searchEnd].firstIndex(of: 0x1E) else {
                if pending.count - start >= Self.longestHeader { return nil }
                break
            }
            let header = pending[(start + 1)..<close]
            guard let kindByte = header.first, let kind = Kind(rawValue: kindByte),
                  let space = header.firstIndex(of: UInt8(ascii: " ")),
                  let index = Int(String(decoding: header[(header.startIndex + 1)..<space], as: UTF8.self)),
                  let length = Int(String(decoding: header[(space + 1)...], as: UTF8.self)), length >= 0 else {
                return nil
            }
            let payloadStart = close + 1
            guard pending.count - payloadStart >= length else { break }
            frames.append(Frame(kind: kind, index: index, payload: Array(pending[payloadStart..<payloadStart + length])))
            start = payloadStart + length
        }
        pending.removeFirst(start)
        return frames
    }

    /// Whether the stream stopped in the middle of a frame.
    var isCut: Bool { !pending.isEmpty }
}
