"""Open or update the one issue that lists what `make recheck` found changed (the weekly job).

    python scripts/recheck_issue.py recheck-report.json

Reads GITHUB_REPOSITORY, GITHUB_SHA, GITHUB_TOKEN, GITHUB_API_URL and GITHUB_SERVER_URL, as
GitHub Actions sets them. The issue carries the label `source-recheck`; there is never more than
one open. When every quote was found, an open one is updated to say so and closed. It lists each
fact with its file and line (a link at the commit checked), the URL, and what happened; it never
changes a value: people do, from the source.
"""
from __future__ import annotations

import json
import os
import sys
import urllib.request
from collections import Counter

LABEL = "source-recheck"
TITLE = "Sources re-check: quotes that changed, moved or went away"
ORDER = ("changed", "gone", "moved", "unreachable", "refused")


def body(rows: list[dict], repo: str, sha: str, server: str = "https://github.com") -> str:
    """The issue's text (Markdown): a summary, then one table row per fact and URL that needs a person."""
    counts = Counter(r["status"] for r in rows)
    facts = {(r["provider"], r["field"]) for r in rows}
    lines = [f"`make recheck` re-read every quoted source at {sha[:7]}: "
             + ", ".join(f"{counts[s]} {s}" for s in ("found", *ORDER) if counts[s]) + ".",
             "", f"{len(facts)} quoted facts, {len(rows)} source URLs. Each row needs a person: read the source, then fix "
             "the value, the quote or the URL in `data/providers.yaml` (CONTRIBUTING.md, Evidence policy). "
             "This job never changes a value.", ""]
    todo = sorted((r for r in rows if r["status"] != "found"), key=lambda r: (ORDER.index(r["status"]), r["provider"], r["field"]))
    if not todo:
        lines.append("Every quote was found at its source.")
        return "\n".join(lines)
    lines += ["| status | fact | where | source | what happened |", "|---|---|---|---|---|"]
    for r in todo:
        where = f"[{r['file']}:{r['line']}]({server}/{repo}/blob/{sha}/{r['file']}#L{r['line']})"
        what = (r.get("detail") or "").replace("|", "\\|").replace("\n", " ")
        lines.append(f"| {r['status']} | `{r['provider']}.{r['field']}` | {where} | <{r['url']}> | {what} |")
    return "\n".join(lines)


def _api(method: str, path: str, payload: dict | None = None):
    base = os.environ.get("GITHUB_API_URL", "https://api.github.com").rstrip("/")
    request = urllib.request.Request(base + path, method=method, data=json.dumps(payload).encode() if payload else None,
                                     headers={"Authorization": f"Bearer {os.environ['GITHUB_TOKEN']}",
                                              "Accept": "application/vnd.github+json", "User-Agent": "cloud-gpu-atlas-recheck"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read() or b"null")


def main(argv: list[str]) -> int:
    rows = json.loads(open(argv[1], encoding="utf-8").read())
    repo, sha = os.environ["GITHUB_REPOSITORY"], os.environ.get("GITHUB_SHA", "HEAD")
    text = body(rows, repo, sha, os.environ.get("GITHUB_SERVER_URL", "https://github.com"))
    problems = any(r["status"] != "found" for r in rows)
    open_ones = _api("GET", f"/repos/{repo}/issues?labels={LABEL}&state=open&per_page=10") or []
    if open_ones:
        number = open_ones[0]["number"]
        _api("PATCH", f"/repos/{repo}/issues/{number}", {"body": text, **({} if problems else {"state": "closed"})})
        print(f"updated issue #{number}" + ("" if problems else " and closed it: every quote was found"))
    elif problems:
        created = _api("POST", f"/repos/{repo}/issues", {"title": TITLE, "body": text, "labels": [LABEL]})
        print(f"opened issue #{created['number']}")
    else:
        print("every quote was found; no issue to open")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
