# Two commands: `make repro` regenerates every result, `make test` checks everything.
# `make repro PAPER=<paper>` / `make test PAPER=<paper>` do the same for one paper.
# Uses the active virtualenv or conda env when there is one, otherwise creates .venv.

# PAPER and JOBS are data, never code: they reach recipes (a shell) and python's argv, so each is
# checked on its unexpanded text ($(value ...): a `$(shell ...)` in it is never run) before anything
# expands or runs: PAPER a paper's short name (a-z, 0-9, _), JOBS a count (0-9).
LOWER := a b c d e f g h i j k l m n o p q r s t u v w x y z
DIGITS := 0 1 2 3 4 5 6 7 8 9
# $(call unsafe,TEXT,ALLOWED CHARACTERS): what is left of TEXT once every allowed one is removed
unsafe = $(if $(2),$(call unsafe,$(subst $(firstword $(2)),,$(1)),$(wordlist 2,99,$(2))),$(1))
# $(call one_word,NAME,ALLOWED,WHAT): stop, naming the variable, unless it is one allowed word
one_word = $(if $(or $(filter-out 1,$(words $(value $(1)))),$(call unsafe,$(value $(1)),$(2))),$(error $(1) must be $(3); got: $(value $(1))))
ifneq ($(value PAPER),)
  $(call one_word,PAPER,$(LOWER) $(DIGITS) _,a paper's short name (a-z 0-9 _: notebooks/<paper>/paper.yaml))
endif
ifneq ($(filter command% environment%,$(origin JOBS)),)
  $(call one_word,JOBS,$(DIGITS),a number of workers (0-9))
endif
# STAGES is set from PAPER; given on the command line or in the environment it must be DVC targets
ifneq ($(filter command% environment%,$(origin STAGES)),)
  ifneq ($(strip $(call unsafe,$(value STAGES),$(LOWER) $(DIGITS) _ - . / :)),)
    $(error STAGES must be DVC stage targets (a-z 0-9 _ - . / :); got: $(value STAGES))
  endif
endif
# make repro's PROFILE (written into params.yaml first), EXECUTOR and WORKERS (where and how many
# of an engine notebook's grid runs go, for this run: lib/companion/runner.py's PLACEMENT)
ifneq ($(value PROFILE),)
  $(call one_word,PROFILE,$(LOWER),one of smoke default paper)
endif
ifneq ($(value EXECUTOR),)
  $(call one_word,EXECUTOR,$(LOWER),one of debug local slurm)
endif
ifneq ($(value WORKERS),)
  $(call one_word,WORKERS,$(DIGITS),a number of runs at once (0-9))
endif
# make repro's TIMEOUT: each notebook's time limit in seconds for this run (the runner's
# COMPANION_TIMEOUT; without it, a multiple of the stage's recorded time)
ifneq ($(value TIMEOUT),)
  $(call one_word,TIMEOUT,$(DIGITS),a number of seconds (0-9))
endif
# make repro's ALLOW_LONG=1: run a stage estimated far over its budget (COMPANION_ACCEPT_COST)
ifneq ($(value ALLOW_LONG),)
  $(call one_word,ALLOW_LONG,1,1 (run what is estimated far over budget))
endif

ifdef VIRTUAL_ENV
  BIN := $(VIRTUAL_ENV)/bin
else ifdef CONDA_PREFIX
  BIN := $(CONDA_PREFIX)/bin
else
  BIN := .venv/bin
endif
PY := $(BIN)/python
DVC := $(BIN)/dvc
SMOKE := build/smoke
# pytest-xdist workers for the unit tests and the notebooks: one per core (each is one torch
# thread). Unit tests: --dist loadscope keeps a module's tests (and its fixtures) together, in
# collection order, where tests/conftest.py puts the modules marked `heavy` first (xdist's
# default order, most tests first, would leave those long modules for the end).
# Notebooks: lib/companion/nbval_groups.py puts a paper's notebooks on one worker, in order
# (a notebook may read an earlier one's tables)
JOBS ?= $(shell nproc 2>/dev/null || echo 1)
XDIST := -n $(JOBS) --dist loadscope --no-loadscope-reorder
XDIST_NB := -n $(JOBS) -p lib.companion.nbval_groups
STAMP := $(BIN)/.companion-installed
# DVC stages and notebook kernels run `python`: make it the environment's, active or not
export PATH := $(abspath $(BIN)):$(PATH)

# One paper or all: its DVC stages, its unit tests, its notebooks under nbval.
# A paper's stages are its own dvc.yaml (notebooks/<paper>/dvc.yaml), the root's run first.
ifdef PAPER
  STAGES := $(if $(wildcard notebooks/$(PAPER)/paper.yaml),notebooks/$(PAPER)/dvc.yaml)
  UNIT_TESTS := tests/$(PAPER)
  SMOKE_ARGS := --paper $(PAPER)
else
  STAGES :=
  UNIT_TESTS := tests
  SMOKE_ARGS :=
endif

.PHONY: setup lock environment data repro verify codepaths plan exps status test checks path lint generated unit nbval report-smoke browser chromium report restore screenshots lab bench sync clean

setup: $(STAMP)

# Python 3.11 (found, or a message naming what to install), then requirements.lock installed with
# every file's hash checked (torch's CPU build among them) and nothing else in the project's .venv
$(STAMP): requirements.lock tools/setup_env.sh
	@bash tools/setup_env.sh $(BIN)
	@touch $@

# requirements.lock from pyproject.toml's direct pins (tools/lock.sh says how); UPGRADE=1 takes
# the newest version that fits for every package instead of keeping the locked ones
lock:
	@bash tools/lock.sh $(if $(filter 1,$(value UPGRADE)),--upgrade)

# data/ from the bundled remote (offline), each object checked against its md5 first and data/
# against data.dvc after: a corrupt object or a changed file is named, never used
data: setup
	@$(PY) -m lib.companion.datafiles --verify-remote
	$(DVC) pull --quiet data.dvc
	@$(PY) -m lib.companion.datafiles --check

# The out-of-date stages on JOBS cores, each recorded in its dvc.lock by `dvc commit`
# (lib/companion/parallel.py; `dvc repro` runs the same stages on one). A failed or interrupted
# (Ctrl-C) run is followed by the ledger and book rebuild, and exits non-zero
# (lib/companion/timings.py; one command, so make runs it with no shell between)
# PROFILE=<p> first sets params.yaml's profile (as `dvc exp run -S profile=<p>` would; back:
# `git checkout params.yaml`); EXECUTOR / WORKERS / TIMEOUT reach the runner as COMPANION_EXECUTOR
# / COMPANION_WORKERS / COMPANION_TIMEOUT (exported here, never through the shell's text)
repro: export COMPANION_EXECUTOR := $(EXECUTOR)
repro: export COMPANION_WORKERS := $(WORKERS)
repro: export COMPANION_TIMEOUT := $(TIMEOUT)
repro: export COMPANION_ACCEPT_COST := $(ALLOW_LONG)
repro: data
	@test -z "$(PAPER)" -o -n "$(STAGES)" || { echo "PAPER=$(PAPER) is not a declared paper (notebooks/<paper>/paper.yaml)"; exit 2; }
	$(if $(PROFILE),@$(PY) -m lib.companion.params --set-profile $(PROFILE))
	@$(PY) -m lib.companion.timings run make_repro$(if $(filter-out default,$(PROFILE)),_$(PROFILE))$(if $(PAPER),_$(PAPER)) --rebuild-on-failure -- $(PY) -m lib.companion.parallel --jobs $(JOBS) $(STAGES)
	$(if $(PAPER),$(PY) -m lib.companion.ledger && $(PY) -m lib.companion.report)
	@$(PY) -m lib.companion.timings --ran make_repro$(if $(filter-out default,$(PROFILE)),_$(PROFILE))$(if $(PAPER),_$(PAPER))
	@echo "book: results/report/index.html   claims: results/CLAIMS.md"

# Re-run the pipeline (or one paper's part) in a fresh clone of HEAD on JOBS workers and say what
# matches dvc.lock: each output, each claim whose status or measured value differs, the two runs'
# fingerprints; exit 1 when a claim's status differs, or any byte under one fingerprint
# (lib/companion/verify.py; the report is saved to results/verify/report.md)
verify: setup
	@$(PY) -m lib.companion.verify --jobs $(JOBS) $(if $(PAPER),--paper $(PAPER))

# Every claim of the torch notebooks decided again on a second CPU code path in a fresh clone;
# results/codepaths.json records both statuses and the claims stage makes a claim that moves
# `inconclusive` (lib/companion/codepaths.py). Commit the record with the results it was made on
codepaths: setup
	@$(PY) -m lib.companion.codepaths --jobs $(JOBS) $(if $(PAPER),--paper $(PAPER))
	$(PY) -m lib.companion.ledger

# What `make repro` would run, in order, without running it (also on a fresh clone: see
# lib/companion/plan.py); which stages' inputs changed since their last run. With PROFILE (e.g.
# PROFILE=paper): per stage its sweep jobs and estimated CPU hours, scaled from the default
# profile's measured times by the declared sizes (lib/companion/cost.py)
plan: setup
	@test -z "$(PAPER)" -o -n "$(STAGES)" || { echo "PAPER=$(PAPER) is not a declared paper (notebooks/<paper>/paper.yaml)"; exit 2; }
	@$(if $(PROFILE),$(PY) -m lib.companion.cost --profile $(PROFILE) $(if $(PAPER),--paper $(PAPER)),$(PY) -m lib.companion.plan $(STAGES))

# The experiments of `dvc exp run` beside the workspace and the commit, in a table that fits a
# terminal: the parameters that differ between them, the claim counts over all papers
# (results/claims_summary.json's `all`) and any paper's counts that differ; no file hashes
exps: setup
	@$(DVC) exp show --no-pager --only-changed --drop '/|Created' --keep '^all\.(pass|fail|inconclusive)$$'

status: setup
	@test -z "$(PAPER)" -o -n "$(STAGES)" || { echo "PAPER=$(PAPER) is not a declared paper (notebooks/<paper>/paper.yaml)"; exit 2; }
	@$(DVC) status $(STAGES)

# The checks, timed as a whole (results/timings/commands/make_test.json)
test: setup
	@$(PY) -m lib.companion.timings run make_test$(if $(PAPER),_$(PAPER)) -- $(MAKE) --no-print-directory checks

checks: environment data path lint generated unit nbval report-smoke browser

# the environment holds exactly requirements.lock: each package missing, extra or at another
# version is named
environment: setup
	$(PY) -m lib.companion.envlock --check

# what `dvc repro` stages will run as `python` must import the project (fails without a venv on PATH)
path: setup
	@python -c "import lib.companion.runner, dvc" || { echo "'python' on PATH cannot import the project"; exit 1; }

lint: setup
	$(BIN)/ruff check .

# the params and dvc.yaml files (root and per paper), the README's and the guide's (docs/guide/)
# tables and the parameters cells are derived, and no dvc.lock may hold a stage its dvc.yaml
# lacks: stale means `make sync`
generated: setup
	$(PY) -m lib.companion.generate --check

sync: setup
	$(PY) -m lib.companion.generate --write

# (the report's own tests too, on the same workers; those that read the smoke run's results and
# book run after it: SMOKE_READERS, in `browser`)
SMOKE_READERS := tests/report/test_browser.py tests/report/test_declared.py
unit: setup
	$(PY) -m pytest $(UNIT_TESTS) $(SMOKE_READERS:%=--ignore=%) -q -p no:cacheprovider $(XDIST)

# the smoke copy's notebooks write its results/ (report-smoke reads them), not results/lab/
nbval: setup
	$(PY) -m lib.companion.smoke $(SMOKE) $(SMOKE_ARGS)
	COMPANION_OUTPUTS=results $(PY) -m pytest -q -p no:cacheprovider --nbval-lax --nbval-current-env $(XDIST_NB) $(SMOKE)/*.ipynb

report-smoke: setup
	cd $(SMOKE) && $(abspath $(PY)) -m lib.companion.ledger && $(abspath $(PY)) -m lib.companion.report

browser: setup chromium
	$(PY) -m pytest $(SMOKE_READERS) -q -p no:cacheprovider --report-dir $(SMOKE)/results/report

# The browser test renders the report in headless Chromium (Debian's package); as root on a
# Debian machine it is installed here, elsewhere the message says what to install.
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else echo "make test needs Chromium for the report's browser test: install Debian's 'chromium' package"; exit 1; fi; }

report: setup
	$(PY) -m lib.companion.ledger && $(PY) -m lib.companion.report
	@echo "book: results/report/index.html"

# Back to the last commit's parameters and their outputs after `dvc exp run -S` (refused or not) or
# an edit: the params and lock files checked out, each output restored from DVC's cache, kept
# when made here from the committed inputs, or run again; nothing deleted that cannot come back
# (lib/companion/restore.py)
restore: setup
	@$(PY) -m lib.companion.restore

# The README's screenshots of the built book (results/report) into docs/: the index, a chapter,
# its ledger, a notebook page and the performance page, 1280 px wide and whole
# (lib/companion/screenshots.py)
screenshots: setup chromium
	$(PY) -m lib.companion.screenshots

# A double-click opens a notebook's .py as a notebook (.jupyter/labconfig sets jupytext as the
# default viewer of .py files; a module of lib/ opens with right-click, Open With, Editor)
lab: setup
	JUPYTER_CONFIG_PATH=$(abspath .jupyter)$(if $(JUPYTER_CONFIG_PATH),:$(JUPYTER_CONFIG_PATH)) \
	  $(PY) -m lib.companion.numerics $(BIN)/jupyter lab --notebook-dir=. $(if $(filter 0,$(shell id -u)),--allow-root) $(LAB_ARGS)

# Every benchmark's cost curves into results/bench/, then the book's performance page shows them.
# Not the pipeline's own cost against the old code (hours: the whole pipeline on each side), run
# apart: $(PY) bench/companion_stage_cost.py --old <rev> [--stages ...] (it resumes where it stopped)
bench: setup
	@for b in $(filter-out bench/companion_stage_cost.py,$(wildcard bench/*.py)); do echo "== $$b"; $(PY) $$b || exit 1; done
	$(PY) -m lib.companion.report

# build outputs and the project's own .venv (results/, data/ and an active env stay)
clean:
	rm -rf build .pytest_cache .venv
