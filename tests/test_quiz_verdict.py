"""The quiz verdict once (issue 26, item 2): the quiz script says "Correct." / "Not quite." /
"Partly right: …" itself, so no feedback or explanation may open with a verdict word of its
own ("Correct. Right, …", "सही। सही। …", "Chính xác. Đúng. …")."""
from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType

import pytest
import yaml

from atlas import quizzes
from atlas.data import load_atlas
from conftest import mkdocs_build

ROOT = Path(__file__).resolve().parent.parent
from conftest import LANGS  # noqa: E402  (the languages in mkdocs.yml)

# Verdict words as readers meet them, written out here rather than taken from the code under
# test: each language's own (data/i18n quiz.correct, quiz.incorrect, quiz.partly) and the ones
# the feedback texts used to open with. Longest first, so "Đúng một phần" is one verdict.
VERDICTS = {
    "en": ("Partly right", "Not quite", "Incorrect", "Correct", "Right", "Wrong"),
    "hi": ("यह उत्तर सही नहीं है", "आंशिक रूप से सही", "ग़लत", "गलत", "सही"),
    "vi": ("Đúng một phần", "Chính xác", "Chưa đúng", "Đúng", "Sai"),
}
PUNCT = r"[.,:;!?।]"


def verdict_words(lang: str) -> tuple[str, ...]:
    """A new language's quizzes are English until translated: English's verdicts meanwhile."""
    return VERDICTS.get(lang, VERDICTS["en"])


def opens_with_verdict(text: str, lang: str) -> str | None:
    words = "|".join(map(re.escape, verdict_words(lang)))
    m = re.match(rf"\s*[\"'“]?({words})\s*{PUNCT}", text)
    return m.group(1) if m else None


def verdicts_in(text: str, lang: str) -> list[str]:
    """Every verdict word that opens a sentence (or the text) in `text`."""
    words = "|".join(map(re.escape, verdict_words(lang)))
    return re.findall(rf"(?:^|(?<={PUNCT})\s+)({words})\s*{PUNCT}", text.strip())


def set_first_feedback(path: Path, option: str, text: str) -> None:
    """Give `option` of the first question in quiz text file `path` the feedback `text`."""
    old = path.read_text(encoding="utf-8")
    new, n = re.subn(rf"(\n    feedback:\n(?:      [a-z]: .*\n)*?      {option}: ).*", lambda m: m.group(1) + text, old, count=1)
    assert n == 1, path
    path.write_text(new, encoding="utf-8")


# --- the loader refuses a verdict, naming where it is -------------------------------------

def test_loader_refuses_feedback_that_opens_with_a_verdict(scratch):
    set_first_feedback(scratch / "data/quizzes/vi/storage.yaml", "c",
                       "Đúng. Volume mạng có vòng đời riêng, tách biệt với mọi instance.")
    atlas = load_atlas(scratch)
    with pytest.raises(quizzes.QuizError) as err:
        quizzes.authored(atlas, "vi", "storage")
    message = str(err.value)
    assert "data/quizzes/vi/storage.yaml" in message
    assert "question 'survives-termination', feedback 'c'" in message
    assert "'Đúng'" in message and "Đúng. Volume mạng" in message      # what was found
    assert "the quiz itself says 'Chính xác', 'Chưa đúng'" in message


@pytest.mark.parametrize("lang, written", [
    ("en", "Right, {}"), ("en", "Wrong. {}"), ("en", "correct: {}"), ("en", "Not quite. {}"),
    ("hi", "ग़लत। {}"), ("hi", "ग\u093cलत। {}"), ("hi", "गलत। {}"), ("hi", "सही, {}"),
    ("vi", "Sai. {}"), ("vi", "Đúng: {}"), ("vi", "Chưa đúng. {}"), ("vi", "Chi\u0301nh xa\u0301c. {}"),
])
def test_every_spelling_of_a_verdict_is_refused(lang, written):
    """Case, a nukta written apart, and decomposed Vietnamese accents do not slip through."""
    atlas = load_atlas(ROOT)
    qid = "storage"
    tree = atlas.quiz_words[lang][qid]
    first = next(iter(tree["questions"]))
    q = tree["questions"][first]
    feedback = {**q["feedback"], "a": written.format(q["feedback"]["a"])}
    swapped = {**tree, "questions": {**tree["questions"], first: {**q, "feedback": feedback}}}
    words = {**atlas.quiz_words, lang: MappingProxyType({**atlas.quiz_words[lang], qid: swapped})}
    with pytest.raises(quizzes.QuizError, match=rf"data/quizzes/{lang}/{qid}\.yaml: question '{first}', feedback 'a'"):
        quizzes.authored(replace(atlas, quiz_words=MappingProxyType(words)), lang, qid)


@pytest.mark.parametrize("text", ["Right-sizing a node pool saves money.", "No Kubernetes offering does this.",
                                  "Correctly sized pools cost less."])
def test_words_that_only_look_like_a_verdict_are_allowed(text):
    assert quizzes.opening_verdict(text, "en") is None


def test_generated_questions_refuse_a_verdict_in_their_words():
    atlas = load_atlas(ROOT)
    words = dict(atlas.words["hi"])
    words["quiz.generated.billing.right"] = "सही, " + words["quiz.generated.billing.right"]
    changed = replace(atlas, words=MappingProxyType({**atlas.words, "hi": MappingProxyType(words)}))
    with pytest.raises(quizzes.QuizError, match=r"data/i18n/hi\.yaml: key 'quiz\.generated\.billing\.right'"):
        quizzes.generated(changed, "hi", "billing", 1)


def test_build_stops_naming_page_file_question_and_option(scratch, tmp_path):
    set_first_feedback(scratch / "data/quizzes/hi/storage.yaml", "a", "ग़लत। कंटेनर डिस्क कंटेनर के साथ ही बनती और मिटती है।")
    result = mkdocs_build(scratch, tmp_path / "site", only="hi")
    out = result.stdout + result.stderr
    assert result.returncode != 0 and "Traceback" not in out, out
    assert re.search(r"docs/hi/guides/storage\.md:\d+: ", out), out
    assert "data/quizzes/hi/storage.yaml: question 'survives-termination', feedback 'a' opens with the verdict" in out, out


# --- the live data ---------------------------------------------------------------------------

def test_no_live_feedback_or_explanation_opens_with_a_verdict():
    found = []
    for lang in LANGS:
        files = sorted((ROOT / "data/quizzes" / lang).glob("*.yaml"))
        assert files, lang
        for path in files:
            for qid, q in yaml.safe_load(path.read_text(encoding="utf-8"))["questions"].items():
                texts = [(f"feedback '{o}'", t) for o, t in q["feedback"].items()] + [("explanation", q["explanation"])]
                found += [f"{path.relative_to(ROOT)}: {qid}, {where}: {text[:50]!r}"
                          for where, text in texts if opens_with_verdict(str(text), lang)]
        i18n = yaml.safe_load((ROOT / f"data/i18n/{lang}.yaml").read_text(encoding="utf-8"))
        for field, words in i18n["quiz"]["generated"].items():
            found += [f"data/i18n/{lang}.yaml: quiz.generated.{field}.{k}: {words[k]!r}"
                      for k in ("right", "wrong") if opens_with_verdict(words[k], lang)]
    assert not found, "\n".join(found)
    atlas = load_atlas(ROOT)   # and the build's own check accepts every quiz in every language
    for lang in atlas.languages:
        for qid in atlas.quizzes:
            quizzes.authored(atlas, lang, qid)


# --- what the reader gets ------------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_the_reader_gets_the_verdict_once(page, server, lang):
    page.goto(f"{server}/{'' if lang == 'en' else lang + '/'}guides/storage.html")
    quiz = page.locator("[data-atlas-quiz='quiz-storage']")
    said = {k: quiz.get_attribute(f"data-t-{k}") for k in ("correct", "incorrect", "partly")}
    single = quiz.locator("fieldset[data-multiple='false']").first
    multiple = quiz.locator("fieldset[data-multiple='true']").first
    cases = [
        (single, single.locator("input[data-correct='false']").first, "incorrect"),
        (single, single.locator("input[data-correct='true']").first, "correct"),
        (multiple, multiple.locator("input[data-correct='true']").first, "partly"),
    ]
    for q, choice, result in cases:
        choice.check()
        status = q.locator("[role=status]")
        page.wait_for_function("e => e.textContent.length > 0", arg=status.element_handle())
        text = status.inner_text()
        assert text.startswith(said[result]), text
        assert len(verdicts_in(text, lang)) == 1, f"{verdicts_in(text, lang)} in {text!r}"
        feedback = q.locator(f"[data-feedback-for='{choice.get_attribute('value')}']").inner_text()
        assert not opens_with_verdict(feedback, lang), feedback   # the option's own visible feedback too


@pytest.mark.parametrize("lang", LANGS)
def test_each_marked_option_says_right_or_wrong_in_words_and_a_generated_answer_is_said_once(page, server, lang):
    """The ✓/✗ beside a ticked option is drawn by CSS; screen readers hear the words. A generated
    question's explanation is its right answer's feedback, so the status says it once."""
    page.goto(f"{server}/{'' if lang == 'en' else lang + '/'}guides/storage.html")
    quiz = page.locator("[data-atlas-quiz='quiz-storage']")
    q = quiz.locator("fieldset[data-multiple='true']").first
    right, wrong = q.locator("input[data-correct='true']").first, q.locator("input[data-correct='false']").first
    right.check()
    wrong.check()
    word = lambda i: q.locator(f".atlas-quiz__option:has(input[value='{i.get_attribute('value')}']) [data-mark-word]")  # noqa: E731
    assert word(right).inner_text() == quiz.get_attribute("data-t-option-right") != ""
    assert word(wrong).inner_text() == quiz.get_attribute("data-t-option-wrong") != ""
    page.goto(f"{server}/{'' if lang == 'en' else lang + '/'}guides/billing-idle-cost.html")
    generated = page.locator("[data-atlas-quiz^='quiz-generated']").first
    generated.locator("input[data-correct='true']").first.check()
    status = generated.locator("[role=status]").first
    page.wait_for_function("e => e.textContent.length > 0", arg=status.element_handle())
    explanation = generated.locator("[data-explanation]").first.text_content()
    assert status.inner_text().count(explanation.strip()) == 1, status.inner_text()


def test_several_right_answers_are_listed_without_a_comma_after_a_full_stop():
    atlas = load_atlas(ROOT)
    html = quizzes.render_quiz(atlas, "hi", quiz_key="q", title="t", questions=quizzes.authored(atlas, "hi", "storage")[1])
    answers = re.findall(r"<p><strong>(.*?)</strong></p>", html)
    assert answers and not any(re.search(r"[.।],", a) for a in answers), answers
    assert any(";" in a for a in answers)   # storage has a question with several right answers
