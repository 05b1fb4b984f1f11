"""`make serve` as a reader runs it: every language at the root of the port given, whatever
site_url the site is published under; a busy port is one line; a stopped server leaves no site
in the temp folder. And the tests' own server stays quiet when a browser hangs up."""
from __future__ import annotations

import functools
import http.server
import os
import re
import shutil
import signal
import socket
import struct
import subprocess
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from conftest import BIN, ROOT, _Quiet, copy_repo, free_port

FORK_URL = "https://example.org/a-fork/atlas/"   # a published site_url with a path, as a fork's


@pytest.fixture
def project(tmp_path) -> tuple[Path, dict]:
    """A scratch copy that `make serve` runs in (with the project's venv), published at FORK_URL,
    and the environment to run it with: a temp folder of its own, to count what is left there."""
    root = copy_repo(tmp_path / "repo")
    for name in ("Makefile", "requirements.txt", "requirements-test.txt"):
        shutil.copy2(ROOT / name, root / name)   # same times: the venv's stamp stays newer
    shutil.copytree(ROOT / "scripts", root / "scripts", ignore=shutil.ignore_patterns("__pycache__"))
    (root / ".venv").symlink_to(BIN.parent, target_is_directory=True)
    config = root / "mkdocs.yml"
    text, count = re.subn(r"(?m)^site_url:.*$", f"site_url: {FORK_URL}", config.read_text(encoding="utf-8"))
    assert count == 1
    config.write_text(text, encoding="utf-8")
    temp = tmp_path / "tmp"
    temp.mkdir()
    env = {k: v for k, v in os.environ.items()
           if k not in ("ATLAS_SITE_URL", "ATLAS_LANG", "MAKEFLAGS", "MAKELEVEL", "MFLAGS")}   # not a sub-make
    env.update({"TMPDIR": str(temp), "LANG": "C.UTF-8"})
    return root, env


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, r.read().decode("utf-8")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode("utf-8", "replace")


def _wait_served(url: str, proc: subprocess.Popen, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert proc.poll() is None, f"make serve ended (rc {proc.returncode}) before serving {url}"
        try:
            _get(url)
            return
        except OSError:
            time.sleep(0.2)
    pytest.fail(f"nothing served at {url} after {seconds} s")


def _left(temp: Path) -> list[str]:
    return sorted(p.name for p in temp.iterdir() if p.name.startswith(("atlas-serve-", "mkdocs_")))


def _kill_group(proc: subprocess.Popen) -> None:
    """Whatever make serve started and is still running (a failed test): gone."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait(timeout=10)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.long   # waits on a live server
@pytest.mark.parametrize("lang, pages", [
    (None, {"/": "en", "/hi/": "hi", "/vi/": "vi"}),
    ("hi", {"/": "hi"}),                               # the translator's preview: Hindi at the root
], ids=["all-languages", "LANG=hi"])
def test_make_serve_serves_every_language_at_the_root_of_the_port_given(project, lang, pages):
    root, env = project
    temp = Path(env["TMPDIR"])
    dead = subprocess.Popen(["true"])
    dead.wait()
    stale, running = f"atlas-serve-{dead.pid}-x", f"atlas-serve-{os.getpid()}-x"
    (temp / stale).mkdir()     # a server killed with -9 left it, its process is gone: removed on start
    (temp / running).mkdir()   # a live server's: kept
    port = free_port()
    args = ["make", "serve", f"PORT={port}"] + ([f"LANG={lang}"] if lang else [])
    proc = subprocess.Popen(args, cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)
    try:
        base = f"http://127.0.0.1:{port}"
        _wait_served(base + "/", proc, 180)
        for path, want in pages.items():
            status, html = _get(base + path)
            assert status == 200, f"{path}: {status}"
            assert re.search(r'<html lang="([a-z]+)"', html)[1] == want, path
            canonical = re.search(r'<link rel="canonical" href="([^"]+)"', html)
            assert canonical and canonical[1].startswith(base + path), (path, canonical and canonical[1])
        assert _get(base + "/a-fork/atlas/")[0] == 404   # not mounted at the published path
        left = _left(temp)
        serving = [n for n in left if n != running]
        assert running in left and len(serving) == 1 and serving[0].startswith("atlas-serve-"), left
        server_pid = int(serving[0].split("-")[2])

        proc.send_signal(signal.SIGTERM)   # `kill` of make serve: make passes it on
        proc.wait(timeout=30)
        deadline = time.monotonic() + 30
        while _alive(server_pid) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not _alive(server_pid), "the server outlived make serve"
        assert _left(temp) == [running], "a stopped server left its site behind"
    finally:
        _kill_group(proc)
        for name in (stale, running):
            shutil.rmtree(temp / name, ignore_errors=True)
        out = proc.stdout.read()
        proc.stdout.close()
    assert "Traceback" not in out, out


def test_a_busy_port_is_one_line_and_a_failure(project):
    root, env = project
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        started = time.monotonic()
        proc = subprocess.Popen(["make", "serve", f"PORT={port}"], cwd=root, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True, start_new_session=True)
        try:
            out = proc.communicate(timeout=60)[0]
        except subprocess.TimeoutExpired:
            out = "still running after 60 s"
        finally:
            _kill_group(proc)
        took = time.monotonic() - started
    assert proc.returncode != 0, out
    assert "Traceback" not in out, out
    ours = [line for line in out.splitlines() if not line.startswith("make: *** ")]   # make's own last word
    assert ours == [f"make serve: port {port} is in use on 127.0.0.1; try make serve PORT={port + 1}"], out
    assert took < 20, f"{took:.1f} s: the port is checked before the build"
    assert _left(Path(env["TMPDIR"])) == []


def test_the_port_counts_only_on_the_make_command_line():
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS")}
    given = subprocess.run(["make", "-n", "serve", "PORT=8001"], cwd=ROOT, env=env, capture_output=True, text=True,
                           timeout=60)
    assert "--dev-addr 127.0.0.1:8001" in given.stdout, given.stdout + given.stderr
    from_shell = subprocess.run(["make", "-n", "serve"], cwd=ROOT, env={**env, "PORT": "3000"}, capture_output=True,
                                text=True, timeout=60)
    assert "--dev-addr 127.0.0.1:8000" in from_shell.stdout, from_shell.stdout + from_shell.stderr


def test_the_test_server_says_nothing_when_a_browser_hangs_up(tmp_path, capfd):
    """A browser that navigates away drops the connection mid-answer: http.server printed a
    traceback for each (three in a passing `make test`)."""
    (tmp_path / "big.bin").write_bytes(b"x" * 8_000_000)
    threads = threading.active_count()
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(tmp_path)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        for linger in (False, True):   # closed (broken pipe), or reset
            with socket.create_connection(httpd.server_address) as s:
                if linger:
                    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                s.sendall(b"GET /big.bin HTTP/1.1\r\nHost: x\r\n\r\n")
                assert s.recv(100).startswith(b"HTTP/1.0 200")
        deadline = time.monotonic() + 10
        while threading.active_count() > threads + 1 and time.monotonic() < deadline:   # the answers end
            time.sleep(0.05)
    finally:
        httpd.shutdown()
        httpd.server_close()
    err = capfd.readouterr().err
    assert "Traceback" not in err and "Exception occurred" not in err, err
