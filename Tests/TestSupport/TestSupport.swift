import Foundation

/// The package's root folder, found from this file.
public let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

/// A fresh folder under the system's temporary folder; the caller removes it.
public func temporaryFolder(_ name: String) -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("coursebook-tests-\(name)-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// The fixture courses, one folder per case.
public let fixtures = packageRoot.appendingPathComponent("Tests/Fixtures")

/// Gives a copied course the repository's classifier as its core: a copy inside the course
/// (a course reads no file outside its repository, and a scratch folder is its own), and a
/// course.json that names it.
public func giveInvalidationCore(to course: URL, title: String = "Fixture") throws {
    let core = packageRoot.appendingPathComponent("Sources/Invalidation/Invalidation.swift")
    let copy = course.appendingPathComponent("Invalidation.swift")
    try? FileManager.default.removeItem(at: copy)
    try FileManager.default.copyItem(at: core, to: copy)
    try #"{ "title": "\#(title)", "language": "en", "core": ["Invalidation.swift"] }"#
        .write(to: course.appendingPathComponent("course.json"), atomically: true, encoding: .utf8)
}
