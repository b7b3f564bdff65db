"""The option table is derived from the fields of ``Rules`` (docs/architecture.md "Rules").

Each option is declared once, as a field of ``Rules``: its type (a string option's is the
Literal of its values), its default, and metadata carrying its description, range and
source text; ``OPTIONS``, which the API lists, its schemas document and
``rules_from_dict`` checks, is read from those fields.
"""

from __future__ import annotations

from dataclasses import MISSING, fields
from typing import Literal, get_args, get_origin, get_type_hints

from domain.rules import OPTION_KEYS, OPTIONS, Rules, option_names


def test_every_rules_field_is_an_option_declared_with_its_metadata() -> None:
    """000_58bf5efc645e9b53.txt, "Rule Options": every option a table sets has a default, a description and a source."""
    for f in fields(Rules):
        assert f.default is not MISSING and f.default_factory is MISSING, f.name
        assert set(f.metadata) == set(OPTION_KEYS), f.name
        assert f.metadata["description"] and f.metadata["source"], f.name


def test_the_option_table_is_read_from_the_fields() -> None:
    """The table lists the fields in their order, each with the field's default and metadata."""
    assert option_names() == tuple(f.name for f in fields(Rules))
    defaults = Rules()
    types = get_type_hints(Rules)
    for spec, f in zip(OPTIONS, fields(Rules), strict=True):
        assert spec.name == f.name
        assert spec.default == f.default == getattr(defaults, f.name)
        assert type(spec.default) is type(getattr(defaults, f.name))
        assert {key: getattr(spec, key) for key in OPTION_KEYS} == dict(f.metadata)
        literal = get_origin(types[f.name]) is Literal
        assert spec.choices == (get_args(types[f.name]) if literal else ()), f.name
        assert spec.kind == {bool: "boolean", int: "integer"}.get(types[f.name], "string"), f.name


def test_every_string_option_but_the_removed_ranks_takes_the_values_of_its_literal_type() -> None:
    """A string option's values are its field's Literal type, so the type checker sees every comparison."""
    for spec in OPTIONS:
        if spec.kind == "string":
            assert bool(spec.choices) == (spec.pattern is None), spec.name
            assert spec.default in spec.choices or spec.pattern == "ranks", spec.name
