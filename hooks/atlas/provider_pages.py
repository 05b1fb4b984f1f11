"""One page per provider and language, generated from data/: every fact with its words,
note, sources and verified date, and links to the pages that explain each field.

MkDocs renders one stand-in page per language (`STAND_IN`: an id and a name nobody can
type), so the theme's header, navigation, language selector and head are rendered once;
`stamp` then makes each provider's page from it: its id and name in place of the stand-in's,
its body (`render_page`) in place of the slot. A thousand providers cost a thousand string
substitutions and body renders, not a thousand theme renders. The stand-in's sitemap entry
becomes one per provider (`expand_sitemap`) and its file is removed (`remove_stand_ins`).
Links inside the HTML start with `atlas-root:` and are made relative by `relative_links`.
"""
from __future__ import annotations

import datetime as dt
import posixpath
import re
import secrets
from collections.abc import Iterable
from pathlib import Path
from types import SimpleNamespace

import yaml
from markupsafe import escape

from .data import Atlas, Provider
from .reader import ReaderData
from . import cells, files, tables
from .render import local_date, pieces
from .translations import front_matter

ROOT_LINK = "atlas-root:"
_token = secrets.token_hex(8)
STAND_IN = SimpleNamespace(id=f"atlas-provider-{_token}", name=f"Atlasprovider{_token}")
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


def page_titles(root: Path, lang: str, paths: Iterable[str]) -> dict[str, str]:
    """Title of each page of `paths` (inside a language folder) in `lang`, English where the
    page has no translation; a page with neither is left out (its path stands for it)."""
    titles = {}
    for path in sorted(set(paths)):
        for folder in (lang, "en"):
            try:
                title = front_matter(files.read_text(root / "docs" / folder / path, root)).get("title")
            except files.FileProblem:   # missing here, or reported by the page checks
                continue
            if title:
                titles[path] = str(title)
                break
    return titles


def render_page(atlas: Atlas, reader: ReaderData, lang: str, provider_id: str, *, titles: dict[str, str],
                report_url: str, today: dt.date | None = None, root: str = ROOT_LINK) -> str:
    """HTML body of one provider's page in `lang` (KeyError for an unknown provider). Each
    value cell is the comparison tables' own cell for that provider and field (its words,
    verified date, stale mark, note and the source's own words: cells.evidence), the block that
    every table cell links to and opens in place; the words around the rows are made once per
    language (`_frame`). Links start with `root` (`atlas-root:` until relative_links runs, or
    the page's own way up, `root_prefix`). Every value is escaped: data and translations are text."""
    p = _by_id(atlas)[provider_id]
    today = today or dt.date.today()
    frame = _frame(atlas, reader, lang, titles, report_url, today, root)
    rows = []
    starts = frame["starts"]   # a row's opening is the same for every provider with that value
    for f in atlas.all_fields:
        fact = p.facts[f]
        start = starts.get((f, fact.value))
        if start is None:
            value = " ".join(fact.value) if isinstance(fact.value, tuple) else fact.value
            start = starts[(f, fact.value)] = (f'<tr id="{cells.fact_anchor(f)}" data-field="{escape(f)}" '
                                               f'data-value="{escape(value)}">\n<th scope="row">{frame["names"][f]}')
        rows.append(f'{start}'
                    # the tables' own cell, inert, for compare/side-by-side.html, which reads this page
                    f'<template class="atlas-cell">{tables.cell(atlas, lang, p, f, today)}</template></th>\n'
                    f'<td>{cells.evidence(atlas, lang, p, f, today)}</td>\n<td>{frame["links"][f]}</td>\n</tr>')
    name, pid = escape(p.name), escape(p.id)
    t = lambda key, **kw: escape(atlas.t(lang, f"reader.provider.{key}", **kw))  # noqa: E731
    return "\n".join([
        f'<h1 id="top">{name}</h1>',
        f'<div class="atlas-provider" data-provider="{pid}">',
        f'<p class="atlas-provider__meta"><span>{frame["category"]}: {escape(atlas.t(lang, f"categories.{p.category}"))}</span>'
        f' · <a href="{escape(p.homepage)}" rel="noopener noreferrer">{t("homepage", name=p.name)}</a>'
        + (f' · <a href="{escape(p.pricing.value)}" rel="noopener noreferrer" data-atlas-pricing>{t("pricing", name=p.name)}</a>'
           f' <span class="atlas-provider__read">({t("pricing_read", date=local_date(p.pricing.verified, lang))})</span>'
           if p.pricing is not None else "") + '</p>',
        frame["intro"],
        f'<caption id="atlas-provider-caption">{t("caption", name=p.name)}</caption>'.join(frame["table"]),
        _linked("\n".join(rows), root),   # the cells' links, all at once
        frame["end"].replace(STAND_IN.id, pid),   # the side-by-side link names this provider
    ])


def _linked(html: str, root: str) -> str:
    """`html` with its atlas-root: links starting at `root`, as the rest of the page's."""
    return html.replace(f'href="{ROOT_LINK}', f'href="{root}') if root != ROOT_LINK else html


_frames: dict[tuple, dict] = {}   # words around the rows, per language, day and link root
_frames_of: list = [None, None]   # the Atlas and ReaderData they were made from


def _frame(atlas: Atlas, reader: ReaderData, lang: str, titles: dict[str, str], report_url: str,
           today: dt.date, root: str) -> dict:
    if _frames_of[0] is not atlas or _frames_of[1] is not reader:   # new data (make serve): start over
        _frames.clear()
        _frames_of[:] = [atlas, reader]
    key = (lang, id(titles), report_url, today, root)   # the frame keeps `titles`, so its id stays its own
    if key not in _frames:
        t = lambda k, **kw: escape(atlas.t(lang, f"reader.provider.{k}", **kw))  # noqa: E731
        links = {}
        for f in atlas.all_fields:
            links[f] = "<br>".join(f'<a href="{escape(root + path[:-3] + ".html")}">{escape(titles.get(path, path))}</a>'
                                   for path in reader.discussed_in.get(f, ()))
        as_of = atlas.newest_verified or today
        when = f'<time datetime="{as_of.isoformat()}">{escape(local_date(as_of, lang))}</time>'
        _frames[key] = {
            "titles": titles,
            "starts": {},
            "category": t("category"),
            "intro": f"<p>{t('intro')}</p>",
            "names": {f: escape(atlas.t(lang, f"fields.{f}.label")) for f in atlas.all_fields},
            "links": links,
            "table": ('<div class="atlas-table__scroll atlas-table__scroll--page" role="region" aria-labelledby="atlas-provider-caption" tabindex="0">\n'
                      '<table class="atlas-table__table atlas-provider__facts">\n',
                      f'\n<thead>\n<tr><th scope="col">{t("field")}</th><th scope="col">{t("value")}</th>'
                      f'<th scope="col">{t("read_more")}</th></tr>\n</thead>\n<tbody>'),
            "end": "\n".join([
                "</tbody>", "</table>", "</div>",
                '<p class="atlas-table__asof">' + "".join(str(escape(words)) + (when if field else "")
                                                           for words, field in pieces(atlas.t(lang, "table.data_as_of")))
                + f' <a href="{escape(report_url)}">{escape(atlas.t(lang, "table.report"))}</a></p>',
                f'<p class="atlas-provider__more"><a href="{escape(root)}providers.html">{t("all_providers")}</a>'
                f' · <a href="{escape(root)}compare/choose.html">{t("choose")}</a>'
                f' · <a href="{escape(root)}compare/side-by-side.html?add={STAND_IN.id}">'
                f'{escape(atlas.t(lang, "reader.compare.link"))}</a></p>',
                "</div>",
            ]),
        }
    return _frames[key]


_index: list = []   # [Atlas, {id: Provider}] for the last Atlas seen


def _by_id(atlas: Atlas) -> dict[str, Provider]:
    if not _index or _index[0] is not atlas:
        _index[:] = [atlas, {p.id: p for p in atlas.providers}]
    return _index[1]


def stamp(stand_in_html: str, p: Provider, body: str, slot: str) -> bytes:
    """Provider `p`'s whole page, as the UTF-8 bytes of its file, from the stand-in's rendered
    page: `p`'s id in its URLs, `p`'s name (escaped, as the theme escapes it) in its title and
    head, `body` in `slot`. The theme's part of the page is encoded once per language, not
    once per provider."""
    parts, holes = _stencil(stand_in_html, slot)
    fill = {"id": p.id.encode(), "name": str(escape(p.name)).encode(), "body": body.encode()}
    out = [parts[0]]
    for hole, part in zip(holes, parts[1:]):
        out.append(fill[hole])
        out.append(part)
    return b"".join(out)


_stencils: dict[tuple[str, str], tuple[list[bytes], list[str]]] = {}
INDENT = re.compile(r"\n[ \t]+")
PRESERVES_SPACE = re.compile(r"<(?:pre|textarea)\b", re.I)


def _stencil(html: str, slot: str) -> tuple[list[bytes], list[str]]:
    """The stand-in page cut at each place a provider's id, name or body goes: the text
    between them (UTF-8), and what goes in each gap. Made once per language, not once per provider."""
    key = (html, slot)
    if key not in _stencils:
        _stencils.clear()
        # Material adds <h1>title</h1> to a page whose content has none: the stand-in's content
        # is only the slot, and the body brings its own <h1 id="top">.
        html = re.sub(rf"\n\s*<h1>{STAND_IN.name}</h1>\n", "\n", html, count=1)
        if not PRESERVES_SPACE.search(html):   # the theme's indentation: a fifth of each page, read by no one
            html = INDENT.sub("\n", html)
        wrapped = f"<p>{slot}</p>"
        slot = wrapped if wrapped in html else slot
        holes, parts, at = [], [], 0
        pattern = re.compile("|".join(re.escape(x) for x in (STAND_IN.id, STAND_IN.name, slot)))
        for m in pattern.finditer(html):
            hole = {STAND_IN.id: "id", STAND_IN.name: "name"}.get(m.group(0), "body")
            if hole == "body" and "body" in holes:
                continue   # the body goes in once, where the slot first is
            parts.append(html[at:m.start()].encode())
            holes.append(hole)
            at = m.end()
        parts.append(html[at:].encode())
        _stencils[key] = (parts, holes)
    return _stencils[key]


def search_entry(atlas: Atlas, lang: str, p: Provider, location: str) -> dict[str, str]:
    """The page's search entry: its name, category and, per field, the field's name, value and
    note in `lang`. Escaped: Material shows search titles and texts as HTML."""
    words = [atlas.t(lang, f"categories.{p.category}")]
    # "Field: value" is the same for every provider with that value: made once per language.
    said = cells._memo(atlas, ("search-words", lang), dict)
    notes = atlas.notes.get(lang, {})
    for f in atlas.all_fields:
        fact = p.facts[f]
        line = said.get((f, fact.value))
        if line is None:
            if f in atlas.list_fields and fact.known:
                value = ", ".join(atlas.item_label(lang, f, i) for i in fact.value)
            else:
                value = atlas.value_label(lang, f, fact.value)
            line = said[(f, fact.value)] = f"{atlas.t(lang, f'fields.{f}.label')}: {value}"
        note = notes.get((p.id, f))
        words.append(f"{line} ({note})" if note else line)
    # Half weight: a provider page lists facts in a few words each, and short pages win lunr's
    # length-normalised score, so for a concept ("node pool", "निजी रजिस्ट्री") every provider whose
    # notes name it outranked the guide that explains it. A provider's name is in its title, which
    # counts a thousand times more, so a search for the provider still finds its page first.
    return {"location": location, "title": str(escape(p.name)), "text": str(escape(" · ".join(words))), "boost": 0.5}


def expand_sitemap(text: str, ids: list[str]) -> str:
    """Each sitemap <url> of the stand-in page as one <url> per provider id."""
    return re.sub(r"<url>(?:(?!</url>).)*?" + re.escape(STAND_IN.id) + r".*?</url>",
                  lambda m: "\n    ".join(m.group(0).replace(STAND_IN.id, pid) for pid in ids), text, flags=re.S)


def remove_stand_ins(site: Path, ids: list[str]) -> None:
    """Remove the stand-in pages, and give every sitemap its providers' entries."""
    for page in site.rglob(f"{STAND_IN.id}.html"):
        page.unlink()
    for sitemap in site.rglob("sitemap.xml"):
        text = sitemap.read_text(encoding="utf-8")
        if STAND_IN.id in text:
            sitemap.write_text(expand_sitemap(text, ids), encoding="utf-8")
            gz = sitemap.with_name("sitemap.xml.gz")
            if gz.exists():
                import gzip
                gz.write_bytes(gzip.compress(sitemap.read_bytes()))


def relative_links(html: str, page_url: str, lang: str, default: str = "en") -> str:
    """Turn `atlas-root:` links into links relative to the page, inside its language folder."""
    if ROOT_LINK not in html:
        return html
    return html.replace(f'href="{ROOT_LINK}', f'href="{root_prefix(page_url, lang, default)}')


def root_prefix(page_url: str, lang: str, default: str = "en") -> str:
    """What `atlas-root:` becomes on the page at `page_url`: the way up to its language's root."""
    here = posixpath.dirname(page_url)
    if lang != default and (here == lang or here.startswith(lang + "/")):
        here = here[len(lang):].lstrip("/")
    return "../" * (here.count("/") + 1) if here else ""
