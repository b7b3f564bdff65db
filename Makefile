# Two commands do all the set-up on a fresh clone (see README.md):
#   make serve   install into .venv and start the service with its embedded defaults
#   make test    install into .venv (with the dev extras) and run the whole test suite
VENV ?= .venv
PYTHON ?= python3

.PHONY: serve test openapi bench

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip
	$(VENV)/bin/pip install --quiet -e '.[dev]'
	touch $@

serve: $(VENV)/.installed
	$(VENV)/bin/pitch serve

test: $(VENV)/.installed
	$(VENV)/bin/pytest

openapi: $(VENV)/.installed
	$(VENV)/bin/pitch openapi -o openapi.yaml

bench: $(VENV)/.installed
	$(VENV)/bin/pitch bench replay
