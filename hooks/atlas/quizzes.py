"""Self-check quizzes: authored banks and questions generated from provider facts."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass

from .data import Atlas, Provider
from .render import local_date, pieces, render


class QuizError(ValueError):
    """A quiz marker that cannot be rendered; the message says why and what is allowed."""


@dataclass(frozen=True)
class Option:
    id: str
    text: str
    feedback: str
    correct: bool
    source: str = ""          # generated questions cite where the fact comes from
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
    verified: str = ""
    verified_iso: str = ""


def authored(atlas: Atlas, lang: str, quiz_id: str) -> tuple[str, list[RenderedQuestion]]:
    """The title and questions of an authored quiz, with text in `lang`."""
    if quiz_id not in atlas.quizzes:
        raise QuizError(f"unknown quiz '{quiz_id}', allowed: {', '.join(sorted(atlas.quizzes)) or 'none defined'}")
    words = atlas.quiz_words[lang][quiz_id]
    out = []
    for q in atlas.quizzes[quiz_id]:
        t = words["questions"][q.id]
        out.append(RenderedQuestion(
            id=q.id, text=t["question"], explanation=t["explanation"], multiple=q.multiple,
            options=tuple(Option(o, str(t["options"][o]), str(t["feedback"][o]), o in q.correct) for o in q.options),
        ))
    return words["title"], out


def generated(atlas: Atlas, lang: str, field: str, count: int) -> list[RenderedQuestion]:
    """`count` single-answer questions about `field`, built only from sourced facts.

    The right option has a value in the field's `right` set, the distractors a value in its
    `wrong` set; `unknown` is never used. The choice is a stable hash, so the same data
    always gives the same questions.
    """
    rule = atlas.quiz_rules.get(field)
    if rule is None:
        raise QuizError(f"no generated questions for feature '{field}', allowed: {', '.join(atlas.quiz_rules)}")
    right = _stable([p for p in atlas.providers if p.facts[field].value in rule["right"]], field)
    wrong = _stable([p for p in atlas.providers if p.facts[field].value in rule["wrong"]], field)
    if not right or not wrong:
        raise QuizError(f"feature '{field}' has {len(right)} providers for a right answer and {len(wrong)} "
                        "for a wrong one in data/providers.yaml; at least one of each is needed")
    if not 1 <= count <= len(right):
        raise QuizError(f"count={count} for feature '{field}', allowed: 1 to {len(right)}")
    base = f"quiz.generated.{field}"
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
                  answers=lambda q: ", ".join(o.text for o in q.options if o.correct))


def _cite(p: Provider, field: str, lang: str) -> dict[str, str]:
    fact = p.facts[field]
    day = fact.verified
    return {"source": fact.sources[0] if fact.sources else "",
            "verified": local_date(day, lang) if day else "",
            "verified_iso": day.isoformat() if day else ""}


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _stable(providers: list[Provider], salt: str) -> list[Provider]:
    return sorted(providers, key=lambda p: _digest(f"{salt}:{p.id}"))
