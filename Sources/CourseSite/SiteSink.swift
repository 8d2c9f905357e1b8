import CourseFiles

/// A file of the site: its path inside the site folder and its bytes.
package struct SiteFile: Sendable, Equatable {
    package var path: String
    package var bytes: [UInt8]

    package init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
    }
}

/// Where rendered files go as soon as they are made, so that a large site is never held whole
/// in memory: the writer's staging folder, or a collection in tests. Called from several
/// threads at once.
package protocol SiteSink: Sendable {
    func add(_ file: SiteFile) throws(SiteWriteError)

    /// A file too large to hold whole (the whole course on one page): `produce` hands its text
    /// to the function it is given, piece by piece, and the pieces go on in chunks of about
    /// `ChunkedWriter.chunkSize` bytes as they come. A failure to write is thrown once
    /// `produce` returns; what it writes after the failure is dropped.
    func addStreamed(path: String, _ produce: (_ write: (String) -> Void) -> Void) throws(SiteWriteError)

    /// What the search indexer reads in place of a lesson page (`SearchCopy`): kept out of the
    /// site. A sink that indexes nothing drops it.
    func addSearchCopy(_ file: SiteFile) throws(SiteWriteError)
}

extension SiteSink {
    package func addSearchCopy(_ file: SiteFile) throws(SiteWriteError) {}
}

/// Text gathered into chunks of about `chunkSize` bytes, each handed to `deliver` when full:
/// a page of a hundred megabytes passes through a buffer of one. The first error `deliver`
/// throws stops the delivering (later text is dropped) and is thrown by `finish()`.
package final class ChunkedWriter {
    package static let chunkSize = 1 << 20

    private let chunkSize: Int
    private let deliver: (UnsafeRawBufferPointer) throws(SiteWriteError) -> Void
    private var buffer = ""
    private var failure: SiteWriteError?

    package init(chunkSize: Int = ChunkedWriter.chunkSize,
                 deliver: @escaping (UnsafeRawBufferPointer) throws(SiteWriteError) -> Void) {
        self.chunkSize = chunkSize
        self.deliver = deliver
        buffer.reserveCapacity(chunkSize)
    }

    package func write(_ text: String) {
        guard failure == nil else { return }
        buffer += text
        if buffer.utf8.count >= chunkSize { flush() }
    }

    /// Delivers what is left; throws the first failure to deliver.
    package func finish() throws(SiteWriteError) {
        if failure == nil, !buffer.isEmpty { flush() }
        if let failure { throw failure }
    }

    private func flush() {
        var failed: SiteWriteError?
        buffer.withUTF8 { bytes in
            do throws(SiteWriteError) { try deliver(UnsafeRawBufferPointer(bytes)) } catch { failed = error }
        }
        failure = failed
        buffer.removeAll(keepingCapacity: true)
    }
}

/// A sink that keeps the files, in the order they are added.
package final class CollectingSink: SiteSink {
    private let collected = Locked<[SiteFile]>([])
    private let searchCopied = Locked<[SiteFile]>([])
    private let chunkSize: Int

    /// `chunkSize`: how streamed files are cut while they are collected (small in tests, so
    /// that a page crosses many chunks).
    package init(chunkSize: Int = ChunkedWriter.chunkSize) {
        self.chunkSize = chunkSize
    }

    package func add(_ file: SiteFile) throws(SiteWriteError) {
        collected.withLock { $0.append(file) }
    }

    package func addStreamed(path: String, _ produce: ((String) -> Void) -> Void) throws(SiteWriteError) {
        var bytes: [UInt8] = []
        let writer = ChunkedWriter(chunkSize: chunkSize) { chunk in bytes.append(contentsOf: chunk) }
        produce(writer.write)
        try writer.finish()
        try add(SiteFile(path: path, bytes: bytes))
    }

    package func addSearchCopy(_ file: SiteFile) throws(SiteWriteError) {
        searchCopied.withLock { $0.append(file) }
    }

    /// The files by path, sorted.
    package var files: [SiteFile] { collected.withLock { $0 }.sorted { $0.path < $1.path } }

    /// The search copies of the lesson pages, by path, sorted.
    package var searchCopies: [SiteFile] { searchCopied.withLock { $0 }.sorted { $0.path < $1.path } }
}
