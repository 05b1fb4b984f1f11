"""Replay a GitHub workflow's job, step by step as written, in a clean root file system of the
image it names, to prove it passes before GitHub runs it.

    debootstrap --variant=minbase trixie /srv/trixie http://deb.debian.org/debian   # debian:13
    python3 scripts/replay_workflow.py /srv/trixie .github/workflows/test.yml fast [--log DIR]

Each `run:` step runs with `bash -e` inside the root file system (chroot, as root, like the
container), in a fresh `git clone` of this repository at HEAD placed where actions/checkout puts
it; `uses:` steps are stood in for (checkout: the clone, with history when `fetch-depth: 0`;
configure-pages: a base_url of https://example.github.io/atlas; the artifact upload: nothing).
The step's `env:` and `${{ ... }}` expressions we know are filled in; an unknown expression
stops the replay. Prints each step's name, its last lines and its time; exits with the first
failing step's status. Needs root (chroot, mount) and a root file system made by debootstrap.
"""
from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
WORKSPACE = "/__w/atlas/atlas"   # where the container job's checkout lives on GitHub
KNOWN = {
    "steps.pages.outputs.base_url": "https://example.github.io/atlas",
    "github.server_url": "https://github.com",
    "github.repository": "example/atlas",
    "github.workspace": WORKSPACE,
    # deploy.yml's correction link, for a fork with Issues on
    "github.event.repository.has_issues && format('{0}/{1}/issues/new?template=correction.md', github.server_url, "
    "github.repository) || 'https://github.com/cloud-gpu-atlas/cloud-gpu-atlas/issues/new?template=correction.md'":
        "https://github.com/example/atlas/issues/new?template=correction.md",
}


def expand(text: str) -> str:
    def one(m: re.Match) -> str:
        expr = m.group(1).strip()
        if expr in KNOWN:
            return KNOWN[expr]
        if expr.startswith("!cancelled()") or expr.startswith("hashFiles("):
            return "true"
        raise SystemExit(f"unknown expression ${{{{ {expr} }}}}: add it to KNOWN")
    return re.sub(r"\$\{\{(.*?)\}\}", one, text)


def mount(rootfs: Path) -> list[Path]:
    done = []
    for src, dest, kind in (("proc", "proc", "proc"), ("sysfs", "sys", "sysfs"), ("/dev", "dev", "bind"),
                            ("devpts", "dev/pts", "devpts"), ("tmpfs", "dev/shm", "tmpfs")):
        target = rootfs / dest
        target.mkdir(parents=True, exist_ok=True)
        args = ["mount", "--bind", src, str(target)] if kind == "bind" else ["mount", "-t", kind, src, str(target)]
        subprocess.run(args, check=True)
        done.append(target)
    shutil.copy("/etc/resolv.conf", rootfs / "etc" / "resolv.conf")
    # A machine whose HTTPS goes through an intercepting proxy trusts the proxy's certificate
    # authority in its own bundle; the clean root file system cannot know it. Only pip (the one
    # HTTPS client a step uses; apt reads deb.debian.org over HTTP) is pointed at a copy of it.
    host_ca = Path("/etc/ssl/certs/ca-certificates.crt")
    if host_ca.exists():
        shutil.copy(host_ca, rootfs / "etc" / "host-ca.crt")
    return done


def checkout(rootfs: Path, fetch_depth: int) -> None:
    dest = rootfs / WORKSPACE.lstrip("/")
    if dest.exists():
        shutil.rmtree(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    depth = [] if fetch_depth == 0 else ["--depth", str(fetch_depth)]
    subprocess.run(["git", "clone", "-q", "--no-local", *depth, f"file://{ROOT}", str(dest)], check=True)
    subprocess.run(["chown", "-R", "1001:1001", str(dest)], check=True)   # the runner's user, not root's


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("rootfs", type=Path)
    ap.add_argument("workflow", type=Path)
    ap.add_argument("job")
    ap.add_argument("--log", type=Path, default=Path("/tmp/replay"))
    args = ap.parse_args()
    job = yaml.safe_load(args.workflow.read_text(encoding="utf-8"))["jobs"][args.job]
    args.log.mkdir(parents=True, exist_ok=True)
    mounts = mount(args.rootfs)
    env = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME": "/github/home",
           "GITHUB_WORKSPACE": WORKSPACE, "CI": "true", "LANG": "C.UTF-8"}
    if (args.rootfs / "etc" / "host-ca.crt").exists():
        env["PIP_CERT"] = "/etc/host-ca.crt"
    (args.rootfs / "github" / "home").mkdir(parents=True, exist_ok=True)
    status = 0
    try:
        for n, step in enumerate(job["steps"], 1):
            name = step.get("name") or step.get("uses") or step.get("run", "").splitlines()[0]
            uses = step.get("uses", "")
            start = time.monotonic()
            if uses.startswith("actions/checkout"):
                checkout(args.rootfs, int((step.get("with") or {}).get("fetch-depth", 1)))
                print(f"[{n}] {name}: cloned HEAD into {WORKSPACE}", flush=True)
                continue
            if uses:
                print(f"[{n}] {name}: stood in for (a GitHub action)", flush=True)
                continue
            step_env = {**env, **{k: expand(str(v)) for k, v in (step.get("env") or {}).items()}}
            script = expand(step["run"])
            cwd = WORKSPACE if (args.rootfs / WORKSPACE.lstrip("/")).exists() else "/"
            log = args.log / f"{args.job}-{n}.log"
            with open(log, "w") as out:
                result = subprocess.run(["chroot", str(args.rootfs), "/usr/bin/env", "-i",
                                         *[f"{k}={v}" for k, v in step_env.items()],
                                         "bash", "-e", "-c", f"cd {cwd}\n{script}"],
                                        stdout=out, stderr=subprocess.STDOUT)
            tail = log.read_text(errors="replace").splitlines()[-6:]
            print(f"[{n}] {name}: exit {result.returncode} in {time.monotonic() - start:.0f} s (log {log})", flush=True)
            for line in tail:
                print(f"    {line}", flush=True)
            if result.returncode != 0:
                status = result.returncode
                break
    finally:
        for target in reversed(mounts):
            subprocess.run(["umount", "-l", str(target)])
    print(f"{args.workflow} job {args.job}: {'passed' if status == 0 else f'failed ({status})'}")
    return status


if __name__ == "__main__":
    sys.exit(main())
