#!/usr/bin/env python3
"""Judge a converted course block by block with plain swiftc (no coursebook code).

Usage: judge.py plain MANIFEST COURSE_DIR OUT.json [-j 2] [--deterministic-hashing]
       judge.py compare PLAIN.json REPORT.json [--limit 20]

plain: every program of the manifest (a group's blocks concatenated; a scenario alone) is
compiled with `swiftc -module-name main main.swift` (errors: `-typecheck`) and run, two at a
time. Per-block output: between two blocks the program prints a separator character
(U+001E, no newline) and `#sourceLocation` restores the line numbers, so `#line` and
diagnostics are the program's own; stdout is split at the separators. The code and the
expected blocks are read from the lesson files (so a lesson after `--update` is judged as it
is now). A program whose separators break its compile is run again without them (unsplit).

The programs run as a user runs them, with a random hash seed, so a `Set` or `Dictionary`
printed whole comes out in an order that changes from run to run. `--deterministic-hashing`
runs them with SWIFT_DETERMINISTIC_HASHING=1 instead (as coursebook runs every scenario), to
tell plain's own run-to-run differences from coursebook's.
"""
import json, os, re, subprocess, sys, tempfile, time, fnmatch
from concurrent.futures import ThreadPoolExecutor

SEP = "\x1e"
PROGRAM_ENV = None
TRAP_WORDS = ("Fatal error:", "Precondition failed:", "Assertion failed:", "Simultaneous accesses to")


def read_block(lines, fence):
    """The scenario block whose opening fence is at 1-based line `fence`: code (hidden marks
    removed), and the expectation blocks after it."""
    i = fence - 1
    opening = lines[i]
    indent = opening[: len(opening) - len(opening.lstrip())]
    ticks = re.match(r"`+", opening.lstrip()).group(0)
    code = []
    i += 1
    while lines[i].strip() != ticks:
        l = lines[i]
        l = l[len(indent):] if l.startswith(indent) else l.lstrip(" ")
        body = l.lstrip(" \t")
        lead = l[: len(l) - len(body)]
        if body.startswith("# ") or body == "#":
            l = lead + body[2:]
        code.append(l)
        i += 1
    i += 1
    blocks = {}
    while i < len(lines):
        if not lines[i].strip():
            i += 1
            continue
        m = re.match(r"\s*```(output|errors|trap)(.*)$", lines[i])
        if not m:
            break
        kind, attrs = m.group(1), m.group(2).split()
        j = i + 1
        body = []
        while lines[j].strip() != "```":
            l = lines[j]
            body.append(l[len(indent):] if l.startswith(indent) else l.lstrip(" "))
            j += 1
        blocks[kind] = (body, "unordered" in attrs)
        i = j + 1
    return code, blocks


def glob_match(pattern, line):
    rx = ""
    k = 0
    while k < len(pattern):
        c = pattern[k]
        if c == "\\" and k + 1 < len(pattern) and pattern[k + 1] in "*?\\":
            rx += re.escape(pattern[k + 1]); k += 2; continue
        rx += ".*" if c == "*" else "." if c == "?" else re.escape(c)
        k += 1
    return re.fullmatch(rx, line, re.S) is not None


def line_match(p, line):
    return glob_match(p[: -len(" (glob)")], line) if p.endswith(" (glob)") else p == line


def seq_match(pats, lines):
    memo = {}

    def go(a, b):
        if (a, b) in memo:
            return memo[(a, b)]
        if a == len(pats):
            r = b == len(lines)
        elif pats[a] == "...":
            r = any(go(a + 1, k) for k in range(b, len(lines) + 1))
        else:
            r = b < len(lines) and line_match(pats[a], lines[b]) and go(a + 1, b + 1)
        memo[(a, b)] = r
        return r

    return go(0, 0)


def unordered_match(pats, lines):
    left = list(lines)
    wild = False
    for p in pats:
        if p == "...":
            wild = True
            continue
        for k, l in enumerate(left):
            if line_match(p, l):
                del left[k]
                break
        else:
            return False
    return wild or not left


def output_matches(expected, unordered, actual):
    exp = list(expected)
    act = actual.split("\n")
    if act and act[-1] == "":
        act.pop()
    while exp and exp[-1] == "" and len(exp) > len(act):
        exp.pop()
    return unordered_match(exp, act) if unordered else seq_match(exp, act)


def run(cmd, cwd, timeout=60, env=None):
    t = time.time()
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, timeout=timeout, env=env)
        return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace"), time.time() - t
    except subprocess.TimeoutExpired as e:
        return "timeout", (e.stdout or b"").decode("utf-8", "replace"), (e.stderr or b"").decode("utf-8", "replace"), time.time() - t


def compiler_errors(stderr):
    out = []
    for l in stderr.split("\n"):
        m = re.match(r"main\.swift:(\d+):(\d+): error: (.*)$", l)
        if m:
            # the diagnostic group newer compilers append (` [#OpaqueTypeInference]`) is not the message
            out.append((int(m.group(1)), int(m.group(2)), re.sub(r" \[#\w+\]$", "", m.group(3))))
    return out


def judge_program(prog, blocks, course):
    """blocks: manifest rows of one program, in order. Returns per-block verdicts."""
    per = []
    for b in blocks:
        lines = open(os.path.join(course, b["file"])).read().split("\n")
        per.append(read_block(lines, b["line"]))
    res = {"program": prog, "blocks": [], "compiled": None, "time": 0.0, "note": ""}
    with tempfile.TemporaryDirectory(prefix="judge") as d:
        if blocks[0]["expectation"] == "errors":
            code, exp = per[0]
            open(os.path.join(d, "main.swift"), "w").write("\n".join(code) + "\n")
            rc, out, err, t = run(["swiftc", "-typecheck", "-module-name", "main", "main.swift"], d)
            res["time"] = t
            if rc == 0:  # what a type-check does not see, a build does (SIL diagnostics): build it
                rc, out, err, t = run(["swiftc", "-module-name", "main", "main.swift", "-o", "prog"], d, timeout=300)
                res["time"] += t
                res["note"] = "type-checks; built"
            res["compiled"] = rc == 0
            got = compiler_errors(err)
            want = exp.get("errors", ([], False))[0]
            ok = rc != 0 and len(got) == len([w for w in want if w.strip()])
            if ok:
                for (gl, gc, gm), w in zip(got, [w for w in want if w.strip()]):
                    m = re.match(r"(\d+)(?::(\d+))?: error: (.*)$", w)
                    if not m or int(m.group(1)) != gl or (m.group(2) and int(m.group(2)) != gc) or m.group(3) != gm:
                        ok = False
            res["actual_errors"] = ["%d:%d: error: %s" % g for g in got]
            res["blocks"].append({"file": blocks[0]["file"], "line": blocks[0]["line"], "status": "passed" if ok else "failed",
                                  "why": "" if ok else ("compiled" if rc == 0 else "errors differ")})
            return res
        src, line = [], 1
        for k, (code, _) in enumerate(per):
            src += code
            line += len(code)
            if k < len(per) - 1:
                src += ['print("\\u{1E}", terminator: "")', '#sourceLocation(file: "main.swift", line: %d)' % line]
        plain = [l for code, _ in per for l in code]
        open(os.path.join(d, "main.swift"), "w").write("\n".join(src) + "\n")
        rc, out, err, t = run(["swiftc", "-module-name", "main", "main.swift", "-o", "prog"], d, timeout=300)
        res["time"] += t
        split = True
        if rc != 0:
            open(os.path.join(d, "main.swift"), "w").write("\n".join(plain) + "\n")
            rc2, out2, err2, t2 = run(["swiftc", "-module-name", "main", "main.swift", "-o", "prog"], d, timeout=300)
            res["time"] += t2
            if rc2 == 0:
                split = False
                res["note"] = "separators broke the compile: run unsplit"
            else:
                res["compiled"] = False
                res["compile_errors"] = err2.strip().split("\n")[:6]
                for b in blocks:
                    res["blocks"].append({"file": b["file"], "line": b["line"], "status": "failed", "why": "does not compile"})
                return res
        res["compiled"] = True
        rc, out, err, t = run(["stdbuf", "-o0", "./prog"], d, timeout=20, env=PROGRAM_ENV)
        res["time"] += t
        res["exit"] = rc
        segs = out.split(SEP) if split else [out]
        ended_ok = rc == 0
        trapped = isinstance(rc, int) and rc < 0
        msg = None
        if trapped:
            cand = [l for l in err.split("\n") if any(w in l for w in TRAP_WORDS)]
            if cand:
                last = cand[-1]
                pos = min(last.index(w) for w in TRAP_WORDS if w in last)
                msg = last[pos:]
            else:
                msg = ""
        res["trap"] = msg
        res["stderr_tail"] = err.strip().split("\n")[-3:]
        if not split:
            exp_all = [l for _, e in per for l in e.get("output", ([], False))[0]]
            same = output_matches(exp_all, False, out) and ended_ok
            for b in blocks:
                res["blocks"].append({"file": b["file"], "line": b["line"], "status": "passed" if same else "failed", "why": "unsplit"})
            return res
        for k, (b, (code, exp)) in enumerate(zip(blocks, per)):
            reached = k < len(segs) - 1 or (k == len(segs) - 1 and (ended_ok or trapped) and len(segs) == len(per))
            actual = segs[k] if k < len(segs) else None
            entry = {"file": b["file"], "line": b["line"], "actual": actual}
            if "output" not in exp:
                entry["status"] = "no-output-block"
            elif b["expectation"] == "trap":
                want_out, unord = exp["output"]
                want_msg = exp.get("trap", ([], False))[0]
                want_msg = want_msg[0] if want_msg else ""
                ok = trapped and actual is not None and output_matches(want_out, unord, actual) and (
                    line_match(want_msg, msg) if want_msg else msg == "")
                entry["status"] = "passed" if ok else "failed"
                entry["why"] = "" if ok else ("did not trap (exit %s)" % rc if not trapped else "trap or output differs")
            else:
                want_out, unord = exp["output"]
                if not reached or actual is None:
                    entry["status"], entry["why"] = "failed", "not reached (exit %s)" % rc
                else:
                    ok = output_matches(want_out, unord, actual)
                    entry["status"] = "passed" if ok else "failed"
                    entry["why"] = "" if ok else "output differs"
            res["blocks"].append(entry)
        return res


def safe_judge(prog, blocks, course):
    try:
        return judge_program(prog, blocks, course)
    except Exception as e:  # the judge's own failure: every block of the program is unjudged
        return {"program": prog, "compiled": None, "time": 0.0, "note": "judge failed: %r" % e,
                "blocks": [{"file": b["file"], "line": b["line"], "status": "unjudged"} for b in blocks]}


def plain(manifest_path, course, out_path, jobs=2):
    manifest = json.load(open(manifest_path))
    progs = {}
    for m in manifest:
        progs.setdefault(m["program"], []).append(m)
    for v in progs.values():
        v.sort(key=lambda m: m["index"])
    t0 = time.time()
    load0 = os.getloadavg()
    with ThreadPoolExecutor(jobs) as ex:
        results = list(ex.map(lambda kv: safe_judge(kv[0], kv[1], course), progs.items()))
    wall = time.time() - t0
    json.dump({"wall": wall, "load_before": load0, "load_after": os.getloadavg(), "programs": results},
              open(out_path, "w"), indent=1)
    print("plain swiftc: %d programs in %.1f s wall (load %.2f -> %.2f)" % (len(results), wall, load0[0], os.getloadavg()[0]))


def compare(plain_path, report_path, limit=20):
    P = json.load(open(plain_path))
    R = json.load(open(report_path))
    cb = {}
    for s in R["scenarios"]:
        cb[(os.path.basename(s["file"]), s["line"])] = s
    stats = dict(programs=0, compiled_agree=0, compiled_disagree=0, plain_compiled=0, cb_compiled=0,
                 blocks=0, agree=0, disagree=0, missing=0, errors_tests=0, errors_refused_plain=0,
                 errors_refused_cb=0, plain_passed=0, cb_passed=0)
    diffs = []
    for p in P["programs"]:
        stats["programs"] += 1
        is_err = "actual_errors" in p
        cbs = [cb.get((b["file"], b["line"])) for b in p["blocks"]]
        cb_compiled = None
        if all(cbs):
            ids = {f["id"] for s in cbs for f in s["findings"]}
            if is_err:
                cb_compiled = "errors-compiled" in ids
            else:
                cb_compiled = "compile-error" not in ids
        if is_err:
            stats["errors_tests"] += 1
            stats["errors_refused_plain"] += (not p["compiled"])
            stats["errors_refused_cb"] += (cb_compiled is False)
        else:
            stats["plain_compiled"] += bool(p["compiled"])
            stats["cb_compiled"] += bool(cb_compiled)
            if cb_compiled is not None:
                if cb_compiled == p["compiled"]:
                    stats["compiled_agree"] += 1
                else:
                    stats["compiled_disagree"] += 1
        for b, s in zip(p["blocks"], cbs):
            stats["blocks"] += 1
            if s is None:
                stats["missing"] += 1
                diffs.append((b["file"], b["line"], b["status"], "absent from report", p["program"], ""))
                continue
            stats["plain_passed"] += b["status"] == "passed"
            stats["cb_passed"] += s["status"] == "passed"
            if (b["status"] == "passed") == (s["status"] == "passed"):
                stats["agree"] += 1
            else:
                stats["disagree"] += 1
                diffs.append((b["file"], b["line"], "%s (%s)" % (b["status"], b.get("why", "")),
                              "%s %s" % (s["status"], ",".join(f["id"] for f in s["findings"])), p["program"],
                              (repr(b.get("actual"))[:120] + " | cb: " + repr(s.get("actual"))[:120])))
    for k, v in stats.items():
        print("%s: %s" % (k, v))
    print("coursebook summary:", R["summary"])
    for d in diffs[:limit]:
        print("DIFF %s:%s plain=%s coursebook=%s [%s] %s" % d)
    return stats, diffs


if __name__ == "__main__":
    if "--deterministic-hashing" in sys.argv:
        sys.argv.remove("--deterministic-hashing")
        PROGRAM_ENV = dict(os.environ, SWIFT_DETERMINISTIC_HASHING="1")
    if sys.argv[1] == "plain":
        plain(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[6]) if len(sys.argv) > 6 else 2)
    elif sys.argv[1] == "compare":
        compare(sys.argv[2], sys.argv[3], int(sys.argv[5]) if len(sys.argv) > 5 else 20)
