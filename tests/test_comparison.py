"""The comparison at a glance (issue 23), on the real built site in headless Chromium: compact
rows a reader can scan, each value's evidence opened in place, side by side from a shared
address, and pages half their old weight."""
from __future__ import annotations

import datetime as dt
import re
from urllib.parse import quote

import pytest

from atlas import cells
from atlas.data import load_atlas
from conftest import ROOT, TABLES_READY

from conftest import LANGS  # noqa: E402  (the languages in mkdocs.yml)
# compare/all.html at 6a27781, before compact cells (every cell carried its note and date).
MATRIX_BYTES_BEFORE = {"en": 333_060, "hi": 393_499, "vi": 348_247}   # a new language: the largest

# Rows per screen = (viewport height - heading row) / median row height; columns visible = the
# capability headings whose right edge is inside the table's box before scrolling sideways.
MEASURE = """() => {
  const t = document.querySelector('.atlas-table__table');
  const rows = [...t.tBodies[0].rows].filter(r => !r.hidden);
  const h = rows.map(r => r.getBoundingClientRect().height).sort((a, b) => a - b);
  const median = h[Math.floor(h.length / 2)];
  const head = t.tHead.rows[0].getBoundingClientRect().height;
  const box = t.closest('.atlas-table__scroll').getBoundingClientRect();
  const cols = [...t.tHead.rows[0].cells].filter(c => c.hasAttribute('data-field'));
  return {perScreen: (innerHeight - head) / median, height: t.getBoundingClientRect().height,
          visible: cols.filter(c => c.getBoundingClientRect().right <= box.right + 1).length, columns: cols.length};
}"""


def _url(lang: str, rel: str) -> str:
    return ("/" if lang == "en" else f"/{lang}/") + rel


def measure(browser, server, lang, rel, width, height):
    context = browser.new_context(viewport={"width": width, "height": height})
    pg = context.new_page()
    pg.goto(server + _url(lang, rel))
    found = pg.evaluate(MEASURE)
    context.close()
    return found


@pytest.fixture(scope="module")
def atlas():
    return load_atlas(ROOT)


@pytest.mark.parametrize("lang", LANGS)
def test_a_capability_page_shows_fifteen_rows_on_a_laptop_and_ten_on_a_phone(browser, server, lang):
    wide = measure(browser, server, lang, "compare/kubernetes.html", 1366, 768)
    phone = measure(browser, server, lang, "compare/kubernetes.html", 412, 823)
    assert wide["perScreen"] >= 15, wide
    assert wide["visible"] == wide["columns"], wide
    assert phone["perScreen"] >= 10, phone


@pytest.mark.parametrize("lang", LANGS)
def test_the_matrix_shows_twelve_capabilities_and_fifteen_rows_and_stays_short(browser, server, lang, atlas):
    wide = measure(browser, server, lang, "compare/all.html", 1366, 768)
    assert wide["columns"] == len(atlas.all_fields)
    assert wide["visible"] >= 12, wide
    assert wide["perScreen"] >= 15, wide
    assert wide["height"] <= 2500 * len(atlas.providers) / 30, wide   # 2,500 px with today's 30 providers


@pytest.mark.parametrize("lang", LANGS)
def test_the_matrix_weighs_at_most_half_what_it_did(built_site, lang):
    size = len((built_site / _url(lang, "compare/all.html").lstrip("/")).read_bytes())
    atlas = load_atlas(ROOT)
    assert size <= MATRIX_BYTES_BEFORE.get(lang, max(MATRIX_BYTES_BEFORE.values())) / 2 * max(1, len(atlas.providers) / 30), size   # per provider, as at 30


def test_the_provider_column_stays_in_place_on_a_phone(browser, server):
    context = browser.new_context(viewport={"width": 412, "height": 823}, is_mobile=True)
    pg = context.new_page()
    pg.goto(server + "/vi/compare/kubernetes.html")
    box = pg.locator(".atlas-table__scroll").first
    assert box.evaluate("el => el.scrollWidth > el.clientWidth")
    name = pg.locator("table.atlas-table__table tbody th").first
    head = pg.locator("table.atlas-table__table thead th").first
    before = name.bounding_box()["x"]
    box.evaluate("el => { el.scrollLeft = 200; el.scrollTop = 300 }")
    pg.wait_for_function("document.querySelector('.atlas-table__scroll').scrollLeft > 50")
    assert abs(name.bounding_box()["x"] - before) < 2                                       # provider column
    assert abs(head.bounding_box()["y"] - box.bounding_box()["y"]) < 2                      # heading row
    context.close()


def test_comparison_pages_give_the_table_the_contents_column(built_site):
    for rel in ("compare/kubernetes.html", "compare/all.html", "compare/side-by-side.html", "hi/compare/storage.html"):
        html = (built_site / rel).read_text(encoding="utf-8")
        toc = re.search(r'<div class="md-sidebar md-sidebar--secondary"[^>]*>', html)
        assert toc is None or "hidden" in toc.group(0), rel


def _noted_fact(atlas, group="kubernetes"):
    """A fact of `group` with a note, a source and, where one exists, a quote (from the data)."""
    found = [(p, f) for p in atlas.providers for f in atlas.groups[group]
             if atlas.note("en", p.id, f) and p.facts[f].sources]
    return max(found, key=lambda pf: bool(pf[0].facts[pf[1]].quote))


@pytest.mark.parametrize("lang", LANGS)
def test_details_open_under_the_row_by_keyboard_with_the_quote_and_close_with_escape(page, server, lang, atlas):
    p, field = _noted_fact(atlas)
    fact = p.facts[field]
    page.goto(server + _url(lang, "compare/kubernetes.html"))
    column = list(atlas.groups["kubernetes"]).index(field)
    button = page.locator(f"tr[data-provider='{p.id}'] td.atlas-v").nth(column).locator("button.atlas-v__more")
    name = button.evaluate("b => b.textContent")
    details = atlas.t(lang, "table.details", provider=p.name, name=atlas.t(lang, f"fields.{field}.label"))
    assert name.startswith(details), name
    assert button.get_attribute("aria-expanded") == "false"
    button.focus()
    page.keyboard.press("Enter")
    row = page.locator("tr.atlas-table__details")
    row.locator(".atlas-ev").wait_for()
    assert button.get_attribute("aria-expanded") == "true"
    assert button.get_attribute("aria-controls") == row.get_attribute("id")
    assert row.evaluate("r => r.previousElementSibling.getAttribute('data-provider')") == p.id
    if fact.quote:
        quote = row.locator("blockquote")
        assert quote.get_attribute("lang") == fact.quote_lang and fact.quote in quote.inner_text()
    assert (atlas.note(lang, p.id, field) or atlas.note("en", p.id, field)) in row.inner_text()
    assert row.locator(f"a[href^='{fact.sources[0]}']").count() == 1   # with a text fragment to the quote, if any
    assert row.locator("time[datetime]").count() == (1 if fact.verified else 0) + (1 if fact.source_date else 0) \
        + (1 if (p.id, field) in atlas.checked else 0)
    page.keyboard.press("Escape")
    assert page.locator("tr.atlas-table__details").count() == 0
    assert button.get_attribute("aria-expanded") == "false"
    assert page.evaluate("document.activeElement.getAttribute('aria-expanded')") == "false"   # focus back on it
    button.press("Enter")
    button.press("Enter")   # the same button closes it too
    assert page.locator("tr.atlas-table__details").count() == 0


ICON_OF = """e => { const a = e.querySelector('.atlas-v__more'); const c = getComputedStyle(a || e, '::before').content;
                     return c === 'none' || c === 'normal' ? '' : c }"""


@pytest.mark.parametrize("lang", LANGS)
def test_each_value_shows_its_tones_icon_which_is_not_read_aloud(browser, server, lang, atlas):
    """Cells carry no icon element (hundreds of them were a fifth of the matrix's style work on a
    phone): atlas.css draws the tone's icon before the words, with empty alternative text."""
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    pg = context.new_page()
    pg.goto(server + _url(lang, "compare/all.html"))
    seen = {}
    for tone, icon in ((cells.TONES[k], cells.ICONS[k]) for k in cells.ICONS):
        for plain in (True, False):
            sel = f"td.atlas-v--{tone}" + (".atlas-v--plain" if plain else ":not(.atlas-v--plain)")
            if pg.locator(sel).count():
                drawn = pg.locator(sel).first.evaluate(ICON_OF)
                assert drawn == f'"{icon}" / ""', (sel, drawn)
                seen[(tone, plain)] = drawn
    assert ("yes", False) in seen and ("unknown", True) in seen, seen
    assert pg.locator("td.atlas-v--list").first.evaluate(ICON_OF) == ""   # lists show their items
    assert pg.locator("td.atlas-v .atlas-v__icon").count() == 0
    button = pg.locator("tbody td.atlas-v--yes button.atlas-v__more").first
    button.wait_for()
    cdp = context.new_cdp_session(pg)
    root = cdp.send("DOM.getDocument")["root"]["nodeId"]
    node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": "tbody td.atlas-v--yes button.atlas-v__more"})["nodeId"]
    name = cdp.send("Accessibility.getPartialAXTree", {"nodeId": node, "fetchRelatives": False})["nodes"][0]["name"]["value"]
    assert "✓" not in name and button.evaluate("b => b.lastChild.textContent").strip() in name, name
    context.close()


def test_a_value_chosen_before_the_script_reached_it_opens_in_place(browser, server, atlas):
    """The matrix turns its links into buttons while the browser is idle; a link chosen before
    its turn opens its evidence in place all the same, and becomes its button."""
    context = browser.new_context(viewport={"width": 412, "height": 823})
    pg = context.new_page()
    pg.add_init_script("window.requestIdleCallback = function () { return 0 }")   # idle never comes
    pg.goto(server + "/compare/all.html")
    link = pg.locator("tbody a.atlas-v__more").first
    href = link.get_attribute("href")
    assert pg.locator("tbody button.atlas-v__more").count() == 0
    link.click()
    row = pg.locator("tr.atlas-table__details")
    row.locator(".atlas-ev").wait_for()
    assert pg.url.endswith("/compare/all.html")   # no navigation
    button = pg.locator("tbody button.atlas-v__more[aria-expanded=true]")
    assert button.count() == 1 and button.get_attribute("data-href") == href
    assert pg.evaluate("document.activeElement.getAttribute('aria-expanded')") == "true"
    context.close()


def test_a_quote_keeps_its_language(atlas):
    """A quote in another language than English says so (quote_lang), and the evidence carries it."""
    foreign = [(p, f) for p in atlas.providers for f, fact in p.facts.items() if fact.quote and fact.quote_lang != "en"]
    assert foreign   # today: AWS's Japanese page, VNG's and FPT's Vietnamese ones
    for p, f in foreign:
        assert f'<blockquote lang="{p.facts[f].quote_lang}"' in cells.evidence(atlas, "hi", p, f, dt.date.today())


def test_every_fact_with_evidence_links_to_it_and_every_quote_is_on_its_fact(built_site, atlas):
    """Without JavaScript, each matrix cell is a link to its fact on the provider page, where
    the note, sources, date and quote are; the table script opens that same block in place."""
    for lang in LANGS:
        base = built_site / _url(lang, "").lstrip("/")
        matrix = (base / "compare/all.html").read_text(encoding="utf-8")
        for p in atlas.providers:
            page = (base / "providers" / f"{p.id}.html").read_text(encoding="utf-8")
            for f, fact in p.facts.items():
                row = page[page.index(f'<tr id="fact-{f}"'):]
                row = row[: row.index("</tr>")]
                linked = f'href="../providers/{p.id}.html#fact-{f}"' in matrix   # inside the language's folder
                assert linked == cells.has_details(atlas, lang, p, f), (lang, p.id, f)
                if fact.quote:
                    assert f'<blockquote lang="{fact.quote_lang}"' in row, (lang, p.id, f)
                    assert str(cells.e(fact.quote)) in row, (lang, p.id, f)
                else:
                    assert "<blockquote" not in row, (lang, p.id, f)


def _pair(atlas):
    """Two providers whose values differ somewhere and agree somewhere (from the data)."""
    ps = sorted(atlas.providers, key=lambda p: -sum(f.known for f in p.facts.values()))
    return ps[0], ps[1]


def _side(atlas) -> str:
    a, b = _pair(atlas)
    return f"compare/side-by-side.html?p={a.id}&p={b.id}"


@pytest.mark.parametrize("lang", LANGS)
def test_side_by_side_from_a_shared_address_shows_each_providers_facts_as_in_the_data(page, server, lang, atlas):
    page.goto(server + _url(lang, _side(atlas)))
    table = page.locator("[data-sbs-table]")
    table.wait_for()
    heads = page.eval_on_selector_all("[data-sbs-table] thead th", "els => els.map(e => e.textContent.trim())")
    aws, e2e = sorted(_pair(atlas), key=lambda p: p.name.casefold())   # columns in the picker's order
    assert heads[1:] == [aws.name, e2e.name]
    shown = page.eval_on_selector_all("[data-sbs-table] tr[data-field]", """rows => rows.map(r => [
        r.getAttribute('data-field'), [...r.cells].slice(1).map(c => c.getAttribute('data-value')),
        r.classList.contains('atlas-sbs--differs'), !r.querySelector('.atlas-sbs__differs').hidden])""")
    assert sorted(f for f, *_ in shown) == sorted(atlas.all_fields)
    value = lambda fact: " ".join(fact.value) if isinstance(fact.value, tuple) else fact.value  # noqa: E731
    for field, values, differs, marked in shown:
        assert values == [value(aws.facts[field]), value(e2e.facts[field])], field
        assert differs == marked == (values[0] != values[1]), field
    assert page.locator("[data-sbs-provider]:checked").count() == 2
    # each cell opens the same evidence as the tables
    page.locator("[data-sbs-table] tr[data-field='kubernetes'] button.atlas-v__more").first.click()
    page.locator("tr.atlas-table__details .atlas-ev").wait_for()


def test_side_by_side_by_keyboard_keeps_the_choice_in_the_address_and_at_most_four(page, server, atlas):
    page.goto(server + "/hi/compare/side-by-side.html")
    assert page.locator("[data-sbs-table]").is_hidden()
    boxes = page.locator("[data-sbs-provider]")
    for i in range(4):
        boxes.nth(i).focus()
        page.keyboard.press("Space")
    ids = [boxes.nth(i).get_attribute("value") for i in range(4)]
    assert page.evaluate("location.search") == "?" + "&".join(f"p={quote(i)}" for i in ids)
    page.locator("[data-sbs-table] thead th").nth(4).wait_for()   # the four providers' pages are read first
    assert page.locator("[data-sbs-table] thead th").count() == 5
    assert boxes.nth(4).is_disabled()                                              # a fifth cannot be added
    assert page.locator("[data-sbs-status]").inner_text() == atlas.t("hi", "reader.compare.limit")
    page.locator("[data-sbs-diff]").check()
    page.wait_for_function("document.querySelectorAll('[data-sbs-table] tr[data-field][hidden]').length > 0")
    hidden = page.eval_on_selector_all("[data-sbs-table] tr[data-field]", "rs => rs.map(r => [r.hidden, "
                                       "r.classList.contains('atlas-sbs--differs')])")
    assert all(h != d for h, d in hidden) and any(d for _, d in hidden)           # only the rows that differ


def test_a_table_row_adds_its_provider_to_the_choice(page, server, atlas):
    first, second, third = (p.id for p in atlas.providers[:3])
    page.goto(server + f"/vi/compare/side-by-side.html?p={first}")
    page.goto(server + "/vi/compare/kubernetes.html")
    page.locator(f"tr[data-provider='{second}'] a.atlas-table__add").click()
    page.wait_for_url(f"**/side-by-side.html?p={first}&p={second}")
    page.locator("[data-sbs-table] thead th").nth(2).wait_for()
    assert page.locator("[data-sbs-table] thead th").count() == 3
    page.goto(server + f"/vi/providers/{third}.html")
    page.locator(f".atlas-provider__more a[href*='side-by-side.html?add={third}']").click()
    page.wait_for_url(f"**/side-by-side.html?p={first}&p={second}&p={third}")


def test_without_javascript_side_by_side_says_how_and_links_every_provider(browser, server, atlas):
    context = browser.new_context(java_script_enabled=False)
    pg = context.new_page()
    pg.goto(server + "/hi/" + _side(atlas))
    assert pg.locator(".atlas-sbs__app").is_hidden()
    assert atlas.t("hi", "reader.compare.nojs") in pg.locator("article").inner_text()
    assert pg.locator(".atlas-sbs__links a").count() == len(atlas.providers)
    pg.goto(server + "/hi/compare/all.html")
    assert pg.locator(".atlas-table__controls").is_hidden()
    p = next(p for p in atlas.providers if p.facts["kubernetes"].sources)
    pg.locator(f"tr[data-provider='{p.id}'] td.atlas-v a.atlas-v__more").first.click()
    assert pg.url.endswith(f"/hi/providers/{p.id}.html#fact-kubernetes")
    assert pg.locator("#fact-kubernetes .atlas-ev").is_visible()
    context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_serious_with_details_open_and_side_by_side(browser, server, scheme, atlas):
    from axe_playwright_python.sync_playwright import Axe
    axe = Axe()
    noted, _ = _noted_fact(atlas)
    context = browser.new_context(color_scheme=scheme, viewport={"width": 1366, "height": 768})
    pg = context.new_page()
    found = {}
    for path, opener in [("/hi/compare/kubernetes.html", f"tr[data-provider='{noted.id}'] button.atlas-v__more"),
                         ("/vi/" + _side(atlas), "[data-sbs-table] button.atlas-v__more"),
                         ("/compare/all.html", "tbody button.atlas-v__more")]:
        pg.goto(server + path)
        pg.locator(opener).first.click()
        pg.locator("tr.atlas-table__details .atlas-ev").wait_for()
        # axe yields between its rules: the page it audits is the finished one, every link a button
        pg.wait_for_function(TABLES_READY)
        result = axe.run(pg, options={"resultTypes": ["violations"]}).response
        bad = [f"{v['id']}: {[n['target'] for n in v['nodes']]}" for v in result["violations"]
               if v["impact"] in ("serious", "critical")]
        if bad:
            found[path] = bad
    context.close()
    assert found == {}
