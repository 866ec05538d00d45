"""Shared fixtures: optional tools, one site build and one PDF build per test session."""
from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parents[1]
IN_CI = os.environ.get("CI", "").lower() == "true"

# Property tests time nothing: under a loaded CI machine hypothesis' default 200 ms deadline only adds flakiness.
settings.register_profile("book", deadline=None)
settings.load_profile("book")


# `make test` spreads whole files over pytest-xdist workers in this order (`--no-loadscope-reorder`): the
# slowest first, so that no worker is left with a long file at the end while the other has finished. (By
# default xdist starts the files with the most tests first, and these files have few.) The PDFs and the
# site are built by the first file that needs each, so the two builds start side by side.
SLOW_FILES_FIRST = [
    "tests/test_pdf.py", "tests/test_accessibility.py", "tests/test_kit.py",
    "tests/test_kernel_widgets.py", "tests/test_kernel_gradient.py", "tests/test_cross_references.py",
    "tests/test_browser.py", "tests/test_kernel_bigram_trainer.py", "tests/test_kernel_embedding.py",
    "tests/test_kernel_practice.py",
    "tests/test_browser_gradient.py", "tests/test_bigram_trainer_browser.py", "tests/test_browser_embedding.py",
    "tests/test_answer_box_browser.py",
    "tests/test_handout_links.py", "tests/test_site_offline.py", "tests/test_deep_boxes.py",
]


def pytest_collection_modifyitems(items):
    rank = {path: i for i, path in enumerate(SLOW_FILES_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(rank)))  # stable: the rest keep their order


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


def _run_root(tmp_path_factory) -> Path:
    """The run's temporary root, common to every pytest-xdist worker (`-n 2 --dist loadfile`)."""
    root = tmp_path_factory.getbasetemp()
    return root.parent if os.environ.get("PYTEST_XDIST_WORKER") else root


def _once_per_run(tmp_path_factory, name: str, build) -> list:
    """Run `build()` (which returns JSON-able data) once per test run, shared by all workers.

    The first worker to ask builds while holding a file lock; the others wait for it and reuse the result.
    """
    import fcntl
    import json

    root = _run_root(tmp_path_factory)
    record = root / f"{name}.json"
    with open(root / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not record.exists():
            record.write_text(json.dumps(build()), encoding="utf-8")
        return json.loads(record.read_text(encoding="utf-8"))


def _load_script(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def kit_wheel(tmp_path_factory) -> Path:
    """The course wheel, built once per run by scripts/build_kit.py where the site build looks for it: in
    site-build/_build/kit/, beside the HTML, as `make build` puts it."""
    out = _run_root(tmp_path_factory) / "site-build" / "_build" / "kit"

    def build():
        try:
            return [str(_load_script("build_kit").build_wheel(out)), ""]
        except RuntimeError as error:
            return ["", str(error)]

    path, error = _once_per_run(tmp_path_factory, "kit-wheel", build)
    if error:
        pytest.fail(error)
    return Path(path)


@pytest.fixture(scope="session")
def kit_env(tmp_path_factory, kit_wheel):
    """The learner's environment (tests/kit_venv.py): a fresh venv with only the wheel and JupyterLab, once per run."""
    import kit_venv
    root = _run_root(tmp_path_factory) / "kit"

    def build():
        try:
            kit_venv.create(root, kit_wheel)
            return ""
        except RuntimeError as error:
            return str(error)

    error = _once_per_run(tmp_path_factory, "kit-env", build)
    if error:
        pytest.fail(error)
    return kit_venv.KitEnv(root / "venv", root / "work", root / "kernels")


@pytest.fixture(scope="session")
def site_build(tmp_path_factory, kit_wheel) -> SiteBuild:
    """Build the book as `make site` does (`jupyter-book build . -W -n --keep-going`, with the wheel of
    `make kit` beside it) into a temporary folder, once per test run. The one difference: the pages show
    the outputs stored in the notebooks instead of running them again (scripts/book_config.py);
    tests/test_kit.py checks that a fresh run writes exactly those outputs."""
    out = _run_root(tmp_path_factory) / "site-build"

    def build():
        config = _load_script("book_config").write_config_copy(out / "_config_site.yml", None)
        jb = Path(sys.executable).with_name("jupyter-book")
        proc = subprocess.run(
            [str(jb), "build", str(ROOT), "-W", "-n", "--keep-going", "--config", str(config),
             "--path-output", str(out)],
            capture_output=True, text=True, cwd=ROOT)
        return [proc.returncode, proc.stdout + proc.stderr]

    returncode, log = _once_per_run(tmp_path_factory, "site-build", build)
    return SiteBuild(returncode, log, out / "_build" / "html")


@pytest.fixture(scope="session")
def built_site(site_build) -> Path:
    """The built HTML folder; fails the test that needs it if the build failed."""
    if site_build.returncode != 0:
        pytest.fail("the site build failed:\n" + site_build.log[-4000:])
    return site_build.html


@pytest.fixture(scope="session")
def pdf_dir(tmp_path_factory) -> Path:
    """Build every handout once per test run, into a temporary folder (never _build/, which `make build`
    uses), from the notebooks' stored outputs as the site build does."""
    build_pdf = _load_script("build_pdf")
    tex_hint = "sudo apt-get install " + " ".join(build_pdf._debian_pdf_packages())
    for tool in ("xelatex", "latexmk", "pdftotext", "pdftoppm", "pdfinfo"):
        require_tool(tool, tex_hint)
    missing = build_pdf.missing_packages()
    if missing:
        message = build_pdf.install_hint(missing)
        if IN_CI:
            pytest.fail(message + " (CI=true, so this check may not be skipped)")
        pytest.skip(message)
    out = _run_root(tmp_path_factory) / "pdf"

    def build():
        proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "build_pdf.py"), "--out", str(out),
                               "--work", str(out / "latex-work"), "--stored-outputs"],
                              capture_output=True, text=True, cwd=ROOT)
        logs = "".join(p.read_text(errors="replace")[-3000:] for p in (out / "logs").glob("*.log"))
        return [proc.returncode, f"{proc.stdout}\n{proc.stderr}\n{logs}"]

    returncode, log = _once_per_run(tmp_path_factory, "pdf-build", build)
    if returncode != 0:
        pytest.fail(f"build_pdf.py failed:\n{log}")
    return out


CHROMIUM_HINT = "sudo apt-get install chromium (and `pip install playwright`, already in requirements.txt)"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]


@pytest.fixture(scope="session")
def site_url(built_site):
    """Serve the built site on 127.0.0.1 for the duration of the session; yields its base URL."""
    import socket
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"],
                              cwd=built_site, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    _wait_for(url)
    yield url
    server.terminate()
    server.wait(timeout=10)


def _wait_for(url, seconds=15.0):
    import time
    import urllib.request
    deadline = time.monotonic() + seconds
    while True:
        try:
            urllib.request.urlopen(url, timeout=1).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


@pytest.fixture(scope="session")
def chromium():
    """A headless Debian Chromium driven by Playwright (skips locally / fails in CI when missing)."""
    executable = require_tool("chromium", CHROMIUM_HINT)
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def offline_context(chromium, **options):
    """A new browser context and page whose requests to anything but 127.0.0.1 are blocked and recorded in
    `page.external`; returns (context, page)."""
    context = chromium.new_context(**options)
    page = context.new_page()
    page.external = []

    def route(r):
        host = r.request.url.split("/")[2] if "://" in r.request.url else ""
        if r.request.url.startswith(("data:", "blob:")) or host.split(":")[0] == "127.0.0.1":
            r.continue_()
        else:
            page.external.append(r.request.url)
            r.abort()

    context.route("**/*", route)
    return context, page


@pytest.fixture(scope="session")
def site_tour(request, tmp_path_factory, built_site) -> dict:
    """Every page of the built site visited once at each width of tests/site_tour.py, once per test run:
    {width: {page: {axe_light, axe_dark, background_light, background_dark, phone, errors, failed, external}}}."""
    import site_tour

    def build():
        if not site_tour.AXE.exists():
            pytest.fail(f"{site_tour.AXE} is missing: `make assets` installs the npm packages of web/package.json")
        chromium, site_url = request.getfixturevalue("chromium"), request.getfixturevalue("site_url")
        return site_tour.visit(chromium, site_url, site_tour.site_pages(built_site),
                               site_tour.AXE.read_text(encoding="utf-8"))

    return _once_per_run(tmp_path_factory, "site-tour", build)


def assert_fits_its_column(root, width):
    """A widget at viewport `width` is no wider than its column and ends on the screen (1 px of rounding)."""
    overflow = root.evaluate("el => el.scrollWidth - el.clientWidth")
    assert overflow <= 1, f"the widget is wider than its column at {width}px by {overflow}px"
    assert root.evaluate("el => el.getBoundingClientRect().right <= document.documentElement.clientWidth + 1"), (
        f"the widget runs off the screen at {width}px")


@pytest.fixture(scope="session")
def jupyter_server(tmp_path_factory):
    """One Jupyter server (JupyterLab, also serving Notebook 7's pages) for every running-kernel test of this
    pytest process; see tests/kernel_server.py."""
    import kernel_server
    server, stop = kernel_server.start(tmp_path_factory.mktemp("jupyter"))
    yield server
    stop()


@pytest.fixture(scope="session")
def kit_jupyter_server(tmp_path_factory, kit_env):
    """JupyterLab as a learner starts it from the kit's environment (its own server, extensions and kernel), for
    the running-kernel tests of this pytest process that check the kit; see tests/kernel_server.py."""
    import kernel_server
    server, stop = kernel_server.start(tmp_path_factory.mktemp("kit-jupyter"), jupyter=kit_env.bin / "jupyter",
                                       environ=kit_env.environ())
    yield server
    stop()


@pytest.fixture
def offline_page(chromium):
    """A fresh page whose requests to anything but 127.0.0.1 are blocked and recorded in `page.external`."""
    context, page = offline_context(chromium)
    yield page
    context.close()
