// Words for a variant, from its rules (a preset's `rules` as GET /v1/rules/presets lists
// them, or a game's GameStarted rules): "how this variant plays" in one plain paragraph, a
// short list of its special moves to remind the player during play, and a rule text's
// citation (the preset's `source` and the options' sources) with the text's name, never
// its file name. The rules are the service's: these are only their words.

const TEXTS = {
  "000": "NeuralPlay Pitch help", "001": "CatsAtCards rules", "002": "Trickster Pitch rules",
  "003": "Encyclopedia article on Pitch", "004": "Auction Pitch rules page",
};
const NUMBERS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"];

/** Return `n thing(s)` with the right plural ("1 hand", "2 hands"); `many` defaults to thing + "s". */
export function plural(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

const say = (n) => (n >= 0 && n < NUMBERS.length ? NUMBERS[n] : String(n));
const cap = (text) => text.charAt(0).toUpperCase() + text.slice(1);

/** Return the name of a rule text from its number ("000") or file name. */
export function textName(ref) {
  return TEXTS[String(ref).slice(0, 3)] || "a rule text";
}

/**
 * Return a preset's `source` as citations: [{text, section, quotes}], one per section quoted.
 * The source reads: FILE 'Section': "quote" "quote"; 'Other section': "quote"; FILE ...
 */
export function citations(source) {
  const found = [];
  let text = null;
  let current = null;
  const pattern = /(\d{3})_[0-9a-f]+\.txt|'([^']*)'\s*:|"([^"]*)"/g;
  for (const match of String(source || "").matchAll(pattern)) {
    if (match[1]) text = textName(match[1]);
    else if (match[2] !== undefined) {
      current = {text: text || "a rule text", section: match[2], quotes: []};
      found.push(current);
    } else if (current) current.quotes.push(match[3]);
  }
  return found;
}

/** Return an option's source ("000 'Scoring' (Jokers); 003 ...") with each text named. */
export function sourceWords(source) {
  return String(source || "")
    .replace(/\b(00[0-4])(?:_[0-9a-f]+\.txt)?\s+'([^']*)'/g, (_, n, section) => `${textName(n)}, “${section}”`)
    .replace(/\b(00[0-4])(?:_[0-9a-f]+\.txt)\b/g, (_, n) => textName(n));
}

function deckSize(rules) {
  return 52 - 4 * String(rules.removed_ranks || "").length + (rules.jokers || 0);
}

function sidesOf(rules) {
  return Math.max(1, Math.floor(rules.players / (rules.side_size || 1)));
}

/** Return the bid that shoots the moon, or null (the service's `moon_amount`). */
export function moonBid(rules) {
  if (!rules.moon || rules.moon === "none") return null;
  return rules.moon === "extra-point" || rules.moon_bid === "above-maximum" ? rules.max_bid + 1 : rules.max_bid;
}

/** Return the point kinds a hand holds under these rules, in words with their worth. */
export function pointWords(rules) {
  const list = [];
  const add = (words, value = 1) => list.push(value === 1 ? words : `${words} (${value})`);
  add(rules.high_point === "ace" ? "the ace of trump" : "high");
  add({
    capturer: "low", "original-owner": "low (to whoever was dealt it)", player: "low (to whoever plays it)",
    "dealt-two": "the two of trump (to whoever was dealt it)",
  }[rules.low_point] || "low");
  add("the jack of trump");
  const offs = rules.off_card_points !== false;
  if (rules.off_jack) add("the off-jack", offs ? 1 : 0);
  if (rules.off_ace) add("the off-ace", offs ? 1 : 0);
  if (rules.jokers && rules.joker_point) add(rules.jokers === 1 ? "the joker" : "each joker", rules.joker_point);
  if (rules.game_point === "game") add("game (the most tens, aces and court cards taken)");
  if (rules.game_point === "ten-of-trump") add("the ten of trump");
  if (rules.three_point) add("the three of trump", rules.three_point);
  if (rules.off_three && offs) add("the off-three", 3);
  if (rules.five_point) add("the five of trump", rules.five_point);
  if (rules.off_five && offs) add("the off-five", 5);
  if (rules.nine_point) add("the nine of trump", rules.nine_point);
  if (rules.off_nine && offs) add("the off-nine", 9);
  if (rules.queen_point) add("the queen of trump", rules.queen_point);
  if (rules.king_point) add("the king of trump", rules.king_point);
  if (rules.last_trick_point) add("the last trick");
  if (rules.old_nate) add("the four of spades when spades are trump (Old Nate)");
  if (rules.spade_point) add("the highest spade played");
  return list.filter((w) => !w.endsWith("(0)"));
}

function join(words) {
  if (words.length < 2) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

function tableSentence(rules) {
  const sides = sidesOf(rules);
  if ((rules.side_size || 1) === 1) return `${cap(say(rules.players))} players, each playing alone.`;
  return `${cap(say(rules.players))} players in ${say(sides)} partnerships of ${say(rules.side_size)}, partners sitting apart.`;
}

function dealSentence(rules) {
  const jokers = rules.jokers ? ` with ${rules.jokers === 1 ? "a joker" : `${say(rules.jokers)} jokers`}` : "";
  let text = `Each player gets ${say(rules.hand_size)} cards from a ${deckSize(rules)}-card deck${jokers}`;
  if (rules.kitty_size) text += `; ${say(rules.kitty_size)} more go face down to a kitty for the winner of the bid`;
  if (rules.blind_cards) text += `, and a row of ${say(rules.blind_cards)} face-down cards that nobody sees, any of which may be played instead of a card in hand from the second trick on`;
  return `${text}.`;
}

function biddingSentences(rules) {
  if (rules.bidding === "none") {
    return [rules.trump_by === "first-lead"
      ? "There is no bidding: the player left of the dealer leads, and the suit of that first card is trump."
      : "There is no bidding: the player left of the dealer names trump and leads."];
  }
  const unit = rules.contract === "tricks" ? " tricks" : "";
  const out = [rules.bidding === "rounds"
    ? `Bids go round from the dealer's left, ${rules.min_bid} to ${rules.max_bid}${unit}, each higher than the last, until all but one have passed; a player who passes is out of the auction.`
    : `Starting left of the dealer, each player bids once, ${rules.min_bid} to ${rules.max_bid}${unit} and higher than any bid before, or passes.`];
  if (rules.dealer_can_steal === "any") out.push("The dealer may take the bid by equalling it.");
  if (rules.dealer_can_steal === "maximum") out.push(`The dealer may equal a bid of ${rules.max_bid}.`);
  if (rules.stick_dealer === "bid") out.push(`If everyone passes, the dealer must bid ${rules.min_bid}.`);
  else if (rules.stick_dealer === "bid-or-set") out.push(`If everyone passes, the dealer must bid ${rules.min_bid} or lose ${rules.min_bid} without playing.`);
  else if (rules.all_pass_redeal === "eldest-pitches") out.push("If everyone passes, the player left of the dealer pitches with no contract.");
  else out.push(`If everyone passes, ${rules.all_pass_redeal === "next-dealer" ? "the next dealer deals" : "the cards are dealt"} again.`);
  const moon = moonBid(rules);
  if (moon !== null) {
    out.push(rules.moon === "instant-win" ? `A bid of ${moon} shoots the moon: take every point${rules.moon_tricks ? " and every trick" : ""} to win the game at once.`
      : rules.moon === "extra-point" ? `A bid of ${moon} shoots the moon: every trick and every point, for one point more.`
        : `A bid of ${moon} shoots the moon, for the game's worth won or lost.`);
  }
  if (rules.smudge_call) out.push(`Instead of bidding you may declare a smudge: take exactly ${say(rules.smudge_call)} tricks yourself and win the game.`);
  return out;
}

function trumpSentence(rules) {
  if (rules.bidding === "none") return "";
  const kitty = rules.kitty_size ? (rules.kitty_when === "after-trump" ? " names trump, then takes the kitty," : " takes the kitty, names trump") : " names trump";
  if (rules.trump_by === "first-lead") {
    return `The highest bidder${rules.kitty_size ? " takes the kitty and" : ""} leads first, and the suit of that first card is trump.`;
  }
  const leader = rules.first_leader === "maker-left" ? "; the player on their left leads" : " and leads";
  const lead = rules.first_lead === "trump" ? ", a trump when holding one" : rules.first_lead === "trump-broken" ? "; trump may not be led until one has been played" : "";
  return `The highest bidder${kitty}${leader}${lead}.`;
}

function discardSentence(rules) {
  const refill = rules.refill_to;
  const taker = rules.refill === "dealer-takes-rest" ? "dealer" : rules.refill === "maker-takes-rest" ? "highest bidder" : null;
  const automatic = rules.discard_by === "automatic" ? " (the service makes the discards)" : "";
  const after = taker ? `Everyone but the ${taker} is then dealt back up to ${say(refill)}; the ${taker} takes the rest of the stock and keeps ${say(refill)}.`
    : `Then everyone is dealt back up to ${say(refill)} cards.`;
  switch (rules.discarding) {
    case "all-nontrump": return `Once trump is named, players throw away every card that is not a trump${automatic}. ${after}`;
    case "choose-nontrump": return `Once trump is named, players may throw away any of their non-trumps${automatic}. ${after}`;
    case "choose-any": return `Once trump is named, players may throw away any cards${rules.max_discards ? `, at most ${say(rules.max_discards)}` : ""}${automatic}. ${after}`;
    case "down-to-six": return `Once trump is named, players throw away non-trumps down to ${say(refill)} cards${automatic}.${taker ? ` ${after}` : ""}`;
    default: return rules.kitty_size ? `The kitty's taker then throws away ${say(rules.kitty_size)} cards.` : "";
  }
}

function playSentence(rules) {
  const follow = {
    "suit-or-trump": "Follow the suit led or play a trump; holding neither, play anything.",
    "suit-or-trump-must-trump": "Follow the suit led or play a trump, and trump when you cannot follow.",
    "must-follow": "Follow the suit led when you can; otherwise play anything.",
    "must-follow-must-trump": "Follow the suit led when you can; otherwise trump if you can.",
  }[rules.following] || "";
  const only = rules.trump_only ? " Only trumps are played: a player out of trump sits out the rest of the hand." : "";
  const lead = rules.trick_leader === "rotating" ? " The lead passes to the left after each trick, whoever won it." : "";
  return `${follow}${only}${lead}`;
}

function scoringSentences(rules) {
  const out = [`Points: ${join(pointWords(rules))}.`];
  if (rules.bidding !== "none") {
    const setBy = rules.set_penalty === "double-bid" ? "twice the bid" : "the bid";
    out.push(`Bidders short of their bid lose ${setBy}${rules.junk_points === false ? "; only the bidders score" : ", and the others keep what they take"}.`);
    if (rules.maker_bid_only) out.push("A made bid scores the bid only.");
    if (rules.bid_bonus) out.push("A made bid scores the bid on top of the points.");
  }
  if (rules.count_down) out.push(`Each side starts at ${rules.target_score} and counts down; the first to zero wins.`);
  else if (rules.game_over === "hands") out.push(`The game lasts ${plural(rules.hand_limit, "hand")}; the highest score wins.`);
  else {
    const must = String(rules.win_rule || "").startsWith("must-bid") ? ", winning only on a hand it bid and made" : "";
    out.push(`The first ${(rules.side_size || 1) === 1 ? "player" : "side"} to ${rules.target_score} wins${rules.win_by_two ? " by two points" : ""}${must}.`);
  }
  return out;
}

/** Return "how this variant plays": one paragraph in plain words, from the rules. */
export function howItPlays(rules) {
  return [tableSentence(rules), dealSentence(rules), ...biddingSentences(rules), trumpSentence(rules),
    discardSentence(rules), playSentence(rules), ...scoringSentences(rules)].filter(Boolean).join(" ");
}

/** Return the variant's special moves, each a short line to remind the player during play. */
export function specialMoves(rules) {
  if (!rules) return [];
  const out = [];
  if (rules.trump_by === "first-lead") out.push("The bid winner's first card names trump.");
  if (rules.kitty_size) out.push(`The bid winner takes the ${say(rules.kitty_size)}-card kitty and throws away as many.`);
  if (rules.discarding === "all-nontrump") out.push(`After trump: every non-trump is thrown away, and hands are filled back to ${say(rules.refill_to)}.`);
  if (rules.discarding === "choose-nontrump" || rules.discarding === "choose-any") out.push(`After trump: throw away ${rules.discarding === "choose-any" ? "any cards" : "non-trumps"} you choose${rules.max_discards ? ` (at most ${say(rules.max_discards)})` : ""}, then draw back to ${say(rules.refill_to)}.`);
  if (rules.discarding === "down-to-six") out.push(`After trump: throw away non-trumps down to ${say(rules.refill_to)} cards.`);
  if (rules.blind_cards) out.push("From the second trick you may play a face-down card instead of one from your hand.");
  if (rules.trump_only) out.push("Only trumps are played; out of trump, you sit out.");
  if (rules.smudge_call) out.push(`Smudge: instead of bidding, undertake exactly ${say(rules.smudge_call)} tricks to win the game.`);
  const moon = moonBid(rules);
  if (moon !== null) out.push(`A bid of ${moon} shoots the moon.`);
  if (rules.dealer_can_steal !== "never" && rules.bidding !== "none") out.push("The dealer may take the bid by equalling it.");
  if (rules.claims) out.push("About to lead with a hand that takes every trick, you may claim the rest.");
  return out;
}
