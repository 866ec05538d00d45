# Every target creates or reuses the project-local environment in .venv.
# `make build` and `make test` are the two set-up commands of the README.
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
export PATH := $(abspath $(VENV))/bin:$(PATH)
export PYTHONHASHSEED := 0
export MPLBACKEND := Agg

.PHONY: build site pdf test execute lab bench assets clean

$(STAMP): requirements.txt pyproject.toml
	@python3 -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else "Python 3.10 or newer is needed (found " + sys.version.split()[0] + ")")'
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $@

## assets: MathJax and widget scripts served by the site itself (needs Node.js and npm)
assets: $(STAMP)
	$(PY) scripts/vendor_assets.py

## build: the book site in _build/html, then the PDF handouts in _build/pdf (when TeX is installed)
build: site
	$(PY) scripts/build_pdf.py --if-available

site: assets
	$(VENV)/bin/jupyter-book build . -W -n --keep-going

## pdf: one PDF handout per chapter, the answer key and the whole book in _build/pdf
pdf: assets
	$(PY) scripts/build_pdf.py

## test: unit and property tests, doctests, nbval, site build, browser and PDF checks
test: assets
	$(PY) -m pytest

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
