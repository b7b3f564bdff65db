"""The hand notation (domain/notation/): reading a hand written by hand, and the errors of a text.

The hand below is written and scored by hand for 000's default game ("Pitch Rules"): W,
the dealer, outbids N and names spades; the winner of each trick leads the next (000
"Play"), so the text names no leader and no seat of any card.
"""

from __future__ import annotations

import pytest

from domain.audit import replay_record
from domain.errors import MalformedError, NotationError, RulesError
from domain.notation import format_notation, parse_notation
from domain.records import parse_record, record_data

HAND = """\
% 000 "Pitch Rules": four players, partners across, six cards, one round of bidding
[Rules "team-auction"]
[Dealer "W"]
[Deal]
N  AS KS 2S  9H  TD 3D
E  QS 7S  KH  JD  9C 5C
S  JS 4S  AH 5H  KC 2C
W  TS 3S  QH 8H  AD 4D
[Auction]
N:2 E:pass S:pass W:3     ; W, the dealer, outbids N
W:spades
[Play]
TS AS 7S 4S
KS QS JS 3S
2S 5C 2C 4D
9H KH AH QH
KC AD 3D 9C
5H 8H TD JD
"""


def _with(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)


def _error(text: str) -> NotationError:
    with pytest.raises(NotationError) as caught:
        parse_notation(text)
    return caught.value


def test_a_hand_written_by_hand_reads_with_the_seats_the_rules_imply_and_scores_as_counted() -> None:
    record = parse_notation(HAND)
    plays = [(a["seat"], a["card"]) for a in record["actions"] if a["type"] == "play"]
    # 000 "Play": the maker leads first; the winner of each trick leads the next, clockwise after.
    leaders = [plays[i][0] for i in range(0, 24, 4)]
    assert leaders == [3, 0, 0, 0, 2, 2]  # W, then N (AS), N (KS), N (the only trump), S (AH), S (KC)
    assert plays[:4] == [(3, "TS"), (0, "AS"), (1, "7S"), (2, "4S")]
    assert record["dealer"] == 3 and record["actions"][3] == {"seat": 3, "type": "bid", "amount": 3}
    assert record["actions"][4] == {"seat": 3, "type": "declare", "suit": "S"}
    replayed = replay_record(parse_record(record))
    assert replayed.illegal is None and replayed.finished and replayed.score is not None
    # Counted by hand: high (AS), low (2S), jack (JS, taken by N in trick 2) and game (36 to 11) are NS's;
    # W bid 3 and took nothing, so EW is set by 3 (000 "Scoring").
    assert {p.kind: p.side for p in replayed.score.points} == {"high": 0, "low": 0, "jack": 0, "game": 0}
    assert [c.total for c in replayed.score.game_points] == [36, 11]
    assert replayed.score.changes == (4, -3) and not replayed.score.bid_made
    assert [t.winner for t in replayed.tricks] == [0, 0, 0, 2, 2, 3]


def test_a_written_hand_formats_and_reads_back_to_the_same_record() -> None:
    record = parse_notation(HAND)
    text = format_notation(record)
    assert parse_notation(text) == record == record_data(parse_record(record))
    assert format_notation(parse_notation(text)) == text
    assert "[Order]" not in text  # the hand was written grouped by suit, so that is its order
    assert "TS AS 7S 4S   ; W leads, N wins" in text


def test_seats_may_be_written_as_numbers_and_comments_are_ignored() -> None:
    numbered = HAND.replace("N:2 E:pass S:pass W:3", "0:2 1:pass 2:pass 3:3").replace('[Dealer "W"]', '[Dealer "3"]')
    numbered = numbered.replace("\nN  ", "\n0:").replace("\nE  ", "\n1: ").replace("\nS  ", "\n2 ").replace("\nW  ", "\n3 ")
    assert parse_notation(numbered) == parse_notation(HAND)
    commented = HAND.replace("[Play]", "[Play]   ; one line per trick\n% a whole line of comment")
    assert parse_notation(commented) == parse_notation(HAND)


def test_an_illegal_hand_still_reads_and_the_audit_names_its_action() -> None:
    # Legality is the record's and the audit's question: N plays a card it does not hold.
    text = _with(HAND, "KS QS JS 3S", "QH QS JS 3S")
    record = parse_notation(text)
    replayed = replay_record(parse_record(record))
    assert replayed.illegal is not None and replayed.illegal.action == {"seat": 0, "type": "play", "card": "QH"}
    assert parse_notation(format_notation(record)) == record


@pytest.mark.parametrize(("old", "new", "where", "words"), [
    ("KC AD 3D 9C", "KC AD 3D", "line 17", "the 5th trick has 3 cards; a trick here has 4"),
    ("KS QS JS 3S", "KS QS JS", "line 14", "the 2nd trick has 3 cards; a trick here has 4"),
    ("9H KH AH QH", "9H KH AH QH 2H", "line 16", "the 4th trick has 5 cards; a trick has at most 4"),
    ("S  JS 4S", "S  JS 4X", "line 7, column 7", "'4X' is not a card"),
    ("N:2 E:pass", "N:2 E:bid", "line 10, column 7", "'bid' is not a call"),
    ("N:2 E:pass", "N:2 Q:pass", "line 10, column 5", "'Q' is not a seat"),
    ("N:2 E:pass", "N:2 E pass", "line 10, column 5", "'E' names a seat: join it to its call, as E:pass"),
    ("W:spades", "W:S", "line 11, column 3", "'S' names a seat"),
    ('[Dealer "W"]', '[Dealer "W"]\n[Trump "S"]', "line 4", "[Trump] belongs to a score sheet"),
    ("W  TS", "N  TS", "line 8", "seat N has two lines in [Deal] (first on line 5)"),
    ('[Dealer "W"]', '[Dealer "W"]\n[Dealer "N"]', "line 4", "[Dealer] is given twice (first on line 3)"),
    ('[Dealer "W"]', "", "line 2", "the hand needs its dealer"),
    ("[Play]", '[Play "W"]', "line 12", "[Play] opens a section"),
    ("[Auction]", "[Bidding]", "line 9", "unknown tag [Bidding]"),
    ("[Auction]", "[Auction", "line 9, column 1", "a tag is written"),
    ('[Rules "team-auction"]', '[Rules "team-auction"]\n[Option "target_scor=21"]', "line 3, column 10", "names no option"),
    ('[Rules "team-auction"]', '[Rules "team-auction"]\n[Option "target_score=many"]', "line 3, column 23", "is a whole number"),
    ("2S 5C 2C 4D", "claim 2S 5C 2C", "line 15, column 1", "a claim stands on a line of its own"),
])
def test_an_error_in_the_text_says_where_and_what(old: str, new: str, where: str, words: str) -> None:
    error = _error(_with(HAND, old, new))
    assert str(error).startswith(where + ":") and words in str(error), str(error)
    assert isinstance(error, MalformedError) and error.line == int(where.split()[1].rstrip(","))


def test_the_last_trick_may_stop_short_in_a_hand_left_unfinished() -> None:
    record = parse_notation(_with(HAND, "5H 8H TD JD", "5H 8H TD"))
    replayed = replay_record(parse_record(record))
    assert replayed.illegal is None and not replayed.finished and replayed.score is None


def test_text_before_any_tag_and_an_order_of_other_cards_are_refused() -> None:
    assert "stands before any tag" in str(_error("N AS\n" + HAND))
    ordered = HAND.replace("[Auction]", "[Order]\nN  AS KS 2S 9H TD 4D\n[Auction]")
    assert str(_error(ordered)).startswith("line 10: the order of seat 0 lists other cards")


def test_without_a_deal_only_a_score_sheet_may_stand_and_its_calls_name_their_seats() -> None:
    head, _, _ = HAND.partition("[Deal]")
    assert "the hand needs its deal" in str(_error(head + "[Auction]\nN:2\n"))
    sheet = head + "[Auction]\npass\n[Taken]\nNS: AS KS 2S 9H\nEW: QS 7S KH JD\n"
    assert "nothing implies whose pass 'pass' is without the deal" in str(_error(sheet))


def test_rules_that_cannot_be_played_are_the_rules_error_at_their_line() -> None:
    text = _with(HAND, '[Rules "team-auction"]', '[Rules "team-auction"]\n[Option "min_bid=9"]')
    with pytest.raises(RulesError, match=r"^line 3: options 'min_bid' \(9\) and 'max_bid' \(4\) contradict"):
        parse_notation(text)
    never = _with(HAND, '[Rules "team-auction"]', '[Rules "team-auction"]\n[Option "target_score=21"]\n[Option "max_bid=5"]')
    with pytest.raises(RulesError, match=r"^line 4: option 'max_bid' \(5\) can never be made"):
        parse_notation(never)
    with pytest.raises(MalformedError, match="^line 4: AS is dealt twice: to seat 0 and seat 1"):
        parse_notation(_with(HAND, "E  QS", "E  AS"))
