import CourseModel

/// Watches a scenario program run: splits its streams at the markers the prelude writes
/// between scenarios, and stops the program when the scenario under way runs past its time or
/// prints past the output cap. A program of one scenario has no markers: its whole output is
/// that scenario's, and it begins when the program starts.
struct ScenarioWatcher: ChildWatcher {
    enum Stop: Equatable { case timedOut, outputCapped }

    let timeLimit: Duration
    let outputCap: Int
    private let isSingle: Bool
    private var output: MarkerStream
    private var errors: MarkerStream

    /// The scenario under way and when it began.
    private(set) var current: (index: Int, start: ContinuousClock.Instant)?
    /// The scenarios that ran to their end marker.
    private(set) var ended: [Int] = []
    /// When the program started or last ended a scenario: nothing else should take long
    /// between scenarios, so the time limit runs from here too.
    private var quietSince = ContinuousClock.now
    private(set) var stop: Stop?

    /// A watcher for a batch program whose markers carry `nonce`.
    init(nonce: String, timeLimit: Duration, outputCap: Int) {
        self.timeLimit = timeLimit
        self.outputCap = outputCap
        isSingle = false
        let prefix = Array("\u{1E}coursebook-\(nonce)-".utf8)
        output = MarkerStream(prefix: prefix)
        // Standard error is not compared, only shown: past the cap it is dropped, not stopped.
        errors = MarkerStream(prefix: prefix, segmentCap: outputCap)
    }

    /// A watcher for a program of one scenario, which begins now.
    init(single index: Int, timeLimit: Duration, outputCap: Int) {
        self.timeLimit = timeLimit
        self.outputCap = outputCap
        isSingle = true
        output = MarkerStream(single: index)
        errors = MarkerStream(single: index, segmentCap: outputCap)
        current = (index, ContinuousClock.now)
    }

    var deadline: ContinuousClock.Instant? { (current?.start ?? quietSince) + timeLimit }

    mutating func deadlinePassed() { stop = .timedOut }

    mutating func received(_ bytes: ArraySlice<UInt8>, from stream: ChildStream,
                           at time: ContinuousClock.Instant) -> Bool {
        guard stream == .standardOutput else {
            _ = errors.append(bytes)
            return true
        }
        for marker in output.append(bytes) {
            switch marker.kind {
            case .begin: current = (marker.index, time)
            case .end: ended.append(marker.index); current = nil; quietSince = time
            }
        }
        if let current, output.segment(current.index).count > outputCap {
            stop = .outputCapped
            return false
        }
        return true
    }

    /// What each scenario that began in this run came to, given how the program ended. The
    /// scenarios named on its command line that are missing here never began: a scenario
    /// before them ended the program.
    func outcomes(after termination: Termination) -> [Int: ScenarioOutcome] {
        var outcomes: [Int: ScenarioOutcome] = [:]
        for index in ended {
            outcomes[index] = .completed(output: text(output.segment(index)),
                                         standardError: text(errors.segment(index)),
                                         fromCache: false)
        }
        guard let current else { return outcomes }
        let printed = text(Array(output.segment(current.index).prefix(outputCap)))
        let standardError = text(errors.segment(current.index))
        switch stop {
        case .timedOut:
            outcomes[current.index] = .timedOut(limit: timeLimit, output: printed, standardError: standardError)
        case .outputCapped:
            outcomes[current.index] = .outputCapped(cap: outputCap, output: printed, standardError: standardError)
        case nil:
            if isSingle && termination.isSuccess {
                outcomes[current.index] = .completed(output: printed, standardError: standardError, fromCache: false)
            } else {
                outcomes[current.index] = .crashed(termination, output: printed, standardError: standardError)
            }
        }
        return outcomes
    }

    /// The program has ended: bytes held back as a possible cut marker belong to the output.
    mutating func finishStreams() {
        output.finish()
        errors.finish()
    }

    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}

/// One stream of a scenario program, cut into segments at markers: the bytes after the marker
/// `begin-N` and before the next marker belong to scenario N.
struct MarkerStream {
    enum Kind { case begin, end }
    struct Marker: Equatable { var kind: Kind; var index: Int }

    private let prefix: [UInt8]?
    /// Bytes beyond this many in one segment are dropped; markers are still read.
    private let segmentCap: Int
    private var segments: [Int: [UInt8]] = [:]
    private var currentSegment: Int?
    /// The tail of the last read that may be the start of a marker cut in two.
    private var pending: [UInt8] = []

    init(prefix: [UInt8], segmentCap: Int = .max) {
        self.prefix = prefix
        self.segmentCap = segmentCap
    }

    /// A stream without markers, all of it scenario `index`'s.
    init(single index: Int, segmentCap: Int = .max) {
        prefix = nil
        self.segmentCap = segmentCap
        currentSegment = index
    }

    func segment(_ index: Int) -> [UInt8] { segments[index] ?? [] }

    /// Adds bytes and returns the markers they complete, in order.
    mutating func append(_ bytes: ArraySlice<UInt8>) -> [Marker] {
        guard let prefix else {
            keep(bytes)
            return []
        }
        pending += bytes
        var markers: [Marker] = []
        var start = 0, index = 0
        var partialFrom: Int?
        search: while let found = pending[index...].firstIndex(of: 0x1E) {
            index = found
            let rest = pending[found...]
            guard rest.count >= prefix.count else {
                if prefix.starts(with: rest) { partialFrom = found; break search }
                index += 1
                continue
            }
            guard rest.starts(with: prefix) else { index += 1; continue }
            let body = rest.dropFirst(prefix.count)
            guard let close = body.firstIndex(of: 0x1E) else {
                if body.count <= 32 { partialFrom = found; break search }
                index += 1
                continue
            }
            guard let marker = Self.marker(String(decoding: body[..<close], as: UTF8.self)) else {
                index += 1
                continue
            }
            keep(pending[start..<found])
            markers.append(marker)
            currentSegment = marker.kind == .begin ? marker.index : nil
            index = close + 1
            start = index
        }
        if let partialFrom {
            keep(pending[start..<partialFrom])
            pending.removeFirst(partialFrom)
        } else {
            keep(pending[start...])
            pending.removeAll()
        }
        return markers
    }

    /// The stream has ended: what was held back was not a marker after all.
    mutating func finish() {
        keep(pending[...])
        pending.removeAll()
    }

    private static func marker(_ word: String) -> Marker? {
        if word.hasPrefix("begin-"), let index = Int(word.dropFirst(6)) { return Marker(kind: .begin, index: index) }
        if word.hasPrefix("end-"), let index = Int(word.dropFirst(4)) { return Marker(kind: .end, index: index) }
        return nil
    }

    private mutating func keep(_ bytes: ArraySlice<UInt8>) {
        guard !bytes.isEmpty, let currentSegment else { return }
        let room = segmentCap - (segments[currentSegment]?.count ?? 0)
        guard room > 0 else { return }
        segments[currentSegment, default: []] += bytes.prefix(room)
    }
}
