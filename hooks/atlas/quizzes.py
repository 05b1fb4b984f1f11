"""Self-check quizzes: authored banks and questions generated from provider facts."""
from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass

from .data import Atlas, Provider
from .cells import short_url
from .render import local_date, pieces, render


class QuizError(ValueError):
    """A quiz marker that cannot be rendered; the message says why and what is allowed."""


# The quiz script says the verdict itself (`quiz.correct`, `quiz.incorrect`, `quiz.partly`)
# before the chosen option's feedback and the explanation, so a feedback or explanation that
# opens with a verdict word is heard twice ("Correct. Right, …"). These words, and each
# language's own verdict words, may not open one. Compared without case or nukta, in NFC.
VERDICT_WORDS = {
    "en": ("correct", "incorrect", "right", "wrong", "not quite", "not correct", "partly right",
           "partly correct", "partially correct", "exactly", "true", "false", "yes", "no"),
    "hi": ("सही", "गलत", "सही नहीं", "आंशिक रूप से सही", "बिल्कुल सही", "बिलकुल सही", "ठीक", "हाँ", "हां",
           "नहीं", "यह उत्तर सही नहीं है"),
    "vi": ("đúng", "sai", "chính xác", "chưa đúng", "không đúng", "chưa chính xác", "không chính xác",
           "đúng một phần", "đúng rồi", "sai rồi", "có", "không"),
}
# What may follow the word for it to be a verdict: sentence or clause punctuation, a spaced
# dash, or nothing ("Right-sizing" and "Sai số" are not verdicts).
_AFTER_VERDICT = re.compile(r"\s*(?:[.,:;!?\u2026\u0964\u0965\u2014\u2013]|$)|\s+-")
_OPENING = " \t\"'\u201c\u2018\u00ab(*_"


@dataclass(frozen=True)
class Option:
    id: str
    text: str
    feedback: str
    correct: bool
    source: str = ""          # generated questions cite where the fact comes from
    source_label: str = ""    # the source as the tables show it: host and a shortened path
    verified: str = ""
    verified_iso: str = ""


@dataclass(frozen=True)
class RenderedQuestion:
    id: str
    text: str
    options: tuple[Option, ...]
    explanation: str
    multiple: bool
    source: str = ""
    source_label: str = ""
    verified: str = ""
    verified_iso: str = ""


def authored(atlas: Atlas, lang: str, quiz_id: str) -> tuple[str, list[RenderedQuestion]]:
    """The title and questions of an authored quiz, with text in `lang`."""
    if quiz_id not in atlas.quizzes:
        raise QuizError(f"unknown quiz '{quiz_id}', allowed: {', '.join(sorted(atlas.quizzes)) or 'none defined'}")
    words = atlas.quiz_words[lang][quiz_id]
    out, found = [], []
    for q in atlas.quizzes[quiz_id]:
        t = words["questions"][q.id]
        where = f"data/quizzes/{lang}/{quiz_id}.yaml: question '{q.id}'"
        found += _verdict_found(atlas, lang, [(f"{where}, feedback '{o}'", str(t["feedback"][o])) for o in q.options]
                                + [(f"{where}, explanation", str(t["explanation"]))])
        out.append(RenderedQuestion(
            id=q.id, text=t["question"], explanation=t["explanation"], multiple=q.multiple,
            options=tuple(Option(o, str(t["options"][o]), str(t["feedback"][o]), o in q.correct) for o in q.options),
        ))
    _refuse_verdicts(atlas, lang, found)
    return words["title"], out


def generated(atlas: Atlas, lang: str, field: str, count: int) -> list[RenderedQuestion]:
    """`count` single-answer questions about `field`, built only from sourced facts.

    The right option has a value in the field's `right` set, not `partial` and without a note
    (a fact that holds without qualification), the distractors a value in its `wrong` set;
    `unknown` is never used. The choice is a stable hash, so the same data
    always gives the same questions.
    """
    rule = atlas.quiz_rules.get(field)
    if rule is None:
        raise QuizError(f"no generated questions for feature '{field}', allowed: {', '.join(atlas.quiz_rules)}")
    # A right answer must hold without qualification: a `partial` value, or one whose note names a
    # limit (Scaleway's InfiniBand only for clusters arranged with sales), would teach a half-truth.
    right = _stable([p for p in atlas.providers if p.facts[field].value in rule["right"]
                     and p.facts[field].value != "partial" and atlas.note("en", p.id, field) is None], field)
    wrong = _stable([p for p in atlas.providers if p.facts[field].value in rule["wrong"]], field)
    if not right or not wrong:
        raise QuizError(f"feature '{field}' has {len(right)} providers for a right answer and {len(wrong)} "
                        "for a wrong one in data/providers.yaml; at least one of each is needed")
    if not 1 <= count <= len(right):
        raise QuizError(f"count={count} for feature '{field}', allowed: 1 to {len(right)}")
    base = f"quiz.generated.{field}"
    _refuse_verdicts(atlas, lang, _verdict_found(atlas, lang, [
        (f"data/i18n/{lang}.yaml: key '{base}.{part}'", atlas.words[lang][f"{base}.{part}"]) for part in ("right", "wrong")]))
    out = []
    for n in range(count):
        answer = right[n]
        picks = [wrong[(n + k) % len(wrong)] for k in range(min(3, len(wrong)))]
        chosen = sorted([answer, *picks], key=lambda p: _digest(f"{field}:{n}:{p.id}"))
        options = []
        for p in chosen:
            good = p is answer
            options.append(Option(
                id=p.id, text=p.name, correct=good,
                feedback=atlas.t(lang, f"{base}.{'right' if good else 'wrong'}", provider=p.name),
                **_cite(p, field, lang),
            ))
        out.append(RenderedQuestion(
            id=f"{field}-{n + 1}", text=atlas.t(lang, f"{base}.question"), options=tuple(options),
            explanation=atlas.t(lang, f"{base}.right", provider=answer.name), multiple=False,
            **_cite(answer, field, lang),
        ))
    return out


def render_quiz(atlas: Atlas, lang: str, *, quiz_key: str, title: str,
                questions: list[RenderedQuestion]) -> str:
    """HTML for one quiz: native controls in fieldsets; answers in <details> without JS."""
    t = lambda key, **kw: atlas.t(lang, f"quiz.{key}", **kw)  # noqa: E731
    return render("quiz.html", key=quiz_key, lang=lang, title=title, questions=questions, t=t,
                  label=t("region_label", title=title), source_line=pieces(atlas.t(lang, "quiz.source_line")),
                  # "; " between answers, each without its closing full stop or danda: options that are
                  # sentences read "X।, Y।" when joined with commas (native reviews, hi 7 and vi 13)
                  answers=lambda q: "; ".join(o.text.rstrip().rstrip(".।") for o in q.options if o.correct))


def opening_verdict(text: str, lang: str, also: tuple[str, ...] = ()) -> str | None:
    """The verdict word `text` opens with in `lang` (one of VERDICT_WORDS or `also`), as
    written in `text`, or None."""
    def norm(s: str) -> str:
        return unicodedata.normalize("NFC", s).replace("\u093c", "").casefold()
    body = text.lstrip(_OPENING)
    folded = norm(body)
    for word in sorted({norm(w) for w in (*VERDICT_WORDS.get(lang, ()), *also) if w.strip()}, key=len, reverse=True):
        if folded.startswith(word) and _AFTER_VERDICT.match(folded, len(word)):
            return _prefix(body, word, norm)
    return None


def _verdict_found(atlas: Atlas, lang: str, texts: list[tuple[str, str]]) -> list[str]:
    """One line for each (where, text) of `texts` whose text opens with a verdict word."""
    out = []
    for where, text in texts:
        word = opening_verdict(text, lang, _own_verdicts(atlas, lang))
        if word:
            shown = text if len(text) <= 60 else text[:60] + "…"
            out.append(f"{where} opens with the verdict word '{word}': found {shown!r}")
    return out


def _own_verdicts(atlas: Atlas, lang: str) -> tuple[str, ...]:
    """The verdicts the quiz says in `lang`, up to their first punctuation: "Partly right"."""
    return tuple(re.split(r"[.,:;!?\u0964]", atlas.words[lang].get(f"quiz.{k}", ""))[0].strip()
                 for k in ("correct", "incorrect", "partly"))


def _refuse_verdicts(atlas: Atlas, lang: str, found: list[str]) -> None:
    """Stop with every text in `found`, saying which verdicts the quiz gives itself."""
    if found:
        said = ", ".join(repr(w) for w in _own_verdicts(atlas, lang))
        n = len(found)
        raise QuizError(f"{n} quiz text{'s' * (n != 1)} open{'s' * (n == 1)} with a verdict, which the reader would "
                        f"get twice: the quiz itself says {said} (quiz.correct, quiz.incorrect, quiz.partly in "
                        f"data/i18n/{lang}.yaml) before the feedback. Allowed: start with the reason itself.\n  "
                        + "\n  ".join(found))


def _prefix(text: str, word: str, norm) -> str:
    """The start of `text` that normalises to `word`."""
    for end in range(1, len(text) + 1):
        if norm(text[:end]) == word:
            return text[:end]
    return word


def _cite(p: Provider, field: str, lang: str) -> dict[str, str]:
    fact = p.facts[field]
    day = fact.verified
    url = fact.sources[0] if fact.sources else ""
    # The link's words and what the verdict announces: host and a shortened path, as the tables
    # show a source; a printed URL of 130 characters widened the page on a phone, and screen
    # readers spelled it out in the verdict.
    return {"source": url, "source_label": short_url(url, 40) if url else "",
            "verified": local_date(day, lang) if day else "",
            "verified_iso": day.isoformat() if day else ""}


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _stable(providers: list[Provider], salt: str) -> list[Provider]:
    return sorted(providers, key=lambda p: _digest(f"{salt}:{p.id}"))
