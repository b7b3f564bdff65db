// Building the page: a small element helper, the announcer for screen readers, and
// the notice bar where problems are told in words. Nothing here knows the game.

/** Return a new element: h("button", {class: "x", onclick: f}, "text", child...). */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") {
      node.addEventListener(name.slice(2), value);
    } else if (name === "class") {
      node.className = value;
    } else if (name === "style") {
      // Through the CSSOM: the page's Content-Security-Policy refuses inline style attributes.
      for (const rule of String(value).split(";")) {
        const colon = rule.indexOf(":");
        if (colon > 0) node.style.setProperty(rule.slice(0, colon).trim(), rule.slice(colon + 1).trim());
      }
    } else if (name === "dataset") {
      Object.assign(node.dataset, value);
    } else if (value === true) {
      node.setAttribute(name, "");
    } else {
      node.setAttribute(name, String(value));
    }
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace every child of `node` with `children`. */
export function fill(node, ...children) {
  node.replaceChildren();
  append(node, children);
  return node;
}

/** Say `text` to screen readers through the polite live region. */
export function announce(text) {
  const region = document.getElementById("announcer");
  if (!region) return;
  region.textContent = "";
  // A fresh text node after a tick makes the reader speak a repeat of the same words too.
  setTimeout(() => { region.textContent = text; }, 30);
}

let noticeTimer = null;

/** Show a notice at the top of the page: kind is "info", "warn" or "error". */
export function notify(text, kind = "info", seconds = 8) {
  const bar = document.getElementById("notice");
  if (!bar) return;
  clearTimeout(noticeTimer);
  fill(bar, h("p", {}, text), h("button", {
    type: "button", class: "notice-close", "aria-label": "Dismiss the notice",
    onclick: () => { bar.hidden = true; },
  }, "×"));
  bar.className = `notice notice-${kind}`;
  bar.setAttribute("role", kind === "error" ? "alert" : "status");
  bar.hidden = false;
  if (seconds > 0) noticeTimer = setTimeout(() => { bar.hidden = true; }, seconds * 1000);
}

/** Hide the notice bar. */
export function clearNotice() {
  const bar = document.getElementById("notice");
  if (bar) bar.hidden = true;
}

/** Resolve after `ms` milliseconds. */
export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Return a <details> section with a summary line and its body. */
export function section(title, body, {open = false, id = null, cls = "panel"} = {}) {
  return h("details", {class: cls, open, id}, h("summary", {}, title), body);
}

/**
 * Show a modal dialog with `body` and one button per choice ({label, value, primary}); resolve
 * to the chosen value (null when closed with Escape; `timeout.value` after `timeout.seconds`).
 * The dialog takes the focus and gives it back.
 */
export function ask(title, body, choices, {id = null, cls = "", timeout = null} = {}) {
  const before = document.activeElement;
  return new Promise((resolve) => {
    const dialog = h("dialog", {class: `dialog ${cls}`, id, "aria-labelledby": "dialog-title"});
    let timer = null;
    const finish = (value) => {
      clearTimeout(timer);
      if (!dialog.open) return;
      dialog.close();
      dialog.remove();
      // Back where it was, without scrolling: the table stays where the player left it.
      if (before && before.isConnected && typeof before.focus === "function") before.focus({preventScroll: true});
      resolve(value);
    };
    fill(dialog,
      h("h2", {id: "dialog-title"}, title),
      h("div", {class: "dialog-body"}, body),
      h("div", {class: "dialog-buttons"}, choices.map((c) => h("button", {
        type: "button", class: `btn${c.primary ? " btn-primary" : ""}`, dataset: {choice: String(c.value)},
        onclick: () => finish(c.value),
      }, c.label))));
    dialog.addEventListener("cancel", (e) => {
      e.preventDefault();
      finish(null);
    });
    document.body.append(dialog);
    dialog.showModal();
    const primary = dialog.querySelector(".btn-primary") || dialog.querySelector("button");
    if (primary) primary.focus({preventScroll: true});
    if (timeout) {
      // {seconds, value}: answer by itself (a spectator's table goes on), saying so.
      dialog.querySelector(".dialog-buttons").prepend(h("span", {class: "muted"}, `Goes on by itself in ${timeout.seconds} s`));
      timer = setTimeout(() => finish(timeout.value), timeout.seconds * 1000);
    }
  });
}

/** Offer `data` as a JSON file to save. */
export function download(name, data) {
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], {type: "application/json"}));
  const link = h("a", {href: url, download: name, hidden: true});
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// SVG's namespace, as the HTML parser gives its <svg> (the scripts name no address of the web).
const SVG_NS = (() => {
  const parsed = document.createElement("template");
  parsed.innerHTML = "<svg></svg>";
  return parsed.content.firstChild.namespaceURI;
})();

/** Make an SVG element, as h() makes an HTML one: attributes (null, undefined and false left out), then children. */
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined && value !== false) node.setAttribute(name, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    node.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return node;
}
