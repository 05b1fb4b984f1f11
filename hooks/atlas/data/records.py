"""The immutable records the data loaders build: a provider, its facts, a list field, a question."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Mapping


@dataclass(frozen=True)
class Fact:
    """One capability value of one provider, with where it was read and when."""

    value: str | tuple[str, ...]   # a tuple for list fields (regions, gpus, local_billing)
    sources: tuple[str, ...] = ()
    verified: dt.date | None = None
    quote: str | None = None       # evidence from the source, plain text: shown as a quotation in the details
    quote_lang: str = "en"         # the quote's language (BCP 47), for the quotation's lang attribute
    source_date: str | None = None  # the source's own date as written: YYYY-MM-DD, or YYYY-MM (ages.py)
    # Whether a source says anything: asked about half a million times in a 1,000-provider build,
    # so it is worked out once (an attribute, not a property).
    known: bool = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "known", self.value != "unknown")


@dataclass(frozen=True)
class ListField:
    """A field whose value is a list: items from a closed set, or country codes."""

    items: tuple[str, ...] | None   # None: any ISO 3166-1 alpha-2 code babel knows
    empty_allowed: bool = False     # local_billing: [] = "bills only in other currencies"
    item_words: bool = False        # each item needs words in every language


@dataclass(frozen=True)
class Provider:
    id: str
    name: str
    homepage: str
    category: str
    facts: Mapping[str, Fact]
    pricing: Fact | None = None    # the provider's own GPU pricing page: value is its URL (optional key pricing_page)


@dataclass(frozen=True)
class Question:
    id: str
    options: tuple[str, ...]
    correct: tuple[str, ...]

    @property
    def multiple(self) -> bool:
        return len(self.correct) > 1
