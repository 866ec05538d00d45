"""labcode.widgets._base and web/build_widgets.mjs: how a widget's front end reaches the page.

esbuild bundles each widget module with the shared modules it imports (maths.js, dom.js, candidates.js) into one
ES module, the widget's `_esm`, and the answer boxes' module into a classic page script for the site; the bundles
in labcode/widgets/static/ must be those of today's sources (`make assets` writes them) and run with no network.
maths.js mirrors labcode: checked here for the functions every widget uses, and by each widget's browser test.
"""
from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest

import labcode
from conftest import require_tool
from labcode.widgets import _base, answer_box, bigram_trainer, embedding_explorer, gradient_explorer, softmax_explorer

ROOT = Path(__file__).resolve().parents[2]
FACTORIES = {"softmax_explorer": softmax_explorer, "gradient_explorer": gradient_explorer,
             "embedding_explorer": embedding_explorer, "bigram_trainer": bigram_trainer,
             "answer_box": lambda: answer_box("softmax", label="ch1-ab-softmax", z="[0, 1, 2]")}
NODE_HINT = "sudo apt-get install nodejs (also needed for `make assets`)"


def node():
    return require_tool("node", NODE_HINT)


def test_the_bundles_are_esbuilds_of_todays_sources(tmp_path):
    """A JS change without `make assets` leaves a stale bundle: the widgets would run yesterday's code."""
    proc = subprocess.run([node(), str(ROOT / "web" / "build_widgets.mjs"), str(tmp_path)], capture_output=True,
                          text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    fresh = {p.name: p.read_text(encoding="utf-8") for p in tmp_path.iterdir()}
    assert sorted(fresh) == sorted([f"{name}.mjs" for name in FACTORIES] + ["answer_box.page.js"])
    for name, text in fresh.items():
        assert (_base.STATIC / name).read_text(encoding="utf-8") == text, f"{name} is stale: run `make assets`"


@pytest.mark.parametrize("name", FACTORIES)
def test_each_widget_imports_explicitly_and_its_bundle_holds_the_shared_code(name):
    source = (_base.HERE / f"{name}.js").read_text(encoding="utf-8")
    bundle = FACTORIES[name]()._esm
    assert bundle == _base.bundle(name)
    assert 'from "./maths.js";' in source and 'from "./dom.js";' in source
    assert not re.search(r"^import ", bundle, re.M), "an import statement reached the page"
    for module in ("maths", "dom"):
        assert bundle.count(f"// labcode/widgets/{module}.js\n") == 1


def test_all_bundles_run_as_es_modules_and_export_a_render(tmp_path):
    """What anywidget does with `_esm`, in Node: import it and find `default.render`."""
    paths = {}
    for name, factory in FACTORIES.items():
        paths[name] = tmp_path / f"{name}.mjs"
        paths[name].write_text(factory()._esm, encoding="utf-8")
    script = ("const names = JSON.parse(process.argv[1]);\n"
              "Promise.all(Object.values(names).map((p) => import(p))).then((mods) => console.log(JSON.stringify(\n"
              "  mods.map((m) => ({render: typeof m.default.render, exports: Object.keys(m).sort(),\n"
              "                   maths: m.maths ? Object.keys(m.maths).sort() : null})))));\n")
    proc = subprocess.run([node(), "--input-type=module", "-e", script,
                           json.dumps({k: str(p) for k, p in paths.items()})],
                          capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    result = dict(zip(paths, json.loads(proc.stdout), strict=True))
    assert all(r["render"] == "function" for r in result.values())
    assert result["softmax_explorer"]["exports"] == ["default", "explorerMaths"]
    assert result["gradient_explorer"]["exports"] == ["PREVIEW_STEPS", "default", "runSteps", "stepMaths"]
    exported = sorted(re.findall(r"^export function (\w+)", (_base.HERE / "maths.js").read_text(encoding="utf-8"),
                                 re.M))
    assert result["embedding_explorer"]["maths"] == exported  # the page's maths, for parity tests
    assert result["bigram_trainer"]["maths"] == exported
    assert result["answer_box"]["exports"] == ["default", "markup", "startPage"]   # the site's build and page


def test_the_shared_maths_agrees_with_labcode(tmp_path):
    """maths.js as written (an ES module with no imports) against labcode, for the functions every widget uses."""
    (tmp_path / "maths.mjs").write_text((_base.HERE / "maths.js").read_text(encoding="utf-8"), encoding="utf-8")
    cases = [[0.0, 1.0, 2.0], [1000.0, -1000.0], [-3.25, 0.5, 7.0, 2.0]]
    script = ('import * as m from "./maths.mjs";\n'
              "const cases = JSON.parse(process.argv[1]);\n"
              "console.log(JSON.stringify({softmax: cases.map((z) => m.softmax(z)),\n"
              "  loss: cases.map((z) => m.crossEntropy(z, 1)), grad: cases.map((z) => m.crossEntropyGrad(z, 1)),\n"
              "  step: cases.map((z) => m.gradientStep(z, 1, 0.5)), fmt: [m.fmt(-0.0001, 3), m.fmt(-0.25, 3)]}));\n")
    proc = subprocess.run([node(), "--input-type=module", "-e", script, json.dumps(cases)], capture_output=True,
                          text=True, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    for k, z in enumerate(cases):
        np.testing.assert_allclose(out["softmax"][k], labcode.softmax(z), rtol=1e-12, atol=1e-300)
        assert out["loss"][k] == pytest.approx(labcode.cross_entropy(np.array(z), 1), rel=1e-12)
        np.testing.assert_allclose(out["grad"][k], labcode.cross_entropy_grad(np.array(z), 1), rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(out["step"][k], labcode.gradient_step(z, 1, 0.5), rtol=1e-12)
    assert out["fmt"] == [_base.fmt(-0.0001, 3), _base.fmt(-0.25, 3)]


def test_numbers_read_the_same_in_the_page_as_in_python(tmp_path):
    """maths.js's short, which labels the sliders, against _base.short, which writes the widgets' summaries and
    pictures: the same text for a slider's values and for what Python may set (λ = 1e-05, a million steps)."""
    (tmp_path / "maths.mjs").write_text((_base.HERE / "maths.js").read_text(encoding="utf-8"), encoding="utf-8")
    values = [0.0, -0.0, 1.0, -1.5, 0.1 * 3, 2 / 3, 70.0, 1000.0, 123456.0, 999999.4, 999999.6, 1234567.0, 0.0001,
              0.00012345, 0.00001, -0.000012345, 1e-12, 3e20, float("inf"), float("-inf"), float("nan")]
    values += [round(-10 + 0.1 * k, 10) for k in range(201)]    # the softmax explorer's score slider
    values += [round(0.001 * k, 10) for k in range(0, 1001, 7)]   # a step of 0.001, as the trainer's λ
    script = ('import { short } from "./maths.mjs";\n'
              "const values = JSON.parse(process.argv[1], (k, v) => (v === \"nan\" ? NaN : v === \"inf\" ? Infinity"
              " : v === \"-inf\" ? -Infinity : v === \"-0\" ? -0 : v));\n"
              "console.log(JSON.stringify(values.map(short)));\n")
    sent = [v if np.isfinite(v) and not (v == 0 and np.signbit(v)) else _base.short(v) for v in values]
    proc = subprocess.run([node(), "--input-type=module", "-e", script, json.dumps(sent)], capture_output=True,
                          text=True, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    page = json.loads(proc.stdout)
    differ = [(v, page[k], _base.short(v)) for k, v in enumerate(values) if page[k] != _base.short(v)]
    assert not differ, differ


def test_the_page_script_is_a_classic_script_that_starts_the_boxes(tmp_path):
    """Run in a bare context as a page's <script> would (no module, no require): it leaves one global,
    labAnswerBoxes, and sets up the page's boxes once the document is read."""
    script = ('const vm = require("vm"), fs = require("fs");\n'
              "const page = { document: { readyState: 'complete', querySelectorAll: () => [] },\n"
              "               location: { pathname: '/a.html', hash: '' }, addEventListener() {} };\n"
              "page.window = page;\n"
              "vm.createContext(page);\n"
              "vm.runInContext(fs.readFileSync(process.argv[1], 'utf8'), page);\n"
              "console.log(JSON.stringify(Object.keys(page)));\n")
    proc = subprocess.run([node(), "-e", script, str(_base.STATIC / "answer_box.page.js")], capture_output=True,
                          text=True, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == ["document", "location", "addEventListener", "window", "labAnswerBoxes"]


def test_a_missing_bundle_says_how_to_make_it(tmp_path, monkeypatch):
    monkeypatch.setattr(_base, "STATIC", tmp_path)
    with pytest.raises(RuntimeError, match=r"找不到交互组件的前端模块 .*softmax_explorer\.mjs：在仓库里先运行 `make"):
        _base.bundle("softmax_explorer")
