#!/usr/bin/env python3
"""gen-book-shape.py N COURSE PROGRAMS [--jobs J]

Writes a course in the shape of a Swift book (issue 23) for `make bench`: N lessons, each with
two groups (one program told over several blocks, `group=NAME`), blocks that declare types
(classes, structs, enums, protocols, generics, extensions) and print them the ways that name
them (`type(of:)`, `String(describing:)`, `dump`), hidden setup lines (`# `), a scenario of its
own with hidden setup, and one `errors` scenario (a program the compiler refuses).

Every `output` and `errors` block is real: each program is compiled alone with plain `swiftc`
(J at a time, default 2) and run, and its output split at its blocks; the errors are what
`swiftc -module-name main -typecheck` says (programs are compiled as `swiftc -module-name main`,
as coursebook compiles them, so that reflection names the module `main`). PROGRAMS/NNN/main.swift is each program as plain
`swiftc` gets it (hidden lines unmarked, a group's blocks concatenated) and PROGRAMS/NNN/kind
says `run` (compile and run) or `typecheck` (must be refused): the floor the bench times the
check against, program by program. The same N gives byte-identical files.
"""
import concurrent.futures, os, re, shutil, subprocess, sys, tempfile

sys.dont_write_bytecode = True
MARK = "@@coursebook-block@@"


def group_a(i):
    """A class over four blocks: declared (hidden helper), made, extended, described."""
    n = f"Shape{i}"
    return [
        (f"# func show{i}(_ value: Any) {{ print(\"->\", String(describing: value)) }}\n"
         f"class {n} {{\n    var name: String\n    var sides: Int\n"
         f"    init(name: String, sides: Int) {{\n        self.name = name\n        self.sides = sides\n    }}\n}}\n", False),
        (f"let first{i} = {n}(name: \"shape {i}\", sides: {3 + i % 5})\n"
         f"print(first{i}.name, first{i}.sides)\nprint(type(of: first{i}))\n", True),
        (f"extension {n} {{\n    func describe() -> String {{ \"\\(name) has \\(sides) sides\" }}\n}}\n"
         f"class Poly{i}: {n} {{\n    func perimeter(side: Int) -> Int {{ sides * side }}\n}}\n", False),
        (f"let poly{i} = Poly{i}(name: \"poly {i}\", sides: {4 + i % 3})\n"
         f"print(poly{i}.describe(), poly{i}.perimeter(side: {i % 7 + 1}))\n"
         f"# show{i}(poly{i}.sides)\nprint(String(describing: poly{i}))\n", True),
    ]


def group_b(i):
    """A struct, an enum and a protocol over three blocks, printed by reflection."""
    return [
        (f"struct Point{i}: Equatable {{ var x = {i}, y = {i * 2 % 11} }}\n"
         f"enum Suit{i}: String, CaseIterable {{ case hearts, spades, clubs }}\n"
         f"print(Point{i}())\nprint(Suit{i}.allCases.map(\\.rawValue))\n", True),
        (f"protocol Named{i} {{ var title: String {{ get }} }}\n"
         f"extension Point{i}: Named{i} {{ var title: String {{ \"(\\(x), \\(y))\" }} }}\n"
         f"func titles{i}<T: Named{i}>(_ items: [T]) -> [String] {{ items.map(\\.title) }}\n", False),
        (f"var moved{i} = Point{i}()\nmoved{i}.x += {i % 4 + 1}\n"
         f"print(titles{i}([Point{i}(), moved{i}]), moved{i} == Point{i}())\ndump(moved{i})\n"
         f"print(Suit{i}.spades, String(reflecting: Suit{i}.self))\n", True),
    ]


def single(i):
    """A scenario of its own, its setup hidden."""
    return (f"# struct Counter{i} {{ var value = {i} }}\n# let start{i} = Counter{i}()\n"
            f"var counter{i} = start{i}\ncounter{i}.value += 1\nprint(counter{i})\n"
            f"print(type(of: counter{i}), counter{i}.value)\n")


def refused(i):
    """A program the compiler refuses, one of six kinds."""
    kinds = [
        f"let name{i} = \"Swift\"\nname{i} = \"Swift {i}\"\n",
        f"let count{i}: Int = \"{i}\"\nprint(count{i})\n",
        f"struct Vault{i} {{\n    private var code = {i}\n}}\nlet vault{i} = Vault{i}()\nprint(vault{i}.code)\n",
        f"func greet{i}(person: String) -> String {{ \"Hello, \" + person }}\nprint(greet{i}(name: \"Ann\"))\n",
        f"let text{i}: String? = \"{i}\"\nlet length{i}: Int = text{i}.count\n",
        f"protocol Titled{i} {{ var title: String {{ get }} }}\nstruct Page{i}: Titled{i} {{}}\nprint(Page{i}())\n",
    ]
    return kinds[i % len(kinds)]


def plain(code):
    """The code as plain swiftc gets it: hidden lines' marks taken off, indentation kept."""
    return re.sub(r"^([ \t]*)#(?: |$)", r"\1", code, flags=re.M)


def run_program(source):
    """Compiles and runs one program alone; what it printed."""
    with tempfile.TemporaryDirectory() as folder:
        with open(os.path.join(folder, "main.swift"), "w") as f:
            f.write(source)
        subprocess.run(["swiftc", "-module-name", "main", "-o", "program", "main.swift"], cwd=folder, check=True, capture_output=True)
        return subprocess.run(["./program"], cwd=folder, check=True, capture_output=True, text=True).stdout


def typecheck_errors(source):
    """The errors plain swiftc gives, as an errors block writes them."""
    with tempfile.TemporaryDirectory() as folder:
        with open(os.path.join(folder, "main.swift"), "w") as f:
            f.write(source)
        said = subprocess.run(["swiftc", "-module-name", "main", "-typecheck", "main.swift"], cwd=folder,
                              capture_output=True, text=True)
        lines = [m.group(1) for m in re.finditer(r"^main\.swift:(\d+:\d+: error: .*)$", said.stderr, re.M)]
        if said.returncode == 0 or not lines:
            sys.exit(f"gen-book-shape: the refused program compiles:\n{source}")
        return lines


def group_outputs(blocks):
    """Each checked block's output: the program compiled with a marker printed after each
    block that has an output block, its output split at the markers."""
    marked = "".join(plain(code) + (f"print(\"{MARK}\")\n" if checked else "") for code, checked in blocks)
    parts = run_program(marked).split(MARK + "\n")
    return parts[:-1]


def fence(code, info, result, kind="output"):
    return f"```swift {info}\n{code}```\n\n" + (f"```{kind}\n{result}```\n\n" if result is not None else "")


def main():
    args = sys.argv[1:]
    jobs = 2
    if "--jobs" in args:
        at = args.index("--jobs")
        jobs = int(args[at + 1])
        del args[at:at + 2]
    if len(args) != 3:
        sys.exit(__doc__)
    count, course, programs = int(args[0]), args[1], args[2]
    for folder in (course, programs):
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
    with open(os.path.join(course, "course.json"), "w") as f:
        f.write('{ "title": "A Swift Book in Shape", "language": "en", "limitNotes": "optional" }\n')
    lessons = [(i, group_a(i), group_b(i), single(i), refused(i)) for i in range(count)]
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        outs_a = list(pool.map(lambda l: group_outputs(l[1]), lessons))
        outs_b = list(pool.map(lambda l: group_outputs(l[2]), lessons))
        outs_s = list(pool.map(lambda l: run_program(plain(l[3])), lessons))
        errs = list(pool.map(lambda l: typecheck_errors(l[4]), lessons))
    number = 0

    def program(source, kind):
        nonlocal number
        folder = os.path.join(programs, f"{number:03d}")
        os.makedirs(folder)
        with open(os.path.join(folder, "main.swift"), "w") as f:
            f.write(source)
        with open(os.path.join(folder, "kind"), "w") as f:
            f.write(kind + "\n")
        number += 1

    for (i, a, b, s, r), out_a, out_b, out_s, err in zip(lessons, outs_a, outs_b, outs_s, errs):
        text = f"# Lesson {i + 1}: types told over listings\n\nA class built listing by listing.\n\n"
        for (groupname, blocks, outs) in ((f"shape{i}", a, out_a), (f"point{i}", b, out_b)):
            outputs = iter(outs)
            for code, checked in blocks:
                text += fence(code, f"scenario group={groupname}", next(outputs) if checked else None)
                if not checked:
                    text += "The next listing continues this program.\n\n"
            program("".join(plain(code) for code, _ in blocks), "run")
        text += "A listing of its own, its setup hidden:\n\n" + fence(s, "scenario", out_s)
        program(plain(s), "run")
        text += "A listing the compiler refuses:\n\n" + fence(r, "scenario", "".join(e + "\n" for e in err), "errors")
        program(r, "typecheck")
        with open(os.path.join(course, f"{i + 1:02d}-lesson.md"), "w") as f:
            f.write(text)
    with open(os.path.join(programs, "count"), "w") as f:
        f.write(f"{number}\n")
    print(f"{course}: {count} lessons, {2 * count} groups, {count} single scenarios, {count} errors scenarios; "
          f"{number} programs in {programs}")


if __name__ == "__main__":
    main()
