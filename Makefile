# Set-up is part of every target: `make run` and `make test` create .venv when it is missing and
# re-install whenever pyproject.toml changes (the stamp file lives inside .venv).

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.arbiter-installed

.PHONY: venv run test lint bench compiled catalogs clean distclean

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q -e '.[dev]'
	@touch $(STAMP)

venv: $(STAMP)

## run: embedded Redis (var/), two RQ workers and the API on http://127.0.0.1:5000 (Ctrl-C stops all)
run: $(STAMP)
	$(BIN)/arbiter run

## test: the whole test suite (REDIS_URL=redis://... to use a real server's database instead), then
## the engine and replay tests again against the compiled engine (see `compiled`)
test: $(STAMP)
	$(BIN)/python -m pytest
	$(BIN)/python tools/build_compiled.py --test

## compiled: the engine compiled with mypyc (setup.py) in var/compiled/tree, rebuilt when sources change
compiled: $(STAMP)
	$(BIN)/python tools/build_compiled.py

## catalogs: extract the strings marked for translation (gettext, ngettext, pgettext, _, N_ in Python
## and templates) into i18n/catalogs/messages.pot, merge them into the pl and ru .po files, compile .mo
catalogs: $(STAMP)
	$(BIN)/pybabel extract -F i18n/babel.cfg -k N_ --sort-by-file --no-wrap -c TRANSLATORS: \
		-o i18n/catalogs/messages.pot arbiter api replays judge worker i18n
	for l in pl ru; do \
		if [ -f i18n/catalogs/$$l/LC_MESSAGES/messages.po ]; then \
			$(BIN)/pybabel update --no-wrap --ignore-obsolete -i i18n/catalogs/messages.pot -d i18n/catalogs -l $$l; \
		else $(BIN)/pybabel init --no-wrap -i i18n/catalogs/messages.pot -d i18n/catalogs -l $$l; fi; \
	done
	$(BIN)/pybabel compile --statistics -d i18n/catalogs

## lint: ruff over the repo, mypy on the pure core
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy judge replays

## bench: every bench/bench_*.py, figures printed (replay speed for the pure and the compiled engine)
bench: $(STAMP) compiled
	$(BIN)/python bench/run.py

## clean: caches, build output and local data (var/); keeps .venv
clean:
	rm -rf var/ bench/out/ build/ dist/ .pytest_cache/ .mypy_cache/ .ruff_cache/ .hypothesis/ *.egg-info
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -exec rm -rf {} +

distclean: clean
	rm -rf $(VENV)
