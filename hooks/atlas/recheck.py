"""`make recheck`: is each quoted fact's quote still at its source?

    make recheck                  # every quoted fact
    make recheck PROVIDER=aws     # one provider

For every fact with a `quote:` (and every pricing page with one), each source URL is read once
and the quote is looked for in the page's text. Each (fact, URL) gets one status:

    found        the quote is still there (whitespace, Latin letter case, Markdown emphasis and
                 `…` gaps do not count; a quote stitched from several sources counts as found when
                 every piece is in one of them)
    changed      the page was read and the quote is gone
    moved        the URL redirects elsewhere (the quote is still looked for there)
    gone         404 or 410
    unreachable  timeout, DNS, TLS, 5xx, another 4xx, a page over the size cap or too slow to read
    refused      not http(s), or an address that is private, loopback, link-local or otherwise
                 not public (an IPv6 form of an IPv4 address is judged by the IPv4 address): never fetched, so a pull request cannot make the job probe the
                 runner's network (RECHECK_ALLOW_PRIVATE=1 lifts this, for tests only)

Bounded: RECHECK_TIMEOUT seconds per request (15) and three times that to read a page,
RECHECK_MAX_BYTES per page (5 MB), four requests at a time and one at a time per host, one user
agent, at most five redirects, no retries.

It writes `recheck-report.json` (README, "Re-checking sources", documents its fields), prints a
table, and records in data/checked.yaml the day each found quote was found (data/checked.py says
why a file of its own). It never changes a value: people do, from the source.
Exit status: 0 when every quote was found at every source, 1 when any was not, 2 when it could
not run (invalid data, an unknown provider).
"""
from __future__ import annotations

import argparse
import datetime as dt
import html.parser
import ipaddress
import json
import os
import re
import socket
import sys
import threading
import time
import unicodedata
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import yaml

from . import yamlsrc
from .data import Atlas, load_atlas
from .data.checked import FILE as CHECKED_FILE, quote_hash
from .problems import DataError

ROOT = Path(__file__).resolve().parents[2]
USER_AGENT = "CloudGPUAtlas-recheck/1.0 (+https://github.com/cloud-gpu-atlas/cloud-gpu-atlas; re-reads quoted sources weekly)"
STATUSES = ("found", "changed", "moved", "gone", "unreachable", "refused")
MAX_REDIRECTS = 5
WORKERS = 4


def timeout() -> float:
    return float(os.environ.get("RECHECK_TIMEOUT", "15"))


def max_bytes() -> int:
    return int(os.environ.get("RECHECK_MAX_BYTES", str(5 * 1024 * 1024)))


def private_allowed() -> bool:
    return os.environ.get("RECHECK_ALLOW_PRIVATE") == "1"


# --- what to look for ------------------------------------------------------------------------

@dataclass(frozen=True)
class Target:
    provider: str
    field: str
    quote: str
    urls: tuple[str, ...]
    line: int            # the quote's line in data/providers.yaml


def targets(atlas: Atlas, root: Path, provider: str | None = None) -> list[Target]:
    """Every quoted fact (and pricing page), with the line of its quote."""
    doc = yamlsrc.load(root / "data" / "providers.yaml", "data/providers.yaml", [], root)
    index = {rec.get("id"): i for i, rec in enumerate(doc.data.get("providers", [])) if isinstance(rec, dict)} if doc else {}
    out = []
    for p in atlas.providers:
        if provider and p.id != provider:
            continue
        facts = dict(p.facts, **({"pricing_page": p.pricing} if p.pricing else {}))
        for field, fact in facts.items():
            if not fact.quote or not fact.sources:
                continue
            at = ("pricing_page",) if field == "pricing_page" else ("facts", field)
            line = doc.line("providers", index.get(p.id, 0), *at, "quote") if doc else 1
            out.append(Target(p.id, field, fact.quote, fact.sources, line))
    return out


GAPS = re.compile(r"\s*(?:…|\.\.\.|\[[^\]]*\])\s*")   # `…` gaps and our [editorial notes] inside quotes
DROP = str.maketrans({"*": " ", "`": " ", "|": " ", "\u00a0": " ", "\u200b": None, "\u00ad": None,
                      "’": "'", "‘": "'", "“": '"', "”": '"', "–": "-", "—": "-"})


def normalise(text: str) -> str:
    """Text as compared: NFC, Markdown emphasis and table bars dropped, typographic quotes and
    dashes plain, whitespace collapsed, Latin (and every other cased) letter lower case."""
    text = unicodedata.normalize("NFC", text).translate(DROP)
    return " ".join(text.split()).casefold()


def pieces(quote: str) -> list[str]:
    """The parts of a quote that must each be found (between `…` gaps and [our notes])."""
    return [n for part in GAPS.split(quote) if len(n := normalise(part).strip(" .,:;\"'")) >= 3]


def quote_found(quote: str, texts: list[str]) -> bool:
    """Every piece of the quote is in one of the (normalised) texts."""
    return all(any(piece in text for text in texts) for piece in pieces(quote))


# --- reading a page --------------------------------------------------------------------------

class _Text(html.parser.HTMLParser):
    SKIP = {"script", "style", "noscript", "template", "svg"}
    BLOCK = {"p", "div", "li", "tr", "td", "th", "br", "h1", "h2", "h3", "h4", "h5", "h6", "section", "article",
             "pre", "table", "ul", "ol", "dd", "dt", "blockquote", "figcaption", "summary"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag, attrs):
        if tag in self.SKIP:
            self.skipping += 1
        elif tag in self.BLOCK:
            self.parts.append(" ")

    def handle_endtag(self, tag):
        if tag in self.SKIP and self.skipping:
            self.skipping -= 1
        elif tag in self.BLOCK:
            self.parts.append(" ")

    def handle_data(self, data):
        if not self.skipping:
            self.parts.append(data)


def page_text(body: bytes, content_type: str) -> str:
    """A page's readable text: HTML without its tags, scripts and styles; anything else as text."""
    charset = re.search(r"charset=([\w-]+)", content_type or "")
    try:
        text = body.decode(charset.group(1) if charset else "utf-8", errors="replace")
    except LookupError:   # a charset Python does not know: read it as UTF-8
        text = body.decode("utf-8", errors="replace")
    if "html" in (content_type or "") or re.match(r"\s*(<!doctype html|<html)", text[:200], re.I):
        parser = _Text()
        parser.feed(text)
        parser.close()
        text = "".join(parser.parts)
    return normalise(text)


def fetch_url(url: str) -> str:
    """What to fetch for a cited URL: a GitHub file at a commit is read raw (the cited text
    itself, not the page around it)."""
    m = re.match(r"^https://github\.com/([^/]+)/([^/]+)/blob/([0-9a-f]{7,40})/(.+)$", url)
    return f"https://raw.githubusercontent.com/{m.group(1)}/{m.group(2)}/{m.group(3)}/{m.group(4)}" if m else url


def refusal(url: str) -> str | None:
    """Why `url` is never fetched: not http(s), or a host that resolves to an address that is not
    public (private, loopback, link-local, multicast, reserved, unspecified), or None."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return f"not an http(s) URL: {url[:200]!r}"
    if private_allowed():
        return None
    try:
        infos = socket.getaddrinfo(parts.hostname, parts.port or (443 if parts.scheme == "https" else 80),
                                   type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError, ValueError) as exc:
        return None if isinstance(exc, socket.gaierror) else f"host {parts.hostname!r} cannot be resolved safely"
    for info in infos:
        address = ipaddress.ip_address(info[4][0].split("%")[0])
        if not _public(address):
            return f"{parts.hostname} is {address}, not a public address"
    return None


NAT64 = ipaddress.ip_network("64:ff9b::/96")


def _public(address) -> bool:
    """A global unicast address; an IPv6 form of an IPv4 address (mapped, or NAT64) is judged by it."""
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped:
            address = address.ipv4_mapped
        elif address in NAT64:
            address = ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return address.is_global and not address.is_multicast


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):   # each hop is checked (refusal) before it is followed
        return None


_OPENER = urllib.request.build_opener(_NoRedirect)
_HOSTS: dict[str, threading.Lock] = {}
_HOSTS_LOCK = threading.Lock()


def _host_lock(url: str) -> threading.Lock:
    with _HOSTS_LOCK:
        return _HOSTS.setdefault(urlsplit(url).netloc.lower(), threading.Lock())


@dataclass
class Read:
    status: str                 # found/changed are decided later: here "read" or a failure status
    http_status: int | None
    final_url: str
    detail: str = ""
    text: str = ""


def _same_place(a: str, b: str) -> bool:
    """A redirect that does not move the page: http to https, a trailing slash, host case."""
    pa, pb = urlsplit(a), urlsplit(b)
    return (pa.hostname or "").lower() == (pb.hostname or "").lower() and pa.path.rstrip("/") == pb.path.rstrip("/") \
        and pa.query == pb.query


def _read_within(response, cap: int, deadline: float) -> bytes | None:
    """Up to cap + 1 bytes, in chunks, or None past the deadline: the socket timeout bounds each
    wait, this bounds a server that sends a byte just often enough to never time out."""
    chunks, size = [], 0
    while size <= cap:
        if time.monotonic() > deadline:
            return None
        chunk = response.read(min(65536, cap + 1 - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def read(url: str) -> Read:
    """Read one URL within the bounds; never raises."""
    start = current = fetch_url(url)
    for _ in range(MAX_REDIRECTS + 1):
        why = refusal(current)
        if why:
            return Read("refused", None, current, why)
        request = urllib.request.Request(current, headers={"User-Agent": USER_AGENT, "Accept": "text/html,text/plain,*/*"})
        try:
            with _host_lock(current), _OPENER.open(request, timeout=timeout()) as response:
                cap = max_bytes()
                length = response.headers.get("Content-Length")
                if length and length.isdigit() and int(length) > cap:
                    return Read("unreachable", response.status, current, f"page of {int(length):,} bytes, over the {cap:,}-byte cap; not read")
                body = _read_within(response, cap, time.monotonic() + 3 * timeout())
                if body is None:
                    return Read("unreachable", response.status, current, f"page not read within {3 * timeout():g} s")
                if len(body) > cap:
                    return Read("unreachable", response.status, current, f"page over the {cap:,}-byte cap; not read")
                text = page_text(body, response.headers.get("Content-Type", ""))
                moved = not _same_place(start, current)
                return Read("moved" if moved else "read", response.status, current,
                            f"redirected to {current}" if moved else "", text)
        except urllib.error.HTTPError as exc:
            if exc.code in (301, 302, 303, 307, 308) and exc.headers.get("Location"):
                current = urljoin(current, exc.headers["Location"])
                continue
            if exc.code in (404, 410):
                return Read("gone", exc.code, current, f"HTTP {exc.code}")
            return Read("unreachable", exc.code, current, f"HTTP {exc.code}")
        except (urllib.error.URLError, OSError, ValueError) as exc:   # DNS, TLS, refused connection, timeout
            reason = getattr(exc, "reason", exc)
            return Read("unreachable", None, current, f"{type(reason).__name__}: {reason}"[:300])
        except Exception as exc:   # noqa: BLE001 - a page must never stop the run: its row says what happened
            return Read("unreachable", None, current, f"{type(exc).__name__}: {exc}"[:300])
    return Read("unreachable", None, current, f"more than {MAX_REDIRECTS} redirects")


# --- the run -----------------------------------------------------------------------------------

@dataclass
class Row:
    provider: str
    field: str
    url: str
    status: str
    http_status: int | None
    checked: str                # when this URL was read (ISO 8601, UTC)
    file: str
    line: int
    final_url: str
    detail: str


def recheck(found_targets: list[Target], reader=read) -> tuple[list[Row], set[tuple[str, str]]]:
    """Read every URL once (WORKERS at a time) and judge each fact: the report's rows and the
    facts whose quote was found."""
    urls = sorted({u for t in found_targets for u in t.urls})
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        pages = dict(zip(urls, pool.map(lambda u: (reader(u), dt.datetime.now(dt.timezone.utc)), urls)))
    rows, found = [], set()
    for t in found_targets:
        texts = [pages[u][0].text for u in t.urls if pages[u][0].status in ("read", "moved")]
        ok = bool(texts) and quote_found(t.quote, texts)
        if ok:
            found.add((t.provider, t.field))
        for u in t.urls:
            page, when = pages[u]
            status = ("found" if ok else "changed") if page.status == "read" else page.status
            detail = page.detail or ("" if ok else "none of the quote's words were found" if not any(
                p in page.text for p in pieces(t.quote)) else "only part of the quote was found")
            rows.append(Row(t.provider, t.field, u, status, page.http_status, when.replace(microsecond=0).isoformat(),
                            "data/providers.yaml", t.line, page.final_url, detail))
    return rows, found


def write_checked(root: Path, atlas: Atlas, found: set[tuple[str, str]], today: dt.date) -> int:
    """Record today for each found quote in data/checked.yaml, keep the other entries that still
    apply, drop those for facts or quotes that no longer exist. Returns how many were recorded."""
    path = root / CHECKED_FILE
    old = (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get("checked", {}) if path.exists() else {}
    entries: dict[str, dict] = {}
    for p in atlas.providers:
        facts = dict(p.facts, **({"pricing_page": p.pricing} if p.pricing else {}))
        for field, fact in sorted(facts.items()):
            if not fact.quote:
                continue
            digest = quote_hash(fact.quote)
            if (p.id, field) in found:
                entries.setdefault(p.id, {})[field] = {"found": today, "quote": digest}
            else:
                before = (old.get(p.id) or {}).get(field) if isinstance(old.get(p.id), dict) else None
                if isinstance(before, dict) and before.get("quote") == digest and isinstance(before.get("found"), dt.date):
                    entries.setdefault(p.id, {})[field] = {"found": before["found"], "quote": digest}
    head = ("# Written by `make recheck` (hooks/atlas/recheck.py), never by hand: the last day each fact's quote was\n"
            "# found at its sources, with a hash of the quote it found (data/checked.py). People edit providers.yaml.\n")
    body = yaml.safe_dump({"checked": {pid: entries[pid] for pid in sorted(entries)}}, sort_keys=False,
                          default_flow_style=None, width=200, allow_unicode=True)
    path.write_text(head + body, encoding="utf-8")
    return sum(1 for pid, field in found)


def table(rows: list[Row]) -> str:
    """The report as a plain-text table, problems first."""
    order = {s: i for i, s in enumerate(("changed", "gone", "moved", "unreachable", "refused", "found"))}
    rows = sorted(rows, key=lambda r: (order[r.status], r.provider, r.field))
    out = [f"{'status':<12} {'provider.field':<34} {'where':<26} url / detail"]
    for r in rows:
        out.append(f"{r.status:<12} {r.provider + '.' + r.field:<34} {r.file + ':' + str(r.line):<26} {r.url}"
                   + (f"\n{'':<74}{r.detail}" if r.detail else ""))
    counts = {s: sum(1 for r in rows if r.status == s) for s in STATUSES}
    out.append("")
    out.append("totals: " + ", ".join(f"{s} {n}" for s, n in counts.items()))
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="make recheck", description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=Path, default=ROOT)
    parser.add_argument("--provider", default="", help="one provider id (make recheck PROVIDER=aws)")
    parser.add_argument("--report", type=Path, default=None, help="where to write the JSON report (default: <root>/recheck-report.json)")
    args = parser.parse_args(argv)
    today = dt.datetime.now(dt.timezone.utc).date()
    try:
        atlas = load_atlas(args.root, today=today)
    except DataError as exc:
        print(exc.report(), file=sys.stderr)
        return 2
    if args.provider and args.provider not in {p.id for p in atlas.providers}:
        print(f"recheck: no provider {args.provider!r} in data/providers.yaml; use one of: "
              f"{', '.join(p.id for p in atlas.providers)}", file=sys.stderr)
        return 2
    found_targets = targets(atlas, args.root, args.provider or None)
    rows, found = recheck(found_targets)
    report = args.report or args.root / "recheck-report.json"
    report.write_text(json.dumps([asdict(r) for r in rows], indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    write_checked(args.root, atlas, found, today)
    print(table(rows))
    print(f"\n{len(found)} of {len(found_targets)} quoted facts found at their sources; report: {report}")
    return 0 if all(r.status == "found" for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
