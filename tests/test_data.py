"""The loader and validator: one fixture per kind of bad data, asserting message and line."""
from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest

from atlas.data import load_atlas
from atlas.problems import DataError
from conftest import LANGS, ROOT

TODAY = dt.date(2026, 11, 30)

GOOD_PROVIDER = """\
providers:
  - id: alpha
    name: Alpha Cloud
    homepage: https://alpha.example
    category: gpu-cloud
    facts:
{facts}
"""


def facts_block(overrides: dict[str, str] | None = None) -> str:
    fields = ["kubernetes", "time_slicing", "mig", "mps", "custom_images", "registry_auth", "docker_daemon",
              "persistent_volumes", "shared_volumes", "interconnect", "managed_slurm", "spot", "billing", "ssh", "jupyter",
              "regions", "gpus", "local_billing", "payment_methods", "tax_invoice", "stopped_billing"]
    overrides = overrides or {}
    return "\n".join(overrides.get(f, f"      {f}: unknown") for f in fields if overrides.get(f, "x") is not None)


def write(scratch: Path, rel: str, text: str) -> None:
    (scratch / rel).write_text(text, encoding="utf-8")


def problems_for(scratch: Path) -> list[str]:
    with pytest.raises(DataError) as info:
        load_atlas(scratch, today=TODAY)
    return [str(p) for p in info.value.problems]


def test_repository_data_is_valid_and_has_twenty_real_providers():
    from atlas.sanitize import is_http_url
    atlas = load_atlas(ROOT)
    assert len(atlas.providers) >= 20
    for p in atlas.providers:
        for name, fact in p.facts.items():
            if fact.value != "unknown":
                assert fact.sources and fact.verified, (p.id, name)
                assert all(is_http_url(s) for s in fact.sources), (p.id, name)   # what the loader allows
            if fact.value == "partial":   # a partial value names its limit, in English at least
                assert atlas.note("en", p.id, name), (p.id, name)


def drop_notes(scratch: Path) -> None:
    for lang in LANGS:
        path = scratch / f"data/i18n/{lang}.yaml"
        write(scratch, f"data/i18n/{lang}.yaml", re.sub(r"(?m)^(?:notes|quotes):.*\n(?:  .*\n|\n)*", "", path.read_text(encoding="utf-8")))


def test_valid_minimal_file_loads(scratch):
    write(scratch, "data/providers.yaml", GOOD_PROVIDER.format(facts=facts_block()))
    drop_notes(scratch)
    atlas = load_atlas(scratch, today=TODAY)
    assert [p.id for p in atlas.providers] == ["alpha"]


@pytest.mark.parametrize("text, line, needle", [
    ("providers:\n  - id: alpha\n\tname: x\n", 3, "malformed YAML"),
    ("providers:\n  - id: alpha\n    name: [unclosed\n", 4, "malformed YAML"),
])
def test_malformed_yaml_names_file_and_line(scratch, text, line, needle):
    problems = problems_for_text(scratch, text)
    assert any(p.startswith(f"data/providers.yaml:{line}:") and needle in p for p in problems), problems


def problems_for_text(scratch, text):
    write(scratch, "data/providers.yaml", text)
    drop_notes(scratch)
    return problems_for(scratch)


def test_tab_indentation_is_explained(scratch):
    problems = problems_for_text(scratch, "providers:\n\t- id: alpha\n")
    assert any("tab" in p for p in problems), problems


def test_truncated_file_is_reported(scratch):
    fact = "      spot:\n        value: \"yes\"\n        sources: [https://a.example/b]\n        verified: 2026-11-30"
    full = GOOD_PROVIDER.format(facts=facts_block({"spot": fact}))
    cut = full[: full.index("verified: 2026-11-30") + 12]   # stops inside a date
    problems = problems_for_text(scratch, cut + '\n      "unterminated')
    assert any(p.startswith("data/providers.yaml:") and "malformed YAML" in p for p in problems), problems


def test_empty_file(scratch):
    assert problems_for_text(scratch, "  \n") == ["data/providers.yaml:1: file is empty; expected a YAML mapping"]


def test_unknown_and_missing_fields(scratch):
    facts = facts_block({"mig": None, "warp_drive": "      warp_drive: unknown"}) + "\n      warp_drive: unknown"
    text = GOOD_PROVIDER.format(facts=facts).replace("    category: gpu-cloud\n", "    category: gpu-cloud\n    colour: blue\n")
    problems = problems_for_text(scratch, text)
    assert any("provider 'alpha', field 'colour': unknown field" in p and p.startswith("data/providers.yaml:6:") for p in problems), problems
    assert any("provider 'alpha', field 'warp_drive': unknown field" in p for p in problems), problems
    assert any("provider 'alpha', field 'mig': missing" in p for p in problems), problems


def test_missing_top_level_field(scratch):
    text = GOOD_PROVIDER.format(facts=facts_block()).replace("    homepage: https://alpha.example\n", "")
    assert any("provider 'alpha', field 'homepage': missing" in p for p in problems_for_text(scratch, text))


def test_wrong_types(scratch):
    text = GOOD_PROVIDER.format(facts=facts_block()).replace("name: Alpha Cloud", "name: [1, 2]")
    problems = problems_for_text(scratch, text)
    assert any(p.startswith("data/providers.yaml:3:") and "field 'name': found list" in p for p in problems), problems


def test_value_outside_allowed_set_lists_allowed(scratch):
    fact = "      billing:\n        value: weekly\n        sources: [https://a.example/b]\n        verified: 2026-01-02"
    problems = problems_for_text(scratch, GOOD_PROVIDER.format(facts=facts_block({"billing": fact})))
    assert any("provider 'alpha', field 'billing': found 'weekly', allowed: per-second, per-minute, per-hour, unknown" in p
               for p in problems), problems


def test_unquoted_yes_is_caught(scratch):
    fact = "      spot:\n        value: yes\n        sources: [https://a.example/b]\n        verified: 2026-01-02"
    problems = problems_for_text(scratch, GOOD_PROVIDER.format(facts=facts_block({"spot": fact})))
    assert any("field 'spot': found 'yes' (quote" in p for p in problems), problems


def test_duplicate_ids(scratch):
    one = GOOD_PROVIDER.format(facts=facts_block())
    two = one + one.split("providers:\n", 1)[1]
    problems = problems_for_text(scratch, two)
    assert any("provider 'alpha', field 'id': duplicate id, first used on line 2" in p for p in problems), problems


@pytest.mark.parametrize("date, needle", [
    ("2026-13-45", "verified found '2026-13-45', allowed: a date as YYYY-MM-DD"),
    ("last week", "verified found 'last week', allowed: a date as YYYY-MM-DD"),
    ("2027-01-01", "verified found 2027-01-01, allowed: a date no later than today (2026-11-30)"),
])
def test_bad_and_future_dates(scratch, date, needle):
    fact = f"      spot:\n        value: \"yes\"\n        sources: [https://a.example/b]\n        verified: {date}"
    problems = problems_for_text(scratch, GOOD_PROVIDER.format(facts=facts_block({"spot": fact})))
    assert any(needle in p and "field 'spot'" in p for p in problems), problems


@pytest.mark.parametrize("url", ["javascript:alert(1)", "ftp://files.example/x", "docs.example/page"])
def test_source_and_homepage_must_be_http(scratch, url):
    fact = f"      spot:\n        value: \"yes\"\n        sources: ['{url}']\n        verified: 2026-01-02"
    text = GOOD_PROVIDER.format(facts=facts_block({"spot": fact})).replace("https://alpha.example", url)
    problems = problems_for_text(scratch, text)
    assert any(f"source found '{url}', allowed: an http:// or https:// URL" in p for p in problems), problems
    assert any(f"field 'homepage': found '{url}'" in p for p in problems), problems


def test_fact_without_source(scratch):
    fact = "      spot:\n        value: \"no\"\n        verified: 2026-01-02"
    problems = problems_for_text(scratch, GOOD_PROVIDER.format(facts=facts_block({"spot": fact})))
    assert any("field 'spot': value 'no' has no sources" in p for p in problems), problems
    bare = "      ssh: \"yes\""
    problems = problems_for_text(scratch, GOOD_PROVIDER.format(facts=facts_block({"ssh": bare})))
    assert any("field 'ssh': found 'yes' without a source" in p for p in problems), problems


def test_words_missing_in_a_language_name_language_and_key(scratch):
    import yaml
    words = yaml.safe_load((scratch / "data/i18n/hi.yaml").read_text(encoding="utf-8"))
    del words["fields"]["mig"]["label"]   # whatever else the file says, as YAML writes it
    hi = yaml.safe_dump(words, allow_unicode=True, sort_keys=False)
    write(scratch, "data/i18n/hi.yaml", hi)
    problems = problems_for(scratch)
    found = [p for p in problems if p.startswith("data/i18n/hi.yaml:") and "key 'fields.mig.label': missing hi text "
             "for an English key (English has it at data/i18n/en.yaml:" in p]
    assert len(found) == 1, problems
    line = int(found[0].split(":")[1])   # the nearest place in the file: inside fields:, not line 1
    lines = hi.splitlines()
    fields = lines.index("fields:") + 1
    end = next((n for n in range(fields, len(lines)) if lines[n] and not lines[n].startswith(" ")), len(lines))
    assert fields < line <= end, (line, fields, end)


def test_category_without_words_everywhere(scratch):
    fields = (scratch / "data/fields.yaml").read_text(encoding="utf-8")
    write(scratch, "data/fields.yaml", fields.replace("categories: [", "categories: [neocloud, "))
    problems = problems_for(scratch)
    assert any("key 'categories.neocloud': missing English text" in p for p in problems), problems


def test_every_problem_is_reported_at_once(scratch):
    fact = "      billing:\n        value: weekly\n        sources: [https://a.example/b]\n        verified: 2026-01-02"
    text = GOOD_PROVIDER.format(facts=facts_block({"billing": fact})).replace("https://alpha.example", "nope")
    write(scratch, "data/providers.yaml", text)
    drop_notes(scratch)
    write(scratch, "data/i18n/vi.yaml", (scratch / "data/i18n/vi.yaml").read_text(encoding="utf-8") + "\nbogus: x\n")
    problems = problems_for(scratch)
    assert len(problems) >= 3
    assert {p.split(":")[0] for p in problems} >= {"data/providers.yaml", "data/i18n/vi.yaml"}


def test_markup_and_urls_in_translations_are_rejected(scratch):
    vi = (scratch / "data/i18n/vi.yaml").read_text(encoding="utf-8")
    vi, n = re.subn(r"^  note: .*$", '  note: "<img src=x onerror=alert(1)>"', vi, count=1, flags=re.M)
    vi, m = re.subn(r"^  report: (.*)$", r"  report: \1 tại https://evil.example", vi, count=1, flags=re.M)
    assert n == m == 1
    write(scratch, "data/i18n/vi.yaml", vi)
    problems = problems_for(scratch)
    assert any("key 'table.note': found markup" in p for p in problems), problems
    assert any("key 'table.report': found a URL" in p for p in problems), problems


def test_broken_placeholder(scratch):
    hi = (scratch / "data/i18n/hi.yaml").read_text(encoding="utf-8")
    hi, n = re.subn(r"^(  reading_time: .*)\{minutes\}", r"\1{मिनट}", hi, count=1, flags=re.M)
    assert n == 1
    write(scratch, "data/i18n/hi.yaml", hi)
    problems = problems_for(scratch)
    assert any("key 'site.reading_time': placeholders found ['मिनट'], allowed: ['minutes']" in p for p in problems), problems


def _real_problems(scratch: Path, providers_text: str | None = None, en_text: str | None = None) -> list[str]:
    if providers_text is not None:
        write(scratch, "data/providers.yaml", providers_text)
    if en_text is not None:
        write(scratch, "data/i18n/en.yaml", en_text)
    try:
        load_atlas(scratch, today=dt.date(2026, 12, 6))
    except DataError as exc:
        return [str(p) for p in exc.problems]
    return []


def test_a_quote_in_another_language_needs_our_english_translation(scratch):
    en = (scratch / "data/i18n/en.yaml").read_text(encoding="utf-8")
    without = re.sub(r'(?m)^  aws:\n    mps: ".*"\n', "", en[en.index("\nquotes:"):])
    problems = _real_problems(scratch, en_text=en[:en.index("\nquotes:")] + without)
    text = (scratch / "data/providers.yaml").read_text(encoding="utf-8")
    line = text[:text.index("quote_lang: ja")].count("\n") + 1
    assert f"data/providers.yaml:{line}: provider 'aws', field 'mps': a quote in 'ja' has no English translation" in "\n".join(problems), problems
    # and a translation of nothing is refused where it is written
    extra = en.replace("\nquotes:", "\nquotes:\n  aws:\n    ssh: Our words for an English quote.", 1).replace("\n  aws:\n    mps:", "\n    mps:", 1)
    problems = _real_problems(scratch, en_text=extra)
    assert any("key 'quotes.aws.ssh': translation of a quote that is in English or does not exist" in p for p in problems), problems


@pytest.mark.parametrize("written, needle", [
    ("source_date: 2023-13", "source_date found '2023-13'"),
    ('source_date: "2023-06-15"', "(write a full date bare, without quotes)"),
    ("source_date: 2027-01-02", "after the day it was read"),
    ("source_date: 1980-01-01", "before 1990"),
])
def test_a_source_date_is_a_date_or_month_no_later_than_the_reading(scratch, written, needle):
    text = (scratch / "data/providers.yaml").read_text(encoding="utf-8")
    first = text.index("        verified: ", text.index("      kubernetes:"))
    end = text.index("\n", first)
    line = text[:end].count("\n") + 2
    problems = _real_problems(scratch, text[:end] + "\n        " + written + text[end:])
    assert any(p.startswith(f"data/providers.yaml:{line}:") and needle in p for p in problems), problems
