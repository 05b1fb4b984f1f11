"""The Python the workflows, the Makefile and the README name is one every pin accepts.

Our machines run a newer Python than Debian 12's, which once hid that pymdown-extensions 13.1.2
refuses 3.11.2: both workflows could never pass. These tests read each pinned package's own
`Requires-Python` (from the installed metadata of exactly the pinned version) and check it
against the Python of every image a workflow names, the Makefile's minimum and the README.
"""
from __future__ import annotations

import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest
import yaml
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent

# The Python each image (or runner) ships as `python3`. A workflow that names an image missing
# here fails the test until its Python is measured and written down (STACK-NOTES.md has these).
IMAGE_PYTHON = {
    "debian:12": "3.11.2",
    "debian:13": "3.13.5",
    "ubuntu-24.04": "3.12.3",
    "ubuntu-latest": "3.12.3",
}


def pins() -> dict[str, str]:
    """package -> pinned version, from requirements.txt and requirements-test.txt."""
    out = {}
    for name in ("requirements.txt", "requirements-test.txt"):
        for line in (ROOT / name).read_text(encoding="utf-8").splitlines():
            line = line.split("#", 1)[0].strip()
            if not line or line.startswith("-r"):
                continue
            m = re.fullmatch(r"([A-Za-z0-9_.-]+)==([^\s;]+)", line)
            assert m, f"{name}: {line!r} is not pinned exactly (name==version)"
            out[m.group(1)] = m.group(2)
    return out


def requires_python() -> dict[str, SpecifierSet]:
    """package==version -> its declared Requires-Python (empty: any)."""
    out = {}
    for name, version in pins().items():
        dist = metadata.distribution(name)
        assert canonicalize_name(dist.metadata["Name"]) == canonicalize_name(name)
        assert dist.version == version, f"{name}: installed {dist.version}, pinned {version}; run make test to reinstall"
        out[f"{name}=={version}"] = SpecifierSet(dist.metadata.get("Requires-Python") or "")
    return out


def refused(python: str) -> list[str]:
    """The pins whose Requires-Python excludes `python`."""
    return [f"{pin} (Requires-Python {spec})" for pin, spec in requires_python().items()
            if not spec.contains(Version(python), prereleases=True)]


def workflow_pythons() -> list[tuple[str, str, str]]:
    """(workflow, job, image) for every job that runs our Makefile."""
    out = []
    for path in sorted((ROOT / ".github" / "workflows").glob("*.yml")):
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        for job_id, job in doc["jobs"].items():
            steps = job.get("steps") or []
            if not any("make " in (s.get("run") or "") or ".ci/run" in (s.get("run") or "") for s in steps):
                continue
            container = job.get("container")
            image = container.get("image") if isinstance(container, dict) else container
            out.append((path.name, job_id, image or job.get("runs-on")))
    return out


def makefile_min() -> str:
    m = re.search(r"^PYTHON_MIN := (\S+)$", (ROOT / "Makefile").read_text(encoding="utf-8"), re.M)
    assert m, "Makefile: PYTHON_MIN is not set"
    return m.group(1)


def test_every_workflow_python_satisfies_every_pin():
    jobs = workflow_pythons()
    assert len(jobs) >= 3, jobs   # test.yml: fast and test; deploy.yml: build
    for workflow, job, image in jobs:
        assert image in IMAGE_PYTHON, f"{workflow} job {job}: image {image!r} has no measured Python in IMAGE_PYTHON"
        python = IMAGE_PYTHON[image]
        assert not refused(python), f"{workflow} job {job} runs Python {python} ({image}), which these pins refuse: {refused(python)}"


def test_debian_12_python_is_refused_so_the_check_can_fail():
    # The reason the workflows moved: if this stops being true, the check above still holds.
    assert any(p.startswith("pymdown-extensions==") for p in refused("3.11.2"))


def test_makefile_minimum_is_the_real_minimum():
    minimum = makefile_min()
    assert not refused(minimum), f"Makefile PYTHON_MIN {minimum} is refused by {refused(minimum)}"
    below = Version(minimum)
    lower = f"{below.major}.{below.minor}.{below.micro - 1}" if below.micro else f"{below.major}.{below.minor - 1}.99"
    assert refused(lower), f"Makefile PYTHON_MIN {minimum} is stricter than any pin: {lower} is accepted by all"
    why = re.search(r"^PYTHON_MIN_WHY := (.+)$", (ROOT / "Makefile").read_text(encoding="utf-8"), re.M).group(1)
    assert any(pin.split(" ")[0] in why for pin in refused(lower)), why


def test_readme_states_the_minimum():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"Python {makefile_min()} or newer" in readme
    assert "Python 3.11+" not in readme


def test_makefile_refuses_an_old_python_in_one_line(tmp_path):
    """A Python that reports 3.11.2 is refused before .venv exists, in one line naming both versions."""
    fake = tmp_path / "fake"
    fake.mkdir()
    (fake / "sitecustomize.py").write_text("import sys\nsys.version_info = (3, 11, 2, 'final', 0)\n")
    python = tmp_path / "python-old"
    python.write_text(f"#!/bin/sh\nPYTHONPATH={fake} exec {sys.executable} \"$@\"\n")
    python.chmod(0o755)
    work = tmp_path / "repo"
    work.mkdir()
    for name in ("Makefile", "requirements.txt", "requirements-test.txt"):
        (work / name).write_bytes((ROOT / name).read_bytes())
    result = subprocess.run(["make", "-s", "-C", str(work), ".venv/bin/python", f"PYTHON={python}"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode != 0
    assert not (work / ".venv").exists()
    lines = [line for line in result.stderr.splitlines() if "Python" in line]
    assert len(lines) == 1, result.stderr
    assert "3.11.2" in lines[0] and makefile_min() in lines[0] and "pymdown-extensions" in lines[0]


@pytest.mark.parametrize("version", ["3.11.5", "3.12.3", "3.13.5"])
def test_supported_pythons_are_accepted(version):
    assert not refused(version)
