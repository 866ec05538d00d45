"""Shared fixtures: optional tools, one site build, one PDF build and one learner's kit per test session."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import settings

import browser
import kernel_server
import kit_venv
import widget_page
from per_run import once_per_run, run_root

ROOT = Path(__file__).resolve().parents[1]
SHOTS = ROOT / "_build" / "screenshots"
LOGS = ROOT / "_build" / "logs"  # the workflow uploads both folders when the tests fail
IN_CI = os.environ.get("CI", "").lower() == "true"

# Property tests time nothing: under a loaded CI machine hypothesis' default 200 ms deadline only adds flakiness.
settings.register_profile("book", deadline=None)
settings.load_profile("book")


# `make test` spreads whole files over pytest-xdist workers in this order (`--no-loadscope-reorder`): the
# slowest first, so that no worker is left with a long file at the end while the other has finished. (By
# default xdist starts the files with the most tests first, and these files have few.) The PDFs and the
# site are built by the first file that needs each, so the two builds start side by side.
KERNEL_SCOPE = "the kernel test files"
SLOW_FILES_FIRST = [
    "tests/test_pdf.py", "tests/test_accessibility.py", "tests/test_kit.py",
    "tests/test_softmax_explorer_kernel.py", "tests/test_gradient_explorer_kernel.py",  # one work unit: see below
    "tests/test_practice_kernel.py", "tests/test_bigram_trainer_kernel.py", "tests/test_embedding_explorer_kernel.py",
    "tests/test_answer_box_kernel.py",
    "tests/test_cross_references.py", "tests/test_softmax_explorer_browser.py",
    "tests/test_gradient_explorer_browser.py", "tests/test_bigram_trainer_browser.py",
    "tests/test_embedding_explorer_browser.py",
    "tests/test_answer_box_browser.py", "tests/test_reading_mode.py", "tests/test_search.py", "tests/test_touch.py",
    "tests/test_site_nav.py", "tests/test_handout_links.py", "tests/test_site_offline.py",
    "tests/test_deep_boxes.py",
    # nbval runs a notebook cell by cell in one kernel (chapter 4 takes about 25 s): before the short files.
    "book/04_bigram.ipynb", "book/02_gradient.ipynb", "book/03_shared_embedding.ipynb", "book/appendix.ipynb",
    "book/01_probability_to_loss.ipynb", "intro.ipynb",
]


def pytest_collection_modifyitems(items):
    rank = {path: i for i, path in enumerate(SLOW_FILES_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(rank)))  # stable: the rest keep their order


def pytest_xdist_make_scheduler(config, log):
    """`--dist loadfile`, except that every kernel test file goes to the same worker: they share one Jupyter
    server and one open notebook per front end (kernel_server.py), which take about 30 s to start in each process."""
    if config.getoption("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class KernelFilesTogether(LoadFileScheduling):
        def _split_scope(self, nodeid):
            path = super()._split_scope(nodeid)
            return KERNEL_SCOPE if path.startswith("tests/test_") and path.endswith("_kernel.py") else path

    return KernelFilesTogether(config, log)


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


def keep_log(name: str, text: str) -> str:
    LOGS.mkdir(parents=True, exist_ok=True)
    (LOGS / f"{name}.log").write_text(text, encoding="utf-8")
    return text


@pytest.fixture(scope="session")
def kit_wheel(tmp_path_factory) -> Path:
    """The course wheel, built once per run (tests/kit_venv.py) where the site build looks for it."""
    return kit_venv.built_wheel(tmp_path_factory)


@pytest.fixture(scope="session")
def kit_env(tmp_path_factory) -> kit_venv.KitEnv:
    """The learner's environment (tests/kit_venv.py): a fresh venv with only the wheel and JupyterLab, once per run."""
    return kit_venv.built_env(tmp_path_factory)


@pytest.fixture(scope="session")
def site_build(tmp_path_factory, kit_wheel) -> SiteBuild:
    """The site built by `scripts/build_site.py --stored-outputs` (as `make site`, with the wheel of `make kit` beside
    it, but showing the outputs stored in the notebooks instead of running them again; nbval checks that a fresh run
    in the learner's kit gives those, tests/nbval_kit.py) into a temporary folder, once per test run."""
    out = run_root(tmp_path_factory) / "site-build"

    def build():
        proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "build_site.py"), "--out", str(out),
                               "--stored-outputs"], capture_output=True, text=True, cwd=ROOT)
        return [proc.returncode, keep_log("site-build", proc.stdout + proc.stderr)]

    returncode, log = once_per_run(tmp_path_factory, "site-build", build)
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
    import build_pdf
    tex_hint = "sudo apt-get install " + " ".join(build_pdf._debian_pdf_packages())
    for tool in ("xelatex", "latexmk", "pdftotext", "pdfinfo", "pdffonts", "pdfimages"):
        require_tool(tool, tex_hint)
    missing = build_pdf.missing_packages()
    if missing:
        message = build_pdf.install_hint(missing)
        if IN_CI:
            pytest.fail(message + " (CI=true, so this check may not be skipped)")
        pytest.skip(message)
    out = run_root(tmp_path_factory) / "pdf"

    def build():
        proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "build_pdf.py"), "--out", str(out),
                               "--work", str(out / "latex-work"), "--stored-outputs"],
                              capture_output=True, text=True, cwd=ROOT)
        logs = "".join(p.read_text(errors="replace")[-3000:] for p in (out / "logs").glob("*.log"))
        return [proc.returncode, keep_log("pdf-build", f"{proc.stdout}\n{proc.stderr}\n{logs}")]

    returncode, log = once_per_run(tmp_path_factory, "pdf-build", build)
    if returncode != 0:
        pytest.fail(f"build_pdf.py failed:\n{log}")
    return out


@pytest.fixture(scope="session")
def site_url(built_site):
    """The built site served on 127.0.0.1 for the session; its base URL."""
    with browser.serve(built_site) as url:
        yield url


@pytest.fixture(scope="session")
def chromium():
    """A headless Debian Chromium driven by Playwright (skips locally / fails in CI when missing)."""
    executable = require_tool("chromium", browser.CHROMIUM_HINT)
    pytest.importorskip("playwright.sync_api")
    with browser.chromium(executable) as chromium:
        yield chromium


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

    return once_per_run(tmp_path_factory, "site-tour", build)


@pytest.fixture(scope="module")
def loaded(request, chromium, built_site, site_url):
    """The browser-test module's PAGE, which must embed its widget (MARKER; see tests/widget_page.py), loaded once
    at desktop size, offline; `page.fresh` is its `restorable_state` then."""
    path, marker = request.module.PAGE, request.module.MARKER
    if not (built_site / path).is_file() or marker not in (built_site / path).read_text(encoding="utf-8"):
        pytest.fail(f"{path} does not embed the widget whose module says {marker!r}")
    context, page = widget_page.open_widget_page(chromium, f"{site_url}/{path}", request.module.WIDGET,
                                                 viewport=widget_page.DESKTOP)
    state = getattr(request.module, "restorable_state", None)
    page.fresh = state(page) if state else None
    yield page
    context.close()


@pytest.fixture
def page(request, loaded):
    """The loaded page with its first widget put back, through its own controls, as a fresh load shows it;
    no script error, missing file or request outside 127.0.0.1 when the test ends."""
    widget_page.restore(loaded, request.module)
    yield loaded
    widget_page.assert_page_clean(loaded)


@pytest.fixture(scope="session")
def kernel_notebooks(request, chromium):
    """Per front end, on first use: its Jupyter server (JupyterLab: the learner's kit's) and one page showing the
    notebook of every kernel test module collected, for this pytest process (tests/kernel_server.py)."""
    with kernel_server.FrontEnds(request, chromium, keep_log) as front_ends:
        yield front_ends


@pytest.fixture
def kernel_page(request, kernel_notebooks):
    """The test module's widget in the shared notebook in JupyterLab, or in the front end given as parameter
    (tests/kernel_server.py). When the test ends: a screenshot in _build/screenshots, no request may have left
    127.0.0.1, no script error, the widget drawn once."""
    front_end = getattr(request, "param", "jupyterlab")
    kernel_page = kernel_notebooks(front_end).widget(request.module)
    yield kernel_page
    kernel_page.notebook.assert_clean(SHOTS / f"{request.module.__name__.removeprefix('test_')}_{front_end}.png")
    assert kernel_page.root.count() == 1, "the widget was drawn more than once"


@pytest.fixture
def offline_page(chromium):
    """A fresh page whose requests to anything but 127.0.0.1 are blocked and recorded in `page.external`."""
    context, page = widget_page.offline_context(chromium)
    yield page
    context.close()
