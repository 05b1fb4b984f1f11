"""Hostile contributions and broken inputs (issue 10): one regression test per family, in
both tools where it applies. Every test asserts a located message and no traceback.

Families: script reaches readers · memory and time · tracebacks · silently ignored
mistakes · vague messages · half-written site. Property-based tests: test_properties.py.
"""
from __future__ import annotations

import datetime as dt
import os
import re
import resource
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from atlas import i18n_check, markers, sanitize, yamlsrc
from atlas.data import load_atlas
from atlas.problems import DataError
from conftest import BIN, ROOT, mkdocs_build

TODAY = dt.date(2026, 12, 1)


def i18n(root: Path, capsys) -> tuple[int, str]:
    """`make i18n` on `root`, in process: its exit status and output."""
    status = i18n_check.main(["--root", str(root)])
    out = capsys.readouterr()
    return status, out.out + out.err


def data_problems(root: Path) -> list[str]:
    with pytest.raises(DataError) as info:
        load_atlas(root, today=TODAY)
    return [str(p) for p in info.value.problems]


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


# --- script reaches readers ----------------------------------------------------------------

def test_front_matter_markup_is_rejected_and_plain_text_is_escaped_for_the_theme(scratch, capsys):
    page = scratch / "docs/hi/guides/storage.md"
    body = re.sub(r"\A---\n.*?\n---\n", "", page.read_text(encoding="utf-8"), count=1, flags=re.S)   # front matter made here
    page.write_text("---\ntitle: '</title><script>alert(1)</script>'\ndescription: 'x&quot; onload=&#34;alert(1)'\n"
                    "template: evil.html\n---\n" + body, encoding="utf-8")
    status, out = i18n(scratch, capsys)
    assert status == 1 and "Traceback" not in out
    assert "docs/hi/guides/storage.md:2: front matter key 'title': found markup '<'" in out
    assert "docs/hi/guides/storage.md:3: front matter key 'description': found markup '&quot;'" in out
    assert "front matter key 'template': unknown key, allowed: title, description, source_hash" in out

    # Plain text that the theme would print unescaped is escaped by the hook at the source.
    import atlas_hooks
    src = ROOT / "docs/en/guides/storage.md"
    page = SimpleNamespace(meta={"title": 'Spot & "billing"', "description": "it's <fine>"},
                           title="t", url="guides/storage.html",
                           file=SimpleNamespace(abs_src_path=str(src), src_uri="en/guides/storage.md"))
    config = SimpleNamespace(plugins={}, theme={"language": "en"}, extra={"atlas": {"report_url": "https://x.example/"}})
    atlas_hooks.on_page_markdown("# T\n", page=page, config=config, files=None)
    assert page.meta["title"] == "Spot &amp; &#34;billing&#34;"
    assert page.meta["description"] == "it&#39;s &lt;fine&gt;"


HOSTILE_PAGE = """\
---
title: Safe title
---
# Safe title { #top }

<script>alert(1)</script>

<a href="javascript:alert(2)">x</a>

[click](javascript:alert(3))

## Heading { onclick="alert(4)" }

<img src="https://tracker.example/p.png">

<a href="&#106;ava&#x09;script:alert(5)">entity</a>

<div style="background: url(https://x.example/a)">y</div>

[creds](https://docs.example.com@evil.example/)

<iframe src="x.html"></iframe>

`<script>` in code is text, and so is [this](https://fine.example/)
"""


def test_raw_html_and_links_outside_the_allowlist_are_located():
    found = [str(p) for p in sanitize.page_problems(HOSTILE_PAGE, "docs/hi/x.md")]
    text = "\n".join(found)
    assert "docs/hi/x.md:6: element <script> is not allowed" in text
    assert "docs/hi/x.md:8: <a> link to 'javascript:alert(2)'" in text
    assert "docs/hi/x.md:10: <a> link to 'javascript:alert(3)'" in text
    assert "docs/hi/x.md:12: attribute onclick= on <h2> is not allowed" in text
    assert "docs/hi/x.md:14: <img> src='https://tracker.example/p.png' loads from another host" in text
    assert "docs/hi/x.md:16: <a> link to 'java\\tscript:alert(5)'" in text
    assert "docs/hi/x.md:18: style='background: url(https://x.example/a)'" in text
    assert "docs/hi/x.md:20: <a> link to 'https://docs.example.com@evil.example/' is not a plain http(s) URL" in text
    assert "docs/hi/x.md:22: element <iframe> is not allowed" in text
    assert not any(":24:" in line for line in found), found
    assert sanitize.page_problems((ROOT / "docs/en/guides/storage.md").read_text(encoding="utf-8"), "x") == []


def test_script_in_a_translated_page_stops_the_build_and_names_the_line(scratch, tmp_path):
    page = scratch / "docs/hi/glossary.md"
    page.write_text(page.read_text(encoding="utf-8") + "\n[x](javascript:alert(1))\n", encoding="utf-8")
    n = len(page.read_text(encoding="utf-8").splitlines())
    result = mkdocs_build(scratch, tmp_path / "site")
    out = result.stdout + result.stderr
    assert result.returncode != 0 and "Traceback" not in out
    assert f"docs/hi/glossary.md:{n}: <a> link to 'javascript:alert(1)'" in out


def test_unknown_fact_is_still_checked_for_urls_and_dates(scratch):
    path = scratch / "data/providers.yaml"
    field = re.search(r"^      (\w+): unknown$", path.read_text(encoding="utf-8"), re.M).group(1)   # any unknown fact
    edit(path, f"      {field}: unknown\n", f"      {field}:\n        value: unknown\n        sources: [\"javascript:alert(1)\"]\n"
                                           "        verified: 2099-01-01\n")
    edit(path, "https://", "https://docs.example.com@evil.example/?", )
    problems = "\n".join(data_problems(scratch))
    assert "source found 'javascript:alert(1)', allowed: an http:// or https:// URL" in problems
    assert "verified found 2099-01-01, allowed: a date no later than today (2026-12-01)" in problems
    assert "https://docs.example.com@evil.example/?" in problems


def test_report_url_and_symlinks_out_of_the_tree_are_refused_by_the_build(scratch, tmp_path):
    def refused(old: str, new: str, message: str) -> None:   # mkdocs.yml edited, built, put back
        edit(scratch / "mkdocs.yml", old, new)
        out = failed_build_output(scratch, tmp_path)
        assert message in out, out[-2000:]
        edit(scratch / "mkdocs.yml", new, old)

    line = lambda text: next(n for n, s in enumerate((scratch / "mkdocs.yml").read_text().splitlines(), 1) if text in s)  # noqa: E731
    refused('"https://github.com/cloud-gpu-atlas', '"javascript://github.com/cloud-gpu-atlas',
            f"mkdocs.yml:{line('report_url:')}: extra.atlas.report_url: found 'javascript://github.com/")
    # a language's own `extra` replaces the site's while that language builds: checked too
    vi = line("- locale: vi")
    refused("        - locale: vi\n", "        - locale: vi\n          extra: {atlas: {report_url: 'javascript:alert(1)'}}\n",
            f"mkdocs.yml:{vi + 1}: plugins.i18n.languages (vi): extra.atlas.report_url: found 'javascript:alert(1)'")
    assert (f"mkdocs.yml:{line('site_url:')}: site_url (mkdocs.yml or ATLAS_SITE_URL): found 'https://user:secret@evil.example/'"
            in failed_build_output(scratch, tmp_path, site_url="https://user:secret@evil.example/"))
    # and so does a language's own site_url, which its canonical and alternate links are made from
    refused("        - locale: vi\n", "        - locale: vi\n          site_url: 'https://user:secret@evil.example/'\n",
            f"mkdocs.yml:{vi + 1}: plugins.i18n.languages (vi): site_url: found 'https://user:secret@evil.example/'")
    secret = tmp_path / "secret.md"
    secret.write_text("---\ntitle: secret\n---\n# outside\n", encoding="utf-8")
    (scratch / "docs/hi/leak.md").symlink_to(secret)
    assert f"docs/hi/leak.md:1: points outside the repository (to {secret})" in failed_build_output(scratch, tmp_path)
    assert not (tmp_path / "site").exists()   # the build stopped before writing anything


def failed_build_output(scratch: Path, tmp_path: Path, **build) -> str:
    """What a build of `scratch` printed; it must have failed, without a traceback."""
    result = mkdocs_build(scratch, tmp_path / "site", **build)
    out = result.stdout + result.stderr
    assert result.returncode != 0 and "Traceback" not in out, out[-2000:]
    return out


TWO_BUILDS = """
import logging, os, shutil, sys
from mkdocs.commands.build import build
from mkdocs.config import load_config
logging.basicConfig(level=logging.ERROR, format="%(message)s")
root, outside, site = sys.argv[1:4]
build(load_config(os.path.join(root, "mkdocs.yml"), site_dir=site, strict=True))
print("BUILT")
what = sys.argv[4]                                          # between two builds of one `make serve`,
shutil.move(os.path.join(root, what), outside)              # data/ or a file in it becomes a link
os.symlink(outside, os.path.join(root, what))               # out of the repository
try:
    build(load_config(os.path.join(root, "mkdocs.yml"), site_dir=site, strict=True))
except Exception as exc:
    print("REFUSED", exc)
"""


@pytest.mark.parametrize("what, refused", [("data", r"data/\w+\.yaml"), ("data/providers.yaml", r"data/providers\.yaml")])
def test_data_that_becomes_a_symlink_out_of_the_tree_is_refused_by_the_next_build_of_one_process(scratch, tmp_path, what, refused):
    """Folders' real locations are remembered within a build only (files.forget), and validated
    data only while each file is the same file (cache.atlas_for): the second build of one
    process (as under `make serve`) reads data/ again and refuses it, even a moved file with the
    time it had."""
    result = subprocess.run([sys.executable, "-c", TWO_BUILDS, str(scratch), str(tmp_path / "elsewhere"), str(tmp_path / "site"), what],
                            capture_output=True, text=True, timeout=300, cwd=scratch,
                            env={**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(scratch / "hooks")})
    out = result.stdout + result.stderr
    assert "BUILT" in out and "REFUSED" in out, out[-2000:]
    assert re.search(refused + r":1: points outside the repository", out), out[-2000:]


# --- memory and time -------------------------------------------------------------------------

BOMB = "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
    f"{b}: &{b} [*{a}, *{a}, *{a}, *{a}, *{a}, *{a}, *{a}, *{a}, *{a}]\n" for a, b in zip("abcdefgh", "bcdefghi"))


def test_bombs_endless_files_and_huge_format_specs_fail_fast_in_bounded_memory(scratch):
    (scratch / "data/quizzes/storage.yaml").write_text(BOMB, encoding="utf-8")
    (scratch / "data/keep-terms.yaml").unlink()
    (scratch / "data/keep-terms.yaml").symlink_to("/dev/zero")
    (scratch / "docs/hi/.notes.md").symlink_to("/dev/zero")   # a dotfile is never built, so never read
    edit(scratch / "data/i18n/hi.yaml", "{minutes}", "{minutes:>100000000}")
    page = scratch / "docs/vi/index.md"
    page.write_text(page.read_text(encoding="utf-8").replace("---\n", "---\nx:\n  " + BOMB.replace("\n", "\n  ")[:-2], 1),
                    encoding="utf-8")
    limit = 500 * 1024 * 1024
    result = subprocess.run(
        [sys.executable, "-m", "atlas.i18n_check", "--root", str(scratch)], capture_output=True, text=True,
        timeout=30, env={**os.environ, "PYTHONPATH": str(ROOT / "hooks")},
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (limit, limit)))
    out = result.stdout + result.stderr
    assert result.returncode == 1 and "Traceback" not in out, out
    assert "data/quizzes/storage.yaml:2: more than 100 alias uses" in out
    assert "data/keep-terms.yaml:1: points outside the repository (to /dev/zero)" in out
    assert "data/i18n/hi.yaml:" in out and "found placeholder '{minutes:>100000000}'; allowed: one of" in out
    assert "docs/vi/index.md:4: more than 100 alias uses" in out


def test_a_file_is_where_its_folder_really_is_until_the_folder_moves(tmp_path):
    """files.real_file answers as os.path.realpath does (symlinked folders and files, '..',
    missing files), from the folder's real place remembered for the build; a folder turned
    into a symlink to outside the repository is caught at the next build (files.forget)."""
    from atlas import files
    (tmp_path / "repo/docs/hi").mkdir(parents=True)
    (tmp_path / "repo/docs/hi/a.md").write_text("x", encoding="utf-8")
    (tmp_path / "repo/docs/hi/b.md").symlink_to(tmp_path / "repo/docs/hi/a.md")
    (tmp_path / "repo/docs/vi").symlink_to(tmp_path / "repo/docs/hi")
    (tmp_path / "repo/docs/en").symlink_to(tmp_path / "repo/docs/hi/deeper", target_is_directory=True)
    (tmp_path / "repo/docs/hi/deeper").mkdir()
    for p in ["docs/hi/a.md", "docs/hi/b.md", "docs/vi/a.md", "docs/vi/../hi/a.md", "docs/vi/none.md", "docs/vi", "docs/vi/",
              "docs/en/../a.md", "docs/./hi/a.md", "docs/hi/.", "docs/hi/..", "docs/vi/.", "docs/vi/./a.md"]:
        assert files.real_file(f"{tmp_path}/repo/{p}") == os.path.realpath(f"{tmp_path}/repo/{p}"), p
    files.forget()
    files.check_inside(tmp_path / "repo/docs/vi/a.md", tmp_path / "repo")
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside/a.md").write_text("x", encoding="utf-8")
    (tmp_path / "repo/docs/vi").unlink()
    (tmp_path / "repo/docs/vi").symlink_to(tmp_path / "outside")
    files.forget()
    with pytest.raises(files.FileProblem, match="points outside the repository"):
        files.check_inside(tmp_path / "repo/docs/vi/a.md", tmp_path / "repo")


def test_make_i18n_run_twice_in_one_process_sees_a_folder_that_became_a_symlink_out(scratch, tmp_path, capsys):
    status, _ = i18n(scratch, capsys)
    assert status == 0
    shutil.move(scratch / "data/i18n", tmp_path / "i18n")   # the words files' folder, linked back from outside
    (scratch / "data/i18n").symlink_to(tmp_path / "i18n", target_is_directory=True)
    status, out = i18n(scratch, capsys)
    assert status == 1 and "data/i18n/en.yaml:1: points outside the repository" in out, out[-2000:]


def test_a_file_is_read_whole_within_its_limit_even_if_it_grows_after_stat(tmp_path, monkeypatch):
    from atlas import files
    page = tmp_path / "page.md"
    page.write_bytes("---\ntitle: x\n---\r\n# शब्द\n".encode() + b"a" * 5000)
    assert files.read_text(page, tmp_path) == "---\ntitle: x\n---\n# शब्द\n" + "a" * 5000
    with pytest.raises(files.FileProblem, match="is 5,033 bytes, allowed: at most 100"):
        files.read_text(page, tmp_path, limit=100)
    real_stat = os.stat   # stat saw the file before a writer appended to it: the rest is read too,
    monkeypatch.setattr(files.os, "stat", lambda p, **kw: SimpleNamespace(   # and still held to the limit
        st_mode=real_stat(p).st_mode, st_size=10) if p == page else real_stat(p, **kw))
    assert files.read_text(page, tmp_path).endswith("a" * 5000)
    with pytest.raises(files.FileProblem, match="is more than 1,000 bytes, allowed: at most 1,000"):
        files.read_text(page, tmp_path, limit=1000)


@pytest.mark.parametrize("text, line", [
    ("a: " + "[" * 60 + "]" * 60 + "\n", 1),                                         # flow
    ("a: " + "[" * 100_000 + "]" * 100_000 + "\n", 1),                               # deep enough to exhaust a stack
    ("".join(" " * i + f"k{i}:\n" for i in range(60)) + " " * 60 + "v: 1\n", 51),     # block mappings
    ("a:\n" + "".join("  " * i + "-\n" for i in range(60)) + "  " * 60 + "- x\n", 51),  # block sequences
    ("a:\n" + "- " * 60 + "x\n", 2),                                                # compact sequences
])
def test_deep_nesting_is_refused_with_its_line(text, line):
    """libyaml composes recursively in C: nesting is bounded (MAX_DEPTH) before it composes."""
    from atlas import yamlsrc
    problems = []
    assert yamlsrc.parse(text, "deep.yaml", problems) is None
    assert len(problems) == 1 and problems[0].line == line, problems
    assert "nested more than 50 levels deep" in str(problems[0]) or "maximum nesting depth" in str(problems[0])


def test_a_comment_in_a_page_cannot_pose_as_one_of_our_slots(scratch, tmp_path):
    """Reading time, listen controls, tables and quizzes go into slot comments after Markdown;
    a contributor's comment spelled like one (here above the H1) must not pull them there."""
    page = scratch / "docs/hi/guides/storage.md"
    text = page.read_text(encoding="utf-8")
    h1 = text.index("\n# ")
    lookalikes = "\n\n<!-- atlas-top -->\n\n<!-- reader-listen -->\n\n<!-- atlas-slot 0 -->\n\n<!-- atlas-slot 1 -->\n"
    page.write_text(text[:h1] + lookalikes + text[h1:], encoding="utf-8")
    result = mkdocs_build(scratch, tmp_path / "site")
    assert result.returncode == 0, result.stderr
    html = (tmp_path / "site/hi/guides/storage.html").read_text(encoding="utf-8")
    article = html[html.index("<article"):]
    h1_at = article.index("<h1")
    for ours in ('class="atlas-reading-time"', "data-atlas-listen", 'class="atlas-table__scroll"', "data-atlas-quiz"):
        assert h1_at < article.index(ours), ours


# --- tracebacks ------------------------------------------------------------------------------

def test_every_file_problem_is_one_clean_line_in_both_tools(scratch, tmp_path, capsys):
    (scratch / "data/quizzes/hi/storage.yaml").unlink()
    (scratch / "data/quizzes/hi/storage.yaml").mkdir()
    (scratch / "data/quizzes/vi/storage.yaml").unlink()
    (scratch / "data/quizzes/vi/storage.yaml").symlink_to(scratch / "nowhere.yaml")
    (scratch / "docs/hi/glossary.md").write_bytes("---\ntitle: x\n---\n\n# शब्द\n".encode() + b"\xff\xfe bad\n")
    edit(scratch / "data/fields.yaml", "managed: 0", "managed: first")
    edit(scratch / "data/fields.yaml", "  sharing: [time_slicing, mig, mps]\n", "")
    edit(scratch / "data/fields.yaml", "groups:\n", "groups:\n  - kubernetes\nold_groups:\n")
    (scratch / "data/keep-terms.yaml").write_text("terms: [unclosed\n", encoding="utf-8")
    fields_lines = (scratch / "data/fields.yaml").read_text(encoding="utf-8").splitlines()
    line_of = lambda text: next(n for n, line in enumerate(fields_lines, 1)  # noqa: E731
                                if (line == text if text.endswith(":") else text in line))
    status, out = i18n(scratch, capsys)
    assert status == 1 and "Traceback" not in out
    for needle in ("data/quizzes/hi/storage.yaml:1: is a directory, expected a file",
                   "data/quizzes/vi/storage.yaml:1: is a dangling symlink",
                   "docs/hi/glossary.md:6: not valid UTF-8",
                   f"data/fields.yaml:{line_of('managed: first')}: field 'kubernetes', value 'managed': rank found 'first', allowed: a number from 0 to 3",
                   f"data/fields.yaml:{line_of('groups:') + 1}: key 'groups': found list",   # the line of its value
                   "key 'old_groups': unknown key, allowed: value_sets, fields, groups, categories, quiz",
                   "data/keep-terms.yaml:2: malformed YAML"):
        assert needle in out, (needle, out)
    (scratch / "data/keep-terms.yaml").unlink()
    status, out = i18n(scratch, capsys)
    assert "data/keep-terms.yaml:1: file is missing" in out and "Traceback" not in out
    result = mkdocs_build(scratch, tmp_path / "site")
    out = result.stdout + result.stderr
    assert result.returncode != 0 and "Traceback" not in out
    assert "data/quizzes/hi/storage.yaml:1: is a directory" in out


# --- silently ignored mistakes, vague messages ----------------------------------------------

def test_unknown_keys_in_every_data_file_kind_list_the_allowed_keys(scratch):
    import yaml
    quiz = scratch / "data/quizzes/storage.yaml"
    lines = quiz.read_text(encoding="utf-8").split("\n")
    at = next(n for n, line in enumerate(lines) if line.startswith("    correct:"))   # the first question's
    question = yaml.safe_load(quiz.read_text(encoding="utf-8"))["questions"][0]["id"]
    quiz.write_text("\n".join(lines[:at + 1] + ["    multipel: true"] + lines[at + 1:]), encoding="utf-8")
    edit(scratch / "data/quizzes/en/storage.yaml", "title: ", "titel: x\ntitle: ")
    edit(scratch / "data/quizzes/vi/storage.yaml", "    explanation: ", "    explaination: x\n    explanation: ")
    edit(scratch / "data/fields.yaml", "  mig: {values: *yes_no}", "  mig: {values: *yes_no, rank: 2}")
    edit(scratch / "data/providers.yaml", "providers:", "providerz: []\nproviders:")
    problems = "\n".join(data_problems(scratch))
    assert f"data/quizzes/storage.yaml:{at + 2}: quiz 'storage', question '{question}', key 'multipel': unknown key, " \
           "allowed: id, options, correct, multiple" in problems
    assert "data/quizzes/en/storage.yaml:1: quiz 'storage', key 'titel': unknown key, allowed: title, questions" in problems
    assert "key 'explaination': unknown key, allowed: question, explanation, options, feedback" in problems
    assert "field 'mig', key 'rank': unknown key, allowed: values" in problems
    assert "data/providers.yaml:5: key 'providerz': unknown key, allowed: providers" in problems


def test_markers_near_misses_code_and_duplicates():
    atlas = load_atlas(ROOT)
    ctx = markers.Context(atlas, "en", TODAY, "https://x.example/")
    md = "\n".join([
        "<!-- provider:table feature=storage -->",             # 1 near miss
        "<!-- quizz:storage -->",                              # 2 near miss
        "Inline `<!-- quiz:storage -->` is text.",             # 3
        "",
        "    <!-- quiz:storage -->",                           # 5 indented code
        "",
        "````markdown",
        "```",
        "<!-- quiz:storage -->",                               # 9 inside a nested fence
        "```",
        "````",
        "<!-- quiz:storage -->",                               # 12 the real one
        "<!-- quiz:storage -->",                               # 13 twice on a page
        "<!-- just a note: for editors -->",                   # 14 not ours: left alone
        "<!-- Quiz:storage -->",                               # 15 looks like ours
    ])
    out, errors, slots = markers.replace(md, ctx)
    assert len(slots) == 1 and out.count("atlas-slot") == 1, errors
    assert "Inline `<!-- quiz:storage -->` is text." in out and "    <!-- quiz:storage -->" in out
    assert "<!-- quiz:storage -->\n```" in out
    assert [e.split(":")[0] for e in errors] == ["line 1", "line 2", "line 15", "line 13"], errors
    assert "not understood" in errors[0] and "already on line 12 of this page" in errors[3]


def test_make_i18n_names_pages_folders_and_broken_front_matter(scratch, capsys):
    page = scratch / "docs/vi/guides/storage.md"
    edit(page, "<!-- quiz:storage -->", "<!-- provider:table feature=storage -->")
    hi = scratch / "docs/hi/glossary.md"
    hi.write_text(hi.read_text(encoding="utf-8").replace("title: ", "title: [unclosed ", 1), encoding="utf-8")
    (scratch / "docs/fr").mkdir()
    status, out = i18n(scratch, capsys)
    assert status == 1 and "Traceback" not in out
    assert "docs/fr:1: not a language folder; allowed in docs/: en/, hi/, vi/" in out
    assert "docs/hi/glossary.md:3: malformed YAML" in out
    (scratch / "docs/fr").rmdir()
    status, out = i18n(scratch, capsys)
    line = next(n for n, s in enumerate(page.read_text(encoding="utf-8").splitlines(), 1) if "provider:table" in s)
    assert f"docs/vi/guides/storage.md:{line}: marker '<!-- provider:table feature=storage -->' is not understood" in out
    for path in (scratch / "data/quizzes").rglob("*"):
        if path.is_file():
            path.unlink()
    for path in sorted((scratch / "data/quizzes").rglob("*"), reverse=True):
        path.rmdir()
    (scratch / "data/quizzes").rmdir()
    assert any(p.startswith("data/quizzes:1: folder is missing") for p in data_problems(scratch))


# --- half-written site ------------------------------------------------------------------------

def test_a_failed_build_leaves_no_new_site(scratch, tmp_path):
    page = scratch / "docs/hi/glossary.md"   # English is written by then; Vietnamese is not
    page.write_text(page.read_text(encoding="utf-8") + "\n[broken](no-such-page.md)\n", encoding="utf-8")
    target = tmp_path / "out" / "site"
    target.mkdir(parents=True)
    (target / "old.txt").write_text("the previous site", encoding="utf-8")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(scratch / "hooks")}
    result = subprocess.run([str(BIN / "python"), str(ROOT / "scripts/build_site.py"), str(target), "--",
                             "--config-file", str(scratch / "mkdocs.yml")],
                            cwd=scratch, env=env, capture_output=True, text=True, timeout=300)
    out = result.stdout + result.stderr
    assert result.returncode != 0 and "no-such-page.md" in out and "was left as it was" in out
    assert sorted(p.name for p in target.iterdir()) == ["old.txt"]
    assert sorted(p.name for p in target.parent.iterdir()) == ["site"]   # no half site beside it


def test_a_marker_markdown_keeps_as_a_comment_is_an_error_not_silence():
    page = ("---\ntitle: t\n---\n# शीर्षक\n\n- item\n\n    <!-- quiz:storage -->\n\n## बिना आईडी वाला शीर्षक\n\n"
            "<!-- quiz:storage -->\n")
    found = [str(p) for p in sanitize.page_problems(page, "docs/hi/x.md")]
    assert len(found) == 1 and found[0].startswith("docs/hi/x.md:8: comment <!-- quiz:storage --> reads as a marker "
                                                   "but was not expanded"), found


def test_files_that_would_be_published_verbatim_are_refused(scratch, capsys):
    (scratch / "docs/hi/evil.html").write_text("<script>alert(1)</script>", encoding="utf-8")
    (scratch / "docs/vi/guides/logo.svg").write_text("<svg onload=alert(1)/>", encoding="utf-8")
    (scratch / "docs/vi/guides/diagram.png").write_bytes(b"\x89PNG\r\n")
    status, out = i18n(scratch, capsys)
    assert status == 1 and "docs/hi/evil.html:1: MkDocs would publish this file as it is" in out
    assert "docs/vi/guides/logo.svg:1:" in out and "diagram.png" not in out
