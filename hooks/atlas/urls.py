"""The URL rules shared by the data checks (sources, homepages) and the page HTML policy
(links and attributes in rendered pages): one place, below both, so neither imports the other.

- URLs in data: absolute http(s) with a host, no credentials, no spaces or backslashes.
- Links in pages: http(s), mailto:, relative or a fragment; anything that loads is relative.
- Neither holds a character a reader cannot see (invisible.py): a bidi override shows another
  address than the one the link opens.
"""
from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import urlsplit

from . import invisible

LINK_SCHEMES = ("http", "https", "mailto")
URL_REFUSED = re.compile(r"[\s\\<>\"'`\x00-\x1f\x7f]")
URL_HOST = re.compile(r"[A-Za-z0-9.-]+(:[0-9]{1,5})?|\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?")


def is_http_url(value: object) -> bool:
    """An absolute http(s) URL with a host: no credentials, spaces, backslashes or controls."""
    return isinstance(value, str) and _is_http_url(value)


@lru_cache(maxsize=16384)   # a pure check of text: a source cited by several facts is checked once
def _is_http_url(value: str) -> bool:
    if len(value) > 2000 or URL_REFUSED.search(value) or invisible.first(value):
        return False
    try:
        parts = urlsplit(value)
        parts.port  # noqa: B018 - raises ValueError on a port that is not a number
    except ValueError:
        return False
    return (parts.scheme in ("http", "https") and bool(parts.hostname) and "@" not in parts.netloc
            and bool(URL_HOST.fullmatch(parts.netloc)))


def url_refusal(value: object, allowed: str = "an http:// or https:// URL") -> str | None:
    """Why `value` is not a URL data may hold ("found …, allowed: …"), or None; an invisible
    character is named, escaped, with its position."""
    if is_http_url(value):
        return None
    hidden = invisible.problem(value) if isinstance(value, str) else None
    if hidden:
        return f"found {value!r} with {hidden}, a character a reader cannot see; allowed: {allowed} of visible characters"
    return f"found {value!r}, allowed: {allowed}"


def link_problem(url: str, attribute: str = "href") -> str | None:
    """Why `url` may not appear in a page's `attribute`, or None.

    A browser drops spaces around a URL and tabs and newlines inside it before reading the
    scheme, so `java\\tscript:` is `javascript:`; this does the same.
    """
    cleaned = re.sub(r"[\t\n\r]", "", url).strip("\x00\x01\x02\x03\x04\x05\x06\x07\x08\x0b\x0c\x0e"
                                                 "\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a"
                                                 "\x1b\x1c\x1d\x1e\x1f ")
    m = re.match(r"^([A-Za-z][A-Za-z0-9+.-]*):", cleaned)
    scheme = m.group(1).lower() if m else ""
    external = bool(scheme) or cleaned.startswith(("//", "\\\\", "/\\", "\\/"))
    hidden = invisible.problem(url)
    if hidden:
        return f"link to {url!r} has {hidden}, a character a reader cannot see; allowed: visible characters only"
    if attribute != "href" and external:
        return f"{attribute}={url!r} loads from another host; allowed: a relative path"
    if scheme and scheme not in LINK_SCHEMES:
        return f"link to {url!r}; allowed: http(s), mailto:, a relative path or a #fragment"
    if scheme in ("http", "https") and not is_http_url(cleaned):
        return f"link to {url!r} is not a plain http(s) URL (credentials, spaces or no host); allowed: https://host/path"
    if "\\" in cleaned:
        return f"link to {url!r} has a backslash; allowed: forward slashes only"
    return None
