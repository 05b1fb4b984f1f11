"""Country codes (ISO 3166-1 alpha-2) and their names in each language, from babel's CLDR data."""
from __future__ import annotations

import re
from functools import lru_cache

from babel import Locale

CODE = re.compile(r"^[A-Z]{2}$")
# Two-letter codes CLDR lists as territories that are not ISO 3166-1 countries.
NOT_COUNTRIES = frozenset({"EU", "EZ", "QO", "UN", "XA", "XB", "XK", "ZZ"})


@lru_cache(maxsize=1)
def codes() -> frozenset[str]:
    """Every country code babel knows, as ISO 3166-1 alpha-2."""
    return frozenset(c for c in Locale.parse("en").territories if CODE.match(c) and c not in NOT_COUNTRIES)


def is_country(code: object) -> bool:
    return isinstance(code, str) and code in codes()


@lru_cache(maxsize=1024)
def name(code: str, lang: str) -> str:
    """The country's name as readers of `lang` write it: IN is भारत in Hindi, Ấn Độ in Vietnamese."""
    return Locale.parse(lang).territories.get(code, code)
