"""Replays and audits as terminal text (rich): the tables ``pitch replay`` and ``pitch audit`` print.

Each function takes the same JSON-ready dicts the API answers with (service/audits/service.py),
so the terminal and the API always say the same thing.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED = {"H", "D"}


def card_text(card: str | None) -> Text:
    """Return a card with its suit symbol, hearts and diamonds in red."""
    if card is None:
        return Text("·", style="dim")
    if card in ("RJ", "BJ"):
        return Text("🃏" + card[0], style="bold red" if card == "RJ" else "bold")
    rank = "10" if card[0] == "T" else card[0]
    return Text(rank + SYMBOLS.get(card[1], card[1]), style="red" if card[1] in RED else "")


def cards_text(cards: Sequence[str] | None) -> Text:
    """Return cards separated by spaces, or a dash when hidden."""
    if cards is None:
        return Text("hidden", style="dim")
    return Text(" ").join(card_text(c) for c in cards) if cards else Text("—", style="dim")


def _who(seat: int | None, sides: int | None = None) -> str:
    if seat is None:
        return "—"
    return f"seat {seat}" if sides is None else f"seat {seat} (side {seat % sides})"


def hand_renderable(view: Mapping[str, Any]) -> RenderableType:
    """Return a hand's replay: the deal, the auction, the tricks and the score breakdown."""
    seats = len(view["cards"])
    parts: list[RenderableType] = []
    trump = view.get("trump")
    title = f"Hand {view['hand']} (deal {view['deal']}), dealt by seat {view['dealer']}"
    parts.append(Text(title + ("" if view["finished"] else "  [being played]"), style="bold"))
    deal = Table(title="Dealt", title_justify="left", show_edge=False)
    deal.add_column("seat")
    deal.add_column("cards")
    for seat, cards in enumerate(view["cards"]):
        deal.add_row(str(seat), cards_text(cards))
    if view.get("stock"):
        deal.add_row("stock", cards_text(view["stock"]))
    if view.get("kitty"):
        deal.add_row("kitty", cards_text(view["kitty"]))
    parts.append(deal)
    calls = {"pass": "passes", "smudge": "declares a smudge"}
    bids = ", ".join(
        f"seat {b['seat']} " + (f"bids {b['amount']}" if b["type"] == "bid" else calls[b["type"]])
        for b in view["bids"]
    )
    parts.append(Text(f"Bidding: {bids or '—'}"))
    if trump is not None:
        bid = "no bid" if view["high_bid"] is None else view["high_bid"]
        line = Text(f"Seat {view['maker']} makes {bid}; trump ")
        parts.append(line + Text(SYMBOLS[trump], style="red" if trump in RED else "") + Text(f" ({trump})"))
    others = [a for a in view["actions"] if a.get("type") not in ("bid", "pass", "smudge", "declare", "play")]
    if others:
        parts.append(Text("Other actions: " + "; ".join(
            " ".join(f"{k}={v}" for k, v in a.items()) for a in others)))
    tricks = Table(title="Tricks", title_justify="left")
    tricks.add_column("#", justify="right")
    tricks.add_column("led by")
    for seat in range(seats):
        tricks.add_column(f"seat {seat}", justify="center")
    tricks.add_column("won by")
    for trick in view["tricks"]:
        played = {p["seat"]: p["card"] for p in trick["cards"]}
        cells = []
        for seat in range(seats):
            cell = card_text(played.get(seat))
            if seat == trick["winner"]:
                cell.stylize("bold reverse")
            cells.append(cell)
        tricks.add_row(str(trick["number"]), f"seat {trick['leader']}", *cells, f"seat {trick['winner']}")
    if view.get("trick"):
        played = {p["seat"]: p["card"] for p in view["trick"]["cards"]}
        tricks.add_row("…", f"seat {view['trick']['leader']}", *[card_text(played.get(s)) for s in range(seats)], "")
    parts.append(tricks)
    if view.get("score"):
        parts.append(score_renderable(view["score"]))
    return Group(*parts)


def score_renderable(score: Mapping[str, Any]) -> RenderableType:
    """Return a score breakdown: every point with its evidence, the game count, the bid and the changes."""
    sides = len(score["scores"])
    points = Table(title="Score", title_justify="left")
    for name in ("point", "card", "to", "trick", "why"):
        points.add_column(name)
    for p in score["points"]:
        receiver = f"side {p['side']}" if p["seat"] is None else _who(p["seat"], sides)
        trick = "—" if p["trick"] is None else str(p["trick"])
        points.add_row(p["kind"], card_text(p["card"]) if p["card"] else Text("—"), receiver, trick, p["reason"])
    counts = Text("Game points: ") + Text("; ").join(
        Text(f"side {c['side']} {c['total']} (") + cards_text(c["cards"]) + Text(")") for c in score["game_points"]
    )
    made = "made" if score["bid_made"] else "set"
    bid = Text(f"Seat {score['maker']} (side {score['makers']}) bid {score['bid']}: {made}. ")
    changes = Text("Changes " + ", ".join(f"side {i} {c:+d}" for i, c in enumerate(score["changes"])))
    totals = Text("; scores " + ", ".join(f"side {i} {s}" for i, s in enumerate(score["scores"])))
    return Group(points, counts, bid + changes + totals)


def game_audit_renderable(audit: Mapping[str, Any]) -> RenderableType:
    """Return a game's audit: the chain, the scores recomputed, the deals proven."""
    chain, scores, deals = audit["chain"], audit["scores"], audit["deals"]
    parts: list[RenderableType] = [Text(f"Audit of game {audit['id']} at version {audit['version']}", style="bold")]
    if chain["intact"]:
        head = chain["head_hash"] or "withheld until the deal being played is over"
        parts.append(Text(f"Log: intact, {chain['events']} events; head hash {head}", style="green"))
    else:
        parts.append(Text(f"Log: ALTERED; the first version that does not verify is {chain['first_bad_version']}", style="bold red"))
    if chain.get("unreadable_version") is not None:
        parts.append(Text(f"Version {chain['unreadable_version']} cannot be read; the checks stop before it", style="red"))
    table = Table(title="Scores recomputed from the primary events", title_justify="left")
    for name in ("hand", "deal", "scored at", "recorded = recomputed", "differences"):
        table.add_column(name)
    for h in scores["hands"]:
        diffs = "; ".join(f"{d['path']}: recorded {d['recorded']!r}, recomputed {d['recomputed']!r}" for d in h["differences"][:4])
        if h["illegal_action"]:
            diffs = f"action {h['illegal_action']['index']} is illegal: {h['illegal_action']['reason']}. " + diffs
        ok = Text("yes", style="green") if h["matches"] else Text("NO", style="bold red")
        table.add_row(str(h["hand"]), str(h["deal"]), f"v{h['score_version']} {str(h['score_hash'])[:16]}…", ok, diffs)
    parts.append(table)
    verdict_style = "green" if deals["verdict"] in ("fair", "fair-so-far") else ("yellow" if deals["verdict"] == "reproducible" else "bold red")
    parts.append(Text(f"Deals: {deals['verdict']}: {deals['summary']}", style=verdict_style))
    parts.append(Text(
        f"  seed source {deals['seed_source']}; seed revealed {deals['seed_revealed']}, "
        f"matches commitment {deals['seed_verified']}, draws the first dealer {deals['first_dealer_verified']}"
    ))
    proofs = Table(show_edge=False)
    for name in ("deal", "hand", "status", "problems"):
        proofs.add_column(name)
    for d in deals["deals"]:
        proofs.add_row(str(d["deal"]), str(d["hand"]), d["status"], "; ".join(d["problems"]))
    parts.append(proofs)
    parts.append(Text(audit["summary"], style="bold"))
    return Group(*parts)


def record_audit_renderable(result: Mapping[str, Any]) -> RenderableType:
    """Return a record's audit: its replay and score, and the scores after it when known."""
    parts: list[RenderableType] = [hand_renderable(result["replay"])]
    if not result["complete"]:
        parts.append(Text("The actions stop before the hand is over: it is not scored.", style="yellow"))
    if result["scores_after"] is not None:
        line = f"Scores {result['scores_before']} → {result['scores_after']}"
        if result["game_ended"]:
            winner = "a tie" if result["winner"] is None else f"side {result['winner']} wins"
            line += f"; the game ended: {winner} ({result['ended_reason']})"
        parts.append(Text(line, style="bold"))
    return Group(*parts)


def print_renderable(renderable: RenderableType, console: Console | None = None) -> None:
    """Print to the terminal (or the given console)."""
    (console or Console()).print(renderable)
