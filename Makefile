# Every target creates or reuses the project-local environment in .venv.
# `make build` and `make test` are the two set-up commands of the README; `make help` lists the others.
VENV   ?= .venv
# The interpreter that creates .venv (Python >= 3.11, see requires-python in pyproject.toml).
PYTHON ?= python3
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
NPM_STAMP := web/node_modules/.package-lock.json
VENDOR_STAMP := _vendor/.ready
WIDGET_STAMP := labcode/widgets/static/answer_box.page.js
# uv installs the locked packages of requirements.lock into .venv in a fraction of pip's time.
UV     := uv==0.13.9
export PATH := $(abspath $(VENV))/bin:$(PATH)
export PYTHONHASHSEED := 0
export MPLBACKEND := Agg
# Python keeps each compiled module in __pycache__ (its default). Where the environment turns that off
# (PYTHONDONTWRITEBYTECODE), every process would compile its imports again: about 1 s for each Sphinx build,
# Jupyter server, kernel and test worker, some 30 s of a `make test` run.
export PYTHONDONTWRITEBYTECODE :=

.PHONY: help build site kit pdf check test lint execute lab bench grade assets lock clean worksheets grade-worksheets
.DEFAULT_GOAL := help

## help: this list
help:
	@sed -n 's/^## //p' $(MAKEFILE_LIST)

# The whole dependency set, every version and hash, comes from requirements.lock (`make lock` writes it).
$(STAMP): requirements.lock pyproject.toml
	@$(PYTHON) scripts/check_python.py
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet $(UV)
	$(VENV)/bin/uv pip install --quiet --python $(PY) -r requirements.lock
	touch $@

## lock: pin every package requirements.txt needs, with hashes, into requirements.lock (UPGRADE=1: newest versions)
lock: $(STAMP)
	$(VENV)/bin/uv pip compile requirements.txt --universal --python-version 3.11 --generate-hashes \
	  --custom-compile-command "make lock" $(if $(UPGRADE),--upgrade) --quiet -o requirements.lock

# The npm packages install while uv installs the Python ones (the prerequisites of `assets` run side by side).
ifeq ($(MAKELEVEL),0)
MAKEFLAGS += --jobs=2
endif
$(NPM_STAMP): web/package.json web/package-lock.json
	$(PYTHON) scripts/vendor_assets.py --npm-only

# esbuild bundles each widget's ES module, and the answer boxes' page script, into labcode/widgets/static/.
$(WIDGET_STAMP): $(NPM_STAMP) web/build_widgets.mjs $(wildcard labcode/widgets/*.js)
	node web/build_widgets.mjs
	touch $@

## assets: the npm packages (MathJax typesets formulas at build time), the widgets' bundles and the scripts the site serves (needs Node.js and npm)
assets: $(VENDOR_STAMP) $(WIDGET_STAMP)
$(VENDOR_STAMP): $(STAMP) $(NPM_STAMP) scripts/vendor_assets.py
	$(PY) scripts/vendor_assets.py
	touch $@

# `make clean build` (clean with any other goal) cleans before anything is written, even with --jobs=2.
ifneq ($(filter clean,$(MAKECMDGOALS)),)
$(VENDOR_STAMP) $(WIDGET_STAMP): clean
endif

## kit: the course package as a wheel in _build/kit (the learner's kit the site serves beside each chapter);
## TAG=vX.Y.Z (the release workflow) stops unless the tag names the version in pyproject.toml
kit: $(STAMP) $(WIDGET_STAMP)
	$(PY) scripts/build_kit.py $(if $(TAG),--tag $(TAG))

## build: the PDF handouts in _build/pdf (when TeX is installed), then the wheel and the site in _build/html, linking them
build: assets
	$(PY) scripts/build_pdf.py --if-available
	@$(MAKE) --no-print-directory site

## site: the wheel, then the site alone in _build/html (scripts/build_site.py: jupyter-book build, warnings as errors)
site: assets kit
	$(PY) scripts/build_site.py

## pdf: one PDF handout per chapter, the answer key and the whole book in _build/pdf
pdf: assets
	$(PY) scripts/build_pdf.py

## check: the edit-test loop, in well under 30 s: ruff, the unit tests (tests/unit/) and labcode's doctests;
## no site, browser, kernel, notebook or PDF (`make test` runs everything)
check: assets lint
	$(PY) -m pytest tests/unit labcode $(if $(JOBS),-n $(JOBS) --dist loadfile --no-loadscope-reorder)

## worksheets: each student's own worksheet and key as PDFs, and key.csv (docs/instructors.md): ROSTER=roster.csv
## CHAPTERS=1,2 [OUT=_build/worksheets]; the course's salt in the environment variable LM_BY_HAND_SALT
WORKSHEETS_OUT = $(or $(OUT),_build/worksheets)
worksheets: $(STAMP) $(WIDGET_STAMP)
	@test -n "$(ROSTER)" -a -n "$(CHAPTERS)" || { echo "make worksheets ROSTER=名单.csv CHAPTERS=1,2 [OUT=文件夹]"; exit 2; }
	$(PY) scripts/worksheets.py "$(ROSTER)" --chapters "$(CHAPTERS)" --out "$(WORKSHEETS_OUT)"

## grade-worksheets: grade answers typed from the worksheets: ANSWERS=answers.csv KEY=…/private/key.csv [OUT=…]
grade-worksheets: $(STAMP) $(WIDGET_STAMP)
	@test -n "$(ANSWERS)" -a -n "$(KEY)" || { echo "make grade-worksheets ANSWERS=答案.csv KEY=…/private/key.csv [OUT=文件夹]"; exit 2; }
	$(PY) scripts/grade_worksheets.py "$(ANSWERS)" --key "$(KEY)" --out "$(WORKSHEETS_OUT)"

## test: unit and property tests, doctests, nbval (every notebook once, in the learner's kit), site build, browser and PDF checks
## (test files run in JOBS processes with pytest-xdist, 2 by default; the site is still built once; JOBS= runs them in one)
JOBS ?= 2
test: assets
	$(PY) -m pytest $(if $(JOBS),-n $(JOBS) --dist loadfile --no-loadscope-reorder)

## lint: ruff over the code and the notebooks' code cells (`make test` runs it too); FIX=1 applies safe fixes
lint: $(STAMP)
	$(VENV)/bin/ruff check $(if $(FIX),--fix) conftest.py labcode scripts tests book _ext latex

## execute: re-run every notebook and store its outputs (the reference nbval compares against); NB=book/….ipynb for one
execute: $(STAMP) $(WIDGET_STAMP)
	$(PY) scripts/execute_notebooks.py $(NB)

## lab: JupyterLab on the chapter notebooks, sliders live
lab: $(STAMP) $(WIDGET_STAMP)
	$(VENV)/bin/jupyter lab book/

## grade: grade a folder of submitted notebooks without a server: SUBMISSIONS=dir OUT=dir [CHAPTERS=1,2]
## (grades.csv and feedback/ in OUT; the course salt comes from the variable LM_BY_HAND_SALT; docs/instructors.md)
grade: $(STAMP)
	@test -n "$(SUBMISSIONS)" -a -n "$(OUT)" || { echo "usage: make grade SUBMISSIONS=dir OUT=dir [CHAPTERS=1,2]"; exit 2; }
	$(PY) -m labcode.grade "$(SUBMISSIONS)" --out "$(OUT)" $(if $(CHAPTERS),--chapters $(CHAPTERS))

## bench: one table of build, test, widget and bigram timings (scripts/benchmark.py)
bench: assets
	$(PY) scripts/benchmark.py

## clean: remove _build, _vendor and the widgets' bundles (not .venv)
clean:
	rm -rf _build _vendor labcode/widgets/static
