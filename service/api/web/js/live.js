// Following a game live: every stored event after a version, each delivered once and in
// order, to one callback. This module is the only place that knows how events arrive.
//
// The server's stream, GET /v1/games/{id}/stream (text/event-stream: one message per stored
// event, `data:` the event as GET /v1/games/{id}/events lists it, `id:` its version, resumed
// with Last-Event-ID or ?after=, comment heartbeats, `event: end` when the game ends), is
// read with fetch() and a small parser, since EventSource cannot send the seat token as a
// header. While the service has no such route (it answers 404), the game is followed by
// polling GET /v1/games/{id}/events?after=V every 700 ms while the page is visible.

const POLL_MS = 700;
const PAGE = 100;
let streamAvailable = null; // null: not tried yet on this page; then true or false

/**
 * Follow a game: call onEvent(event) for every event after `afterVersion`, in order, never
 * twice. `onStatus(state, detail)` hears "live", "polling", "reconnecting", "ended" and
 * "failed". Returns {stop()}.
 */
export function follow(gameId, token, afterVersion, onEvent, {onStatus = () => {}} = {}) {
  const state = {last: afterVersion, stopped: false, controller: null};
  const deliver = (event) => {
    if (state.stopped || typeof event.version !== "number" || event.version <= state.last) return false;
    state.last = event.version;
    onEvent(event);
    return event.type === "GameEnded";
  };
  const run = async () => {
    let failures = 0;
    while (!state.stopped) {
      try {
        let ended;
        if (streamAvailable !== false) {
          ended = await readStream(gameId, token, state, deliver, onStatus);
          if (ended === null) continue; // the service has no stream: poll from now on
        } else {
          ended = await pollOnce(gameId, token, state, deliver, onStatus);
        }
        failures = 0;
        if (ended) {
          onStatus("ended");
          return;
        }
      } catch (error) {
        if (state.stopped || error.name === "AbortError") return;
        if (error.status === 401 || error.status === 404) {
          onStatus("failed", error);
          return;
        }
        failures += 1;
        onStatus("reconnecting", error);
        await pause(Math.min(1000 * (error.retryAfter || 2 ** Math.min(failures, 4)), 15000), state);
      }
    }
  };
  run();
  return {
    stop() {
      state.stopped = true;
      if (state.controller) state.controller.abort();
    },
    get version() {
      return state.last;
    },
  };
}

function headers(token, accept) {
  const result = {Accept: accept};
  if (token) result.Authorization = `Bearer ${token}`;
  return result;
}

async function failure(response) {
  let problem = {};
  try {
    problem = await response.json();
  } catch {
    problem = {};
  }
  const error = new Error(problem.detail || `HTTP ${response.status}`);
  error.status = response.status;
  error.retryAfter = Number(response.headers.get("Retry-After")) || null;
  return error;
}

/** One page of the polled event list; returns true when the game ended. */
async function pollOnce(gameId, token, state, deliver, onStatus) {
  const response = await fetch(`/v1/games/${encodeURIComponent(gameId)}/events?after=${state.last}&limit=${PAGE}`, {
    headers: headers(token, "application/json"), cache: "no-store",
  });
  if (!response.ok) throw await failure(response);
  const page = await response.json();
  let ended = false;
  for (const event of page.events) ended = deliver(event) || ended;
  onStatus("polling");
  if (ended) return true;
  if (page.next === null || page.next === undefined) await pause(POLL_MS, state, true);
  return false;
}

/**
 * Read the stream until it ends; returns true at `event: end`, false when the connection
 * closed (to reconnect from the last version), null when the service has no stream.
 */
async function readStream(gameId, token, state, deliver, onStatus) {
  state.controller = new AbortController();
  const response = await fetch(`/v1/games/${encodeURIComponent(gameId)}/stream?after=${state.last}`, {
    headers: {...headers(token, "text/event-stream"), "Last-Event-ID": String(state.last)},
    cache: "no-store", signal: state.controller.signal,
  });
  const type = response.headers.get("Content-Type") || "";
  if (response.status === 404 || response.status === 405 || (response.ok && !type.startsWith("text/event-stream"))) {
    streamAvailable = false;
    state.controller.abort();
    return null;
  }
  if (!response.ok) throw await failure(response);
  streamAvailable = true;
  onStatus("live");
  const parser = new EventStreamParser();
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  for (;;) {
    const {value, done} = await reader.read();
    if (done) break;
    for (const message of parser.push(decoder.decode(value, {stream: true}))) {
      if (message.event === "end") {
        state.controller.abort();
        return true;
      }
      if (message.event !== "message" || !message.data) continue;
      if (deliver(JSON.parse(message.data))) {
        state.controller.abort();
        return true;
      }
    }
  }
  await pause(parser.retry, state);
  return false;
}

/** The text/event-stream format (the HTML standard's "Server-sent events"), fed chunk by chunk. */
export class EventStreamParser {
  constructor() {
    this.buffer = "";
    this.data = [];
    this.event = "";
    this.id = null;
    this.retry = 1000;
  }

  /** Take a chunk of text; return the messages it completes, as {event, data, id}. */
  push(chunk) {
    this.buffer += chunk;
    const messages = [];
    const lines = this.buffer.split(/\r\n|\r|\n/);
    this.buffer = lines.pop();
    for (const line of lines) {
      if (line === "") {
        if (this.data.length) messages.push({event: this.event || "message", data: this.data.join("\n"), id: this.id});
        else if (this.event === "end") messages.push({event: "end", data: "", id: this.id});
        this.data = [];
        this.event = "";
        continue;
      }
      if (line.startsWith(":")) continue; // a heartbeat comment
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? "" : line.slice(colon + 1);
      if (value.startsWith(" ")) value = value.slice(1);
      if (field === "data") this.data.push(value);
      else if (field === "event") this.event = value;
      else if (field === "id" && !value.includes("\0")) this.id = value;
      else if (field === "retry" && /^\d+$/.test(value)) this.retry = Number(value);
    }
    return messages;
  }
}

/** Wait `ms`, cut short by stop(); with `visible`, also until the page is visible again. */
function pause(ms, state, visible = false) {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      clearInterval(watch);
      document.removeEventListener("visibilitychange", wake);
      resolve();
    };
    const wake = () => {
      if (document.visibilityState === "visible") done();
    };
    const timer = setTimeout(() => {
      if (!visible || document.visibilityState !== "hidden") done();
      else document.addEventListener("visibilitychange", wake);
    }, ms);
    const watch = setInterval(() => {
      if (state.stopped) done();
    }, 200);
  });
}
