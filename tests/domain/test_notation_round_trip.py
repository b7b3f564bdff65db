"""Every hand the service plays converts to the notation and back without loss (domain/notation/).

Hands come from games played through the domain with random legal actions (tests/strategies.py),
claims, face-down plays, misdeals and runs included, at every preset and every table size it
is played at, and from the dealing, bidding, discarding and play variants; a record goes to
text and back to the same record, and a text read and written again is the same text. Records
the rules refuse (an action dropped, repeated, given to the wrong seat) convert just as well:
the notation names the seat of any action the rules would not imply.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.audit import replay_record
from domain.notation import format_notation, parse_notation
from domain.presets import PRESETS, get_preset
from domain.records import parse_record, record_data, records_of_game
from domain.rules import rules_from_dict
from tests.strategies import VARIANT_SETS, play_game, rng_seeds


def _records(rules_options: dict[str, Any], preset: str, seed: int, hands: int = 2) -> list[dict[str, Any]]:
    rules = rules_from_dict(rules_options, get_preset(preset).rules)
    played = play_game(rules, f"notation {seed}", seed, max_hands=hands, pass_rate=0.5, preset=preset)
    return [record_data(record) for record in records_of_game(list(played.events))]


def _round_trip(record: dict[str, Any]) -> str:
    text = format_notation(record)
    assert parse_notation(text) == record_data(parse_record(record))
    assert format_notation(parse_notation(text)) == text
    return text


@pytest.mark.parametrize("name", [p.name for p in PRESETS])
@settings(max_examples=3, deadline=None)
@given(seed=rng_seeds, data=st.data())
def test_every_hand_of_every_preset_converts_to_text_and_back(name: str, seed: int, data: st.DataObject) -> None:
    preset = get_preset(name)
    players = data.draw(st.integers(preset.min_players, preset.max_players), label="players")
    for record in _records({"players": players}, name, seed):
        _round_trip(record)


@pytest.mark.parametrize("options", VARIANT_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
@settings(max_examples=2, deadline=None)
@given(seed=rng_seeds)
def test_every_variant_of_dealing_bidding_discarding_and_play_converts(options: dict[str, Any], seed: int) -> None:
    for record in _records(options, "team-auction", seed):
        _round_trip(record)


@settings(max_examples=40, deadline=None)
@given(seed=rng_seeds, data=st.data())
def test_records_the_rules_refuse_convert_too(seed: int, data: st.DataObject) -> None:
    options = data.draw(st.sampled_from([{}, *VARIANT_SETS]), label="options")
    records = [r for r in _records(options, "team-auction", seed, hands=1) if r["actions"]]
    if not records:
        return
    record = records[0]
    actions = [dict(a) for a in record["actions"]]
    k = data.draw(st.integers(0, len(actions) - 1), label="action")
    change = data.draw(st.sampled_from(["seat", "drop", "repeat", "late"]), label="change")
    if change == "seat":
        actions[k]["seat"] = (actions[k]["seat"] + 1) % record["seats"]
    elif change == "drop":
        del actions[k]
    elif change == "repeat":
        actions.insert(k, dict(actions[data.draw(st.integers(0, len(actions) - 1))]))
    else:
        actions.append({"seat": 0, "type": "play", "card": record["cards"][0][0]})
    altered = {**record, "actions": actions}
    _round_trip(altered)
    illegal = replay_record(parse_record(altered)).illegal
    again = replay_record(parse_record(parse_notation(format_notation(altered)))).illegal
    assert again == illegal


def test_the_sample_of_hands_holds_every_kind_of_action_and_deal() -> None:
    """The hands converted above hold every action and every part of a deal the record has."""
    seen: Counter[str] = Counter()
    for n, options in enumerate([*VARIANT_SETS, get_preset("fish-pitch").rules.to_dict()]):
        for seed in range(3):
            for record in _records(options, "team-auction", 100 * n + seed, hands=3):
                text = _round_trip(record)
                seen.update(a["type"] for a in record["actions"])
                seen.update(part for part in ("kitty", "reshuffles", "blind") if record.get(part))
                seen.update(["order"] if "[Order]" in text else [])
    kinds = {"bid", "pass", "declare", "discard", "play", "blind", "claim", "smudge", "kitty", "reshuffles", "order"}
    assert kinds <= set(seen), kinds - set(seen)
