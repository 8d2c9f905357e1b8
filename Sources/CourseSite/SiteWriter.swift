import CourseFiles
import CourseModel
import Foundation

/// Why a site cannot be written where `--out` points.
package struct SiteWriteError: Error, Equatable, CustomStringConvertible {
    package var folder: String
    package var message: String

    package var description: String { "\(folder): \(message)" }

    package init(folder: String, message: String) {
        self.folder = folder
        self.message = message
    }
}

/// Writes a site atomically: into a new folder beside the destination, then swapped in with
/// renames, so that a reader or a failed build never sees half a site and an existing site
/// stays as it was until the new one is complete.
package enum SiteWriter {
    /// Written into every site: a folder without it is not replaced.
    package static let marker = ".coursebook-site"

    /// Refuses a destination that would destroy something other than an earlier site: the
    /// course folder, a folder that contains it, a repository root, a file, or a folder that
    /// coursebook did not write.
    package static func validate(destination: String, course: Course) throws(SiteWriteError) {
        let out = resolved(destination)
        let courseFolder = resolved(course.folderPath)
        func refuse(_ message: String) -> SiteWriteError { SiteWriteError(folder: destination, message: message) }
        if out == "/" { throw refuse("refusing to write a site at the root of the file system") }
        if out == courseFolder { throw refuse("this is the course folder; choose another --out") }
        if courseFolder.hasPrefix(out + "/") { throw refuse("this folder contains the course; choose another --out") }
        if FileManager.default.fileExists(atPath: out + "/.git") || out == repositoryRoot(of: courseFolder) {
            throw refuse("this is a repository root; choose another --out")
        }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: out, isDirectory: &isFolder) {
            guard isFolder.boolValue else { throw refuse("a file is in the way; --out needs a folder") }
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []
            if !entries.isEmpty, !entries.contains(marker) {
                throw refuse("the folder exists and coursebook did not write it; remove it or choose another --out")
            }
        }
    }

    /// Writes `files` as the whole content of `destination`.
    package static func write(_ files: [SiteFile], to destination: String) throws(SiteWriteError) {
        let staging = try SiteStaging(destination: destination)
        do {
            for file in files { try staging.add(file) }
            try staging.commit()
        } catch {
            staging.discard()
            throw error
        }
    }

    private static func resolved(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// The nearest folder above `folder` (or itself) that holds `.git`.
    private static func repositoryRoot(of folder: String) -> String? {
        var url = URL(fileURLWithPath: folder)
        while url.path != "/" {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent(".git").path) { return url.path }
            url.deleteLastPathComponent()
        }
        return nil
    }
}

/// A site being written: files go into a new folder beside the destination as they are made,
/// and `commit()` swaps it in with renames, so that a reader or a failed build never sees half a
/// site and an existing site stays as it was until the new one is complete.
package final class SiteStaging: SiteSink {
    /// Written into every site: a folder without it is not replaced.
    static let markerText = "written by coursebook; 'coursebook build' replaces this folder whole\n"

    private let destination: String
    private let out: URL
    private let staging: URL
    private let previous: URL

    /// The staging folder, for a program that adds to the site before it is swapped in.
    package var folder: String { staging.path }

    /// Creates the staging folder beside `destination`.
    package init(destination: String) throws(SiteWriteError) {
        self.destination = destination
        out = URL(fileURLWithPath: destination).standardizedFileURL
        let parent = out.deletingLastPathComponent()
        let tag = "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        staging = parent.appendingPathComponent(".\(out.lastPathComponent).coursebook-new-\(tag)")
        previous = parent.appendingPathComponent(".\(out.lastPathComponent).coursebook-old-\(tag)")
        do {
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: false)
            Interruption.hold(staging.path)
        } catch {
            throw SiteWriteError(folder: destination, message: "cannot write the site: \(error.localizedDescription)")
        }
        try add(SiteFile(path: SiteWriter.marker, bytes: Array(Self.markerText.utf8)))
    }

    package func add(_ file: SiteFile) throws(SiteWriteError) {
        precondition(!file.path.hasPrefix("/") && !file.path.split(separator: "/").contains(".."),
                     "site file outside the site: \(file.path)")
        let url = staging.appendingPathComponent(file.path)
        do {
            if file.path.contains("/") {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            }
            try writeNewFile(file.bytes, to: url.path)
        } catch {
            throw SiteWriteError(folder: destination, message: "cannot write the site: \(error.localizedDescription)")
        }
    }

    /// Puts the staged site in place of the destination.
    /// Puts the staged site in place of the destination. A stop (Ctrl-C) waits for both
    /// renames, so that the destination is never left missing.
    package func commit() throws(SiteWriteError) {
        func fail(_ message: String) -> SiteWriteError { SiteWriteError(folder: destination, message: message) }
        let failure: SiteWriteError? = Interruption.uninterrupted {
            let hadSite = FileManager.default.fileExists(atPath: out.path)
            if hadSite, rename(out.path, previous.path) != 0 {
                let reason = String(cString: strerror(errno))
                discard()
                return fail("cannot move the old site aside: \(reason)")
            }
            if rename(staging.path, out.path) != 0 {
                let reason = String(cString: strerror(errno))
                if hadSite { rename(previous.path, out.path) }
                discard()
                return fail("cannot put the new site in place: \(reason)")
            }
            Interruption.release(staging.path)
            if hadSite { Interruption.hold(previous.path) }
            return nil
        }
        if let failure { throw failure }
        if FileManager.default.fileExists(atPath: previous.path) {
            try? FileManager.default.removeItem(at: previous)
            Interruption.release(previous.path)
        }
    }

    /// Removes what was staged; the destination is untouched.
    package func discard() {
        try? FileManager.default.removeItem(at: staging)
        Interruption.release(staging.path)
    }
}
