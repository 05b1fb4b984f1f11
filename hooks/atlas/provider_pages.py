"""One page per provider and language, generated from data/: every fact with its words,
note, sources and verified date, and links to the pages that explain each field.

The hook adds a virtual Markdown file per provider (`providers/<id>.md` in each language
folder); its body is one marker that `render_page` turns into HTML. Links inside the HTML
start with `atlas-root:` and are made relative to the page by `relative_links`.
"""
from __future__ import annotations

import datetime as dt
import posixpath
from pathlib import Path

import yaml
from markupsafe import escape

from .data import Atlas, Provider
from .reader import ReaderData
from .render import local_date, pieces, render
from .tables import ICONS, TONES
from .translations import front_matter

ROOT_LINK = "atlas-root:"
MARKER = "<!-- reader-slot {} -->"   # not a marker: reader_hooks.py swaps the whole body for the rendered page


def src_uri(lang: str, provider_id: str) -> str:
    """Where the virtual Markdown file pretends to live inside docs/."""
    return f"{lang}/providers/{provider_id}.md"


def dest_uri(lang: str, provider_id: str, default: str = "en") -> str:
    """The page's path in the built site: providers/aws.html, hi/providers/aws.html."""
    return ("" if lang == default else f"{lang}/") + f"providers/{provider_id}.html"


def markdown(atlas: Atlas, lang: str, p: Provider) -> str:
    """The virtual page's Markdown: front matter and a placeholder. atlas_hooks.py escapes the
    title and description for the theme, as for every page; YAML dumping keeps any name from
    breaking the front matter."""
    meta = {"title": p.name, "description": atlas.t(lang, "reader.provider.description", name=p.name)}
    return "---\n" + yaml.safe_dump(meta, allow_unicode=True, sort_keys=False) + "---\n\n" + MARKER.format(p.id) + "\n"


def page_titles(root: Path, lang: str) -> dict[str, str]:
    """Title of every page in `lang` (English where a page has no translation), by path."""
    titles = {}
    for folder in ("en", lang):
        base = root / "docs" / folder
        for path in base.rglob("*.md"):
            title = front_matter(path.read_text(encoding="utf-8")).get("title")
            if title:
                titles[path.relative_to(base).as_posix()] = str(title)
    return titles


def render_page(atlas: Atlas, reader: ReaderData, lang: str, provider_id: str, *, titles: dict[str, str],
                report_url: str) -> str:
    """HTML body of one provider's page in `lang` (KeyError for an unknown provider)."""
    by_id = {p.id: p for p in atlas.providers}
    p = by_id[provider_id]
    t = lambda key, **kw: atlas.t(lang, f"reader.provider.{key}", **kw)  # noqa: E731
    rows = []
    for f in atlas.all_fields:
        fact = p.facts[f]
        items, label = None, ""
        if f in atlas.list_fields and fact.known:
            items = tuple((i, atlas.item_label(lang, f, i)) for i in fact.value)
            tone, icon = ("list", "") if items else ("no", ICONS[3])
            label = "" if items else atlas.t(lang, f"fields.{f}.empty")
        else:
            rank = atlas.rank(f, fact.value)
            bucket = min(3, int(rank)) if fact.known else 2
            tone, icon, label = TONES[bucket], ICONS[bucket], atlas.value_label(lang, f, fact.value)
        links = [(ROOT_LINK + path[:-3] + ".html", titles.get(path, path)) for path in reader.discussed_in.get(f, ())]
        rows.append({
            "field": f, "name": atlas.t(lang, f"fields.{f}.label"), "tone": tone, "icon": icon, "label": label,
            "chips": items, "sources": fact.sources, "note": atlas.note(lang, p.id, f), "links": links,
            "verified": fact.verified, "verified_text": local_date(fact.verified, lang) if fact.verified else "",
        })
    as_of = atlas.newest_verified or dt.date.today()
    return render(
        "provider_page.html", p=p, t=t, rows=rows, lang=lang, category=atlas.t(lang, f"categories.{p.category}"),
        verified=pieces(atlas.t(lang, "table.verified")), report_url=report_url, report=atlas.t(lang, "table.report"),
        note_label=atlas.t(lang, "table.note"), root=ROOT_LINK,
        as_of=pieces(atlas.t(lang, "table.data_as_of")), as_of_text=local_date(as_of, lang), as_of_iso=as_of.isoformat(),
    )


def relative_links(html: str, page_url: str, lang: str, default: str = "en") -> str:
    """Turn `atlas-root:` links into links relative to the page, inside its language folder."""
    if ROOT_LINK not in html:
        return html
    here = posixpath.dirname(page_url)
    if lang != default and (here == lang or here.startswith(lang + "/")):
        here = here[len(lang):].lstrip("/")
    prefix = "../" * (here.count("/") + 1) if here else ""
    return html.replace(f'href="{ROOT_LINK}', f'href="{prefix}')
