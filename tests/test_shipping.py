"""What a published site and a fork need (issue 32, item 8): a link-preview image per language,
titles search results do not cut, sitemap dates from each page's last commit, a README that tells
a fork what to switch on, and `make` that lists its targets."""
from __future__ import annotations

import html
import os
import re
import struct
import subprocess

import pytest
from conftest import LANGS, ROOT, SITE_URL, copy_repo, mkdocs_build


def _pages(site, lang):
    root = site if lang == "en" else site / lang
    skip = [site / other for other in LANGS if other != "en"] if lang == "en" else []
    return [p for p in root.rglob("*.html") if not any(p.is_relative_to(s) for s in skip)]


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_has_a_link_preview_image_in_its_language(built_site, lang):
    own = ROOT / "overrides" / "assets" / "atlas" / f"og-{lang}.png"
    expected = SITE_URL + f"assets/atlas/og-{lang if own.exists() else 'en'}.png"
    pages = _pages(built_site, lang)
    assert len(pages) >= 20
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert f'<meta property="og:image" content="{expected}">' in text, page
        assert '<meta name="twitter:card" content="summary_large_image">' in text, page
    image = built_site / expected.removeprefix(SITE_URL)
    assert png_size(image.read_bytes()) == (1200, 630)
    assert image.stat().st_size < 100_000


def test_the_hindi_and_vietnamese_images_are_their_own():
    images = {lang: (ROOT / "overrides" / "assets" / "atlas" / f"og-{lang}.png").read_bytes() for lang in ("en", "hi", "vi")}
    assert len(set(images.values())) == 3


def test_every_title_is_at_most_70_characters(built_site):
    """Every page in English and every translated page; a page a new language has not translated
    yet keeps the English title with the "(not translated)" mark its language adds."""
    long = []
    for page in built_site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        if "atlas-notice--untranslated" in text:
            continue
        m = re.search(r"<title>(.*?)</title>", text, re.S)
        if m and len(html.unescape(m.group(1))) > 70:
            long.append((page.relative_to(built_site).as_posix(), len(html.unescape(m.group(1)))))
    assert long == []


def _commit(repo, message, date):
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.org", "GIT_AUTHOR_DATE": f"{date}T12:00:00Z",
           "GIT_COMMITTER_DATE": f"{date}T12:00:00Z", "GIT_CONFIG_NOSYSTEM": "1"}
    for args in (["add", "-A"], ["commit", "-q", "-m", message]):
        subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)


def test_sitemap_lastmod_is_each_page_s_last_commit(tmp_path):
    repo = copy_repo(tmp_path / "repo")
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    _commit(repo, "the site", "2020-01-02")
    glossary = repo / "docs/en/glossary.md"
    glossary.write_text(glossary.read_text(encoding="utf-8") + "\nOne more English sentence.\n", encoding="utf-8")
    _commit(repo, "en: glossary", "2021-03-04")
    data = repo / "data/providers.yaml"
    data.write_text(data.read_text(encoding="utf-8") + "# a comment\n", encoding="utf-8")
    _commit(repo, "data", "2022-05-06")
    site = tmp_path / "site"
    result = mkdocs_build(repo, site)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]

    def lastmod(sitemap, rel):
        block = re.search(rf"<url>\s*<loc>{re.escape(SITE_URL + rel)}</loc>.*?</url>", sitemap.read_text(encoding="utf-8"), re.S)
        assert block, rel
        return re.search(r"<lastmod>([^<]+)</lastmod>", block.group(0)).group(1)

    root, hi = site / "sitemap.xml", site / "hi" / "sitemap.xml"
    assert lastmod(root, "glossary.html") == "2021-03-04"          # its own Markdown's last commit
    assert lastmod(hi, "hi/glossary.html") == "2020-01-02"         # the Hindi page was not touched
    assert lastmod(root, "compare/kubernetes.html") == "2022-05-06"   # a table: as new as its data
    assert lastmod(hi, "hi/providers/aws.html") == "2022-05-06"    # a provider's page: its data
    assert lastmod(root, "status.html") == "2020-01-02"


def test_readme_tells_a_fork_what_to_switch_on():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    fork = readme[readme.index("## Publish a fork"):readme.index("## How it fits together")]
    for words in ("Actions off", "GitHub Actions", "Issues off", "Report a correction", "correction.md"):
        assert words in fork, words
    deploy = (ROOT / ".github/workflows/deploy.yml").read_text(encoding="utf-8")
    assert "github.event.repository.has_issues" in deploy


def test_make_alone_lists_every_target():
    result = subprocess.run(["make", "-s", "-C", str(ROOT)], capture_output=True, text=True, timeout=60,
                            env={k: v for k, v in os.environ.items() if not k.startswith("MAKE")})
    assert result.returncode == 0, result.stderr
    phony = set()
    for line in (ROOT / "Makefile").read_text(encoding="utf-8").splitlines():
        if line.startswith(".PHONY:"):
            phony |= set(line.split(":", 1)[1].split())
    listed = set(re.findall(r"^  make (\S+)", result.stdout, re.M))
    assert phony and phony <= listed, phony - listed
