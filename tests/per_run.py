"""Work done once per test run and shared by every pytest-xdist worker (`make test`: `-n 2 --dist loadfile`)."""
from __future__ import annotations

import fcntl
import json
import os
from pathlib import Path

import pytest


def run_root(tmp_path_factory) -> Path:
    """The run's temporary root, common to every pytest-xdist worker."""
    root = tmp_path_factory.getbasetemp()
    return root.parent if os.environ.get("PYTEST_XDIST_WORKER") else root


def once_per_run(tmp_path_factory, name: str, build):
    """Run `build()` (which returns JSON-able data) once per test run, shared by all workers.

    The first worker to ask builds while holding a file lock; the others wait for it and reuse the result. A build
    that raises RuntimeError fails the test that asked for it, in every worker.
    """
    root = run_root(tmp_path_factory)
    record = root / f"{name}.json"
    with open(root / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not record.exists():
            try:
                result = {"value": build()}
            except RuntimeError as error:
                result = {"error": str(error)}
            record.write_text(json.dumps(result), encoding="utf-8")
        result = json.loads(record.read_text(encoding="utf-8"))
    if "error" in result:
        pytest.fail(result["error"])
    return result["value"]
