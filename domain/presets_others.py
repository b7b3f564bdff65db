"""The presets of 001 (CatsAtCards), 002 (Trickster Pitch), 003 (the encyclopedia article) and 004.

001_7ce2dc221d1f8f64.txt: Auction Pitch (2 to 7 players, 7 to win) and its sections
Smudge, Set Back, 29 Card Arizona Pitch, Nine Card Pitch and Fish Pitch. 002_fa9b027eaad6e796.txt:
the 4-point and 10-point tables. 003_da4a947e3fecc28d.txt: blind all fours, auction pitch
and partnership pitch. 004_e1210a2155bafbac.txt: its Auction Pitch. Where a name is taken
by another text's game of the same name (000's Arizona to 11, 001's Auction Pitch), the
later one carries its text's number.
Only data lives here; each preset's ``source`` quotes the sentences of its options.
"""

from __future__ import annotations

from typing import Any

from domain.preset import Preset, preset

T001 = "001_7ce2dc221d1f8f64.txt"
T002 = "002_fa9b027eaad6e796.txt"
T003 = "003_da4a947e3fecc28d.txt"
T004 = "004_e1210a2155bafbac.txt"


def _src(text: str, section: str, *sentences: str) -> str:
    quoted = " ".join(f'"{s}"' for s in sentences)
    return f"{text} '{section}': {quoted}"


# 001 "How to Play Pitch": Auction Pitch, which Smudge and Set Back follow "identically" but
# for their differences. Players play alone; the pitcher's first card sets trump.
_AUCTION_001_SENTENCES = (
    "Auction Pitch is usually played with from two to seven competitors using one standard 52 card deck.",
    "The suit of the card he leads (pitches) to this first trick sets the trump suit for that hand.",
    "The lowest allowable bid is two and the highest bid is four. Although a player's bid must be higher "
    "than any other bid, the dealer has the option to tie the current highest bid and still win the bid, "
    "unless the high bid was four (called Smudge), with the player making this bid of \"Smudge\" instantly "
    "the winner of the bidding.",
    "If the first three players elect to pass, the bidder must make a minimum bid of two (called a forced bid).",
    "The first player, at the end of a hand, to reach or exceed seven points over the course of any number "
    "of hands is declared the winner. In the case that multiple players reach or exceed this value at the "
    "end of the same hand, if one of those players is the Pitcher, the Pitcher is declared the winner. "
    "However, if the Pitcher is not among those players, the scoring categories are added in the following "
    "specific order; High, Low, Jack, then Game.",
    "If a player bids Smudge and that player does manage to earn all four points for the hand, they "
    "immediately win the entire game unless they previously had a negative score. In that case, their "
    "score is set to a value of 4.",
)
_AUCTION_001: dict[str, Any] = {
    "side_size": 1, "trump_by": "first-lead", "first_lead": "any", "dealer_can_steal": "any",
    "smudge_sealed": True, "moon": "instant-win", "moon_negative": "set-to-bid",
    "low_point": "original-owner", "target_score": 7, "both_over": "in-order",
}
_LOW_DEALT = (
    "Point for \"Low\": Some players modify the rules slightly in that the point for low, which is "
    "traditionally awarded to the team which that card had been dealt, instead is awarded to the team "
    "that eventually captures it in a trick during play."
)

PRESETS_001: tuple[Preset, ...] = (
    preset(
        "auction-pitch", "Auction Pitch (CatsAtCards)",
        _src(T001, "How to Play Pitch", *_AUCTION_001_SENTENCES)
        + "; " + _src(T001, "Variations and Optional Rules", _LOW_DEALT),
        _AUCTION_001, players=(2, 7),
    ),
    preset(
        "smudge", "Smudge",
        _src(T001, "Smudge",
             "This game is played identically to Auction Pitch with a few changes:",
             "In this version, any player (not just the Pitcher) who wins all four points during a hand "
             "instantly wins the game, even if that player currently has a negative score.",
             "The dealer must bid higher than any other bid in order to become the Pitcher for the hand.",
             "The point for Low is scored by the player winning the lowest trump card in play rather than who "
             "it was initially dealt to.",
             "In Smudge, each player usually begins the game with 7 points. Each time they earn points at the "
             "end of a hand, the appropriate number of points are subtracted from their current score. If a "
             "player is set back, he must add the points of his unsuccessful bid to his score. The first "
             "player to reach or go below zero is the winner of the game."),
        {**_AUCTION_001, "moon": "none", "moon_negative": "add-bid", "smudge_anyone": True,
         "dealer_can_steal": "never", "low_point": "capturer", "count_down": True},
        players=(2, 7),
    ),
    preset(
        "set-back", "Set Back",
        _src(T001, "Set Back",
             "Set Back is another commonly found variation of Pitch but designed for three players. The game "
             "is played identically to standard Auction Pitch, with the following differences: One Joker is "
             "added to the deck used for this game.",
             "Ace, King, Queen, Jack, 10, 9, 8, 7, 6, 5, 4, 3, 2, Joker.",
             "Being dealt the lowest trump card in play (not including the Joker).",
             "Since it is possible in this game to earn up to five points per hand, the maximum bid allowed is "
             "five. A player must bid and make all five points to be considered a smudge and winning the game "
             "outright. Similar to the standard game, however, if the player currently has a negative score "
             "that player does not instantly win the game, but their score becomes 5. The first player to "
             "score 10 or more points at the end of the hand is considered the winner. The order of scoring "
             "at the end of each hand is as follows: High, Low, Jack, Joker, Game."),
        {**_AUCTION_001, "players": 3, "jokers": 1, "joker_place": "below-two", "max_bid": 5,
         "target_score": 10},
    ),
    preset(
        "arizona-001", "29 Card Arizona Pitch (7 to win)",
        _src(T001, "29 Card Arizona Pitch",
             "Thus, the deck used for this game consists of all cards in the denominations of Ace, King, "
             "Queen, Jack, 10, 9, and 6. In addition, one Joker is added to this deck.",
             "Ace, King, Queen, Jack, Joker, 10, 9, 6.",
             "This game is designed for play by four players playing in two teams of two players each.",
             "The lowest bid is two and the highest bid is five.",
             "the dealer need only make a bid equal to the current highest bid if he wants to become the "
             "Pitcher for that hand. The winner of the bidding is entitled to play the first card to the "
             "first trick, and the suit of the card led sets the trump suit to be used for the hand.",
             "Being dealt the lowest trump card in play.",
             "The first partnership to reach seven or more points at the end of a hand is declared the "
             "winner. If both teams manage to do this on the same hand, the team which was the declaring "
             "team on that last hand is set as the game winner."),
        {"removed_ranks": "234578", "jokers": 1, "joker_place": "below-jacks", "max_bid": 5,
         "dealer_can_steal": "any", "trump_by": "first-lead", "first_lead": "any",
         "low_point": "original-owner", "target_score": 7, "both_over": "makers"},
    ),
    preset(
        "nine-card-pitch", "Nine Card Pitch",
        _src(T001, "Nine Card Pitch",
             "this variant is designed for four players playing in two partnerships consisting of two "
             "players each.",
             "During the deal each player receives a total of nine cards. After this deal, there is one "
             "round of bidding. The allowable bids are 3, 4, 5, and 6.",
             "The dealer, however, may become the Pitcher for the hand by making a bid equal to the current "
             "high bid.",
             "After the high bidder (the Pitcher) has declared the trump suit for the hand, each player, "
             "starting with the player at the dealer's left and continuing in a clockwise rotation around "
             "the table, may elect to discard up to four cards from their hands.",
             "the dealer then deals out a number of cards to that player from the deck to replenish their "
             "hand to nine total cards.",
             "The pitcher is not required to lead a card of his declared trump suit on the first hand.",
             "Being dealt the lowest trump card in play.", "Winning the five of the trump suit in a trick "
             "during play.",
             "This point is awarded to the team which manages to capture, in a trick the highest card "
             "in the suit of spades in play during that hand.",
             "At the start of the game, each team is set with a score of 21.",
             "However, in order to be declared the game winner, a team must either be the declarer or the "
             "opposing team must have failed their bid. If a team which is not the high bidding team brings "
             "their score to zero or less on a hand in which the opponents are able to make their bid, the "
             "team which had reached zero must set their score to a value of 1."),
        {"hand_size": 9, "min_bid": 3, "max_bid": 6, "dealer_can_steal": "any", "discarding": "choose-any",
         "max_discards": 4, "refill_to": 9, "first_lead": "any", "low_point": "original-owner",
         "five_point": 1, "spade_point": True, "count_down": True, "target_score": 21,
         "win_rule": "must-bid-or-set-held-short"},
    ),
    preset(
        "fish-pitch", "Fish Pitch",
        _src(T001, "Fish Pitch",
             "Fish Pitch uses one standard 52 card deck and is designed for four players playing in two "
             "partnerships of two players each.",
             "The dealer first deals a row of 6 face-down cards in front of each player.",
             "After this, the dealer then deals an additional six cards to each player as their hand.",
             "The allowable bids are 2, 3, 4, and \"Smudge\". A bid of \"Smudge\" is a bid to win not only "
             "all four available points during the hand, but also for that player's partnership to win every "
             "trick during that hand. If every player passes, the dealer must make a minimum bid of 2. Except "
             "in the case of a bid of Smudge, the dealer is not required to make a higher bid, but need only "
             "make a bid equal to the current high bid to be considered the high bidder (or Pitcher) for that "
             "hand.",
             "The suit of the card led sets the trump suit to be used for the remainder of that hand.",
             "If that partnership bid Smudge and the partnership manages to win all four points in play as "
             "well as all 12 tricks in the hand, that team immediately wins the entire game.",
             "Being dealt the lowest trump card in play.",
             "The first team, at the end of a hand to reach or exceed 21 points is declared the winner. If "
             "both teams manager, on the same hand to reach or exceed this number, the team containing the "
             "high bidder for the hand is the winning team."),
        {"blind_cards": 6, "trump_by": "first-lead", "first_lead": "any", "moon": "instant-win",
         "moon_bid": "above-maximum", "moon_tricks": True, "moon_negative": "wins", "smudge_sealed": True,
         "dealer_can_steal": "any", "low_point": "original-owner", "target_score": 21, "both_over": "makers"},
    ),
)

_TRICKSTER_TIE = "The first team to 11 total points wins the game. In the event of a tie, the pitching team wins."
_TRICKSTER_VERSIONS = (
    "Trickster Pitch currently supports 4-, 5-, 6-, 7-, 9-, 10-, 11-, and 13-point versions."
)
_TRICKSTER_4_PLAY = (
    _src(T002, "4-point Pitch",
         "Our 4-point variation is played with a standard 52-card deck with Ace high. Six cards are dealt "
         "to each player resulting in 24 out of 52 cards in play per hand. Points are awarded for being "
         "dealt the lowest-rank trump in play, for taking the highest-rank trump in play and the Jack of "
         "trump (if in play), and a game point awarded for taking the most game-point points")
    + "; " + _src(T002, "Bidding", "If the first three bidders pass, the last bidder (the dealer) must bid.")
    + "; " + _src(T002, "Play",
                  "Following bidding and the setting of trump (and discard/refill in 10-point), the pitcher "
                  "leads the first trick.",
                  "In our 4-point game, you must either follow the led suit or play trump. You may play "
                  "trump at any time in our standard 4-point rules.")
)
_TRICKSTER_10_PLAY = (
    _src(T002, "10-point Pitch",
         "Our 10-point variation is played with a 54-card deck, the standard 52 plus two Jokers",
         "The two Jokers are ranked between the 10 and Jack with the red Joker ranked higher than the "
         "black Joker. Trump consists of all the cards of the called suit plus the off-Jack",
         "One point is awarded for taking the Ace, Jack, off-Jack, high Joker, low Joker, and 10 of "
         "trump. Three points are awarded for taking the 3 of trump. One point is awarded to the player "
         "who is dealt the 2 of trump.",
         "Players are initially dealt nine cards. Following a single round of bidding, the player with "
         "the highest point bid (called the “pitcher”) chooses trump. (If all players pass, the hand is "
         "redealt.) Once trump is set, starting with the player on the pitcher’s left, the non-trump "
         "cards are discarded and the hands refilled to six from the undealt cards (if a player held more "
         "than 6 trump, the lowest-value trump cards are discarded as well).",
         "After the other three hands are refilled, the pitcher gets all the remaining cards and discards "
         "back to six. All the discarding and refilling is handled automatically in Trickster Pitch.")
    + "; " + _src(T002, "Play", "In our 10-point game, you may only play trump. When you are out of trump, "
                  "your hand is folded.")
)
_TRICKSTER_SCORING_TEN = _src(
    T002, "Scoring 7-, 10-, 11- and 13-Point",
    "Points are awarded to the pitching team only if they make their bid. Points earned by the defenders are "
    "always awarded.", "Taking or holding the 2 of trump",
    "The first team to 32 total points wins. In the event of a tie, the pitching team wins.",
)
# 002's games of six cards (4-, 5-, 6- and 9-point): 4-point's deal, bidding and play.
_SIX_CARDS: dict[str, Any] = {"low_point": "original-owner", "first_lead": "any", "both_over": "makers-on-tie"}
# 002's games of nine cards (7-, 10-, 11- and 13-point): 10-point's deal, discards and trump-only play,
# the ace (not the highest trump) for high and the two of trump to the seat dealt it for low.
_NINE_CARDS: dict[str, Any] = {
    "jokers": 2, "joker_place": "below-jacks", "off_jack": True, "game_point": "ten-of-trump",
    "three_point": 3, "high_point": "ace", "low_point": "dealt-two", "hand_size": 9, "stick_dealer": "off",
    "all_pass_redeal": "next-dealer", "discarding": "all-nontrump", "refill": "maker-takes-rest",
    "discard_by": "automatic", "discard_first": "maker-left", "trump_only": True, "first_lead": "any",
    "target_score": 32, "both_over": "makers-on-tie",
}


def _six_card(points: int, title: str, rows: tuple[str, ...], options: dict[str, Any]) -> Preset:
    """Return 002's ``points``-point game of six cards: 4-point's play with the scoring table's ``rows``."""
    return preset(
        f"trickster-{points}", title,
        _src(T002, "Pitch Basics", _TRICKSTER_VERSIONS) + "; " + _TRICKSTER_4_PLAY
        + "; " + _src(T002, "Scoring 4-, 5-, 6- and 9-Point", *rows, _TRICKSTER_TIE),
        {**_SIX_CARDS, "max_bid": points, **options},
    )


def _nine_card(points: int, title: str, rows: tuple[str, ...], options: dict[str, Any]) -> Preset:
    """Return 002's ``points``-point game of nine cards: 10-point's play with the scoring table's ``rows``."""
    return preset(
        f"trickster-{points}", title,
        _src(T002, "Pitch Basics", _TRICKSTER_VERSIONS) + "; " + _TRICKSTER_10_PLAY
        + ("; " + _src(T002, "Scoring 7-, 10-, 11- and 13-Point", *rows) if rows else "")
        + "; " + _TRICKSTER_SCORING_TEN,
        # 002 gives the opening bid of 10-point only ("at least 5"): the others open at half their points.
        {**_NINE_CARDS, "min_bid": (points + 1) // 2, "max_bid": points, **options},
    )


PRESETS_002: tuple[Preset, ...] = (
    preset(
        "trickster-4", "4-point Pitch (Trickster)",
        _TRICKSTER_4_PLAY + "; " + _src(T002, "Scoring 4-, 5-, 6- and 9-Point", _TRICKSTER_TIE),
        _SIX_CARDS,
    ),
    _six_card(5, "5-point Pitch (Trickster)", ("Taking the Off-Jack of trump (5- & 6-point only)",), {"off_jack": True}),
    _six_card(
        6, "6-point Pitch (Trickster)", ("Taking the Off-Jack of trump (5- & 6-point only)", "Taking the Joker (6-point only)"),
        {"off_jack": True, "jokers": 1, "joker_place": "below-jacks"},
    ),
    _nine_card(7, "7-point Pitch (Trickster)", ("Taking the 3 of trump (not in 7-point)",), {"three_point": 0}),
    _six_card(9, "9-point Pitch (Trickster)", ("Taking the 5 of trump (9-point only)",), {"five_point": 5}),
    preset(
        "trickster-10", "10-point Pitch (Trickster)",
        _TRICKSTER_10_PLAY
        + "; " + _src(T002, "Bidding", "In 10-point pitch, there are 10 points available, and the opening bid "
                      "must be at least 5.")
        + "; " + _TRICKSTER_SCORING_TEN,
        {**_NINE_CARDS, "min_bid": 5, "max_bid": 10},
    ),
    _nine_card(11, "11-point Pitch (Trickster)", ("Taking the Off-Ace of trump (11-point only)",), {"off_ace": True}),
    _nine_card(13, "13-point Pitch (Trickster)", ("Taking the Off-3 of trump (13-point only)",), {"off_three": True}),
)

_BLIND_SENTENCES = (
    "Two or more players play individually or in equal-sized teams, seated alternatingly.",
    "The dealer hands out 6 cards to each player in batches of 3. Trump is determined by the suit of the "
    "first card played in trick-play. Eldest hand leads to the first trick, and the winner of each trick "
    "leads to the next. Standard trick-play rules are in effect with the exception that a player who can "
    "follow suit to a plain suit lead is nonetheless allowed to play a trump.",
    "The Game point is only awarded if one party has won more pips in tricks than any other. The scoring "
    "points accrue strictly in the order given in the table, preventing ties in case more than one team "
    "reaches the target score at the end of the deal.",
)
_EIGHT = (
    "Some of the lower cards may be removed from the deck. The two-player game is more interesting if the Threes, "
    "Fours and Fives are removed. Removing the Threes ensures that in the eight-player game all cards are dealt."
)
_TARGET_11 = (
    "The pub game played nowadays in northern England under the name all fours is a four-player "
    "partnership version of pitch, played for 11 points."
)
_LOW_OWNER = "Low | lowest trump in play | 1 | original owner"
_BLIND_003: dict[str, Any] = {
    "side_size": 1, "trump_by": "first-lead", "first_lead": "any", "low_point": "original-owner",
    "both_over": "in-order",
}
_AUCTION_003_SENTENCES = (
    "Beginning with eldest hand, each player gets one chance to bid for the privilege of declaring the "
    "trump suit. A bid is the number of points that the bidder undertakes to win in the deal, the minimum "
    "bid being 1. Each player must make a higher bid than the previous player, or pass. A bid of four is "
    "known as shoot the moon, slam or smudge.",
    "If no player bids, the deal is abandoned and the same dealer deals again.",
    "The pitcher pitches, i.e. leads to the first trick and thereby establishes the trump suit.",
    "A player who can follow suit but discards a card of a different non-trump suit is punished for the "
    "revoke by being set back by the value of the bid.",
    "Any points won by the pitcher are counted first. Thereafter the remaining points are awarded in the "
    "order as listed above, i.e. first High, then Low, then Jack, then Game.",
)
_AUCTION_003: dict[str, Any] = {
    **_BLIND_003, "min_bid": 1, "stick_dealer": "off", "all_pass_redeal": "same-dealer", "revoke": "penalty",
}

PRESETS_003: tuple[Preset, ...] = (
    preset(
        "blind-all-fours", "Blind all fours",
        _src(T003, "Pitch or blind all fours", *_BLIND_SENTENCES, _TARGET_11)
        + "; " + _src(T003, "Common minor variations", _EIGHT)
        + "; " + _src(T003, "Scoring variations", _LOW_OWNER),
        {**_BLIND_003, "bidding": "none"}, players=(2, 8),
    ),
    preset(
        "auction-pitch-003", "Auction pitch (encyclopedia)",
        _src(T003, "Auction pitch",
             "Auction pitch is played in exactly the same way as simple pitch, except that instead of eldest "
             "hand the highest bidder pitches, and the highest bidder must reach the number of scoring points "
             "bid or is set back.", *_AUCTION_003_SENTENCES)
        + "; " + _src(T003, "Pitch or blind all fours", *_BLIND_SENTENCES[:1])
        + "; " + _src(T003, "Common minor variations", _EIGHT)
        + "; " + _src(T003, "Scoring variations", _LOW_OWNER),
        _AUCTION_003, players=(2, 8),
    ),
    preset(
        "partnership-pitch", "Partnership pitch",
        _src(T003, "Partnership pitch",
             "Winning all four points is much easier in the four-player partnership version than in other "
             "versions. Therefore, one common variation is that shooting the moon is a separate bid worth 5 "
             "points and involves winning all six tricks in addition to winning all four points. The fifth "
             "point for winning all six tricks is only awarded if the pitching team undertook to shoot the "
             "moon.",
             "Another variation common in partnership pitch is that only the pitching party can win the game.")
        + "; " + _src(T003, "Auction pitch", *_AUCTION_003_SENTENCES)
        + "; " + _src(T003, "Scoring variations", _LOW_OWNER),
        {**_AUCTION_003, "side_size": 2, "moon": "extra-point", "win_rule": "must-bid"},
    ),
)

# 004 (the other rules page): Auction Pitch as it tells it. Each player alone, 6 cards in two
# packets of three; contracts in tricks, worth their bid in victory points beside high, low,
# jack and game; the dealer may take a contract at its going rate; the pitcher's first card
# sets trump and the lead then passes to the left; a smudge is a second, sealed contract to
# take exactly 4 tricks, which wins the game; if everyone passes or smudges, the player left
# of the dealer pitches; 7 points win, the pitcher counting first.
PRESETS_004: tuple[Preset, ...] = (
    preset(
        "auction-pitch-004", "Auction pitch (the other rules page)",
        _src(T004, "Shuffle & Deal",
             "A round of Auction Pitch begins with shuffling the deck and dealing each Player six cards in two "
             "\u201cpackets\u201d of three.")
        + "; " + _src(T004, "The Auction",
                      "If a Player does begin bidding by attempting a contract, the lowest possible bid they may "
                      "put forward is 2.",
                      "A contract of 2 will reward the Player with 2 Victory Points if that Player took at least 2 "
                      "tricks.",
                      "The only Player that does not have to increase the bid is the Dealer.")
        + "; " + _src(T004, "Smudge",
                      "If a Player declares Smudge, they automatically declare that they will win exactly 4 tricks, "
                      "no more and no less.",
                      "This contract is sealed the moment it is declared, and cannot be taken away from the Player "
                      "by a higher bid.")
        + "; " + _src(T004, "The Pitcher",
                      "If all Players passed or Smudged, then the Pitcher is the Player to the immediately left of "
                      "the Dealer.",
                      "The Pitcher will play the first card of the first trick, and for subsequent tricks, the "
                      "Player to the left of the Pitcher will play the first card of the next trick, and so on.")
        + "; " + _src(T004, "End of Game",
                      "The game ends when one Player achieves 7 total \u201cVictory Points.\u201d")
        + "; " + _src(T004, "Rules for Victory Points",
                      "The Pitcher counts their Victory points first."),
        {
            "players": 4, "side_size": 1, "hand_size": 6, "deal_packet": 3, "min_bid": 2, "max_bid": 6,
            "contract": "tricks", "bid_bonus": True, "dealer_can_steal": "any", "stick_dealer": "off",
            "all_pass_redeal": "eldest-pitches", "trump_by": "first-lead", "first_lead": "any",
            "trick_leader": "rotating", "smudge_call": 4, "target_score": 7, "both_over": "in-order",
        },
        players=(2, 4),
    ),
)
