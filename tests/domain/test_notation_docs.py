"""docs/notation.md holds to what it shows: every hand written there reads and audits, and its recipe checks proofs.

The page's worked examples (the fenced blocks marked ``pitch``) are read with
``parse_notation``: a hand is replayed through the rules, legal and finished, a score sheet
audited with every check holding, and each converts back to the same text's record. The
page's Python recipe for checking a proof by hand is run on a proof of a played game, and
must refuse one whose event was changed.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Callable

import pytest

from domain.audit import replay_record
from domain.notation import format_notation, parse_notation
from domain.partial import is_partial
from domain.partial_audit import audit_partial
from domain.proofs import build_proof
from domain.records import parse_record
from lab.simulate import random_game
from tests.domain.test_proofs import GAME, served

PAGE = Path(__file__).resolve().parents[2] / "docs" / "notation.md"
TEXT = PAGE.read_text(encoding="utf-8")
HANDS = re.findall(r"^```pitch\n(.*?)^```", TEXT, flags=re.S | re.M)
RECIPE = re.search(r"^### Checking a proof by hand\n.*?^```python\n(.*?)^```", TEXT, flags=re.S | re.M)


def test_the_page_shows_a_hand_for_every_family_of_presets() -> None:
    presets = {re.search(r'\[Rules "([^"]+)"\]', hand).group(1) for hand in HANDS}  # type: ignore[union-attr]
    assert {"team-auction", "pedro", "smear-4", "auction-pitch", "set-back", "fish-pitch", "trickster-10",
            "blind-all-fours", "auction-pitch-004", "trickster-4"} <= presets


@pytest.mark.parametrize("hand", HANDS, ids=[re.search(r'\[Rules "([^"]+)"\]', h).group(1) for h in HANDS])  # type: ignore[union-attr]
def test_every_hand_on_the_page_reads_and_audits(hand: str) -> None:
    record = parse_notation(hand)
    if is_partial(record):
        audit = audit_partial(record)
        assert audit.score is not None and all(c.ok for c in audit.checks)
    else:
        replayed = replay_record(parse_record(record))
        assert replayed.illegal is None and replayed.finished and replayed.score is not None
    assert parse_notation(format_notation(record)) == record


def test_the_pages_recipe_checks_a_proof_by_hand_and_refuses_a_changed_event() -> None:
    assert RECIPE is not None
    scope: dict[str, Any] = {}
    exec(RECIPE.group(1), scope)  # noqa: S102 - the page's own recipe, run as a reader would
    check: Callable[[dict[str, Any]], None] = scope["check"]
    proof = json.loads(json.dumps(build_proof(GAME, served(random_game("the page's recipe")), 2)))
    check(proof)
    proof["events"][1]["data"]["seat"] = (proof["events"][1]["data"]["seat"] + 1) % 4
    with pytest.raises(AssertionError):
        check(proof)
