import CoursePipeline

/// The subcommands of `coursebook`, each one value: what the overview, its help and the
/// manual say of it, its options and how it runs. Dispatch, `--help`, `help COMMAND` and
/// docs/commands.md's tables (`CommandsPage`) read these and nothing else.
extension Coursebook {
    /// The commands a course is worked with, in the order the overview lists them.
    static let subcommands: [Subcommand] = [check, build, watch, serve, new, mergeReports, lsp]

    static let check = Subcommand(
        name: "check", arguments: "[COURSE_DIR | LESSON.md ...]",
        summary: "run the scenarios, compare each with its output block",
        description: """
        Runs every scenario of the course (default 'lessons') and compares what it prints with
        its 'output' block; checks core listings, limitation notes and illustrations. Given
        lesson files (names ending in .md) of one course folder, runs only their scenarios;
        rules that span the course (the numbering of limitation notes) are still judged on
        all of it.
        """,
        exitStatuses: [
            .allPassed, .aScenarioFailed, .courseUnreadable, .reportNotWritten, .noCompiler, .sandboxRequired,
            .wrongUsage, .signals,
        ],
        grammar: CheckCommand.grammar, execute: CheckCommand.execute)

    static let build = Subcommand(
        name: "build", arguments: "[COURSE_DIR] --out DIR",
        summary: "check, then write the site into DIR",
        description: """
        Checks the course (default 'lessons') and, when everything passes, writes its static
        site into DIR. A failed check or write leaves an existing DIR as it was. When pagefind
        is installed (pip install pagefind-bin), the site gets a search index.
        """,
        exitStatuses: [
            .written, ExitNote(.checkFailed, "the check failed"),
            .courseUnreadable, ExitNote(.templateInvalid, "a template is invalid"),
            ExitNote(.siteNotWritten, "the site (or a report) cannot be written there, or pagefind, when installed, failed to index it"),
            .noCompiler, .sandboxRequired, ExitNote(.searchTimedOut, "pagefind took longer than the search time limit"), .wrongUsage,
            .signals,
        ],
        grammar: BuildCommand.grammar, execute: BuildCommand.execute)

    static let watch = Subcommand(
        name: "watch", arguments: "[COURSE_DIR] [--out DIR]",
        summary: "check again after every change (and rebuild the site)",
        description: """
        Checks the course (default 'lessons') now and again after every change to a lesson,
        course.json, a core file or a template: the kernel says when a file changes (inotify),
        a burst of saves is one change, and the result cache runs only the scenarios that
        changed. With --out, the site is rebuilt into DIR after each check that passes. Each
        round prints what changed and what 'check' prints. Ctrl-C stops it; nothing is left
        half-written.
        """,
        exitStatuses: [
            .noCourseFolder, ExitNote(.siteNotWritten, "DIR cannot hold a site"), .noCompiler, .sandboxRequired,
            ExitNote(.watchOrServeUnavailable, "the files cannot be watched"), .wrongUsage,
            .signals.theUsualEnd,
        ],
        grammar: WatchCommand.grammar, execute: WatchCommand.execute)

    static let serve = Subcommand(
        name: "serve", arguments: "[COURSE_DIR] [--port N]",
        summary: "watch, and preview the site on 127.0.0.1",
        description: """
        Watches the course (default 'lessons') as 'watch --out' does, into a temporary folder,
        and serves that site on http://127.0.0.1:N/ for a browser on this machine. An open page
        reloads after every round: to the new site when the check passed, to what the check
        found when it did not. The reloading script is added only by this server, never to a
        site on disk. It answers only requests for 127.0.0.1:N or localhost:N (403 for any other
        Host), and ends connections that idle or trickle (10 s) or pile up, so that a fresh
        request is always answered. Ctrl-C stops it and removes the temporary folder.
        """,
        exitStatuses: [
            .noCourseFolder, .noCompiler, .sandboxRequired,
            ExitNote(.watchOrServeUnavailable, "the port cannot be listened on or the files cannot be watched"),
            .wrongUsage, .signals.theUsualEnd,
        ],
        grammar: ServeCommand.grammar, execute: ServeCommand.execute)

    static let new = Subcommand(
        name: "new", arguments: "lesson TITLE [COURSE_DIR]", optionsHint: "[--errors]",
        summary: "write the course's next lesson from a skeleton",
        description: """
        Writes the next lesson of the course (default 'lessons'): NN-slug.md, numbered after
        the last lesson and named from TITLE, with a title, an opening, a measurement section
        with a scenario, an empty 'output' block and a limitation note with the next free
        number. 'coursebook check --update' then fills in the output. With --errors, the
        scenario is one the compiler refuses and its block an empty 'errors' block, which
        'coursebook check --update' fills with the compiler's errors. An existing file is
        never written over.
        """,
        exitStatuses: [
            .written, .courseUnreadable,
            ExitNote(.siteNotWritten, "the file cannot be written (or exists)"), .wrongUsage,
        ],
        grammar: NewCommand.grammar, execute: NewCommand.execute)

    static let mergeReports = Subcommand(
        name: "merge-reports", arguments: "SHARD.json ...",
        summary: "join the JSON reports of 'check --shard' into one",
        description: """
        Joins the JSON reports of 'check --shard K/N --report FILE.json' (every K of one N, in
        any order) into one verdict: the scenarios and findings of the whole course, as one
        check of it reports them. Prints the findings and the tally like 'check'.
        """,
        exitStatuses: [
            .allPassed, .aScenarioFailed,
            ExitNote(.courseUnreadable, "a report cannot be read, the reports do not make one whole course, or one claims what no shard holds (a scenario twice, a status its output does not bear out ...)"),
            .reportNotWritten, .wrongUsage,
        ],
        grammar: MergeReportsCommand.grammar, execute: MergeReportsCommand.execute)

    static let lsp = Subcommand(
        name: "lsp", arguments: "",
        summary: "the editor's language server, on stdin and stdout",
        description: """
        Speaks the Language Server Protocol (3.17) on standard input and output, for an editor
        to start. Each lesson the editor opens (an NN-slug.md file beside a course.json) is
        checked as 'check LESSON.md' checks it, on open and save and while typing, with the
        unsaved text: findings as diagnostics, "accept the output this run printed" and
        "insert the missing output block" as quick fixes, hovers, go to definition, the
        lesson's outline and a lens above each scenario. Results share the course's cache.
        """,
        exitStatuses: [
            ExitNote(.success, "after the client's shutdown and exit"),
            ExitNote(.checkFailed, "on exit without shutdown or when the input ends"), .wrongUsage,
        ],
        grammar: LanguageServerCommand.grammar, execute: LanguageServerCommand.execute)
}
