// A core with what makes batching hard: a class whose deinit prints, mutable global state, an
// error type, a struct that prints its type name.

final class Resource {
    let name: String
    init(_ name: String) { self.name = name }
    deinit { print("deinit \(name)") }
}

var sharedCount = 0

func bump() -> Int {
    sharedCount += 1
    return sharedCount
}

enum CoreError: Error { case failed, refused(String) }

struct Point { var x = 1, y = 2 }

func failing(_ shouldFail: Bool) throws -> Int {
    if shouldFail { throw CoreError.refused("no") }
    return 42
}

#if canImport(Glibc)
import Glibc
#endif

/// Ends the program where it is, as `exit` does: a scenario calls it without importing
/// anything, so it stays batched (an `import` would give it a program of its own).
func endProgram(_ status: Int32) -> Never {
    exit(status)
}
