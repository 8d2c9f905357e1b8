/// The tool's version, printed by `coursebook --version` and part of every cache key.
package enum CoursebookVersion {
    package static let current = "0.1.0"
}
