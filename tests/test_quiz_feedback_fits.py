"""Generated quiz feedback fits the page (issue 35, item 2): the source is named by a short label
and linked, never printed as a URL, so no answer widens the page on a phone or spills out of the
quiz card on a laptop, and the announced verdict never spells out a URL."""
from __future__ import annotations

import pytest
from conftest import LANGS, ROOT

GUIDES = sorted(p.relative_to(ROOT / "docs" / "en").as_posix().replace(".md", ".html")
                for p in (ROOT / "docs" / "en" / "guides").glob("*.md")
                if "quiz:generated" in p.read_text(encoding="utf-8"))


def test_every_guide_with_generated_questions_is_tested():
    assert len(GUIDES) >= 3, GUIDES


@pytest.mark.long
@pytest.mark.parametrize("width", [412, 1366])
@pytest.mark.parametrize("lang", LANGS)
def test_every_generated_answer_right_or_wrong_keeps_the_page_and_the_card_width(browser, server, lang, width):
    context = browser.new_context(viewport={"width": width, "height": 900})
    pg = context.new_page()
    answered = 0
    try:
        for guide in GUIDES:
            pg.goto(f"{server}/{'' if lang == 'en' else lang + '/'}{guide}")
            quizzes = pg.locator("[data-atlas-quiz^='quiz-generated'], [data-atlas-quiz*='generated']")
            for q in range(quizzes.count()):
                questions = quizzes.nth(q).locator("fieldset.atlas-quiz__q")
                for i in range(questions.count()):
                    question = questions.nth(i)
                    inputs = question.locator("input")
                    for k in range(inputs.count()):   # each option in turn: wrong ones and the right one
                        inputs.nth(k).check(force=True)
                        answered += 1
                        status = question.locator("[data-status]").inner_text()
                        assert "http" not in status and "://" not in status, status
                        assert pg.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), (guide, k)
                        card = question.bounding_box()
                        for shown in question.locator(".atlas-quiz__fb:not([hidden]), .atlas-quiz__source").all():
                            box = shown.bounding_box()
                            if box:
                                assert box["x"] + box["width"] <= card["x"] + card["width"] + 1, (guide, k)
        assert answered >= 12, answered
    finally:
        context.close()
