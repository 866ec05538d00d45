# Every target creates or reuses the project-local environment in .venv.
# `make build` and `make test` are the two set-up commands of the README.
VENV   ?= .venv
# The interpreter that creates .venv (Python >= 3.11, see requires-python in pyproject.toml).
PYTHON ?= python3
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
NPM_STAMP := web/node_modules/.package-lock.json
# uv installs the pinned packages of requirements.txt into .venv in a fraction of pip's time.
UV     := uv==0.13.9
export PATH := $(abspath $(VENV))/bin:$(PATH)
export PYTHONHASHSEED := 0
export MPLBACKEND := Agg

.PHONY: build site kit pdf test lint execute lab bench assets clean

$(STAMP): requirements.txt pyproject.toml
	@$(PYTHON) scripts/check_python.py
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet $(UV)
	$(VENV)/bin/uv pip install --quiet --python $(PY) -r requirements.txt
	touch $@

# The npm packages install while uv installs the Python ones (the two prerequisites of `assets` run side by side).
MAKEFLAGS += --jobs=2
$(NPM_STAMP): web/package.json web/package-lock.json
	$(PYTHON) scripts/vendor_assets.py --npm-only

## assets: the npm packages (MathJax typesets formulas at build time) and the widget scripts the site serves (needs Node.js and npm)
assets: $(STAMP) $(NPM_STAMP)
	$(PY) scripts/vendor_assets.py

## kit: the course package as a wheel in _build/kit (the learner's kit the site serves beside each chapter);
## TAG=vX.Y.Z (the release workflow) stops unless the tag names the version in pyproject.toml
kit: $(STAMP)
	$(PY) scripts/build_kit.py $(if $(TAG),--tag $(TAG))

## build: the wheel, the PDF handouts in _build/pdf (when TeX is installed), then the site in _build/html, linking them
build: assets kit
	$(PY) scripts/build_pdf.py --if-available
	$(VENV)/bin/jupyter-book build . -W -n --keep-going

site: assets kit
	$(VENV)/bin/jupyter-book build . -W -n --keep-going

## pdf: one PDF handout per chapter, the answer key and the whole book in _build/pdf
pdf: assets
	$(PY) scripts/build_pdf.py

## test: unit and property tests, doctests, nbval, site build, browser and PDF checks
## (test files run in JOBS processes with pytest-xdist, 2 by default; the site is still built once; JOBS= runs them in one)
JOBS ?= 2
test: assets
	$(PY) -m pytest $(if $(JOBS),-n $(JOBS) --dist loadfile --no-loadscope-reorder)

## lint: ruff over the code and the notebooks' code cells (`make test` runs it too); FIX=1 applies safe fixes
lint: $(STAMP)
	$(VENV)/bin/ruff check $(if $(FIX),--fix) labcode scripts tests book _ext latex

## execute: re-run every notebook and store its outputs (the reference nbval compares against)
execute: $(STAMP)
	$(PY) scripts/execute_notebooks.py $(NB)

## lab: JupyterLab on the chapter notebooks, sliders live
lab: $(STAMP)
	$(VENV)/bin/jupyter lab book/

## bench: build, test and widget timings as a table
bench: assets
	$(PY) scripts/benchmark.py

clean:
	rm -rf _build _vendor
