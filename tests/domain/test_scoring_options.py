"""The scoring and game-over options as a client sets them: values and contradictions.

Contradictory combinations raise RulesError naming both options (docs/architecture.md "Rules").
"""

from __future__ import annotations

import pytest

from domain.errors import RulesError
from domain.rules import OPTIONS
from tests.domain.scoring_helpers import rules_with


@pytest.mark.parametrize(
    "options, named",
    [
        ({"game_point": "ten-of-trump", "removed_ranks": "T"}, ("game_point", "removed_ranks")),
        ({"three_point": 3, "removed_ranks": "34"}, ("three_point", "removed_ranks")),
        ({"king_point": 30, "removed_ranks": "K"}, ("king_point", "removed_ranks")),
        ({"old_nate": True, "removed_ranks": "2345678"}, ("old_nate", "removed_ranks")),
        ({"game_over": "hands", "win_rule": "must-bid"}, ("win_rule", "game_over")),
        ({"game_over": "hands", "win_by_two": True}, ("win_by_two", "game_over")),
        ({"game_over": "hands", "both_over": "in-order"}, ("both_over", "game_over")),
    ],
)
def test_contradictory_scoring_options_are_refused_naming_both(options: dict[str, object], named: tuple[str, ...]) -> None:
    """000_58bf5efc645e9b53.txt, "Rule Options": a point needs its card in the deck; target rules need a target.

    The error names both options, in the message and in ``options``.
    """
    with pytest.raises(RulesError, match="contradict") as caught:
        rules_with(**options)
    assert caught.value.options == named
    for name in named:
        assert f"'{name}'" in str(caught.value)


@pytest.mark.parametrize(
    "name, value",
    [("low_point", "dealer"), ("game_point", "ten"), ("set_limit", 6), ("three_point", -3), ("win_rule", "lowest"),
     ("junk_points", "yes"), ("hand_limit", 0)],
)
def test_a_scoring_value_out_of_range_is_refused_by_name(name: str, value: object) -> None:
    """000_58bf5efc645e9b53.txt, "Rule Options" (Scoring, Game over): each option takes the values the texts give.

    The error names the option.
    """
    with pytest.raises(RulesError, match=f"option '{name}' must") as caught:
        rules_with(**{name: value})
    assert caught.value.options == (name,)


def test_every_option_names_its_source_text() -> None:
    """000_58bf5efc645e9b53.txt, "Rule Options": every option is documented with the text it comes from.

    Each option's source cites a rule text by number and its description is a sentence.
    """
    for spec in OPTIONS:
        assert spec.source[:3] in {"000", "001", "002", "003", "004"}, spec.name
        assert spec.description.endswith("."), spec.name
