"""Our own scripts and styles as readers get them: one script, comments and indentation out.

The sources under overrides/assets/ stay readable, with their comments; after the build
`bundle` rewrites the copies in the site folder. Nothing here parses JavaScript: the
sources are written so that dropping whole comment lines and leading spaces is safe (each
file is one IIFE; no template literals; no line starts inside a string or comment).
`tests/test_reader_tools.py` checks the bundle still runs and stays under budget.
"""
from __future__ import annotations

import re
from pathlib import Path

# The order the separate files had in overrides/main.html; all deferred, so it is also the
# order they ran in.
PARTS = ("atlas-page.js", "atlas-table.js", "atlas-quiz.js", "atlas-reader.js")
# Loaded only by the page that uses it (overrides/main.html: page.meta.atlas_side_by_side, the 404 page),
# after the bundle, whose table script it uses: minified, not joined.
ALONE = ("atlas-sbs.js", "atlas-404.js")
BUNDLE = "atlas.js"
SEARCH = ("atlas-fold.js", "min/lunr.hin.min.js", "min/lunr.vi.min.js", "min/lunr.uni.min.js")   # under javascripts/lunr
# Each search language file's one line that imports the folding code: the built file carries
# that code itself. In a worker that is one request less; in the iframe that stands in for a
# worker in an offline copy (iframe-worker), importScripts is asynchronous, and a language file
# that imported its helper would define nothing in time.
FOLD_IMPORT = 'importScripts("../lunr/atlas-fold.js")'


def minify_js(text: str) -> str:
    """`text` without comment lines, blank lines and indentation. Line breaks stay, so code
    written without semicolons keeps its meaning."""
    out, in_comment = [], False
    for line in text.splitlines():
        s = line.strip()
        if in_comment:
            in_comment = "*/" not in s
            continue
        if s.startswith("/*"):
            in_comment = "*/" not in s
            continue
        if s and not s.startswith("//"):
            out.append(s)
    return "\n".join(out) + "\n"


def minify_css(text: str) -> str:
    """`text` without comments and with whitespace only where CSS needs it."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"\s+", " ", text)
    return re.sub(r"\s*([{};,>])\s*", r"\1", text).strip() + "\n"


def bundle(site: Path) -> dict[str, int]:
    """In a built site: join our scripts into assets/atlas/atlas.js, minify atlas.css and the
    search-language files. Returns bytes written per file (for the benchmark's report)."""
    folder = site / "assets" / "atlas"
    written: dict[str, int] = {}
    parts = [folder / name for name in PARTS if (folder / name).is_file()]
    if parts:
        # ";" between the IIFEs: without it, "})()" followed by "(function" is a call.
        js = ";\n".join(minify_js(p.read_text(encoding="utf-8")) for p in parts)
        (folder / BUNDLE).write_text(js, encoding="utf-8")
        written[BUNDLE] = len(js.encode("utf-8"))
        for p in parts:
            p.unlink()
    targets = [(folder / "atlas.css", minify_css)] + [(folder / name, minify_js) for name in ALONE]
    targets += [(site / "assets" / "javascripts" / "lunr" / name, minify_js) for name in SEARCH]
    fold_path = site / "assets" / "javascripts" / "lunr" / "atlas-fold.js"
    fold = minify_js(fold_path.read_text(encoding="utf-8")) if fold_path.is_file() else None
    for path, minify in targets:
        if path.is_file():
            small = minify(path.read_text(encoding="utf-8"))
            if fold is not None and FOLD_IMPORT in small:
                small = small.replace(FOLD_IMPORT + "\n", fold, 1)
            path.write_text(small, encoding="utf-8")
            written[path.name] = len(small.encode("utf-8"))
    return written
