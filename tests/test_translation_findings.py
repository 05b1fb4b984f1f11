"""What `make i18n` (and the build) tell a translator or a maintainer (issue 28, items 3 to 5):

- English left where the leak check did not read: table cells, and the front matter's title and
  description (which the glossary check reads too), each with file and line.
- One clear message for front matter that is never closed; missing keys, markers and links
  located where they are (or belong), not at line 1; every page not yet translated named.
- Notes: an English-only note builds (shown in English, marked) and is listed; a `partial`
  without any note does not build; English data strings that changed since their translation
  was synced are listed, without failing.

Pages, quizzes and words are made here wherever a test is about behaviour, so a valid edit of
data/ or docs/ cannot break them (test_valid_edits.py).
"""
from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType

import pytest

from atlas import cells, glossary, i18n_check, leaks, sanitize, structure, translations, yamlsrc
from atlas.data import Fact, Provider, load_atlas, nearest_line
from atlas.problems import DataError
from conftest import TRANSLATIONS, ROOT

# --- pages made here ------------------------------------------------------------------------

EN = """---
title: Storing checkpoints
description: Where a checkpoint survives a stopped instance.
---
# Storing checkpoints { #top }

Save checkpoints often. See the [billing guide](billing.md) first.

| Layer | After a stop |
|---|---|
| Local disk | Often erased |

## A volume { #volume }

```yaml
kind: PersistentVolumeClaim
---
kind: Pod
```

<!-- quiz:storage -->

## Related { #related }

Read about [spot capacity](spot-capacity.md).
"""
HI = """---
title: चेकपॉइंट सहेजना
description: रुके हुए इंस्टेंस के बाद चेकपॉइंट कहाँ बचा रहता है।
---
# चेकपॉइंट सहेजना { #top }

चेकपॉइंट बार-बार सहेजें। पहले [बिलिंग गाइड](billing.md) देखें।

| परत | रोकने के बाद |
|---|---|
| लोकल डिस्क | अक्सर मिट जाती है |

## एक वॉल्यूम { #volume }

```yaml
kind: PersistentVolumeClaim
---
kind: Pod
```

<!-- quiz:storage -->

## संबंधित { #related }

[स्पॉट क्षमता](spot-capacity.md) के बारे में पढ़ें।
"""
VI = """---
title: Lưu checkpoint
description: Checkpoint còn lại ở đâu khi instance dừng.
---
# Lưu checkpoint { #top }

Hãy lưu checkpoint thường xuyên. Trước hết xem [hướng dẫn tính tiền](billing.md).

| Lớp | Sau khi dừng |
|---|---|
| Đĩa cục bộ | Thường bị xóa |

## Một volume { #volume }

```yaml
kind: PersistentVolumeClaim
---
kind: Pod
```

<!-- quiz:storage -->

## Liên quan { #related }

Đọc thêm về [GPU spot](spot-capacity.md).
"""
PAGE = "guides/own-checkpoints.md"


def with_own_pages(root: Path, hi: str = HI, vi: str = VI) -> Path:
    """The pages above, in `root`'s docs/ (Hindi and Vietnamese synced): the hi page's path."""
    for lang, text in (("en", EN), ("hi", hi), ("vi", vi)):
        (root / "docs" / lang / PAGE).write_text(text, encoding="utf-8")
    for lang in ("hi", "vi"):
        translations.sync(root / "docs", lang, PAGE)
    return root / "docs/hi" / PAGE


def i18n(root: Path, capsys) -> tuple[int, str]:
    status = i18n_check.main(["--root", str(root)])
    out = capsys.readouterr()
    return status, out.out + out.err


def line_of(path: Path, needle: str) -> int:
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in line)


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


# --- item 3: English in table cells and in the front matter ----------------------------------

SENTENCE = "It is kept only if the provider keeps your instance on the same host."


@pytest.mark.parametrize("row", [
    f"| लोकल डिस्क | {SENTENCE} |",                      # a cell among Hindi cells
    f"| {SENTENCE} | अक्सर मिट जाती है |",                 # the first cell
    f"| लोकल डिस्क | `a|b` | {SENTENCE}",                  # no closing pipe; a pipe inside code is no border
    f"  | लोकल डिस्क | **{SENTENCE}** |",                  # indented, emphasised
])
def test_english_in_a_table_cell_is_found(row):
    assert leaks.find_in_lines([(7, row)], "hi") == [(7, SENTENCE)]


@pytest.mark.parametrize("row", [
    "| परत | रोकने के बाद |", "|---|:---:|", "| `nvidia.com/gpu` | H100, A100 |", "| MIG | 7 |",
    "| प्रति घंटा, हर रन के लिए नया इंस्टेंस | 1 घंटा | $60 |", "| Kubernetes | हाँ, EKS के ज़रिए |",
])
def test_a_native_or_technical_table_row_is_not_english(row):
    assert leaks.find_in_lines([(1, row)], "hi") == []


@pytest.mark.parametrize("lang, cell", [("hi", "लोकल डिस्क"), ("vi", "Đĩa cục bộ")])
def test_make_i18n_names_file_and_line_of_an_english_table_cell(scratch, capsys, lang, cell):
    page = with_own_pages(scratch).parent.parent.parent / lang / PAGE
    edit(page, f"| {cell} |", f"| {cell} | {SENTENCE} |")
    status, out = i18n(scratch, capsys)
    assert status == 1
    assert f"error: docs/{lang}/{PAGE}:{line_of(page, SENTENCE)}: English left in a {lang} page: {SENTENCE!r}" in out


@pytest.mark.parametrize("key, english, line", [
    ("title", "Storing checkpoints before the instance goes away", 2),
    ("description", "Where a checkpoint survives when you stop the instance.", 3),
])
def test_english_front_matter_title_and_description_are_found(scratch, capsys, key, english, line):
    page = with_own_pages(scratch)
    text = page.read_text(encoding="utf-8")
    page.write_text(re.sub(rf"^{key}: .*$", f"{key}: {english}", text, count=1, flags=re.M), encoding="utf-8")
    status, out = i18n(scratch, capsys)
    assert status == 1
    assert f"error: docs/hi/{PAGE}:{line}: English left in a hi page (front matter {key}): {english!r}" in out
    assert f"docs/vi/{PAGE}" not in out   # the Vietnamese page, still translated, passes


def test_front_matter_prose_is_read_with_its_lines_and_skipped_when_broken():
    text = "---\nsource_hash: 0123456789ab\ndescription: >-\n  two\n  lines\ntitle: 'A: b'\n---\n# x\n"
    assert sanitize.front_matter_prose(text) == ((6, "title", "A: b"), (3, "description", "two lines"))
    assert sanitize.front_matter_prose("---\ntitle: [x\n---\n# x\n") == ()
    assert sanitize.front_matter_prose("# no front matter\n") == ()


def test_an_avoided_term_in_the_front_matter_title_fails_both_tools(scratch, capsys):
    terms = glossary.load(scratch)
    term = next(t for t in terms if t.avoid.get("hi"))
    page = with_own_pages(scratch)
    edit(page, "title: चेकपॉइंट सहेजना", f"title: {term.avoid['hi'][0]} के चेकपॉइंट सहेजना")
    expected = (f"docs/hi/{PAGE}:2: avoided term {term.avoid['hi'][0]!r} in a hi text; "
                f"use {term.use['hi']!r} (data/glossary.yaml)")
    texts = {page: page.read_text(encoding="utf-8")}   # as the build hands them over
    assert expected in glossary.check_tree(scratch, terms, ("hi",), texts)
    status, out = i18n(scratch, capsys)
    assert status == 1 and f"error: {expected}" in out


# --- item 4: messages that say what is wrong, where -------------------------------------------

def test_unclosed_front_matter_is_one_clear_message(scratch, capsys):
    page = with_own_pages(scratch)
    lines = page.read_text(encoding="utf-8").split("\n")
    del lines[lines.index("---", 1)]   # the closing line of the front matter
    page.write_text("\n".join(lines), encoding="utf-8")
    status, out = i18n(scratch, capsys)
    mine = [line for line in out.splitlines() if f"docs/hi/{PAGE}" in line]
    assert status == 1
    heading = line_of(page, "# चेकपॉइंट सहेजना")
    assert mine == [f"error: docs/hi/{PAGE}:1: front matter is not closed by a '---' line; add one before line "
                    f"{heading} ('# चेकपॉइंट सहेजना {{ #top }}'), where the page's text starts; lines 2 to "
                    f"{line_of(page, 'kind: PersistentVolumeClaim')} (up to the next '---') are read as front matter"], mine


def test_front_matter_never_closed_anywhere_is_one_message(tmp_path):
    text = "---\ntitle: चेकपॉइंट\n\n# चेकपॉइंट { #top }\n\nपाठ।\n"
    found = [str(p) for p in sanitize.front_matter_problems(text, "docs/hi/x.md")]
    assert found == ["docs/hi/x.md:1: front matter is not closed by a '---' line; add one before line 4 "
                     "('# चेकपॉइंट { #top }'), where the page's text starts (it would be published as text)"]


def test_an_unquoted_colon_says_to_quote_and_is_not_called_never_synced(scratch, capsys):
    page = with_own_pages(scratch)
    edit(page, "title: चेकपॉइंट सहेजना", "title: स्टोरेज: चेकपॉइंट सहेजना")
    status, out = i18n(scratch, capsys)
    mine = [line for line in out.splitlines() if f"docs/hi/{PAGE}" in line]
    assert status == 1 and len(mine) == 1, mine
    assert mine[0].startswith(f"error: docs/hi/{PAGE}:2: malformed YAML: mapping values are not allowed")
    assert mine[0].endswith("(a value holding ': ' needs quotes, as in title: \"Storage: datasets\")")


@pytest.mark.parametrize("text, key, line", [
    ("a:\n  one: 1\n  three: 3\nb:\n  x: 1\n", "a.two", 2),      # beside the sibling English has before it
    ("a:\n  two: 2\n  three: 3\nb:\n  x: 1\n", "a.one", 2),      # the first of its section: beside the next one
    ("a:\n  one: 1\n  two: 2\n  three: 3\n", "b.x", 4),          # a whole section missing: after the one before
    ("b:\n  x: 1\n", "a.one", 2),                                # nothing before it: beside what follows
    ("a:\n  one: 1\nc:\n  deep:\n    k: 1\n", "c.deep.j", 5),    # nested
])
def test_a_missing_key_is_placed_where_english_has_it(text, key, line):
    order = ["a.one", "a.two", "a.three", "b.x", "c.deep.j", "c.deep.k"]
    doc = yamlsrc.parse(text, "x.yaml", [])
    assert nearest_line(doc, order, key) == line


def test_marker_differences_name_their_lines_here_and_in_english(tmp_path):
    en, hi = tmp_path / "en.md", tmp_path / "hi.md"
    en.write_text(EN, encoding="utf-8")
    english_line = EN.splitlines().index("<!-- quiz:storage -->") + 1
    hi.write_text(HI.replace("<!-- quiz:storage -->\n", ""), encoding="utf-8")   # missing
    assert structure.compare(en, hi) == [(line_of(hi, "## एक वॉल्यूम"),
        f"markers differ from English: '<!-- quiz:storage -->' (line {english_line} of the English page) is missing; "
        "it belongs under 'volume'")]
    hi.write_text(HI.replace("<!-- quiz:storage -->", "<!-- quiz:billing -->"), encoding="utf-8")   # another one
    assert structure.compare(en, hi) == [(line_of(hi, "quiz:billing"),
        f"markers differ from English: '<!-- quiz:billing -->' here, English has '<!-- quiz:storage -->' "
        f"(line {english_line} of the English page)")]
    hi.write_text(HI + "\n<!-- quiz:billing -->\n", encoding="utf-8")   # one more
    assert structure.compare(en, hi) == [(line_of(hi, "quiz:billing"),
        "markers differ from English: '<!-- quiz:billing -->' is not at this place in the English page")]


def test_link_differences_name_their_lines_here_and_in_english(tmp_path):
    en, hi = tmp_path / "en.md", tmp_path / "hi.md"
    en.write_text(EN, encoding="utf-8")
    english_line = next(n for n, s in enumerate(EN.splitlines(), 1) if "spot-capacity.md" in s)
    hi.write_text(HI.replace("(spot-capacity.md)", "(spot.md)"), encoding="utf-8")   # changed
    assert structure.compare(en, hi) == [(line_of(hi, "(spot.md)"),
        f"link targets differ from English: 'spot.md' here, English links 'spot-capacity.md' (line {english_line} of the English page)")]
    hi.write_text(HI.replace("[स्पॉट क्षमता](spot-capacity.md)", "स्पॉट क्षमता"), encoding="utf-8")   # missing
    assert structure.compare(en, hi) == [(line_of(hi, "## संबंधित"),
        f"link targets differ from English: 'spot-capacity.md' (line {english_line} of the English page) is missing; "
        "it belongs under 'related'")]
    hi.write_text(HI + "\n[मुखपृष्ठ](../index.md)\n", encoding="utf-8")   # extra
    assert structure.compare(en, hi) == [(len(hi.read_text(encoding="utf-8").splitlines()),
        "link targets differ from English: '../index.md' is not linked in the English page")]


def test_make_i18n_names_every_page_not_yet_translated(scratch, capsys):
    with_own_pages(scratch)
    (scratch / "docs/hi" / PAGE).unlink()
    (scratch / "docs/en/guides/own-second.md").write_text(EN.replace("Storing", "Keeping"), encoding="utf-8")
    status, out = i18n(scratch, capsys)
    assert status == 0, out
    for name in (f"docs/hi/{PAGE}", "docs/hi/guides/own-second.md", "docs/vi/guides/own-second.md"):
        assert name in out, name
    assert f"docs/vi/{PAGE}" not in out


# --- item 5: notes and data strings -----------------------------------------------------------

NOTE = "Only in the Mumbai region, and only for volumes created after March."


def with_english_only_note(root: Path, provider: str, field: str) -> None:
    en = root / "data/i18n/en.yaml"
    text = en.read_text(encoding="utf-8")
    if re.search(rf"^  {re.escape(provider)}:\n", text[text.find("\nnotes:\n"):], re.M):   # beside its other notes
        at = text.index(f"\n  {provider}:\n", text.find("\nnotes:\n")) + len(f"\n  {provider}:\n")
        en.write_text(text[:at] + f"    {field}: {NOTE}\n" + text[at:], encoding="utf-8")
        return
    text, n = re.subn(r"^notes:\n", f"notes:\n  {provider}:\n    {field}: {NOTE}\n", text, count=1, flags=re.M)
    if not n:
        text += f"\nnotes:\n  {provider}:\n    {field}: {NOTE}\n"
    en.write_text(text, encoding="utf-8")


def unnoted_field(atlas) -> tuple[str, str]:
    """A provider and a field of it without a note in any language (the tests give it one)."""
    return next((p.id, f) for p in atlas.providers for f in atlas.all_fields
                if not any(f"notes.{p.id}.{f}" in atlas.words[lang] for lang in atlas.languages))


def test_an_english_only_note_builds_and_is_listed_where_it_belongs(scratch, capsys):
    pid, field = unnoted_field(load_atlas(scratch))
    with_english_only_note(scratch, pid, field)
    atlas = load_atlas(scratch)   # no "missing hi text" for it
    assert atlas.note("en", pid, field) == NOTE and atlas.note("hi", pid, field) is None
    status, out = i18n(scratch, capsys)
    assert status == 0, out
    for lang in TRANSLATIONS:
        m = re.search(rf"^untranslated: data/i18n/{lang}\.yaml:(\d+): key 'notes\.{pid}\.{field}': English only "
                      rf"\(data/i18n/en\.yaml:{line_of(scratch / 'data/i18n/en.yaml', NOTE)}\); the site shows the "
                      "English note, marked as not yet translated", out, re.M)
        assert m, out
        there = (scratch / f"data/i18n/{lang}.yaml").read_text(encoding="utf-8").splitlines()[int(m.group(1)) - 1]
        assert there.startswith("  "), there   # beside another note of the notes: section, not line 1
    assert "(1 untranslated note(s)" not in out and f"{len(TRANSLATIONS)} untranslated note(s)" in out


def test_the_evidence_shows_an_untranslated_note_in_english_marked(scratch):
    atlas = load_atlas(scratch)
    p = atlas.providers[0]
    field = next(f for f in atlas.all_fields if p.facts[f].sources)
    words = {lang: MappingProxyType({k: v for k, v in w.items() if k != f"notes.{p.id}.{field}"})
             for lang, w in atlas.words.items()}
    words["en"] = MappingProxyType({**words["en"], f"notes.{p.id}.{field}": "Only <b>some</b> GPUs."})
    own = replace(atlas, words=MappingProxyType(words))
    for lang in ("hi", "vi"):
        html = cells.evidence(own, lang, p, field, own.newest_verified)
        mark = own.t(lang, "table.note_untranslated")
        assert (f'<span lang="en">Only &lt;b&gt;some&lt;/b&gt; GPUs.</span> '
                f'<span class="atlas-ev__untranslated">({mark})</span>') in html, html
    english = cells.evidence(own, "en", p, field, own.newest_verified)
    assert "Only &lt;b&gt;some&lt;/b&gt; GPUs." in english and "atlas-ev__untranslated" not in english
    translated = replace(own, words=MappingProxyType({**words, "hi": MappingProxyType({**words["hi"], f"notes.{p.id}.{field}": "कुछ GPU पर।"})}))
    assert "atlas-ev__untranslated" not in cells.evidence(translated, "hi", p, field, own.newest_verified)


from test_data import GOOD_PROVIDER as PROVIDER  # noqa: E402


def with_alpha(root: Path, value: str, note: str | None) -> str:
    """Providers: one, 'alpha', with `value` for mps; `note` for it in English (none when None)."""
    atlas = load_atlas(root)
    facts = "\n".join(f"      {f}: unknown" if f != "mps" else
                      f"      mps:\n        value: {value}\n        sources: [https://alpha.example/mps]\n        verified: 2026-11-02"
                      for f in atlas.all_fields)
    text = PROVIDER.format(facts=facts)
    (root / "data/providers.yaml").write_text(text, encoding="utf-8")
    for lang in atlas.languages:   # the notes of the real providers go with them
        path = root / f"data/i18n/{lang}.yaml"
        path.write_text(re.sub(r"(?m)^(?:notes|quotes):.*\n(?:  .*\n|\n)*", "", path.read_text(encoding="utf-8")), encoding="utf-8")
    if note:
        with_english_only_note(root, "alpha", "mps")
    return text


def test_a_partial_value_without_any_note_stops_the_build_naming_line_provider_and_field(scratch):
    text = with_alpha(scratch, "partial", None)
    with pytest.raises(DataError) as info:
        load_atlas(scratch)
    line = next(n for n, s in enumerate(text.splitlines(), 1) if s == "        value: partial")
    assert [str(p) for p in info.value.problems] == [
        f"data/providers.yaml:{line}: provider 'alpha', field 'mps': value 'partial' has no note; allowed: 'partial' "
        "with a note naming its limit, as notes.alpha.mps in data/i18n/en.yaml (translations may follow)"]


@pytest.mark.parametrize("value, note", [("partial", NOTE), ('"yes"', None), ('"no"', None)])
def test_a_partial_with_an_english_note_or_another_value_without_one_builds(scratch, value, note):
    with_alpha(scratch, value, note)
    assert load_atlas(scratch).providers[0].facts["mps"].value == value.strip('"')


def test_english_strings_changed_since_their_translation_are_listed_until_synced(scratch, capsys):
    status, out = i18n_check.main(["--root", str(scratch), "--sync", "data/i18n"]), capsys.readouterr().out
    assert status == 0 and "data/i18n/hi.yaml: " in out and "data/i18n/vi.yaml: " in out
    status, out = i18n(scratch, capsys)
    assert status == 0 and "outdated: data/i18n/" not in out, out
    en = scratch / "data/i18n/en.yaml"
    text, n = re.subn(r"^(  report: ).*$", r"\1Tell us about a wrong fact", en.read_text(encoding="utf-8"), count=1, flags=re.M)
    assert n == 1
    en.write_text(text, encoding="utf-8")
    load_atlas(scratch)   # the build does not mind: the older translation is shown
    status, out = i18n(scratch, capsys)
    assert status == 0, out
    for lang in TRANSLATIONS:
        line = line_of(scratch / f"data/i18n/{lang}.yaml", "  report: ")
        assert re.search(rf"^outdated: data/i18n/{lang}\.yaml:{line}: key 'table\.report': outdated \(translates \w{{12}}, "
                         rf"English is now \w{{12}}; English: data/i18n/en\.yaml:{line_of(en, 'Tell us about')}\); "
                         rf"update it, then run `make i18n-sync PAGE=data/i18n/{lang}\.yaml:table\.report`$", out, re.M), out
    assert re.search(rf"[(, ]{len(TRANSLATIONS)} outdated data string\(s\)", out), out
    status, out = i18n_check.main(["--root", str(scratch), "--sync", "data/i18n/hi.yaml:table.report"]), capsys.readouterr().out
    assert status == 0 and out == "data/i18n/hi.yaml: recorded the current English of 1 of 1 string(s) under 'table.report'\n"
    status, out = i18n(scratch, capsys)
    assert "data/i18n/hi.yaml:" not in out and "outdated: data/i18n/vi.yaml:" in out


def test_strings_translated_but_never_synced_are_listed_and_a_language_without_a_record_once(scratch, capsys):
    i18n_check.main(["--root", str(scratch), "--sync", "data/i18n/vi.yaml"])
    record = scratch / translations.WORDS_RECORD.format(lang="vi")
    text, n = re.subn(r'^"table\.note": .*\n', "", record.read_text(encoding="utf-8"), count=1, flags=re.M)
    assert n == 1
    record.write_text(text, encoding="utf-8")
    (scratch / translations.WORDS_RECORD.format(lang="hi")).unlink(missing_ok=True)
    capsys.readouterr()
    status, out = i18n(scratch, capsys)
    assert status == 0, out
    assert re.search(r"^outdated: data/i18n/vi\.yaml:\d+: key 'table\.note': outdated \(never synced; ", out, re.M), out
    hi = [line for line in out.splitlines() if "data/i18n/hi.yaml" in line]
    assert hi == ["outdated: data/i18n/hi.yaml: no record of the English its strings translate (data/i18n/hi.synced.yaml); "
                  "once they are up to date, run `make i18n-sync PAGE=data/i18n/hi.yaml`"], hi


def test_a_recorded_hash_stays_text_whatever_its_digits(tmp_path):
    (tmp_path / "data/i18n").mkdir(parents=True)
    for lang, text in (("en", "a:\n  b: x\n"), ("hi", "a:\n  b: य\n")):
        (tmp_path / f"data/i18n/{lang}.yaml").write_text(text, encoding="utf-8")
    assert translations.sync_words(tmp_path, "hi") == (1, 1)
    record = tmp_path / translations.WORDS_RECORD.format(lang="hi")
    record.write_text(record.read_text(encoding="utf-8").replace(translations.words_hash("x"), "012345678901"), encoding="utf-8")
    assert translations.words_record(tmp_path, "hi") == {"a.b": "012345678901"}   # not the number 12345678901
    assert translations.sync_words(tmp_path, "hi") == (1, 1) and translations.string_states(tmp_path, "hi")[0].outdated is False


def test_sync_refuses_a_file_that_is_not_a_words_file(scratch, capsys):
    status = i18n_check.main(["--root", str(scratch), "--sync", "data/i18n/fr.yaml"])
    err = capsys.readouterr().err
    assert status == 1 and "error: data/i18n/fr.yaml is not a words file; allowed: data/i18n/<language>.yaml" in err
    status = i18n_check.main(["--root", str(scratch), "--sync", "data/i18n/hi.yaml:no.such.key"])
    assert status == 1 and "error: data/i18n/hi.yaml: no translated key 'no.such.key'" in capsys.readouterr().err
