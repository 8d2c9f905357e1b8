#!/usr/bin/env python3
"""Look at a built site of the converted book as a reader would.

Usage: site_check.py COURSE_DIR SITE_DIR

- hidden lines: every hidden line (`# ` in a scenario block) of at least 20 characters whose
  text is not also shown somewhere in its lesson: is it anywhere in the lesson's page text?
- `doc:` links left in the page (an href or literal `<doc:` text);
- images: every <img src> must name a file of the site;
- asides: DocC asides (`> Note:` ...) in the lesson against `class="callout ...` on the page.
"""
import html, os, re, sys

ASIDES = ("note", "important", "warning", "tip", "experiment", "remark", "precondition")


def page_text(h):
    h = re.sub(r"<script.*?</script>|<style.*?</style>", "", h, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", "", h))


def hidden_and_shown(md):
    hidden, shown = [], []
    inside = False
    for l in md.split("\n"):
        s = l.strip()
        if s.startswith("```"):
            inside = s.startswith("```swift scenario") or s.startswith("````swift scenario")
            continue
        if inside:
            if s.startswith("# "):
                hidden.append(s[2:].strip())
            else:
                shown.append(s)
        else:
            shown.append(s)
    return hidden, "\n".join(shown)


def main():
    course, site = sys.argv[1], sys.argv[2]
    totals = dict(pages=0, hidden_checked=0, hidden_on_page=0, doc_links=0, images=0, images_missing=0,
                  asides_in_lessons=0, callouts_on_pages=0, raw_placeholders=0)
    for f in sorted(os.listdir(course)):
        if not f.endswith(".md"):
            continue
        md = open(os.path.join(course, f)).read()
        page = os.path.join(site, f[:-3] + ".html")
        if not os.path.exists(page):
            cands = [p for p in os.listdir(site) if p.startswith(f[:2]) and p.endswith(".html")]
            if not cands:
                print("no page for", f)
                continue
            page = os.path.join(site, cands[0])
        h = open(page).read()
        totals["pages"] += 1
        text = page_text(h)
        hidden, shown = hidden_and_shown(md)
        for line in hidden:
            if len(line) >= 20 and line not in shown:
                totals["hidden_checked"] += 1
                if line in text:
                    totals["hidden_on_page"] += 1
                    print("HIDDEN LINE SHOWN %s: %s" % (f, line))
        for m in re.finditer(r'href="doc:[^"]*"|<doc:\w+', h):
            totals["doc_links"] += 1
            print("DOC LINK %s: %s" % (f, m.group(0)))
        if "&lt;doc:" in h:
            n = h.count("&lt;doc:")
            totals["doc_links"] += n
            print("DOC LINK TEXT %s: %d" % (f, n))
        for m in re.finditer(r'<img[^>]*\ssrc="([^"]+)"', h):
            totals["images"] += 1
            src = html.unescape(m.group(1)).split("#")[0].split("?")[0]
            if src.startswith("data:") or src.startswith("http"):
                continue
            if not os.path.exists(os.path.normpath(os.path.join(os.path.dirname(page), src))):
                totals["images_missing"] += 1
                print("IMAGE MISSING %s: %s" % (f, src))
        asides = len(re.findall(r"^\s*> (%s):" % "|".join(ASIDES), md, re.M | re.I))
        callouts = len(re.findall(r'class="callout callout-', h))
        totals["asides_in_lessons"] += asides
        totals["callouts_on_pages"] += callouts
        if asides != callouts:
            print("ASIDES %s: %d in the lesson, %d callouts on the page" % (f, asides, callouts))
        n = h.count("&lt;#")
        totals["raw_placeholders"] += n
    for k, v in totals.items():
        print("%s: %s" % (k, v))


if __name__ == "__main__":
    main()


def search_check(course, site):
    """Hidden lines of a lesson in the Pagefind record of its own page."""
    import glob, gzip, json
    records = {}
    for f in glob.glob(os.path.join(site, "pagefind", "fragment", "*.pf_fragment")):
        d = gzip.decompress(open(f, "rb").read())
        if d.startswith(b"pagefind_dcd"):
            d = d[len(b"pagefind_dcd"):]
        j = json.loads(d)
        records[j["url"].strip("/").replace(".html", "")] = j["content"]
    n = hit = 0
    for f in sorted(os.listdir(course)):
        if not f.endswith(".md"):
            continue
        hidden, shown = hidden_and_shown(open(os.path.join(course, f)).read())
        text = records.get(f[:-3], "")
        for line in hidden:
            if len(line) >= 20 and line not in shown:
                n += 1
                if line in text:
                    hit += 1
                    print("HIDDEN LINE IN SEARCH %s: %s" % (f, line))
    print("search records: %d; hidden lines checked: %d; in their page's record: %d" % (len(records), n, hit))


if __name__ == "__main__" and len(sys.argv) > 3 and sys.argv[3] == "--search":
    search_check(sys.argv[1], sys.argv[2])
