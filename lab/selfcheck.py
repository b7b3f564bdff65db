"""``pitch audit --selfcheck N``: audit N random hands both ways and count the agreements.

Games are played by lab/simulate.py's random policy, one preset after another (every
named preset by default), each for at most ``MAX_HANDS`` hands so that the long
bid-to-win games do not dominate. For every hand, the score
recomputed from the primary events (domain/audit.py ``check_hands``) must equal the
recorded HandScored, and ``POST /v1/audits`` of the hand's record (domain/records.py)
must answer 200 with the same breakdown; every deal must prove out against its seed
(domain/deal_proofs.py; these games are client-seeded, so "reproducible").
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, Sequence

from domain.audit import check_hands
from domain.codec import to_data
from domain.deal_proofs import check_deals
from domain.presets import PRESETS
from domain.records import record_data, records_of_game
from lab.simulate import random_game
from service.api import create_app
from service.bootstrap import build_services
from service.config import RateLimits, Settings


@dataclass
class SelfcheckFigures:
    """What a self-check found: how many hands agreed each way, and the first disagreements."""

    hands: int = 0
    games: int = 0
    events: int = 0
    recomputed_equal: int = 0
    api_equal: int = 0
    deals_checked: int = 0
    deals_verified: int = 0
    seconds: float = 0.0
    failures: list[str] = field(default_factory=list)
    by_preset: dict[str, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """Tell whether every hand agreed both ways and every deal verified."""
        return (self.recomputed_equal == self.api_equal == self.hands
                and self.deals_verified == self.deals_checked and not self.failures)


MAX_HANDS = 25


def selfcheck(
    hands: int, prefix: str = "selfcheck", progress: Callable[[int], None] | None = None,
    presets: Sequence[str] | None = None,
) -> SelfcheckFigures:
    """Play random games until ``hands`` hands are scored; audit each hand both ways."""
    names = list(presets) if presets else [p.name for p in PRESETS]
    started = time.perf_counter()
    # The audit endpoint reads no store: nothing connects to the database.
    services = build_services(Settings(database_url="sqlite://", limits=RateLimits.none()))
    client = create_app(services).test_client()
    figures = SelfcheckFigures()
    try:
        while figures.hands < hands:
            preset = names[figures.games % len(names)]
            events = random_game(f"{prefix}-{figures.games}", preset=preset, max_hands=MAX_HANDS)
            figures.games += 1
            figures.events += len(events)
            fairness = check_deals(events)
            # A game stopped after MAX_HANDS leaves its last deal unplayed, its key unrevealed.
            figures.deals_checked += sum(d.status != "pending" for d in fairness.deals)
            figures.deals_verified += sum(d.status == "proven" for d in fairness.deals)
            if fairness.verdict != "reproducible":
                _fail(figures, f"game {figures.games - 1}: deals {fairness.verdict}: {fairness.summary}")
            for check, record in zip(check_hands(events), records_of_game(events)):
                if figures.hands >= hands or check.recorded is None:
                    continue
                figures.hands += 1
                figures.by_preset[preset] = figures.by_preset.get(preset, 0) + 1
                where = f"game {figures.games - 1} ({preset}) hand {check.hand}"
                if check.matches and check.recomputed == check.recorded:
                    figures.recomputed_equal += 1
                else:
                    _fail(figures, f"{where}: recomputed score differs: {check.differences[:3]}")
                response = client.post("/v1/audits", json=record_data(record))
                body = response.get_json()
                if response.status_code == 200 and body["score"] == to_data(check.recorded):
                    figures.api_equal += 1
                else:
                    _fail(figures, f"{where}: POST /v1/audits answered {response.status_code}: {str(body)[:200]}")
                if progress is not None:
                    progress(1)
    finally:
        services.close()
    figures.seconds = time.perf_counter() - started
    return figures


def _fail(figures: SelfcheckFigures, message: str) -> None:
    if len(figures.failures) < 20:
        figures.failures.append(message)
