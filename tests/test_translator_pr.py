"""A translator's pull request (issue 27): problems as annotations on the lines of the diff, a
fast first CI job, `make i18n-diff` for an outdated page, one list of languages (mkdocs.yml),
and `make new-language` adding a fourth language that builds strictly."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from atlas import languages, problems, search_split
from conftest import LANGS, ROOT, TRANSLATIONS, copy_repo, mkdocs_build
from test_glossary import _add_avoided as add_avoided

GIT_ENV = {"GIT_AUTHOR_NAME": "Translator", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "Translator",
           "GIT_COMMITTER_EMAIL": "t@example.org", "GIT_CONFIG_NOSYSTEM": "1"}


def make_repo(dest: Path) -> Path:
    """A scratch copy that `make` runs in: what a build reads, plus the Makefile, scripts and
    CODEOWNERS, with the repository's own virtual environment (requirements keep their times, so
    make installs nothing)."""
    copy_repo(dest)
    for name in ("Makefile", "requirements.txt", "requirements-test.txt", "CODEOWNERS"):
        shutil.copy2(ROOT / name, dest / name)
    shutil.copytree(ROOT / "scripts", dest / "scripts", ignore=shutil.ignore_patterns("__pycache__"))
    (dest / ".venv").symlink_to(ROOT / ".venv", target_is_directory=True)
    return dest


def make(root: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items()
             if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "GITHUB_ACTIONS", "GITHUB_STEP_SUMMARY", "GITHUB_BASE_REF")}
    return subprocess.run(["make", "--no-print-directory", *args], cwd=root, env={**clean, **GIT_ENV, **env},
                          capture_output=True, text=True, timeout=300)


def git(root: Path, *args: str) -> str:
    result = subprocess.run(["git", *args], cwd=root, env={**os.environ, **GIT_ENV}, capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout


def git_repo(root: Path) -> Path:
    git(root, "init", "-q", "-b", "main", ".")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "the site")
    return root


@pytest.fixture
def repo(tmp_path) -> Path:
    return make_repo(tmp_path / "repo")


# --- 1. problems on the lines of the diff ---------------------------------------------------------

def test_make_i18n_in_github_actions_annotates_each_problem_on_its_line(repo, tmp_path):
    add_avoided(repo, "hi", "तंबू-शब्द")
    page = repo / "docs/hi/guides/storage.md"
    lines = page.read_text(encoding="utf-8").splitlines()
    page.write_text("\n".join(lines) + "\n\nयहाँ तंबू-शब्दों वाला वाक्य है।\n", encoding="utf-8")
    seeded = len(lines) + 2
    vi = repo / "data/i18n/vi.yaml"
    vi.write_text(re.sub(r"(?m)^  stale: .*\n", "", vi.read_text(encoding="utf-8"), count=1), encoding="utf-8")
    summary = tmp_path / "summary.md"

    result = make(repo, "i18n", GITHUB_ACTIONS="true", GITHUB_STEP_SUMMARY=str(summary))
    assert result.returncode != 0, result.stdout
    plain = f"docs/hi/guides/storage.md:{seeded}: avoided term 'तंबू-शब्द' in a hi text; use "
    assert plain in result.stdout, result.stdout
    words = re.search(rf"^error: docs/hi/guides/storage.md:{seeded}: (.*)$", result.stdout, re.M)[1]
    assert (f"::error file=docs/hi/guides/storage.md,line={seeded},title=avoided term::{words}"
            in result.stdout.splitlines()), result.stdout
    line, words = re.search(r"^error: data/i18n/vi.yaml:(\d+): (key 'table.stale': missing vi text.*)$", result.stdout, re.M).groups()
    assert f"::error file=data/i18n/vi.yaml,line={line},title=missing key::{words}" in result.stdout.splitlines()
    # The job summary: the status table (no base branch to compare with: every language).
    text = summary.read_text(encoding="utf-8")
    assert "| language | pages | translated |" in text
    pages = len(list((ROOT / "docs" / "en").rglob("*.md")))
    assert re.search(rf"^\| hi \| {pages} \| {pages} \| 0 \| 0 \| 0 \| 1 \|$", text, re.M), text
    assert re.search(r"^\| vi \|", text, re.M) and re.search(r"^\| en \|", text, re.M)

    outside = make(repo, "i18n")   # outside Actions: the output as it always was
    assert outside.returncode != 0 and "::error" not in outside.stdout and plain in outside.stdout
    assert outside.stdout.splitlines() == [line for line in result.stdout.splitlines() if not line.startswith("::")]


def test_the_summary_shows_only_the_languages_the_pull_request_touches(repo, tmp_path):
    git_repo(repo)
    git(repo, "update-ref", "refs/remotes/origin/main", "HEAD")   # the base branch, as checkout fetches it
    git(repo, "checkout", "-q", "-b", "translator")
    page = repo / "docs/vi/guides/storage.md"
    page.write_text(page.read_text(encoding="utf-8") + "\nThêm một câu tiếng Việt.\n", encoding="utf-8")
    git(repo, "commit", "-q", "-am", "vi: one more sentence")
    summary = tmp_path / "summary.md"
    result = make(repo, "i18n", GITHUB_ACTIONS="true", GITHUB_STEP_SUMMARY=str(summary), GITHUB_BASE_REF="main")
    assert result.returncode == 0, result.stdout
    rows = re.findall(r"^\| (\w+) \| \d+", summary.read_text(encoding="utf-8"), re.M)
    assert rows == ["vi"]
    # A change to English touches every translation.
    en = repo / "docs/en/guides/storage.md"
    en.write_text(en.read_text(encoding="utf-8") + "\nOne more English sentence.\n", encoding="utf-8")
    git(repo, "commit", "-q", "-am", "en: one more sentence")
    summary.unlink()
    result = make(repo, "i18n", GITHUB_ACTIONS="true", GITHUB_STEP_SUMMARY=str(summary), GITHUB_BASE_REF="main")
    assert re.findall(r"^\| (\w+) \| \d+", summary.read_text(encoding="utf-8"), re.M) == list(LANGS)
    assert "::warning file=docs/hi/guides/storage.md,title=outdated translation::" in result.stdout


def test_the_build_in_github_actions_annotates_the_problems_it_stops_on(repo):
    page = repo / "docs/hi/guides/storage.md"
    text = page.read_text(encoding="utf-8")
    line = text[: text.index("<!-- quiz:storage -->")].count("\n") + 1
    page.write_text(text.replace("<!-- quiz:storage -->", "<!-- quiz:storage-typo -->"), encoding="utf-8")
    result = make(repo, "build", GITHUB_ACTIONS="true")
    assert result.returncode != 0
    out = result.stdout + result.stderr
    assert f"docs/hi/guides/storage.md:{line}: marker '<!-- quiz:storage-typo -->': unknown quiz" in out, out
    assert re.search(rf"^::error file=docs/hi/guides/storage.md,line={line},title=marker::marker "
                     r"'<!-- quiz:storage-typo -->': unknown quiz 'storage-typo', allowed: ", out, re.M), out
    assert "::error" not in make(repo, "build").stdout   # outside Actions, no annotations


@pytest.mark.parametrize("text, expected", [
    ("docs/hi/a.md:3: 50% done\r\nnext", "::error file=docs/hi/a.md,line=3,title=translation check::50%25 done%0D%0Anext"),
    ("data/i18n/x,y:z.yaml:7: key 'a': found markup in '<b>'",
     "::error file=data/i18n/x%2Cy%3Az.yaml,line=7,title=unsafe HTML::key 'a': found markup in '<b>'"),
    ("mkdocs.yml: site_url: found 'x', allowed: a URL",
     "::error file=mkdocs.yml,title=translation check::site_url: found 'x', allowed: a URL"),
    ("nothing located here", "::error title=translation check::nothing located here"),
])
def test_annotations_escape_as_github_does(text, expected):
    assert problems.annotation(text) == expected


def test_a_problem_annotates_in_the_words_it_prints():
    p = problems.Problem("data/providers.yaml", 12, "provider 'x', field 'mps'", "found 'maybe', allowed: yes, no")
    assert p.annotation() == ("::error file=data/providers.yaml,line=12,title=data error::"
                              "provider 'x', field 'mps': found 'maybe', allowed: yes, no")
    assert str(p).endswith("provider 'x', field 'mps': found 'maybe', allowed: yes, no")


# --- 2. the fast first job ------------------------------------------------------------------------

def test_the_workflow_starts_with_a_fast_job_the_full_tests_wait_for():
    workflow = yaml.safe_load((ROOT / ".github/workflows/test.yml").read_text(encoding="utf-8"))
    jobs = workflow["jobs"]
    first, *rest = jobs
    runs = [step.get("run", "") for step in jobs[first]["steps"]]
    assert any(r.strip() == "make i18n" for r in runs) and any(r.strip() == "make build" for r in runs)
    assert not any("make test" in r or ".ci/run" in r or "make audit" in r for r in runs)
    assert jobs[first]["timeout-minutes"] <= 10
    full = [name for name in rest if any(".ci/run" in s.get("run", "") for s in jobs[name]["steps"])]
    assert full and all(jobs[name].get("needs") in (first, [first]) for name in full)


# --- 3. make i18n-diff ----------------------------------------------------------------------------

def test_i18n_diff_prints_exactly_the_english_change_since_the_translation(repo):
    git_repo(repo)   # hi and vi translate the English page as committed here
    en = repo / "docs/en/guides/storage.md"
    text = en.read_text(encoding="utf-8")
    old = next(line for line in text.splitlines() if line.startswith("A rented GPU is only as useful"))
    new = old.replace("A rented GPU is only as useful", "A rented GPU is exactly as useful")
    en.write_text(text.replace(old, new), encoding="utf-8")
    git(repo, "commit", "-q", "-am", "en: one word")
    en.write_text(en.read_text(encoding="utf-8") + "\nA sentence added later.\n", encoding="utf-8")
    git(repo, "commit", "-q", "-am", "en: one more sentence")

    status = make(repo, "i18n")
    assert status.returncode == 0, status.stdout
    assert "`make i18n-diff PAGE=guides/storage.md LANGS=hi`" in status.stdout

    result = make(repo, "i18n-diff", "PAGE=guides/storage.md", "LANGS=hi")
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    changed = [line for line in out.splitlines() if line[:1] in "+-" and not line.startswith(("+++", "---"))]
    assert changed == [f"-{old}", f"+{new}", "+", "+A sentence added later."], out
    assert "--- a/docs/en/guides/storage.md" in out and "+++ b/docs/en/guides/storage.md" in out
    head = next(line for line in out.splitlines() if line.startswith("# docs/hi/guides/storage.md translates"))
    assert head.endswith(" the site")   # the commit the translation matches, by its subject

    synced = make(repo, "i18n-sync", "PAGE=guides/storage.md", "LANGS=hi")
    assert synced.returncode == 0, synced.stderr
    again = make(repo, "i18n-diff", "PAGE=guides/storage.md", "LANGS=hi")
    assert again.returncode == 0 and "up to date" in again.stdout and "@@" not in again.stdout


def test_i18n_diff_says_why_when_it_cannot_show_the_change(repo, tmp_path):
    git_repo(repo)
    en = repo / "docs/en/guides/storage.md"
    en.write_text(en.read_text(encoding="utf-8") + "\nNew English text.\n", encoding="utf-8")
    git(repo, "commit", "-q", "-am", "en: more")
    shallow = tmp_path / "shallow"
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{repo}", str(shallow)], check=True,
                   env={**os.environ, **GIT_ENV}, capture_output=True)
    env = {**os.environ, "PYTHONPATH": str(ROOT / "hooks")}
    run = lambda root, *a: subprocess.run([sys.executable, str(ROOT / "scripts/i18n_diff.py"), *a, "--root", str(root)],  # noqa: E731
                                          capture_output=True, text=True, env=env, timeout=120)
    result = run(shallow, "guides/storage.md", "--lang", "hi")
    assert result.returncode == 1 and "git fetch --unshallow" in result.stderr, result.stderr

    vi = repo / "docs/vi/guides/storage.md"
    vi.write_text(re.sub(r"(?m)^source_hash: .*\n", "", vi.read_text(encoding="utf-8")), encoding="utf-8")
    result = run(repo, "docs/vi/guides/storage.md")
    assert result.returncode == 1 and "docs/vi/guides/storage.md was never synced" in result.stderr, result.stderr
    assert "@@" in result.stdout   # hi, in the same run, still gets its diff

    (repo / "docs/hi/guides/storage.md").unlink()
    result = run(repo, "guides/storage.md", "--lang", "hi")
    assert result.returncode == 1 and "not translated yet" in result.stderr, result.stderr


# --- 4. one list of languages ---------------------------------------------------------------------

def test_the_languages_come_from_mkdocs_yml_alone(tmp_path):
    from atlas import data, glossary, i18n_check
    assert languages.codes(ROOT) == LANGS == data.LANGUAGES == languages.LANGUAGES
    assert [lang.name for lang in languages.read(ROOT)][:3] == ["English", "हिन्दी", "Tiếng Việt"]
    for module in (data, glossary, i18n_check):   # no module keeps its own list
        assert not re.search(r"""\(\s*["']en["'],\s*["']hi["'],\s*["']vi["']\s*\)""", Path(module.__file__).read_text())
    # Another list in mkdocs.yml (with its !ENV and !!python tags) is the list everything reads.
    root = tmp_path / "site"
    root.mkdir()
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert "!ENV" in config and "!!python/object/apply" in config
    other = next(code for code in ("bn", "kn", "te") if code not in LANGS)
    (root / "mkdocs.yml").write_text(config.replace("        - locale: hi\n", f"        - locale: {other}\n"), encoding="utf-8")
    assert languages.codes(root) == tuple(other if code == "hi" else code for code in LANGS)


def test_search_falls_back_to_english_tokenising_for_a_language_lunr_does_not_know(tmp_path):
    folder = tmp_path / "assets/javascripts/lunr/min"
    folder.mkdir(parents=True)
    (folder / "lunr.ta.min.js").write_text("", encoding="utf-8")
    assert search_split.lunr_language(tmp_path, "ta") == "ta"
    assert search_split.lunr_language(tmp_path, "bn") == "en"   # no lunr.bn.min.js: split at spaces, not a 404
    # A language file that splits words with wordcut.js, which the worker loads only for hi and th,
    # would never start: such a language gets the generic Unicode pipeline.
    (folder / "lunr.te.min.js").write_text("var t=e.wordcut;t.init()", encoding="utf-8")
    assert search_split.lunr_language(tmp_path, "te") == "te"   # without our generic file, as before
    (folder / "lunr.uni.min.js").write_text("", encoding="utf-8")
    assert search_split.lunr_language(tmp_path, "te") == "uni" and search_split.lunr_language(tmp_path, "ta") == "ta"


# --- 5. a new language in a day ---------------------------------------------------------------------

# A language the site does not have yet (the suite also runs on a copy that added one), with its
# name, its English name in CLDR, and one value of data/i18n/<code>.yaml translated into it.
NEW_LANGUAGES = {"ta": ("தமிழ்", "Tamil", "தற்போதைய ஆங்கிலப் பக்கத்தைப் படிக்கவும்"),
                 "bn": ("বাংলা", "Bangla", "বর্তমান ইংরেজি পাতাটি পড়ুন"),
                 "kn": ("ಕನ್ನಡ", "Kannada", "ಪ್ರಸ್ತುತ ಇಂಗ್ಲಿಷ್ ಪುಟವನ್ನು ಓದಿ")}
NEW = next(code for code in NEW_LANGUAGES if code not in LANGS)
NEW_NAME, NEW_ENGLISH, NEW_WORDS = NEW_LANGUAGES[NEW]


def test_new_language_adds_a_language_that_builds_strictly(repo, tmp_path):
    refused = make(repo, "new-language", "CODE=xx", "NAME=Xish")
    assert refused.returncode != 0
    assert refused.stderr.count("make new-language:") == 1 and "does not know this language" in refused.stderr
    assert not (repo / "data/i18n/xx.yaml").exists() and "xx" not in (repo / "mkdocs.yml").read_text(encoding="utf-8")
    region = make(repo, "new-language", "CODE=pt-BR", "NAME=Português")   # babel takes the code as a locale: no region
    assert region.returncode != 0 and "without region" in region.stderr and not (repo / "docs/pt-BR").exists()

    PAGES = len(list((ROOT / "docs" / "en").rglob("*.md")))
    result = make(repo, "new-language", f"CODE={NEW}", f"NAME={NEW_NAME}")
    assert result.returncode == 0, result.stdout + result.stderr
    assert languages.codes(repo) == (*LANGS, NEW)
    assert (repo / f"docs/{NEW}").is_dir() and not list((repo / f"docs/{NEW}").glob("*.md"))
    assert (repo / f"data/i18n/{NEW}.yaml").is_file()
    assert sorted(p.name for p in (repo / f"data/quizzes/{NEW}").glob("*.yaml")) == \
        sorted(p.name for p in (ROOT / "data/quizzes/en").glob("*.yaml"))
    assert re.search(rf"^/docs/{NEW}/\s+@cloud-gpu-atlas/{NEW_ENGLISH.lower()}$", (repo / "CODEOWNERS").read_text(encoding="utf-8"), re.M)
    entry = next(e for e in languages.i18n_options(languages.load_config(repo))["languages"] if e["locale"] == NEW)
    assert entry["name"] == NEW_NAME and entry["nav_translations"]["Guides"] == "Guides"   # English, to translate
    marked = [line for line in (repo / "mkdocs.yml").read_text(encoding="utf-8").splitlines() if "# untranslated" in line]
    assert any(line.strip().startswith("Guides: Guides") for line in marked)

    site = tmp_path / "site"
    built = mkdocs_build(repo, site)
    assert built.returncode == 0, built.stdout + built.stderr
    assert "WARNING" not in built.stdout + built.stderr
    page = (site / f"{NEW}/guides/storage.html").read_text(encoding="utf-8")
    assert f'<html lang="{NEW}"' in page
    assert "atlas-notice--untranslated" in page and f"This page has not been translated into {NEW_ENGLISH} yet" in page
    assert "A rented GPU is only as useful" in page   # the English text, in full
    english_pages = {p.relative_to(site).as_posix() for p in site.rglob("*.html")
                     if p.relative_to(site).parts[0] not in (*TRANSLATIONS, NEW)}
    assert {f"{NEW}/{p}" for p in english_pages} <= {p.relative_to(site).as_posix() for p in (site / NEW).rglob("*.html")} | \
        {f"{NEW}/404.html"}
    assert f'hreflang="{NEW}" lang="{NEW}" class="md-select__link"' in (site / "index.html").read_text(encoding="utf-8")
    index = yaml.safe_load((site / f"{NEW}/search/search_index.json").read_text(encoding="utf-8"))
    lunr = search_split.lunr_language(site, NEW)   # ta: "uni" (lunr.ta needs wordcut.js); bn: "en"
    assert index["config"]["lang"] == [lunr] and (lunr == "en" or (site / f"assets/javascripts/lunr/min/lunr.{lunr}.min.js").is_file())
    assert all(d["location"] and not d["location"].startswith(tuple(f"{c}/" for c in (*TRANSLATIONS, NEW))) for d in index["docs"])
    assert not list(site.rglob(".gitkeep"))

    status = make(repo, "i18n")
    assert status.returncode == 0, status.stdout
    assert re.search(rf"^{NEW}\s+{PAGES}\s+0\s+0\s+{PAGES}$", status.stdout, re.M), status.stdout
    todo = re.search(rf"^to translate \({NEW}\), smallest first: (\d+) item\(s\), ([\d,]+) words\n((?:  .*\n)+)",
                     status.stdout, re.M)
    assert todo, status.stdout
    items = todo[3].splitlines()
    sizes = [int(re.search(r"([\d,]+) words", line)[1].replace(",", "")) for line in items]
    assert sizes == sorted(sizes) and len(items) == int(todo[1])
    assert any(line.startswith(f"  docs/{NEW}/guides/storage.md: ") for line in items)
    words = next(line for line in items if line.startswith(f"  data/i18n/{NEW}.yaml:"))
    before = int(re.search(r"(\d+) values still in English", words)[1])

    # A value translated (and its marker gone) is counted no more; a key removed is reported.
    ta = repo / f"data/i18n/{NEW}.yaml"
    text = ta.read_text(encoding="utf-8")
    text = text.replace("  outdated_link: Read the current English page  # untranslated\n",
                        f"  outdated_link: {NEW_WORDS}\n")
    ta.write_text(text, encoding="utf-8")
    after = make(repo, "i18n")
    assert after.returncode == 0 and f"data/i18n/{NEW}.yaml:6: {before - 1} values still in English" in after.stdout
    ta.write_text(text.replace(f"  outdated_link: {NEW_WORDS}\n", ""), encoding="utf-8")
    hi = repo / "data/i18n/hi.yaml"
    hi.write_text(re.sub(r"(?m)^  stale: .*\n", "", hi.read_text(encoding="utf-8"), count=1), encoding="utf-8")
    removed = make(repo, "i18n")
    assert removed.returncode != 0
    assert re.search(r"^error: data/i18n/hi.yaml:\d+: key 'table.stale': missing hi text", removed.stdout, re.M)
    assert re.search(rf"^error: data/i18n/{NEW}.yaml:\d+: key 'site.outdated_link': missing {NEW} text", removed.stdout, re.M)
