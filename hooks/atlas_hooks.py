"""MkDocs events for Cloud GPU Atlas: thin wiring over the pure core in `atlas/`.

mkdocs-static-i18n runs the whole build once per language, so every event here runs once
per language. Work is done once per process where it does not depend on the language
(the validated data, cached by file modification times; Jinja bytecode), once per language
where it does (each distinct marker, in `_memo`), and per page only for the page itself.
"""
from __future__ import annotations

import datetime as dt
import gc
import posixpath
import sys
from pathlib import Path
from urllib.parse import urlsplit


def _fresh_core(hooks: Path) -> None:
    """`mkdocs serve` loads this file again on every rebuild, but `atlas.*` would stay in
    sys.modules: drop it when any of its files changed, so an edit under hooks/ shows."""
    stamp = max((p.stat().st_mtime_ns for p in (hooks / "atlas").rglob("*") if p.is_file()), default=0)
    core = sys.modules.get("atlas")
    if core is not None and getattr(core, "loaded_at", stamp) != stamp:
        for name in [n for n in sys.modules if n == "atlas" or n.startswith("atlas.")]:
            del sys.modules[name]
    import atlas
    atlas.loaded_at = stamp


_fresh_core(Path(__file__).resolve().parent)

import material
from jinja2 import Environment
from markupsafe import Markup, escape
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

from atlas import (assets, config_lines, glossary, lastmod, markers, pages, provider_links, provider_pages, reader, render, sanitize,
                   search_split, seo, structure, tables, translations)
from atlas import files as atlas_files   # event arguments are called `files` (MkDocs' Files)
from atlas.cache import atlas_for, current
from atlas.data import Atlas
from atlas.problems import DataError
from atlas.urls import is_http_url
from atlas import changes, export

ROOT = Path(__file__).resolve().parent.parent
_not_found: dict[str, str] = {}                       # language -> 404 page
_slots: dict[tuple[str, str], list] = {}               # (language, page) -> rendered markers
_late: dict[tuple[str, str], list] = {}                # (language, page) -> blocks for on_page_context
_top: dict[tuple[str, str], str] = {}                  # (language, page) -> notices and reading time
_unfilled: dict[tuple[str, str], str] = {}             # (language, page) -> content before on_page_context filled it
_memo: dict[str, dict] = {}                            # language -> marker -> HTML, for one build
_status: list = []                                     # translations.summary, once per build
_states: dict = {}                                     # (language, page) -> translation state, per build
_report: dict[str, str] = {}                           # language ("" for the site's) -> report_url, per build
_glossary: list[glossary.Term] = []                    # validated data/glossary.yaml, per process
_reader: list = []                                     # [Atlas, ReaderData] for reader:choose
WIDE = 'class="atlas-table__scroll"'                   # a block with a wide table: the page hides its contents column
WIDEST = ' data-atlas-wide'                            # the matrix and side by side: the navigation column too


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    """Validate data/ and every page's markers before any language is written (once per build:
    mkdocs-static-i18n runs on_config again for each further language)."""
    i18n = config.plugins.get("i18n")
    if i18n is not None and getattr(i18n, "building", False):
        gc.freeze()   # what the languages built so far keep all build long: out of every collection
        return config
    atlas_files.forget()   # before any file is read: a folder may have become a symlink since the last build
    try:
        atlas = atlas_for(ROOT)
        gc.freeze()   # the validated data lives all build long: keep it out of every collection
        _glossary[:] = glossary.load(ROOT, atlas.languages)
    except DataError as exc:
        raise PluginError(exc.report()) from None
    reports = _report_urls(config)
    report_keys = ("extra", "atlas", "report_url")
    bad = config_lines.url_problems(config.config_file_path, [(where, lang, report_keys, url) for where, lang, url in reports]
                                    + [(where, lang, ("site_url",), url) for where, lang, url in _site_urls(config)])
    if bad:
        raise PluginError("\n".join(bad))
    _report.clear()
    _report.update({lang: str(url) for _, lang, url in reports})
    _memo.clear()
    _status.clear()
    _states.clear()
    markers.forget()
    built = _built(config, atlas)
    found, texts = sanitize.check_docs(ROOT / "docs", ROOT, atlas.languages)
    for path, text in sorted(texts.items()):
        found += sanitize.front_matter_problems(text, path.relative_to(ROOT).as_posix())
    if found:
        raise PluginError("Pages that cannot be built:\n  " + "\n  ".join(map(str, sorted(set(found)))))
    _states.update(translations.states(ROOT / "docs", atlas.languages, texts))
    # Each page in each language it will be built in (a fallback page in every language
    # that lacks it); what is rendered here stays in _memo for the page builds.
    problems = markers.check_tree(ROOT / "docs", texts, lambda lang: _context(atlas, lang, config),
                                  languages=lambda path: _languages_of(path, built, _default(config)))
    avoided = glossary.check_tree(ROOT, tuple(_glossary), tuple(la for la in built if la != "en"), texts)
    # the same rule as `make i18n` (structure.py): what a reader of a translation would miss without a word
    lost = structure.lost_in_tree(ROOT / "docs", texts, built, atlas.languages[0],
                                  behind=lambda lang, page: _states[(lang, page)].outdated if (lang, page) in _states else False)
    sections = [(head, found) for head, found in (("Terms that data/glossary.yaml says to avoid", avoided),
                                                  ("Markers that cannot be rendered", problems),
                                                  ("Translations that lost what the English page has", lost)) if found]
    if sections:
        raise PluginError("\n".join(f"{head}:\n  " + "\n  ".join(found) for head, found in sections))
    return config


def on_env(env: Environment, *, config: MkDocsConfig, files: Files) -> Environment:
    """Give templates (404, notices) the current language's words, escaped."""
    lang = _language(config)
    atlas = current(ROOT)
    env.globals["atlas_text"] = lambda key, **kw: escape(atlas.t(lang, key, **kw))
    env.globals["atlas_text_in"] = lambda other, key, **kw: escape(atlas.t(other, key, **kw))   # the 404 page's other languages
    env.globals["atlas_base_path"] = escape(urlsplit(config.site_url or "/").path or "/")
    env.globals["atlas_lang"] = lang
    env.globals["atlas_default"] = _default(config)
    env.globals["atlas_languages"] = atlas.languages
    # The link-preview image: the language's own (its name and description drawn in its script,
    # scripts/make_og_images.py), else English's; absolute, as link previews need.
    image = f"og-{lang}.png" if (ROOT / "overrides" / "assets" / "atlas" / f"og-{lang}.png").is_file() else "og-en.png"
    site_url = config.site_url or ""
    env.globals["atlas_og_image"] = (site_url if site_url.endswith("/") else site_url + "/") + "assets/atlas/" + image
    # The search worker's language file, where it is ours (overrides/): the page prefetches it.
    lunr = search_split.lunr_language_in((ROOT / "overrides" / LUNR_FILES, Path(material.__file__).parent / "templates" / LUNR_FILES), lang)
    env.globals["atlas_lunr_own"] = lunr if (ROOT / "overrides" / LUNR_FILES / f"lunr.{lunr}.min.js").is_file() else ""
    env.bytecode_cache = render.BYTECODE   # theme templates compile once, not once per language
    return env


LUNR_FILES = Path("assets/javascripts/lunr/min")


def on_page_markdown(markdown: str, *, page: Page, config: MkDocsConfig, files: Files) -> str | None:
    """Add translation notices and reading time; replace markers; collect FAQ data."""
    lang = _language(config)   # the language being built; a fallback page's file says "en"
    atlas = current(ROOT)
    state = translations.page_state(ROOT / "docs", page.file.abs_src_path, lang, _states)
    top = []
    if state.fallback:
        page.meta["title"] = f"{page.meta.get('title') or page.title} {atlas.t(lang, 'site.nav_untranslated')}"
        top.append(pages.notice("untranslated", atlas.t(lang, "site.not_translated_title"),
                                atlas.t(lang, "site.not_translated_body")))
    elif state.outdated:
        top.append(pages.notice("outdated", atlas.t(lang, "site.outdated_title"), atlas.t(lang, "site.outdated_body"),
                                atlas.t(lang, "site.outdated_link"), _english_url(page)))
    if page.file.src_uri.split("/", 1)[-1].startswith("guides/"):
        minutes = pages.reading_minutes(markdown)
        top.append(f'<p class="atlas-reading-time">{escape(atlas.t(lang, "site.reading_time", minutes=minutes))}</p>')
    faq = pages.faq(markdown)
    if faq:
        page.meta["atlas_jsonld"] = Markup(pages.faq_jsonld(faq, lang))
    for key in ("title", "description"):   # the theme prints these unescaped (see atlas/sanitize.py)
        if isinstance(page.meta.get(key), str):
            page.meta[key] = str(escape(page.meta[key]))
    markdown, linked = provider_links.rewrite(markdown, page.file.src_uri.split("/", 1)[-1], (p.id for p in atlas.providers))
    if linked:
        dropped = _front_matter_lines(page)
        raise PluginError("\n".join(f"docs/{page.file.src_uri}:{n + dropped}: {msg}" for n, msg in linked))
    markdown, errors, slots = markers.replace(markdown, _context(atlas, lang, config))
    wide = [s.html for s in slots if isinstance(s, markers.Late) and WIDE in s.html]
    if wide:   # comparisons take the width the empty contents column had; the widest, the navigation's too
        page.meta["hide"] = ["navigation", "toc"] if any(WIDEST in html for html in wide) else ["toc"]
    page.meta["atlas_side_by_side"] = any(isinstance(s, markers.Late) and "data-atlas-sbs" in s.html for s in slots)
    if errors:
        raise PluginError("\n".join(markers.located(f"docs/{page.file.src_uri}", e) for e in errors))
    _slots[(lang, page.file.src_uri)] = slots
    if not top:
        return markdown
    _top[(lang, page.file.src_uri)] = "\n".join(top)
    return pages.insert_after_h1(markdown, pages.TOP_SLOT)


def on_page_content(html: str, *, page: Page, config: MkDocsConfig, files: Files) -> str | None:
    """Check the page's own HTML against the policy, then put in its quizzes and lists and name
    permalinks in the page's language (the toc extension has one title for every language).
    Tables wait for on_page_context: Material's search has indexed the page by then, so it never
    parses them (readers find a provider through its own page)."""
    problems = sanitize.html_problems(html, lambda: _source(page), f"docs/{page.file.src_uri}")
    if problems:
        raise PluginError("Page HTML that is not allowed:\n  " + "\n  ".join(map(str, problems)))
    lang = _language(config)
    slots = _slots.pop((lang, page.file.src_uri), None)
    if slots:
        html = markers.fill(html, slots)
        if any(isinstance(s, markers.Late) for s in slots):
            _late[(lang, page.file.src_uri)] = slots
    return html.replace(PERMALINK_TITLE, f'title="{escape(current(ROOT).t(lang, "site.permalink_title"))}"')


@event_priority(-50)   # after Material's search (priority 0) has indexed page.content
def on_page_context(context: dict, *, page: Page, config: MkDocsConfig, nav) -> dict:
    """Put in the page's notices and reading time, and the tables (see on_page_content), with
    links relative to this page, in one copy of its content (not of the written page, which
    is several times longer with the navigation); then absolute alternates (with x-default)
    and Open Graph locales for the page's head."""
    lang, default = _language(config), _default(config)
    key = (lang, page.file.src_uri)
    top = _top.pop(key, None)
    fills = {} if top is None else {pages.TOP_SLOT: top}   # in page order: the top, then each block
    for slot, block in markers.blocks(_late.pop(key, []), late=True).items():
        fills[slot] = provider_pages.relative_links(block, page.file.url, lang, default)
    if fills and page.content:
        _unfilled[key] = page.content
        page.content = pages.fill_slots(page.content, fills)
    languages = current(ROOT).languages
    context["atlas_alternates"] = seo.alternates(config.site_url or "", page.url, languages, default)
    context["atlas_og_locale"] = seo.og_locale(lang)
    context["atlas_og_alternates"] = [seo.og_locale(la) for la in languages if la != lang]
    return context


def on_post_page(output: str, *, page: Page, config: MkDocsConfig) -> None:
    """Give the page back its content without the tables, once it is written: MkDocs keeps
    every page's content all build long (300 pages per language of tables: 130 MB more)."""
    unfilled = _unfilled.pop((_language(config), page.file.src_uri), None)
    if unfilled is not None:
        page.content = unfilled


def on_post_template(output_content: str, *, template_name: str, config: MkDocsConfig) -> str | None:
    """Keep each language's 404 page; the i18n plugin writes them all to one path."""
    if template_name == "404.html":
        _not_found[_language(config)] = output_content
    return output_content


@event_priority(-100)  # after the i18n plugin has built every language
def on_post_build(*, config: MkDocsConfig) -> None:
    """Split search per language, write per-language sitemaps and 404 pages, and bundle our
    own scripts and styles."""
    i18n = config.plugins.get("i18n")
    if i18n is not None and getattr(i18n, "building", False):
        return
    site, default = Path(config.site_dir), _default(config)
    provider_pages.remove_stand_ins(site, [p.id for p in current(ROOT).providers])
    search_split.split(site, default=default, languages=_built(config, current(ROOT)),
                       index=search_split.held_index(search_split.search_plugin(config)))
    seo.sitemap_in_every_folder(site, tuple(_built(config, current(ROOT))), default)
    lastmod.rewrite_sitemaps(site, ROOT, config.site_url or "", tuple(_built(config, current(ROOT))), default)
    assets.bundle(site)
    _publish_data(site, config, default)
    _memo.clear()
    tables.forget_cells()   # kept from the tables to the provider pages, which show the same cells
    for lang, html in _not_found.items():
        target = site / ("404.html" if lang == default else f"{lang}/404.html")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(html, encoding="utf-8")


def _publish_data(site: Path, config: MkDocsConfig, default: str) -> None:
    """The open data (data/facts.json, .csv, .schema.json: export.py) and each language's Atom
    feed of value changes (changes.xml beside its changes page: changes.py)."""
    atlas = current(ROOT)
    for rel, text in export.files(atlas, config.site_url or "").items():
        (site / rel).parent.mkdir(parents=True, exist_ok=True)
        (site / rel).write_text(text, encoding="utf-8")
    found = changes.history(ROOT)
    for lang in _built(config, atlas):
        folder = site if lang == default else site / lang
        page_url = f"{config.site_url or ''}{'' if lang == default else lang + '/'}changes.html"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "changes.xml").write_text(changes.feed(atlas, lang, found, page_url, _repo_url(config), config.site_url or ""),
                                            encoding="utf-8")


PERMALINK_TITLE = 'title="Permanent link"'   # the toc extension's default, set once for all languages


def _repo_url(config: MkDocsConfig) -> str:
    """The repository commits link to (extra.atlas.repo_url, ATLAS_REPO_URL for a fork)."""
    atlas = config.extra.get("atlas")
    url = atlas.get("repo_url", "") if isinstance(atlas, dict) else ""
    return url.rstrip("/") if isinstance(url, str) and is_http_url(url) else ""


def _report_url(config: MkDocsConfig) -> object:
    return _report_url_in(config.extra)


def _report_url_in(extra: dict) -> object:
    atlas = extra.get("atlas")
    return atlas.get("report_url", "") if isinstance(atlas, dict) else None


def _report_urls(config: MkDocsConfig) -> list[tuple[str, str, object]]:
    """(where in mkdocs.yml, language or "" for the site's, value) of extra.atlas.report_url: the
    site's, and each language's own where it sets one (mkdocs-static-i18n puts a language's
    `extra` in place, key by key, only when that language is built, after the checks and the
    markers rendered in on_config)."""
    found = [("extra.atlas.report_url", "", _report_url(config))]
    for language in _languages_configured(config):
        extra = getattr(language, "extra", None)
        if isinstance(extra, dict) and "atlas" in extra:
            found.append((f"plugins.i18n.languages ({language.locale}): extra.atlas.report_url", language.locale,
                          _report_url_in(extra)))
    return found


def _site_urls(config: MkDocsConfig) -> list[tuple[str, str, object]]:
    """(where, language or "" for the site's, value) of each site_url a page's links are made
    from: the site's (mkdocs.yml or ATLAS_SITE_URL), when set, and each language's own
    (mkdocs-static-i18n sets that one past MkDocs' own check of the option)."""
    found = [("site_url (mkdocs.yml or ATLAS_SITE_URL)", "", config.site_url)] if config.site_url else []
    for language in _languages_configured(config):
        if getattr(language, "site_url", None) is not None:
            found.append((f"plugins.i18n.languages ({language.locale}): site_url", language.locale, language.site_url))
    return found


def _languages_configured(config: MkDocsConfig) -> list:
    """mkdocs-static-i18n's language entries in mkdocs.yml (none without the plugin)."""
    return list(getattr(getattr(config.plugins.get("i18n"), "config", None), "languages", None) or [])


def _front_matter_lines(page: Page) -> int:
    """Lines of the page's file before the Markdown MkDocs hands to on_page_markdown (the front
    matter, and the blank lines after it that MkDocs strips)."""
    source = _source(page)
    m = pages.FRONT_MATTER.match(source)
    if not m:
        return 0
    rest = source[m.end():]
    return m.group(0).count("\n") + len(rest) - len(rest.lstrip("\n"))


def _source(page: Page) -> str:
    """The page's Markdown file as written, for line numbers in messages."""
    try:
        return Path(page.file.abs_src_path or "").read_text(encoding="utf-8")
    except (OSError, ValueError):
        return page.markdown or ""


def _context(atlas: Atlas, lang: str, config: MkDocsConfig) -> markers.Context:
    status = lambda: translations.render_status(atlas, ROOT / "docs", lang, _summary(atlas))  # noqa: E731
    report_url = _report.get(lang) or _report.get("") or str(_report_url(config))   # the language's own first
    return markers.Context(atlas, lang, _today(), report_url,
                           extra={"status": status,
                                  **markers.reader_blocks(atlas, lang, _today(), lambda: _reader_data(atlas), ROOT,
                                                          _repo_url(config))},
                           terms=tuple(_glossary), memo=_memo.setdefault(lang, {}))


def _summary(atlas: Atlas) -> list[dict]:
    """The translation summary every language's status page shows, worked out once per build."""
    if not _status:
        _status.append(translations.summary(atlas, ROOT / "docs", _states or None))
    return _status[0]


def _built(config: MkDocsConfig, atlas: Atlas) -> list[str]:
    """The languages this build writes (one, with `make build LANG=hi`)."""
    return list(getattr(config.plugins.get("i18n"), "build_languages", None) or atlas.languages)


def _languages_of(path: Path, built: list[str], default: str) -> list[str]:
    """The languages a page under docs/<folder>/ is built in: its own, and as the fallback of
    every built language that has no translation of it."""
    folder, *rest = path.relative_to(ROOT / "docs").parts
    return [la for la in built if la == folder or (folder == default and not (ROOT / "docs" / la).joinpath(*rest).exists())]


def _default(config: MkDocsConfig) -> str:
    return getattr(config.plugins.get("i18n"), "default_language", None) or "en"


def _reader_data(atlas: Atlas) -> reader.ReaderData:
    """The chooser's needs (data/fields.yaml), loaded once per validated Atlas."""
    if not _reader or _reader[0] is not atlas:
        _reader[:] = [atlas, reader.for_markers(ROOT, atlas)]
    return _reader[1]


def _language(config: MkDocsConfig) -> str:
    i18n = config.plugins.get("i18n")
    return getattr(i18n, "current_language", None) or config.theme.get("language", "en")


def _english_url(page: Page) -> str:
    here = posixpath.dirname(page.url)
    target = page.url.split("/", 1)[1] if "/" in page.url else page.url
    return posixpath.relpath(target or ".", here or ".") if here else target


def _today() -> dt.date:
    return dt.date.today()
