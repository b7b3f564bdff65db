// Players (docs/players.md) on the page: the name asked once on a first visit (POST /v1/players,
// kept by store.js with the seats' tokens), the line saying who this browser plays as, and a
// player's page (#/player/ID): ratings per family with the rating over time as an inline SVG
// plot (GET /v1/players/{id}/ratings/{family}), statistics, and the games played, newest
// first, a page at a time, each linked to its table and its hands' replays.

import {api, explain} from "./api.js";
import {fill, h, svg} from "./dom.js";
import {forgetMe, me, rememberMe, seatsOf} from "./store.js";
import {presetTitle} from "./tables.js";
import {familyWords, ratingWords} from "./words.js";

const START = {games: 0, rating: 0}; // a new player: mu 25, sigma 25/3, so mu - 3 sigma = 0

/** Return the link to a player's page. */
export function playerLink(player, attrs = {}) {
  return h("a", {href: `#/player/${encodeURIComponent(player.id)}`, ...attrs}, player.name);
}

/** Return the line saying who this browser plays as, with a link to the player's page (null before a name). */
export function whoLine() {
  const player = me();
  if (!player) return null;
  return h("p", {class: "who-line", id: "who-line"}, "Playing as ", h("strong", {}, player.name), " · ",
    h("a", {href: `#/player/${encodeURIComponent(player.id)}`}, "your page"));
}

/**
 * Return the words for a player's token refused (401: the service no longer knows it, its
 * store emptied or the token rotated elsewhere), having forgotten it; null for any other problem.
 */
export function playerRefused(error, player) {
  if (!player || !error || error.status !== 401) return null;
  forgetMe();
  return h("p", {}, `The service no longer knows the name this browser kept (${player.name}). `,
    h("a", {href: "#/", onclick: () => setTimeout(() => location.reload(), 0)}, "Give your name again"), " and try once more.");
}

/** Check that the service still knows the player this browser plays as; forget it if not (then the name is asked again). */
export async function checkMe() {
  const player = me();
  if (!player) return null;
  try {
    await api("GET", `/v1/players/${encodeURIComponent(player.id)}`);
    return player;
  } catch (error) {
    if (error.status !== 404) return player; // unreachable or busy: keep it
    forgetMe();
    return null;
  }
}

/** Make a player named `name` (POST /v1/players) and keep it as the one this browser plays as; return it. */
export async function makePlayer(name) {
  const made = await api("POST", "/v1/players", {body: {name}});
  rememberMe(made);
  return made;
}

/**
 * Return the form that asks a first visit for a name and makes the player (POST /v1/players);
 * `onDone(player)` hears the player kept in this browser.
 */
export function nameForm(onDone, {intro = "Other players see it at the table, in the game's log and on the leaderboards."} = {}) {
  const input = h("input", {id: "player-name", type: "text", maxlength: "40", required: true, autocomplete: "nickname",
    placeholder: "e.g. Ada", "aria-describedby": "player-name-help"});
  const problem = h("div", {class: "form-problem", role: "alert"});
  const submit = async (e) => {
    e.preventDefault();
    fill(problem);
    const name = input.value.trim();
    if (!name) {
      fill(problem, h("p", {}, "Type a name of 1 to 40 characters."));
      return;
    }
    const button = e.target.querySelector("button[type=submit]");
    button.disabled = true;
    try {
      onDone(await makePlayer(name));
    } catch (error) {
      fill(problem, h("p", {}, explain(error, "keeping your name")));
      button.disabled = false;
    }
  };
  return h("section", {class: "card-panel name-panel", id: "name-panel", "aria-labelledby": "name-title"},
    h("h2", {id: "name-title"}, "Welcome! What should we call you?"),
    h("p", {id: "player-name-help", class: "muted"}, intro, " It is asked once: this browser keeps it."),
    h("form", {class: "row name-form", onsubmit: submit},
      h("label", {for: "player-name"}, "Your name"), input,
      h("button", {type: "submit", class: "btn btn-primary", id: "player-name-save"}, "Play as this name")),
    problem);
}

function ticks(low, high, count = 4) {
  const raw = (high - low) / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) || raw;
  const found = [];
  for (let t = Math.ceil(low / step) * step; t <= high + 1e-9; t += step) found.push(Number(t.toFixed(6)));
  return found;
}

/** Return the plot of a rating over the rated games (`points` oldest first), an SVG drawn here, no library. */
export function ratingPlot(points, family, room = 640) {
  const shown = points.length && points[0].games === 1 ? [START, ...points] : points;
  // Drawn at the width it is shown at (its text stays 12 px): 300 to 640 units, wider than high.
  const width = Math.round(Math.max(300, Math.min(640, room))), height = Math.round(width < 480 ? width * 0.62 : 240);
  const left = 40, right = 14, top = 14, bottom = 34;
  const values = shown.map((p) => p.rating);
  let low = Math.min(...values), high = Math.max(...values);
  const pad = Math.max(1, (high - low) * 0.12);
  low -= pad;
  high += pad;
  const first = shown[0].games, last = Math.max(shown[shown.length - 1].games, first + 1);
  const x = (games) => left + ((games - first) / (last - first)) * (width - left - right);
  const y = (rating) => top + ((high - rating) / (high - low)) * (height - top - bottom);
  const line = shown.map((p) => `${x(p.games).toFixed(1)},${y(p.rating).toFixed(1)}`).join(" ");
  const area = `${x(first).toFixed(1)},${height - bottom} ${line} ${x(shown[shown.length - 1].games).toFixed(1)},${height - bottom}`;
  const id = `plot-${family}`;
  const now = points[points.length - 1];
  const label = `${familyWords(family)} rating over ${points.length} rated ${points.length === 1 ? "game" : "games"}`;
  const told = `From ${ratingWords(shown[0].rating)} to ${ratingWords(now.rating)}; lowest ${ratingWords(Math.min(...values))}, highest ${ratingWords(Math.max(...values))}.`;
  const xTicks = ticks(first, last, Math.min(6, last - first)).filter((t) => Number.isInteger(t));
  return svg("svg", {class: "rating-plot", id, viewBox: `0 0 ${width} ${height}`, role: "img", "aria-labelledby": `${id}-title ${id}-desc`,
    preserveAspectRatio: "xMidYMid meet"},
  svg("title", {id: `${id}-title`}, label),
  svg("desc", {id: `${id}-desc`}, told),
  ticks(low, high).map((t) => svg("g", {class: "plot-grid"},
    svg("line", {x1: left, x2: width - right, y1: y(t).toFixed(1), y2: y(t).toFixed(1)}),
    svg("text", {x: left - 6, y: (y(t) + 4).toFixed(1), "text-anchor": "end"}, ratingWords(t).replace(".0", "")))),
  xTicks.map((t) => svg("text", {class: "plot-axis", x: x(t).toFixed(1), y: height - bottom + 16, "text-anchor": "middle"}, String(t))),
  svg("text", {class: "plot-axis", x: (left + width - right) / 2, y: height - 4, "text-anchor": "middle"}, "rated games"),
  svg("polygon", {class: "plot-area", points: area}),
  svg("polyline", {class: "plot-line", points: line}),
  shown.map((p, i) => svg("circle", {class: i === shown.length - 1 ? "plot-dot plot-now" : "plot-dot", cx: x(p.games).toFixed(1),
    cy: y(p.rating).toFixed(1), r: i === shown.length - 1 ? 5 : 3.5},
  svg("title", {}, p.games ? `After game ${p.games}: ${ratingWords(p.rating)}` : `Start: ${ratingWords(p.rating)}`))));
}

async function fullHistory(playerId, family) {
  const points = [];
  let after = 0;
  for (let page = 0; page < 20 && after !== null; page += 1) { // 20 pages of 500: the plot's 10,000 games at most
    const answer = await api("GET", `/v1/players/${encodeURIComponent(playerId)}/ratings/${encodeURIComponent(family)}?limit=500&after=${after}`);
    points.push(...answer.points);
    after = answer.next;
  }
  return points;
}

function ratingCard(playerId, family, rating) {
  const plot = h("div", {class: "plot-slot"}, h("p", {class: "pending"}, "Drawing the rating over time…"));
  fullHistory(playerId, family).then((points) => fill(plot, points.length ? ratingPlot(points, family, plot.clientWidth || 640)
    : h("p", {class: "muted"}, "No history yet.")), (error) => fill(plot, h("p", {class: "problem"}, explain(error, "reading the rating's history"))));
  return h("article", {class: "rating-card", dataset: {family}},
    h("div", {class: "rating-head"},
      h("h3", {}, familyWords(family)),
      h("p", {class: "rating-value"}, h("span", {class: "rating-number"}, ratingWords(rating.rating)),
        h("span", {class: "muted"}, ` ± ${rating.uncertainty.toFixed(1)} · ${rating.games} rated ${rating.games === 1 ? "game" : "games"}`)),
      h("a", {class: "rating-board", href: `#/leaderboard/${family}`}, `${familyWords(family)} leaderboard`)),
    plot);
}

const STAT_ROWS = [
  ["hands", "Hands played", (v) => String(v)],
  ["bids_made", "Bids made", (v) => String(v)],
  ["bids_set", "Bids set", (v) => String(v)],
  ["points_as_makers", "Points a hand as makers", (v) => (v === null ? "–" : ratingWords(v))],
  ["points_as_defenders", "Points a hand as defenders", (v) => (v === null ? "–" : ratingWords(v))],
  ["moons", "Moons shot", (v) => String(v)],
  // From the hands' reviews (docs/reviews.md), where the service gives them:
  ["reviewed_decisions", "Decisions reviewed", (v) => String(v)],
  ["average_decision_cost", "Average cost of a decision (points)", (v) => (v === null ? "–" : v.toFixed(2))],
];

function statisticsTable(statistics) {
  const families = Object.keys(statistics);
  if (!families.length) return h("p", {class: "muted"}, "No hand played to its end yet.");
  return h("table", {class: "stats-table"},
    h("thead", {}, h("tr", {}, h("th", {scope: "col"}, h("span", {class: "sr-only"}, "Statistic")),
      families.map((f) => h("th", {scope: "col"}, familyWords(f))))),
    h("tbody", {}, STAT_ROWS.filter(([key]) => families.some((f) => key in statistics[f])).map(([key, label, shown]) => h("tr", {},
      h("th", {scope: "row"}, label), families.map((f) => h("td", {}, key in statistics[f] ? shown(statistics[f][key]) : "–"))))));
}

function when(text) {
  return String(text || "").slice(0, 16).replace("T", " ");
}

function handLinks(game) {
  const box = h("details", {class: "game-hands"});
  const list = h("div", {class: "game-hands-list"}, h("p", {class: "pending"}, "Reading the game…"));
  let read = false;
  box.addEventListener("toggle", async () => {
    if (!box.open || read) return;
    read = true;
    try {
      const view = await api("GET", `/v1/games/${encodeURIComponent(game.id)}`);
      const last = view.last_hand ? view.last_hand.hand : 0;
      fill(list, last ? h("ul", {class: "hand-links"}, Array.from({length: last}, (_, i) => h("li", {},
        h("a", {class: "btn btn-small", href: `#/game/${game.id}/hand/${i + 1}`}, `Hand ${i + 1}`))))
        : h("p", {class: "muted"}, "No hand was played to its end."));
    } catch (error) {
      fill(list, h("p", {class: "problem"}, explain(error, "reading the game")));
    }
  });
  box.append(h("summary", {}, "Replay its hands"), list);
  return box;
}

const STATUS = {waiting: "Waiting for players", playing: "Being played", finished: "Finished"};

function gameRow(game, playerId, titles) {
  const others = game.players.filter((p) => p.id !== playerId);
  const held = Object.keys(seatsOf(game.id)).length > 0;
  const title = h("strong", {}, titles[game.preset] || game.preset);
  presetTitle(game.preset).then((t) => { titles[game.preset] = t; title.textContent = t; });
  return h("li", {class: "game-row", dataset: {game: game.id}},
    h("div", {class: "game-line"}, title,
      game.rated ? h("span", {class: "badge badge-rated"}, "Rated") : null,
      h("span", {class: `game-status status-${game.status}`}, STATUS[game.status] || game.status)),
    h("p", {class: "muted game-meta"}, `${familyWords(game.family)} · ${when(game.finished_at || game.created_at)}`,
      others.length ? [" · with ", others.flatMap((p, i) => [i ? ", " : "", playerLink(p)])] : null),
    h("div", {class: "row game-actions"},
      h("a", {class: "btn btn-small", href: held ? `#/game/${game.id}` : `#/watch/${game.id}`},
        game.status === "finished" ? "See the game" : held ? "Open the table" : "Watch"),
      game.status === "finished" ? handLinks(game) : null));
}

/** Fill `root` with a player's page (#/player/ID). */
export async function openPlayer(root, playerId) {
  const path = `/v1/players/${encodeURIComponent(playerId)}`;
  const profile = await api("GET", path);
  const mine = me();
  const families = Object.keys(profile.ratings);
  const list = h("ul", {class: "game-list", id: "player-games"});
  const more = h("button", {type: "button", class: "btn", id: "games-more", hidden: true}, "More games");
  const problem = h("div", {class: "form-problem", role: "alert"});
  const titles = {};
  let after = null;
  const page = async () => {
    more.disabled = true;
    try {
      const answer = await api("GET", `${path}/games?limit=10${after ? `&after=${encodeURIComponent(after)}` : ""}`);
      if (!after && !answer.games.length) fill(list, h("li", {class: "muted"}, "No game yet."));
      list.append(...answer.games.map((g) => gameRow(g, playerId, titles)));
      after = answer.next;
      more.hidden = !after;
    } catch (error) {
      fill(problem, h("p", {}, explain(error, "listing the games")));
    }
    more.disabled = false;
  };
  more.addEventListener("click", page);
  fill(root, h("section", {class: "page player-page"},
    h("div", {class: "player-head"},
      h("h1", {}, profile.name),
      h("p", {class: "muted"}, mine && mine.id === playerId ? "This is you. " : "", `Playing since ${when(profile.created_at).slice(0, 10)}.`)),
    h("div", {class: "player-grid"},
      h("div", {class: "player-main"},
        h("section", {class: "card-panel", "aria-labelledby": "ratings-title"},
          h("h2", {id: "ratings-title"}, "Ratings"),
          families.length ? families.map((f) => ratingCard(playerId, f, profile.ratings[f]))
            : h("p", {class: "muted", id: "no-rating"}, "No rated game counted yet. A rated game counts a moment after it ends."),
          h("p", {class: "muted"}, "A rating is mu − 3 × uncertainty (openskill): it grows as results come and as the uncertainty shrinks.")),
        h("section", {class: "card-panel", "aria-labelledby": "stats-title"},
          h("h2", {id: "stats-title"}, "Statistics"), statisticsTable(profile.statistics))),
      h("section", {class: "card-panel player-history", "aria-labelledby": "games-title"},
        h("h2", {id: "games-title"}, "Games"), list, problem, more))));
  await page();
  return {close() {}};
}
