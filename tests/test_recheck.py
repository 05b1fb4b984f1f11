"""`make recheck` against a local HTTP server: found, changed, moved, gone, a timeout, a 50 MB
page, a 5xx, a redirect out of http(s), and a private address without the override. The scratch
copy's quoted facts all point at 127.0.0.1: the test never leaves the machine."""
from __future__ import annotations

import datetime as dt
import http.server
import json
import os
import re
import shutil
import subprocess
import threading
import time

import pytest
import yaml

from atlas import recheck
from conftest import ROOT, copy_repo

QUOTE = "GPU Droplets keep   their disks while stopped … billed per second"
PAGES = {
    "/found": f"<html><body><nav>menu</nav><p>GPU <b>Droplets</b> keep their\n disks while STOPPED.</p>"
              f"<script>var x = 'billed per second';</script><p>All compute is billed per second.</p></body></html>",
    "/changed": "<html><body><p>GPU Droplets are billed per hour now.</p></body></html>",
    "/elsewhere": "<html><body><p>GPU Droplets keep their disks while stopped; billed per second.</p></body></html>",
}
BIG = 50 * 1024 * 1024


class Handler(http.server.BaseHTTPRequestHandler):
    agents: list[str] = []

    def log_message(self, *args):   # quiet
        pass

    def _page(self, text: str, content_type: str) -> None:
        body = text.encode()
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):  # noqa: N802
        Handler.agents.append(self.headers.get("User-Agent", ""))
        path = self.path.split("?")[0]
        redirects = {"/moved": (301, "/elsewhere"), "/tidy": (301, "/tidy/"),   # a trailing slash is not a move
                     "/ftp": (302, "ftp://127.0.0.1/file")}
        if path in PAGES:
            self._page(PAGES[path], "text/html; charset=utf-8")
        elif path == "/tidy/":
            self._page(PAGES["/found"], "text/html")
        elif path == "/odd-charset":   # a charset Python does not know
            self._page(PAGES["/found"], "text/html; charset=x-no-such-charset")
        elif path in redirects:
            self.send_response(redirects[path][0])
            self.send_header("Location", redirects[path][1])
            self.end_headers()
        elif path in ("/gone", "/gone410", "/broken"):
            self.send_response({"/gone": 404, "/gone410": 410, "/broken": 503}[path])
            self.end_headers()
        elif path == "/drip":   # a byte just often enough never to time out
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            try:
                for _ in range(40):
                    self.wfile.write(b"x")
                    self.wfile.flush()
                    time.sleep(0.4)
            except (BrokenPipeError, ConnectionResetError):
                pass
        elif path == "/slow":
            time.sleep(3)
            self.send_response(200)
            self.end_headers()
        elif path in ("/huge", "/huge-unannounced"):
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            if path == "/huge":
                self.send_header("Content-Length", str(BIG))
            self.end_headers()
            chunk = b"<p>" + b"x" * 65530 + b"</p>"
            try:
                for _ in range(BIG // len(chunk)):
                    self.wfile.write(chunk)
            except (BrokenPipeError, ConnectionResetError):
                pass


@pytest.fixture(scope="module")
def server():
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


CASES = {   # field of the scratch provider -> (path, expected status)
    "kubernetes": ("/found", "found"),
    "custom_images": ("/changed", "changed"),
    "registry_auth": ("/moved", "moved"),
    "docker_daemon": ("/gone", "gone"),
    "persistent_volumes": ("/gone410", "gone"),
    "shared_volumes": ("/slow", "unreachable"),
    "ssh": ("/huge", "unreachable"),
    "jupyter": ("/huge-unannounced", "unreachable"),
    "spot": ("/broken", "unreachable"),
    "billing": ("/ftp", "refused"),
    "interconnect": ("/tidy", "found"),
    "mps": ("/odd-charset", "found"),
    "mig": ("/drip", "unreachable"),
}


def scratch_with_local_sources(tmp_path, base: str):
    """A copy of the repository whose only provider with quotes is AWS, every quoted source on
    the local server; every other provider keeps its facts without quotes."""
    root = copy_repo(tmp_path / "repo")
    for name in ("Makefile", "requirements.txt", "requirements-test.txt"):   # `make recheck`, with this checkout's .venv
        shutil.copy2(ROOT / name, root / name)
    (root / ".venv").symlink_to(ROOT / ".venv")
    data = yaml.safe_load((root / "data/providers.yaml").read_text(encoding="utf-8"))
    for p in data["providers"]:
        p.pop("pricing_page", None)
        for field, fact in p["facts"].items():
            if isinstance(fact, dict):
                fact.pop("quote", None)
                fact.pop("quote_lang", None)
    aws = next(p for p in data["providers"] if p["id"] == "aws")
    for field, (path, _) in CASES.items():
        aws["facts"][field] = {"value": aws["facts"][field]["value"] if isinstance(aws["facts"][field], dict) else "yes",
                               "sources": [base + path], "verified": dt.date(2026, 12, 1), "quote": QUOTE}
        if field in ("regions", "gpus", "local_billing"):
            raise AssertionError("list fields are not used here")
    (root / "data/providers.yaml").write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    for lang in ("en", "hi", "vi"):   # no quote is in another language any more
        words = root / f"data/i18n/{lang}.yaml"
        words.write_text(re.sub(r"(?m)^quotes:.*\n(?:  .*\n|\n)*", "", words.read_text(encoding="utf-8")), encoding="utf-8")
    return root


def run_recheck(root, *args, allow_private=True, timeout_s="1"):
    env = {**os.environ, "RECHECK_TIMEOUT": timeout_s, "RECHECK_MAX_BYTES": str(1024 * 1024)}
    env.pop("RECHECK_ALLOW_PRIVATE", None)
    if allow_private:
        env["RECHECK_ALLOW_PRIVATE"] = "1"
    for name in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL"):
        env.pop(name, None)
    return subprocess.run(["make", "-s", "recheck", *args], cwd=root, env=env, capture_output=True, text=True, timeout=120)


def test_make_recheck_reports_each_status_and_records_what_it_found(tmp_path, server):
    root = scratch_with_local_sources(tmp_path, server)
    urls = [u for p in yaml.safe_load((root / "data/providers.yaml").read_text())["providers"]
            for f in p["facts"].values() if isinstance(f, dict) and f.get("quote") for u in f["sources"]]
    assert urls and all(u.startswith("http://127.0.0.1:") for u in urls)   # nothing leaves the machine
    started = time.monotonic()
    result = run_recheck(root, "PROVIDER=aws")
    assert time.monotonic() - started < 60   # the slow page and the 50 MB pages are cut short
    assert result.returncode != 0 and "Error 1" in result.stderr, result.stdout + result.stderr   # not all found: exit 1
    report = json.loads((root / "recheck-report.json").read_text())
    by_field = {r["field"]: r for r in report}
    for field, (_, status) in CASES.items():
        assert by_field[field]["status"] == status, (field, by_field[field])
        assert set(by_field[field]) >= {"provider", "field", "url", "status", "http_status", "checked"}
        assert by_field[field]["provider"] == "aws"
    assert by_field["docker_daemon"]["http_status"] == 404 and by_field["persistent_volumes"]["http_status"] == 410
    assert by_field["spot"]["http_status"] == 503
    assert "over the" in by_field["ssh"]["detail"] and "over the" in by_field["jupyter"]["detail"]
    assert by_field["registry_auth"]["final_url"].endswith("/elsewhere")
    assert re.match(r"^data/providers.yaml$", by_field["kubernetes"]["file"]) and by_field["kubernetes"]["line"] > 1
    # the readable table names each problem with its file and line
    assert re.search(r"^changed +aws\.custom_images +data/providers\.yaml:\d+ ", result.stdout, re.M)
    assert "totals: found 3, changed 1, moved 1, gone 2, unreachable 5, refused 1" in result.stdout
    assert "not read within 3 s" in by_field["mig"]["detail"]
    assert all(a.startswith("CloudGPUAtlas-recheck/") for a in Handler.agents)
    # the found quotes' day is recorded beside the data, not in it, and the site shows it
    checked = yaml.safe_load((root / "data/checked.yaml").read_text())["checked"]
    assert set(checked["aws"]) == {"kubernetes", "interconnect", "registry_auth", "mps"}   # moved: the quote is there too
    assert checked["aws"]["kubernetes"]["found"] == dt.datetime.now(dt.timezone.utc).date()
    from atlas.data import load_atlas
    atlas = load_atlas(root)
    assert (("aws", "kubernetes") in atlas.checked) and (("aws", "custom_images") not in atlas.checked)


def test_a_private_address_is_refused_without_the_override(tmp_path, server):
    root = scratch_with_local_sources(tmp_path, server)
    result = run_recheck(root, "PROVIDER=aws", allow_private=False)
    assert result.returncode != 0 and "Error 1" in result.stderr
    report = json.loads((root / "recheck-report.json").read_text())
    assert {r["status"] for r in report} == {"refused"}
    assert all("not a public address" in r["detail"] or "not an http(s) URL" in r["detail"] for r in report)
    assert not (root / "data/checked.yaml").read_text().count("found:")


def test_an_unknown_provider_or_broken_data_cannot_run(tmp_path, server):
    root = scratch_with_local_sources(tmp_path, server)
    result = run_recheck(root, "PROVIDER=nobody")
    assert "Error 2" in result.stderr and "no provider 'nobody'" in result.stderr
    # make exits 2 for any failed command; the tool's own status (what the workflow reads) is 0, 1 or 2
    env = {**os.environ, "PYTHONPATH": str(root / "hooks"), "RECHECK_ALLOW_PRIVATE": "1", "RECHECK_TIMEOUT": "1"}
    module = [str(ROOT / ".venv/bin/python"), "-m", "atlas.recheck", "--root", str(root)]
    assert subprocess.run([*module, "--provider", "nobody"], env=env, capture_output=True, timeout=60).returncode == 2
    assert subprocess.run([*module, "--provider", "aws"], env=env, capture_output=True, timeout=120).returncode == 1
    (root / "data/providers.yaml").write_text("providers: [\n", encoding="utf-8")
    result = run_recheck(root)
    assert "Error 2" in result.stderr and "data/providers.yaml:" in result.stderr
    assert subprocess.run(module, env=env, capture_output=True, timeout=60).returncode == 2


@pytest.mark.parametrize("url", ["http://10.1.2.3/x", "http://169.254.169.254/latest/meta-data/", "http://[::1]/",
                                 "http://localhost/", "http://0.0.0.0/", "http://192.168.0.1/", "ftp://example.com/x",
                                 "http://[::ffff:127.0.0.1]/", "http://[64:ff9b::a9fe:a9fe]/", "http://100.64.0.1/",
                                 "file:///etc/passwd"])
def test_addresses_that_are_not_public_are_never_fetched(url, monkeypatch):
    monkeypatch.delenv("RECHECK_ALLOW_PRIVATE", raising=False)
    assert recheck.refusal(url)
    assert recheck.read(url).status == "refused"


def test_quotes_match_despite_whitespace_case_markup_and_gaps():
    text = recheck.page_text(b"<p>Docker-in-Docker is <strong>NOT</strong>\n permitted.</p><p>Use VMs instead.</p>", "text/html")
    assert recheck.quote_found("**Docker-in-Docker is not permitted** … use VMs", [text])
    assert recheck.quote_found("Docker-in-Docker is not permitted [release notes:] use VMs instead", [text])
    assert not recheck.quote_found("Docker-in-Docker is permitted", [text])
    # a quote stitched from two sources: each piece in one of them
    assert recheck.quote_found("alpha beta gamma … delta epsilon", [recheck.normalise("Alpha beta gamma"), recheck.normalise("delta  EPSILON")])
    assert recheck.fetch_url("https://github.com/o/r/blob/abc1234/docs/x.md") == "https://raw.githubusercontent.com/o/r/abc1234/docs/x.md"


def test_every_quote_found_exits_zero_and_keeps_earlier_days_for_unchanged_quotes(tmp_path, server):
    root = scratch_with_local_sources(tmp_path, server)
    text = (root / "data/providers.yaml").read_text(encoding="utf-8")
    (root / "data/providers.yaml").write_text(re.sub(r"(http://127\.0\.0\.1:\d+)/[a-z0-9/-]+", r"\1/found", text), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(root / "hooks"), "RECHECK_ALLOW_PRIVATE": "1", "RECHECK_TIMEOUT": "5"}
    module = [str(ROOT / ".venv/bin/python"), "-m", "atlas.recheck", "--root", str(root)]
    result = subprocess.run(module, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout
    assert f"{len(CASES)} of {len(CASES)} quoted facts found" in result.stdout
    # an entry whose quote a person has since changed is no longer shown
    data = (root / "data/providers.yaml").read_text(encoding="utf-8")
    (root / "data/providers.yaml").write_text(data.replace(QUOTE, "GPU Droplets keep their disks", 1), encoding="utf-8")
    from atlas.data import load_atlas
    atlas = load_atlas(root)
    assert len(atlas.checked) == len(CASES) - 1


class FakeGitHub(http.server.BaseHTTPRequestHandler):
    calls: list[tuple[str, str, dict | None]] = []
    open_issues: list[dict] = []

    def log_message(self, *args):
        pass

    def _answer(self, payload):
        body = json.dumps(payload).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):  # noqa: N802
        FakeGitHub.calls.append(("GET", self.path, None))
        self._answer(FakeGitHub.open_issues)

    def do_POST(self):  # noqa: N802
        data = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        FakeGitHub.calls.append(("POST", self.path, data))
        self._answer({"number": 7})

    do_PATCH = do_POST


def test_the_weekly_job_opens_one_issue_with_file_and_line_then_updates_it(tmp_path):
    import sys
    sys.path.insert(0, str(ROOT / "scripts"))
    import recheck_issue
    rows = [{"provider": "aws", "field": "mps", "url": "https://docs.aws.amazon.com/x", "status": "changed", "http_status": 200,
             "checked": "2026-12-07T05:17:00+00:00", "file": "data/providers.yaml", "line": 36, "final_url": "", "detail": "gone | words"},
            {"provider": "aws", "field": "ssh", "url": "https://docs.aws.amazon.com/y", "status": "found", "http_status": 200,
             "checked": "2026-12-07T05:17:00+00:00", "file": "data/providers.yaml", "line": 80, "final_url": "", "detail": ""}]
    text = recheck_issue.body(rows, "me/atlas", "abc1234def")
    assert "| changed | `aws.mps` | [data/providers.yaml:36](https://github.com/me/atlas/blob/abc1234def/data/providers.yaml#L36) |" in text
    assert "gone \\| words" in text and "`aws.ssh`" not in text and "1 found, 1 changed." in text
    report = tmp_path / "recheck-report.json"
    report.write_text(json.dumps(rows))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), FakeGitHub)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    env = {**os.environ, "GITHUB_API_URL": f"http://127.0.0.1:{httpd.server_address[1]}", "GITHUB_TOKEN": "t",
           "GITHUB_REPOSITORY": "me/atlas", "GITHUB_SHA": "abc1234def"}
    run = lambda: subprocess.run([str(ROOT / ".venv/bin/python"), str(ROOT / "scripts/recheck_issue.py"), str(report)],  # noqa: E731
                                 env=env, capture_output=True, text=True, timeout=60)
    assert run().stdout.strip() == "opened issue #7"
    assert [c[0] for c in FakeGitHub.calls] == ["GET", "POST"] and FakeGitHub.calls[1][2]["labels"] == ["source-recheck"]
    FakeGitHub.open_issues = [{"number": 7}]
    assert run().stdout.strip() == "updated issue #7"   # one issue, updated, never a second
    rows[0]["status"] = "found"
    report.write_text(json.dumps(rows))
    assert "closed it" in run().stdout and FakeGitHub.calls[-1][2]["state"] == "closed"
    httpd.shutdown()
