"""`make serve`: MkDocs' own `mkdocs serve`, with three differences.

- The site is mounted at `/` (every language where the README says: /, /hi/, /vi/) whatever
  `site_url` the site is published under: `mkdocs serve` mounts it at site_url's path.
- A busy port is one line and a non-zero exit, before the build, not a traceback after it.
- No site copy is left in the temp folder: the site is built into `atlas-serve-<pid>-…` there,
  removed on Ctrl-C, SIGTERM (`kill`, or make killed) and SIGHUP (terminal closed); one left by
  a server killed outright (`kill -9`) is removed by the next start.

    python scripts/serve.py [--dev-addr 127.0.0.1:8000] [other mkdocs serve options]
"""
from __future__ import annotations

import argparse
import errno
import ipaddress
import os
import re
import shutil
import signal
import socket
import sys
import tempfile
from pathlib import Path

PREFIX = "atlas-serve-"


def port_problem(host: str, port: int) -> str | None:
    """Why `port` cannot be served on `host` now, as one line, or None."""
    try:
        family = socket.AF_INET6 if isinstance(ipaddress.ip_address(host), ipaddress.IPv6Address) else socket.AF_INET
    except ValueError:
        family = socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)   # as the server itself binds
        try:
            s.bind((host, port))
        except OSError as exc:
            return busy_line(host, port) if exc.errno == errno.EADDRINUSE else \
                f"make serve: cannot serve on {host}:{port}: {exc.strerror or exc}"
    return None


def busy_line(host: str, port: int) -> str:
    other = port + 1 if port < 65535 else 8001
    return f"make serve: port {port} is in use on {host}; try make serve PORT={other}"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def remove_stale(temp: Path) -> None:
    """Site copies of earlier servers of ours that were killed outright (their process is gone)."""
    for entry in temp.glob(PREFIX + "*"):
        m = re.match(re.escape(PREFIX) + r"(\d+)-", entry.name)
        try:
            ours = entry.is_dir() and not entry.is_symlink() and entry.stat().st_uid == os.getuid()
        except OSError:
            continue
        if m and ours and int(m.group(1)) != os.getpid() and not _alive(int(m.group(1))):
            shutil.rmtree(entry, ignore_errors=True)


class _SiteDir:
    """Stands in for `tempfile` inside mkdocs.commands.serve, whose one use of it is the
    mkdtemp of the folder it builds into: that folder is ours, with a name we can find again."""

    def __init__(self, path: str):
        self.path = path

    def mkdtemp(self, *args, **kwargs) -> str:
        return self.path

    def __getattr__(self, name):
        return getattr(tempfile, name)


def _stop(signum, frame):
    # As Ctrl-C: mkdocs serve then shuts down and removes its site. Once only: a second signal
    # must not cut the clean-up short.
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_IGN)
    raise KeyboardInterrupt


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("-a", "--dev-addr", default="127.0.0.1:8000")
    args, rest = parser.parse_known_args(argv)
    host, _, port_text = args.dev_addr.rpartition(":")
    if not host:
        print(f"make serve: --dev-addr {args.dev_addr!r}: write HOST:PORT, such as 127.0.0.1:8000", file=sys.stderr)
        return 2
    if not port_text.isdigit() or not 0 < int(port_text) < 65536:
        print(f"make serve: port {port_text!r} is not a number from 1 to 65535; try make serve PORT=8001",
              file=sys.stderr)
        return 2
    port = int(port_text)
    problem = port_problem(host, port)
    if problem:
        print(problem, file=sys.stderr)
        return 1

    from mkdocs.__main__ import cli
    from mkdocs.commands import serve as mkdocs_serve

    temp = Path(tempfile.gettempdir())
    remove_stale(temp)
    site_dir = tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-", dir=temp)
    real_serve = mkdocs_serve.serve

    def serve_at_root(**kwargs):
        return real_serve(site_url=f"http://{host}:{port}/", **kwargs)

    mkdocs_serve.serve = serve_at_root
    mkdocs_serve.tempfile = _SiteDir(site_dir)
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _stop)
    try:
        cli(["serve", "--dev-addr", f"{host}:{port}", *rest], prog_name="mkdocs")
    except OSError as exc:
        if exc.errno != errno.EADDRINUSE:
            raise
        print(busy_line(host, port), file=sys.stderr)   # taken while the site was building
        return 1
    finally:
        shutil.rmtree(site_dir, ignore_errors=True)
    return 0   # click exits on its own (SystemExit) at the end of a serve


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
