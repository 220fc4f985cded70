# Two commands: `make docs` builds the site, `make test` runs every check.
# Each sets itself up on a fresh machine (virtual environments, packages, and
# the Debian packages the browser tests need when run as root).

PYTHON ?= python3
VENV := .venv
OLDEST := .venv-sphinx74
OLDEST_SPHINX := sphinx==7.4.7
# The newest Sphinx needs a newer Python than the oldest supported one: the newest
# Python that runs here (python3.14, 3.13, 3.12 on PATH, else pyenv's), found by
# running it (pyenv's shims are on PATH for every version, working or not).
NEWEST := .venv-newest
PYENV_VERSIONS := $${PYENV_ROOT:-$$HOME/.pyenv}/versions
NEWEST_PYTHON ?= $(shell for p in python3.14 python3.13 python3.12 \
  $(PYENV_VERSIONS)/3.14*/bin/python3 $(PYENV_VERSIONS)/3.13*/bin/python3 \
  $(PYENV_VERSIONS)/3.12*/bin/python3; do \
  $$p -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null && \
  { command -v $$p; break; }; done)
LANGUAGES := en nl ar fr bn ru zh_CN zh_TW ja ko de es pt_BR it
# The languages whose catalogs hold only the landing page, the quick start and the
# glossary page (and furo's words); their other pages are shown in English.
PAGE_LANGUAGES := zh_CN zh_TW ja ko de es pt_BR it
PAGE_CATALOGS := index quickstart glossary sphinx
SPHINXOPTS ?= -W --keep-going -q
# Languages built at once: one Sphinx process each (a build is single-threaded).
DOCS_JOBS ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: docs docs-catalogs test lint dist dist-check labels pytest pytest-oldest pytest-newest system-packages clean

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install -q --upgrade pip

# An editable install leaves the package without bytecode, and where
# PYTHONDONTWRITEBYTECODE is set every build compiles it again (30 to 50 ms): compile
# it once, as pip does for a regular install. A changed module is compiled afresh
# on import, so this is never stale.
$(VENV)/.docs: pyproject.toml | $(VENV)/bin/python
	$(VENV)/bin/pip install -q -e '.[docs]'
	$(VENV)/bin/python -m compileall -q sphinxcontrib_gpuglossary
	touch $@

$(VENV)/.test: pyproject.toml | $(VENV)/bin/python
	$(VENV)/bin/pip install -q -e '.[test,docs]'
	$(VENV)/bin/python -m compileall -q sphinxcontrib_gpuglossary
	touch $@

$(OLDEST)/.test: pyproject.toml
	test -x $(OLDEST)/bin/python || $(PYTHON) -m venv $(OLDEST)
	$(OLDEST)/bin/pip install -q --upgrade pip
	$(OLDEST)/bin/pip install -q -e '.[test]' '$(OLDEST_SPHINX)'
	touch $@

$(NEWEST)/bin/python:
	@test -n "$(NEWEST_PYTHON)" || { echo "pytest-newest needs Python 3.12 or newer:" \
	  "python3.13 or python3.12 on PATH, or pyenv's (pyenv install 3.13)"; exit 1; }
	$(NEWEST_PYTHON) -m venv $(NEWEST)

$(NEWEST)/.test: pyproject.toml | $(NEWEST)/bin/python
	$(NEWEST)/bin/pip install -q --upgrade pip
	$(NEWEST)/bin/pip install -q -e '.[test]'
	touch $@

# One sphinx-build per language, DOCS_JOBS at a time; xargs fails if any build does.
docs: $(VENV)/.docs
	printf '%s\n' $(LANGUAGES) | xargs -P $(DOCS_JOBS) -I LANG \
	  $(VENV)/bin/sphinx-build $(SPHINXOPTS) -b html -D language=LANG \
	    -d docs/_build/.doctrees/LANG docs docs/_build/LANG
	@echo "Built docs/_build/<lang>/index.html for: $(LANGUAGES)"

# Maintainers: after changing the English of those pages, update the PAGE_LANGUAGES'
# catalogs (the other languages': see docs/conf.py).
docs-catalogs: $(VENV)/.docs
	rm -rf docs/_build/gettext docs/_build/gettext-pages
	$(VENV)/bin/sphinx-build -q -b gettext docs docs/_build/gettext
	mkdir -p docs/_build/gettext-pages
	for page in $(PAGE_CATALOGS); do cp docs/_build/gettext/$$page.pot docs/_build/gettext-pages/; done
	$(VENV)/bin/sphinx-intl update -p docs/_build/gettext-pages -d docs/locales \
	  $(foreach lang,$(PAGE_LANGUAGES),-l $(lang))

system-packages:
	@./.ci/system-packages

lint: $(VENV)/.test
	$(VENV)/bin/ruff check .

pytest: $(VENV)/.test system-packages
	$(VENV)/bin/python -m pytest

pytest-oldest: $(OLDEST)/.test
	$(OLDEST)/bin/python -m pytest -m "not browser" -p no:cacheprovider

# The newest Sphinx release the project allows, looked for on every run (offline: the
# one installed); then the tests that need no browser, as for the oldest.
pytest-newest: $(NEWEST)/.test
	-$(NEWEST)/bin/pip install -q --upgrade --retries 1 --timeout 15 -e . sphinx
	@$(NEWEST)/bin/python -c 'import sys, sphinx; print(f"Sphinx {sphinx.__version__}, Python {sys.version.split()[0]}")'
	$(NEWEST)/bin/python -m pytest -m "not browser" -p no:cacheprovider

# The wheel and sdist a release publishes (.github/workflows/release.yml runs the
# same target): built from a clean dist/ and checked as PyPI will read them.
dist: $(VENV)/.test
	rm -rf dist
	$(VENV)/bin/python -m build --outdir dist .

dist-check: dist
	$(VENV)/bin/twine check --strict dist/*

test: lint dist-check pytest pytest-oldest pytest-newest

# Maintainers: after changing a label in labels.py, re-extract, merge and compile the
# packaged label catalogs (the .mo files ship in the wheel and are committed). A new
# language first: pybabel init -D sphinxcontrib-gpuglossary -i $(LABELS)/sphinxcontrib-gpuglossary.pot
# -d $(LABELS) -l <lang> (tests/test_labels.py then builds a site in it).
LABELS := sphinxcontrib_gpuglossary/locale
labels: $(VENV)/.test
	$(VENV)/bin/pybabel extract --no-location -k _ --project=sphinxcontrib-gpuglossary \
	  -o $(LABELS)/sphinxcontrib-gpuglossary.pot \
	  sphinxcontrib_gpuglossary/labels.py sphinxcontrib_gpuglossary/domain.py
	$(VENV)/bin/pybabel update --no-fuzzy-matching -D sphinxcontrib-gpuglossary \
	  -i $(LABELS)/sphinxcontrib-gpuglossary.pot -d $(LABELS)
	sed -i -z 's/#, fuzzy\nmsgid ""/msgid ""/' $(LABELS)/*/LC_MESSAGES/*.po  # header only
	$(VENV)/bin/pybabel compile -D sphinxcontrib-gpuglossary -d $(LABELS) --statistics

clean:
	rm -rf $(VENV) $(OLDEST) $(NEWEST) docs/_build build dist
