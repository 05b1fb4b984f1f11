"""What search engines and link previews read: absolute language alternates and locales.

Every page exists at the same path in every language folder (untranslated pages are built
with a notice), so a page's alternates follow from its path alone.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

OG_LOCALES = {"en": "en_US", "hi": "hi_IN", "vi": "vi_VN"}


@dataclass(frozen=True)
class Alternate:
    lang: str       # an hreflang value: a language code or "x-default"
    href: str       # absolute URL


def path_in_language(page_url: str, lang: str, languages: tuple[str, ...], default: str = "en") -> str:
    """`page_url` (relative to the site root) without its language folder."""
    first, _, rest = page_url.partition("/")
    if first in languages and first != default and (rest or page_url.endswith("/")):
        return rest
    return page_url


def alternates(site_url: str, page_url: str, languages: tuple[str, ...], default: str = "en") -> list[Alternate]:
    """Absolute alternates of a page in every language, plus x-default (the default language)."""
    base = site_url if site_url.endswith("/") else site_url + "/"
    rel = path_in_language(page_url, "", languages, default)
    out = [Alternate(lang, base + ("" if lang == default else f"{lang}/") + rel) for lang in languages]
    return out + [Alternate("x-default", base + rel)]


def og_locale(lang: str) -> str:
    return OG_LOCALES.get(lang, lang)


def sitemap_in_every_folder(site: Path, languages: tuple[str, ...], default: str = "en") -> int:
    """Copy each language's sitemap.xml into every folder of that language that holds pages.

    Material's language selector fetches `sitemap.xml` next to each hreflang alternate of the
    page; alternates are absolute page URLs here (search engines want that), so without a
    copy beside them every page below a language root would make three failing requests.
    Returns the number of copies written.
    """
    written = 0
    for folder in sorted({p.parent for p in site.rglob("*.html")}):
        rel = folder.relative_to(site).parts
        if not rel or (len(rel) == 1 and rel[0] in languages):
            continue   # language roots have their own sitemap
        lang = rel[0] if rel[0] in languages and rel[0] != default else default
        source = site / ("" if lang == default else lang) / "sitemap.xml"
        target = folder / "sitemap.xml"
        if source.is_file() and not target.exists():
            target.write_bytes(source.read_bytes())
            written += 1
    return written
