// The table drawn from one seat's view (GET /v1/games/{id}): the seats around the felt with
// their bids, tricks and cards held, the trick being played (and, once it is taken, who took
// it, until the next lead), the last trick on demand, trump and the contract; and the score,
// as a board beside the table and in one line on a phone. What the seat may do is controls.js.

import {cardFace, cardName, SUITS} from "./cards.js";
import {h} from "./dom.js";
import {plural} from "./variants.js";
import {sideName} from "./words.js";

const PHASES = {
  bidding: "Bidding", declaring: "Naming trump", discarding: "Discarding", playing: "Playing",
  scored: "Hand over", ended: "Game over", waiting: "Waiting for players",
};

/** Return the words of the view's phase: "Bidding", "Playing trick 3". */
export function phaseText(view) {
  if (view.phase === "playing") return `Playing trick ${view.tricks.length + 1}`;
  return PHASES[view.phase] || view.phase;
}

/** Return the place of a seat around the table, in percent of the felt: {x, y} and the trick card's {tx, ty}. */
export function seatPlace(names, seat) {
  const angle = (Math.PI / 2) + (2 * Math.PI * names.place(seat)) / names.count;
  return {
    x: 50 + 41 * Math.cos(angle), y: 50 + 39 * Math.sin(angle),
    tx: 50 + 22 * Math.cos(angle), ty: 50 + 21 * Math.sin(angle),
  };
}

function seatOf(view, seat) {
  return view.seats.find((s) => s.seat === seat) || {seat, kind: "human", level: null, side: seat};
}

function kindText(info) {
  if (info.kind === "ai") return `Computer, level ${info.level}`;
  if (info.kind === "open") return "Open seat";
  return info.player && info.name ? info.name : "Player";
}

/** Return each side's tricks taken this hand, from the view's finished tricks. */
export function tricksBySide(view) {
  const counts = view.sides.map(() => 0);
  for (const trick of view.tricks) counts[seatOf(view, trick.winner).side] += 1;
  return counts;
}

function bidText(bid) {
  if (!bid) return null;
  if (bid.type === "bid") return `Bid ${bid.amount}`;
  if (bid.type === "pass") return "Pass";
  if (bid.type === "smudge") return "Smudge";
  return bid.type;
}

function seatPlate(view, names, seat, {fresh, replay}) {
  const info = seatOf(view, seat);
  const place = seatPlace(names, seat);
  const bids = view.bids.filter((b) => b.seat === seat);
  const last = bids[bids.length - 1];
  // Once trump is named only the contract's bid stays by its seat: the passes are history.
  const lastBid = last && (view.phase === "bidding" || last.type === "bid" && seat === view.maker) ? bidText(last) : null;
  const toAct = !replay && view.to_act === seat;
  const tricksWon = view.tricks.filter((t) => t.winner === seat).length;
  const held = view.hand_sizes[seat] ?? 0;
  const faceDown = (view.face_down[seat] || []).length;
  const out = view.sat_out.includes(seat);
  const mine = seat === names.me;
  const words = [
    names.full(seat), kindText(info),
    view.dealer === seat ? "dealer" : null, view.maker === seat ? "bid winner" : null,
    lastBid, plural(held, "card"), faceDown ? `${faceDown} face down` : null, `${plural(tricksWon, "trick")} taken`,
    toAct ? "to act" : null, out ? "sitting out" : null,
  ].filter(Boolean).join(", ");
  return h("div", {
    class: `seat${toAct ? " seat-to-act" : ""}${mine ? " seat-mine" : ""}${out ? " seat-out" : ""}`,
    style: `--dx:${(place.x - 50).toFixed(2)}%;--dy:${(place.y - 50).toFixed(2)}%`, dataset: {seat: String(seat)},
    role: "group", "aria-label": words,
  },
  h("div", {class: "seat-name", "aria-hidden": "true"},
    h("span", {class: "seat-title", title: names.full(seat)}, names.name(seat)),
    view.dealer === seat ? h("span", {class: "chip chip-dealer", title: "Dealer"}, "D") : null,
    view.maker === seat ? h("span", {class: "chip chip-maker", title: "Bid winner"}, "B") : null),
  h("div", {class: "seat-kind", "aria-hidden": "true"}, info.kind === "ai" ? `Computer ${info.level}` : mine ? kindText(info) : info.kind === "open" ? "Open seat" : "Player"),
  h("div", {class: "seat-stats", "aria-hidden": "true"},
    mine ? null : h("span", {class: "seat-count", title: "cards held"}, plural(held, "card")),
    faceDown && !mine ? h("span", {class: "seat-count", title: "face-down cards"}, `${faceDown} down`) : null,
    h("span", {class: "seat-tricks", title: "tricks taken"}, plural(tricksWon, "trick"))),
  lastBid ? h("div", {class: `bid-bubble${fresh ? " bubble-fresh" : ""}${last.type === "pass" ? " bid-pass" : ""}`, "aria-hidden": "true"}, lastBid) : null,
  toAct ? h("div", {class: "turn-flag", "aria-hidden": "true"}, mine ? "Your turn" : info.kind === "ai" ? "Thinking…" : "To act") : null,
  out ? h("div", {class: "turn-flag flag-out", "aria-hidden": "true"}, "Sitting out") : null);
}

function placeCard(card, names, seat, extra) {
  const place = seatPlace(names, seat);
  const face = cardFace(card, {small: true, extra});
  face.style.setProperty("--tdx", `${(place.tx - 50).toFixed(2)}%`);
  face.style.setProperty("--tdy", `${(place.ty - 50).toFixed(2)}%`);
  face.style.setProperty("--from-x", `${((place.x - place.tx) * 3).toFixed(0)}px`);
  face.style.setProperty("--from-y", `${((place.y - place.ty) * 3).toFixed(0)}px`);
  face.classList.add("trick-card");
  return face;
}

function trickOnTable(view, names, previous) {
  const plays = view.trick ? view.trick.cards : [];
  if (plays.length) {
    return h("div", {class: "trick", role: "group", "aria-label": `The trick: ${plays.map((p) => `${names.name(p.seat)} ${cardName(p.card)}`).join(", ")}`},
      plays.map((play) => placeCard(play.card, names, play.seat, previous.has(`${play.seat}:${play.card}`) ? "" : "card-arrive")));
  }
  // The trick just taken stays where it was played, its winner shown, until the next lead.
  const done = justTaken(view);
  if (!done) return h("div", {class: "trick", role: "group", "aria-label": "No card on the table"});
  return h("div", {class: "trick trick-done", role: "group", "aria-label": `${takenWords(done, names)}: ${done.cards.map((p) => `${names.name(p.seat)} ${cardName(p.card)}`).join(", ")}`},
    done.cards.map((play) => placeCard(play.card, names, play.seat, play.seat === done.winner ? "card-winner" : "card-beaten")));
}

function takenWords(trick, names) {
  return `${names.name(trick.winner)} ${trick.winner === names.me ? "take" : "takes"} trick ${trick.number}`;
}

/** Return the trick just taken while no card of the next is played (it stays on the table), or null. */
function justTaken(view) {
  if (view.trick && view.trick.cards.length) return null;
  return view.phase === "playing" || view.phase === "scored" ? view.tricks[view.tricks.length - 1] || null : null;
}

function usesStock(rules) {
  return Boolean(rules) && (rules.discarding !== "none" || rules.dealer_can_run || rules.refill !== "everyone");
}

function centreInfo(view, names, rules) {
  const rows = [];
  if (view.trump) {
    const s = SUITS[view.trump];
    rows.push(h("div", {class: `trump ${s ? s.cls : ""}`}, h("span", {class: "trump-symbol", "aria-hidden": "true"}, s ? s.symbol : view.trump), ` ${s ? s.name : view.trump} trump`));
  }
  const taken = justTaken(view);
  if (taken) {
    rows.push(h("div", {class: "trick-winner", "aria-hidden": "true"}, takenWords(taken, names)));
  } else if (view.high_bid !== null && view.high_bid !== undefined && view.maker !== null && view.maker !== undefined) {
    rows.push(h("div", {class: "contract"}, `${names.name(view.maker)} ${view.maker === names.me ? "bid" : "bids"} ${view.high_bid}`));
  } else if (view.high_bid !== null && view.high_bid !== undefined) {
    rows.push(h("div", {class: "contract"}, `High bid ${view.high_bid}`));
  }
  const extras = [];
  if (view.stock_size && usesStock(rules) && view.phase !== "bidding") extras.push(`Stock: ${plural(view.stock_size, "card")}`);
  if (view.kitty_size) extras.push(`Kitty: ${plural(view.kitty_size, "card")}`);
  if (extras.length) rows.push(h("div", {class: "table-extras"}, extras.join(" · ")));
  return h("div", {class: "centre-info"}, rows);
}

function lastTrick(view, names, {open, onToggle}) {
  const playing = view.trick && view.trick.cards.length;
  const trick = playing ? view.tricks[view.tricks.length - 1] : null;
  if (!trick || !onToggle) return null;
  const box = open ? h("div", {class: "last-trick-box", id: "last-trick-box", role: "group", "aria-label": `Last trick, trick ${trick.number}, taken by ${names.name(trick.winner)}`},
    h("p", {class: "last-trick-title"}, `Trick ${trick.number}: ${names.name(trick.winner)} ${trick.winner === names.me ? "take" : "takes"} it`),
    h("ol", {class: "last-trick-cards"}, trick.cards.map((p) => h("li", {class: p.seat === trick.winner ? "winner" : ""},
      cardFace(p.card, {small: true, extra: p.seat === trick.winner ? "card-winner" : ""}), h("span", {}, names.name(p.seat)))))) : null;
  return h("div", {class: "last-trick"},
    h("button", {type: "button", class: "btn btn-small last-trick-button", id: "last-trick", "aria-expanded": String(Boolean(open)),
      "aria-controls": "last-trick-box", onclick: () => onToggle(!open)}, open ? "Hide the last trick" : "Last trick"),
    box);
}

/** Return the felt: the seats around it, the trick, trump and the contract; `replay` shows no turn. */
export function renderFelt(view, names, {previousTrick = new Set(), freshBidSeat = null, replay = false, rules = null, lastOpen = false, onLast = null} = {}) {
  const seats = view.seats.map((s) => seatPlate(view, names, s.seat, {fresh: s.seat === freshBidSeat, replay}));
  return h("div", {class: "felt", dataset: {seats: String(view.seats.length)}},
    h("div", {class: "felt-inner"}),
    centreInfo(view, names, rules), trickOnTable(view, names, previousTrick), lastTrick(view, names, {open: lastOpen, onToggle: onLast}), seats);
}

/** Return the words of the game's goal: "First to 11", "Counting down from 21", "10 hands". */
export function goalText(rules) {
  if (!rules) return "";
  if (rules.count_down) return `Counting down from ${rules.target_score}`;
  return rules.game_over === "hands" ? plural(rules.hand_limit, "hand") : `First to ${rules.target_score}`;
}

/** Return the scoreboard: each side's score, tricks this hand and whether it is the viewer's. */
export function renderScores(view, names, rules) {
  const tricks = tricksBySide(view);
  const mySide = view.seat !== null && view.seat !== undefined ? seatOf(view, view.seat).side : null;
  const goal = goalText(rules);
  return h("section", {class: "scoreboard", "aria-label": "Scores"},
    h("h2", {class: "panel-title"}, "Score", goal ? h("small", {}, ` · ${goal}`) : null),
    h("table", {class: "scores"},
      h("thead", {}, h("tr", {}, h("th", {scope: "col"}, "Side"), h("th", {scope: "col"}, "Score"), h("th", {scope: "col"}, "Tricks"))),
      h("tbody", {}, view.sides.map((_, side) => h("tr", {class: side === mySide ? "my-side" : ""},
        h("th", {scope: "row"}, sideName(view, names, side), side === mySide && view.sides[side].length > 1 ? h("small", {class: "you-mark"}, " (your side)") : null),
        h("td", {class: "score-value"}, String(view.scores[side] ?? 0)),
        h("td", {}, String(tricks[side])))))));
}

/** Return the score in one line, for a phone: each side's score, the goal, tricks this hand. */
export function renderStrip(view, names, rules) {
  const tricks = tricksBySide(view);
  const goal = goalText(rules);
  return h("div", {class: "strip", role: "group", "aria-label": `Score: ${view.sides.map((_, i) => `${sideName(view, names, i)} ${view.scores[i] ?? 0}`).join(", ")}${goal ? `; ${goal}` : ""}`},
    view.sides.map((_, i) => h("span", {class: "strip-side", "aria-hidden": "true"},
      h("span", {class: "strip-name"}, sideName(view, names, i)), " ",
      h("strong", {class: "strip-score"}, String(view.scores[i] ?? 0)),
      view.phase === "playing" ? h("small", {}, ` · ${plural(tricks[i], "trick")}`) : null)),
    goal ? h("span", {class: "strip-goal", "aria-hidden": "true"}, goal) : null);
}
