// The page's routes, kept in the address's fragment so a link can be shared and the server
// serves one document: #/ (start or find a game), #/game/ID (play a seat held here, or
// ?seat=N, or ?token=T from a seat link), #/watch/ID (a spectator), #/game/ID/hand/N (replay),
// #/join/ID/SEAT (take an open seat, ?invite=I from an invite link), #/audit and #/audit/ID.

import {explain} from "./api.js";
import {setBaseTitle} from "./attention.js";
import {clearNotice, fill, h} from "./dom.js";
import {applySettings, openSettings} from "./settings.js";

let current = null;

function parse(hash) {
  const [path, query = ""] = hash.replace(/^#/, "").split("?");
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  return {parts, params: new URLSearchParams(query)};
}

async function route() {
  const root = document.getElementById("app");
  if (current && current.close) current.close();
  current = null;
  clearNotice();
  const {parts, params} = parse(location.hash || "#/");
  window.scrollTo(0, 0);
  try {
    if (parts[0] === "game" && parts[1] && parts[2] === "hand" && parts[3]) {
      const {openReplay} = await import("./replay.js");
      current = await openReplay(root, parts[1], Number(parts[3]));
    } else if (parts[0] === "game" && parts[1]) {
      const {openGame} = await import("./game.js");
      const seat = params.has("seat") ? Number(params.get("seat")) : null;
      current = await openGame(root, parts[1], {seat, token: params.get("token")});
    } else if (parts[0] === "join" && parts[1] && parts[2]) {
      const {openJoin} = await import("./tables.js");
      current = await openJoin(root, parts[1], Number(parts[2]), params.get("invite"));
    } else if (parts[0] === "watch" && parts[1]) {
      const {openGame} = await import("./game.js");
      current = await openGame(root, parts[1], {watch: true});
    } else if (parts[0] === "audit") {
      const {openAudit} = await import("./audit.js");
      current = await openAudit(root, parts[1] || null);
    } else {
      const {openHome} = await import("./home.js");
      current = await openHome(root);
    }
    document.body.dataset.page = parts[0] || "home";
  } catch (error) {
    fill(root, h("section", {class: "page"}, h("h1", {}, "This page could not be shown"),
      h("p", {class: "problem"}, explain(error, "opening the page")),
      h("p", {}, h("a", {href: "#/"}, "Back to the start"))));
    document.body.dataset.page = "error";
  }
  const heading = root.querySelector("h1");
  if (heading) heading.setAttribute("tabindex", "-1");
  if (heading && !(current && current.titled)) setBaseTitle(`${heading.textContent} · Pitch`);
}

applySettings();
document.getElementById("settings-open").addEventListener("click", () => openSettings());
window.addEventListener("hashchange", route);
route();
