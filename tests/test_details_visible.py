"""Details never cut off (issue 35, item 5): a details row opened on the last row of a table is
shown whole (the table's own scroll box scrolls to it, or the page does), and a provider's page
has no scroll box of its own inside the page: its fact table grows with the page."""
from __future__ import annotations

import pytest
from conftest import LANGS

TABLE_PAGE = "compare/kubernetes.html"


@pytest.mark.parametrize("width, height", [(412, 800), (1366, 700)])
@pytest.mark.parametrize("lang", LANGS)
def test_details_of_the_last_row_are_fully_visible(browser, server, lang, width, height):
    context = browser.new_context(viewport={"width": width, "height": height})
    pg = context.new_page()
    try:
        pg.goto(f"{server}/{'' if lang == 'en' else lang + '/'}{TABLE_PAGE}")
        table = pg.locator(".atlas-table").first
        last = table.locator("tbody tr[data-provider]").last
        button = last.locator("button.atlas-v__more").first
        button.scroll_into_view_if_needed()
        button.click()
        details = table.locator("tr.atlas-table__details")
        details.locator(".atlas-ev").wait_for()
        pg.wait_for_timeout(400)   # smooth scrolling, if any, has settled
        shown = pg.evaluate("""() => {
            const row = document.querySelector('tr.atlas-table__details');
            const box = row.closest('.atlas-table__scroll');
            const r = row.getBoundingClientRect(), b = box.getBoundingClientRect();
            const src = row.querySelector('.atlas-ev__src').getBoundingClientRect();
            return {rowTop: r.top, rowBottom: r.bottom, boxTop: b.top, boxBottom: b.bottom,
                    srcBottom: src.bottom, viewport: window.innerHeight, tall: r.height > Math.min(b.height, window.innerHeight)};
        }""")
        if not shown["tall"]:   # the whole row fits: all of it is in view, inside its box and the window
            assert shown["rowTop"] >= shown["boxTop"] - 1 and shown["rowBottom"] <= shown["boxBottom"] + 1, shown
            assert shown["rowTop"] >= -1 and shown["rowBottom"] <= shown["viewport"] + 1, shown
        else:                   # taller than the box: its start is in view, and the sources can be scrolled to
            assert shown["boxTop"] - 1 <= shown["rowTop"] <= shown["viewport"], shown
    finally:
        context.close()


@pytest.mark.parametrize("width", [412, 1366])
@pytest.mark.parametrize("lang", LANGS)
def test_a_provider_page_has_no_scroll_box_inside_the_page(browser, server, lang, width):
    context = browser.new_context(viewport={"width": width, "height": 800})
    pg = context.new_page()
    try:
        pg.goto(f"{server}/{'' if lang == 'en' else lang + '/'}providers/aws.html")
        box = pg.evaluate("""() => {
            const s = document.querySelector('.atlas-provider__facts').closest('.atlas-table__scroll');
            return {scrollHeight: s.scrollHeight, clientHeight: s.clientHeight, overflowY: getComputedStyle(s).overflowY,
                    maxHeight: getComputedStyle(s).maxHeight};
        }""")
        assert box["scrollHeight"] <= box["clientHeight"] + 1, box   # nothing to scroll inside it vertically
        assert box["maxHeight"] == "none", box
    finally:
        context.close()
