// The seat tokens this browser holds, kept in localStorage by game: the tokens a game's
// creation returned (one per human seat), any seat link opened here, and the invites of the
// open seats of the games created here. A token (or an invite) is shown by the API only
// once, so this is where a person's seats live between visits. Beside them, the player this
// browser plays as (docs/players.md): its id, name and token, made on the first visit.

const KEY = "pitch.games";

function load() {
  try {
    const data = JSON.parse(localStorage.getItem(KEY) || "{}");
    return data && typeof data === "object" ? data : {};
  } catch {
    return {};
  }
}

function save(data) {
  try {
    localStorage.setItem(KEY, JSON.stringify(data));
  } catch {
    // A browser that refuses storage still plays; the seats last as long as the page.
  }
}

/** Remember the seat tokens of a game: `seats` maps seat number to token. */
export function rememberSeats(gameId, seats, about = {}) {
  const data = load();
  const entry = data[gameId] || {seats: {}, created: new Date().toISOString()};
  entry.seats = {...entry.seats, ...seats};
  Object.assign(entry, about);
  data[gameId] = entry;
  save(data);
}

/** Return the tokens this browser holds for a game, as {seat: token}. */
export function seatsOf(gameId) {
  const entry = load()[gameId];
  return entry ? {...entry.seats} : {};
}

/** Return the invites this browser was given for a game's open seats, as {seat: invite}. */
export function invitesOf(gameId) {
  const entry = load()[gameId];
  return entry && entry.invites ? {...entry.invites} : {};
}

/** Return every game this browser holds seats of, newest first. */
export function knownGames() {
  return Object.entries(load())
    .map(([id, entry]) => ({id, ...entry}))
    .sort((a, b) => String(b.created).localeCompare(String(a.created)));
}

/** Forget a game's seats. */
export function forgetGame(gameId) {
  const data = load();
  delete data[gameId];
  save(data);
}

/** Return a page preference (speed, checking moves) or its default. */
export function preference(name, fallback) {
  try {
    const value = localStorage.getItem(`pitch.pref.${name}`);
    return value === null ? fallback : JSON.parse(value);
  } catch {
    return fallback;
  }
}

/** Keep a page preference. */
export function setPreference(name, value) {
  try {
    localStorage.setItem(`pitch.pref.${name}`, JSON.stringify(value));
  } catch {
    // as above
  }
}

const PLAYER = "pitch.player";

/** Return the player this browser plays as ({id, name, token}), or null before a name was given. */
export function me() {
  try {
    const found = JSON.parse(localStorage.getItem(PLAYER) || "null");
    return found && found.id && found.token ? found : null;
  } catch {
    return null;
  }
}

/** Keep the player made on a first visit: its token, like a seat's, is shown by the API only once. */
export function rememberMe(player) {
  try {
    localStorage.setItem(PLAYER, JSON.stringify({id: player.id, name: player.name, token: player.token}));
  } catch {
    // A browser that refuses storage plays under the name for as long as the page.
  }
  window.dispatchEvent(new CustomEvent("pitch-player", {detail: player}));
}

/** Forget the player this browser plays as (its token is no longer accepted): the name is asked again. */
export function forgetMe() {
  try {
    localStorage.removeItem(PLAYER);
  } catch {
    // as above
  }
  window.dispatchEvent(new CustomEvent("pitch-player", {detail: null}));
}
