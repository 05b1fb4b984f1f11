"""MkDocs events for the reader tools: a page per provider, choose by needs, listen to a guide.

Kept apart from atlas_hooks.py so each file stays small; the logic lives in atlas/reader.py,
atlas/provider_pages.py and atlas/chooser.py. Like every hook here, each event runs once per
language (mkdocs-static-i18n rebuilds the site per language).
"""
from __future__ import annotations

import secrets
from pathlib import Path

from markupsafe import escape
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.pages import Page

from atlas import pages, provider_pages, reader, search_split
from atlas.cache import atlas_for, current
from atlas.problems import DataError

ROOT = Path(__file__).resolve().parent.parent
SLOT = "<!-- reader-slot -->"
LISTEN_SLOT = f"<!-- reader-listen {secrets.token_hex(8)} -->"   # unguessable, filled once search has read the page
SPEECH_LANG = {"en": "en", "hi": "hi-IN", "vi": "vi-VN"}   # BCP 47 tags speechSynthesis voices carry
_listen_slots: dict[tuple[str, str], str] = {}              # (language, guide) -> listen controls
_page_titles: dict[str, dict[str, str]] = {}                # language -> page path -> title, per build
_loaded: list = []                                          # [Atlas, ReaderData] last validated


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    """Validate `discussed_in` and `needs` in data/fields.yaml before anything is written (once
    per build: mkdocs-static-i18n runs on_config again for each further language)."""
    if getattr(config.plugins.get("i18n"), "building", False):
        return config
    _reader_data()
    _page_titles.clear()
    return config


@event_priority(-110)  # after the i18n plugin (-100) has picked this language's files
def on_files(files: Files, *, config: MkDocsConfig) -> Files:
    """Add the stand-in provider page (atlas/provider_pages.py) in the language being built,
    with its other-language alternates, so the language selector and the sitemaps (with
    hreflang) know it; every provider's page is stamped from it in on_post_page."""
    atlas = current(ROOT)
    if not atlas.providers:
        return files
    i18n = config.plugins.get("i18n")
    lang = _language(config)
    default = getattr(i18n, "default_language", "en")
    langs = list(getattr(i18n, "build_languages", None) or atlas.languages)
    made = {la: _virtual(config, atlas, la, provider_pages.STAND_IN, default) for la in langs}
    mine = made[lang]
    for f in made.values():
        f.alternates = made
    files.append(mine)
    if i18n is not None and lang in getattr(i18n, "i18n_files_per_language", {}):
        i18n.i18n_files_per_language[lang].append(mine)
    return files


def on_page_markdown(markdown: str, *, page: Page, config: MkDocsConfig, files: Files) -> str | None:
    """Render a provider page; put the listen controls on guides. (The chooser's marker,
    <!-- reader:choose -->, is rendered with the other markers in atlas_hooks.py.)"""
    lang = _language(config)
    atlas = current(ROOT)
    data = _reader_data(atlas)
    src = page.file.src_uri
    if getattr(page.file, "atlas_provider", None):
        return SLOT + "\n"   # each provider's body goes in when its page is stamped (on_post_page)
    if src.split("/", 1)[-1].startswith("guides/"):
        _listen_slots[(lang, src)] = _listen(atlas, lang)
        if pages.TOP_SLOT in markdown:   # after the notices and reading time atlas_hooks put under the H1
            end = markdown.index(pages.TOP_SLOT) + len(pages.TOP_SLOT)
            return markdown[:end] + "\n\n" + LISTEN_SLOT + "\n" + markdown[end:]
        return pages.insert_after_h1(markdown, LISTEN_SLOT)
    return None


@event_priority(-50)   # after Material's search (priority 0) has indexed page.content
def on_page_context(context: dict, *, page: Page, config: MkDocsConfig, nav) -> dict:
    """Put the listen controls on a guide once search has read it (they are not its prose),
    in its content (a copy of the content, not of the whole written page)."""
    block = _listen_slots.pop((_language(config), page.file.src_uri), None)
    if block is not None and page.content:
        page.content = pages.fill_slot(page.content, LISTEN_SLOT, block)
    return context


def on_post_page(output: str, *, page: Page, config: MkDocsConfig) -> str | None:
    """From the stand-in page, write each provider's page beside it and put each in search."""
    if not getattr(page.file, "atlas_provider", None):
        return None
    atlas, lang = current(ROOT), _language(config)
    data = _reader_data(atlas)
    default = getattr(config.plugins.get("i18n"), "default_language", "en")
    report_url = config.extra.get("atlas", {}).get("report_url", "")
    titles = _titles(lang)
    folder = Path(page.file.abs_dest_path).parent
    folder.mkdir(parents=True, exist_ok=True)
    index = getattr(search_split.search_plugin(config), "search_index", None)
    if index is not None:
        index.entries = [e for e in index.entries if provider_pages.STAND_IN.id not in e["location"]]
    root = provider_pages.root_prefix(page.file.url, lang, default)
    for p in atlas.providers:
        body = provider_pages.render_page(atlas, data, lang, p.id, titles=titles, report_url=report_url, root=root)
        (folder / f"{p.id}.html").write_bytes(provider_pages.stamp(output, p, body, SLOT))
        if index is not None:
            index.entries.append(provider_pages.search_entry(atlas, lang, p, page.url.replace(provider_pages.STAND_IN.id, p.id)))
    return output


def _virtual(config: MkDocsConfig, atlas, lang: str, p, default: str) -> File:
    f = File.generated(config, provider_pages.src_uri(lang, p.id), content=provider_pages.markdown(atlas, lang, p),
                       inclusion=InclusionLevel.NOT_IN_NAV)   # reached from tables and lists, not the nav
    f.dest_uri = provider_pages.dest_uri(lang, p.id, default)
    f.__dict__.pop("url", None)   # recomputed from dest_uri
    f.locale = f.locale_alternate_of = f.localization = lang
    f.norm_src_uri = f"providers/{p.id}.md"
    f.atlas_provider = p.id
    return f


def _listen(atlas, lang: str) -> str:
    """Listen controls, on the page from the first paint (issue 24: shown late, they pushed the
    guide down). The play button and the no-voice message share one grid cell, sized from the
    start to the larger of the two (the message's words, data-t-none, lay out invisibly in it:
    atlas.css), so atlas-reader.js can swap them when it knows the device's voices without moving
    anything below. Without JavaScript atlas.css hides the box: it needs the script."""
    t = lambda key: escape(atlas.t(lang, f"reader.listen.{key}"))  # noqa: E731
    return (f'<div class="atlas-listen" data-atlas-listen data-speech-lang="{SPEECH_LANG.get(lang, lang)}" '
            f'data-t-pause="{t("pause")}" data-t-resume="{t("resume")}" data-t-none="{t("no_voice")}">'
            f'<div class="atlas-listen__buttons">'
            f'<button type="button" class="md-button" data-listen-play>{t("play")}</button> '
            f'<button type="button" class="md-button" data-listen-pause hidden>{t("pause")}</button> '
            f'<button type="button" class="md-button" data-listen-stop hidden>{t("stop")}</button></div>'
            f'<p class="atlas-listen__msg" data-listen-msg role="status"></p></div>')


def _titles(lang: str) -> dict[str, str]:
    """Titles of the pages provider pages link to (data/fields.yaml, discussed_in), in `lang`."""
    if lang not in _page_titles:
        linked = [path for paths in _reader_data().discussed_in.values() for path in paths]
        _page_titles[lang] = provider_pages.page_titles(ROOT, lang, linked)
    return _page_titles[lang]


def _reader_data(atlas=None) -> reader.ReaderData:
    """Loaded again only when the Atlas is (atlas_for reloads it when a data file changes)."""
    atlas = atlas or atlas_for(ROOT)
    if _loaded and _loaded[0] is atlas:
        return _loaded[1]
    try:
        data = reader.load(ROOT, atlas)
    except DataError as exc:
        raise PluginError(exc.report()) from None
    _loaded[:] = [atlas, data]
    return data


def _language(config: MkDocsConfig) -> str:
    i18n = config.plugins.get("i18n")
    return getattr(i18n, "current_language", None) or config.theme.get("language", "en")
