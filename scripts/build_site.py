"""Build the site all or nothing: `mkdocs build --strict` into a new folder beside the target,
moved into place only when the build succeeds, so a failed build leaves no new site behind
(the previous site, if any, stays as it was).

    python scripts/build_site.py [TARGET] [-- extra mkdocs build options]
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path


def build(target: Path, extra: list[str]) -> int:
    target = target.absolute()
    target.parent.mkdir(parents=True, exist_ok=True)
    fresh = Path(tempfile.mkdtemp(prefix=f".{target.name}.new-", dir=target.parent))
    old = target.with_name(f".{target.name}.old-{os.getpid()}")
    try:
        command = [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(fresh), *extra]
        result = _run_annotated(command) if os.environ.get("GITHUB_ACTIONS") == "true" else subprocess.run(command)
        if result.returncode != 0:
            print(f"build failed: {target} was left as it was", file=sys.stderr)
            return result.returncode or 1
        umask = os.umask(0)
        os.umask(umask)
        fresh.chmod(0o777 & ~umask)   # mkdtemp makes it private; a site is not
        if target.exists():
            target.rename(old)
        fresh.rename(target)
        return 0
    finally:
        shutil.rmtree(fresh, ignore_errors=True)
        shutil.rmtree(old, ignore_errors=True)


def _run_annotated(command: list[str]) -> subprocess.CompletedProcess:
    """Run the build in GitHub Actions: its output passes through as it comes, and each problem
    it reports ("file:line: message", as PluginError text) is repeated as a workflow annotation
    (atlas.problems.annotation), so it shows on that line of the pull request's diff."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hooks"))
    from atlas.problems import annotations_in
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
    seen = []
    for line in proc.stdout:
        sys.stdout.write(line)
        sys.stdout.flush()
        seen.append(line)
    code = proc.wait()
    for found in annotations_in("".join(seen)):
        print(found, flush=True)
    return subprocess.CompletedProcess(command, code)


def main(argv: list[str]) -> int:
    extra = argv[argv.index("--") + 1:] if "--" in argv else []
    args = argv[: argv.index("--")] if "--" in argv else argv
    return build(Path(args[0] if args else "site"), extra)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
