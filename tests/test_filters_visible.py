"""Filters match what the reader sees (issue 35, item 6): the table filter reads a row's visible
words and its list items, never the words kept for screen readers; a GPU model hidden behind
"+N" is shown, marked, when the filter names it; the chooser filters by GPU model and its cards
show the models; on a phone a comparison table's first rows are in the first screen."""
from __future__ import annotations

import pytest
from conftest import LANGS, ROOT


@pytest.fixture(scope="module")
def atlas():
    from atlas.data import load_atlas
    return load_atlas(ROOT)


def _prefix(lang: str) -> str:
    return "" if lang == LANGS[0] else lang + "/"


def _filtered(page, server, lang: str, rel: str, words: str):
    """The table of `rel` filtered by `words`, and the providers its shown rows are for."""
    page.goto(f"{server}/{_prefix(lang)}{rel}")
    box = page.locator("[data-atlas-table]").first
    box.locator("[data-atlas-filter]").fill(words)
    page.wait_for_timeout(400)
    return box, set(box.locator("tbody tr[data-provider]:not([hidden])").evaluate_all("rs => rs.map(r => r.dataset.provider)"))


@pytest.mark.parametrize("lang", LANGS)
def test_typing_a_currency_keeps_only_rows_that_show_it(page, server, atlas, lang):
    _, shown = _filtered(page, server, lang, "compare/buying-india.html", "INR")
    billed = {p.id for p in atlas.providers if p.facts["local_billing"].known and "INR" in p.facts["local_billing"].value}
    assert shown == billed, (sorted(shown - billed), sorted(billed - shown))


@pytest.mark.parametrize("lang", LANGS)
def test_a_gpu_model_behind_more_is_shown_marked_when_the_filter_names_it(page, server, atlas, lang):
    box, shown = _filtered(page, server, lang, "compare/regions-gpus.html", "H200")
    have = {p.id for p in atlas.providers if p.facts["gpus"].known and any("H200" in m for m in p.facts["gpus"].value)}
    assert shown == have   # GH200 contains H200: a text filter finds it, as the reader sees
    hidden_before = [p.id for p in atlas.providers if "H200" in p.facts["gpus"].value and list(p.facts["gpus"].value).index("H200") >= 2]
    assert hidden_before, "some provider lists H200 after its first two models"
    for pid in hidden_before:
        chips = box.locator(f"tr[data-provider='{pid}'] .atlas-v__chip--match")
        assert any("H200" in text.replace(" +", ", ").split(", ") for text in chips.all_inner_texts()) and chips.first.is_visible()
    box.locator("[data-atlas-filter]").fill("")
    page.wait_for_timeout(400)
    assert box.locator(".atlas-v__chip--match").count() == 0   # cleared: the cells are as they were


@pytest.mark.parametrize("lang", LANGS)
def test_the_chooser_filters_by_gpu_model_and_shows_the_models(page, server, atlas, lang):
    page.goto(f"{server}/{_prefix(lang)}compare/choose.html?need=gpu-H100")
    page.wait_for_timeout(300)
    matches = page.locator("[data-choose-match] li[data-provider]:not([hidden])")
    shown = set(matches.evaluate_all("rs => rs.map(r => r.dataset.provider)"))
    have = {p.id for p in atlas.providers if p.facts["gpus"].known and "H100" in p.facts["gpus"].value}
    assert shown == have
    for pid in have:
        models = page.locator(f"[data-atlas-choose] li[data-provider='{pid}'] [data-field='gpus'] dd").first.text_content()
        assert "H100" in models, (pid, models)


@pytest.mark.parametrize("lang", LANGS)
def test_on_a_phone_the_table_starts_in_the_first_screen(browser, server, lang):
    context = browser.new_context(viewport={"width": 412, "height": 915}, device_scale_factor=1)
    pg = context.new_page()
    try:
        for rel in ("compare/kubernetes.html", "compare/buying-india.html", "compare/regions-gpus.html"):
            pg.goto(f"{server}/{_prefix(lang)}{rel}")
            top = pg.locator(".atlas-table tbody tr[data-provider]").first.bounding_box()["y"]
            assert top < 915, (rel, top)
    finally:
        context.close()
