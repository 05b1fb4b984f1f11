"""Split the one search index the i18n plugin writes into one index per language.

Out of the box `search/search_index.json` holds every language, so a reader of /hi/ also
gets English and Vietnamese results. After the split, each language folder has its own
index with only its pages and only its lunr language, and `overrides/main.html` points
each page's search at its own language folder.
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from xml.etree import ElementTree

SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
# The lunr language each index names, where it is not the page language's code: Material's
# worker fetches wordcut.js (662 KB, a Thai word splitter) for "hi", which our Hindi pipeline
# (overrides/assets/javascripts/lunr/min/lunr.hin.min.js) never calls.
LUNR_NAME = {"hi": "hin"}
# Languages whose lunr-languages file calls wordcut.js, which the worker loads only for "hi" and
# "th": their index would never build. They get our generic Unicode pipeline (lunr.uni.min.js).
WORDCUT_LOADED = ("hi", "th")
GENERIC = "uni"
WORDCUT_CALL = re.compile(r"\.wordcut\b(?!\.js)")   # lunr.ta: `var t=e.wordcut`; not a comment naming wordcut.js


def split(site: Path, default: str, languages: list[str] | tuple[str, ...] = (),
          index: dict | None = None) -> dict[str, int]:
    """Write <site>/[<lang>/]search/search_index.json for each of `languages` (the built
    ones, default first or not) from the index of every language's entries; return page counts.
    `index`: that index as the search plugin still holds it in memory (see `held_index`),
    which spares reading back the file it has just written; by default, the file."""
    index_path = site / "search" / "search_index.json"
    if not index_path.exists():
        return {}
    if index is None:
        index = json.loads(index_path.read_text(encoding="utf-8"))
    langs = list(dict.fromkeys([default, *languages, *(index["config"].get("lang") or [])]))
    buckets: dict[str, list[dict]] = {lang: [] for lang in langs}
    for doc in index["docs"]:
        first = doc["location"].split("/", 1)[0]
        lang = first if first in buckets and first != default else default
        if lang != default:
            doc = {**doc, "location": doc["location"][len(lang) + 1:]}
        buckets[lang].append(doc)
    buckets = {lang: docs for lang, docs in buckets.items() if docs or lang == default}   # one-language builds
    langs = list(buckets)
    counts = {}
    for lang, docs in buckets.items():
        config = {**index["config"], "lang": [lunr_language(site, lang)]}
        out = site / ("" if lang == default else lang) / "search" / "search_index.json"
        out.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps({**index, "config": config, "docs": docs}, ensure_ascii=False, separators=(",", ":"), default=str)
        out.write_text(text, encoding="utf-8")
        # An offline copy (file://) cannot fetch JSON: the theme loads this script there instead.
        # "</" is escaped so no text of a page can end the script early.
        out.with_suffix(".js").write_text("var __index = " + text.replace("</", "<\\/") + "\n", encoding="utf-8")
        counts[lang] = sum(1 for d in docs if "#" not in d["location"])
    _sitemaps(site, langs, default)
    return counts


def lunr_language(site: Path, lang: str) -> str:
    """The lunr language of `lang`'s index: LUNR_NAME's, else the language's own when the built
    site has its lunr file (theme or overrides), else English tokenising (split at spaces and
    punctuation), so search works in a language lunr does not know (`make new-language`). A
    language whose own file splits words with wordcut.js, which the worker loads only for hi and
    th, gets our generic Unicode pipeline (GENERIC), or its index would never build."""
    folder = site / "assets" / "javascripts" / "lunr" / "min"
    if not folder.is_dir():
        return LUNR_NAME.get(lang, lang)
    return lunr_language_in((folder,), lang)


def lunr_language_in(folders: tuple[Path, ...], lang: str) -> str:
    """`lunr_language` where the lunr files are the first found in `folders` (the theme's own
    and our overrides, before a site is built)."""
    name = LUNR_NAME.get(lang, lang)
    if name == "en":
        return name

    def found(file: str) -> Path | None:
        return next((folder / file for folder in folders if (folder / file).is_file()), None)

    own = found(f"lunr.{name}.min.js")
    if own is None:
        return "en"
    needs_wordcut = name not in WORDCUT_LOADED and WORDCUT_CALL.search(own.read_text(encoding="utf-8", errors="replace"))
    return GENERIC if needs_wordcut and found(f"lunr.{GENERIC}.min.js") else name


def search_plugin(config) -> object | None:
    """Material's search plugin in this build, under either name it is configured by."""
    return config.plugins.get("material/search") or config.plugins.get("search")


def held_index(search_plugin: object) -> dict | None:
    """The index Material's search plugin has just written, from its memory: the same
    {"config", "docs"} it dumps (its SearchIndex.generate_search_index); None where the plugin
    does not hold one that way (another version), and the file is read instead."""
    held = getattr(search_plugin, "search_index", None)
    config, entries = getattr(held, "config", None), getattr(held, "entries", None)
    if not isinstance(config, dict) or not isinstance(entries, list) or not all(k in config for k in INDEX_CONFIG):
        return None
    return {"config": {k: config[k] for k in INDEX_CONFIG}, "docs": entries}


INDEX_CONFIG = ("lang", "separator", "pipeline", "fields")   # what the plugin writes of its config


def _sitemaps(site: Path, langs: list[str], default: str) -> None:
    """A sitemap per language folder: Material reads `<base>/sitemap.xml` for the language."""
    path = site / "sitemap.xml"
    if not path.exists():
        return
    text = path.read_text(encoding="utf-8")
    for lang in langs:
        if lang == default:
            continue
        urls = re.findall(r"<url>.*?</url>", text, re.S)
        mine = [u for u in urls if re.search(rf"<loc>[^<]*/{lang}/[^<]*</loc>", u)]
        head = text[: text.find("<url>")] if "<url>" in text else text
        body = head + "\n".join(mine) + "\n</urlset>\n"
        ElementTree.fromstring(body.encode("utf-8"))  # stays well-formed or fails loudly
        (site / lang / "sitemap.xml").write_text(body, encoding="utf-8")
