"""What search engines and link previews read: absolute language alternates and locales.

Every page exists at the same path in every language folder (untranslated pages are built
with a notice), so a page's alternates follow from its path alone.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path



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
    """Open Graph's language_TERRITORY for a language code, from CLDR's likely subtags
    (en -> en_US, hi -> hi_IN, vi -> vi_VN, ta -> ta_IN); the code itself when CLDR has none."""
    from babel.core import get_global
    parts = get_global("likely_subtags").get(lang, "").split("_")
    return f"{lang}_{parts[-1]}" if len(parts) > 1 and parts[-1].isupper() else lang


# A folder's stand-in sitemap: a valid sitemap with no entries (see sitemap_in_every_folder).
EMPTY_SITEMAP = ('<?xml version="1.0" encoding="UTF-8"?>\n'
                 '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>\n')


def sitemap_in_every_folder(site: Path, languages: tuple[str, ...], default: str = "en") -> int:
    """Give every folder below a language root a `sitemap.xml` with no entries.

    Material fetches `sitemap.xml` next to each hreflang alternate of a page (alternates are
    absolute page URLs here, as search engines want), and consults it only for a link that
    leads below the alternate's URL, which nothing does when that URL is a page: the reader's
    link is followed as it is. A missing file would be three failed requests per page; a copy
    of the language's sitemap, as before, made each first page view download and parse it three
    times (115 KB each today, 2.3 MB at a thousand providers). Language roots keep their real
    sitemaps. Returns the number of folders given one.
    """
    written = 0
    for folder in sorted({p.parent for p in site.rglob("*.html")}):
        rel = folder.relative_to(site).parts
        if not rel or (len(rel) == 1 and rel[0] in languages):
            continue   # language roots have their own sitemap
        target = folder / "sitemap.xml"
        if not target.exists():
            target.write_text(EMPTY_SITEMAP, encoding="utf-8")
            written += 1
    return written
