// The batching fixture's core without its Glibc (a program alone then links no libm): a class
// whose deinit prints, mutable global state, an error type, a struct that prints its type name.

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
