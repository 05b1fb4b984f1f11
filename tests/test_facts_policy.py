"""The evidence policy as `make facts` checks it: a "does not have it" value (`no`, interconnect
`none`) needs a quote that states absence, and coverage percentages are not truncated.

The first tests build their own providers; the last one reads the real data."""
from __future__ import annotations

import datetime as dt
from pathlib import Path
from types import MappingProxyType

import pytest

from atlas import facts
from atlas.data import Fact, Provider, load_atlas

ROOT = Path(__file__).resolve().parent.parent
SRC = ("https://docs.example/gpu-sharing",)
DAY = dt.date(2026, 12, 1)
YES_NO = {"yes": 0, "partial": 1, "unknown": 2, "no": 3}
FIELDS = {"mig": YES_NO, "mps": YES_NO, "spot": YES_NO,
          "interconnect": {"infiniband": 0, "roce": 0, "efa": 0, "other": 1, "unknown": 2, "none": 3}}


def fact(value, quote=None, lang="en"):
    return Fact(value, SRC, DAY, quote, lang)


def provider(pid, **values):
    every = {f: Fact("unknown") for f in FIELDS}
    return Provider(pid, pid.title(), f"https://{pid}.example", "gpu-cloud", MappingProxyType({**every, **values}))


# --- the review list ----------------------------------------------------------------------

def test_review_flags_a_no_whose_quote_does_not_state_absence():
    silent = provider("silent", mig=fact("no", "GPUs are rented whole, one user at a time per machine."))
    said = provider("said", mig=fact("no", "MIG is not supported on any instance type."))
    review = facts.absence_review([silent, said], FIELDS)
    assert [(c.provider, c.field, c.value) for c in review] == [("silent", "mig", "no")]
    assert review[0].reason == "quote has no word of absence (en)"


def test_review_flags_a_no_without_a_quote_and_ignores_other_values():
    bare = provider("bare", mps=fact("no"), spot=fact("yes", "Spot capacity is sold at a discount."),
                    mig=fact("partial", "Only on H100 nodes."))
    review = facts.absence_review([bare], FIELDS)
    assert [(c.provider, c.field, c.reason) for c in review] == [("bare", "mps", "no quote")]


def test_review_covers_interconnect_none_as_a_claim_of_absence():
    fabricless = provider("fabricless", interconnect=fact("none", "Instances talk over the public internet."))
    stated = provider("stated", interconnect=fact("none", "Multi-node interconnects are unsupported."))
    review = facts.absence_review([fabricless, stated], FIELDS)
    assert [(c.provider, c.field, c.value) for c in review] == [("fabricless", "interconnect", "none")]


@pytest.mark.parametrize("quote, lang, states", [
    ("Runpod doesn\u2019t expose a Kubernetes API", "en", True),     # typographic apostrophe
    ("Docker-in-Docker is not permitted", "en", True),
    ("We currently provide local volumes only", "en", True),
    ("Pods cannot start their own Docker daemon", "en", True),
    ("No equivalent", "en", True),
    ("Open a notebook session in JupyterLab", "en", False),          # "not" inside "notebook"
    ("Each running instance has access to one or more GPUs", "en", False),
    ("Tính năng này không hỗ trợ MIG", "vi", True),
    ("Hỗ trợ MIG trên H100", "vi", False),
    ("इस इंस्टेंस पर MIG उपलब्ध नहीं है", "hi", True),
    ("इस इंस्टेंस पर MIG उपलब्ध है", "hi", False),
    ("Die Funktion ist nicht verfügbar", "de", True),
    ("MIG は利用できません", "ja", True),
    ("MIG を利用できます", "ja", False),
    ("O recurso não está disponível", "pt-BR", True),
])
def test_words_of_absence_are_read_in_the_quote_language(quote, lang, states):
    assert facts.states_absence(quote, lang) is states


def test_a_quote_in_another_language_is_read_with_its_own_words():
    quote = "Hệ thống không hỗ trợ MIG"          # Vietnamese "does not support"
    only_vi = provider("vn", mig=fact("no", quote, "vi"))
    tagged_en = provider("tagged", mig=fact("no", quote, "en"))
    review = facts.absence_review([only_vi, tagged_en], FIELDS)
    assert [(c.provider, c.reason) for c in review] == [("tagged", "quote has no word of absence (en)")]


# --- percentages ------------------------------------------------------------------------

@pytest.mark.parametrize("sourced, total, text", [
    (16, 18, "88.9%"),        # was 88%: truncated
    (12, 18, "66.7%"),        # was 66%
    (7, 54, "13.0%"),         # rounds up, not down
    (311, 540, "57.6%"),
    (1, 3, "33.3%"),
    (9, 18, "50.0%"),
    (17_999, 18_000, "99.9%"),   # never claims complete coverage it does not have
    (1, 100_000, "0.1%"),        # never hides a sourced fact
    (18, 18, "100.0%"),
    (0, 18, "0.0%"),
    (0, 0, "0.0%"),
])
def test_percent_text_rounds_to_one_decimal(sourced, total, text):
    assert facts.percent_text(facts.Tally(sourced, total)) == text


def test_report_prints_one_decimal_and_the_review_list():
    silent = provider("silent", mig=fact("no", "GPUs are rented whole."), spot=fact("yes", "Spot exists."))
    cov = facts.Coverage(                   # the report only needs a Coverage
        overall=facts.Tally(2, 8),
        by_provider=(("silent", facts.Tally(2, 4)), ("other", facts.Tally(1, 3))),
        by_field=(("mig", facts.Tally(1, 2)),),
        unknown=(), stale=(),
        absence_review=facts.absence_review([silent], FIELDS),
    )
    text = facts.report(cov)
    assert "Sourced facts: 2 of 8 (25.0%)" in text
    assert "silent" in text and " 50.0%" in text and " 33.3%" in text
    assert "  silent.mig = no: quote has no word of absence (en)" in text
    # sorted by the exact share, not by the truncated whole percent
    assert text.index("  silent ") < text.index("  other ")


# --- the real data ------------------------------------------------------------------------

def test_no_live_absence_claim_lacks_a_quote_that_states_it():
    atlas = load_atlas(ROOT)
    review = facts.absence_review(atlas.providers, atlas.fields)
    assert review == (), "\n".join(f"{c.provider}.{c.field} = {c.value}: {c.reason}" for c in review)
    claims = [(p.id, f) for p in atlas.providers for f, ranks in atlas.fields.items()
              if ranks.get(p.facts[f].value) == facts.ABSENT_RANK]
    assert claims, "the real data has sourced 'no' values; the check above must have looked at some"
