// A family's leaderboard (#/leaderboard/FAMILY, GET /v1/leaderboards/{family}): its rated
// players, highest rating first, a page at a time ("More players"), each name linked to
// the player's page; this browser's player is marked.

import {api, explain} from "./api.js";
import {fill, h} from "./dom.js";
import {playerLink} from "./player.js";
import {me} from "./store.js";
import {familyWords, ratingWords} from "./words.js";

export const FAMILIES = ["partnership", "cut-throat"];

/** Return the links to every family's leaderboard (the start page's box, or the tabs of a leaderboard). */
export function leaderboardLinks(current = null) {
  return h("ul", {class: "board-links"}, FAMILIES.map((f) => h("li", {},
    h("a", {class: f === current ? "btn btn-small btn-primary" : "btn btn-small", href: `#/leaderboard/${f}`,
      "aria-current": f === current ? "page" : null}, `${familyWords(f)}`))));
}

/** Fill `root` with a family's leaderboard. */
export async function openLeaderboard(root, family) {
  if (!FAMILIES.includes(family)) family = FAMILIES[0];
  const mine = me();
  const body = h("tbody", {});
  const more = h("button", {type: "button", class: "btn", id: "board-more", hidden: true}, "More players");
  const problem = h("div", {class: "form-problem", role: "alert"});
  let after = null;
  const page = async () => {
    more.disabled = true;
    try {
      const answer = await api("GET", `/v1/leaderboards/${encodeURIComponent(family)}?limit=25${after ? `&after=${encodeURIComponent(after)}` : ""}`);
      if (!after && !answer.players.length) {
        fill(body, h("tr", {}, h("td", {colspan: "5", class: "muted"}, "No rated game has counted yet. Start a rated game from the start page.")));
      }
      body.append(...answer.players.map((p) => h("tr", {class: mine && mine.id === p.id ? "board-me" : null, dataset: {player: p.id}},
        h("td", {class: "board-rank"}, String(p.rank)),
        h("th", {scope: "row"}, playerLink(p), mine && mine.id === p.id ? h("span", {class: "you-mark"}, " (you)") : null),
        h("td", {class: "board-rating"}, ratingWords(p.rating)),
        h("td", {class: "board-extra"}, `± ${p.uncertainty.toFixed(1)}`),
        h("td", {}, String(p.games)))));
      after = answer.next;
      more.hidden = !after;
    } catch (error) {
      fill(problem, h("p", {}, explain(error, "reading the leaderboard")));
    }
    more.disabled = false;
  };
  more.addEventListener("click", page);
  fill(root, h("section", {class: "page board-page"},
    h("h1", {}, `${familyWords(family)} leaderboard`),
    h("nav", {"aria-label": "Leaderboards"}, leaderboardLinks(family)),
    h("p", {class: "muted"}, family === "partnership" ? "Games where a side holds several seats." : "Games where every seat plays for itself.",
      " Ranked by rating (mu − 3 × uncertainty), which rated games against players and computers move."),
    h("div", {class: "card-panel board-panel"},
      h("table", {class: "board", id: "leaderboard"},
        h("caption", {class: "sr-only"}, `${familyWords(family)} players by rating`),
        h("thead", {}, h("tr", {}, h("th", {scope: "col"}, h("span", {"aria-hidden": "true"}, "#"), h("span", {class: "sr-only"}, "Rank")), h("th", {scope: "col"}, "Player"),
          h("th", {scope: "col"}, "Rating"), h("th", {scope: "col", class: "board-extra"}, "Uncertainty"), h("th", {scope: "col"}, "Games"))),
        body),
      problem, more)));
  await page();
  return {close() {}};
}
