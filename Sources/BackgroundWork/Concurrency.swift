import Dispatch

extension Array where Element: Sendable {
    /// The elements transformed on every core at once, results in the same order. For work
    /// that is independent per element (a lesson, a Swift block, a page).
    package func concurrentMap<T: Sendable>(_ transform: @Sendable (Element) -> T) -> [T] {
        guard count > 1 else { return map(transform) }
        let results = UnsafeMutableBufferPointer<T?>.allocate(capacity: count)
        results.initialize(repeating: nil)
        defer { results.deinitialize(); results.deallocate() }
        nonisolated(unsafe) let slots = results
        self.withUnsafeBufferPointer { elements in
            nonisolated(unsafe) let input = elements
            DispatchQueue.concurrentPerform(iterations: input.count) { index in
                slots[index] = transform(input[index])
            }
        }
        return results.map { $0! }
    }
}
