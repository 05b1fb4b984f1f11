"""Text fragments (`#:~:text=start,end`, WICG's Text Fragments specification, now in the URL
standard's fragment directive) that take a reader from a source link straight to the quoted words.

A quote stitched from several places (pieces joined with `…`) gets one `text=` directive per
piece; a browser highlights each it finds and ignores the rest, and a browser without support
opens the page as before. A long piece is given by its first and last words (`start,end`), as
the specification suggests, so small changes in its middle still match.
"""
from __future__ import annotations

import re
from urllib.parse import quote

GAP = re.compile(r"\s*(?:…|\.\.\.)\s*")
EDGE_WORDS = 4      # words at each end of a long piece
LONG = 10           # a piece with more words than this is given as start,end
MAX_PIECES = 3      # directives per link


def _encode(text: str) -> str:
    """Percent-encode for a text directive: everything but its explicit characters; `-`, `,` and
    `&` are syntax there and must be encoded too (quote() leaves `-`)."""
    return quote(text, safe="").replace("-", "%2D")


def directive(quoted: str) -> str:
    """`text=…&text=…` for a quote, or '' when it has no words to look for."""
    parts = []
    for piece in GAP.split(quoted or ""):
        words = piece.strip(" \"'“”‘’•:;,.").split()
        if len(words) < 2 and not (words and len(words[0]) > 3):
            continue
        if len(words) > LONG:
            parts.append(f"text={_encode(' '.join(words[:EDGE_WORDS]))},{_encode(' '.join(words[-EDGE_WORDS:]))}")
        else:
            parts.append(f"text={_encode(' '.join(words))}")
        if len(parts) == MAX_PIECES:
            break
    return "&".join(parts)


def with_fragment(url: str, quoted: str | None) -> str:
    """`url` with the quote's text directive after its fragment (an existing #section stays)."""
    found = directive(quoted or "")
    if not found or ":~:" in url:
        return url
    return f"{url}{'' if '#' in url else '#'}:~:{found}"
