@testable import BackgroundWork
import Synchronization
import Testing

/// Work on every core: results in the order of the elements, each element transformed once.
struct BackgroundWorkTests {
    @Test func resultsKeepTheOrderOfTheElements() {
        let numbers = Array(0..<2_000)
        #expect(numbers.concurrentMap { $0 * 3 + 1 } == numbers.map { $0 * 3 + 1 })
        #expect([7].concurrentMap { $0 + 1 } == [8])
        #expect([Int]().concurrentMap { $0 + 1 } == [])
    }

    @Test func eachElementIsTransformedOnce() {
        let calls = Atomic<Int>(0)
        let seen = Array(0..<500).concurrentMap { element -> Int in
            calls.add(1, ordering: .relaxed)
            return element
        }
        #expect(calls.load(ordering: .relaxed) == 500)
        #expect(Set(seen).count == 500)
    }
}
