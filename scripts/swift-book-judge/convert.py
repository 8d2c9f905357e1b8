#!/usr/bin/env python3
"""Convert The Swift Programming Language (swiftlang/swift-book, TSPL.docc) into a
coursebook course folder, written apart from coursebook (it uses none of its code).

Usage: convert.py BOOK_DIR COURSE_DIR

The book's tested listings are HTML comments after the listing the reader sees:

    <!--
      - test: `name`          (or `a, b`: the listing belongs to several tests)
      ```swifttest
      -> shown code           (continuation lines are indented under the code)
      >> hidden code (setup)
      <- / << / </  expected output line (shown as a comment / hidden)
      /> text with \\(interpolation)   hidden: prints the text, </ holds the result
      !$ error: message / !! source line / !! caret / !! file:L:C: error: message
      xx ...                  the program traps here
      ```
    -->

Every comment of a test, in a chapter, is one program (the book's tool concatenated them).
Mapping: a test of one comment -> `swift scenario`; of several -> blocks of `group=NAME`; a
test that expects a compile error -> one `swift scenario` (the other comments' code as hidden
lines) with an `errors` block; a test that expects a trap -> a `trap` block after its last
block. The visible listing right before a test comment is replaced by the test's block (its
code is the test's `->` lines); a comment that has no visible listing is merged, as hidden
lines, into its neighbour of the same test. Visible listings that no test follows stay `swift`
illustrations. Writes COURSE_DIR/NN-name.md, course.json, Assets/ and COURSE_DIR/../manifest.json
(every block: file, fence line, program, expectation) for judge.py.
"""
import json, os, re, shutil, sys

CHAPTER_DIRS = ["GuidedTour", "LanguageGuide", "ReferenceManual", "RevisionHistory"]
OUT_PREFIXES = ("<- ", "<< ", "</ ")
HIDDEN_PREFIXES = (">> ",)
ERR_PREFIXES = ("!! ", "!$ ")


def kebab(name):
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "-", name).lower()


def chapter_order(book):
    root = open(os.path.join(book, "TSPL.docc", "The-Swift-Programming-Language.md")).read()
    names = re.findall(r"^- <doc:(\w+)>", root, re.M)
    files = {}
    for d in CHAPTER_DIRS:
        for f in os.listdir(os.path.join(book, "TSPL.docc", d)):
            if f.endswith(".md"):
                files[f[:-3]] = os.path.join(book, "TSPL.docc", d, f)
    return [(n, files[n]) for n in names if n in files]


class Entry:
    """One test comment: its lines classified, where it stands in the chapter."""

    def __init__(self, names, start, end, indent, body):
        self.names = names
        self.start, self.end = start, end  # chapter line indexes of '<!--' and '-->'
        self.indent = indent
        self.code = []  # (hidden: bool, text)
        self.output = []
        self.errors = []  # raw '!!' / '!$' lines
        self.trap = []
        self.visible = None  # (start, end) of the visible listing it replaces
        self.parse(body)

    def parse(self, body):
        kind = None
        for raw in body:
            s = raw
            stripped = s.lstrip()
            lead = len(s) - len(stripped)
            pre = None
            for p in ("->", ">>", "<-", "<<", "</", "/>", "!!", "!$", "xx"):
                if (s.startswith(p + " ") or s.rstrip() == p or s.startswith("!!-")) and s.startswith(p):
                    pre = p
                    break
                if lead and lead < 3 and (stripped.startswith(p + " ") or stripped.rstrip() == p):
                    pre, s = p, stripped
                    break
            if pre is None:
                if not s.strip():
                    if kind in ("->", ">>"):
                        self.code.append((kind == ">>", ""))
                    continue
                if s[:3].strip() == "" and kind in ("->", ">>"):
                    self.code.append((kind == ">>", s[3:]))
                else:  # a comment or code at column 0: shown code
                    kind = "->"
                    self.code.append((False, s.lstrip() if lead < 3 else s[3:]))
                continue
            kind = pre
            text = s[3:] if len(s) > 2 else ""
            if pre in ("->", ">>"):  # the book's setup is written for Apple platforms
                text = re.sub(r"\bimport Darwin\b", "import Glibc", text)
            if pre == "->":
                self.code.append((False, text))
            elif pre == ">>":
                self.code.append((True, text))
            elif pre == "/>":
                self.code.append((True, 'print("%s")' % text))
            elif pre in ("<-", "<<", "</"):
                self.output.append(text)
            elif pre in ("!!", "!$"):
                self.errors.append((pre, s[2:]))
            elif pre == "xx":
                self.trap.append(text)

    def error_messages(self):
        return [t for p, t in self.errors
                if (p == "!$" and t.strip().startswith("error:")) or (p == "!!" and re.search(r":\d+:\d+: error:", t))]


def parse_chapter(lines):
    entries = []
    i = 0
    while i < len(lines):
        if lines[i].strip() == "<!--" and i + 1 < len(lines) and re.match(r"\s*- test:", lines[i + 1]):
            start = i
            indent = lines[i][: len(lines[i]) - len(lines[i].lstrip())]
            names = []
            for quoted in re.findall(r"`([^`]*)`", lines[i + 1]):
                names += [n.strip() for n in quoted.split(",") if n.strip()]
            end = i + 1
            while lines[end].strip() != "-->":
                end += 1
            inner = list(range(i + 2, end))
            fences = [k for k in inner if lines[k].strip().startswith("```")]
            if len(fences) >= 2:
                a, b = fences[0], fences[-1]
            else:  # a test without a fence: its lines stand in the comment
                a, b = i + 1, end
            body_lines = [lines[k] for k in range(a + 1, b)]
            nonblank = [l for l in body_lines if l.strip()]
            fence_indent = min(len(l) - len(l.lstrip()) for l in nonblank) if nonblank else 0
            if len(fences) >= 2:
                fence_indent = len(lines[a]) - len(lines[a].lstrip())
            body = [l[fence_indent:] for l in body_lines]
            j = end
            e = Entry(names, start, j, indent, body)
            # the visible listing right before it (blank lines between)
            k = start - 1
            while k >= 0 and not lines[k].strip():
                k -= 1
            if k >= 0 and lines[k].strip() == "```":
                m = k - 1
                while m >= 0 and not lines[m].strip().startswith("```"):
                    m -= 1
                if m >= 0 and lines[m].strip() == "```swift":
                    e.visible = (m, k)
            entries.append(e)
            i = j
        i += 1
    return entries


def render_code(code, indent):
    out = []
    for hidden, text in code:
        if hidden:
            body = text.lstrip()
            lead = text[: len(text) - len(body)]
            out.append(indent + lead + ("# " + body if body else "#"))
        else:
            out.append(indent + text if text else "")
    return out


def fence_for(lines):
    return "````" if any("```" in l for l in lines) else "```"


def error_lines(entry, code, offset):
    """The book's expected errors as coursebook's `LINE:COLUMN: error: MESSAGE` lines."""
    result = []
    errs = entry.errors
    for n, (p, t) in enumerate(errs):
        m = re.search(r":(\d+):(\d+): error: (.*)", t) if p == "!!" else None
        if m:
            result.append("%d:%s: error: %s" % (int(m.group(1)) + offset, m.group(2), m.group(3)))
            continue
        if p == "!$" and t.strip().startswith("error:"):
            msg = t.strip()[len("error:"):].strip()
            src = errs[n + 1][1] if n + 1 < len(errs) and errs[n + 1][0] == "!!" else None
            caret = errs[n + 2][1] if n + 2 < len(errs) and errs[n + 2][0] == "!!" else None
            line = None
            if src is not None:
                for idx, (_, text) in enumerate(code):
                    if text.strip() and text.strip() == src.strip():
                        line = idx + 1
                        col = None
                        if caret is not None and "^" in caret:
                            col = caret.index("^") - (len(src) - len(src.lstrip())) + (len(text) - len(text.lstrip())) + 1
                        break
            if line is None:
                line = 1
                col = None
            result.append("%d:%s error: %s" % (line, "%d:" % col if col else "", msg))
    return result


UNORDERED = set()  # "NN-chapter.md:test:index": outputs the book shows in an order of its own


def block_lines(indent, attrs, code, output, errors=None, trap=None, unordered=False):
    shown = render_code(code, indent)
    f = fence_for(shown)
    out = [indent + f + "swift scenario" + attrs] + shown + [indent + f, ""]
    if errors is not None:
        out += [indent + "```errors"] + [indent + l for l in errors] + [indent + "```"]
    else:
        out += [indent + "```output" + (" unordered" if unordered else "")] + [indent + l if l else "" for l in output] + [indent + "```"]
        if trap is not None:
            out += ["", indent + "```trap"] + [indent + l for l in trap] + [indent + "```"]
    return out


def trap_guess(entry_traps):
    text = " ".join(entry_traps)
    if "Simultaneous accesses" in text:
        return ["Simultaneous accesses to 0x*, but modification requires exclusive access. (glob)"]
    if "overflow" in text:
        return []
    return ["Fatal error: *" + " (glob)"]


def convert_chapter(lines, fname, manifest, stats):
    entries = parse_chapter(lines)
    tests = {}
    for e in entries:
        for n in e.names:
            tests.setdefault(n, []).append(e)
    # a comment shared by several tests belongs to its first test; the others get its code hidden
    own = {}  # test name -> list of (entry, extra hidden code before it)
    shared_code = {}
    for n, es in tests.items():
        lst = []
        pending = []
        for e in es:
            if e.names[0] == n:
                lst.append([e, pending])
                pending = []
            else:
                pending = pending + [(True, t) for _, t in e.code]
        if pending and lst:
            lst[-1].append(pending)  # shared comment after the test's own: appended
        if lst:
            own[n] = lst
    replace = {}  # start line -> (end line, new lines)
    drop = set()
    gid = 0
    for n, lst in own.items():
        group = re.sub(r"[^A-Za-z0-9_-]", "_", n)
        is_error = any(item[0].error_messages() for item in lst)
        is_trap = any(item[0].trap for item in lst)
        stats["tests"] += 1
        # build units: (anchor entry, code, output)
        units = []
        carry_code, carry_out = [], []
        for item in lst:
            e, before = item[0], item[1]
            after = item[2] if len(item) > 2 else []
            code = before + e.code + after
            if e.visible is None and not is_error:
                carry_code += code
                carry_out += e.output
                drop.add(e.start)
                continue
            units.append([e, carry_code + code, carry_out + e.output])
            carry_code, carry_out = [], []
        if carry_code or carry_out:
            if units:
                units[-1][1] += carry_code
                units[-1][2] += carry_out
            else:  # no comment of this test is shown: one block of hidden lines where it stands
                e = lst[-1][0]
                drop.discard(e.start)
                units.append([e, [(True, t) for _, t in carry_code], carry_out])
        prog = "%s#%s" % (fname, n)
        if is_error:
            stats["errors"] += 1
            anchor = next(item[0] for item in lst if item[0].error_messages())
            code = []
            for u in units:
                e = u[0]
                if e is anchor:
                    offset = len(code)
                    code += u[1]
                else:
                    code += [(True, t) for _, t in u[1]]
                    drop.add(e.start)
            errs = error_lines(anchor, code, 0)
            replace[anchor.start] = (anchor, block_lines(anchor.indent, "", code, None, errors=errs))
            manifest.append({"file": fname, "program": prog, "anchor": anchor.start, "index": 0,
                             "expectation": "errors", "code": code_text(code)})
            continue
        if is_trap:
            stats["traps"] += 1
        attrs = " group=" + group if len(units) > 1 else ""
        if len(units) > 1:
            stats["groups"] += 1
        for idx, (e, code, output) in enumerate(units):
            last = idx == len(units) - 1
            trap = None
            if is_trap and last:
                trap = trap_guess([t for item in lst for t in item[0].trap])
            unordered = "%s:%s:%d" % (fname, n, idx) in UNORDERED
            replace[e.start] = (e, block_lines(e.indent, attrs, code, output, trap=trap, unordered=unordered))
            manifest.append({"file": fname, "program": prog, "anchor": e.start, "index": idx,
                             "expectation": "trap" if trap is not None else "output",
                             "code": code_text(code)})
    # write the chapter
    out = []
    starts = {e.start: e for e in entries}
    fence_line = {}
    i = 0
    vis_skip = {}
    for e in entries:
        if e.start in replace and e.visible:
            vis_skip[e.visible[0]] = e
    while i < len(lines):
        if i in vis_skip:  # the visible listing: replaced by the test's block, which follows
            e = vis_skip[i]
            i = e.visible[1] + 1
            while i < e.start and not lines[i].strip():
                i += 1
            continue
        if i in starts:
            e = starts[i]
            if e.start in replace:
                fence_line[e.start] = len(out) + 1
                out += replace[e.start][1]
            i = e.end + 1
            continue
        out.append(lines[i])
        i += 1
    for m in manifest:
        if m["file"] == fname and "line" not in m:
            m["line"] = fence_line[m.pop("anchor")]
    return out


def code_text(code):
    return [[hidden, text] for hidden, text in code]


def main():
    book, course = sys.argv[1], sys.argv[2]
    if "--unordered" in sys.argv:  # a list the maintainer keeps: one "file:test:index" a line
        UNORDERED.update(l.strip() for l in open(sys.argv[sys.argv.index("--unordered") + 1]) if l.strip())
    if os.path.exists(course):
        shutil.rmtree(course)
    os.makedirs(course)
    shutil.copytree(os.path.join(book, "TSPL.docc", "Assets"), os.path.join(course, "Assets"))
    with open(os.path.join(course, "course.json"), "w") as f:
        json.dump({"title": "The Swift Programming Language", "language": "en",
                   "limitNotes": "optional"}, f, indent=2)
        f.write("\n")
    manifest = []
    stats = {"tests": 0, "errors": 0, "traps": 0, "groups": 0}
    for n, (name, path) in enumerate(chapter_order(book), 1):
        fname = "%02d-%s.md" % (n, kebab(name))
        lines = open(path).read().split("\n")
        out = convert_chapter(lines, fname, manifest, stats)
        with open(os.path.join(course, fname), "w") as f:
            f.write("\n".join(out))
    with open(os.path.join(os.path.dirname(os.path.abspath(course)), "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    progs = len({m["program"] for m in manifest})
    print("chapters %d, tests %d (groups %d, errors %d, traps %d), programs %d, blocks %d" % (
        n, stats["tests"], stats["groups"], stats["errors"], stats["traps"], progs, len(manifest)))


if __name__ == "__main__":
    main()
