// The rule options of the new-game form in words: each option of GET /v1/rules/options
// named for a person and placed in a group (the deck, dealing, bidding, discarding, play,
// points, scoring a hand, the end of the game), its snake_case name kept only as a detail.
// An option this list does not know yet is still shown, under "Other", named from its name.

const GROUPS = [
  ["Players and deck", {
    players: "Players", side_size: "Players per side", removed_ranks: "Ranks taken out of the deck", jokers: "Jokers in the deck",
    joker_place: "Where the jokers rank", joker_order: "Which joker is higher", off_jack: "The off-jack is a trump",
    off_ace: "The off-ace is a trump", off_three: "The off-three is a trump", off_five: "The off-five is a trump", off_nine: "The off-nine is a trump",
  }],
  ["Dealing", {
    hand_size: "Cards dealt to each player", deal_packet: "Cards dealt at a time", kitty_size: "Kitty (cards for the bid winner)",
    kitty_when: "When the kitty is taken", blind_cards: "Face-down cards per player", misdeal: "Misdeal on a hand of low cards",
    dealer_can_run: "The dealer may run it (three more cards each)",
  }],
  ["Bidding and trump", {
    bidding: "Bidding", contract: "What a bid counts", min_bid: "Lowest bid", max_bid: "Highest bid", trump_by: "How trump is set",
    stick_dealer: "When everyone passes", all_pass_redeal: "Who deals again when everyone passes", dealer_can_steal: "The dealer may equal a bid",
    moon: "Shooting the moon", moon_bid: "The bid that shoots the moon", moon_failure: "What a failed moon costs",
    smudge_sealed: "A moon bid ends the auction", smudge_call: "Smudge call (exactly this many tricks)", need_suit: "Trump only in a suit held",
    nine_five: "A nine and two more force a bid of nine",
  }],
  ["Discarding", {
    discarding: "Discarding after trump", refill_to: "Cards held for play", refill: "Who takes the rest of the stock",
    discard_trump_points: "Trumps that score may be thrown away", max_discards: "Most cards thrown away", discard_by: "Who makes the discards",
    discard_first: "Where the discards begin", moon_discard: "Discard for a moon bid",
  }],
  ["Play", {
    first_leader: "Who leads first", first_lead: "What may be led", trick_leader: "Who leads after the first trick",
    following: "Following suit", joker_first_lead: "A joker may be led first", trump_only: "Only trumps are played",
    finish_early: "Finish a hand early when nothing is left to win", claims: "Claiming the remaining tricks", revoke: "Not following suit",
  }],
  ["Points", {
    high_point: "High", low_point: "Low", game_point: "The game point", game_tie: "A tied game point", joker_pips: "Jokers count toward game",
    joker_point: "Points per joker", off_card_points: "Off-cards are worth points", three_point: "Three of trump", five_point: "Five of trump",
    nine_point: "Nine of trump", queen_point: "Queen of trump", king_point: "King of trump", last_trick_point: "A point for the last trick",
    old_nate: "Old Nate (four of spades)", spade_point: "A point for the highest spade",
  }],
  ["Scoring a hand", {
    junk_points: "The defenders score what they take", maker_bid_only: "A made bid scores the bid only", bid_bonus: "A made bid also scores the bid",
    set_penalty: "What a set costs", all_tricks_penalty: "Taking every trick costs the others a point", moon_tricks: "A moon needs every trick",
    moon_negative: "A moon made from below zero", smudge_anyone: "Taking every point wins at once",
  }],
  ["End of the game", {
    target_score: "Target score", game_over: "What ends the game", hand_limit: "Hands in a game of hands", count_down: "Count down from the target",
    win_rule: "Who may win at the target", both_over: "When several reach the target", win_by_two: "Win by two", set_limit: "Sets that lose the game",
  }],
];

const LABELS = new Map(GROUPS.flatMap(([group, labels]) => Object.entries(labels).map(([name, label]) => [name, {group, label}])));

/** Return an option's label and group: {group, label}. */
export function optionWords(name) {
  const known = LABELS.get(name);
  if (known) return known;
  const words = name.replace(/_/g, " ");
  return {group: "Other", label: words.charAt(0).toUpperCase() + words.slice(1)};
}

/** Return a choice's value in words ("below-jacks" reads "below jacks"). */
export function choiceWords(value) {
  return String(value).replace(/-/g, " ");
}

/** Return the options sorted into their groups, in the groups' order: [[group, [option...]]]. */
export function groupOptions(options) {
  const order = [...GROUPS.map(([group]) => group), "Other"];
  const grouped = new Map(order.map((g) => [g, []]));
  for (const option of options) grouped.get(optionWords(option.name).group).push(option);
  return order.map((g) => [g, grouped.get(g)]).filter(([, list]) => list.length);
}
