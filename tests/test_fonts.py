"""Fonts that draw every language (issue 35, item 3): a Vietnamese code comment is drawn by one
font that has its letters whole (not DejaVu Sans Mono, which stacks the marks apart), and a
Hindi one by a Devanagari font, as Chromium reports the fonts it used (DevTools
CSS.getPlatformFontsForNode); a screenshot of each is kept for a reader to look at."""
from __future__ import annotations

import pytest

CASES = {
    # language, page, text inside one of its code blocks
    "vi": ("guides/kubernetes-ml-workloads.html", "thử lại pod lỗi tối đa hai lần"),
    "hi": ("guides/billing-idle-cost.html", None),
}


def fonts_used(pg) -> dict[str, int]:
    """family -> glyphs Chromium drew with it, for the node the page left in window.__atlasNode."""
    cdp = pg.context.new_cdp_session(pg)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    cdp.send("DOM.getDocument", {"depth": -1})
    remote = cdp.send("Runtime.evaluate", {"expression": "window.__atlasNode", "returnByValue": False})
    node = cdp.send("DOM.requestNode", {"objectId": remote["result"]["objectId"]})
    fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node["nodeId"]})["fonts"]
    return {f["familyName"]: f["glyphCount"] for f in fonts}


@pytest.mark.parametrize("lang", sorted(CASES))
def test_code_comments_are_drawn_by_a_font_that_has_their_letters(page, server, lang, tmp_path):
    path, text = CASES[lang]
    page.goto(f"{server}/{lang}/{path}")
    code = page.locator("pre code").filter(has_text=text).first if text else page.locator("pre code").first
    code.scroll_into_view_if_needed()
    # the text node of the comment's line: the span Pygments made for it
    found = code.evaluate("""(c, want) => {
        const spans = [...c.querySelectorAll('span')].filter(s => want ? s.textContent.includes(want) : /[\\u0900-\\u097F]/.test(s.textContent));
        window.__atlasNode = spans[0] || null; return spans.length }""", text)
    assert found, f"no code comment with {'Devanagari' if not text else text!r} in {path}"
    used = fonts_used(page)
    shot = tmp_path / f"code-{lang}.png"   # for a reader to open: pytest keeps the last runs' tmp folders
    code.screenshot(path=str(shot))
    assert shot.stat().st_size > 1000
    assert "DejaVu Sans Mono" not in used, used
    if lang == "vi":
        assert list(used) == ["Noto Sans Mono"], used   # one font: every letter with its marks, whole
    else:
        assert "Noto Sans Devanagari" in used, used
