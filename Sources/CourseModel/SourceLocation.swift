/// A place in a course file, as a person reads it: the file's path as the author named it,
/// a 1-based line and a 1-based column (counted in UTF-8 bytes, as compilers do).
package struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible, Codable {
    package var file: String
    package var line: Int
    package var column: Int

    package init(file: String, line: Int, column: Int = 1) {
        self.file = file
        self.line = line
        self.column = column
    }

    package var description: String { "\(file):\(line):\(column)" }

    package static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }
}
