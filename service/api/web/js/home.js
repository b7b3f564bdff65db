// The front page: start a game, take a seat at an open table, go back to a game whose seats
// this browser holds, watch any game by its id or link, audit a record. A first visit is
// asked for a name once (the player this browser plays as: player.js); then the page says
// who plays here and links the leaderboards.

import {explain, rulesCatalogue} from "./api.js";
import {announce, fill, h} from "./dom.js";
import {leaderboardLinks} from "./leaderboard.js";
import {renderNewGame} from "./newgame.js";
import {checkMe, nameForm, whoLine} from "./player.js";
import {plural} from "./variants.js";
import {forgetGame, knownGames, me} from "./store.js";
import {renderOpenTables} from "./tables.js";

function gameIdFrom(text) {
  const match = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/i.exec(text);
  return match ? match[1] : text.trim();
}

function yourGames() {
  const games = knownGames();
  const list = h("ul", {class: "your-games"});
  let titles = {};
  const draw = () => fill(list, knownGames().map((g) => h("li", {},
    h("a", {href: `#/game/${g.id}`}, `${g.title || titles[g.preset] || "Game"} · ${g.id.slice(0, 8)}`),
    h("small", {}, ` ${plural(Object.keys(g.seats || {}).length, "seat")} · ${String(g.created || "").slice(0, 16).replace("T", " ")} `),
    h("a", {href: `#/watch/${g.id}`}, "watch"), " ",
    h("button", {type: "button", class: "btn btn-small btn-quiet", "aria-label": `Forget game ${g.id.slice(0, 8)}`, onclick: () => {
      forgetGame(g.id);
      draw();
    }}, "forget"))));
  draw();
  // A game kept from a seat link knows its preset's name only: its title comes with the catalogue.
  rulesCatalogue().then((catalogue) => {
    titles = Object.fromEntries(catalogue.presets.map((p) => [p.name, p.title]));
    draw();
  }, () => {});
  return games.length ? h("section", {class: "card-panel"}, h("h2", {}, "Your games"), list) : null;
}

function watchForm() {
  const input = h("input", {id: "watch-id", type: "text", placeholder: "a game id or a spectator link", required: true});
  return h("section", {class: "card-panel"},
    h("h2", {}, "Watch a game"),
    h("form", {class: "row", onsubmit: (e) => {
      e.preventDefault();
      location.hash = `#/watch/${gameIdFrom(input.value)}`;
    }}, h("label", {for: "watch-id", class: "sr-only"}, "Game to watch"), input, h("button", {type: "submit", class: "btn"}, "Watch")),
    h("p", {class: "muted"}, "Anyone may watch: no card is shown before the rules reveal it."));
}

function boards() {
  return h("section", {class: "card-panel", id: "leaderboards"}, h("h2", {}, "Leaderboards"),
    h("p", {class: "muted"}, "Rated games move their players' ratings, one leaderboard per kind of game."),
    leaderboardLinks());
}

/** Fill `root` with the front page. */
export async function openHome(root) {
  const form = h("div", {class: "new-game-slot"}, h("p", {class: "pending card-panel"}, "Loading the rules…"));
  const tables = h("div", {class: "open-tables-slot"});
  const who = h("div", {class: "who-slot"});
  const drawForm = async () => {
    try {
      fill(form, await renderNewGame());
    } catch (error) {
      fill(form, h("p", {class: "problem"}, explain(error, "loading the rules")));
    }
  };
  // Asked once: with a name kept, the page says who plays here; the form then seats that player.
  await checkMe(); // a player the service no longer knows (its store emptied) is forgotten: the name is asked again
  fill(who, me() ? whoLine() : nameForm((player) => {
    fill(who, whoLine());
    announce(`You play as ${player.name}.`);
    drawForm();
  }));
  fill(root, h("section", {class: "home"},
    h("div", {class: "home-intro"},
      h("h1", {}, "Pitch"),
      h("p", {}, "Auction Pitch, Setback, Smear, Pedro and their relatives, against the computer or with friends. Every deal can be proven fair, every score audited."),
      who),
    h("div", {class: "home-grid"}, form,
      h("div", {class: "home-side"}, tables, yourGames(), boards(), watchForm(),
        h("section", {class: "card-panel"}, h("h2", {}, "Audit"),
          h("p", {}, "Paste or upload a hand record to see its score recomputed from the rules. "),
          h("a", {class: "btn", href: "#/audit"}, "Open the audit"))))));
  renderOpenTables().then((box) => fill(tables, box));
  await drawForm();
  return {close() {}};
}
