"""Hands written in the notation from the rule texts' own examples, read and audited (docs/notation.md).

Where a text gives a hand, or a situation that one hand shows (a bid and the tricks taken, a
smudge, a revoke, a score sheet's game-point breakdown), the hand is written here by hand in
the notation, for the preset that plays that text, and the test checks what the text says
of it. Each hand was worked out by hand, trick by trick; the comments give the reasoning the
assertions check.
"""

from __future__ import annotations

from typing import Any

from domain.audit import HandReplay, replay_record
from domain.events import HandScored
from domain.notation import format_notation, parse_notation
from domain.partial_audit import audit_partial
from domain.records import parse_record


def _played(text: str) -> tuple[dict[str, Any], HandReplay, HandScored]:
    """Read a hand's text, replay it through the rules, and check it reads back as written."""
    record = parse_notation(text)
    replayed = replay_record(parse_record(record))
    assert replayed.illegal is None and replayed.finished and replayed.score is not None, replayed.illegal
    assert parse_notation(format_notation(record)) == record
    return record, replayed, replayed.score


def _points(score: HandScored) -> dict[str, tuple[int, str | None]]:
    return {p.kind: (p.side, p.card) for p in score.points}


def _leaders(replayed: HandReplay) -> list[int]:
    return [t.leader for t in replayed.tricks]


BID_TWO_004 = """\
[Rules "auction-pitch-004"]
[Dealer "W"]
[Deal]
N  AS KS 2S  3H  4D  5C
E  QS  JH TH 9H 8H 7H
S  JD TD 9D 8D 7D 6D
W  JC TC 9C 8C 7C 6C
[Auction]
N:2 E:pass S:pass W:pass
[Play]
AS QS 6D 6C
7H 7D 7C 3H
8D 8C 4D 8H
9C 5C 9H 9D
KS TH TD TC
JH JD JC 2S
"""


def test_004_a_contract_of_two_made_scores_two_on_top_of_the_points() -> None:
    """004 "The Auction": Player 1 (left of the dealer) bids 2 and all others pass; "A contract of 2 will
    reward the Player with 2 Victory Points if that Player took at least 2 tricks", and "Scoring & Points":
    high, low, jack and game are victory points too. "The Pitcher": the lead then passes to the left."""
    record, replayed, score = _played(BID_TWO_004)
    assert (score.maker, score.bid, replayed.state.hand.trump if replayed.state.hand else None) == (0, 2, "S")
    assert _leaders(replayed) == [0, 1, 2, 3, 0, 1]  # N pitches, then E, S, W, N, E lead whoever won
    assert [t.winner for t in replayed.tricks].count(0) == 3  # AS, KS and the 2S take three tricks: at least 2
    # N takes high (AS), low (2S) and game (every ten); the jack of spades was not dealt.
    assert _points(score) == {"high": (0, "AS"), "low": (0, "2S"), "game": (0, None)}
    assert score.changes == (3 + 2, 0, 0, 0)


DEALER_TAKES_IT_004 = """\
[Rules "auction-pitch-004"]
[Dealer "W"]
[Deal]
N  8H 7H 5H 4H 3H 2H
E  7D 6D 5D 4D 3D 2D
S  8S 7S 6S 5S 4S 2S
W  9S 3S  6H  KC JC 5C
[Auction]
N:pass E:3 S:pass W:3
[Play]
KC 2H 2D 2S
3H 3D 4S 6H
4D 5S 5C 4H
6S 9S 5H 5D
JC 7H 6D 7S
8H 7D 8S 3S
"""


def test_004_the_dealer_takes_the_contract_at_its_going_rate_and_the_example_hand_pitches_clubs() -> None:
    """004 "The Auction": "Player 2 bids 3; Dealer (Player 4) bids 3 as well, taking the contract for its going
    rate." 004 "Example Play": the hand J♣, K♣, 9♠, 5♣, 3♠, 6♥ "can make the Trump suit clubs. This would give
    them points for the Jack of Trumps, possibly winning the High point with their King of Trump"."""
    record, replayed, score = _played(DEALER_TAKES_IT_004)
    assert sorted(record["cards"][3]) == sorted(["JC", "KC", "9S", "5C", "3S", "6H"])
    assert (score.maker, score.bid, score.trump) == (3, 3, "C")  # W, the dealer, equalled E's 3; the KC pitched clubs
    assert _points(score)["jack"] == (3, "JC") and _points(score)["high"] == (3, "KC")  # no ace or queen of clubs dealt
    assert score.bid_made and [t.winner for t in replayed.tricks].count(3) >= 3


SET_BACK_004 = """\
[Rules "auction-pitch-004"]
[Dealer "W"]
[Deal]
N  AS KS  6H 3H  4D  5C
E  QS  JH TH 9H 8H 7H
S  JD TD 9D 8D 7D 6D
W  JC TC 9C 8C 7C 6C
[Auction]
N:3 E:pass S:pass W:pass
[Play]
AS QS 6D 6C
7H 7D 7C 3H
8D 8C 4D 8H
9C 5C 9H 9D
KS TH TD TC
JH JD JC 6H
"""


def test_004_a_contract_short_of_its_tricks_loses_the_bid() -> None:
    """004 "Can your score be negative in Pitch?": "Player 1 bids 3, but only takes 2 tricks. This means Player 1
    loses 3 points at the end of the round." N takes high, low and game, which do not count when set."""
    record, replayed, score = _played(SET_BACK_004)
    assert [t.winner for t in replayed.tricks].count(0) == 2 and not score.bid_made
    assert score.taken[0] == 3 and score.changes[0] == -3


SMUDGE_004 = """\
[Rules "auction-pitch-004"]
[Dealer "W"]
[Deal]
N  2S  8D 7D 6D 5D 4D
E  9H 8H 7H 6H 5H 4H
S  AS KS QS JS  3H  3C
W  9C 8C 7C 6C 5C 4C
[Auction]
N:pass E:pass S:smudge W:pass
[Play]
2S 4H AS 4C
5H 3H 5C 4D
KS 6C 5D 6H
7C 6D 7H 3C
7D 8H QS 8C
9H JS 9C 8D
"""


def test_004_a_smudge_of_exactly_four_tricks_wins_the_game() -> None:
    """004 "Smudge": a player who declares Smudge "will win exactly 4 tricks, no more and no less"; "If a Player
    that declared Smudge achieves their contract, they automatically win the game." "The Pitcher": "If all
    Players passed or Smudged, then the Pitcher is the Player to the immediately left of the Dealer."."""
    record, replayed, score = _played(SMUDGE_004)
    assert score.maker == 0 and score.bid == 0  # N pitches the 2S without a contract
    assert [t.winner for t in replayed.tricks].count(2) == 4  # S: AS, KS, QS, JS; the 3H and 3C lose
    assert score.smudges == ((2, True),)
    assert replayed.ended is not None and (replayed.ended.winner, replayed.ended.reason) == (2, "smudge")


PITCHED_001 = """\
[Rules "auction-pitch"]
[Dealer "W"]
[Deal]
N  KC 2C  9D 8D  7H  6S
E  AC TC  7D 6D  5H  2S
S  KH QH JH TH 9H 8H
W  QC JC 5C  AD  3H  4S
[Auction]
N:2 E:3 S:pass W:3
[Play]
QC 2C AC 8H
TC 9H 5C KC
9D 7D TH AD
JC 8D 6D JH
3H 7H 5H QH
KH 4S 6S 2S
"""


def test_001_the_dealer_ties_the_high_bid_and_the_first_card_led_sets_trump() -> None:
    """001 "How to Play Pitch": "the dealer has the option to tie the current highest bid and still win the bid";
    "The first card led by the high bidder determines trump ... leading of this Queen sets clubs as the trump
    suit"; the point for low is "awarded to the team which that card had been dealt"; a pitcher short of his bid
    "loses the amount of his bid"."""
    record, replayed, score = _played(PITCHED_001)
    assert (score.maker, score.bid, score.trump) == (3, 3, "C") and record["actions"][4]["card"] == "QC"
    # The 2C, low, was dealt to N and captured by E in the first trick: the point is N's.
    assert replayed.tricks[0].winner == 1 and _points(score)["low"] == (0, "2C")
    assert _points(score)["jack"] == (3, "JC") and _points(score)["game"] == (3, None)  # W takes 16 to E's 6
    assert not score.bid_made and score.changes == (1, 1, 0, -3)


SMUDGE_001 = """\
[Rules "auction-pitch"]
[Dealer "W"]
[Scores "0 1 0 2"]
[Deal]
N  AS KS QS JS 2S  AH
E  KH QH JH TH 9H 8H
S  AD KD QD JD TD 9D
W  AC KC QC JC TC 9C
[Auction]
N:4
[Play]
AS 8H 9D 9C
KS 9H TD TC
QS TH JD JC
JS JH QD QC
2S QH KD KC
AH KH AD AC
"""


def test_001_a_smudge_of_all_four_points_wins_the_game_at_once() -> None:
    """001 "How to Play Pitch": a bid of four is called Smudge; "If a player bids Smudge and that player does manage
    to earn all four points for the hand, they immediately win the entire game": N wins at 4 points of the 7."""
    record, replayed, score = _played(SMUDGE_001)
    assert [a["type"] for a in record["actions"]][:1] == ["bid"] and record["actions"][0]["amount"] == 4
    assert set(_points(score)) == {"high", "low", "jack", "game"} and score.taken[0] == 4
    assert replayed.ended is not None and replayed.ended.winner == 0 and score.scores[0] == 4 < 7


def test_001_a_smudge_made_from_a_negative_score_sets_the_score_to_four() -> None:
    """001 "How to Play Pitch": "... unless they previously had a negative score. In that case, their score is set
    to a value of 4."""
    text = SMUDGE_001.replace('[Scores "0 1 0 2"]', '[Scores "-2 1 0 3"]')
    record, replayed, score = _played(text)
    assert replayed.ended is None and score.scores[0] == 4


SET_BACK_JOKER_001 = """\
[Rules "set-back"]
[Dealer "2"]
[Deal]
0  AS KS 3S  6H 5H 4H
1  2S  TH 9H 8H 7H  RJ
2  9D 8D 7D 6D 5D 4D
[Auction]
0:2 1:pass 2:pass
[Play]
AS RJ 4D
KS 2S 5D
3S 7H 6D
4H 8H 7D
9H 8D 5H
TH 9D 6H
"""


def test_001_the_set_back_joker_is_the_lowest_trump_but_never_low() -> None:
    """001 "Set Back": the Joker ranks below the two of trump, yet "it can never win for the Low scoring category,
    with that score going to the player dealt the actual lowest card in the trump suit other than the Joker";
    "Joker: Capturing the Joker, 1". Three players, seats by number."""
    record, replayed, score = _played(SET_BACK_JOKER_001)
    assert replayed.tricks[0].cards == ("AS", "RJ", "4D") and replayed.tricks[0].winner == 0
    assert _points(score)["low"] == (1, "2S")  # seat 1 was dealt the 2S; the joker below it does not count
    assert _points(score)["red-joker"] == (0, "RJ")  # seat 0 captured it with the AS


GAME_POINT_SHEET_002 = """\
[Rules "trickster-4"]
[Dealer "W"]
[Scores "0 0"]
[Trump "S"]
[Maker "N"]
[Bid "2"]
[Taken]
NS: QS 9S  KH  KD JD 6D 5D 4D 3D 2D  KC JC
EW: JS 2S  TH 3H 2H  8C 7C 6C 5C 4C 3C 2C
[Held]
W  2S
"""


def test_002_a_score_sheet_of_the_game_point_breakdown_awards_game_to_us() -> None:
    """002 "Scoring": the example game point breakdown, "Us: ♣K ♦K ♥K ... ♠Q ... ♣J ♦J ... Total 13; Them: ♠J ...
    ♥10 ... Total 11", and "The game point is awarded to the team which has taken cards worth the most points";
    low is "Taking or holding the lowest trump card in play". Written as a score sheet: the cards each side took."""
    record = parse_notation(GAME_POINT_SHEET_002)
    assert record["taken"][0][:3] == ["QS", "9S", "KH"] and record["held"] == {"2S": 3}
    audit = audit_partial(record)
    assert audit.score is not None and audit.verdict()["checked"] == "play not checked"
    assert [c.total for c in audit.score.game_points] == [13, 11]
    assert _points(audit.score) == {"high": (0, "QS"), "low": (1, "2S"), "jack": (1, "JS"), "game": (0, None)}
    assert audit.score.bid_made and audit.score.changes == (2, 2)


BLIND_ALL_FOURS_003 = """\
[Rules "blind-all-fours"]
[Dealer "W"]
[Deal]
N  7D 5D  5C 4C 3C 2C
E  AD 6D  5H 4H 3H 2H
S  KD 2D  9C 8C 7C 6C
W  AS KS QS TS 9S 8S
[Play]
7D AD 2D 8S
2H 6C 9S 5D
2C 3H 7C TS
8C AS 3C 4H
9C KS 4C 5H
KD QS 5C 6D
"""


def test_003_blind_all_fours_eldest_pitches_and_an_undealt_jack_gives_no_point() -> None:
    """003 "Pitch or blind all fours": "Trump is determined by the suit of the first card played in trick-play.
    Eldest hand leads to the first trick"; "The Jack point is not awarded if no player held the Jack of trumps."."""
    record, replayed, score = _played(BLIND_ALL_FOURS_003)
    assert record["actions"][0] == {"seat": 0, "type": "play", "card": "7D"} and score.trump == "D"
    assert not any("JD" in cards for cards in record["cards"]) and "jack" not in _points(score)
    assert score.bid == 0 and score.changes == (0, 1, 2, 0)  # no auction: each scores what it took


REVOKE_003 = """\
[Rules "auction-pitch-003"]
[Dealer "W"]
[Deal]
N  AS KS 2S  2H  6C 5C
E  QH 3H  TD 9D 8D 7D
S  9H 8H 7H 6H 5H 4H
W  6D 5D 4D 3D 2D  2C
[Auction]
N:2 E:pass S:pass W:pass
[Play]
AS 7D 4H 2C
KS 8D 5H 2D
2S 9D 6H 3D
2H TD 7H 4D
8H 5D 5C QH
3H 9H 6D 6C
"""


def test_003_a_revoke_is_set_back_by_the_bid() -> None:
    """003 "Auction pitch": "A player who can follow suit but discards a card of a different non-trump suit is
    punished for the revoke by being set back by the value of the bid." E holds the QH and 3H when N leads the
    2H, and plays the TD."""
    record, replayed, score = _played(REVOKE_003)
    assert replayed.tricks[3].cards == ("2H", "TD", "7H", "4D") and "QH" in record["cards"][1]
    assert score.changes[1] == -score.bid == -2 and score.bid_made and score.changes[0] == 2


UNDEALT_JACK_000 = """\
[Rules "team-auction"]
[Dealer "S"]
[Deal]
N  AH 2H  5D  6C 5C 4C
E  KH  TD  TS 9S  8C 7C
S  7S 6S  7D 6D  9C 3C
W  QH  AD  AS KS  AC KC
[Auction]
W:3 N:pass E:pass S:pass
W:hearts
[Play]
QH AH KH 7S
2H 9S 7D AD
5D TD 6D KS
TS 6S AS 4C
AC 5C 8C 9C
KC 6C 7C 3C
"""


def test_000_an_undealt_jack_scores_nothing_and_a_set_maker_loses_the_bid() -> None:
    """000 "Pitch Rules": "If the jack of trump was not dealt to any player then there will not be a point awarded
    for the jack of trump"; "If they scored fewer points than their bid, they receive minus their bid. In any
    case, the defending team receives the amount of points they scored."."""
    record, replayed, score = _played(UNDEALT_JACK_000)
    assert not any("JH" in cards for cards in record["cards"]) and "jack" not in _points(score)
    assert (score.maker, score.bid, score.taken) == (3, 3, (2, 1))  # W took only game
    assert score.changes == (2, -3)


NO_JUNK_000 = """\
[Rules "team-auction"]
[Option "win_rule=must-bid-no-junk"]
[Dealer "W"]
[Scores "7 3"]
[Deal]
N  AS KS QS JS TS 2S
E  AH KH QH JH TH 9H
S  AD KD QD JD TD 9D
W  AC KC QC JC TC 9C
[Auction]
N:2 E:pass S:pass W:pass
N:spades
[Play]
AS 9H 9D 9C
KS TH TD TC
QS JH JD JC
JS QH QD QC
TS KH KD KC
2S AH AD AC
"""


def test_000_no_junk_points_past_the_target_minus_one() -> None:
    """000 "Game over" (Must bid to win, no junk points): "Suppose game over is 11 and a team has 7. If the team
    bids 2 and scores 4, the team total score becomes 10."."""
    record, replayed, score = _played(NO_JUNK_000)
    assert record["scores_before"] == [7, 3] and (score.bid, score.taken[0]) == (2, 4)
    assert score.scores[0] == 10 and replayed.ended is None
