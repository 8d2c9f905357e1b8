/// What `--help` prints; each command's options come from its table (`CommandLineTable`).
/// The README's reference repeats these words.
enum HelpText {
    static let overview = """
        coursebook: checks the Swift examples of a course and publishes it as a static site.

        usage: coursebook <command> [options]

        commands:
          check [COURSE_DIR]            run every scenario and compare it with its output block
          build [COURSE_DIR] --out DIR  check, then write the site into DIR
          help [COMMAND]                show help for a command

        options:
          --help, -h                    show this help
          --version                     show the version

        COURSE_DIR defaults to 'lessons'. 'coursebook <command> --help' shows a command's options.
        """

    static let check = """
        usage: coursebook check [COURSE_DIR] [options]

        Runs every scenario of the course (default 'lessons') and compares what it prints with
        its 'output' block; checks core listings, limitation notes and illustrations.

        options:
        \(optionLines(CommandLineTable.check))

        exit status: 0 all passed, 1 a scenario or a lesson failed, 2 the course cannot be read,
                     5 no Swift compiler, 6 the sandbox is required and cannot start,
                     64 wrong usage, 129/130/143 stopped by SIGHUP/SIGINT/SIGTERM
        """

    static let build = """
        usage: coursebook build [COURSE_DIR] --out DIR [options]

        Checks the course (default 'lessons') and, when everything passes, writes its static
        site into DIR. A failed check or write leaves an existing DIR as it was. When pagefind
        is installed (pip install pagefind-bin), the site gets a search index.

        options:
        \(optionLines(CommandLineTable.build))

        exit status: 0 written, 1 the check failed, 2 the course cannot be read,
                     3 a template is invalid, 4 the site cannot be written there (or
                     pagefind, when installed, failed to index it),
                     5 no Swift compiler, 6 the sandbox is required and cannot start,
                     64 wrong usage, 129/130/143 stopped by SIGHUP/SIGINT/SIGTERM
        """
}
