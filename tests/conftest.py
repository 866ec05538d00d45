"""Shared fixtures: optional tools, and one site build per test session."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
IN_CI = os.environ.get("CI", "").lower() == "true"


def require_tool(name_or_path: str, install_hint: str) -> str:
    """Return the tool's path; skip locally (fail under CI=true) when it is missing."""
    path = shutil.which(name_or_path)
    if path:
        return path
    message = f"{name_or_path} is not installed; install it with: {install_hint}"
    if IN_CI:
        pytest.fail(f"{message} (CI=true, so this check may not be skipped)")
    pytest.skip(message)


@dataclass
class SiteBuild:
    returncode: int
    log: str
    html: Path


@pytest.fixture(scope="session")
def site_build(tmp_path_factory) -> SiteBuild:
    """Build the book exactly as `make site` does, into a temporary folder."""
    out = tmp_path_factory.mktemp("site")
    jb = Path(sys.executable).with_name("jupyter-book")
    proc = subprocess.run(
        [str(jb), "build", str(ROOT), "-W", "-n", "--keep-going", "--path-output", str(out)],
        capture_output=True, text=True, cwd=ROOT)
    return SiteBuild(proc.returncode, proc.stdout + proc.stderr, out / "_build" / "html")


@pytest.fixture(scope="session")
def built_site(site_build) -> Path:
    """The built HTML folder; fails the test that needs it if the build failed."""
    if site_build.returncode != 0:
        pytest.fail("the site build failed:\n" + site_build.log[-4000:])
    return site_build.html
