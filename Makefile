# Two commands do all the set-up on a fresh clone (see README.md):
#   make serve   install into .venv what serving needs and start the service with its embedded defaults
#   make test    install into .venv with the dev extras too and run the whole test suite
# Every install takes its versions from constraints.txt (pinned; `make constraints` makes it again).
VENV ?= .venv
PYTHON ?= python3
PIP_INSTALL = $(VENV)/bin/pip install --quiet -c constraints.txt

.PHONY: serve test openapi bench constraints

$(VENV)/bin/pip:
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip

# What serving needs: the package and its own dependencies, no dev extras.
$(VENV)/.served: pyproject.toml constraints.txt | $(VENV)/bin/pip
	$(PIP_INSTALL) -e .
	touch $@

# What the tests need besides: the dev extras.
$(VENV)/.installed: pyproject.toml constraints.txt | $(VENV)/bin/pip
	$(PIP_INSTALL) -e '.[dev]'
	touch $@ $(VENV)/.served

serve: $(VENV)/.served
	$(VENV)/bin/pitch serve

test: $(VENV)/.installed
	$(VENV)/bin/pytest

openapi: $(VENV)/.served
	$(VENV)/bin/pitch openapi -o openapi.yaml

bench: $(VENV)/.served
	$(VENV)/bin/pitch bench replay

# Pin every package a clean install with the dev extras resolves to now.
constraints:
	rm -rf .constraints-venv
	$(PYTHON) -m venv .constraints-venv
	.constraints-venv/bin/pip install --quiet '.[dev]'
	{ echo "# Every package a clean install of pitch-service with its dev extras resolves to, pinned"; \
	  echo "# (pip freeze; regenerate with \`make constraints\` after changing pyproject.toml's dependencies)."; \
	  echo "# The image, CI and the Makefile install through it: pip install -c constraints.txt ..."; \
	  .constraints-venv/bin/pip freeze --exclude-editable | grep -v '^pitch-service'; } > constraints.txt
	rm -rf .constraints-venv
