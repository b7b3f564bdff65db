// The player's settings, kept in this browser (store.js's preferences): card size, a
// four-colour deck, which moves ask for a confirmation, auto-playing a single legal card,
// the pace of the table, a sound and a browser notification on your turn. The dialog that
// changes them opens from the header on every page; a change is applied at once and told
// to the open page by a "pitch-settings" event on the document.

import {fill, h} from "./dom.js";
import {preference, setPreference} from "./store.js";

const DEFAULTS = {
  cardSize: "medium", fourColour: true, confirmBids: true, confirmPlays: false, autoPlay: false,
  speed: "normal", sound: false, notify: false,
};

export const SPEEDS = {slow: 1.7, normal: 1, fast: 0.35};

/** Return the current value of setting `name`. */
export function setting(name) {
  return preference(name, DEFAULTS[name]);
}

/** Keep a setting, apply it to the page and tell the open page. */
export function setSetting(name, value) {
  setPreference(name, value);
  applySettings();
  document.dispatchEvent(new CustomEvent("pitch-settings", {detail: {name, value}}));
}

/** Apply the settings that change how the page looks (card size, colours) to the document. */
export function applySettings() {
  document.body.dataset.cardSize = setting("cardSize");
  document.body.classList.toggle("two-colour", !setting("fourColour"));
}

function toggle(name, label, help) {
  const id = `setting-${name}`;
  return h("div", {class: "setting"},
    h("label", {class: "check-toggle", for: id}, h("input", {
      id, type: "checkbox", checked: Boolean(setting(name)), onchange: (e) => setSetting(name, e.target.checked),
    }), ` ${label}`),
    help ? h("p", {class: "setting-help"}, help) : null);
}

function choice(name, label, values) {
  const id = `setting-${name}`;
  return h("div", {class: "setting setting-choice"},
    h("label", {for: id}, label),
    h("select", {id, onchange: (e) => setSetting(name, e.target.value)},
      values.map(([value, words]) => h("option", {value, selected: setting(name) === value}, words))));
}

function notificationSetting() {
  const id = "setting-notify";
  const status = h("p", {class: "setting-help", id: "notify-status"});
  const supported = typeof Notification !== "undefined";
  const say = () => fill(status, !supported ? "This browser does not offer notifications."
    : Notification.permission === "denied" ? "The browser blocks notifications from this page; its site settings can allow them."
      : "Shown only while this tab is in the background.");
  say();
  const box = h("input", {id, type: "checkbox", checked: supported && setting("notify") && Notification.permission === "granted",
    disabled: !supported, onchange: async (e) => {
      const on = e.target.checked;
      if (on && Notification.permission !== "granted") {
        // Asked for here only, when the player turns it on: never by default.
        const answer = await Notification.requestPermission();
        if (answer !== "granted") e.target.checked = false;
      }
      setSetting("notify", e.target.checked);
      say();
    }});
  return h("div", {class: "setting"}, h("label", {class: "check-toggle", for: id}, box, " A notification on your turn and when your clock runs low"), status);
}

/** Open the settings dialog; resolve when it is closed. */
export function openSettings() {
  const before = document.activeElement;
  const dialog = h("dialog", {class: "dialog settings-dialog", id: "settings-dialog", "aria-labelledby": "settings-title"});
  const close = () => {
    dialog.close();
    dialog.remove();
    if (before && before.isConnected && typeof before.focus === "function") before.focus({preventScroll: true});
  };
  fill(dialog,
    h("h2", {id: "settings-title"}, "Settings"),
    h("p", {class: "muted"}, "Kept in this browser."),
    h("fieldset", {}, h("legend", {}, "Cards"),
      choice("cardSize", "Card size ", [["small", "Small"], ["medium", "Medium"], ["large", "Large"]]),
      toggle("fourColour", "Four-colour deck", "Spades black, hearts red, diamonds blue, clubs green; off: the classic red and black.")),
    h("fieldset", {}, h("legend", {}, "Your moves"),
      toggle("confirmBids", "Confirm bids and trump", "A bid or a suit is chosen first, then confirmed. Off: the first click bids."),
      toggle("confirmPlays", "Confirm card plays", "The first tap lifts a card, the second plays it."),
      toggle("autoPlay", "Play a single legal card by itself", "When only one card may be played, it is played for you.")),
    h("fieldset", {}, h("legend", {}, "The table"),
      choice("speed", "Pace of the other players' moves ", [["slow", "Slow"], ["normal", "Normal"], ["fast", "Fast"]])),
    h("fieldset", {}, h("legend", {}, "Your turn"),
      toggle("sound", "A sound on your turn and when your clock runs low"),
      notificationSetting()),
    h("div", {class: "dialog-buttons"}, h("button", {type: "button", class: "btn btn-primary", id: "settings-close", onclick: close}, "Done")));
  dialog.addEventListener("cancel", (e) => {
    e.preventDefault();
    close();
  });
  document.body.append(dialog);
  dialog.showModal();
  dialog.querySelector("#settings-close").focus();
}
