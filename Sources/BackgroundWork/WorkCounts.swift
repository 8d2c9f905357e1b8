import Synchronization

/// How much parsing one command did: tests read these to show that a lesson is parsed once
/// per command and that an unchanged Swift block is not parsed at all. Counts, not timings.
package final class WorkCounts: Sendable {
    /// cmark-gfm parses of a lesson.
    package let markdownParses = Atomic<Int>(0)
    /// SwiftParser parses of a Swift block.
    package let swiftParses = Atomic<Int>(0)
    /// Scenarios whose change diagrams were drawn anew (not found in the store).
    package let diagramsDrawn = Atomic<Int>(0)
    /// Batches compiled while the scenarios were being read, on a guess of their shapes: those
    /// that ran, and those the shapes disagreed with.
    package let batchesAheadUsed = Atomic<Int>(0)
    package let batchesAheadDropped = Atomic<Int>(0)

    package init() {}
}
