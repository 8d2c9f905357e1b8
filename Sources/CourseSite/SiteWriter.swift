import CourseFiles
import CourseModel
import Foundation
import Synchronization

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
/// stays as it was until the new one is complete. Builds of one destination take turns (a lock
/// file beside it), and each repairs what a build killed before it left: a destination moved
/// aside and never replaced comes back, staging folders are removed.
package enum SiteWriter {
    /// Written into every site, with the list of the files coursebook put there: a folder
    /// without it, or with files it does not list, is not replaced.
    package static let marker = ".coursebook-site"

    /// Refuses a destination that would destroy something other than an earlier site: the
    /// course folder, a folder that contains it, a repository root, a file, a symbolic link,
    /// the cache folder (or one that contains it or is inside it), or a folder that coursebook
    /// did not write or that holds files it did not write.
    package static func validate(destination: String, course: Course, cacheFolder: String? = nil) throws(SiteWriteError) {
        let out = resolved(destination)
        let courseFolder = resolved(course.folderPath)
        func refuse(_ message: String) -> SiteWriteError { SiteWriteError(folder: destination, message: message) }
        if out == "/" { throw refuse("refusing to write a site at the root of the file system") }
        if isSymbolicLink(URL(fileURLWithPath: destination).standardizedFileURL.path) {
            throw refuse("this is a symbolic link, and a build replaces --out whole; give the folder it points to, or another --out")
        }
        if out == courseFolder { throw refuse("this is the course folder; choose another --out") }
        if courseFolder.hasPrefix(out + "/") { throw refuse("this folder contains the course; choose another --out") }
        if let cacheFolder {
            let cache = resolved(cacheFolder)
            if out == cache { throw refuse("this is the cache folder (--cache-dir); choose another --out") }
            if cache.hasPrefix(out + "/") { throw refuse("this folder contains the cache folder (\(cacheFolder)); choose another --out") }
            if out.hasPrefix(cache + "/") { throw refuse("this folder is inside the cache folder (\(cacheFolder)); choose another --out") }
        }
        if FileManager.default.fileExists(atPath: out + "/.git") || out == repositoryRoot(of: courseFolder) {
            throw refuse("this is a repository root; choose another --out")
        }
        try replaceable(out, as: destination)
    }

    /// Whether the folder at `out` may be replaced whole: absent, empty, or a site coursebook
    /// wrote that holds nothing it did not write.
    static func replaceable(_ out: String, as destination: String) throws(SiteWriteError) {
        func refuse(_ message: String) -> SiteWriteError { SiteWriteError(folder: destination, message: message) }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: out, isDirectory: &isFolder) else { return }
        guard isFolder.boolValue else { throw refuse("a file is in the way; --out needs a folder") }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []
        if entries.isEmpty { return }
        guard entries.contains(marker) else {
            throw refuse("the folder exists and coursebook did not write it; remove it or choose another --out")
        }
        guard let written = writtenFiles(out) else { return }
        let foreign = foreignFiles(in: out, written: written)
        if !foreign.isEmpty {
            let shown = foreign.prefix(3).joined(separator: ", ") + (foreign.count > 3 ? " and \(foreign.count - 3) more" : "")
            throw refuse("the site holds files coursebook did not write (\(shown)); a build would delete them: move them out, or choose another --out")
        }
    }

    /// The files a site's marker lists; nil for a marker that lists none (a site written
    /// before markers listed their files), whose folder is taken as coursebook's.
    static func writtenFiles(_ out: String) -> Set<ExactName>? {
        guard let bytes = readFile(atPath: out + "/" + marker) else { return [] }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
        guard lines.first == SiteStaging.markerHeading else { return nil }
        return Set(lines.dropFirst().filter { !$0.hasPrefix(BuildMark.linePrefix) }.map { ExactName($0) })
    }

    /// Everything in `out` (sorted, relative paths) that is neither a listed file nor a folder
    /// on the way to one: files, links, folders of the author's.
    private static func foreignFiles(in out: String, written: Set<ExactName>) -> [String] {
        // By bytes: a file of the author's whose name only looks like one coursebook wrote
        // (another Unicode spelling of it) is the author's.
        var folders: Set<ExactName> = []
        for file in written {
            var parts = file.text.split(separator: "/").dropLast()
            while !parts.isEmpty {
                folders.insert(ExactName(parts.joined(separator: "/")))
                parts = parts.dropLast()
            }
        }
        var foreign: [String] = []
        var pending = [""]
        while let folder = pending.popLast() {
            let path = folder.isEmpty ? out : out + "/" + folder
            for name in ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() {
                let relative = folder.isEmpty ? name : folder + "/" + name
                var info = stat()
                guard lstat(out + "/" + relative, &info) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFDIR where folders.contains(ExactName(relative)): pending.append(relative)
                case S_IFREG where written.contains(ExactName(relative)) || relative == marker: break
                default: foreign.append(relative)
                }
            }
        }
        return foreign.sorted()
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

    private static func isSymbolicLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
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

    /// Repairs what a killed build left beside `destination`, under its lock: a build whose
    /// check then fails still leaves the site in place. Nothing to do when the folder that
    /// would hold the destination does not exist.
    package static func recover(destination: String) throws(SiteWriteError) {
        let out = URL(fileURLWithPath: destination).standardizedFileURL
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: out.deletingLastPathComponent().path, isDirectory: &isFolder),
              isFolder.boolValue else { return }
        let lock = try SiteLock(beside: out, destination: destination)
        defer { lock.release() }
        try repair(out, as: destination)
    }

    /// What a build killed before this one left beside `out` (the caller holds the lock, so no
    /// other build is writing): a site moved aside whose replacement never came is put back;
    /// staging folders and sites moved aside after a completed swap are removed. Only what a
    /// build of this user made is touched (see `BuildMark`): anything else under those names
    /// (a folder or a link committed to the repository) is refused, never adopted or removed.
    static func repair(_ out: URL, as destination: String) throws(SiteWriteError) {
        let parent = out.deletingLastPathComponent()
        let name = out.lastPathComponent
        let entries = ((try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? []).sorted()
        var staged: [String] = []
        var previous: [String] = []
        for entry in entries {
            let isStaging = entry.hasPrefix(".\(name).coursebook-new-")
            guard isStaging || entry.hasPrefix(".\(name).coursebook-old-") else { continue }
            let path = parent.appendingPathComponent(entry).path
            if let foreign = BuildMark.whyNotLeftByABuild(path) {
                throw SiteWriteError(folder: destination, message: "\(escapingControls(path)) was not left by a coursebook build of this user (\(foreign)); a build neither puts it in place nor removes it: remove it yourself, or choose another --out")
            }
            if isStaging { staged.append(entry) } else { previous.append(entry) }
        }
        for entry in staged { try? FileManager.default.removeItem(at: parent.appendingPathComponent(entry)) }
        var info = stat()
        if lstat(out.path, &info) != 0, errno == ENOENT {
            // The newest copy moved aside is the site that was in place when the kill came.
            let newest = previous.max { modified(parent.appendingPathComponent($0).path) < modified(parent.appendingPathComponent($1).path) }
            if let newest, rename(parent.appendingPathComponent(newest).path, out.path) == 0 {
                previous.removeAll { $0 == newest }
            }
        }
        for entry in previous { try? FileManager.default.removeItem(at: parent.appendingPathComponent(entry)) }
    }

    private static func modified(_ path: String) -> Int {
        var info = stat()
        guard lstat(path, &info) == 0 else { return 0 }
        return Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec)
    }
}

/// The lock that makes builds of one destination take turns: `flock` on a file beside it
/// (`.NAME.coursebook-lock`), held from the staging folder's creation to the swap's end. The
/// system releases it when the process ends, however it ends. The file stays: removing it
/// would let two builds hold locks on two different files.
final class SiteLock: @unchecked Sendable {
    private var descriptor: Int32

    init(beside out: URL, destination: String) throws(SiteWriteError) {
        let path = out.deletingLastPathComponent().appendingPathComponent(".\(out.lastPathComponent).coursebook-lock").path
        // Never through a link (a committed link would make the build create a file where it
        // points) and never waiting on a pipe; and it must be a plain file of this user's with
        // no other name. Nothing is ever written into it, so one committed as an empty file
        // is only a lock.
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0o644)
        guard descriptor >= 0 else {
            let why = errno == ELOOP ? "it is a symbolic link" : errno == EISDIR ? "it is a folder" : String(cString: strerror(errno))
            throw SiteWriteError(folder: destination, message: "cannot use the lock file \(escapingControls(path)): \(why); remove it, or choose another --out")
        }
        var info = stat()
        if fstat(descriptor, &info) != 0 || info.st_mode & S_IFMT != S_IFREG || info.st_uid != geteuid() || info.st_nlink != 1 {
            let why = info.st_mode & S_IFMT != S_IFREG ? "it is \(FileReadFailure.kind(ofMode: info.st_mode) ?? "not a file")"
                : info.st_uid != geteuid() ? "it belongs to another user" : "it has another name too (a hard link)"
            close(descriptor)
            descriptor = -1
            throw SiteWriteError(folder: destination, message: "cannot use the lock file \(escapingControls(path)): \(why), not a lock file coursebook made; remove it, or choose another --out")
        }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                descriptor = -1
                throw SiteWriteError(folder: destination, message: "cannot lock \(path): \(reason)")
            }
        }
    }

    func release() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
    }

    deinit { release() }
}

/// A site being written: files go into a new folder beside the destination as they are made,
/// and `commit()` swaps it in with renames, so that a reader or a failed build never sees half a
/// site and an existing site stays as it was until the new one is complete. It holds the
/// destination's lock from its creation until `commit()` or `discard()`.
package final class SiteStaging: SiteSink, @unchecked Sendable {
    /// The marker's first line; the files of the site follow, one a line.
    static let markerHeading = "written by coursebook; 'coursebook build' replaces this folder whole; the files it wrote:"

    private let destination: String
    private let out: URL
    private let staging: URL
    private let previous: URL
    private let lock: SiteLock

    /// The staging folder, for a program that adds to the site before it is swapped in (the
    /// search index).
    package var folder: String { staging.path }

    /// Takes the destination's lock (waiting for another build to finish), repairs what a
    /// killed build left, and creates the staging folder beside `destination`.
    package init(destination: String) throws(SiteWriteError) {
        self.destination = destination
        out = URL(fileURLWithPath: destination).standardizedFileURL
        let parent = out.deletingLastPathComponent()
        let tag = "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        staging = parent.appendingPathComponent(".\(out.lastPathComponent).coursebook-new-\(tag)")
        previous = parent.appendingPathComponent(".\(out.lastPathComponent).coursebook-old-\(tag)")
        do throws(FileWriteError) {
            try makeFolders(parent.path)
        } catch {
            throw SiteWriteError(folder: destination, message: "cannot write the site: cannot make \(parent.path): \(error.reason)")
        }
        lock = try SiteLock(beside: out, destination: destination)
        do {
            try SiteWriter.repair(out, as: destination)
            try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: false)
            Interruption.hold(staging.path)
            // Marked at once, so that a build killed from here on leaves a folder the next one
            // knows for its own.
            try writeNewFile(Array(Self.markerText(files: [], folder: staging.path).utf8),
                             to: staging.appendingPathComponent(SiteWriter.marker).path)
        } catch let error as SiteWriteError {
            lock.release()
            throw error
        } catch {
            try? FileManager.default.removeItem(at: staging)
            Interruption.release(staging.path)
            lock.release()
            throw SiteWriteError(folder: destination, message: "cannot write the site: \(error.localizedDescription)")
        }
    }

    /// The marker's text: its heading, the build's mark for `folder` (see `BuildMark`; none
    /// without a key to make it with), and the files of the site.
    static func markerText(files: [String], folder: String) -> String {
        let mark = BuildMark.line(forFolder: folder)
        return ([markerHeading] + (mark.map { [$0] } ?? []) + files).joined(separator: "\n") + "\n"
    }

    package func add(_ file: SiteFile) throws(SiteWriteError) {
        let path = try stagedPath(file.path)
        do {
            try writeNewFile(file.bytes, to: path)
        } catch {
            throw failure(error)
        }
    }

    /// Writes the copy into the staging folder's `SearchCopy.folder`, and keeps its digest.
    package func addSearchCopy(_ file: SiteFile) throws(SiteWriteError) {
        let path = try stagedPath(SearchCopy.folder + "/" + file.path)
        do {
            try writeNewFile(file.bytes, to: path)
        } catch {
            throw failure(error)
        }
        var hash = SHA256()
        hash.update(file.bytes)
        let digest = hash.finalize()
        copied.withLock { $0[file.path] = digest }
    }

    /// The search copies written (`addSearchCopy`), by path inside `SearchCopy.folder`, with
    /// the SHA-256 of each.
    package var searchCopies: [String: String] { copied.withLock { $0 } }
    private let copied = Locked<[String: String]>([:])

    /// Removes the search copies, before the site is put in place.
    package func removeSearchCopies() {
        try? FileManager.default.removeItem(at: staging.appendingPathComponent(SearchCopy.folder))
    }

    /// Writes the file straight into the staging folder, a chunk at a time.
    package func addStreamed(path: String, _ produce: ((String) -> Void) -> Void) throws(SiteWriteError) {
        let staged = try stagedPath(path)
        let file: NewFile
        do {
            file = try NewFile(path: staged)
        } catch {
            throw failure(error)
        }
        defer { file.close() }
        let writer = ChunkedWriter { chunk throws(SiteWriteError) in
            do throws(FileWriteError) { try file.write(chunk) } catch { throw self.failure(error) }
        }
        produce(writer.write)
        try writer.finish()
    }

    /// Where a file of the site is staged, its folder made.
    private func stagedPath(_ path: String) throws(SiteWriteError) -> String {
        precondition(!path.hasPrefix("/") && !path.split(separator: "/").contains(".."),
                     "site file outside the site: \(path)")
        let url = staging.appendingPathComponent(path)
        if path.contains("/") {
            do {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            } catch {
                throw failure(error)
            }
        }
        return url.path
    }

    private func failure(_ error: any Error) -> SiteWriteError {
        SiteWriteError(folder: destination, message: "cannot write the site: \(error.localizedDescription)")
    }

    /// Puts the staged site in place of the destination: the marker (with the list of files)
    /// last, then the old site aside, the new one in, the old one removed. A stop (Ctrl-C)
    /// waits for both renames, so that the destination is never left missing.
    package func commit() throws(SiteWriteError) {
        defer { lock.release() }
        func fail(_ message: String) -> SiteWriteError { SiteWriteError(folder: destination, message: message) }
        // Every file staged, including those another program (the search indexer) put there.
        let files = Self.files(under: staging.path).filter { $0 != SiteWriter.marker }
        do {
            try writeAtomically(Array(Self.markerText(files: files, folder: staging.path).utf8),
                                to: staging.appendingPathComponent(SiteWriter.marker).path, keepingPermissions: false)
        } catch {
            discard()
            throw fail("cannot write the site: \(error)")
        }
        // Another build may have changed the destination while this one ran: judged again, under
        // the lock.
        do {
            try SiteWriter.replaceable(out.path, as: destination)
        } catch {
            discard()
            throw error
        }
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

    /// The files under `folder`, as sorted paths relative to it (folders are not listed).
    static func files(under folder: String) -> [String] {
        var files: [String] = []
        var pending = [""]
        while let relative = pending.popLast() {
            let path = relative.isEmpty ? folder : folder + "/" + relative
            for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
                let entry = relative.isEmpty ? name : relative + "/" + name
                var info = stat()
                guard lstat(folder + "/" + entry, &info) == 0 else { continue }
                if info.st_mode & S_IFMT == S_IFDIR { pending.append(entry) } else { files.append(entry) }
            }
        }
        return files.sorted()
    }

    /// Removes what was staged; the destination is untouched. The lock is released.
    package func discard() {
        try? FileManager.default.removeItem(at: staging)
        Interruption.release(staging.path)
        lock.release()
    }
}

/// What tells the folders a build of this user made beside `--out` (a staging folder, a site
/// moved aside) from folders of the same names that someone else put there: a pull request can
/// commit `._site.coursebook-old-x/` or a link of that name, and a checkout makes it with this
/// user's name on it, so neither the name nor the owner says who made it. A build's folder
/// carries in its marker (`.coursebook-site`) a line `mark HEX`: an HMAC, under the key that
/// signs the cache (`CacheSecret`, which no course holds), of the folder's device, inode and
/// owner. Renames keep the inode, so the mark stays true from staging folder to site to site
/// moved aside; a copied, committed or forged folder has another inode or no key to sign with.
enum BuildMark {
    static let linePrefix = "mark "

    /// The marker line for the folder at `path` as it is now; nil without a key.
    static func line(forFolder path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return mark(info).map { linePrefix + $0 }
    }

    private static func mark(_ folder: stat) -> String? {
        guard case .success(let secret) = CacheSecret.machine else { return nil }
        let identity = "coursebook build folder\n\(folder.st_dev)\n\(folder.st_ino)\n\(folder.st_uid)\n"
        return SHA256.hmac(key: secret.bytes, message: Array(identity.utf8))
    }

    /// Why the entry at `path` is not a folder a build of this user left; nil when it is one.
    /// Read without following a link and without opening anything but a folder and a plain
    /// file in it.
    static func whyNotLeftByABuild(_ path: String) -> String? {
        let folder = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard folder >= 0 else {
            var info = stat()
            guard lstat(path, &info) == 0 else { return String(cString: strerror(errno)) }
            return "it is \(FileReadFailure.kind(ofMode: info.st_mode) ?? "a file"), not a folder"
        }
        defer { close(folder) }
        var info = stat()
        guard fstat(folder, &info) == 0 else { return String(cString: strerror(errno)) }
        guard info.st_uid == geteuid() else { return "it belongs to another user" }
        guard let expected = mark(info) else { return "there is no key to tell a build's folder by" }
        let markerFile = openat(folder, SiteWriter.marker, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard markerFile >= 0 else { return "it has no marker of a build" }
        defer { close(markerFile) }
        var markerInfo = stat()
        guard fstat(markerFile, &markerInfo) == 0, markerInfo.st_mode & S_IFMT == S_IFREG else {
            return "its marker is not a plain file"
        }
        // The heading and the mark are the first two lines: a few hundred bytes are enough.
        var bytes = [UInt8](repeating: 0, count: 512)
        let count = read(markerFile, &bytes, bytes.count)
        let lines = String(decoding: bytes.prefix(max(count, 0)), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count >= 2, lines[0] == SiteStaging.markerHeading, lines[1] == linePrefix + expected else {
            return "it does not carry the mark of a build here"
        }
        return nil
    }
}
