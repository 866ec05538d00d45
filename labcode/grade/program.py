"""一本交上来的笔记本里，评分要运行哪些代码：定义要评的函数的语句，加上这些语句（连同函数体）用到的
全局名字的定义，一层层找下去，按笔记本里的先后排好。别的代码（画图、训练、打印、交互组件）一概不运行：
格子挪了、删了、加了，只要函数和它用到的名字还定义着，评分就不受影响。

这里只读代码、不运行代码（``ast`` 与 ``symtable``），教师这一侧解析交上来的笔记本也是安全的。
"""
from __future__ import annotations

import ast
import json
import re
import symtable
from dataclasses import dataclass, field
from pathlib import Path

# 魔法命令和 shell 命令不是 Python：%config …、!pip …换成 pass（行号不变）；%%bash 这类整格的魔法跳过，
# 只有照常运行这一格 Python 的几种（%%time 等）去掉第一行。
MAGIC_LINE = re.compile(r"^(\s*)[%!].*$", re.M)
PYTHON_CELL_MAGICS = ("%%time", "%%timeit", "%%capture", "%%prun")
DEFINES = re.compile(r"^(?:async\s+)?def\s+(\w+)|^class\s+(\w+)|^(\w+)\s*(?::[^=]*)?=(?!=)", re.M)


@dataclass(frozen=True)
class Statement:
    """一个顶层语句：在第几个代码格（从 1 数）、格里第几行，它绑定的名字和它用到的全局名字。"""

    cell: int
    line: int
    node: ast.stmt = field(repr=False)
    binds: frozenset
    uses: frozenset
    star: bool = False            # from x import *：不知道它绑定了哪些名字，总是运行

    def code(self, path):
        """编译好的代码，报错时的文件名和行号指向笔记本里的这一格。"""
        return compile(ast.Module([self.node], type_ignores=[]), f"{path}（第 {self.cell} 个代码格）", "exec")


@dataclass(frozen=True)
class Broken:
    """读不懂（语法错误）的一格：第几个代码格、第几行、Python 的说明，以及它看起来定义了哪些名字。"""

    cell: int
    line: int
    message: str
    names: frozenset


@dataclass
class Program:
    """一本笔记本的全部代码格，拆成顶层语句。``heads`` 是每个代码格的第一行（报告里用来指出是哪一格）。"""

    statements: list
    broken: list
    heads: dict

    def defined(self):
        """笔记本里在顶层定义了的名字（读不懂的格按文字猜）。"""
        return set().union(*(s.binds for s in self.statements), *(b.names for b in self.broken))

    def needed(self, names):
        """运行哪些语句才能得到 names（按笔记本里的先后）：定义它们的语句，以及这些语句用到的名字的定义，
        一层层找下去。同一个名字定义了几次，每一次都运行，最后留下的与从头到尾运行一遍相同。"""
        want, chosen = set(names), set()
        grew = True
        while grew:
            grew = False
            for k, statement in enumerate(self.statements):
                if k not in chosen and (statement.star or statement.binds & want):
                    chosen.add(k)
                    want |= statement.uses
                    grew = True
        return [self.statements[k] for k in sorted(chosen)]


def load(path):
    """读一本笔记本（.ipynb 的 JSON），返回 :class:`Program`；文件读不出来时抛出 ValueError（中文说明）。"""
    try:
        notebook = json.loads(Path(path).read_text(encoding="utf-8"))
        cells = [cell for cell in notebook["cells"] if cell.get("cell_type") == "code"]
        sources = [cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"]) for cell in cells]
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError) as err:
        raise ValueError(f"不是能读的笔记本（.ipynb）：{type(err).__name__}：{err}") from None
    return parse(sources)


def parse(sources):
    """代码格的源码（按顺序）-> :class:`Program`。"""
    statements, broken, heads = [], [], {}
    for cell, source in enumerate(sources, start=1):
        heads[cell] = next((line.strip() for line in source.splitlines() if line.strip()), "")
        stripped = source.lstrip()
        if stripped.startswith("%%"):
            if stripped.split(maxsplit=1)[0] not in PYTHON_CELL_MAGICS:
                continue
            source = source.replace(stripped.split("\n", 1)[0], "", 1)      # 行号不变：留下一个空行
        code = MAGIC_LINE.sub(lambda m: f"{m.group(1)}pass", source)
        try:
            tree = ast.parse(code)
        except (SyntaxError, ValueError, RecursionError, MemoryError) as err:
            names = {name for match in DEFINES.finditer(code) for name in match.groups() if name}
            reason = (err.msg or "语法错误") if isinstance(err, SyntaxError) else f"{type(err).__name__}：代码嵌套太深"
            broken.append(Broken(cell, getattr(err, "lineno", None) or 0, reason, frozenset(names)))
            continue
        for node in tree.body:
            star = isinstance(node, ast.ImportFrom) and any(alias.name == "*" for alias in node.names)
            statements.append(Statement(cell, node.lineno, node, frozenset(_binds(node)), frozenset(_uses(node)),
                                        star))
    return Program(statements, broken, heads)


SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp,
          ast.GeneratorExp)


def _scope(node):
    """node 里在模块顶层这个作用域执行的部分：不进入里面的函数体、lambda、类体和推导式。"""
    todo = [node]
    while todo:
        current = todo.pop()
        yield current
        if current is node or not isinstance(current, SCOPES):
            todo.extend(ast.iter_child_nodes(current))


def _base(target):
    """W[0] = …、model.W = … 改的是 W、model：返回最里面的名字（没有则 None）。"""
    while isinstance(target, (ast.Subscript, ast.Attribute, ast.Starred)):
        target = target.value
    return target.id if isinstance(target, ast.Name) else None


def _binds(node):
    """一个顶层语句绑定（或原地改动）的名字。"""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    names = set()
    for part in _scope(node):
        if isinstance(part, ast.Name) and isinstance(part.ctx, (ast.Store, ast.Del)):
            names.add(part.id)
        elif isinstance(part, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and part is not node:
            names.add(part.name)
        elif isinstance(part, (ast.Import, ast.ImportFrom)):
            names |= {alias.asname or alias.name.split(".")[0] for alias in part.names if alias.name != "*"}
        elif isinstance(part, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
            targets = part.targets if isinstance(part, (ast.Assign, ast.Delete)) else [part.target]
            names |= {_base(t) for t in targets if isinstance(t, (ast.Subscript, ast.Attribute))} - {None}
    return names


def _uses(node):
    """一个顶层语句用到的全局名字：顶层读到的，以及函数体、类体、lambda 里没有在本地定义的（symtable 说了算）。"""
    try:
        table = symtable.symtable(ast.unparse(node), "<cell>", "exec")
    except (SyntaxError, ValueError, RecursionError):
        return {part.id for part in ast.walk(node) if isinstance(part, ast.Name)}
    names, todo = set(), [table]
    while todo:
        current = todo.pop()
        top = current.get_type() == "module"
        names |= {s.get_name() for s in current.get_symbols() if s.is_referenced() and (top or s.is_global())}
        todo.extend(current.get_children())
    return names
