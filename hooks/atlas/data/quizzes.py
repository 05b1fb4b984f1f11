"""data/quizzes/: each authored quiz (<quiz>.yaml) and its text in every language
(<language>/<quiz>.yaml)."""
from __future__ import annotations

from pathlib import Path
from types import MappingProxyType
from typing import Any

from .. import yamlsrc
from ..problems import Problem
from .checks import MARKUP, SLUG, describe, flatten, is_text, unknown_keys
from .records import Question


def read_quizzes(folder: Path, languages, problems, root: Path | None = None):
    quizzes: dict[str, tuple[Question, ...]] = {}
    texts: dict[str, dict[str, Any]] = {lang: {} for lang in languages}
    if not folder.is_dir():
        problems.append(Problem("data/quizzes", 1, "", "folder is missing (or is not a folder); it holds "
                                "<quiz>.yaml and <language>/<quiz>.yaml for every <!-- quiz:… --> marker"))
    for path in sorted(folder.glob("*.yaml")) if folder.is_dir() else []:
        qid = path.stem
        shown = f"data/quizzes/{path.name}"
        doc = yamlsrc.load(path, shown, problems, root)
        if doc is None:
            continue
        questions = quiz_structure(doc, qid, problems)
        quizzes[qid] = questions
        items = doc.data.get("questions") if isinstance(doc.data, dict) else None
        defined = {q.get("id") for q in items if isinstance(q, dict)} if isinstance(items, list) else set()
        for lang in languages:
            tdoc = yamlsrc.load(folder / lang / path.name, f"data/quizzes/{lang}/{path.name}", problems, root)
            if tdoc is not None:
                texts[lang][qid] = quiz_text(tdoc, qid, questions, problems, defined)
    for lang in languages:
        for path in sorted((folder / lang).glob("*.yaml")) if (folder / lang).is_dir() else []:
            if path.stem not in quizzes and not (folder / path.name).exists():
                problems.append(Problem(f"data/quizzes/{lang}/{path.name}", 1, f"quiz '{path.stem}'",
                                        f"text for a quiz that has no data/quizzes/{path.name}"))
    return quizzes, {k: MappingProxyType(v) for k, v in texts.items()}


def quiz_structure(doc, qid, problems) -> tuple[Question, ...]:
    f = doc.path
    items = doc.data.get("questions") if isinstance(doc.data, dict) else None
    if not isinstance(items, list) or not items:
        problems.append(Problem(f, 1, f"quiz '{qid}'", "expected a non-empty 'questions:' list"))
        return ()
    unknown_keys(doc, doc.data, "quiz file", (), f"quiz '{qid}'", problems)
    out, seen = [], set()
    for i, q in enumerate(items):
        line = doc.line("questions", i)
        if not isinstance(q, dict):
            problems.append(Problem(f, line, f"quiz '{qid}', question #{i + 1}", "expected a mapping"))
            continue
        name = q.get("id")
        where = f"quiz '{qid}', question '{name}'"
        if not isinstance(name, str) or not SLUG.match(name):
            problems.append(Problem(f, line, where, f"id found {name!r}, allowed: a lowercase slug"))
            continue
        if name in seen:
            problems.append(Problem(f, line, where, "duplicate question id"))
            continue
        seen.add(name)
        unknown_keys(doc, q, "question", ("questions", i), where, problems)
        if "multiple" in q and not isinstance(q["multiple"], bool):
            problems.append(Problem(f, doc.line("questions", i, "multiple"), where,
                                    f"multiple found {describe(q['multiple'])}, allowed: true or false"))
        options = q.get("options")
        correct = q.get("correct")
        not_text = next(((part, *found) for part in ("options", "correct") if (found := _not_text(q.get(part)))), None)
        if not_text:
            part, k, value = not_text
            problems.append(Problem(f, doc.line("questions", i, part, k), where,
                                    f"{part} item {k + 1}: found {describe(value)}, but option ids are text; allowed: "
                                    f"ids such as a, b, c ({QUOTE_IT})"))
            continue
        if not isinstance(options, list) or len(options) < 2 or len(set(map(str, options))) != len(options):
            problems.append(Problem(f, doc.line("questions", i, "options"), where,
                                    f"options found {options!r}, allowed: a list of two or more distinct ids"))
            continue
        options = [str(o) for o in options]
        if not isinstance(correct, list) or not correct:
            problems.append(Problem(f, doc.line("questions", i, "correct") if "correct" in q else line, where,
                                    "has no correct answer; allowed: a list of one or more option ids"))
            continue
        bad = [c for c in correct if str(c) not in options]
        if bad:
            problems.append(Problem(f, doc.line("questions", i, "correct"), where,
                                    f"correct found {bad}, allowed: {', '.join(options)}"))
            continue
        if q.get("multiple") is False and len(correct) > 1:
            problems.append(Problem(f, doc.line("questions", i, "correct"), where,
                                    "single-answer question has several correct answers"))
            continue
        out.append(Question(name, tuple(options), tuple(str(c) for c in correct)))
    return tuple(out)


def quiz_text(doc, qid, questions, problems, defined: set | frozenset = frozenset()) -> dict:
    """The text of one quiz in one language (`defined`: every question id the quiz file has,
    those refused there included: their text is not extra)."""
    f = doc.path
    d = doc.data if isinstance(doc.data, dict) else {}
    unknown_keys(doc, d, "quiz text", (), f"quiz '{qid}'", problems)
    if not isinstance(d.get("title"), str) or not d["title"].strip():
        problems.append(Problem(f, 1, f"quiz '{qid}', key 'title'", "missing quiz title"))
    qs = d.get("questions") if isinstance(d.get("questions"), dict) else {}
    known = {q.id for q in questions}
    for name in qs:
        if name not in known and name not in defined:
            problems.append(Problem(f, doc.line("questions", name), f"quiz '{qid}', question '{name}'",
                                    f"extra question that data/quizzes/{qid}.yaml does not define"))
    for q in questions:
        where = f"quiz '{qid}', question '{q.id}'"
        t = qs.get(q.id)
        if not isinstance(t, dict):
            problems.append(Problem(f, doc.line("questions"), where, "missing question text"))
            continue
        unknown_keys(doc, t, "question text", ("questions", q.id), where, problems)
        for key in ("question", "explanation"):
            if not is_text(t.get(key)):
                problems.append(Problem(f, doc.line("questions", q.id, key), f"{where}, key '{key}'", "missing text"))
        for part in ("options", "feedback"):
            m = t.get(part) if isinstance(t.get(part), dict) else {}
            for opt in q.options:
                if not is_text(m.get(opt)):
                    problems.append(Problem(f, doc.line("questions", q.id, part), f"{where}, {part[:-1] if part == 'options' else part} '{opt}'",
                                            "missing text"))
            for opt in m:
                if not isinstance(opt, str):
                    problems.append(Problem(f, doc.line("questions", q.id, part, opt), f"{where}, {part} {opt!r}",
                                            f"found {describe(opt)} as an option id, but option ids are text; allowed: "
                                            f"{', '.join(q.options)} ({QUOTE_IT})"))
                elif opt not in q.options:
                    problems.append(Problem(f, doc.line("questions", q.id, part, opt), f"{where}, {part} '{opt}'",
                                            f"extra option, allowed: {', '.join(q.options)}"))
        for key, text in flatten(t).items():
            if isinstance(text, str) and MARKUP.search(text):
                problems.append(Problem(f, doc.line("questions", q.id, *key.split(".")), f"{where}, key '{key}'",
                                        f"found markup in {text!r}; allowed: plain text"))
    return d


QUOTE_IT = "YAML reads 1, 2.5, yes and no as numbers and true/false: quote such an id, as '1' or 'yes'"


def _not_text(items: object) -> tuple[int, object] | None:
    """(index, item) of the first item of a list of option ids that YAML did not read as text
    (1, 2.5, yes/no), or None."""
    if isinstance(items, list):
        for k, item in enumerate(items):
            if not isinstance(item, str):
                return k, item
    return None
