"""The rules of a table as one frozen, validated value (docs/architecture.md "Rules").

Every option a table may set is declared once, as a field of ``Rules``: its type (a
string option's is the ``Literal`` of the values it takes), its default and, in the
field's metadata (``option``), its description, its range and the rule text it comes
from. ``OPTIONS``, the table the API, its schemas and validation read, is derived from
those fields, in their order.
Presets (domain/presets.py) are named ``Rules`` values; rule logic reads options and
never branches on a preset's name. ``resolve_rules`` turns a preset plus overrides
into ``Rules``, refusing unknown options, values out of range and contradictory
combinations with a message that names the options at fault.

Options implemented so far come from 000 "Pitch Rules" and "Rule Options"; the other
texts' variants are added here as data.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Literal, Mapping, TypeVar, get_args, get_origin, get_type_hints

from domain.cards import RANKS
from domain.errors import RulesError


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option a table may set: its type, its allowed values and where it comes from."""

    name: str
    default: Any
    description: str
    source: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    pattern: str | None = None
    skips: tuple[int, ...] = ()

    @property
    def kind(self) -> str:
        """Return the option's JSON type: "integer", "boolean" or "string"."""
        if isinstance(self.default, bool):
            return "boolean"
        if isinstance(self.default, int):
            return "integer"
        return "string"

    def check(self, value: object) -> object:
        """Return ``value`` if this option may take it, else raise RulesError naming it."""
        kind = self.kind
        if kind == "boolean":
            if not isinstance(value, bool):
                raise RulesError(f"option '{self.name}' must be true or false, not {value!r}", (self.name,))
        elif kind == "integer":
            if isinstance(value, bool) or not isinstance(value, int):
                raise RulesError(f"option '{self.name}' must be a whole number, not {value!r}", (self.name,))
            if (self.minimum is not None and value < self.minimum) or (
                self.maximum is not None and value > self.maximum
            ):
                raise RulesError(
                    f"option '{self.name}' must be between {self.minimum} and {self.maximum}, not {value}",
                    (self.name,),
                )
        elif self.pattern == "ranks":
            if not isinstance(value, str) or any(r not in RANKS for r in value) or len(set(value)) != len(value):
                raise RulesError(
                    f"option '{self.name}' must be rank characters from {RANKS!r}, each at most once, not {value!r}",
                    (self.name,),
                )
        else:
            if value not in self.choices:
                allowed = ", ".join(repr(c) for c in self.choices)
                raise RulesError(f"option '{self.name}' must be one of {allowed}, not {value!r}", (self.name,))
        return value

    def check_offered(self, value: object) -> None:
        """Raise RulesError naming this option when a new table may not take ``value`` (one of ``skips``)."""
        if value in self.skips and not isinstance(value, bool):
            ranges = f"{self.minimum}, or from {max(self.skips) + 1} to {self.maximum}"
            raise RulesError(f"option '{self.name}' must be {ranges}, not {value}", (self.name,))


# The values each string option takes, in the order the API lists them.
JokerPlace = Literal["below-jacks", "between-jacks", "below-two", "above-ace"]
JokerOrder = Literal["red-high", "first-played-high"]
KittyWhen = Literal["before-trump", "after-trump"]
Misdeal = Literal["none", "2-10", "2-9", "3-9", "4-9"]
Bidding = Literal["one-round", "rounds", "none"]
TrumpBy = Literal["declared", "first-lead"]
StickDealer = Literal["bid", "bid-or-set", "off"]
AllPassRedeal = Literal["same-dealer", "next-dealer", "eldest-pitches"]
DealerCanSteal = Literal["never", "any", "maximum"]
Moon = Literal["none", "extra-point", "instant-win", "game-points"]
MoonBid = Literal["maximum", "above-maximum"]
MoonFailure = Literal["minus-bid", "loses-game"]
Discarding = Literal["none", "all-nontrump", "choose-nontrump", "choose-any", "down-to-six"]
Refill = Literal["everyone", "dealer-takes-rest", "maker-takes-rest"]
DiscardBy = Literal["players", "automatic"]
DiscardFirst = Literal["dealer-left", "maker-left"]
FirstLeader = Literal["maker", "maker-left"]
TrickLeader = Literal["winner", "rotating"]
FirstLead = Literal["trump", "any", "trump-broken"]
Revoke = Literal["refused", "penalty"]
Following = Literal["suit-or-trump", "suit-or-trump-must-trump", "must-follow", "must-follow-must-trump"]
LowPoint = Literal["capturer", "original-owner", "player", "dealt-two"]
HighPoint = Literal["highest", "ace"]
GamePoint = Literal["game", "ten-of-trump", "none"]
GameTie = Literal["none", "makers"]
SetPenalty = Literal["bid", "double-bid"]
Contract = Literal["points", "tricks"]
MoonNegative = Literal["add-bid", "set-to-bid", "wins"]
GameOver = Literal["score", "hands"]
WinRule = Literal["highest", "must-bid", "must-bid-or-set", "must-bid-no-junk", "must-bid-or-set-held-short"]
BothOver = Literal["highest", "makers", "makers-on-tie", "in-order"]

T = TypeVar("T")

# The metadata keys of an option's field, each an argument of OptionSpec; a string option's
# choices are its field's type, one of the Literal types above.
OPTION_KEYS = ("description", "source", "minimum", "maximum", "pattern", "skips")


def option(
    default: T, description: str, source: str, *, minimum: int | None = None, maximum: int | None = None,
    pattern: str | None = None, skips: tuple[int, ...] = (),
) -> T:
    """Declare one option as a field of ``Rules``: its default, and the rest of its OptionSpec as metadata."""
    metadata = {
        "description": description, "source": source, "minimum": minimum, "maximum": maximum,
        "pattern": pattern, "skips": skips,
    }
    return field(default=default, metadata=metadata)


@dataclass(frozen=True, slots=True)
class Rules:
    """Every option of a table, resolved. Build it with ``resolve_rules``.

    Each field is one option: its type (for a string option, the Literal of its values), its
    default, and, declared with ``option``, its description, range and source text in the
    field's metadata (``OPTIONS`` reads them all).
    """

    # --- the table -------------------------------------------------------------------
    players: int = option(
        4, "Number of seats at the table.",
        "000 'Pitch Rules'; 001 'How to Play Pitch' (from two to seven competitors); 003 'Pitch or blind all "
        "fours'; 003 'Common minor variations' (Removing the Threes ensures that in the eight-player game all "
        "cards are dealt)",
        minimum=2, maximum=8,
    )
    side_size: int = option(
        2,
        "Players per side, seated alternately: 1 plays alone, 2 is a partnership with the player across.",
        "000 'Scoring' (Partnership); 003 'Pitch or blind all fours' (equal-sized teams, seated alternately)",
        minimum=1, maximum=3,
    )
    # --- the deck --------------------------------------------------------------------
    removed_ranks: str = option(
        "",
        "Ranks taken out of the deck, written as rank characters: '2345678' (ranks 2-8), '34', 'T' (tens), "
        "'23456' (the 32-card smear deck, 7 to A), '345678' (the 28-card smear deck: 2 and 9 to A), "
        "'234578' (with one joker, the 29-card Arizona deck: A K Q J T 9 6).",
        "000 'Dealing' (Remove cards from deck); 000 'Preset Game Rules' (Smear, Arizona); 001 '29 Card Arizona Pitch'",
        pattern="ranks",
    )
    jokers: int = option(0, "Jokers added to the deck; they are trumps.", "000 'Scoring' (Jokers); 001 'Set Back'; 003 'Off-jack, jokers and odd trumps'", minimum=0, maximum=2)
    joker_place: JokerPlace = option(
        "below-jacks",
        "Where the jokers rank in trump: below-jacks (just above the ten, below the jack and any off-jack), "
        "between-jacks (below the jack, above the off-jack), below-two (one joker below the two, ignored for low), "
        "above-ace (the ultimate trump: above every other card; it never takes the low point, which goes to the "
        "low trump's original owner or player).",
        "000 'Scoring' (Jokers: ranked below the jack; one joker may rank below the two); 000 'Preset Game Rules' "
        "(6 point: between the 10 and off-jack); 001 'Set Back'; 002 '10-point Pitch' (between the 10 and Jack); "
        "003 'Off-jack, jokers and odd trumps' (the ultimate trump, capturing everything but the low trump)",
    )
    joker_order: JokerOrder = option(
        "red-high",
        "How two jokers rank against each other: the red above the black, or the first played on a trick is higher.",
        "000 'Playing' (First joker played is high)",
    )
    # --- the trump suit --------------------------------------------------------------
    off_jack: bool = option(False, "The jack of trump's colour joins trump just below the jack of trump.", "000 'Scoring' (Off-jack); 003 'Off-jack, jokers and odd trumps'")
    off_ace: bool = option(False, "The ace of trump's colour joins trump just below the ace of trump.", "000 'Scoring' (Off-ace)")
    off_three: bool = option(False, "The three of trump's colour joins trump just below the three of trump.", "000 'Scoring' (Off-3)")
    off_five: bool = option(False, "The five of trump's colour joins trump just below the five of trump.", "000 'Scoring' (Off-5)")
    off_nine: bool = option(False, "The nine of trump's colour joins trump just below the nine of trump.", "000 'Scoring' (Off-9)")
    # --- dealing ---------------------------------------------------------------------
    hand_size: int = option(6, "Cards dealt to each player.", "000 'Dealing' (Number of cards: 5 to 13)", minimum=5, maximum=13)
    deal_packet: int = option(3, "Cards given to each player at a time while dealing, clockwise from the dealer's left.", "001 'How to Play Pitch' (three card packets)", minimum=1, maximum=13)
    kitty_size: int = option(
        0,
        "Cards dealt face down to a kitty that goes to the maker: 0 (no kitty), or 2 to 6. The maker then "
        "discards back to the hand's size for play.",
        "000 'Dealing' (Kitty: 2 to 6 cards that goes to the maker); 000 'Preset Game Rules' (Smear 4 point: "
        "3 cards to a kitty; King Pedro and Eighty-three: the winning bidder receives the kitty)",
        minimum=0, maximum=6, skips=(1,),
    )
    kitty_when: KittyWhen = option(
        "before-trump",
        "When the maker takes the kitty: before naming trump (Eighty-three: receives the kitty then declares "
        "trump) or after it.",
        "000 'Preset Game Rules' (Eighty-three; King Pedro)",
    )
    blind_cards: int = option(
        0,
        "Face-down cards dealt to each player before the hand, seen by nobody, not even their owner; from "
        "the second trick a player may play one of them instead of a card from the hand (0: none).",
        "001 'Fish Pitch' (a row of 6 face-down cards)",
        minimum=0, maximum=6,
    )
    misdeal: Misdeal = option(
        "none",
        "A player dealt only low cards may declare a misdeal on their first turn to bid, and the same "
        "dealer deals again: none, or the low ranks 2-10, 2-9, 3-9 or 4-9.",
        "000 'Bidding' (Misdeal)",
    )
    dealer_can_run: bool = option(
        False,
        "At the dealer's turn in the first round of bidding the dealer may 'run it': three more cards are "
        "dealt to each player and the bidding goes round once more from the dealer's left; players must bid "
        "higher or pass, the dealer may equal, and the dealer may not pass when everyone else has.",
        "000 'Bidding' (Dealer can run it)",
    )
    # --- bidding ---------------------------------------------------------------------
    bidding: Bidding = option(
        "one-round",
        "one-round: each player from the dealer's left bids or passes once; rounds: bidding goes round "
        "until all but one have passed, and a player who passed may not re-enter; none: no auction, the "
        "player left of the dealer is the maker (with a bid of 0, so nobody is set).",
        "000 'Bidding' (Bidding: single round, multiple rounds, disabled); 000 'Preset Game Rules' (Team, "
        "Solo, Smear 5 point, King Pedro); 003 'Pitch or blind all fours'",
    )
    trump_by: TrumpBy = option(
        "declared",
        "How trump is set: declared by the maker, or by the suit of the maker's first lead (pitching; a "
        "joker may then not be led first).",
        "000 'Pitch Rules' (the maker will choose the trump suit); 001 'How to Play Pitch' (the first card "
        "led by the high bidder determines trump); 003 'Pitch or blind all fours' (pitching)",
    )
    stick_dealer: StickDealer = option(
        "bid",
        "When everyone else has passed: bid (the dealer must bid at least the minimum); bid-or-set (the "
        "dealer may instead take a set of the minimum bid, and the hand is not played); off (the dealer may "
        "pass too, and the hand is dealt again).",
        "000 'Bidding' (Stick the dealer; optionally take a set for the minimum bid); 003 'Auction pitch' "
        "(if no player bids, the deal is abandoned)",
    )
    all_pass_redeal: AllPassRedeal = option(
        "same-dealer",
        "When every player passed: the same dealer deals again, or the next; or (eldest-pitches) nobody "
        "deals again and the player left of the dealer pitches with no contract, every side scoring the "
        "points it takes.",
        "003 'Auction pitch' (the same dealer deals again); 002 '10-point Pitch' (the hand is redealt); "
        "004 'The Pitcher' (if all players passed, the pitcher is the player immediately left of the dealer)",
    )
    min_bid: int = option(2, "The lowest bid.", "000 'Bidding' (minimum bid of 2)", minimum=1, maximum=99)
    max_bid: int = option(
        4,
        "The highest bid: the points a hand holds. A moon bid above it (moon_bid above-maximum, or any "
        "extra-point moon) is one more.",
        "000 'Scoring' (4 points possible); 000 'Bidding' (for 4-point pitch the maximum bid will become 5); "
        "001 (the highest bid is four)",
        minimum=1, maximum=99,
    )
    dealer_can_steal: DealerCanSteal = option(
        "never",
        "Whether the dealer may take the bid by equalling it: never, for any bid, or only the maximum.",
        "000 'Rule Options' (Dealer can steal); 001 'How to Play Pitch'",
    )
    moon: Moon = option(
        "none",
        "Shooting the moon: none; extra-point (a smudge: one more point for taking every trick and every "
        "point; the maximum bid becomes the points a hand holds plus one, and that bid is the moon, the lower "
        "bids ordinary contracts); instant-win (bid and make the maximum bid to win the game, unless the "
        "shooter's score is negative, when the bid is added instead); game-points (success is worth the "
        "game's target in points, failure costs as much).",
        "000 'Bidding' (Shooting the moon); 001 'How to Play Pitch' (Smudge); 003 'Partnership pitch'",
    )
    moon_bid: MoonBid = option(
        "maximum",
        "Which bid shoots the moon: the maximum bid, or a separate bid one above it (with extra-point it is "
        "always the maximum, which that moon raises to the points plus one).",
        "000 'Bidding' (Shoot the moon bid: when playing with an extra point awarded, the shooting the moon bid "
        "is always the maximum bid); 003 'Partnership pitch' (a separate bid worth 5)",
    )
    moon_failure: MoonFailure = option(
        "minus-bid",
        "What failing to shoot the moon costs: the bid, or the game.",
        "000 'Bidding' (Shoot the moon failure); 000 'Preset Game Rules' (High Nine)",
    )
    smudge_sealed: bool = option(
        False,
        "A moon (smudge) bid wins the auction at once: no later bid, not even the dealer's steal, takes it.",
        "001 'How to Play Pitch' (unless the high bid was four, called Smudge); 004 'Smudge' (sealed)",
    )
    smudge_call: int = option(
        0,
        "A second contract beside the auction (0: none): on its turn to bid a player may declare smudge "
        "instead of bidding or passing, undertaking to take exactly this many tricks itself. The call is "
        "sealed (no bid takes it away) and, for the pitch, counts as a pass; made, it wins the game at the "
        "end of the hand, before the points are counted; failed (more or fewer tricks), it costs as many "
        "points, and what the smudger took does not count.",
        "004 'Smudge' (declare that they will win exactly 4 tricks, no more and no less; sealed; a smudge "
        "achieved wins the game, failed loses 4 victory points); 004 'The Pitcher' (if all players passed or "
        "smudged, the pitcher is the player left of the dealer); 004 'Rules for Victory Points'",
        minimum=0, maximum=13,
    )
    need_suit: bool = option(
        False,
        "The maker may name as trump only a suit of which they hold a card.",
        "000 'Bidding' (Need suit to choose it)",
    )
    nine_five: bool = option(
        False,
        "A player holding a nine and two more cards of one suit must bid at least 9 unless the bidding has "
        "already reached 9 (needs the nine of trump worth 9 points).",
        "000 'Bidding' (a 9 and 2+ cards in a suit); 000 'Preset Game Rules' (Nine-five (Connecticut))",
    )
    # --- discarding ------------------------------------------------------------------
    moon_discard: bool = option(
        True,
        "Whether players discard (and refill) when the contract is a moon bid; false keeps every seat's "
        "dealt cards for the play of a moon contract.",
        "000 'Bidding' (Shoot the moon discarding: discarding may be disabled for shoot the moon contracts)",
    )
    discarding: Discarding = option(
        "none",
        "After trump is set: none; all-nontrump (each player must discard every non-trump); choose-nontrump "
        "(may choose among non-trumps); choose-any (may choose among all cards); down-to-six (choose "
        "non-trumps, discarding down to 'refill_to' cards, and trump only when holding more trumps than "
        "that). Hands are then refilled from the stock, clockwise from the dealer's left; when the stock "
        "runs short the discards are shuffled and dealt.",
        "000 'Discarding'; 000 'Preset Game Rules' (7 to 13 point, Pedro, King Pedro); 002 '10-point Pitch'; "
        "001 'Nine Card Pitch'",
    )
    refill_to: int = option(
        6,
        "How many cards each hand holds for play after discarding and refilling.",
        "000 'Discarding' (a full six-card hand); 001 'Nine Card Pitch' (replenish to nine)",
        minimum=1, maximum=13,
    )
    refill: Refill = option(
        "everyone",
        "everyone: all players are refilled; dealer-takes-rest or maker-takes-rest: that player is not "
        "refilled with the others but takes all the rest of the stock, then discards down to 'refill_to'.",
        "000 'Discarding' (Refilling); 000 'Preset Game Rules' (Smear 10 point, Nine-five, Pedro); "
        "002 '10-point Pitch'",
    )
    discard_trump_points: bool = option(
        True,
        "Whether trump cards that score by themselves (ace, jack, ten, off-cards, jokers, and the 3, 5 "
        "and 9 where they are worth points) may be discarded.",
        "000 'Discarding' (Discarding trump point cards)",
    )
    max_discards: int = option(
        0,
        "The most cards a player may discard (0: no limit).",
        "000 'Discarding' (Maximum allowed discards); 001 'Nine Card Pitch' (up to four cards)",
        minimum=0, maximum=13,
    )
    discard_by: DiscardBy = option(
        "players",
        "Who makes the discards: players (each seat chooses where the rules leave it a choice) or automatic "
        "(the service discards for every seat, the kitty's taker and the stock's taker included: what the rules "
        "force and, where they leave a choice, as few cards as allowed, those of least value: cards that are "
        "not trumps before trumps, and among trumps those worth the fewest points (to their capturer, or 002's "
        "two of trump its point), the lowest first).",
        "002 '10-point Pitch' (All the discarding and refilling is handled automatically; if a player held more "
        "than 6 trump, the lowest-value trump cards are discarded as well)",
    )
    discard_first: DiscardFirst = option(
        "dealer-left",
        "Where the discards, and then the refills, begin: at the dealer's left or at the maker's (the "
        "pitcher's) left, going clockwise.",
        "000 'Discarding' (Cards are dealt clockwise, the left of the dealer receiving cards first); 002 "
        "'10-point Pitch' (starting with the player on the pitcher's left, the non-trump cards are discarded "
        "and the hands refilled)",
    )
    # --- play ------------------------------------------------------------------------
    first_leader: FirstLeader = option(
        "maker",
        "Who leads the first trick: the maker, or the player to the maker's left.",
        "000 'Playing' (Initial leader); 000 'Preset Game Rules' (Nine-five (Connecticut))",
    )
    trick_leader: TrickLeader = option(
        "winner",
        "Who leads each trick after the first: the winner of the trick before, or (rotating) the player to "
        "the left of the trick before's leader, whoever won it.",
        "000 'Play' (the winning player is the leader of the next trick); 003 (the winner of each trick leads "
        "to the next); 004 'The Pitcher' (for subsequent tricks, the player to the left of the Pitcher plays the "
        "first card of the next trick, and so on)",
    )
    first_lead: FirstLead = option(
        "trump",
        "Leading: trump (the first lead of the hand must be a trump, when holding one); any (any suit "
        "may be led at any time); trump-broken (trump may not be led until a trump has been played, "
        "unless holding only trumps).",
        "000 'Play' (must lead a card from the trump suit); 000 'Playing' (Leading)",
    )
    joker_first_lead: bool = option(
        True,
        "Whether a joker may be led to the first trick of a hand.",
        "003 'Common minor variations' (jokers are not allowed to be led in the first trick)",
    )
    trump_only: bool = option(
        False,
        "Only trumps are played: players must lead and follow with trump; a player out of trump sits out "
        "for the rest of the hand, which ends when every trump held has been played.",
        "000 'Playing' (Play with trump only); 000 'Preset Game Rules' (Pidro); 002 '10-point Pitch'",
    )
    finish_early: bool = option(
        False,
        "Skip the remaining tricks once no card left can change a point (no trump and no card worth game "
        "points remains); they are completed automatically.",
        "000 'Playing' (Finish hand early when all points taken)",
    )
    claims: bool = option(
        False,
        "A player about to lead may claim the remaining tricks; the claim is accepted only when their side "
        "is certain to take every remaining trick however the others play.",
        "000 'Frequently Asked Questions' (What does claim mean?)",
    )
    revoke: Revoke = option(
        "refused",
        "A play that breaks the rule of following suit: refused, or allowed to stand and recorded as a "
        "revoke, for which the revoking side is set back by the bid.",
        "003 'Auction pitch' (a player who can follow suit but discards another non-trump suit is punished "
        "for the revoke)",
    )
    following: Following = option(
        "suit-or-trump",
        "How players follow: suit-or-trump (follow the suit led or trump; anything when void), "
        "suit-or-trump-must-trump (and must trump when void, if able), must-follow (follow the suit led; "
        "anything when void), must-follow-must-trump (follow; when void, trump if able).",
        "000 'Playing' (Following suit)",
    )
    # --- scoring ---------------------------------------------------------------------
    low_point: LowPoint = option(
        "capturer",
        "Who receives the point for low: capturer (the side that captures it in a trick), original-owner "
        "(the side of the player it was dealt to) or player (the side of the player who plays it); or "
        "dealt-two (002's: the point is for the two of trump, not the lowest trump in play, and goes to the "
        "side of the player dealt it, whether that player plays it or discards it). Without card passing "
        "the original owner and the player are the same seat; they differ only where a card changes hands "
        "before it is played.",
        "000 'Scoring' (Low point); 000 'Preset Game Rules' (Team auction II: to the original owner; "
        "10 point: to the player who plays the card); 001 'How to Play Pitch' (awarded to the team it was "
        "dealt to); 002 'Scoring' (taking or holding the lowest trump); 002 '10-point Pitch' (One point is "
        "awarded to the player who is dealt the 2 of trump); 003 'Scoring variations'",
    )
    high_point: HighPoint = option(
        "highest",
        "What the point for high is for: highest (the highest trump in play, to its capturer) or ace (the ace "
        "of trump, to its capturer, when it is played; no point when it is not).",
        "000 'Scoring' (1 point for capturing the highest trump); 002 '10-point Pitch' (One point is awarded "
        "for taking the Ace); 002 'Scoring 7-, 10-, 11- and 13-Point' (Taking the Ace of trump)",
    )
    game_point: GamePoint = option(
        "game",
        "What the fourth point is for: game (the side that captures the most game points: ten 10, ace 4, "
        "king 3, queen 2, jack 1), ten-of-trump (one point to the capturer of the ten of trump instead of "
        "game) or none.",
        "000 'Scoring' (Game or 10 of trump: a point for game; for the 10 of trump; or neither); "
        "002 'Scoring 7-, 10-, 11- and 13-Point' (Taking the 10 of trump)",
    )
    game_tie: GameTie = option(
        "none",
        "Who receives the game point when the sides with the most game points tie: none (nobody) or "
        "makers (the bidder's side, when it is among them).",
        "000 'Scoring' (Game or 10 of trump: awarded to the bidder on ties or not awarded); 000 'Pitch Rules' "
        "(on ties the game point is not awarded)",
    )
    joker_pips: bool = option(
        False,
        "Each joker a side captures counts half a pip toward the game point.",
        "003 'Common minor variations' (Jokers are worth half a pip)",
    )
    joker_point: int = option(
        1,
        "What each joker is worth to the side that captures it (the eventual owner), when jokers are in the deck.",
        "000 'Scoring' (Jokers: worth one point each); 001 'Set Back' (Joker: capturing the Joker, 1); "
        "003 'Scoring variations' (Joker 1, Joker 2: eventual owner)",
        minimum=0, maximum=99,
    )
    off_card_points: bool = option(
        True,
        "Each off-card that is trump is also worth points to its capturer: the off-jack and off-ace 1, the "
        "off-three 3, the off-five 5, the off-nine 9; false makes them trump only.",
        "000 'Scoring' (Off-jack, Off-ace, Off-3, Off-5, Off-9: trump and worth 1, 1, 3, 5, 9 points); "
        "003 'Off-jack, jokers and odd trumps' (an additional point for off-jack can be scored)",
    )
    three_point: int = option(
        0,
        "What the three of trump is worth to its capturer: 0 (nothing), 3 (the trey) or 15 (Sixty-three, Eighty-three).",
        "000 'Scoring' (3 of trump: worth 3 points); 000 'Preset Game Rules' (Sixty-three, Eighty-three: "
        "the 3 is worth 15); 002 'Scoring 7-, 10-, 11- and 13-Point'; 003 'Scoring variations' (Trey)",
        minimum=0, maximum=99,
    )
    five_point: int = option(
        0,
        "What the five of trump is worth to its capturer: 0, 1 (Nine Card Pitch's five point) or 5.",
        "000 'Scoring' (5 of trump: worth 5 points); 001 'Nine Card Pitch' (Five: winning the five of "
        "trump, 1); 002 'Scoring 4-, 5-, 6- and 9-Point' (9-point only)",
        minimum=0, maximum=99,
    )
    nine_point: int = option(
        0,
        "What the nine of trump is worth to its capturer: 0 or 9.",
        "000 'Scoring' (9 of trump: worth 9 points); 000 'Preset Game Rules' (Nine-five, Sixty-three, High Nine)",
        minimum=0, maximum=99,
    )
    queen_point: int = option(
        0,
        "What the queen of trump is worth to its capturer: 0 or 20 (Eighty-three).",
        "000 'Preset Game Rules' (Eighty-three: queen is 20 points)",
        minimum=0, maximum=99,
    )
    king_point: int = option(
        0,
        "What the king of trump is worth to its capturer: 0, 25 (Sixty-three, Eighty-three) or 30 (King Pedro).",
        "000 'Preset Game Rules' (King Pedro: the king is worth 30; Sixty-three, Eighty-three: 25)",
        minimum=0, maximum=99,
    )
    last_trick_point: bool = option(
        False,
        "One point to the side that wins the last trick.",
        "000 'Scoring' (Last trick); 003 'Scoring variations' (Last trick)",
    )
    old_nate: bool = option(
        False,
        "One point (Old Nate) to the capturer of the four of spades when spades are trump.",
        "003 'Scoring variations' (Old Nate: four of spades if trumps)",
    )
    spade_point: bool = option(
        False,
        "One point to the side that captures the highest spade in play, whatever the trump.",
        "001 'Nine Card Pitch' (Spade: the highest card in the suit of spades in play)",
    )
    junk_points: bool = option(
        True,
        "The defenders also score the points they take; false: only the makers score.",
        "000 'Scoring' (Junk points); 003 'Common minor variations' (No junk points)",
    )
    maker_bid_only: bool = option(
        False,
        "Makers who make their bid score the bid only; points taken over the bid are not received.",
        "000 'Scoring' (Maker scores bid only)",
    )
    bid_bonus: bool = option(
        False,
        "Makers who make their bid also score the bid itself, on top of the points they take.",
        "004 'The Auction' (a contract of 2 rewards the player with 2 victory points if that player took at "
        "least 2 tricks); 004 'Scoring & Points' (victory points can also be awarded for high, low, jack and game)",
    )
    set_penalty: SetPenalty = option(
        "bid",
        "What makers short of their bid lose: bid (minus the bid) or double-bid (minus twice the bid).",
        "000 'Scoring' (On failure to make the bid: you may choose to double this penalty)",
    )
    all_tricks_penalty: bool = option(
        False,
        "When one side takes every trick, every other side scores -1.",
        "000 'Scoring' (Taking all tricks give the opponents -1 points)",
    )
    contract: Contract = option(
        "points",
        "What a bid counts: points (the makers must take at least the bid in points) or tricks (004's "
        "wording: at least the bid in tricks, and a smudge exactly the smudge bid in tricks).",
        "000 'Pitch Rules' (the maker's team is required to take at least the amount of points bid); "
        "004 'The Auction' and 'Smudge' (a contract to take tricks; exactly 4 tricks)",
    )
    moon_tricks: bool = option(
        False,
        "Shooting the moon also needs every trick of the hand (an extra-point moon always does).",
        "001 'Fish Pitch' (Smudge: all four points and all 12 tricks); 003 'Partnership pitch' "
        "(winning all six tricks in addition to all four points)",
    )
    moon_negative: MoonNegative = option(
        "add-bid",
        "An instant-win moon made from a negative score: add-bid (the bid is added and play continues), "
        "set-to-bid (the score becomes the bid and play continues) or wins (the game is won anyway).",
        "000 'Bidding' (Shooting the moon: when the shooter's score is negative the bid points will be added); "
        "001 'How to Play Pitch' (their score is set to a value of 4); 004 'Smudge' (automatically win the game)",
    )
    smudge_anyone: bool = option(
        False,
        "Any side that takes every point of a hand, at least the maximum bid, wins the game at once, "
        "bidder or not, even from a negative score.",
        "001 'Smudge' (any player who wins all four points during a hand instantly wins the game)",
    )
    # --- game over -------------------------------------------------------------------
    target_score: int = option(
        11,
        "The score that ends the game (counting up) or each side's starting score (counting down).",
        "000 'Scoring' (first team to 11); 001 (seven points; Smudge from 7; Nine Card Pitch from 21)",
        minimum=1, maximum=999,
    )
    game_over: GameOver = option(
        "score",
        "What ends the game: score (a side reaching the target score) or hands (a number of hands, "
        "option hand_limit; then the highest score wins).",
        "000 'Game over' (ends at a predetermined number of points or after a certain number of hands)",
    )
    hand_limit: int = option(
        10, "How many hands a game of game_over 'hands' lasts.",
        "000 'Game over' (after a certain number of hands)", minimum=1, maximum=999,
    )
    count_down: bool = option(
        False,
        "Count down: each side starts at the target score, points earned are subtracted and a set adds the "
        "bid; the first side at or below zero has reached the target.",
        "001 'Smudge' (begins the game with 7 points ... the first player to reach or go below zero wins); "
        "001 'Nine Card Pitch' (each team is set with a score of 21); 003 'Auction pitch' (counters)",
    )
    win_rule: WinRule = option(
        "highest",
        "Who may win on reaching the target: highest (any side; the highest score wins), must-bid (only the "
        "makers of the last hand, having made their bid), must-bid-or-set (the makers having made their bid, "
        "or a side that set them), must-bid-no-junk (must-bid, and points beyond a bid, and the defenders' "
        "points, count only up to the target minus one), must-bid-or-set-held-short (must-bid-or-set, and a "
        "side that reaches the target without being allowed to win is held one point short of it).",
        "000 'Game over' (Highest score wins; Must bid to win; Must bid or set to win; Must bid to win, no "
        "junk points); 000 'Preset Game Rules' (must take the final bid to win); 001 'Nine Card Pitch' "
        "(must be the declarer or the opponents must have failed; otherwise set to 1); 003 'Partnership pitch'",
    )
    both_over: BothOver = option(
        "highest",
        "When several sides may win on one hand: highest (the highest score wins; equal highest scores tie), "
        "makers (the makers win, even with the lower score), makers-on-tie (the highest score wins, the "
        "makers on a tie) or in-order (the makers' score is counted first, then the points in order high, "
        "low, jack, ..., game; the first side to reach the target wins).",
        "000 'Game over' (Highest score wins; Both over: makers win; Ties: makers win; Score points in "
        "order); 001 'How to Play Pitch' (the Pitcher wins, else High, Low, Jack, Game in order); 001 "
        "'29 Card Arizona Pitch'; 002 'Scoring' (in the event of a tie, the pitching team wins); 003 "
        "'Auction pitch' (points won by the pitcher are counted first)",
    )
    win_by_two: bool = option(
        False, "The winner must also be ahead of every other side by two points.",
        "000 'Game over' (Must win by two points)",
    )
    set_limit: int = option(
        0,
        "A side set this many times loses the game whatever the score: 0 (no limit), or 2 to 5.",
        "000 'Game over' (Set limit to game over: 2, 3, 4 or 5 times)", minimum=0, maximum=5, skips=(1,),
    )

    @property
    def sides(self) -> int:
        """Return how many sides play: seats are dealt to sides alternately."""
        return self.players // self.side_size

    def side_of(self, seat: int) -> int:
        """Return the side a seat plays for (seats 0 and 2 against 1 and 3 at four)."""
        return seat % self.sides

    def seats_of(self, side: int) -> tuple[int, ...]:
        """Return the seats of a side."""
        return tuple(range(side, self.players, self.sides))

    @property
    def moon_amount(self) -> int | None:
        """Return the bid that shoots the moon (a smudge), None when the table has no moon.

        000 "Bidding" (Shooting the moon): with an extra point awarded, "for 4-point pitch the
        maximum bid will become 5 and bidding 5 is an attempt to shoot the moon", and "the
        shooting the moon bid is always the maximum bid": one above the points a hand holds.
        """
        if self.moon == "none":
            return None
        if self.moon_bid == "above-maximum" or self.moon == "extra-point":
            return self.max_bid + 1
        return self.max_bid

    @property
    def deck_size(self) -> int:
        """Return how many cards the deck holds."""
        return 4 * (len(RANKS) - len(self.removed_ranks)) + self.jokers

    def to_dict(self) -> dict[str, Any]:
        """Return every option by name, as stored in GameStarted and shown by the API."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


def choices_of(annotation: object) -> tuple[str, ...]:
    """Return the values a string option's type allows: a Literal's, in their order; () for any other type."""
    return get_args(annotation) if get_origin(annotation) is Literal else ()


_TYPES = get_type_hints(Rules)
OPTIONS: tuple[OptionSpec, ...] = tuple(
    OptionSpec(
        f.name, f.default, choices=choices_of(_TYPES[f.name]), **{key: f.metadata[key] for key in OPTION_KEYS},
    )
    for f in fields(Rules)
)
_SPECS = {spec.name: spec for spec in OPTIONS}


def check_rules(rules: Rules) -> Rules:
    """Return ``rules`` if its options agree with each other, else raise RulesError naming them."""
    for spec in OPTIONS:
        spec.check(getattr(rules, spec.name))
    if rules.players % rules.side_size:
        raise RulesError(
            f"options 'players' ({rules.players}) and 'side_size' ({rules.side_size}) contradict: "
            "the players must split into equal sides",
            ("players", "side_size"),
        )
    if rules.sides < 2:
        raise RulesError(
            f"options 'players' ({rules.players}) and 'side_size' ({rules.side_size}) contradict: "
            "at least two sides must play",
            ("players", "side_size"),
        )
    _check_flow(rules)
    if rules.joker_place == "below-two" and rules.jokers != 1:
        raise RulesError(
            f"options 'joker_place' ('below-two') and 'jokers' ({rules.jokers}) contradict: "
            "only a single joker ranks below the two",
            ("joker_place", "jokers"),
        )
    if rules.joker_place == "above-ace" and rules.low_point == "capturer":
        # 003 "Off-jack, jokers and odd trumps": the ultimate trump captures everything but the low trump.
        raise _contradict(
            "joker_place", "low_point", rules,
            "the ultimate trump captures everything but the low trump, whose point goes to its original "
            "owner or player",
        )
    for name, rank in (("off_jack", "J"), ("off_ace", "A"), ("off_three", "3"), ("off_five", "5"), ("off_nine", "9")):
        if getattr(rules, name) and rank in rules.removed_ranks:
            raise RulesError(
                f"options '{name}' and 'removed_ranks' ({rules.removed_ranks!r}) contradict: "
                f"the deck has no rank {rank}",
                (name, "removed_ranks"),
            )
    if rules.smudge_call and not rules.hand_size < 2 * rules.smudge_call <= 2 * rules.hand_size:
        raise _contradict(
            "smudge_call", "hand_size", rules,
            "a smudge takes more than half the tricks (so that two cannot both be made) and no more than all",
        )
    if rules.smudge_call and rules.dealer_can_run:
        raise _contradict(
            "smudge_call", "dealer_can_run", rules,
            "a smudge is a player's one call, and running it would ask the players to bid again",
        )
    if rules.bid_bonus and rules.maker_bid_only:
        raise _contradict(
            "bid_bonus", "maker_bid_only", rules, "made bids score the bid on top of the points taken, or the bid only",
        )
    if rules.min_bid > rules.max_bid:
        raise RulesError(
            f"options 'min_bid' ({rules.min_bid}) and 'max_bid' ({rules.max_bid}) contradict: "
            "the lowest bid is above the highest",
            ("min_bid", "max_bid"),
        )
    _check_scoring(rules)
    return rules


# Point options that name a card of trump, and the rank that card needs in the deck.
_POINT_RANKS = (
    ("three_point", "3"), ("five_point", "5"), ("nine_point", "9"), ("queen_point", "Q"), ("king_point", "K"),
)


def _check_scoring(rules: Rules) -> None:
    """Raise RulesError when a scoring or game-over option contradicts another option."""
    needs = [(name, rank) for name, rank in _POINT_RANKS if getattr(rules, name)]
    if rules.game_point == "ten-of-trump":
        needs.append(("game_point", "T"))
    if rules.high_point == "ace":
        needs.append(("high_point", "A"))
    if rules.low_point == "dealt-two":
        needs.append(("low_point", "2"))
    if rules.old_nate:
        needs.append(("old_nate", "4"))
    for name, rank in needs:
        if rank in rules.removed_ranks:
            raise RulesError(
                f"options '{name}' and 'removed_ranks' ({rules.removed_ranks!r}) contradict: "
                f"the point needs a card of rank {rank}, which the deck lacks",
                (name, "removed_ranks"),
            )
    if rules.game_over == "hands":
        for name, plain in (("win_rule", "highest"), ("both_over", None), ("win_by_two", False)):
            value = getattr(rules, name)
            if value == plain or (name == "both_over" and value != "in-order"):
                continue
            raise RulesError(
                f"options '{name}' ({value!r}) and 'game_over' ('hands') contradict: "
                "that rule is about reaching the target score, which a game of a number of hands does not use",
                (name, "game_over"),
            )


def _contradict(a: str, b: str, rules: Rules, why: str) -> RulesError:
    return RulesError(
        f"options '{a}' ({getattr(rules, a)!r}) and '{b}' ({getattr(rules, b)!r}) contradict: {why}", (a, b),
    )


def _check_flow(rules: Rules) -> None:
    """Raise RulesError when dealing, bidding, discarding or play options contradict each other."""
    if not rules.moon_discard:
        if rules.moon == "none":
            raise _contradict("moon_discard", "moon", rules, "there is no moon contract to keep from discarding")
        if rules.kitty_size:
            raise _contradict(
                "moon_discard", "kitty_size", rules, "a maker who takes the kitty must discard back down",
            )
    deck = rules.deck_size
    per_seat = rules.hand_size + rules.blind_cards + (3 if rules.dealer_can_run else 0)
    needed = rules.players * per_seat + rules.kitty_size
    if needed > deck:
        raise RulesError(
            f"options 'players' ({rules.players}) and 'hand_size' ({rules.hand_size}) contradict: "
            f"{needed} cards do not fit in a {deck}-card deck "
            "(options 'removed_ranks', 'jokers', 'kitty_size', 'blind_cards' and 'dealer_can_run')",
            ("players", "hand_size", "removed_ranks", "jokers", "kitty_size", "blind_cards", "dealer_can_run"),
        )
    trump_modes = ("all-nontrump", "choose-nontrump", "down-to-six")
    if rules.trump_by == "first-lead":
        if rules.discarding in trump_modes:
            raise _contradict("discarding", "trump_by", rules, "discarding by trump needs trump named before the play")
        if rules.kitty_size and rules.kitty_when == "after-trump":
            raise _contradict("kitty_when", "trump_by", rules, "trump is set by the first lead, after the kitty is taken")
        if rules.need_suit:
            raise _contradict("need_suit", "trump_by", rules, "nobody names trump when the first lead sets it")
        if rules.first_leader != "maker":
            raise _contradict("first_leader", "trump_by", rules, "the maker pitches trump by leading first")
    if rules.discard_by == "automatic" and rules.trump_by == "first-lead":
        raise _contradict(
            "discard_by", "trump_by", rules, "automatic discards keep the trumps, which the first lead sets only after",
        )
    if rules.refill != "everyone" and rules.discarding == "none":
        raise _contradict("refill", "discarding", rules, "without discarding nobody is refilled")
    if rules.discarding != "none" and rules.max_discards:
        least = rules.hand_size + rules.kitty_size - rules.refill_to
        if rules.max_discards < least:
            raise _contradict(
                "max_discards", "refill_to", rules,
                f"the maker must discard {least} cards to come down to {rules.refill_to}",
            )
    if rules.bidding == "none":
        for name in ("dealer_can_run", "nine_five", "kitty_size"):
            if getattr(rules, name):
                raise _contradict(name, "bidding", rules, "it needs an auction")
        if rules.misdeal != "none":
            raise _contradict("misdeal", "bidding", rules, "a misdeal is declared on a turn to bid")
        # Without bidding nobody undertakes a bid, so no rule about makers, bids or sets applies
        # (000 "Game or 10 of trump": with no bidding a tied game point is not awarded).
        for name, plain in (
            ("moon", "none"), ("win_rule", "highest"), ("game_tie", "none"), ("set_limit", 0),
            ("maker_bid_only", False), ("bid_bonus", False), ("smudge_call", 0), ("junk_points", True),
            ("revoke", "refused"),
        ):
            if getattr(rules, name) != plain:
                raise _contradict(name, "bidding", rules, "without bidding there are no makers and no bid")
        if rules.both_over in ("makers", "makers-on-tie"):
            raise _contradict("both_over", "bidding", rules, "without bidding there are no makers")
    if rules.blind_cards and rules.trump_only:
        raise _contradict("blind_cards", "trump_only", rules, "a face-down card cannot be known to be a trump")
    if rules.nine_five:
        if rules.max_bid < 9:
            raise _contradict("nine_five", "max_bid", rules, "the nine-five rule forces a bid of 9")
        # The scoring option 'nine_point' (the nine of trump worth 9) may not exist yet; absent, allow it.
        if not getattr(rules, "nine_point", True):
            raise RulesError(
                "options 'nine_five' and 'nine_point' contradict: the nine of trump must be worth 9 points",
                ("nine_five", "nine_point"),
            )


def check_offered(rules: Rules) -> Rules:
    """Return ``rules`` if a new table may take every value, else raise RulesError naming the option.

    A few ranges have a gap the texts leave out (a kitty of 1, a set limit of 1); games
    and hand records that were played with such a value still replay (``rules_from_dict``),
    but no new table is offered one. (Nor is one offered rules under which some rule can never
    come true: domain/rule_limits.py ``check_reachable``, which the presets' resolution runs too.)
    """
    for spec in OPTIONS:
        spec.check_offered(getattr(rules, spec.name))
    return rules


def option_names() -> tuple[str, ...]:
    """Return the names of every option, in their documented order."""
    return tuple(spec.name for spec in OPTIONS)


def rules_from_dict(values: Mapping[str, Any], base: Rules | None = None) -> Rules:
    """Return ``base`` (default rules when None) with ``values`` applied, validated."""
    unknown = sorted(set(values) - set(_SPECS))
    if unknown:
        names = ", ".join(f"'{n}'" for n in unknown)
        raise RulesError(f"unknown option {names}; the options are listed by GET /v1/rules/presets", tuple(unknown))
    current = (base or Rules()).to_dict()
    for name, value in values.items():
        current[name] = _SPECS[name].check(value)
    return check_rules(Rules(**current))
