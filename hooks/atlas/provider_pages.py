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
from pathlib import Path
from types import SimpleNamespace

import yaml
from markupsafe import escape

from .data import Atlas, Provider
from .reader import ReaderData
from .render import local_date, pieces, render
from .tables import ICONS, TONES
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
    p = _by_id(atlas)[provider_id]
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


_index: list = []   # [Atlas, {id: Provider}] for the last Atlas seen


def _by_id(atlas: Atlas) -> dict[str, Provider]:
    if not _index or _index[0] is not atlas:
        _index[:] = [atlas, {p.id: p for p in atlas.providers}]
    return _index[1]


def stamp(stand_in_html: str, p: Provider, body: str, slot: str) -> str:
    """Provider `p`'s whole page from the stand-in's rendered page: `p`'s id in its URLs,
    `p`'s name (escaped, as the theme escapes it) in its title and head, `body` in `slot`."""
    # Material adds <h1>title</h1> to a page whose content has none: the stand-in's content is
    # only the slot, and the body brings its own <h1 id="top">.
    html = re.sub(rf"\n\s*<h1>{STAND_IN.name}</h1>\n", "\n", stand_in_html, count=1)
    html = html.replace(STAND_IN.id, p.id).replace(STAND_IN.name, str(escape(p.name)))
    wrapped = f"<p>{slot}</p>"
    return html.replace(wrapped if wrapped in html else slot, body, 1)


def search_entry(atlas: Atlas, lang: str, p: Provider, location: str) -> dict[str, str]:
    """The page's search entry: its name, category and, per field, the field's name, value and
    note in `lang`. Escaped: Material shows search titles and texts as HTML."""
    words = [atlas.t(lang, f"categories.{p.category}")]
    for f in atlas.all_fields:
        fact = p.facts[f]
        if f in atlas.list_fields and fact.known:
            value = ", ".join(atlas.item_label(lang, f, i) for i in fact.value)
        else:
            value = atlas.value_label(lang, f, fact.value)
        note = atlas.note(lang, p.id, f)
        words.append(f"{atlas.t(lang, f'fields.{f}.label')}: {value}" + (f" ({note})" if note else ""))
    return {"location": location, "title": str(escape(p.name)), "text": str(escape(" · ".join(words)))}


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
    here = posixpath.dirname(page_url)
    if lang != default and (here == lang or here.startswith(lang + "/")):
        here = here[len(lang):].lstrip("/")
    prefix = "../" * (here.count("/") + 1) if here else ""
    return html.replace(f'href="{ROOT_LINK}', f'href="{prefix}')
