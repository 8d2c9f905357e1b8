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
