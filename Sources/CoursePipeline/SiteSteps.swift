internal import CourseFiles
internal import CourseModel
internal import CourseSite
import Foundation

/// The steps that make a checked course a site: render (the pages, on every core, into a
/// staging folder beside the destination), index (Pagefind on the staged pages) and write
/// (the staged site swapped into place).
extension Pipeline {
    // MARK: render

    /// The pages into a staging folder, and the files the lessons link to beside them. The
    /// site's input is handed on whole to the pages (see `SitePages.render`).
    func render(_ context: inout PipelineContext) throws(PipelineError) {
        let input = context.siteInput.take()!
        let course = input.course, out = context.out!
        let staging: SiteStaging
        do {
            staging = try SiteStaging(destination: out)
        } catch {
            throw siteError(error)
        }
        do throws(SiteWriteError) {
            let made = try SitePages.render(consume input, into: staging)
            for file in course.linkedFiles {
                let bytes: [UInt8]
                switch readRegularFile(atPath: course.folderPath + "/" + file) {
                case .success(let read): bytes = read
                case .failure(let failure):
                    throw SiteWriteError(folder: out, message: "cannot read \(displayPath(course.folder, file)), which a lesson links to: \(failure)")
                }
                try staging.add(SiteFile(path: file, bytes: bytes))
            }
            (context.staging, context.pages, context.assets) = (staging, made.pages, made.assets)
        } catch {
            staging.discard()
            throw siteError(error)
        }
    }

    // MARK: index

    /// The search index of the staged site, before it is swapped in: a site is never in place
    /// with a search page and no index. With `searchAfterPages`, the index in place is kept
    /// when its record proves it current, and otherwise the pages are left to index after.
    func index(_ context: inout PipelineContext) throws(PipelineError) {
        guard let indexer = context.indexer, let staging = context.staging else { return }
        let pages = context.loaded.course.lessons.map(SitePages.pageName)
        let copies = staging.searchCopies
        if context.searchAfterPages {
            context.searchOutcome = indexer.reuse(site: staging.folder, pages: pages, copies: copies, previous: context.out!)
            if context.searchOutcome == nil {
                context.searchPending = pages
                // Kept for the refresh, which stages the site again from its own files.
                context.searchPendingCopies = copies.keys.sorted().compactMap { page in
                    readFile(atPath: staging.folder + "/" + SearchCopy.folder + "/" + page)
                        .map { SiteFile(path: page, bytes: $0) }
                }
            }
        } else {
            context.searchOutcome = try index(staging, with: indexer, pages: pages, copies: copies, previous: context.out)
        }
    }

    func index(_ staging: SiteStaging, with indexer: SearchIndexer, pages: [String], copies: [String: String] = [:],
               previous: String?) throws(PipelineError) -> SearchIndexer.Outcome {
        do {
            return try indexer.index(site: staging.folder, pages: pages, copies: copies, previous: previous)
        } catch {
            staging.discard()
            throw PipelineError(path: indexer.pagefind.executable, status: error.timedOut ? .searchTimedOut : .siteNotWritten,
                                diagnostic: .error(error.timedOut ? .searchTimedOut : .siteNotWritten,
                                                   "cannot index the site for search: \(error)", at: nil))
        }
    }

    /// A refreshed index's staging (`refreshIndex`): the site in place at `out`, staged again
    /// from its own files (hard links), without its index.
    func restage(_ context: inout PipelineContext) throws(PipelineError) {
        let out = context.out!
        let staging: SiteStaging
        do {
            staging = try SiteStaging(destination: out)
        } catch {
            throw siteError(error)
        }
        let files = FileManager.default
        for name in SearchIndexRecord.files(under: out)
        where name != SiteWriter.marker && !name.hasPrefix(SearchIndexer.folder + "/") {
            let target = staging.folder + "/" + name
            do {
                try files.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                if link(out + "/" + name, target) != 0 { try files.copyItem(atPath: out + "/" + name, toPath: target) }
            } catch {
                staging.discard()
                throw PipelineError(path: out, status: .siteNotWritten,
                                    diagnostic: .error(.siteNotWritten, "cannot index the site for search: \(error.localizedDescription)", at: nil))
            }
        }
        context.staging = staging
    }

    // MARK: write

    /// The staged site in place of the destination, without the search copies of its pages
    /// (`SearchCopy`), which only Pagefind reads.
    func write(_ context: inout PipelineContext) throws(PipelineError) {
        context.staging!.removeSearchCopies()
        do {
            try context.staging!.commit()
        } catch {
            throw siteError(error)
        }
    }

    func siteError(_ error: SiteWriteError) -> PipelineError {
        PipelineError(path: error.folder, status: .siteNotWritten,
                      diagnostic: .error(.siteNotWritten, error.description, at: nil))
    }
}
