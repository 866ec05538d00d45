"""labcode.widgets._family: how a widget's front end is bundled, and maths.js as a classic page script.

Each widget module imports what it uses from the shared modules; the bundle that reaches the page holds
each shared module once, as a namespace object, and must run as an ES module with no network. The same
maths.js, as a classic script, must give a page one global object `labMaths` (answer boxes use it).
"""
from __future__ import annotations

import json
import re
import subprocess

import numpy as np
import pytest

import labcode
from conftest import require_tool
from labcode.widgets import _family, answer_box, bigram_trainer, embedding_explorer, gradient_explorer, softmax_explorer
from labcode.widgets._family import EXPORTED, front_end, maths_script, namespace_name, page_script

FACTORIES = {"softmax_explorer": softmax_explorer, "gradient_explorer": gradient_explorer,
             "embedding_explorer": embedding_explorer, "bigram_trainer": bigram_trainer,
             "answer_box": lambda: answer_box("softmax", label="ch1-ab-softmax", z="[0, 1, 2]")}
NODE_HINT = "sudo apt-get install nodejs (also needed for `make assets`)"


def node():
    return require_tool("node", NODE_HINT)


def maths_names():
    return EXPORTED.findall((_family.HERE / "maths.js").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", FACTORIES)
def test_each_widget_imports_explicitly_and_its_bundle_holds_each_shared_module_once(name):
    source = (_family.HERE / f"{name}.js").read_text(encoding="utf-8")
    bundle = FACTORIES[name]()._esm
    assert 'from "./maths.js";' in source and 'from "./dom.js";' in source
    assert not re.search(r"^import ", bundle, re.M), "an import statement reached the page"
    for module in ("maths", "dom"):
        assert bundle.count(f"const {namespace_name(module)} = (() => {{") == 1
    # Declared before use: every shared namespace comes before the widget's own code.
    assert bundle.index("const labMaths = ") < bundle.index("const labDom = ") < bundle.index(f"// {name}.js")
    assert bundle == front_end(name)


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
    assert result["gradient_explorer"]["exports"] == ["default", "runSteps", "stepMaths"]
    assert result["embedding_explorer"]["maths"] == sorted(maths_names())  # the page's maths, for parity tests
    assert result["bigram_trainer"]["maths"] == sorted(maths_names())
    assert result["answer_box"]["exports"] == ["default", "startPage"]   # startPage: the site's classic script


def test_maths_script_is_a_classic_script_with_one_global_namespace(tmp_path):
    """Run in a bare context as a page's <script> would (no module, no require): only `labMaths` appears."""
    (tmp_path / "maths.js").write_text(maths_script(), encoding="utf-8")
    cases = [[0.0, 1.0, 2.0], [1000.0, -1000.0], [-3.25, 0.5, 7.0, 2.0]]
    script = (
        'const vm = require("vm"), fs = require("fs");\n'
        "const page = {};\n"
        "vm.createContext(page);\n"
        'vm.runInContext(fs.readFileSync("maths.js", "utf8"), page);\n'
        "const m = page.labMaths;\n"
        "const cases = JSON.parse(process.argv[1]);\n"
        "console.log(JSON.stringify({globals: Object.keys(page), names: Object.keys(m), frozen: Object.isFrozen(m),\n"
        "  softmax: cases.map((z) => m.softmax(z)), loss: cases.map((z) => m.crossEntropy(z, 1)),\n"
        "  grad: cases.map((z) => m.crossEntropyGrad(z, 1)), step: cases.map((z) => m.gradientStep(z, 1, 0.5)),\n"
        "  fmt: [m.fmt(-0.0001, 3), m.fmt(-0.25, 3)]}));\n")
    proc = subprocess.run([node(), "-e", script, json.dumps(cases)], capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["globals"] == ["labMaths"] and out["frozen"]
    assert sorted(out["names"]) == sorted(maths_names())
    for k, z in enumerate(cases):
        np.testing.assert_allclose(out["softmax"][k], labcode.softmax(z), rtol=1e-12, atol=1e-300)
        assert out["loss"][k] == pytest.approx(labcode.cross_entropy(np.array(z), 1), rel=1e-12)
        np.testing.assert_allclose(out["grad"][k], labcode.cross_entropy_grad(np.array(z), 1), rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(out["step"][k], labcode.gradient_step(z, 1, 0.5), rtol=1e-12)
    assert out["fmt"] == [_family.fmt(-0.0001, 3), _family.fmt(-0.25, 3)]


def test_the_bundler_refuses_what_it_cannot_link(tmp_path, monkeypatch):
    monkeypatch.setattr(_family, "HERE", tmp_path)
    (tmp_path / "maths.js").write_text("export function one() { return 1; }\n", encoding="utf-8")
    (tmp_path / "good.js").write_text('import { one } from "./maths.js";\nexport default { render() {} };\n')
    assert "const { one } = labMaths;" in front_end("good")
    (tmp_path / "typo.js").write_text('import { two } from "./maths.js";\n')
    with pytest.raises(ValueError, match=r"maths.js 没有导出 \['two'\]"):
        front_end("typo")
    (tmp_path / "shared.js").write_text("export default function () {}\n")
    (tmp_path / "user.js").write_text('import { x } from "./shared.js";\n')
    with pytest.raises(ValueError, match="shared.js 只能用 export function/const/let/class 导出"):
        front_end("user")
    (tmp_path / "maths.js").write_text('import { x } from "./shared.js";\nexport const y = 1;\n')
    with pytest.raises(ValueError, match="maths.js 不能导入别的模块"):
        maths_script()


def test_a_page_script_is_the_module_without_imports_or_exports_and_starts_itself(tmp_path, monkeypatch):
    """What the site loads for the answer boxes: maths.js as the global labMaths, the other shared modules inside
    one function, the module's exports gone, and its start function called; it runs as a classic script."""
    monkeypatch.setattr(_family, "HERE", tmp_path)
    (tmp_path / "maths.js").write_text("export function one() { return 1; }\n")
    (tmp_path / "dom.js").write_text("export const two = () => 2;\n")
    (tmp_path / "box.js").write_text('import { one } from "./maths.js";\nimport { two } from "./dom.js";\n'
                                     "export function start() { globalThis.got = one() + two(); }\n"
                                     "export default { render() {} };\n")
    script = page_script("box", "start")
    assert not re.search(r"^(?:import|export) ", script, re.M)
    proc = subprocess.run([node(), "-e", script + "console.log(globalThis.got, typeof labDom);"],
                          capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["3", "undefined"]                   # only labMaths is global
    with pytest.raises(ValueError, match="box.js 没有导出 begin"):
        page_script("box", "begin")
    (tmp_path / "box.js").write_text("export function start() {}\nexport default {\n  render() {},\n};\n")
    with pytest.raises(ValueError, match="默认导出要写成一行"):
        page_script("box", "start")
