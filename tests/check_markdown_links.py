#!/usr/bin/python3
"""Checks that every relative link in the repository's Markdown files resolves:
the file or directory exists and, for a link into a Markdown file with a
#fragment, the heading exists (GitHub's anchor rules). Links to other sites
are not followed.  Run: /usr/bin/python3 tests/check_markdown_links.py [ROOT]
Exit status 0 when every link resolves; otherwise one line per broken link."""
import os
import re
import sys

LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^\s*(```|~~~)")
SKIP_DIRS = {".git", "build", "targets", "__pycache__"}


def markdown_files(root):
    for d, dirs, files in os.walk(root):
        dirs[:] = sorted(x for x in dirs if x not in SKIP_DIRS and not x.startswith((".", "build-")))
        for f in sorted(files):
            if f.endswith(".md"):
                yield os.path.join(d, f)


def prose_lines(text):
    """The lines outside fenced code blocks, with inline code removed."""
    fenced = False
    for n, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            yield n, re.sub(r"`[^`]*`", "", line)


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    s = heading.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")


def anchors(path, cache={}):
    if path not in cache:
        seen, result = {}, set()
        with open(path, encoding="utf-8") as f:
            text = f.read()
        fenced = False
        for line in text.splitlines():
            if FENCE.match(line):
                fenced = not fenced
                continue
            m = None if fenced else re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
            if m:
                base = slug(m.group(1))
                k = seen.get(base, 0)
                seen[base] = k + 1
                result.add(base if k == 0 else "%s-%d" % (base, k))
        cache[path] = result
    return cache[path]


def check(root):
    broken = []
    for md in markdown_files(root):
        with open(md, encoding="utf-8") as f:
            text = f.read()
        for n, line in prose_lines(text):
            for m in LINK.finditer(line):
                target = m.group(1)
                if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):  # http:, https:, mailto:
                    continue
                path, _, frag = target.partition("#")
                dest = os.path.normpath(os.path.join(os.path.dirname(md), path)) if path else md
                where = "%s:%d" % (os.path.relpath(md, root), n)
                if not os.path.exists(dest):
                    broken.append("%s: %s: no such file" % (where, target))
                elif frag and dest.endswith(".md") and frag not in anchors(dest):
                    broken.append("%s: %s: no heading with that anchor" % (where, target))
    return broken


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                           os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    broken = check(root)
    for b in broken:
        print(b)
    print("markdown links: %d broken" % len(broken))
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
