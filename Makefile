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
## (profile-guided: built instrumented, trained on self-play games by tools/pgo_training.py, built again;
## ARBITER_PGO=0 builds once, without a profile)
compiled: $(STAMP)
	$(BIN)/python tools/build_compiled.py

## catalogs: extract the strings marked for translation into i18n/catalogs/<domain>.pot (domain
## messages: Python -- gettext, ngettext, pgettext, _, N_; domain pages: the web templates), merge
## them into the pl and ru .po files and compile the .mo files (which are committed)
catalogs: $(STAMP)
	$(BIN)/pybabel extract -F i18n/babel.cfg -k N_ -k NP_:1c,2 -k NN_:1,2 --sort-by-file --no-wrap -c TRANSLATORS: \
		-o i18n/catalogs/messages.pot arbiter api replays judge worker i18n
	$(BIN)/pybabel extract -F i18n/babel-pages.cfg --sort-by-file --no-wrap -c TRANSLATORS: \
		-o i18n/catalogs/pages.pot api replays/viewer_assets
	for d in messages pages; do for l in pl ru; do \
		if [ -f i18n/catalogs/$$l/LC_MESSAGES/$$d.po ]; then \
			$(BIN)/pybabel update --no-wrap --ignore-obsolete -D $$d -i i18n/catalogs/$$d.pot -d i18n/catalogs -l $$l; \
		else $(BIN)/pybabel init --no-wrap -D $$d -i i18n/catalogs/$$d.pot -d i18n/catalogs -l $$l; fi; \
	done; $(BIN)/pybabel compile --statistics -D $$d -d i18n/catalogs; done

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
