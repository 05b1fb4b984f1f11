"""Hostile and broken contributions, the families left after issue 10 (issue 25): several
variants each, in both tools where it applies; every message names file, line, what was found
and what is allowed, and nothing prints a traceback.

Families: invisible characters · a key every language removed · YAML that means something
other than it says · messages that point at the wrong place · a page that lost its body.
"""
from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import jinja2
import pytest
from jinja2 import nodes

from atlas import config_lines, glossary, html_leaks, invisible, leaks, sanitize, structure, urls, yamlsrc
from atlas.data import load_atlas
from atlas.data.site_words import used
from atlas.glossary import Term
from conftest import LANGS, ROOT, mkdocs_build
from test_hardening import data_problems, edit, failed_build_output, i18n


def refused_by_make_i18n(scratch: Path, capsys) -> str:
    """What `make i18n` printed for `scratch`; it must have failed, without a traceback."""
    status, out = i18n(scratch, capsys)
    assert status == 1 and "Traceback" not in out, out[-2000:]
    return out


def line_of(path: Path, needle: str, start: int = 1) -> int:
    """The first line of `path`, from line `start`, that holds `needle`."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(n for n, text in enumerate(lines, 1) if n >= start and needle in text)


# --- invisible characters -------------------------------------------------------------------

AWS_SOURCE = "https://docs.aws.amazon.com/eks/latest/eksctl/gpu-support.html"


@pytest.mark.parametrize("written, url, name", [
    ("https://docs.aws.amazon.com/eks/\u202elatest/eksctl/gpu-support.html", None, "U+202E RIGHT-TO-LEFT OVERRIDE"),
    ("https://docs.aws.amazon.com/\u2066eks/latest/eksctl/gpu-support.html", None, "U+2066 LEFT-TO-RIGHT ISOLATE"),
    ("https://docs.aws\u200b.amazon.com/eks/latest/eksctl/gpu-support.html", None, "U+200B ZERO WIDTH SPACE"),
    ("https://docs.aws.amazon.com/eks/latest/eksctl/gpu-support.html\ufeff", None, "U+FEFF ZERO WIDTH NO-BREAK SPACE"),
    ("https://docs.aws.amazon.com/eks/latest/\u2069eksctl/gpu-support.html", None, "U+2069 POP DIRECTIONAL ISOLATE"),
    ('"https://docs.aws.amazon.com/\\aeks/latest/eksctl/gpu-support.html"', "https://docs.aws.amazon.com/\aeks/",
     "U+0007 BELL"),
    ('"https://docs.aws.amazon.com/\\x9beks/latest/eksctl/gpu-support.html"', "https://docs.aws.amazon.com/\x9beks/",
     "U+009B control character"),
])
def test_an_invisible_character_in_a_source_url_is_named_escaped_with_its_position(scratch, written, url, name):
    path = scratch / "data/providers.yaml"
    edit(path, f"          - {AWS_SOURCE}\n", f"          - {written}\n")
    line = line_of(path, written)
    hidden = url or written
    shown = f"{name} at position {next(i for i, ch in enumerate(hidden, 1) if not (ch.isascii() and ch.isprintable()))}"
    problems = [p for p in data_problems(scratch) if shown in p]
    assert len(problems) == 1, (shown, data_problems(scratch)[:3])
    assert problems[0].startswith(f"data/providers.yaml:{line}: provider 'aws', field 'kubernetes': source found '")
    assert problems[0].endswith("a character a reader cannot see; allowed: an http:// or https:// URL of visible characters")
    assert "\\u" in problems[0] or "\\x" in problems[0]   # escaped: the message shows what the eye cannot


def test_an_invisible_character_in_a_homepage_or_the_report_url_is_refused_at_its_line(scratch, tmp_path):
    path = scratch / "data/providers.yaml"
    edit(path, "homepage: https://aws.amazon.com\n", "homepage: https://aws.amazon.com/\u200fgpu\n")
    assert (f"data/providers.yaml:{line_of(path, 'homepage: https://aws.amazon.com/')}: provider 'aws', field 'homepage': "
            "found 'https://aws.amazon.com/\\u200fgpu' with U+200F RIGHT-TO-LEFT MARK at position 24") in "\n".join(data_problems(scratch))
    config = scratch / "mkdocs.yml"
    entries = [("extra.atlas.report_url", "", ("extra", "atlas", "report_url"), "https://x.example/\u202eexe.fdp"),
               ("extra.atlas.report_url", "", ("extra", "atlas", "report_url"), "https://x.example/ok")]
    assert config_lines.url_problems(config, entries) == [
        f"mkdocs.yml:{line_of(config, 'report_url:')}: extra.atlas.report_url: found 'https://x.example/\\u202eexe.fdp' with "
        "U+202E RIGHT-TO-LEFT OVERRIDE at position 19, a character a reader cannot see; allowed: an http(s) URL without "
        "credentials of visible characters"]
    edit(scratch / "data/providers.yaml", "homepage: https://aws.amazon.com/\u200fgpu\n", "homepage: https://aws.amazon.com\n")
    edit(config, '"https://github.com/cloud-gpu-atlas/', '"https://github.com/\\u2067cloud-gpu-atlas/')
    out = failed_build_output(scratch, tmp_path)
    assert (f"mkdocs.yml:{line_of(config, 'report_url:')}: extra.atlas.report_url: found 'https://github.com/\\u2067cloud"
            in out), out[-2000:]
    assert "U+2067 RIGHT-TO-LEFT ISOLATE at position 20" in out


@pytest.mark.parametrize("href, shown", [
    ("https://fine.example/\u202efdp.exe", "U+202E RIGHT-TO-LEFT OVERRIDE at position 22"),
    ("../guides/\u200bstorage.md", "U+200B ZERO WIDTH SPACE at position 11"),
    ("https://fine.example/a\u2068b", "U+2068 FIRST STRONG ISOLATE at position 23"),
])
def test_an_invisible_character_in_a_page_link_is_refused(href, shown):
    page = f"---\ntitle: t\n---\n# शीर्षक\n\n[यहाँ]({href})\n"
    found = [str(p) for p in sanitize.page_problems(page, "docs/hi/x.md")]
    assert len(found) == 1 and found[0].startswith("docs/hi/x.md:6: <a> link to ") and shown in found[0], found


ENGLISH = "The GPU sharing is not the same as the other one."


def spread(text: str, ch: str) -> str:
    """`text` with `ch` after every letter: it looks the same, and no word is a word to a machine."""
    return "".join(c + ch if c.isalpha() else c for c in text)


@pytest.mark.parametrize("ch", ["\u200b", "\u200c", "\u200d", "\u2060", "\u00ad", "\ufeff", "\u202e", "\u2066"])
def test_invisible_characters_do_not_hide_english_from_the_leak_checks(ch):
    hidden = spread(ENGLISH, ch)
    assert leaks.find_in_lines([(3, hidden)], "hi") == [(3, hidden)]        # reported as written, escaped
    assert leaks.find_in_lines([(3, "यह पेज: GPU s" + ch + "haring i" + ch + "s n" + ch + "ot t" + ch + "he s" + ch
                                 + "ame a" + ch + "s t" + ch + "he o" + ch + "ther o" + ch + "ne")], "hi")
    assert html_leaks.english_strings(f'<html lang="vi"><body><p>{hidden}</p></body></html>', "vi")
    assert html_leaks.english_strings(f'<html lang="hi"><body><button title="{spread("Copy to clipboard", ch)}">'
                                      "</button></body></html>", "hi")


@pytest.mark.parametrize("lang, written, variant", [
    ("hi", "कई नो\u200bडों पर", "नोडों"),
    ("hi", "कई नोड\u200dों पर", "नोडों"),          # a joiner that follows no virama is invisible
    ("hi", "कई नो\u00adडों पर", "नोडों"),
    ("vi", "một vol\u200bume vĩnh viễn", "volume vĩnh viễn"),
    ("vi", "một volume vĩ\u2060nh viễn", "volume vĩnh viễn"),
])
def test_invisible_characters_do_not_hide_an_avoided_term(lang, written, variant):
    terms = glossary.load(ROOT)
    assert [(n, v) for n, v, _ in glossary.find_avoided([(7, written)], lang, terms)] == [(7, variant)]


# Real Hindi words that need ZWJ or ZWNJ after the virama: the half form of क in क्‍ष, the
# visible virama of द् in उद्‌घाटन and of the eyelash र in र्‍.
HINDI_WITH_JOINERS = "इंटरप्टिबल क्\u200dषमता का उद्\u200cघाटन हुआ, और र्\u200dया भी ठीक है।"


def test_devanagari_joiners_after_a_virama_stay_and_stay_fine(scratch, capsys):
    assert invisible.visible(HINDI_WITH_JOINERS) == HINDI_WITH_JOINERS
    assert invisible.first(HINDI_WITH_JOINERS) is None
    assert urls.is_http_url("https://hi.wikipedia.org/wiki/क्\u200dषमता")
    assert leaks.find_in_lines([(1, HINDI_WITH_JOINERS)], "hi") == []
    assert glossary.find_avoided([(1, HINDI_WITH_JOINERS)], "hi", glossary.load(ROOT)) == []
    # a variant written with its joiner is found as written, and not in the word without it
    term = (Term("t", {"hi": "x"}, {"hi": ("क्\u200dषमता",)}, {}),)
    assert glossary.find_avoided([(1, "इंटरप्टिबल क्\u200dषमता")], "hi", term) == [(1, "क्\u200dषमता", "x")]
    assert glossary.find_avoided([(1, "इंटरप्टिबल क्षमता")], "hi", term) == []
    # the same words, and hidden English, in a real page and data string: only the English is reported
    page = scratch / "docs/hi/guides/storage.md"
    page.write_text(page.read_text(encoding="utf-8") + f"\n{HINDI_WITH_JOINERS}\n\n{spread(ENGLISH, chr(0x200B))}\n",
                    encoding="utf-8")
    n = len(page.read_text(encoding="utf-8").splitlines())
    edit(scratch / "data/i18n/hi.yaml", "  not_found_title: ", f"  not_found_title: {HINDI_WITH_JOINERS} ")
    out = refused_by_make_i18n(scratch, capsys)
    errors = [line for line in out.splitlines() if line.startswith("error:")]
    assert errors == [f"error: docs/hi/guides/storage.md:{n}: English left in a hi page: {spread(ENGLISH, chr(0x200B))!r}"], errors


# --- a key every language removed -----------------------------------------------------------

@pytest.mark.parametrize("key, user", [
    ("site.reading_time", "hooks/atlas_hooks.py"),
    ("site.not_found_title", "overrides/404.html"),
    ("site.built_with", "overrides/partials/copyright.html"),
    ("table.shown", "hooks/atlas/templates/table.html"),
    ("quiz.score", "hooks/atlas/templates/quiz.html"),
    ("status.none", "hooks/atlas/templates/status.html"),
    ("reader.listen.play", "hooks/reader_hooks.py"),
])
def test_a_word_removed_from_every_language_is_a_located_missing_key(scratch, key, user):
    *section, name = key.split(".")
    for lang in LANGS:
        path = scratch / f"data/i18n/{lang}.yaml"
        text = path.read_text(encoding="utf-8")
        indent = "  " * len(section)
        at = line_of(path, f"{section[-1]}:")   # the key's own, inside its section
        lines = text.split("\n")
        k = next(i for i in range(at, len(lines)) if lines[i].startswith(f"{indent}{name}:"))
        path.write_text("\n".join(lines[:k] + lines[k + 1:]), encoding="utf-8")
    problems = data_problems(scratch)
    for lang, what in (("en", "English"), ("hi", "hi"), ("vi", "vi")):
        mine = [p for p in problems if p.startswith(f"data/i18n/{lang}.yaml:") and f"key '{key}'" in p]
        assert len(mine) == 1 and mine[0].endswith(f"key '{key}': missing {what} text; {user} uses it, so every "
                                                   "language needs it; it goes next to this line"), problems
        assert not mine[0].startswith(f"data/i18n/{lang}.yaml:1:")   # beside the section's other keys


def test_words_every_language_removed_or_misfilled_stop_both_tools_without_a_traceback(scratch, tmp_path, capsys):
    for lang in LANGS:
        path = scratch / f"data/i18n/{lang}.yaml"
        text = path.read_text(encoding="utf-8")
        text = re.sub(r"^  (reading_time|not_found_title):.*\n", "", text, flags=re.M)
        text = re.sub(r"^(  stale_hint: .*?)\"?$", r'\1 {name}"', text, count=1, flags=re.M)   # a placeholder no code fills
        path.write_text(text, encoding="utf-8")
    out = refused_by_make_i18n(scratch, capsys)
    build = failed_build_output(scratch, tmp_path)
    for text in (out, build):
        assert "key 'site.reading_time': missing English text; hooks/atlas_hooks.py uses it" in text
        assert "key 'site.not_found_title': missing English text; overrides/404.html uses it" in text
        assert re.search(r"data/i18n/hi\.yaml:\d+: key 'table\.stale_hint': found placeholder \{name\}, which "
                         r"hooks/atlas/cells\.py does not fill in; allowed: \{days\}", text), text[-3000:]


def _wrappers(tree: ast.AST) -> dict[str, str]:
    """name -> key prefix of each `name = lambda key, …: ….t(lang, f"prefix.{key}", …)` (no prefix: the whole key)."""
    out = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Lambda) and isinstance(node.targets[0], ast.Name):
            arg = node.value.args.args[0].arg if node.value.args.args else None
            for call in ast.walk(node.value.body):
                if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "t" \
                        and len(call.args) >= 2:
                    key = call.args[1]
                    if isinstance(key, ast.Name) and key.id == arg:
                        out[node.targets[0].id] = ""
                    elif isinstance(key, ast.JoinedStr) and len(key.values) == 2 and isinstance(key.values[0], ast.Constant) \
                            and getattr(key.values[1].value, "id", None) == arg:
                        out[node.targets[0].id] = key.values[0].value
    return out


def keys_in_code() -> dict[str, list[tuple[str, frozenset[str] | None]]]:
    """Every word the code asks for by a literal name: key -> [(file, placeholders it fills, or
    None where the text is split at its placeholders (render.pieces) instead)]. Python is read
    with ast (`….t(lang, "x.y")` and wrappers such as `t = lambda key: atlas.t(lang, f"table.{key}")`),
    templates with Jinja's own parser (`t('shown')` with the prefix of the `t` they are given,
    `atlas_text("site.x")` in overrides/)."""
    found: dict[str, list] = {}
    prefix_of: dict[str, str] = {}
    for path in sorted((ROOT / "hooks").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        wraps = _wrappers(tree)
        split = {id(n.args[0]) for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "id", "") == "pieces"
                 and n.args}
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            names = frozenset(k.arg for k in node.keywords if k.arg) if id(node) not in split else None
            f, args = node.func, node.args
            if isinstance(f, ast.Attribute) and f.attr == "t" and len(args) >= 2 and isinstance(args[1], ast.Constant):
                found.setdefault(args[1].value, []).append((path, names))
            elif isinstance(f, ast.Name) and f.id in wraps and args and isinstance(args[0], ast.Constant):
                found.setdefault(wraps[f.id] + args[0].value, []).append((path, names))
            elif isinstance(f, ast.Name) and f.id == "render" and args and isinstance(args[0], ast.Constant):
                prefix_of.update({args[0].value: wraps[k.value.id] for k in node.keywords
                                  if k.arg == "t" and isinstance(k.value, ast.Name) and k.value.id in wraps})
    env = jinja2.Environment()
    templates = [(p, "t", prefix_of.get(p.name)) for p in sorted((ROOT / "hooks/atlas/templates").glob("*.html"))]
    templates += [(p, "atlas_text", "") for p in sorted((ROOT / "overrides").rglob("*.html"))]
    for path, func, prefix in templates:
        for call in env.parse(path.read_text(encoding="utf-8")).find_all(nodes.Call):
            if isinstance(call.node, nodes.Name) and call.node.name == func and call.args and isinstance(call.args[0], nodes.Const):
                assert prefix is not None, f"{path.name} is rendered with no known t(): teach keys_in_code its prefix"
                found.setdefault(prefix + call.args[0].value, []).append((path, frozenset(k.key for k in call.kwargs)))
    return {k: [(p.relative_to(ROOT).as_posix(), names) for p, names in v] for k, v in found.items()}


def test_the_list_of_words_the_code_uses_is_the_code_s():
    """site_words.USED_BY is written out; this reads the code and says where they part ways."""
    code, listed = keys_in_code(), used()
    assert len(code) > 100   # the reading found the code's words
    assert sorted(set(code) - set(listed)) == [], "used in the code, missing from hooks/atlas/data/site_words.py"
    assert sorted(set(listed) - set(code)) == [], "listed in hooks/atlas/data/site_words.py, no longer used"
    en = load_atlas(ROOT).words["en"]
    for key, (user, names) in listed.items():
        assert user in {file for file, _ in code[key]}, (key, user, code[key])
        filled = [n for _, n in code[key] if n]   # the calls that format the text
        fills = frozenset.intersection(*filled) if filled else frozenset()
        split = any(n is None for _, n in code[key])   # placeholders where the text is split: as English has them
        english = {name for _, name, _, _ in string.Formatter().parse(en[key]) if name}
        assert names == (fills | english if split else fills), (key, names, fills)


# --- YAML that means something other than it says ----------------------------------------------

@pytest.mark.parametrize("write", [
    lambda text: text.replace("table:\n", "table.stale: Alt\ntable:\n", 1),                      # dotted first
    lambda text: text + "table.stale: Alt\n",                                                   # dotted after
    lambda text: text.replace("reader:\n", "reader:\n  listen.play: Alt\n", 1),                 # half dotted
])
def test_a_word_spelled_both_dotted_and_nested_is_reported_at_both_lines(scratch, write):
    path = scratch / "data/i18n/en.yaml"
    path.write_text(write(path.read_text(encoding="utf-8")), encoding="utf-8")
    problems = [p for p in data_problems(scratch) if "both mean" in p]
    assert len(problems) == 2, data_problems(scratch)
    key = re.search(r"key '([\w.]+)'", problems[0]).group(1)
    lines = sorted(int(re.match(r"data/i18n/en\.yaml:(\d+):", p).group(1)) for p in problems)
    text = path.read_text(encoding="utf-8").splitlines()
    assert "Alt" in text[lines[0] - 1] or "Alt" in text[lines[1] - 1]
    assert all(f"only one would count; allowed: one of them" in p and f"both mean '{key}'" in p for p in problems)
    assert f"on line {lines[1]}" in problems[0] + problems[1] and f"on line {lines[0]}" in problems[0] + problems[1]


@pytest.mark.parametrize("file, old, new, key", [
    ("data/i18n/en.yaml", "  permalink_title: ", "  reading_time: twice\n  permalink_title: ", "reading_time"),
    ("data/providers.yaml", "    category: hyperscaler\n", "    category: hyperscaler\n    name: Other name\n", "name"),
    ("data/quizzes/storage.yaml", "    correct: [c, d]\n", "    correct: [c, d]\n    correct: [a]\n", "correct"),
    ("docs/hi/index.md", "title: ", "title: पहला\ntitle: ", "title"),
])
def test_a_key_written_twice_in_one_mapping_is_reported_at_both_lines(scratch, capsys, file, old, new, key):
    edit(scratch / file, old, new)
    lines = [n for n, s in enumerate((scratch / file).read_text(encoding="utf-8").splitlines(), 1)
             if s.strip().startswith(f"{key}:")]
    out = refused_by_make_i18n(scratch, capsys)
    pair = [lines[i:i + 2] for i in range(len(lines) - 1) if f"{file}:{lines[i]}: key '{key}' is written again on line "
            f"{lines[i + 1]}" in out]
    assert pair, out[-3000:]
    a, b = pair[0]
    assert f"{file}:{b}: key '{key}' appears twice in the same mapping (first on line {a})" in out


MERGES = [
    ("data/providers.yaml", "      kubernetes:\n        value: managed\n", "      kubernetes: &k8s\n        value: managed\n",
     "      time_slicing:\n", "      time_slicing:\n        <<: *k8s\n"),
    ("data/i18n/en.yaml", "site:\n", "base: &base\n  x: y\nsite:\n", "  language_name: ", "  <<: *base\n  language_name: "),
    ("data/fields.yaml", "fields:\n", "fields:\n", "  mig: {values: *yes_no}", "  mig: {<<: {values: *yes_no}}"),
    ("data/quizzes/storage.yaml", "  - id: survives-termination\n", "  - &q\n    id: survives-termination\n",
     "  - id: starved-gpu\n", "  - <<: [*q]\n    id: starved-gpu\n"),
]


@pytest.mark.parametrize("file, old1, new1, old2, new2", MERGES)
def test_merge_keys_are_refused_with_what_to_write_instead(scratch, file, old1, new1, old2, new2):
    path = scratch / file
    edit(path, old1, new1)
    text = path.read_text(encoding="utf-8")
    at = text.index(old2, text.index(new1) + len(new1))   # below the anchor it uses
    path.write_text(text[:at] + new2 + text[at + len(old2):], encoding="utf-8")
    line = line_of(path, "<<")
    assert f"{file}:{line}: {yamlsrc.MERGE_REFUSED}" in data_problems(scratch)
    assert "write the keys out in full, or reuse a whole value with an alias (key: *name)" in yamlsrc.MERGE_REFUSED


def test_a_quoted_merge_key_is_a_plain_key_and_merge_keys_stop_both_tools_cleanly(scratch, tmp_path, capsys):
    problems = []
    assert yamlsrc.parse('"<<": x\n', "q.yaml", problems).data == {"<<": "x"} and problems == []
    edit(scratch / "data/i18n/vi.yaml", "site:\n", "site:\n  <<: {language_name: x}\n")
    page = scratch / "docs/vi/index.md"
    edit(page, "title: ", "<<: {description: x}\ntitle: ")
    out = refused_by_make_i18n(scratch, capsys)
    assert f"data/i18n/vi.yaml:{line_of(scratch / 'data/i18n/vi.yaml', '<<')}: merge key '<<' is not supported" in out
    assert f"docs/vi/index.md:{line_of(page, '<<')}: merge key '<<' is not supported" in out
    assert "merge key '<<' is not supported" in failed_build_output(scratch, tmp_path)


# --- messages that point at the wrong place ----------------------------------------------------

@pytest.mark.parametrize("file, old, bad, shown", [
    ("data/providers.yaml", "    name: Amazon Web Services", "    name: Amazon Web\x00 Services", "U+0000 NULL at column 21"),
    ("data/providers.yaml", "    category: hyperscaler", "    category: hyper\x01scaler", "U+0001 control character at column 20"),
    ("data/i18n/hi.yaml", "  not_found_title: ", "  not_found_title: \x1b[31m", "U+001B ESCAPE at column 20"),
    ("data/quizzes/vi/storage.yaml", "title: ", "title: \x9b", "U+009B control character at column 8"),
    ("docs/hi/index.md", "title: ", "title: \x00", "U+0000 NULL at column 8"),
])
def test_a_control_character_yaml_refuses_is_reported_at_its_own_line(scratch, capsys, file, old, bad, shown):
    edit(scratch / file, old, bad)
    line = line_of(scratch / file, bad.strip()[:6])
    out = refused_by_make_i18n(scratch, capsys)
    assert f"{file}:{line}: found {shown}, a control character YAML does not allow; allowed: printable text" in out, out[-2000:]


@pytest.mark.parametrize("old, new, key_line", [
    ('"https://github.com/cloud-gpu-atlas', '"javascript:alert(1)//', "report_url:"),
    ("extra:\n  atlas:\n    report_url: ", "extra:\n  atlas:\n    report_url: &r ", "report_url:"),
    ("        - locale: hi\n", "        - locale: hi\n          extra:\n            atlas:\n              report_url: 'javascript:x'\n",
     "              report_url: 'javascript:x'"),
])
def test_a_refused_url_in_mkdocs_yml_names_its_line(scratch, old, new, key_line):
    config = scratch / "mkdocs.yml"
    edit(config, old, new)
    locale = "hi" if "locale: hi" in new else ""
    line = line_of(config, key_line, line_of(config, "- locale: hi") if locale else 1)
    assert config_lines.line(config, ("extra", "atlas", "report_url"), locale) == line
    assert config_lines.line(config, ("extra", "atlas", "nothing_here"), locale) == line - 1   # its nearest setting
    assert config_lines.line(config, ("site_url",), "vi") == line_of(config, "- locale: vi")  # vi sets none: its entry
    assert config_lines.line(tmp := config.with_name("none.yml"), ("site_url",)) == 1 and not tmp.exists()
    refused = config_lines.url_problems(config, [("x", locale, ("extra", "atlas", "report_url"), "javascript:x")])
    assert refused == [f"mkdocs.yml:{line}: x: found 'javascript:x', allowed: an http(s) URL without credentials"]


@pytest.mark.parametrize("providers", ["providers: []\n", "providers:\n", "providers: {}\n", "# nothing yet\nother: 1\n"])
def test_an_empty_provider_list_names_data_providers_yaml(scratch, providers):
    (scratch / "data/providers.yaml").write_text(providers, encoding="utf-8")
    problems = data_problems(scratch)
    mine = [p for p in problems if "key 'providers'" in p]
    line = 2 if providers.startswith("#") else 1
    assert len(mine) == 1 and mine[0].startswith(f"data/providers.yaml:{line}: key 'providers': found "), problems
    assert mine[0].endswith("allowed: a top-level 'providers:' list of one or more providers, each with id, name, "
                            "homepage, category, facts")
    assert not any("note for an unknown provider" in p for p in problems)   # not knowable without providers


@pytest.mark.parametrize("written, message", [
    ("'2026-11-30'", "verified found '2026-11-30' in quotes, which YAML reads as text; allowed: an unquoted date "
                     "(verified: 2026-11-30)"),
    ('"2026-11-30"', "verified found '2026-11-30' in quotes, which YAML reads as text; allowed: an unquoted date "
                     "(verified: 2026-11-30)"),
    ("2026-11-31", "verified found '2026-11-31', allowed: a date as YYYY-MM-DD (this is no date in the calendar)"),
    ("2026-11-30 10:00:00", "verified found a date and time '2026-11-30 10:00:00', allowed: a date as YYYY-MM-DD (the date alone)"),
    ("'2026-02-30'", "verified found '2026-02-30', allowed: a date as YYYY-MM-DD (this is no date in the calendar)"),
])
def test_a_date_that_is_not_an_unquoted_date_says_what_to_write(scratch, written, message):
    path = scratch / "data/providers.yaml"
    edit(path, "        verified: 2026-11-30\n", f"        verified: {written}\n")
    line = line_of(path, f"verified: {written}")
    assert f"data/providers.yaml:{line}: provider 'aws', field 'kubernetes': {message}" in data_problems(scratch)


@pytest.mark.parametrize("make", [
    lambda docs: (docs / "en/guides/folder.md").mkdir(),
    lambda docs: ((docs / "hi/guides/storage.md").unlink(), (docs / "hi/guides/storage.md").mkdir()),
    lambda docs: ((docs / "vi/guides/notes.MD").mkdir(), (docs / "vi/guides/notes.MD/a.md").write_text("# a\n")),
])
def test_a_folder_named_like_a_page_is_explained(scratch, capsys, make):
    make(scratch / "docs")
    out = refused_by_make_i18n(scratch, capsys)
    m = re.search(r"error: (docs/\w+/guides/(\w+)\.(?:md|MD)):1: is a folder named like a page \(its name ends in \.md\): "
                  r"MkDocs builds a page only from a file, so no page is built here; allowed: a Markdown file named "
                  r"(\w+)\.md, or a folder named without \.md \(such as (\w+)/\)", out)
    assert m and m.group(2) == m.group(3) == m.group(4), out[-2000:]


def test_a_folder_named_like_a_page_stops_the_build_before_anything_is_written(scratch, tmp_path):
    (scratch / "docs/hi/guides/storage.md").unlink()
    (scratch / "docs/hi/guides/storage.md").mkdir()
    out = failed_build_output(scratch, tmp_path)
    assert "docs/hi/guides/storage.md:1: is a folder named like a page" in out and not (tmp_path / "site").exists()


@pytest.mark.parametrize("old, new, found", [
    ("    options: [a, b, c, d]\n    correct: [c, d]", "    options: [1, 2, 3, 4]\n    correct: [3, 4]", "options item 1: found int 1"),
    ("    options: [a, b, c, d]\n    correct: [b]", "    options: [a, b, c, 4]\n    correct: [b]", "options item 4: found int 4"),
    ("    options: [a, b, c, d]\n    correct: [b]", "    options: [a, b, c, d]\n    correct: [2.5]", "correct item 1: found float 2.5"),
    ("    options: [a, b, c, d]\n    correct: [b]", "    options: [yes, no, c, d]\n    correct: [c]", "options item 1: found bool True"),
])
def test_option_ids_yaml_reads_as_numbers_are_refused_as_not_text(scratch, old, new, found):
    path = scratch / "data/quizzes/storage.yaml"
    edit(path, old, new)
    line = line_of(path, new.split("\n")[0 if found.startswith("options") else 1].strip())
    question = "survives-termination" if "[c, d]" in old else "starved-gpu"
    problems = data_problems(scratch)
    assert [p for p in problems if "data/quizzes/storage.yaml" in p or "extra question" in p] == [
        f"data/quizzes/storage.yaml:{line}: quiz 'storage', question '{question}': {found}, but option ids are text; "
        "allowed: ids such as a, b, c (YAML reads 1, 2.5, yes and no as numbers and true/false: quote such an id, "
        "as '1' or 'yes')"], problems


def test_an_option_id_written_as_a_number_in_a_quiz_text_is_refused_as_not_text(scratch):
    edit(scratch / "data/quizzes/storage.yaml", "    options: [a, b, c, d]\n    correct: [c, d]",
         "    options: ['1', b, c, d]\n    correct: [c, d]")
    path = scratch / "data/quizzes/hi/storage.yaml"
    text = path.read_text(encoding="utf-8")
    at = text.index("      a: ")
    path.write_text(text[:at] + "      1: " + text[at + len("      a: "):], encoding="utf-8")
    problems = "\n".join(data_problems(scratch))
    assert (f"data/quizzes/hi/storage.yaml:{line_of(path, '      1: ')}: quiz 'storage', question 'survives-termination', "
            "options 1: found int 1 as an option id, but option ids are text; allowed: 1, b, c, d") in problems


# --- a page that lost its body -------------------------------------------------------------------

def front_matter_only(path: Path, after: str = "") -> None:
    text = path.read_text(encoding="utf-8")
    path.write_text(re.match(r"---\n.*?\n---\n", text, re.S).group(0) + after, encoding="utf-8")


@pytest.mark.parametrize("page, after", [("docs/hi/compare/all.md", ""), ("docs/hi/index.md", "\n\n   \n"),
                                         ("docs/vi/guides/storage.md", "\n")])
def test_a_translation_reduced_to_its_front_matter_is_one_located_message(scratch, capsys, page, after):
    path = scratch / page
    front_matter_only(path, after)
    english = (scratch / page.replace("/hi/", "/en/").replace("/vi/", "/en/")).read_text(encoding="utf-8")
    problems = structure.lost(english, path.read_text(encoding="utf-8"))
    assert len(problems) == 1 and problems[0][0] == len(path.read_text(encoding="utf-8").splitlines())
    assert problems[0][1].startswith("the page has no text after its front matter, English has ")
    out = refused_by_make_i18n(scratch, capsys)
    mine = [line for line in out.splitlines() if line.startswith(f"error: {page}:")]
    assert mine == [f"error: {page}:{problems[0][0]}: {problems[0][1]}"], mine


def test_the_build_refuses_a_translation_that_lost_its_body_or_a_marker(scratch, tmp_path):
    front_matter_only(scratch / "docs/hi/guides/storage.md")
    table = scratch / "docs/hi/compare/all.md"
    edit(table, "<!-- providers:matrix -->\n", "")
    quiz = scratch / "docs/vi/guides/gpu-sharing.md"
    marker = re.search(r"^<!-- quiz:[\w-]+ -->$", quiz.read_text(encoding="utf-8"), re.M).group(0)
    edit(quiz, marker + "\n", "<!-- quiz:storage -->\n")   # another page's quiz in its place
    out = failed_build_output(scratch, tmp_path)
    assert "Translations that lost what the English page has:" in out
    n = len((scratch / "docs/hi/guides/storage.md").read_text(encoding="utf-8").splitlines())
    assert f"docs/hi/guides/storage.md:{n}: the page has no text after its front matter" in out
    en_line = line_of(scratch / "docs/en/compare/all.md", "<!-- providers:matrix -->")
    assert re.search(rf"docs/hi/compare/all\.md:\d+: markers differ from English: '<!-- providers:matrix -->' "
                     rf"\(line {en_line} of the English page\) is missing", out), out[-2000:]
    assert (f"docs/vi/guides/gpu-sharing.md:{line_of(quiz, '<!-- quiz:storage -->')}: markers differ from English: "
            f"'<!-- quiz:storage -->' here, English has '{marker}'") in out
    assert not (tmp_path / "site").exists()


def test_a_translation_that_lost_its_body_stops_a_one_language_build_too(scratch, tmp_path):
    front_matter_only(scratch / "docs/hi/index.md")
    front_matter_only(scratch / "docs/vi/index.md")   # not built with LANG=hi: not this build's business
    result = mkdocs_build(scratch, tmp_path / "site", only="hi")
    out = result.stdout + result.stderr
    assert result.returncode != 0 and "Traceback" not in out
    assert "docs/hi/index.md:" in out and "docs/vi/index.md" not in out
