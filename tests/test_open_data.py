"""Open data (issue 34): the licences, data/facts.json, .csv and .schema.json on the built site,
and "What changed" with its Atom feed, in every language."""
from __future__ import annotations

import csv
import io
import json
import re
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest
import yaml

from conftest import LANGS, ROOT, copy_repo, mkdocs_build

CHECKOUT = Path(__file__).resolve().parents[1]   # the licences and README of this checkout (ROOT may be a data copy)

ATOM = "{http://www.w3.org/2005/Atom}"


def raw_values() -> dict[tuple[str, str], object]:
    data = yaml.safe_load((ROOT / "data/providers.yaml").read_text(encoding="utf-8"))
    out = {}
    for p in data["providers"]:
        for field, fact in p["facts"].items():
            out[(p["id"], field)] = fact["value"] if isinstance(fact, dict) else fact
        if p.get("pricing_page"):
            out[(p["id"], "pricing_page")] = p["pricing_page"]["url"]
    return out


def test_licences_exist_and_are_named_in_the_readme_and_footer(built_site):
    assert "MIT License" in (CHECKOUT / "LICENSE").read_text()
    data_licence = (CHECKOUT / "LICENSE-DATA").read_text()
    assert "CC-BY-4.0" in data_licence and "https://creativecommons.org/licenses/by/4.0/legalcode" in data_licence
    readme = (CHECKOUT / "README.md").read_text()
    assert "LICENSE-DATA" in readme and "CC BY 4.0" in readme and "## Use the data" in readme
    for lang in LANGS:
        page = (built_site / ("" if lang == LANGS[0] else lang) / "index.html").read_text()
        footer = page[page.index('class="md-copyright"'):]
        assert "CC BY 4.0" in footer and "MIT" in footer, lang


def test_facts_json_validates_against_its_schema_and_round_trips_to_the_data(built_site):
    facts = json.loads((built_site / "data/facts.json").read_text(encoding="utf-8"))
    schema = json.loads((built_site / "data/facts.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema).validate(facts)
    assert facts["license"] == "CC-BY-4.0" and re.match(r"^\d{4}-\d{2}-\d{2}$", facts["version"])
    assert facts["languages"] == list(LANGS)
    got = {}
    for p in facts["providers"]:
        for field, fact in p["facts"].items():
            got[(p["id"], field)] = fact["value"]
        if p["pricing_page"]:
            got[(p["id"], "pricing_page")] = p["pricing_page"]["url"]
    assert got == raw_values()   # every value, and no other
    # evidence travels with each value: sources, both dates, the quote, its language, notes per language
    aws = next(p for p in facts["providers"] if p["id"] == "aws")
    mps = aws["facts"]["mps"]
    assert mps["quote_lang"] == "ja" and set(mps["quote_translations"]) >= {"en"} and mps["sources"]
    assert set(mps["notes"]) == set(LANGS)
    assert any(f["source_date"] for p in facts["providers"] for f in p["facts"].values())
    # a wrong value is refused by the schema: it is a real check
    broken = json.loads(json.dumps(facts))
    broken["providers"][0]["facts"]["kubernetes"]["value"] = "maybe"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(schema).validate(broken)


def test_facts_csv_has_one_row_per_provider_and_field(built_site):
    rows = list(csv.DictReader(io.StringIO((built_site / "data/facts.csv").read_text(encoding="utf-8"))))
    values = {k: v for k, v in raw_values().items() if k[1] != "pricing_page"}
    assert len(rows) == len(values)
    for row in rows:
        want = values[(row["provider"], row["field"])]
        assert row["value"] == (";".join(want) if isinstance(want, list) else want)
    assert {f"note_{lang}" for lang in LANGS} <= set(rows[0])


def _commits_changing_values() -> set[str]:
    log = subprocess.run(["git", "-C", str(ROOT), "log", "--format=%H", "--", "data/providers.yaml"],
                         capture_output=True, text=True).stdout.split()
    return set(log)


def test_changes_page_and_feed_list_value_changes_newest_first_in_every_language(built_site):
    commits = _commits_changing_values()   # none when ROOT is a copy without history: the page says so
    for lang in LANGS:
        folder = built_site / ("" if lang == LANGS[0] else lang)
        page = (folder / "changes.html").read_text(encoding="utf-8")
        linked = re.findall(r'class="atlas-changes__commit" href="[^"]*/commit/([0-9a-f]{40})"', page)
        if len(commits) < 2:   # a copy without history, or with one version: nothing to compare
            assert 'class="atlas-changes__none"' in page and not linked, lang
            continue
        assert linked and set(linked) <= commits, lang
        days = re.findall(r'<h2 class="atlas-changes__day"><time datetime="([0-9-]+)">', page)
        assert days == sorted(days, reverse=True) and len(days) == len(set(days))
        assert 'href="data/facts.json"' in page if lang == LANGS[0] else 'href="../data/facts.json"' in page
        feed = ET.fromstring((folder / "changes.xml").read_bytes())
        entries = feed.findall(f"{ATOM}entry")
        assert entries and feed.get("{http://www.w3.org/XML/1998/namespace}lang") == lang
        first = entries[0]
        assert first.find(f"{ATOM}category").get("term") in {p for p, _ in raw_values()} | {"removed"}
        assert first.find(f"{ATOM}link").get("href").endswith(".html")


def test_changes_come_from_the_history_and_say_what_it_was(tmp_path):
    """A scratch repository with two commits: the second adds a country to RunPod's list and
    changes a value; the page says what each was and is, in every language."""
    root = copy_repo(tmp_path / "repo")
    git = lambda *a: subprocess.run(["git", "-C", str(root), *a], capture_output=True, text=True, check=True)  # noqa: E731
    git("init", "-q")
    git("-c", "user.name=t", "-c", "user.email=t@example.com", "add", "-A")
    git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "first")
    path = root / "data/providers.yaml"
    text = path.read_text(encoding="utf-8")
    text = text.replace('value: [CA, CZ, FR, NL, RO, SE, IS, AU, US, JP, "NO"]', 'value: [CA, CZ, FR, NL, RO, SE, IS, AU, US, JP, "NO", DE]', 1)
    start = text.index("  - id: salad")
    spot = text.index("      spot:", start)
    value = text.index("value:", spot)
    end = text.index("\n", value)
    assert text[value:end] == "value: 'yes'"
    text = text[:value] + "value: partial" + text[end:]
    path.write_text(text, encoding="utf-8")
    assert "\n    spot:" in (root / "data/i18n/en.yaml").read_text()   # a partial value names its limit: Salad's note does
    git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qam", "second")
    site = tmp_path / "site"
    result = mkdocs_build(root, site)
    assert result.returncode == 0, result.stdout + result.stderr
    page = (site / "changes.html").read_text(encoding="utf-8")
    items = re.findall(r"<li>(.*?)</li>", page[page.index("atlas-changes__day"):])
    texts = [re.sub(r"<[^>]+>", "", i) for i in items]
    assert any("RunPod" in t and "added Germany" in t for t in texts), texts
    assert any("SaladCloud" in t or "Salad" in t for t in texts if "Spot" in t or "spot" in t.lower()), texts
    salad = next(t for t in texts if "Salad" in t)
    assert "was Yes; now Partly" in salad, salad
    vi = (site / "vi/changes.html").read_text(encoding="utf-8")
    assert "thêm Đức" in vi and "trước: Có; nay: Một phần" in vi
    hi = (site / "hi/changes.html").read_text(encoding="utf-8")
    assert "जर्मनी को जोड़ा गया" in hi
    feed = ET.fromstring((site / "vi/changes.xml").read_bytes())
    assert len(feed.findall(f"{ATOM}entry")) == 2


def test_a_copy_without_history_says_so(tmp_path):
    root = copy_repo(tmp_path / "repo")
    site = tmp_path / "site"
    result = mkdocs_build(root, site)
    assert result.returncode == 0, result.stdout + result.stderr
    for lang in LANGS:
        page = (site / ("" if lang == LANGS[0] else lang) / "changes.html").read_text(encoding="utf-8")
        assert 'class="atlas-changes__none"' in page


def test_a_hostile_version_in_the_history_neither_hangs_nor_breaks_the_build(tmp_path):
    """Every version of providers.yaml in the history is read, a pull request's own commits too: one
    whose value is a nest of aliases (a billion values if expanded), and one that is not YAML at all,
    are skipped or read as "not recorded", quickly."""
    import time
    root = copy_repo(tmp_path / "repo")
    git = lambda *a: subprocess.run(["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@example.com", *a],  # noqa: E731
                                    capture_output=True, text=True, check=True)
    git("init", "-q")
    git("add", "-A")
    git("commit", "-qm", "first")
    path = root / "data/providers.yaml"
    good = path.read_text(encoding="utf-8")
    bomb = "".join(f"b{i}: &b{i} [*b{i - 1}, *b{i - 1}, *b{i - 1}, *b{i - 1}, *b{i - 1}, *b{i - 1}, *b{i - 1}, *b{i - 1}, *b{i - 1}]\n"
                   for i in range(1, 10))
    start = good.index("  - id: salad")
    value = good.index("value:", good.index("      spot:", start))
    end = good.index("\n", value)
    path.write_text("b0: &b0 [x]\n" + bomb + good[:value] + "value: *b9" + good[end:], encoding="utf-8")
    git("commit", "-qam", "a nest of aliases")
    path.write_text("# the same nest again: two versions compared\n" + path.read_text(encoding="utf-8"), encoding="utf-8")
    git("commit", "-qam", "a nest of aliases, twice")
    path.write_text("providers: [\n  {{{{\n", encoding="utf-8")
    git("commit", "-qam", "not YAML")
    path.write_text(good, encoding="utf-8")
    git("commit", "-qam", "back")
    started = time.monotonic()
    result = mkdocs_build(root, tmp_path / "site")
    assert result.returncode == 0, result.stdout + result.stderr
    assert time.monotonic() - started < 120
    page = (tmp_path / "site/changes.html").read_text(encoding="utf-8")
    assert "SaladCloud" in page and "x, x" not in page and "[x" not in page   # the nest is never shown
