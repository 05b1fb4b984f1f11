"""List-valued fields (regions, gpus, local_billing): validation with file:line, and the quote key."""
from __future__ import annotations

import datetime as dt

import pytest

from atlas.data import load_atlas
from test_data import GOOD_PROVIDER, TODAY, drop_notes, facts_block, problems_for_text, write

SOURCE = "        sources: [https://alpha.example/docs/regions]\n        verified: 2026-11-02"


def fact(field: str, value_lines: str, extra: str = SOURCE) -> str:
    return f"      {field}:\n{value_lines}\n{extra}"


def text_with(**facts: str) -> str:
    return GOOD_PROVIDER.format(facts=facts_block(facts))


def line_of(text: str, needle: str) -> int:
    return text.splitlines().index(next(l for l in text.splitlines() if needle in l)) + 1


def test_valid_list_facts_load_as_tuples_with_quote(scratch):
    text = text_with(
        regions=fact("regions", "        value: [IN, VN, US, \"NO\"]",
                     SOURCE + '\n        quote: "GPU regions: Mumbai, Hanoi, Oslo & Virginia"'),
        gpus=fact("gpus", "        value:\n          - H100\n          - RTX-4090"),
        local_billing=fact("local_billing", "        value: []"),
    )
    write(scratch, "data/providers.yaml", text)
    drop_notes(scratch)
    atlas = load_atlas(scratch, today=TODAY)
    facts = atlas.providers[0].facts
    assert facts["regions"].value == ("IN", "VN", "US", "NO")
    assert facts["regions"].quote == "GPU regions: Mumbai, Hanoi, Oslo & Virginia"
    assert facts["gpus"].value == ("H100", "RTX-4090") and facts["gpus"].verified == dt.date(2026, 11, 2)
    assert facts["local_billing"].value == () and facts["local_billing"].known   # [] is a sourced claim


def test_item_outside_the_closed_set_names_its_own_line(scratch):
    text = text_with(gpus=fact("gpus", "        value:\n          - H100\n          - H900\n          - rtx 4090"))
    problems = problems_for_text(scratch, text)
    h900 = f"data/providers.yaml:{line_of(text, '- H900')}: provider 'alpha', field 'gpus': item 2: found 'H900', allowed: GB200, B200"
    assert any(p.startswith(h900) for p in problems), problems
    assert any(p.startswith(f"data/providers.yaml:{line_of(text, '- rtx 4090')}:") and "(did you mean 'RTX-4090'?)" in p
               for p in problems), problems


@pytest.mark.parametrize("items, needle", [
    ("[IN, XX]", "item 2: found 'XX', allowed: ISO 3166-1 alpha-2 country codes in capitals, such as IN, VN, US"),
    ("[in]", "item 1: found 'in' (write 'IN' in capitals), allowed: ISO 3166-1"),
    ("[EU]", "item 1: found 'EU', allowed: ISO 3166-1"),
    ("[IND]", "item 1: found 'IND', allowed: ISO 3166-1"),
    ("[US, NO]", "item 2: found NO unquoted, which YAML reads as false; write \"NO\" for Norway"),
    ("[IN, 42]", "item 2: found int 42, allowed: ISO 3166-1"),
])
def test_country_codes_are_checked_against_cldr(scratch, items, needle):
    text = text_with(regions=fact("regions", f"        value: {items}"))
    problems = problems_for_text(scratch, text)
    at = f"data/providers.yaml:{line_of(text, 'value: ' + items)}: provider 'alpha', field 'regions': "
    assert any(p.startswith(at) and needle in p for p in problems), problems


def test_duplicate_item(scratch):
    text = text_with(regions=fact("regions", "        value:\n          - IN\n          - VN\n          - IN"))
    problems = problems_for_text(scratch, text)
    line = len(text.split("          - IN\n")[0].splitlines()) + 3   # the second IN
    assert (f"data/providers.yaml:{line}: provider 'alpha', field 'regions': item 3: found 'IN' again "
            "(first as item 1), allowed: each item once") in problems, problems


def test_scalar_where_a_list_is_expected(scratch):
    text = text_with(regions=fact("regions", "        value: IN"))
    problems = problems_for_text(scratch, text)
    assert (f"data/providers.yaml:{line_of(text, 'value: IN')}: provider 'alpha', field 'regions': found a single "
            "value 'IN', allowed: a YAML list such as [IN, VN], items from ISO 3166-1 alpha-2 country codes in "
            "capitals, such as IN, VN, US") in problems, problems


def test_empty_list_only_for_local_billing(scratch):
    text = text_with(gpus=fact("gpus", "        value: []"), local_billing=fact("local_billing", "        value: []"))
    problems = problems_for_text(scratch, text)
    assert any(f"data/providers.yaml:{line_of(text, 'value: []')}: provider 'alpha', field 'gpus': found an empty list"
               in p for p in problems), problems
    assert not any("local_billing" in p for p in problems), problems


def test_list_on_a_single_valued_field(scratch):
    text = text_with(mps=fact("mps", '        value: ["yes", partial]'))
    problems = problems_for_text(scratch, text)
    line = line_of(text, 'value: ["yes", partial]')
    assert any(p.startswith(f"data/providers.yaml:{line}: provider 'alpha', field 'mps': "
                            "found a list ['yes', 'partial'], allowed: one value of yes, partial, unknown, no")
               for p in problems), problems


def test_list_facts_need_sources_and_a_date_like_any_fact(scratch):
    text = text_with(gpus=fact("gpus", "        value: [H100]", "        verified: 2027-03-01"),
                     regions="      regions: [IN, VN]")
    problems = problems_for_text(scratch, text)
    assert any("field 'gpus': value ['H100'] has no sources" in p for p in problems), problems
    assert any("field 'gpus': verified found 2027-03-01, allowed: a date no later than today" in p for p in problems), problems
    assert any(p.startswith(f"data/providers.yaml:{line_of(text, 'regions: [IN, VN]')}: provider 'alpha', field 'regions': "
                            "found list") and "allowed: 'unknown' or a mapping with value, sources and verified" in p
               for p in problems), problems


@pytest.mark.parametrize("quote, needle", [
    ('"<a href=x>click</a>"', "quote found '<a href=x>click</a>', allowed: plain text copied from the source, no markup"),
    ("'run <script src=x></script>'", "quote found 'run <script src=x></script>', allowed: plain text"),
    ('"Fish &amp; chips"', "quote found 'Fish &amp; chips', allowed: plain text"),
    ('""', "quote found empty text, allowed: plain text"),
    ("[a, b]", "quote found list ['a', 'b'], allowed: plain text"),
])
def test_quote_is_plain_text(scratch, quote, needle):
    text = text_with(spot=fact("spot", '        value: "yes"', SOURCE + f"\n        quote: {quote}"))
    problems = problems_for_text(scratch, text)
    assert any(p.startswith(f"data/providers.yaml:{line_of(text, 'quote:')}: provider 'alpha', field 'spot': ") and needle in p
               for p in problems), problems


def test_every_list_problem_is_reported_at_once(scratch):
    text = text_with(
        regions=fact("regions", "        value: [IN, IN, XX]"),
        gpus=fact("gpus", "        value: H100"),
        local_billing=fact("local_billing", "        value: [USD]"),
        mig=fact("mig", "        value: [\"yes\"]"),
    )
    problems = problems_for_text(scratch, text)
    fields = {p.split("field '")[1].split("'")[0] for p in problems if "field '" in p}
    assert fields == {"regions", "gpus", "local_billing", "mig"}, problems
    assert sum("field 'regions'" in p for p in problems) == 2, problems   # the duplicate and XX
    assert all(p.startswith("data/providers.yaml:") and "allowed" in p for p in problems), problems
    assert any("field 'local_billing': item 1: found 'USD', allowed: INR, VND" in p for p in problems), problems


def test_quote_may_hold_a_command_placeholder_and_kubernetes_may_be_partial(scratch):
    text = text_with(
        ssh=fact("ssh", '        value: "yes"', SOURCE + "\n        quote: 'jl resume <machine_id> --gpu H100 | docker login <registry-url>'"),
        kubernetes=fact("kubernetes", "        value: partial"),
        gpus=fact("gpus", "        value: [RTX-6000, RTX-6000-ADA]"),
    )
    write(scratch, "data/providers.yaml", text)
    drop_notes(scratch)
    en = scratch / "data/i18n/en.yaml"   # a partial names its limit: a note, in English only for now
    en.write_text(en.read_text(encoding="utf-8") + "\nnotes:\n  alpha:\n    kubernetes: Only on virtual machines.\n",
                  encoding="utf-8")
    facts = load_atlas(scratch, today=TODAY).providers[0].facts
    assert facts["ssh"].quote.startswith("jl resume <machine_id>")
    assert facts["kubernetes"].value == "partial" and facts["gpus"].value == ("RTX-6000", "RTX-6000-ADA")
