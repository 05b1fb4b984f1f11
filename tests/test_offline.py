"""An offline copy: the built site/ folder opened from file://, as mkdocs.yml promises.

In every language: search finds pages (the theme reads search/search_index.js and runs its
worker in an iframe, iframe-worker), table values stay links to their evidence on the provider's
page (a file cannot read another), side by side says so in the page's language and links the
providers' pages, and nothing is requested from any host: file: URLs only.
"""
from __future__ import annotations

import re

import pytest
import yaml
from conftest import LANGS, ROOT


def words(lang: str) -> dict:
    return yaml.safe_load((ROOT / "data" / "i18n" / f"{lang}.yaml").read_text(encoding="utf-8"))


def url(site, lang: str, rel: str) -> str:
    return (site / ("" if lang == "en" else lang) / rel).as_uri()


@pytest.fixture
def offline(browser):
    """A page that records every request that is not a file (or data:, blob:, about:) and every
    console or script error."""
    context = browser.new_context()
    outside, errors = [], []
    context.on("request", lambda r: r.url.startswith(("file:", "data:", "blob:", "about:")) or outside.append(r.url))
    pg = context.new_page()
    pg.set_default_timeout(15000)
    pg.on("console", lambda m: m.type == "error" and errors.append(m.text))
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg, errors
    context.close()
    assert outside == [], f"an offline copy requested another host: {outside}"


SEARCH = {"en": "Kubernetes", "hi": "Kubernetes", "vi": "Kubernetes"}


@pytest.mark.long
@pytest.mark.parametrize("lang", LANGS)
def test_an_offline_copy_searches_in_its_language(offline, built_site, lang):
    pg, errors = offline
    pg.goto(url(built_site, lang, "guides/storage.html"))
    pg.keyboard.press("/")
    box = pg.locator("input.md-search__input")
    box.fill(SEARCH.get(lang, "Kubernetes"))
    box.press("End")
    pg.wait_for_selector(".md-search-result__item > a", timeout=20000)
    hrefs = pg.eval_on_selector_all(".md-search-result__item > a", "els => els.map(e => e.href)")
    root = (built_site / ("" if lang == "en" else lang)).as_uri() + "/"
    assert hrefs and all(h.startswith(root) for h in hrefs), hrefs[:5]
    others = [f"{(built_site / code).as_uri()}/" for code in LANGS if code not in ("en", lang)]
    assert not any(h.startswith(tuple(others)) for h in hrefs), hrefs[:5]
    assert errors == [], errors


@pytest.mark.parametrize("lang", LANGS)
def test_offline_table_values_stay_links_to_the_evidence(offline, built_site, lang):
    pg, errors = offline
    pg.goto(url(built_site, lang, "compare/kubernetes.html"))
    pg.wait_for_timeout(1500)   # past the idle slices that turn links into buttons over http
    assert pg.locator("[data-atlas-table] button[aria-expanded]").count() == 0
    links = pg.eval_on_selector_all("[data-atlas-table] a.atlas-v__more", "els => els.map(e => e.href)")
    assert len(links) >= 10
    target = links[0].split("#")[0]
    assert target.startswith("file:") and (built_site / target.removeprefix(built_site.as_uri() + "/")).is_file()
    pg.goto(links[0])   # the link opens the provider's page at the fact
    assert pg.locator(f"[id='{links[0].split('#')[1]}']").count() == 1
    assert errors == [], errors


@pytest.mark.parametrize("lang", LANGS)
def test_offline_side_by_side_says_why_and_links_the_provider_pages(offline, built_site, lang):
    pg, errors = offline
    pg.goto(url(built_site, lang, "compare/side-by-side.html") + "?p=aws&p=e2e-networks")
    status = pg.locator("[data-sbs-status]")
    expected = words(lang)["reader"]["compare"]["offline"]
    assert re.sub(r"\s+", " ", status.inner_text()).startswith(expected[:40])
    links = status.locator("a").evaluate_all("els => els.map(e => e.href)")
    assert [h.rsplit("/", 1)[-1] for h in links] == ["aws.html", "e2e-networks.html"]
    assert all((built_site / h.removeprefix(built_site.as_uri() + "/")).is_file() for h in links)
    assert pg.locator("[data-sbs-table]").is_hidden()
    assert errors == [], errors
