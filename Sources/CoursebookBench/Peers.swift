import Foundation

// MARK: MkDocs Material, the documentation peer

/// The virtual environment the bench makes under .build/bench for MkDocs Material (`python3
/// -m venv`, then `pip install mkdocs-material` from PyPI, once); its `mkdocs` program, or nil
/// with the reason when it cannot be made (no network, no venv module).
func mkdocsProgram() -> (program: String?, reason: String) {
    let venv = benchFolder + "/mkdocs-venv"
    let program = venv + "/bin/mkdocs"
    if FileManager.default.isExecutableFile(atPath: program) { return (program, "") }
    say("making \(venv) with MkDocs Material from PyPI (once) ...")
    try? FileManager.default.removeItem(atPath: venv)
    let made = run(python, ["-m", "venv", venv], in: root)
    guard made.succeeded else { return (nil, "python3 -m venv failed: \(made.output.prefix(200))") }
    let installed = run(venv + "/bin/pip", ["install", "-q", "--disable-pip-version-check", "mkdocs-material"], in: root)
    guard installed.succeeded, FileManager.default.isExecutableFile(atPath: program) else {
        try? FileManager.default.removeItem(atPath: venv)
        return (nil, "pip install mkdocs-material failed: \(installed.output.suffix(200))")
    }
    return (program, "")
}

/// MkDocs's project for the same Markdown, as its users set Material up: the lessons as pages
/// (every page lists every lesson in its navigation, as coursebook's sidebar does), code
/// highlighted (pymdownx.highlight and superfences, as Material's documentation says) and the
/// search plugin on, which indexes every page.
func mkdocsSite(for course: String, at folder: String) {
    fresh(folder)
    try! FileManager.default.createDirectory(atPath: folder + "/docs", withIntermediateDirectories: true)
    let config = """
        site_name: bench
        theme:
          name: material
          language: tr
        plugins:
          - search
        markdown_extensions:
          - pymdownx.highlight
          - pymdownx.superfences

        """
    try! config.write(toFile: folder + "/mkdocs.yml", atomically: true, encoding: .utf8)
    var index = "# bench\n\n"
    for name in try! FileManager.default.contentsOfDirectory(atPath: course).sorted() where name.hasSuffix(".md") {
        try! FileManager.default.copyItem(atPath: "\(course)/\(name)", toPath: "\(folder)/docs/\(name)")
        index += "- [\(name)](\(name))\n"
    }
    try! index.write(toFile: folder + "/docs/index.md", atomically: true, encoding: .utf8)
}

/// `mkdocs build` of the corpus (it always builds the whole site), best of `repeats`, with the
/// peak of its tree's memory; nil when MkDocs could not be installed.
func measureMkDocs(course: String, work: String, repeats: Int) -> (seconds: Double, treePeakKilobytes: Int)? {
    guard let program = mkdocs.program else { return nil }
    let folder = work + "/mkdocs"
    mkdocsSite(for: course, at: folder)
    let runs = (0..<repeats).map { _ in
        try? FileManager.default.removeItem(atPath: folder + "/site")
        return mustRun(program, ["build", "--quiet", "--clean"], in: folder)
    }
    guard FileManager.default.fileExists(atPath: folder + "/site/search/search_index.json") else {
        fail("mkdocs build wrote no search index in \(folder)/site/search")
    }
    return (runs.map { $0.seconds }.min()!, runs.map { $0.treePeakKilobytes }.max()!)
}
