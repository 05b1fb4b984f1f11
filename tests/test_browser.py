"""What only a browser shows: per-language search, Vietnamese search without diacritics,
table sorting and filtering, and quiz feedback, in real headless Chromium (Debian's)."""
from __future__ import annotations

from functools import lru_cache

import pytest

from atlas.data import load_atlas
from conftest import LANGS, ROOT


@lru_cache(maxsize=1)
def _atlas():
    return load_atlas(ROOT)


def t(lang: str, key: str, **values) -> str:
    """The words of `key` in `lang`, as data/i18n says today (a test must not copy them)."""
    return _atlas().t(lang, key, **values)


def search(pg, server, path, query):
    pg.goto(f"{server}{path}")
    pg.keyboard.press("/")
    box = pg.locator("input.md-search__input")
    box.fill(query)
    box.press("End")   # Material searches on key-up; fill() sends none
    pg.wait_for_selector(".md-search-result__item > a")   # results arrive from the search worker
    # the address without "?h=…", the words Material highlights on arrival (they name our extra query terms)
    return pg.eval_on_selector_all(".md-search-result__item > a", "els => els.map(e => e.href.replace(/\\?h=[^#]*/, ''))")


@pytest.mark.parametrize("path, prefix", [("/index.html", "/"), ("/hi/index.html", "/hi/"), ("/vi/index.html", "/vi/")])
def test_search_returns_only_the_page_language(page, server, path, prefix):
    links = search(page, server, path, "Kubernetes")
    assert links, "no results"
    for href in links:
        rel = href[len(server):]
        assert rel.startswith(prefix), href
        if prefix == "/":
            assert not rel.startswith(("/hi/", "/vi/")), href


def test_vietnamese_search_without_diacritics_finds_and_shows_original(page, server):
    links = search(page, server, "/vi/index.html", "luu tru")
    assert any("/vi/guides/storage.html" in h for h in links), links
    text = page.inner_text(".md-search-result__list")
    assert "lưu trữ" in text.lower()
    assert "<mark>" in page.inner_html(".md-search-result__list")   # matches highlighted in the original text
    with_marks = search(page, server, "/vi/index.html", "lưu trữ")
    # typing the diacritics finds the same pages; exact spellings rank higher (issue 35), so the
    # pages at the end of the list shown may trade places with the next ones
    assert with_marks[0] == links[0] and "/vi/guides/storage.html" in with_marks[0]
    assert len(set(with_marks) ^ set(links)) <= 2, (with_marks, links)


def test_hindi_search_ignores_nukta(page, server, built_site):
    import json
    import re
    import unicodedata
    from collections import Counter
    # a word with a nukta that the Hindi pages use most (ज़रूरी today), whatever their wording
    index = json.loads((built_site / "hi/search/search_index.json").read_text(encoding="utf-8"))
    text = unicodedata.normalize("NFC", " ".join(d["text"] for d in index["docs"]))
    words = Counter(w for w in re.findall(r"[\u0900-\u097F]{4,}", text) if "\u093c" in unicodedata.normalize("NFD", w))
    word = words.most_common(1)[0][0]
    bare = unicodedata.normalize("NFC", unicodedata.normalize("NFD", word).replace("\u093c", ""))
    with_nukta = search(page, server, "/hi/index.html", word)
    without = search(page, server, "/hi/index.html", bare)
    assert with_nukta and set(with_nukta) == set(without), (word, bare)


def test_table_sorts_and_filters_by_keyboard(page, server):
    page.goto(f"{server}/compare/kubernetes.html")
    table = page.locator("table.atlas-table__table").first
    header = table.locator("thead th").first
    header.locator("button").focus()
    page.keyboard.press("Enter")
    assert header.get_attribute("aria-sort") == "ascending"
    names = table.locator("tbody th").all_inner_texts()
    assert names == sorted(names, key=str.casefold)
    page.keyboard.press("Enter")
    assert header.get_attribute("aria-sort") == "descending"
    assert table.locator("tbody th").all_inner_texts() == sorted(names, key=str.casefold, reverse=True)
    rows = page.eval_on_selector_all("table.atlas-table__table tbody tr", """rows => rows.map(r => (r.textContent + ' ' +
        [...r.querySelectorAll('[data-words]')].map(c => c.dataset.words).join(' ')).toLowerCase())""")
    # a word of a provider's name that no other row holds ("vast" today), whatever providers there are
    query = next(w for name in names for w in name.lower().split() if len(w) >= 4 and sum(w in r for r in rows) == 1)
    box = page.locator("[data-atlas-filter]").first
    box.fill(query)
    page.wait_for_function("document.querySelectorAll('table.atlas-table__table tbody tr:not([hidden])').length === 1")
    assert page.locator("[data-atlas-count]").first.inner_text() == t("en", "table.shown", shown=1, total=len(names))
    box.fill("zzzz-none")
    page.wait_for_selector("[data-atlas-nomatch]:not([hidden])")


@pytest.mark.parametrize("lang", LANGS)
def test_quiz_feedback_score_persistence_reset_and_keyboard(page, server, lang):
    prefix = "" if lang == "en" else f"/{lang}"
    page.goto(f"{server}{prefix}/guides/kubernetes-providers.html")
    quiz = page.locator("[data-atlas-quiz='quiz-kubernetes-providers']")
    right, wrong = t(lang, "quiz.correct"), t(lang, "quiz.incorrect")
    score = t(lang, "quiz.score", correct=1, total=quiz.locator("fieldset").count())
    first = quiz.locator("fieldset").first
    status = first.locator("[role=status]")
    # keyboard only: Tab into the first radio group, arrow to a wrong answer
    first.locator("input").first.focus()
    wrong_input = first.locator("input[data-correct='false']").first
    right_input = first.locator("input[data-correct='true']").first
    wrong_input.focus()
    page.keyboard.press("Space")
    assert status.inner_text().startswith(wrong)
    assert page.evaluate("document.activeElement.type") == "radio"   # focus did not move
    right_input.focus()
    page.keyboard.press("Space")
    assert status.inner_text().startswith(right)
    explanation = first.locator("[data-explanation]").text_content()
    assert explanation.strip() in status.inner_text()
    assert quiz.locator("[data-score]").inner_text() == score
    retry = first.locator("[data-retry]")
    retry.focus()
    page.keyboard.press("Enter")
    assert not first.locator("input:checked").count() and status.inner_text() == ""
    right_input.focus()
    page.keyboard.press("Space")
    page.reload()
    first = page.locator("[data-atlas-quiz='quiz-kubernetes-providers'] fieldset").first
    assert first.locator("input[data-correct='true']").first.is_checked()
    assert page.locator("[data-atlas-quiz='quiz-kubernetes-providers'] [data-score]").inner_text() == score
    page.locator("[data-atlas-quiz='quiz-kubernetes-providers'] [data-reset]").click()
    assert not first.locator("input:checked").count()
    page.reload()
    assert not page.locator("[data-atlas-quiz='quiz-kubernetes-providers'] fieldset input:checked").count()


@pytest.mark.parametrize("lang", LANGS)
def test_a_wrong_verdict_explains_the_wrong_option_even_when_a_right_one_was_ticked_last(page, server, lang):
    page.goto(f"{server}/{'' if lang == 'en' else lang + '/'}guides/kubernetes-ml-workloads.html")
    q = page.locator("fieldset[data-multiple='true']").first
    wrong_option = q.locator(".atlas-quiz__option:has(input[data-correct='false'])").first
    right_option = q.locator(".atlas-quiz__option:has(input[data-correct='true'])").first
    wrong_option.locator("input").check()
    right_option.locator("input").check()   # ticked last, but the answer as a whole is wrong
    text = q.locator("[role=status]").inner_text()
    quiz = page.locator("[data-atlas-quiz]").filter(has=q)
    assert text.startswith(quiz.get_attribute("data-t-incorrect")), text
    assert wrong_option.locator("[data-feedback-for]").text_content().strip() in text
    assert right_option.locator("[data-feedback-for]").text_content().strip() not in text


@pytest.mark.parametrize("lang", LANGS)
def test_quiz_score_is_spoken_from_a_live_region_that_is_there_before_the_first_answer(page, server, lang):
    page.goto(f"{server}/{'' if lang == 'en' else lang + '/'}guides/storage.html")
    quiz = page.locator("[data-atlas-quiz]").first
    live = quiz.locator("[data-score-live]")
    assert live.get_attribute("role") == "status" and live.get_attribute("aria-live") == "polite"
    exposed = "e => !e.closest('[hidden]') && getComputedStyle(e).display !== 'none' && getComputedStyle(e).visibility !== 'hidden'"
    assert live.evaluate(exposed) and live.text_content() == ""   # in the page, silent, before any answer
    quiz.locator("fieldset").first.locator("input").first.check()
    score = quiz.locator("[data-score]").text_content()
    assert score and score in live.text_content()
    assert quiz.locator(".atlas-quiz__score").get_attribute("aria-hidden") == "true"   # not read twice
    page.reload()   # saved answers come back without a new announcement
    assert quiz.locator("[data-score]").text_content() == score and live.text_content() == ""


def test_generated_quiz_works(page, server):
    page.goto(f"{server}/vi/guides/kubernetes-providers.html")
    quiz = page.locator("[data-atlas-quiz^='quiz-generated-kubernetes']").first
    q = quiz.locator("fieldset").first
    q.locator("input[data-correct='true']").check()
    text = q.locator("[role=status]").inner_text()
    before_source = _atlas().words["vi"]["quiz.source_line"].split("{source}")[0].split("}")[-1]   # "Source: "
    assert text.startswith(t("vi", "quiz.correct")) and before_source in text and "https://" not in text   # a label, not a URL


def test_language_switcher_keeps_the_reader_on_the_same_page(page, server):
    page.goto(f"{server}/guides/storage.html")
    page.locator(".md-header__option .md-select").hover()
    page.locator("a.md-select__link[hreflang='vi']").click()
    page.wait_for_url(f"{server}/vi/guides/storage.html")
    assert page.locator("html").get_attribute("lang") == "vi"
    page.locator(".md-header__option .md-select").hover()
    page.locator("a.md-select__link[hreflang='hi']").click()
    page.wait_for_url(f"{server}/hi/guides/storage.html")
    assert page.locator("input.md-search__input").get_attribute("placeholder") == "खोज"   # Material's Hindi interface


def test_table_scrolls_sideways_on_a_phone_with_provider_column_in_place(browser, server):
    context = browser.new_context(viewport={"width": 375, "height": 740}, is_mobile=True)
    pg = context.new_page()
    pg.goto(f"{server}/hi/compare/all.html")
    box = pg.locator(".atlas-table__scroll").first
    assert box.evaluate("el => el.scrollWidth > el.clientWidth + 100")
    cell = pg.locator("table.atlas-table__table tbody th").first
    before = cell.bounding_box()["x"]
    box.evaluate("el => { el.scrollLeft = 400 }")
    pg.wait_for_function("document.querySelector('.atlas-table__scroll').scrollLeft > 300")
    assert abs(cell.bounding_box()["x"] - before) < 2     # sticky provider column
    assert pg.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")  # the page itself does not scroll
    context.close()
