"""Lists in the order each language's readers expect, by ICU's collation with CLDR's rules
(PyICU): Vietnamese puts Đ after D and Ă, Â after A; Hindi follows the Devanagari order, with
नुक़्ता letters beside their base letters. Python's own sort compares code points, which puts
"Ấn Độ" after "Ý" and "Đức" after every Latin letter.
"""
from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import icu


@lru_cache(maxsize=16)
def _collator(lang: str) -> icu.Collator:
    return icu.Collator.createInstance(icu.Locale(lang))


def key(lang: str) -> Callable[[str], bytes]:
    """A sort key for text in `lang` (CLDR's root order where ICU has no rules for it)."""
    return _collator(lang).getSortKey
