# Two commands on a fresh machine with Python 3.11+:
#   make demo   - create .venv, install Regola, simulate 400 Lungarno games with bots
#   make test   - create .venv, install Regola with test tools, check every rules file, run the tests

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test bench check clean browser-deps bench-deps

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,peers,rl,ray,browser,lsp]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/regola simulate lungarno --players 4 --games 400

check: $(STAMP)
	$(BIN)/regola check rules/*/

test: check browser-deps bench-deps
	$(BIN)/python -m pytest tests

# tests/test_browser.py runs Debian's chromium headless (as root in CI; skipped where it is missing)
browser-deps:
	command -v chromium >/dev/null || (apt-get update -qq && apt-get install -y -qq chromium)

# benchmarks/instructions.py counts instructions with valgrind (its smoke test skips without it)
bench-deps:
	command -v valgrind >/dev/null || (apt-get update -qq && apt-get install -y -qq valgrind)

bench: $(STAMP)
	$(BIN)/python benchmarks/playouts.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
