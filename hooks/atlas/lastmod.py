"""Sitemap `lastmod` from each page's last commit, not from the day of the build.

A page's date is the last commit of the Markdown it is built from (its translation, or the
English page it falls back to); a page that shows provider data (tables, the chooser, generated
questions, a provider's own page) is as new as the newest of that file and the data and words it
shows. Without git history (a copy that is not a checkout), the sitemap keeps the build date.
"""
from __future__ import annotations

import gzip
import re
import subprocess
from pathlib import Path

DATA_MARKER = re.compile(r"<!--\s*(?:providers:|reader:|quiz:generated)")


def commit_dates(root: Path) -> dict[str, str]:
    """repository path -> date (YYYY-MM-DD) of the last commit that changed it, for docs/ and data/."""
    try:
        out = subprocess.run(["git", "-c", "safe.directory=*", "-c", "core.quotepath=off", "-C", str(root), "log",
                              "--format=%x00%cs", "--name-only", "--no-renames", "--", "docs", "data"],
                             capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return {}
    if out.returncode != 0:
        return {}
    dates: dict[str, str] = {}
    for chunk in out.stdout.split("\x00")[1:]:
        date, _, names = chunk.partition("\n")
        for name in names.split("\n"):
            if name.strip():
                dates.setdefault(name.strip(), date.strip())
    return dates


def page_date(root: Path, dates: dict[str, str], lang: str, rel_html: str, default: str = "en") -> str | None:
    """The date of one built page (`rel_html` inside its language folder: guides/storage.html)."""
    if not dates:
        return None
    sources = []
    if rel_html.startswith("providers/") and rel_html != "providers.html":
        sources = ["data/providers.yaml", f"data/i18n/{lang}.yaml"]
    else:
        md = rel_html[: -len(".html")] + ".md"
        own = f"docs/{lang}/{md}"
        src = own if (root / own).is_file() else f"docs/{default}/{md}"
        sources = [src]
        try:
            if DATA_MARKER.search((root / src).read_text(encoding="utf-8")):
                sources += ["data/providers.yaml", f"data/i18n/{lang}.yaml"]
        except OSError:
            pass
    found = [dates[s] for s in sources if s in dates]
    return max(found) if found else None


def rewrite_sitemaps(site: Path, root: Path, site_url: str, languages: tuple[str, ...], default: str = "en") -> int:
    """Put each page's own date in every sitemap.xml (and .gz) of the built site; returns the
    number of entries dated."""
    dates = commit_dates(root)
    if not dates:
        return 0
    base = site_url if site_url.endswith("/") else site_url + "/"
    dated = 0

    def one(m: re.Match) -> str:
        nonlocal dated
        block = m.group(0)
        loc = re.search(r"<loc>([^<]+)</loc>", block)
        if not loc or not loc.group(1).startswith(base):
            return block
        rel = loc.group(1)[len(base):]
        first, _, rest = rel.partition("/")
        lang, page = (first, rest) if first in languages and first != default and rest else (default, rel)
        date = page_date(root, dates, lang, page or "index.html", default)
        if not date:
            return block
        dated += 1
        return re.sub(r"<lastmod>[^<]*</lastmod>", f"<lastmod>{date}</lastmod>", block)

    for sitemap in site.rglob("sitemap.xml"):
        text = sitemap.read_text(encoding="utf-8")
        new = re.sub(r"<url>.*?</url>", one, text, flags=re.S)
        if new != text:
            sitemap.write_text(new, encoding="utf-8")
            gz = sitemap.with_name("sitemap.xml.gz")
            if gz.exists():
                gz.write_bytes(gzip.compress(new.encode("utf-8"), mtime=0))
    return dated
