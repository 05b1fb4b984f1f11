"""Generated questions teach only what holds without qualification (issue 35, item 7): a right
answer is never a `partial` value nor one whose note names a limit."""
from __future__ import annotations

import pytest
from conftest import LANGS, ROOT

from atlas import quizzes
from atlas.data import load_atlas

ATLAS = load_atlas(ROOT)
# The fields a question can be made of: a right and a wrong answer in the data (spot has no "no").
ASKABLE = sorted(f for f, rule in ATLAS.quiz_rules.items()
                 if any(p.facts[f].value in rule["wrong"] for p in ATLAS.providers))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("field", ASKABLE)
def test_every_right_answer_holds_without_qualification(lang, field):
    right = [p for p in ATLAS.providers if p.facts[field].value in ATLAS.quiz_rules[field]["right"]
             and p.facts[field].value != "partial" and ATLAS.note("en", p.id, field) is None]
    for question in quizzes.generated(ATLAS, lang, field, len(right)):
        answer = next(o for o in question.options if o.correct)
        fact = next(p for p in ATLAS.providers if p.id == answer.id).facts[field]
        assert fact.value != "partial" and ATLAS.note("en", answer.id, field) is None, (field, answer.id)


def test_the_fields_the_guides_ask_about_are_askable():
    assert {"billing", "docker_daemon", "interconnect", "kubernetes"} <= set(ASKABLE)


def test_a_noted_value_was_a_right_answer_before_and_is_not_now():
    # Scaleway's InfiniBand holds only for clusters arranged with sales (its note): never "right".
    scaleway = next(p for p in ATLAS.providers if p.id == "scaleway")
    assert scaleway.facts["interconnect"].value == "infiniband" and ATLAS.note("en", "scaleway", "interconnect")
    pool = len([p for p in ATLAS.providers if p.facts["interconnect"].value == "infiniband"
                and ATLAS.note("en", p.id, "interconnect") is None])
    answers = {next(o.id for o in q.options if o.correct) for q in quizzes.generated(ATLAS, "en", "interconnect", pool)}
    assert "scaleway" not in answers and len(answers) == pool
