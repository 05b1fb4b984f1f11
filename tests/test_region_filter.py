"""The region filter and the regions page: a real strict build of a scratch copy whose data
gives a few providers countries, then real Chromium; and coverage lines on the real site."""
from __future__ import annotations

import datetime as dt
import functools
import http.server
import re
import threading
from pathlib import Path

import pytest
import yaml

from atlas.data import load_atlas
from conftest import LANGS, ROOT, _Quiet, copy_repo, free_port, guarded_page, mkdocs_build

REGIONS = {"aws": ["US", "IN"], "google-cloud": ["US", "IN", "VN"], "vast-ai": ["VN"], "runpod": ["US"]}
IN_INDIA = {p for p, codes in REGIONS.items() if "IN" in codes}
IN_VIETNAM = {p for p, codes in REGIONS.items() if "VN" in codes}
WORDS = load_atlas(ROOT)   # the words as data/i18n says today: a test must not copy them


def option(lang: str, code: str) -> str:
    return WORDS.t(lang, "table.region_option", country=WORDS.country(lang, code))


@pytest.fixture(scope="module")
def regions_site(tmp_path_factory) -> tuple[Path, int, int]:
    """The site built with countries for four providers (test data, not sourced facts), for
    the port it is served from (its hreflang alternates are absolute)."""
    root = copy_repo(tmp_path_factory.mktemp("regions") / "repo")
    path = root / "data/providers.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    for p in data["providers"]:   # only these four have countries, whatever the real data says
        p["facts"]["regions"] = "unknown"
        if p["id"] in REGIONS:
            p["facts"]["regions"] = {"value": REGIONS[p["id"]], "sources": [f"https://{p['id']}.example/regions"],
                                     "verified": dt.date(2026, 11, 30)}
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    site, port = root / "site", free_port()
    result = mkdocs_build(root, site, site_url=f"http://127.0.0.1:{port}/")
    assert result.returncode == 0, result.stdout + result.stderr
    return site, len(data["providers"]), port


@pytest.fixture(scope="module")
def regions_server(regions_site):
    handler = functools.partial(_Quiet, directory=str(regions_site[0]))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", regions_site[2]), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


@pytest.fixture
def page(browser, regions_server):  # noqa: F811
    yield from guarded_page(browser, regions_server)


def visible_rows(pg) -> set[str]:
    return set(pg.eval_on_selector_all("table.atlas-table__table tbody tr:not([hidden])",
                                       "rows => rows.map(r => r.dataset.provider)"))


def wait_rows(pg, expected: set[str]) -> None:
    pg.wait_for_function("n => document.querySelectorAll('table.atlas-table__table tbody tr:not([hidden])').length === n",
                         arg=len(expected))
    assert visible_rows(pg) == expected


def test_ticking_india_on_the_hindi_page_keeps_providers_in_india_and_announces_the_count(page, regions_server, regions_site):
    total = regions_site[1]
    page.goto(f"{regions_server}/hi/compare/regions-gpus.html")
    boxes = page.locator("[data-atlas-region]")
    first = boxes.first
    assert first.get_attribute("value") == "IN"
    assert page.locator("fieldset.atlas-table__regions label").first.inner_text().strip() == option("hi", "IN")
    assert page.locator("fieldset.atlas-table__regions legend").inner_text() == WORDS.t("hi", "table.region_legend")
    assert WORDS.country("hi", "IN") in page.locator("tr[data-provider='aws'] td[data-value='US IN']").inner_text()
    status = page.locator("[data-atlas-count]")
    assert status.get_attribute("role") == "status" and status.inner_text() == ""
    first.focus()                        # by keyboard: a native checkbox ticks with Space
    page.keyboard.press("Space")
    assert first.is_checked()
    wait_rows(page, IN_INDIA)
    assert status.inner_text() == WORDS.t("hi", "table.shown", shown=len(IN_INDIA), total=total)
    page.keyboard.press("Tab")           # the next choice: Singapore, next door; both ticked show either country
    assert page.evaluate("document.activeElement.value") == "SG"
    page.keyboard.press("Space")
    wait_rows(page, IN_INDIA)            # no provider of the test data has GPUs in Singapore
    assert "; " not in page.locator("tr[data-provider='aws'] .atlas-match").inner_text()
    assert page.locator("tr[data-provider='aws'] .atlas-match").inner_text() == option("hi", "IN")   # why it matched
    page.keyboard.press("Space")
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Space")         # nothing ticked: every provider again, nothing announced
    wait_rows(page, set(page.eval_on_selector_all("tbody tr", "rows => rows.map(r => r.dataset.provider)")))
    assert status.inner_text() == ""


def test_vietnam_comes_first_on_vietnamese_pages_and_combines_with_the_text_filter(page, regions_server, regions_site):
    total = regions_site[1]
    page.goto(f"{regions_server}/vi/compare/kubernetes.html")
    first = page.locator("[data-atlas-region]").first
    assert first.get_attribute("value") == "VN"
    assert page.locator("fieldset.atlas-table__regions label").first.inner_text().strip() == option("vi", "VN")
    first.check()
    wait_rows(page, IN_VIETNAM)
    assert page.locator("[data-atlas-count]").inner_text() == WORDS.t("vi", "table.shown", shown=len(IN_VIETNAM), total=total)
    page.locator("[data-atlas-filter]").fill("vast")
    wait_rows(page, {"vast-ai"})


def test_english_page_offers_both_readers_countries_first_and_every_other_folded_away(page, regions_server):
    page.goto(f"{regions_server}/compare/regions-gpus.html")
    labels = [t.strip() for t in page.locator("fieldset.atlas-table__regions label").all_text_contents()]
    assert labels[:3] == [option("en", code) for code in ("IN", "VN", "SG")]   # English: both readers' countries, then next door
    assert labels[3:] == [option("en", "US")]   # every other country the data has, folded away
    assert not page.locator("[data-atlas-region][value='US']").is_visible()
    page.locator("[data-atlas-region][value='IN']").check()
    wait_rows(page, IN_INDIA)


def test_without_javascript_every_row_stays_visible(browser, regions_server, regions_site):  # noqa: F811
    context = browser.new_context(java_script_enabled=False)
    pg = context.new_page()
    pg.goto(f"{regions_server}/hi/compare/regions-gpus.html")
    assert pg.locator("table.atlas-table__table tbody tr:not([hidden])").count() == regions_site[1]
    assert not pg.locator("[data-atlas-region]").first.is_visible()
    assert pg.locator("[data-atlas-coverage]").is_visible()
    context.close()


# --- the real site: the page in every language and the nav, a coverage line under every table --

# The coverage line of each language, any numbers: "12 of 540 facts sourced (2%)" from table.coverage.
COVERAGE = {lang: re.sub(r"\\\{\w+\\\}", r"[\\d.,]+", re.escape(WORDS.words[lang]["table.coverage"])) for lang in LANGS}


@pytest.mark.parametrize("lang", LANGS)
def test_every_table_ends_with_a_coverage_line_in_the_page_language(built_site, lang):
    folder = built_site if lang == "en" else built_site / lang
    pages = [p for p in folder.rglob("*.html") if lang != "en" or not p.relative_to(folder).parts[0] in ("hi", "vi")]
    tables = 0
    for path in pages:
        html = path.read_text(encoding="utf-8")
        for block in html.split("data-atlas-table ")[1:]:
            tables += 1
            table_end = block.index("</table>")
            line = re.search(r'data-atlas-coverage>([^<]+)</p>', block[table_end:])
            assert line and re.fullmatch(COVERAGE[lang], line.group(1)), (path, line and line.group(1))
    assert tables >= 9
    regions = (folder / "compare/regions-gpus.html").read_text(encoding="utf-8")
    assert 'data-group="regions-gpus"' in regions
    assert 'href="regions-gpus.html"' in (folder / "compare/all.html").read_text(encoding="utf-8")   # in the nav
    overview = (folder / "providers.html").read_text(encoding="utf-8")
    assert overview.count('<dd data-field="regions">') == overview.count('<dd data-field="gpus">') >= 20
