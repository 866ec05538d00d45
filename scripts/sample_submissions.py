"""Write a folder of sample submissions for `python -m labcode.grade`: the book's chapter notebooks with their
“你来写” cells filled in as students do it, right (the book's own solutions, renamed), wrong (a named mistake for
each function), edited (cells moved, deleted, added), and broken (a syntax error, an endless loop, sys.exit,
os._exit, a function that blocks the time limit, an import every function needs that fails, a missing function,
the skeleton left as it is, a file that is not a notebook). Students are named the three ways the grader reads
(a sub-folder, the file name, the notebook's metadata).

Usage: `python scripts/sample_submissions.py DIR [--students 30] [--chapters 1,4]`, then
`python -m labcode.grade DIR --out RESULTS`. tests/book/test_grade.py and scripts/bench_grading.py use `write()`; its
`expected` says what the grader must find for every student and function.
"""
from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

from labcode.grade.__main__ import chapter_list
from labcode.practice.exercises import EXERCISES, notebook_of

ROOT = Path(__file__).resolve().parents[1]
SKELETON = re.compile(r'^def (my_\w+)\(.*?\):\n    """.*?"""\n    raise NotImplementedError\(.*?\)\s*$', re.S)

# One wrong version of each function, with the mistake the checker must name.
WRONG = {
    "my_softmax": ("def my_softmax(z):\n    e = np.exp(z)\n    return e / e.sum()\n", "no_max_shift"),
    "my_logsumexp": ("def my_logsumexp(z):\n    m = z.max()\n    return np.log(np.sum(np.exp(z - m)))\n",
                     "lse_max_not_added_back"),
    "my_cross_entropy": ("def my_cross_entropy(z, y):\n    e = np.exp(z - z.max())\n"
                         "    return -np.log(e[y] / e.sum() + 1e-9)\n", "eps_inside_log"),
    "my_grad": ("def my_grad(z, y):\n    e = np.exp(z - z.max())\n    p = e / e.sum()\n"
                "    return np.eye(len(z))[y] - p\n", "gradient_sign"),
    "my_numerical_grad": ("def my_numerical_grad(f, x, delta=1e-5):\n    x = np.asarray(x, dtype=float)\n"
                          "    grad = np.zeros_like(x)\n    for k in np.ndindex(x.shape):\n"
                          "        step = np.zeros_like(x)\n        step[k] = delta\n"
                          "        grad[k] = (f(x + step) - f(x)) / delta\n    return grad\n",
                          "one_sided_difference"),
    "my_mean_loss": ("def my_mean_loss(logits, targets):\n    valid = targets != -100\n"
                     "    z, t = logits[valid], targets[valid]\n    m = z.max(axis=1, keepdims=True)\n"
                     "    lse = m[:, 0] + np.log(np.exp(z - m).sum(axis=1))\n"
                     "    return np.sum(lse - z[np.arange(len(t)), t]) / len(targets)\n", "denominator_counts_ignored"),
    "my_embedding_backward": ("def my_embedding_backward(dH, ids, vocab_size):\n"
                              "    dE = np.zeros((vocab_size, dH.shape[1]))\n    dE[ids] += dH\n    return dE\n",
                              "repeated_ids_overwrite"),
    "my_one_hot_backward": ("def my_one_hot_backward(dH, ids, vocab_size):\n"
                            "    X = np.eye(vocab_size)[ids]\n    return X @ dH\n", "missing_transpose"),
    "my_loss_and_grad": ("def my_loss_and_grad(W, xs, ys):\n    N = len(xs)\n    e = np.exp(W - W.max())\n"
                         "    P = e / e.sum(axis=0)\n    loss = -np.log(P[xs, ys]).mean()\n"
                         "    dW = np.zeros_like(W)\n    np.add.at(dW, xs, (P[xs] - np.eye(len(W))[ys]) / N)\n"
                         "    return loss, dW\n", "wrong_axis"),
    "my_train": ("def my_train(loss_and_grad, W, lr, steps):\n    losses = []\n    for _ in range(steps):\n"
                 "        loss, dW = loss_and_grad(W)\n        losses.append(loss)\n        W = W + lr * dW\n"
                 "    losses.append(loss_and_grad(W)[0])\n    return W, losses\n", "descent_sign"),
    "my_counts_loss_and_grad": ("def my_counts_loss_and_grad(W, C):\n    N, n = C.sum(), C.sum(axis=1)\n"
                                "    s = W - W.max(axis=1, keepdims=True)\n"
                                "    logp = s - np.log(np.exp(s).sum(axis=1, keepdims=True))\n"
                                "    return -(C * logp).sum() / N, (n[:, None] * np.exp(logp) - C) / N\n",
                                "zero_times_inf"),
    "my_interpolated_nll": ("def my_interpolated_nll(C, xs, ys, gamma):\n    n = C.sum(axis=1)\n"
                            "    unigram = C.sum(axis=0) / C.sum()\n    w = np.where(n[xs] > 0, gamma, 0.0)\n"
                            "    p = w * C[xs, ys] / np.maximum(n[xs], 1) + (1 - w) * unigram[ys]\n"
                            "    return -np.mean(np.log(p))\n", "unigram_not_smoothed"),
}

# The kinds of student, in the order they are handed out; "expect" maps each function to what the grader must say:
# "pass", "mistake:KEY", or "note:TEXT" (a word of the row's note, the function not passed).
KINDS = ["right", "wrong", "edited", "syntax", "loop", "exit", "killed", "missing", "skeleton", "stuck", "unreadable",
         "mixed", "raises"]


def solutions():
    """The book's solution of every “你来写” function, renamed to the reader's name (softmax_solution -> my_softmax)."""
    found = {}
    for notebook in sorted({e.notebook for e in EXERCISES}):
        for cell in json.loads((ROOT / "book" / notebook).read_text(encoding="utf-8"))["cells"]:
            source = "".join(cell["source"])
            for match in re.finditer(r"^def (\w+)_solution\(.*?(?=^\S|\Z)", source, re.M | re.S):
                name = f"my_{match.group(1)}"
                found[name] = re.sub(rf"\b{match.group(1)}_solution\b", name, match.group(0)).rstrip() + "\n"
    return found


def code_cell(source):
    return {"cell_type": "code", "execution_count": None, "id": f"added-{abs(hash(source)) % 10**8}",
            "metadata": {}, "outputs": [], "source": source}


def filled(chapter, kind, right):
    """The chapter's notebook as a student of this kind hands it in, and what the grader must find in it."""
    notebook = json.loads((ROOT / "book" / notebook_of(chapter)).read_text(encoding="utf-8"))
    cells = notebook["cells"]
    functions = [e.function for e in EXERCISES if e.chapter == chapter]
    first, second = functions[0], functions[min(1, len(functions) - 1)]     # a chapter may have one function
    code = {name: right[name] for name in functions}
    expect = dict.fromkeys(functions, "pass")
    if kind in ("wrong", "mixed"):                                  # mixed: every other function wrong
        for name in functions[::1 if kind == "wrong" else 2]:
            code[name], expect[name] = WRONG[name][0], f"mistake:{WRONG[name][1]}"
    elif kind == "syntax":
        code[first] = code[first].replace("):\n", ")\n", 1)                         # the colon forgotten
        expect[first] = "note:语法错误"
    elif kind == "loop":
        code[first] = code[first].replace(":\n", ":\n    while True:\n        pass\n", 1)
        expect[first] = "note:超时"
    elif kind == "exit":
        code[second] = code[second].replace(":\n", ":\n    import sys\n    sys.exit('完成')\n", 1)
        expect[second] = "note:sys.exit()"
    elif kind == "killed":                                          # the process dies while its second function runs
        code[second] = code[second].replace(":\n", ":\n    import os\n    os._exit(3)\n", 1)
        expect.update({name: "note:意外结束" for name in functions[functions.index(second):]})
    elif kind == "stuck":                                           # no time limit can stop it: the notebook's can
        code[first] = code[first].replace(
            ":\n", ":\n    import signal\n    signal.signal(signal.SIGALRM, signal.SIG_IGN)\n"
                   "    while True:\n        pass\n", 1)
        expect = dict.fromkeys(functions, "note:进程被终止")
    elif kind == "skeleton":
        code = {}
        expect = dict.fromkeys(functions, "note:还没写")
    elif kind == "unreadable":
        expect = dict.fromkeys(functions, "note:读不出来")
    elif kind == "raises":                                          # the import every function needs fails
        imports = next(c for c in cells if "import numpy as np\n" in "".join(c["source"]))
        imports["source"] = "".join(imports["source"]).replace("import numpy as np\n", "import numpy_typo as np\n")
        expect = {name: "note:ModuleNotFoundError" if "np." in code[name] else "pass" for name in functions}
    for cell in cells:
        match = SKELETON.match("".join(cell["source"])) if cell["cell_type"] == "code" else None
        if match and match.group(1) in code:
            cell["source"] = code[match.group(1)]
    if kind == "missing":
        cells[:] = [c for c in cells if not "".join(c["source"]).startswith(f"def {second}(")]
        expect[second] = "note:没有找到"
    if kind == "edited":
        edit(cells, functions, code)
    if kind in ("loop", "exit", "raises"):                          # top-level code the grader must not run
        cells.insert(3, code_cell({"loop": "while True:\n    pass\n", "exit": "import sys\nsys.exit('再见')\n",
                                   "raises": "1 / 0\n"}[kind]))
    return notebook, expect


def edit(cells, functions, code):
    """Cells moved (the functions to the end, in reverse order), deleted (the solutions, every third markdown
    cell), added (a helper the first function calls, defined after it)."""
    mine = [c for c in cells if any("".join(c["source"]).startswith(f"def {name}(") for name in functions)]
    kept = [c for i, c in enumerate(cells) if c not in mine and "_solution" not in "".join(c["source"])
            and not (c["cell_type"] == "markdown" and i % 3 == 0)]
    helper = code_cell("def shift(values):\n    return values - values.max()\n")
    cells[:] = kept + mine[::-1] + [helper]
    first = mine[0]
    first["source"] = "".join(first["source"]).replace("z - z.max()", "shift(z)")


def write(folder, students=12, chapters=(1, 4), kinds=KINDS):
    """Write `students` students' submissions of the given chapters into folder, of the given kinds in turn;
    return {(student, function): expectation} ("pass", "mistake:KEY" or "note:TEXT")."""
    folder = Path(folder)
    right = solutions()
    expected = {}
    for k in range(students):
        kind = kinds[k % len(kinds)]
        student = f"{kind}-{k:02d}"
        for chapter in chapters:
            notebook, expect = filled(chapter, kind, right)
            name = notebook_of(chapter)
            style = 1 if kind == "unreadable" else k % 3            # (a broken file has no metadata to read)
            if style == 0:                                         # sub-folder per student
                path = folder / student / name
            elif style == 1:                                       # the student's name in the file name
                path = folder / f"{student}_{name}"
            else:                                                  # the name in the notebook's metadata
                notebook["metadata"]["lm_by_hand"] = {"student": student}
                path = folder / f"submission-{k:02d}-{chapter}.ipynb"
            path.parent.mkdir(parents=True, exist_ok=True)
            text = json.dumps(notebook, ensure_ascii=False, indent=1)
            path.write_text('{"cells": [这不是 JSON' if kind == "unreadable" else text, encoding="utf-8")
            expected.update({(student, name): value for name, value in expect.items()})
    return expected


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder")
    parser.add_argument("--students", type=int, default=30)
    # the grader's own reading of --chapters: only chapters with a “你来写”, said by name
    parser.add_argument("--chapters", type=chapter_list, default="1,4", help="comma-separated chapters (default 1,4)")
    args = parser.parse_args()
    expected = write(args.folder, args.students, args.chapters)
    print(f"{args.students} students, {len(expected)} functions in {args.folder}")


if __name__ == "__main__":
    main()
