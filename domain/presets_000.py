"""The 24 presets of 000_58bf5efc645e9b53.txt (NeuralPlay's help), section "Preset Game Rules".

Each preset starts from 000's default rules ("Pitch Rules": four players in two teams, six
cards each, one round of bidding from the dealer's left with a minimum of 2, the stuck
dealer bids, the maker names trump and leads a trump; high, low, jack and game, low to
the capturer, no game point on a tie; 11 points win), which are ``Rules()``, and sets the
options its sentences name. Every one offers claims, as 000's app does in every game
("Frequently Asked Questions", What does claim mean?). Where a preset's points need a
maximum bid, it is the points a hand holds. Only data lives here.
"""

from __future__ import annotations

from typing import Any, Mapping

from domain.preset import Preset
from domain.preset import preset as _plain_preset

TEXT = "000_58bf5efc645e9b53.txt"
SECTION = f"{TEXT} 'Preset Game Rules'"
# 000 offers a claim in every game ("Frequently Asked Questions", What does claim mean?); the
# file is the one the source began with.
_CLAIM = (
    "'What does claim mean?': \"Claim means you will take the remaining tricks. When your hand is "
    "clearly high, you may claim the remaining tricks to speed up play.\""
)


def preset(name: str, title: str, source: str, options: Mapping[str, Any]) -> Preset:
    """Return one of 000's presets: its options, and claims as every game of 000 offers them."""
    return _plain_preset(name, title, f"{source}; {_CLAIM}", {"claims": True, **options})


def _src(*sentences: str) -> str:
    quoted = " ".join(f'"{s}"' for s in sentences)
    return f"{SECTION}: {quoted}"


# The deal and discard of the 7- to 13-point games: nine cards, every non-trump discarded,
# hands refilled to six from the stock (the default refill is everyone, to six).
_NINE_DISCARD = {"hand_size": 9, "discarding": "all-nontrump"}
_DEAL_NINE = (
    "Nine cards are initially dealt and players must discard all nontrump cards after the bidding.",
    "Players are dealt additional cards to give them six cards in the hand before play.",
)
_TEN_POINT = {
    "off_jack": True, "jokers": 2, "three_point": 3, "game_point": "ten-of-trump", "low_point": "player",
    "win_rule": "must-bid", **_NINE_DISCARD,
}
_TEN_POINT_SENTENCES = (
    "The off-jack becomes trump and ranks below the jack of trump.",
    "Two jokers are added to the deck.",
    "The three of trump is valued at 3 points and the ten of trump is valued at 1 points instead of game.",
)
_LOW_PLAYER = "The low point goes to player who plays the card (not captures it)."
_MUST_BID = "The winning team must take the final bid to win."
# Pedro and its relatives: the ten of trump instead of game, the five and off-five worth 5,
# any first lead (000: "the winning bidder leads and may lead any suit").
_PEDRO = {"game_point": "ten-of-trump", "five_point": 5, "off_five": True, "first_lead": "any"}
_ROUNDS = "The player to the left of the dealer begins the bidding and the bidding proceeds clockwise until all players have passed."

PRESETS_000: tuple[Preset, ...] = (
    preset(
        "team-auction", "Team auction",
        _src("Team auction. The standard pitch rules with teams and bidding. Points are awarded for "
             "capturing high, low, jack and game."),
        {},
    ),
    preset(
        "team-auction-ii", "Team auction II",
        _src("Team auction II. Like team auction except that low point is awarded to the original owner "
             "of the low trump card."),
        {"low_point": "original-owner"},
    ),
    preset(
        "solo-auction", "Solo auction",
        _src("Solo auction. The standard pitch rules with bidding and each player competing individually."),
        {"side_size": 1},
    ),
    preset(
        "team", "Team",
        _src("Team. The standard pitch rules with teams but without bidding.")
        + f"; {TEXT} 'Rule Options'/'Bidding': \"When bidding is disabled, the player to the left of the "
        "dealer will choose the trump suit.\"; 'Scoring': \"When there is no bidding the game point is not "
        "awarded when there is a tie.\"",
        {"bidding": "none"},
    ),
    preset(
        "solo", "Solo",
        _src("Solo. The standard pitch rules without teams and without bidding.")
        + f"; {TEXT} 'Rule Options'/'Bidding': \"When bidding is disabled, the player to the left of the "
        "dealer will choose the trump suit.\"",
        {"bidding": "none", "side_size": 1},
    ),
    preset(
        "team-auction-5", "Team auction (5 point)",
        _src("The off-jack (jack of the same color as trump) becomes trump and ranks below the jack of trump.",
             "Points are awarded for capturing high, low, jack, off-jack, and game."),
        {"off_jack": True, "max_bid": 5},
    ),
    preset(
        "team-auction-6", "Team auction (6 point)",
        _src("The off-jack becomes trump and ranks below the jack of trump.",
             "A joker is added to the deck and ranks below between the 10 and off-jack.",
             "Points are awarded for capturing high, low, jack, off-jack, joker, and game."),
        {"off_jack": True, "jokers": 1, "joker_place": "below-jacks", "max_bid": 6},
    ),
    preset(
        "team-auction-7", "Team auction (7 point)",
        _src("The off-jack becomes trump and ranks below the jack of trump.",
             "Two jokers are added to the deck.", *_DEAL_NINE,
             "The minimum bid is 3 and the game ends at 21 points.", _MUST_BID,
             "Points are awarded for capturing high, low, jack, off-jack, jokers, and the ten of trump."),
        {"off_jack": True, "jokers": 2, "game_point": "ten-of-trump", "win_rule": "must-bid",
         "min_bid": 3, "max_bid": 7, "target_score": 21, **_NINE_DISCARD},
    ),
    preset(
        "team-auction-9", "Team auction (9 point)",
        _src("The five of trump is valued at 5 points.", *_DEAL_NINE,
             "The minimum bid is 3 and the game ends at 31 points.",
             "Points are awarded for capturing high, low, jack, game, and the five of trump."),
        {"five_point": 5, "min_bid": 3, "max_bid": 9, "target_score": 31, **_NINE_DISCARD},
    ),
    preset(
        "team-auction-10", "Team auction (10 point)",
        _src(*_TEN_POINT_SENTENCES, *_DEAL_NINE, _LOW_PLAYER,
             "The minimum bid is 5 and the game ends at 32 points.", _MUST_BID),
        {**_TEN_POINT, "min_bid": 5, "max_bid": 10, "target_score": 32},
    ),
    preset(
        "team-auction-11", "Team auction (11 point)",
        _src(*_TEN_POINT_SENTENCES, "The off-ace becomes trump and ranks below the ace of trump.",
             *_DEAL_NINE, _LOW_PLAYER, "The minimum bid is 5 and the game ends at 52 points.", _MUST_BID),
        {**_TEN_POINT, "off_ace": True, "min_bid": 5, "max_bid": 11, "target_score": 52},
    ),
    preset(
        "team-auction-13", "Team auction (13 point)",
        _src(*_TEN_POINT_SENTENCES,
             "The off-three is worth 3 points, becomes trump, and ranks below the three of trump.",
             *_DEAL_NINE, _LOW_PLAYER, "The minimum bid is 5 and the game ends at 52 points.", _MUST_BID),
        {**_TEN_POINT, "off_three": True, "min_bid": 5, "max_bid": 13, "target_score": 52},
    ),
    preset(
        "arizona", "Arizona 29-card (5 point)",
        _src("Played with a 29-card deck consisting of a joker and ranks 6, 9, 10, J, Q, K, A.",
             "The joker ranks between the ten and jack of trump. Points are awarded for low, high, jack, "
             "joker, and game.",
             "The game ends at 11 points. When both teams are reach 11 points the last declaring team wins."),
        {"removed_ranks": "234578", "jokers": 1, "joker_place": "below-jacks", "max_bid": 5,
         "both_over": "makers"},
    ),
    preset(
        "smear-4", "Smear (4 point, teams)",
        _src("Played with a 32-card deck consisting of ranks 7 to A.",
             "6 cards are dealt to each player, and 3 cards are dealt to a kitty.",
             "The low point goes to the original owner of low. Game over at 15 points.")
        + f"; {TEXT} 'Rule Options'/'Dealing': \"Kitty. Optionally play with a kitty with 2 to 6 cards that "
        "goes to the maker.\"",
        {"removed_ranks": "23456", "kitty_size": 3, "low_point": "original-owner", "target_score": 15},
    ),
    preset(
        "smear-5", "Smear (5 point, teams)",
        _src("Played with a 28-card deck consisting of ranks 2, 9, 10, J, Q, K, and A.",
             "6 cards are dealt to each player.",
             "Points are awarded for low, high, jack, off-jack, and game.",
             "The off-jack ranks between the ten and jack of trump.",
             "The low point goes to the original owner of low.",
             "Bidding continues until three players have passed, there may be multiple rounds of bidding. "
             "Once a player has passed, the player may not reenter the bidding.",
             "The game is over at 12 points."),
        {"removed_ranks": "345678", "off_jack": True, "low_point": "original-owner", "bidding": "rounds",
         "max_bid": 5, "target_score": 12},
    ),
    preset(
        "smear-10", "Smear (10 point, teams)",
        _src("Ten cards are initially dealt. Except for the maker, players must discard all nontrump cards "
             "after the bidding, their hands are then refilled to 6 cards from the stock.",
             "The maker then receives all the cards remaining in the stock and discards down to 6 cards.",
             "There are 10 points in a round: high (ace), low (two), jack, game, off-jack, two jokers, and "
             "the three of trump (worth 3 points).",
             "The low point goes to player who plays the card (not captures it). The minimum bid is 4. The "
             "game ends at 52 points."),
        {"hand_size": 10, "discarding": "all-nontrump", "refill": "maker-takes-rest", "off_jack": True,
         "jokers": 2, "three_point": 3, "low_point": "player", "min_bid": 4, "max_bid": 10,
         "target_score": 52},
    ),
    preset(
        "nine-five", "Nine-five (18 point)",
        _src("Nine cards are initially dealt. The minimum bid is 4. Except for the dealer, players must "
             "discard all nontrump cards after the bidding, their hands are then refilled to 6 cards from "
             "the stock.",
             "The dealer then receives all the cards remaining in the stock and discards down to 6 cards.",
             "There are 18 points in a round: high (ace), low (two), jack, game, the five of trump, and the "
             "nine of trump. The 9 and 5 of trump are worth 9 and 5 points respectively.",
             "Low point goes the player who plays the card.", "The game ends at 100 points."),
        {"hand_size": 9, "discarding": "all-nontrump", "refill": "dealer-takes-rest", "five_point": 5,
         "nine_point": 9, "low_point": "player", "min_bid": 4, "max_bid": 18, "target_score": 100},
    ),
    preset(
        "nine-five-connecticut", "Nine-five (Connecticut)",
        _src("Nine-five (Connecticut). Based on the Nine-five rules above. The differences are: 6 cards are "
             "initially dealt; players discard all nontrump and refill to 6 cards; the dealer does not receive "
             "the stock; the minimum bid is 9; a player with a 9 and 2+ cards in a suit must bid 9 or more "
             "when no other player has bid; and the player to the left of the maker leads initially and may "
             "lead any suit."),
        {"discarding": "all-nontrump", "five_point": 5, "nine_point": 9, "low_point": "player",
         "min_bid": 9, "max_bid": 18, "nine_five": True, "first_leader": "maker-left", "first_lead": "any",
         "target_score": 100},
    ),
    preset(
        "pedro", "Pedro (14 point, teams)",
        _src("Nine cards are initially dealt. Except for the dealer, players must discard all nontrump cards "
             "after the bidding, their hands are then refilled to 6 cards from the stock.",
             "The dealer then receives all the cards remaining in the stock and discards down to 6 cards.",
             "There are 14 points in a round: high (ace), low (two), jack, ten of trump, five of trump, and "
             "the off-five (same color as trump, ranks just below the five of trump). The 5 and off-5 are "
             "worth 5 points each.",
             "The low point goes to player who plays the card (not captures it). The minimum bid is 6. On the "
             "initial lead, any suit may be led. The game ends at 62 points."),
        {**_PEDRO, "hand_size": 9, "discarding": "all-nontrump", "refill": "dealer-takes-rest",
         "low_point": "player", "min_bid": 6, "max_bid": 14, "target_score": 62},
    ),
    preset(
        "pidro", "Pidro (14 point, teams)",
        _src("Pidro (14 point, teams). Like Pedro, however only trump cards are played.",
             "A player that runs out of trump sits out and does not participate in the play."),
        {**_PEDRO, "hand_size": 9, "discarding": "all-nontrump", "refill": "dealer-takes-rest",
         "low_point": "player", "min_bid": 6, "max_bid": 14, "target_score": 62, "trump_only": True},
    ),
    preset(
        "king-pedro", "King Pedro (44 point, teams)",
        _src("There are 44 points in a round. The high, low (goes to the original owner), jack, and ten are "
             "worth 1 point each. The 5 and off-5 are worth 5 points each. The king is worth 30 points.",
             "12 cards are initially dealt. The minimum bid is 30.", _ROUNDS,
             "Once a player has passed, the player may not reenter the bidding.",
             "The winning bidder receives the kitty. All players discard nontrump cards down to 6 cards. The "
             "winning bidder leads and may lead any suit. The game ends at 200 points, the winning team must "
             "make the last bid to win."),
        {**_PEDRO, "king_point": 30, "low_point": "original-owner", "hand_size": 12, "kitty_size": 4,
         "bidding": "rounds", "discarding": "down-to-six", "min_bid": 30, "max_bid": 44,
         "target_score": 200, "win_rule": "must-bid"},
    ),
    preset(
        "sixty-three", "Sixty-three (63 point, teams)",
        _src("There are 63 points in a round. The high, low (goes to the capturer), jack, and ten are worth "
             "1 point each. The king is worth 25 points; the 3 is worth 15 points; the 9 is worth 9 points; "
             "and the 5 and off-5 are each worth 5 points.",
             "9 cards are initially dealt. The minimum bid is 30.", _ROUNDS,
             "Once a player has passed, the player may not reenter the bidding. All players except the dealer "
             "discard nontrump cards down to 6 cards. The dealer receives the stock and discards nontrump "
             "cards down to 6 cards. The winning bidder leads and may lead any suit. The game ends at 152 "
             "points."),
        {**_PEDRO, "king_point": 25, "three_point": 15, "nine_point": 9, "hand_size": 9,
         "bidding": "rounds", "discarding": "down-to-six", "refill": "dealer-takes-rest", "min_bid": 30,
         "max_bid": 63, "target_score": 152},
    ),
    preset(
        "eighty-three", "Eighty-three (83 point, teams)",
        _src("There are 83 points in a round. The high, low (goes to the capturer), jack, and ten are worth "
             "1 point each. The king is worth 25 points; queen is 20 points; the 3 is 15 points; the 9 is 9 "
             "points; and the 5 and off-5 are each worth 5 points.",
             "12 cards are initially dealt and the remaining cards are placed in the kitty.",
             "The minimum bid is 30.", _ROUNDS,
             "Once a player has passed, the player may not reenter the bidding. The winning bidder receives "
             "the kitty then declarers trump. All players discard nontrump cards down to 6 cards. The winning "
             "bidder leads and may lead any suit. The game ends at 200 points."),
        {**_PEDRO, "king_point": 25, "queen_point": 20, "three_point": 15, "nine_point": 9,
         "hand_size": 12, "kitty_size": 4, "kitty_when": "before-trump", "bidding": "rounds",
         "discarding": "down-to-six", "min_bid": 30, "max_bid": 83, "target_score": 200},
    ),
    preset(
        "high-nine", "High Nine (25 point, teams)",
        _src("Nine cards are dealt to each player. The 9 and off-9 are each worth 9 points.",
             "The high, low, jack, off-jack, ten, and two jokers are worth one point each.",
             "Bidding continues until three players have passed. Once a player has passed, the player may "
             "not reenter the bidding. A player may shoot bid to shoot the moon, failure results in the loss "
             "of the game. The winning bidder declarers trump.",
             "Other than the bidder, the players discard all nontrump and their hands are refilled up to 6 "
             "cards. The bidder receives the remaining stock and discards down to 6 cards. The bidder begins "
             "the play by leading any card. Players must follow suit, when they do not have the suit led, "
             "any card may be played. The game ends at 52 points."),
        {"hand_size": 9, "nine_point": 9, "off_nine": True, "off_jack": True, "jokers": 2,
         "game_point": "ten-of-trump", "bidding": "rounds", "moon": "instant-win",
         "moon_bid": "above-maximum", "moon_failure": "loses-game", "discarding": "all-nontrump",
         "refill": "maker-takes-rest", "first_lead": "any", "following": "must-follow", "max_bid": 25,
         "target_score": 52},
    ),
)
