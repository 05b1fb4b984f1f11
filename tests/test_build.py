"""Real `mkdocs build --strict` of the site: pages, languages, alternates, tables, quizzes,
search split, notices, and that nothing is loaded from another host."""
from __future__ import annotations

import functools
import json
import re
from pathlib import Path

import pytest

from conftest import ROOT, SITE_URL, mkdocs_build
from atlas import pages as page_parts, search_split
from atlas.data import load_atlas

from conftest import LANGS  # noqa: E402  (the languages in mkdocs.yml)
EN_PAGES = sorted(p.relative_to(ROOT / "docs/en").with_suffix(".html").as_posix()
                  for p in (ROOT / "docs/en").rglob("*.md"))


def page(site: Path, lang: str, rel: str) -> str:
    return (site / ("" if lang == "en" else lang) / rel).read_text(encoding="utf-8")


def words(lang: str, key: str, root: Path = ROOT) -> str:
    """The words of `key` in `lang`, as data/i18n says today (tests must not copy them)."""
    return _atlas(root).t(lang, key)


@functools.lru_cache(maxsize=2)
def _atlas(root: Path):
    return load_atlas(root)


def first_provider(text: str) -> tuple[str, str, str]:
    """(id, name, category) of the first provider in a providers.yaml text."""
    import yaml
    p = yaml.safe_load(text)["providers"][0]
    return p["id"], p["name"], p["category"]


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_has_absolute_hreflang_alternates_with_x_default(built_site, lang):
    for rel in EN_PAGES:
        html = page(built_site, lang, rel)
        assert f'<html lang="{lang}"' in html, rel
        alternates = dict((code, href) for href, code in
                          re.findall(r'<link rel="alternate" href="([^"]+)" hreflang="([a-z-]+)">', html))
        expected = {code: SITE_URL + ("" if code == "en" else f"{code}/") + rel for code in LANGS}
        assert alternates == {**expected, "x-default": expected["en"]}, rel
        assert f'<link rel="canonical" href="{expected[lang]}">' in html, rel


KNOWN_LOCALES = {"en": "en_US", "hi": "hi_IN", "vi": "vi_VN", "ta": "ta_IN", "bn": "bn_BD"}


def test_open_graph_locales_come_from_cldr():
    from atlas.seo import og_locale
    assert {code: og_locale(code) for code in KNOWN_LOCALES} == KNOWN_LOCALES


@pytest.mark.parametrize("lang", LANGS)
def test_open_graph_and_twitter_tags_in_the_page_language(built_site, lang):
    from atlas.seo import og_locale
    locale = og_locale(lang)
    for rel in EN_PAGES:
        html = page(built_site, lang, rel)
        title = re.search(r"<title>(.*?)</title>", html).group(1)
        assert f'<meta property="og:title" content="{title}">' in html, rel
        assert f'<meta property="og:locale" content="{locale}">' in html, rel
        others = {og_locale(code) for code in LANGS} - {locale}
        assert set(re.findall(r'<meta property="og:locale:alternate" content="([a-z_A-Z]+)">', html)) == others, rel
        for tag in ('property="og:description"', 'property="og:url"', 'name="twitter:card"', 'name="twitter:title"'):
            assert tag in html, (rel, tag)


@pytest.mark.parametrize("lang, site", [("en", "Cloud GPU Atlas"), ("hi", "क्लाउड GPU एटलस"), ("vi", "Atlas GPU đám mây")])
def test_home_title_names_the_site_once_and_404_title_says_not_found(built_site, lang, site):
    not_found = words(lang, "site.not_found_title")
    assert f"<title>{site}</title>" in page(built_site, lang, "index.html")
    assert f"<title>{not_found} - {site}</title>" in page(built_site, lang, "404.html")


def test_sitemaps_have_absolute_alternates_with_x_default(built_site):
    for lang in LANGS:
        xml = (built_site / ("" if lang == "en" else lang) / "sitemap.xml").read_text(encoding="utf-8")
        urls = re.findall(r"<url>(.*?)</url>", xml, re.S)
        assert len(urls) >= len(EN_PAGES)
        for block in urls:
            links = dict(re.findall(r'hreflang="([a-z-]+)" href="([^"]+)"', block))
            assert set(links) == {*LANGS, "x-default"}, block
            assert all(h.startswith(SITE_URL) for h in links.values()), block
            assert links["x-default"] == links["en"]


def test_every_folder_below_a_language_root_has_a_small_valid_sitemap(built_site):
    """Material fetches sitemap.xml beside each page's alternates: every folder has one (no
    failed request), and below the language roots it holds no entries (no page view downloads
    the whole sitemap three times)."""
    import xml.etree.ElementTree as ET
    folders = {p.parent for p in built_site.rglob("*.html")} - {built_site, *(built_site / la for la in LANGS)}
    assert len(folders) >= 9
    for folder in folders:
        sitemap = folder / "sitemap.xml"
        root = ET.fromstring(sitemap.read_bytes())
        assert root.tag == "{http://www.sitemaps.org/schemas/sitemap/0.9}urlset" and len(root) == 0, sitemap
        assert sitemap.stat().st_size < 200


def test_site_names_and_nav_are_localized(built_site):
    assert "Cloud GPU Atlas" in page(built_site, "en", "index.html")
    hi = page(built_site, "hi", "guides/storage.html")
    vi = page(built_site, "vi", "guides/storage.html")
    assert "क्लाउड GPU एटलस" in hi and "Atlas GPU đám mây" in vi
    assert "> गाइड <" in re.sub(r"\s+", " ", hi) and "> Hướng dẫn <" in re.sub(r"\s+", " ", vi)
    for word in ("Guides", "Compare"):
        assert f"> {word} <" not in re.sub(r"\s+", " ", hi), word


@pytest.mark.parametrize("lang", LANGS)
def test_404_page_in_every_language(built_site, lang):
    title = words(lang, "site.not_found_title")
    html = page(built_site, lang, "404.html")
    assert f'<html lang="{lang}"' in html and title in html


def test_nothing_is_loaded_from_another_host(built_site):
    loads = re.compile(r'<(?:script|link|img|iframe|source|audio|video)\b[^>]*\b(?:src|href)="(https?:)?//', re.I)
    for path in built_site.rglob("*.html"):
        html = path.read_text(encoding="utf-8")
        for m in loads.finditer(html):
            tag = html[m.start(): html.index(">", m.start()) + 1]
            assert 'rel="alternate"' in tag or 'rel="canonical"' in tag, f"{path}: {tag}"
        assert "fonts.googleapis" not in html and "fonts.gstatic" not in html, path
    for path in built_site.rglob("*.css"):
        assert not re.search(r"@import\s+url\(\s*['\"]?https?:|url\(\s*['\"]?https?://", path.read_text(encoding="utf-8")), path


def test_comparison_pages_list_same_providers_in_same_order(built_site):
    orders = {}
    for lang in LANGS:
        html = page(built_site, lang, "compare/kubernetes.html")
        orders[lang] = re.findall(r'<tr data-provider="([^"]+)"', html)
    assert orders["en"] == orders["hi"] == orders["vi"]
    assert len(orders["en"]) >= 20
    for lang in ("hi", "vi"):
        assert words(lang, "fields.kubernetes.label") in page(built_site, lang, "compare/kubernetes.html")


def test_matrix_has_every_provider_with_sources_in_every_language(built_site):
    providers = None
    for lang in LANGS:
        html = page(built_site, lang, "compare/all.html")
        rows = re.findall(r'<tr data-provider="([^"]+)"', html)
        providers = providers or rows
        assert rows == providers
        assert html.count('class="atlas-v__more"') >= 30 and 'href="../' + ("../" if lang != "en" else "") in html
        assert re.search(r'<a class="atlas-v__more" href="(\.\./)+providers/[a-z0-9-]+\.html#fact-[a-z_]+">', html)


@pytest.mark.parametrize("lang", LANGS)
def test_guides_have_table_quiz_faq_jsonld_and_reading_time(built_site, lang):
    """Every guide has a reading time, and the quiz, table and FAQ (with its JSON-LD) its Markdown
    asks for (a marker, a `{ #faq }` section): a new guide may have fewer; most have all."""
    complete = 0
    for rel in [p for p in EN_PAGES if p.startswith("guides/")]:
        md = ROOT / "docs" / lang / rel.replace(".html", ".md")
        source = (md if md.exists() else ROOT / "docs/en" / rel.replace(".html", ".md")).read_text(encoding="utf-8")
        prose = "\n".join(line for _, line in page_parts.prose_lines(source))
        html = page(built_site, lang, rel)
        assert 'class="atlas-reading-time"' in html, rel
        quiz, table, faq = "<!-- quiz:" in prose, "<!-- providers:table" in prose, page_parts.faq(source)
        if quiz:
            assert "data-atlas-quiz" in html and "<fieldset" in html, rel
        if table:
            assert "data-atlas-table" in html, rel
        data = re.search(r'<script type="application/ld\+json">(.*?)</script>', html, re.S)
        assert bool(data) == bool(faq), rel
        if faq:
            found = json.loads(data.group(1))
            assert found["@type"] == "FAQPage" and found["inLanguage"] == lang and len(found["mainEntity"]) == len(faq), rel
        complete += quiz and table and len(faq) >= 4
    assert complete >= 8   # the guides of the site as it is: quiz, table and at least four questions


def test_search_index_is_split_per_language(built_site):
    seen = {}
    for lang in LANGS:
        index = json.loads((built_site / ("" if lang == "en" else lang) / "search/search_index.json").read_text(encoding="utf-8"))
        assert index["config"]["lang"] == [search_split.lunr_language(built_site, lang)]
        assert lang != "hi" or index["config"]["lang"] == ["hin"]   # our Hindi pipeline: no wordcut.js
        locations = [d["location"] for d in index["docs"]]
        assert not any(loc.startswith(tuple(f"{code}/" for code in LANGS[1:])) for loc in locations), lang
        seen[lang] = {loc.split("#")[0] for loc in locations}
    assert seen["en"] == seen["hi"] == seen["vi"]
    base = re.search(r'"base": "([^"]+)"', page(built_site, "vi", "guides/storage.html")).group(1)
    assert base == "../../vi/"


def test_the_split_from_the_search_plugins_memory_writes_what_the_split_from_its_file_writes(tmp_path):
    """The build splits the index Material's search plugin holds in memory instead of reading
    back the file it has just written: both ways give the same bytes, and a plugin that holds
    no index that way leaves the split to the file."""
    from types import SimpleNamespace

    from material.plugins.search.plugin import SearchIndex

    held = SearchIndex(lang=["en", "hi"], separator=r"[\s\-]+", pipeline=["stemmer"], fields={"title": {"boost": 1e3}},
                       jieba_dict=None)
    held.entries = [{"location": "guides/a.html", "title": "A <b>", "text": "ø ✓"},
                    {"location": "hi/guides/a.html#x", "title": "ए", "text": "भारत", "tags": ["t"]},
                    {"location": "vi/guides/a.html", "title": "Ấn", "text": "Độ", "boost": 2}]
    written = {}
    for way in ("file", "memory"):
        site = tmp_path / way
        (site / "search").mkdir(parents=True)
        (site / "search/search_index.json").write_text(held.generate_search_index(None), encoding="utf-8")
        index = search_split.held_index(SimpleNamespace(search_index=held)) if way == "memory" else None
        assert (index is not None) == (way == "memory")
        counts = search_split.split(site, default="en", languages=list(LANGS), index=index)
        assert counts == {"en": 1, "hi": 0, "vi": 1}
        written[way] = {p.relative_to(site).as_posix(): p.read_bytes() for p in sorted(site.rglob("search_index.json"))}
    assert written["memory"] == written["file"] and len(written["file"]) == 3
    assert search_split.held_index(SimpleNamespace(search_index=SimpleNamespace(entries=[]))) is None
    assert search_split.held_index(None) is None


def test_scripts_are_our_own_files_not_inline(built_site):
    html = page(built_site, "hi", "guides/gpu-sharing.html")
    scripts = re.findall(r"<script\b([^>]*)>(.*?)</script>", html, re.S)
    for attrs, body in scripts:   # Material's own small inline bootstraps aside, nothing of ours is inline
        if body.strip() and "application/" not in attrs:
            assert "atlas" not in body.lower(), body[:200]
    assert 'src="../../assets/atlas/atlas.js"' in html


# --- builds of changed copies ------------------------------------------------------------

def test_bad_data_stops_the_build_with_file_and_line(scratch, tmp_path):
    text = (scratch / "data/providers.yaml").read_text(encoding="utf-8")
    pid, _, category = first_provider(text)
    start = text.index(f"id: {pid}\n")   # the first provider's own lines
    head, rest = text[:start], text[start:]
    rest = rest.replace(f"category: {category}\n", "category: teleporter\n", 1)
    rest = re.sub(r"homepage: \S+", "homepage: javascript:alert(1)", rest, count=1)
    (scratch / "data/providers.yaml").write_text(head + rest, encoding="utf-8")
    result = mkdocs_build(scratch, tmp_path / "site")
    out = result.stdout + result.stderr
    assert result.returncode != 0
    assert "Traceback" not in out
    assert re.search(rf"data/providers\.yaml:\d+: provider '{pid}', field 'category': found 'teleporter', allowed: hyperscaler", out), out
    assert f"provider '{pid}', field 'homepage': found 'javascript:alert(1)'" in out
    assert not (tmp_path / "site" / "index.html").exists()


def test_unknown_marker_stops_the_build_naming_page(scratch, tmp_path):
    path = scratch / "docs/vi/guides/storage.md"
    path.write_text(path.read_text(encoding="utf-8") + "\n<!-- quiz:does-not-exist -->\n", encoding="utf-8")
    result = mkdocs_build(scratch, tmp_path / "site")
    out = result.stdout + result.stderr
    assert result.returncode != 0 and "Traceback" not in out
    assert re.search(r"docs/vi/guides/storage.md:\d+: ", out) and "unknown quiz 'does-not-exist'" in out
    assert not (tmp_path / "site" / "index.html").exists()   # stopped before any language was written


def test_missing_translation_shows_notice_and_outdated_shows_banner(scratch, tmp_path):
    from atlas import translations
    (scratch / "docs/hi/guides/storage.md").unlink()
    translations.sync(scratch / "docs", "vi", "guides/storage.md")   # current, whatever the repository's state
    en = scratch / "docs/en/guides/spot-capacity.md"
    en.write_text(en.read_text(encoding="utf-8") + "\nA new English paragraph.\n", encoding="utf-8")
    result = mkdocs_build(scratch, tmp_path / "site")
    assert result.returncode == 0, result.stdout + result.stderr
    site = tmp_path / "site"
    missing = page(site, "hi", "guides/storage.html")
    assert words("hi", "site.not_translated_title") in missing and '<html lang="hi"' in missing
    assert words("hi", "site.nav_untranslated") in missing   # nav and title say so too
    for lang in ("hi", "vi"):
        html = page(site, lang, "guides/spot-capacity.html")
        assert words(lang, "site.outdated_title") in html
        assert 'href="../../guides/spot-capacity.html" hreflang="en"' in html
    assert "atlas-notice" not in page(site, "vi", "guides/storage.html")


def test_hostile_text_in_data_is_shown_as_text(scratch, tmp_path):
    from markupsafe import escape
    data = scratch / "data/providers.yaml"
    text = data.read_text(encoding="utf-8")
    pid, name, category = first_provider(text)
    start = text.index(f"id: {pid}\n")
    hostile = "<img src=x onerror=alert(1)>" + name
    text = text[:start] + re.sub(r"^(\s+)name: .*$", lambda m: f"{m.group(1)}name: {json.dumps(hostile)}",
                                 text[start:], count=1, flags=re.M)
    data.write_text(text, encoding="utf-8")
    for lang in LANGS:
        path = scratch / f"data/i18n/{lang}.yaml"
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace(f"  {category}: ", f"  {category}: 5 > 3 & ", 1), encoding="utf-8")
    result = mkdocs_build(scratch, tmp_path / "site")
    assert result.returncode == 0, result.stdout + result.stderr
    for lang in LANGS:
        for rel in ("compare/all.html", "providers.html", "guides/docker-custom-images.html"):
            html = page(tmp_path / "site", lang, rel)
            assert "<img src=x" not in html, (lang, rel)
        assert str(escape(hostile)) in page(tmp_path / "site", lang, "compare/all.html")
        assert "5 &gt; 3 &amp; " in page(tmp_path / "site", lang, "providers.html")


@pytest.mark.parametrize("lang", LANGS)
def test_status_page_shows_every_language(built_site, lang):
    html = page(built_site, lang, "status.html")
    assert f'<th scope="col">{words(lang, "status.translated")}</th>' in html
    assert len(re.findall(r'<tr data-lang="(en|hi|vi)">', html)) == 3


def test_a_language_with_its_own_report_url_uses_it_in_tables_and_provider_pages(scratch, tmp_path):
    """mkdocs-static-i18n puts a language's own `extra` in place only while that language builds;
    tables are rendered before the first language, so they take the language's URL from
    mkdocs.yml themselves, and agree with the provider pages."""
    yml = scratch / "mkdocs.yml"
    yml.write_text(yml.read_text(encoding="utf-8").replace(
        "        - locale: vi\n", "        - locale: vi\n          extra: {atlas: {report_url: 'https://vi.example.org/report'}}\n", 1),
        encoding="utf-8")
    result = mkdocs_build(scratch, tmp_path / "site")
    assert result.returncode == 0, result.stderr[-3000:]
    site = tmp_path / "site"
    for page in ("compare/docker.html", "providers/aws.html"):
        vi, en = (site / "vi" / page).read_text(encoding="utf-8"), (site / page).read_text(encoding="utf-8")
        assert 'href="https://vi.example.org/report"' in vi and "github.com/cloud-gpu-atlas/cloud-gpu-atlas/issues/new" not in vi, page
        assert "vi.example.org" not in en and "github.com/cloud-gpu-atlas/cloud-gpu-atlas/issues/new" in en, page
