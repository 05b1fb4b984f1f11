"""Buying from India and Vietnam (issue 33): the country pages and the chooser show, for a ticked
country, exactly the providers data/providers.yaml sources with GPUs there, each row saying why;
every language offers every country the data has, its readers' own first; `make facts` counts
what a local buyer needs."""
from __future__ import annotations

import pytest
from conftest import LANGS, ROOT, TABLES_READY

from atlas import facts
from atlas.data import load_atlas


def _url(server, lang, rel):
    return f"{server}/{'' if lang == 'en' else lang + '/'}{rel}"


def with_gpus_in(code: str) -> set[str]:
    atlas = load_atlas(ROOT)
    return {p.id for p in atlas.providers if p.facts["regions"].known and code in p.facts["regions"].value}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("path, code", [("compare/buying-india.html", "IN"), ("compare/buying-vietnam.html", "VN")])
def test_ticking_a_country_on_its_page_shows_the_providers_with_gpus_there(page, server, lang, path, code):
    pg = page
    pg.goto(_url(server, lang, path))
    pg.wait_for_function(TABLES_READY)
    table = pg.locator("[data-atlas-table]").first
    box = table.locator(f"input[data-atlas-region][value='{code}']")
    if not box.is_visible():   # not one of the page language's first countries: under "More countries"
        table.locator(".atlas-table__more-regions > summary").click()
    box.check()
    shown = table.locator("tbody tr:not([hidden])")
    ids = set(shown.evaluate_all("rows => rows.map(r => r.getAttribute('data-provider'))"))
    assert ids == with_gpus_in(code) and ids, (ids, with_gpus_in(code))
    label = box.evaluate("b => b.parentNode.textContent.trim()")
    whys = shown.locator(".atlas-match").all_inner_texts()
    assert whys and all(label in why for why in whys), (label, whys)   # each row says why it matched
    box.uncheck()
    assert table.locator("tbody tr:not([hidden])").count() == len(load_atlas(ROOT).providers)
    assert table.locator(".atlas-match:not(:empty)").count() == 0


@pytest.mark.parametrize("lang, first", [("hi", ["IN", "SG"]), ("vi", ["VN", "SG"]), ("en", ["IN", "VN", "SG"])])
def test_the_readers_countries_come_first_and_every_country_is_offered(built_site, lang, first):
    html = (built_site / ("" if lang == "en" else lang) / "compare/buying-india.html").read_text(encoding="utf-8")
    import re
    codes = re.findall(r'value="([A-Z]{2})" data-atlas-region', html)
    atlas = load_atlas(ROOT)
    everywhere = {c for p in atlas.providers if p.facts["regions"].known for c in p.facts["regions"].value}
    table = html.split("data-atlas-table", 2)[1]
    assert re.findall(r'value="([A-Z]{2})" data-atlas-region', table)[:len(first)] == first
    assert set(codes) >= everywhere and len(everywhere) > 20


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("code", ["IN", "VN"])
def test_the_chooser_ticks_a_country_and_shows_the_providers_with_gpus_there(page, server, lang, code):
    pg = page
    pg.goto(_url(server, lang, f"compare/choose.html?need=country-{code}"))
    pg.wait_for_function("() => document.querySelector('[data-choose-count]').textContent.includes('" + str(len(with_gpus_in(code))) + "')")
    ids = set(pg.locator("[data-choose-match] li:not([hidden])").evaluate_all(
        "els => els.map(e => e.getAttribute('data-provider'))"))
    assert ids == with_gpus_in(code), ids
    assert pg.locator(f"input[value='country-{code}']").is_checked()


def test_make_facts_counts_what_a_local_buyer_needs():
    atlas = load_atlas(ROOT)
    c = facts.local(atlas)
    text = facts.local_report(c)
    assert f"countries with GPUs sourced (an answer for India and Vietnam): {len(c.regions)} of {c.providers}" in text
    # what this wave reached; the issue's own targets and what is still missing are in its closing note
    assert len(c.regions) >= 19 and len(c.in_country["IN"]) >= 6 and len(c.in_country["VN"]) >= 2
    assert len(c.payment) >= 18 and len(c.stopped) >= 18 and len(c.pricing) >= 18
    assert set(c.tax_invoice) <= set(c.local_billers) and len(c.tax_invoice) >= 6
    assert {"e2e-networks", "aws", "google-cloud"} <= set(c.in_country["IN"])
    new = [p for p in atlas.providers if p.id == "podstack"]
    assert new and sum(f.known for f in new[0].facts.values()) >= 8   # a new Indian provider, 8 facts or more
