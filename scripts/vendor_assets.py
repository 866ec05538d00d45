"""Copy the scripts the site serves itself (MathJax, widget runtime) into _vendor/.

_vendor/ is listed in html_static_path, so everything here is published under
_build/html/_static/. Nothing is fetched from a CDN when a reader opens a page.
The npm packages are pinned in web/package.json and web/package-lock.json.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "web"
MODULES = WEB / "node_modules"
VENDOR = ROOT / "_vendor"

# MathJax: the TeX→CHTML bundle plus the parts it loads lazily (extensions, fonts, menu).
MATHJAX_KEEP = ["tex-chtml.js", "input", "output", "ui", "a11y", "adaptors"]


def npm_install():
    if shutil.which("npm") is None:
        sys.exit("npm was not found. Install Node.js and npm first, e.g. `sudo apt-get install nodejs npm`.")
    stamp = MODULES / ".package-lock.json"
    lock = WEB / "package-lock.json"
    if stamp.exists() and lock.exists() and stamp.stat().st_mtime >= lock.stat().st_mtime:
        return
    cmd = ["npm", "ci" if lock.exists() else "install", "--no-audit", "--no-fund", "--silent"]
    subprocess.run(cmd, cwd=WEB, check=True)


def copy_tree(src: Path, dst: Path):
    if dst.exists():
        shutil.rmtree(dst) if dst.is_dir() else dst.unlink()
    dst.parent.mkdir(parents=True, exist_ok=True)
    (shutil.copytree if src.is_dir() else shutil.copy2)(src, dst)


def vendor_mathjax():
    es5 = MODULES / "mathjax" / "es5"
    for name in MATHJAX_KEEP:
        copy_tree(es5 / name, VENDOR / "mathjax" / name)


def main():
    npm_install()
    vendor_mathjax()
    print(f"site assets ready in {VENDOR.relative_to(ROOT)}/")


if __name__ == "__main__":
    main()
