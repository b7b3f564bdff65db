// The page's routes, kept in the address's fragment so a link can be shared and the server
// serves one document: #/ (start or find a game), #/game/ID (play a seat held here, or
// ?seat=N, or ?token=T from a seat link), #/watch/ID (a spectator), #/game/ID/hand/N (replay),
// #/join/ID/SEAT (take an open seat, ?invite=I from an invite link), #/audit and #/audit/ID,
// #/player/ID (a player's page) and #/leaderboard/FAMILY. The header names the player this
// browser plays as, once it has one, with a link to its page.

import {explain} from "./api.js";
import {setBaseTitle} from "./attention.js";
import {clearNotice, fill, h} from "./dom.js";
import {applySettings, openSettings} from "./settings.js";
import {me} from "./store.js";

let current = null;
let routed = 0;  // the latest address routed

function parse(hash) {
  const [path, query = ""] = hash.replace(/^#/, "").split("?");
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  return {parts, params: new URLSearchParams(query)};
}

async function route() {
  const mine = ++routed;
  // Each address opens its page in a container of its own: a page still opening when the
  // address changes (the start page waiting on the service when a game's link is followed)
  // goes on drawing into its container, which is no longer on screen.
  const root = h("div", {class: "page-root"}, h("p", {class: "pending"}, "Loading…"));
  document.getElementById("app").replaceChildren(root);
  if (current && current.close) current.close();
  current = null;
  clearNotice();
  const {parts, params} = parse(location.hash || "#/");
  window.scrollTo(0, 0);
  let opened = null;
  try {
    if (parts[0] === "game" && parts[1] && parts[2] === "hand" && parts[3]) {
      const {openReplay} = await import("./replay.js");
      opened = await openReplay(root, parts[1], Number(parts[3]));
    } else if (parts[0] === "game" && parts[1]) {
      const {openGame} = await import("./game.js");
      const seat = params.has("seat") ? Number(params.get("seat")) : null;
      opened = await openGame(root, parts[1], {seat, token: params.get("token")});
    } else if (parts[0] === "join" && parts[1] && parts[2]) {
      const {openJoin} = await import("./tables.js");
      opened = await openJoin(root, parts[1], Number(parts[2]), params.get("invite"));
    } else if (parts[0] === "watch" && parts[1]) {
      const {openGame} = await import("./game.js");
      opened = await openGame(root, parts[1], {watch: true});
    } else if (parts[0] === "player" && parts[1]) {
      const {openPlayer} = await import("./player.js");
      opened = await openPlayer(root, parts[1]);
    } else if (parts[0] === "leaderboard") {
      const {openLeaderboard} = await import("./leaderboard.js");
      opened = await openLeaderboard(root, parts[1] || "partnership");
    } else if (parts[0] === "audit") {
      const {openAudit} = await import("./audit.js");
      opened = await openAudit(root, parts[1] || null);
    } else {
      const {openHome} = await import("./home.js");
      opened = await openHome(root);
    }
    if (mine !== routed) {  // the address changed while this page opened: it is closed, unseen
      if (opened && opened.close) opened.close();
      return;
    }
    current = opened;
    document.body.dataset.page = parts[0] || "home";
  } catch (error) {
    if (mine !== routed) return;
    fill(root, h("section", {class: "page"}, h("h1", {}, "This page could not be shown"),
      h("p", {class: "problem"}, explain(error, "opening the page")),
      h("p", {}, h("a", {href: "#/"}, "Back to the start"))));
    document.body.dataset.page = "error";
  }
  const heading = root.querySelector("h1");
  if (heading) heading.setAttribute("tabindex", "-1");
  if (heading && !(current && current.titled)) setBaseTitle(`${heading.textContent} · Pitch`);
}

/** Put the leaderboards and the player this browser plays as in the header's navigation. */
function drawIdentity() {
  const nav = document.querySelector(".site-head nav");
  if (!nav) return;
  if (!document.getElementById("nav-leaderboard")) {
    const board = h("a", {id: "nav-leaderboard", href: "#/leaderboard/partnership"}, "Leaderboards");
    nav.insertBefore(board, nav.children[1] || null);
  }
  const player = me();
  const old = document.getElementById("nav-me");
  if (old) old.remove();
  if (player) {
    nav.append(h("a", {id: "nav-me", class: "nav-me", href: `#/player/${encodeURIComponent(player.id)}`},
      h("span", {class: "nav-me-dot", "aria-hidden": "true"}, player.name.slice(0, 1).toUpperCase()),
      h("span", {class: "sr-only"}, "Your page: "), player.name));
  }
}

applySettings();
drawIdentity();
window.addEventListener("pitch-player", drawIdentity);
document.getElementById("settings-open").addEventListener("click", () => openSettings());
window.addEventListener("hashchange", route);
route();
