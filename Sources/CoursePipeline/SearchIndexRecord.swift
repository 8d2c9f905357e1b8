internal import CourseFiles
import Foundation

/// What a search index was built from, kept beside its files (`pagefind/coursebook-index.sha256`):
/// the SHA-256 of every page Pagefind read and of every file it wrote, signed with an HMAC under
/// this user's secret (`CacheSecret`, the one that signs the cache). A build whose pages are
/// byte-for-byte those reuses the index, once the signature holds and each of its files is found
/// byte-for-byte what the record says; anything else (a changed page, a changed, missing or
/// extra index file, a record that does not read, one that another hand wrote or edited, no
/// secret) makes a new index. The record is never trusted for more than it proves.
struct SearchIndexRecord: Equatable {
    static let heading = "coursebook search index: SHA-256 of the pages it was built from and of its files, signed"
    static let signaturePrefix = "signature "

    /// This user's secret, which signs records; nil when there is none (nothing is reused).
    static var machineSecret: [UInt8]? { try? CacheSecret.machine.get().bytes }

    var pagesIndexed: Int
    /// Page paths inside the site, with their digests, in the order given.
    var pages: [(String, String)]
    /// Index files, paths inside the index folder, with their digests, sorted by path.
    var files: [(String, String)]

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.pagesIndexed == rhs.pagesIndexed && lhs.pages.elementsEqual(rhs.pages, by: ==) && lhs.files.elementsEqual(rhs.files, by: ==)
    }

    static func digest(_ bytes: [UInt8]) -> String {
        var hash = SHA256()
        hash.update(bytes)
        return hash.finalize()
    }

    var text: String {
        var lines = [Self.heading, "pages-indexed \(pagesIndexed)"]
        lines += pages.map { "page \($0.1) \($0.0)" }
        lines += files.map { "file \($0.1) \($0.0)" }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The text with its last line: the HMAC of all before it under `secret`.
    func signedText(secret: [UInt8]) -> String {
        let body = text
        return body + Self.signaturePrefix + SHA256.hmac(key: secret, message: Array(body.utf8)) + "\n"
    }

    /// The record a signed text holds, or nil when it is not one or its signature is not the
    /// one `secret` makes of it.
    init?(signedText: String, secret: [UInt8]) {
        guard signedText.hasSuffix("\n"),
              let start = signedText.dropLast().lastIndex(of: "\n").map(signedText.index(after:)) else { return nil }
        let body = String(signedText[..<start])
        let last = signedText[start...].dropLast()
        guard last.hasPrefix(Self.signaturePrefix),
              last.dropFirst(Self.signaturePrefix.count) == SHA256.hmac(key: secret, message: Array(body.utf8))[...]
        else { return nil }
        self.init(text: body)
    }

    /// The record a text holds, or nil when it is not one (a name with a line break in it
    /// cannot be recorded, so such a site's index is never reused).
    init?(text: String) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.last == "", lines.count >= 3, lines[0] == Self.heading else { return nil }
        lines.removeLast()
        let count = lines[1].split(separator: " ")
        guard count.count == 2, count[0] == "pages-indexed", let indexed = Int(count[1]) else { return nil }
        var pages: [(String, String)] = [], files: [(String, String)] = []
        for line in lines.dropFirst(2) {
            let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, parts[1].count == 64, !parts[2].isEmpty else { return nil }
            switch parts[0] {
            case "page": pages.append((String(parts[2]), String(parts[1])))
            case "file": files.append((String(parts[2]), String(parts[1])))
            default: return nil
            }
        }
        self.init(pagesIndexed: indexed, pages: pages, files: files)
    }

    init(pagesIndexed: Int, pages: [(String, String)], files: [(String, String)]) {
        self.pagesIndexed = pagesIndexed
        self.pages = pages
        self.files = files
    }

    /// Written signed; not written without a secret or with a name no line can hold.
    func write(to path: String, secret: [UInt8]? = machineSecret) {
        guard let secret, !(pages + files).contains(where: { $0.0.contains("\n") }) else { return }
        try? writeAtomically(Array(signedText(secret: secret).utf8), to: path, keepingPermissions: false)
    }

    /// Makes `change` to the bundle in `folder` (the build's own: its balance pages,
    /// `SearchBalance`) and keeps its record true: a record this user signed whose files are
    /// the bundle's, byte for byte, before the change is signed again for the files after it,
    /// since it still says which pages the bundle was built from. A record that did not hold
    /// before is not made to hold after. Returns what `change` returned.
    static func keepingRecord(in folder: String, secret: [UInt8]? = machineSecret, _ change: () -> Bool) -> Bool {
        var record: SearchIndexRecord?
        if let secret, let bytes = readFile(atPath: folder + "/" + SearchIndexer.recordName),
           let held = SearchIndexRecord(signedText: String(decoding: bytes, as: UTF8.self), secret: secret),
           held.files.elementsEqual(digests(of: folder), by: ==) {
            record = held
        }
        guard change() else { return false }
        if var record {
            record.files = digests(of: folder)
            record.write(to: folder + "/" + SearchIndexer.recordName, secret: secret)
        }
        return true
    }

    /// The files of the shard's bundle in `folder` (the record excepted), with their digests,
    /// sorted by path.
    static func digests(of folder: String) -> [(String, String)] {
        bundleFiles(under: folder).compactMap { name in
            readFile(atPath: folder + "/" + name).map { (name, digest($0)) }
        }
    }

    static func files(under folder: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
        var names: [String] = []
        for case let name as String in walker {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder + "/" + name, isDirectory: &isFolder), !isFolder.boolValue,
               name != SearchIndexer.recordName {
                names.append(name)
            }
        }
        return names.sorted()
    }

    /// The files of one shard's bundle under `folder`: not the other shards' folders inside
    /// the first's (`SearchShards.folder`), nor the list of them, which each build writes anew.
    static func bundleFiles(under folder: String) -> [String] {
        files(under: folder).filter { name in
            name != SearchShards.listName && !name.hasPrefix(SearchShards.folderPrefix)
        }
    }

    /// The files of the index in `previous` (not its record) written into `folder` as they
    /// are: a stale index, for the moments before a refresh.
    static func carryOver(from previous: String, into folder: String) {
        for name in bundleFiles(under: previous) {
            guard let content = readFile(atPath: previous + "/" + name) else { continue }
            let path = folder + "/" + name
            try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                     withIntermediateDirectories: true)
            try? writeAtomically(content, to: path, keepingPermissions: false)
        }
    }

    /// The index in `previous` written into `folder`, when its record says it was built from
    /// exactly `pages` and each of its files is what the record says (read once: the bytes
    /// checked are the bytes written); returns how many pages it holds. Nil, with nothing left
    /// in `folder`, when it cannot be reused (its record unsigned by `secret` included).
    static func reuse(from previous: String, pages: [(String, String)], into folder: String,
                      secret: [UInt8]? = machineSecret) -> Int? {
        guard let secret, let bytes = readFile(atPath: previous + "/" + SearchIndexer.recordName),
              let record = SearchIndexRecord(signedText: String(decoding: bytes, as: UTF8.self), secret: secret),
              record.pages.elementsEqual(pages, by: ==),
              bundleFiles(under: previous) == record.files.map(\.0) else { return nil }
        var verified: [(String, [UInt8])] = []
        for (name, expected) in record.files {
            guard let content = readFile(atPath: previous + "/" + name), digest(content) == expected else { return nil }
            verified.append((name, content))
        }
        do {
            for (name, content) in verified {
                let path = folder + "/" + name
                try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                        withIntermediateDirectories: true)
                try writeAtomically(content, to: path, keepingPermissions: false)
            }
            try writeAtomically(bytes, to: folder + "/" + SearchIndexer.recordName, keepingPermissions: false)
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            return nil
        }
        return record.pagesIndexed
    }
}
