// The public REST API, as this page calls it: one fetch wrapper (JSON, or a hand's text) that turns every
// problem+json answer into an ApiProblem, the words a person reads for each problem,
// and waiting on hints and bid analyses (202, then their Location until done).

/** An answer of the API that is not a success, with its problem document. */
export class ApiProblem extends Error {
  constructor(status, problem, retryAfter) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
    this.kind = (problem.type || "").replace("/problems/", "") || "unknown";
    this.retryAfter = retryAfter;
  }
}

/**
 * Call the API: returns the parsed JSON body, or throws ApiProblem (status 0: no answer).
 * `body` is sent as JSON; `text` as text/plain (a hand in the notation).
 */
export async function api(method, path, {token = null, body = undefined, text = undefined, key = null, signal = undefined} = {}) {
  const headers = {Accept: "application/json"};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (text !== undefined) headers["Content-Type"] = "text/plain; charset=utf-8";
  if (key) headers["Idempotency-Key"] = key;
  const sent = text !== undefined ? text : body === undefined ? undefined : JSON.stringify(body);
  let response;
  try {
    response = await fetch(path, {method, headers, body: sent, signal, cache: "no-store"});
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new ApiProblem(0, {type: "/problems/offline", detail: "the service did not answer"}, 2);
  }
  const answer = await response.text();
  let data = null;
  try {
    data = answer ? JSON.parse(answer) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    const retry = Number(response.headers.get("Retry-After")) || null;
    throw new ApiProblem(response.status, data && typeof data === "object" ? data : {detail: answer.slice(0, 200)}, retry);
  }
  return data;
}

/** Return the sentence a person reads for a problem, in the words of what they were doing. */
export function explain(error, doing = "") {
  if (!(error instanceof ApiProblem)) return `Something went wrong${doing ? ` while ${doing}` : ""}: ${error.message}`;
  const p = error.problem;
  const wait = error.retryAfter ? ` Trying again in ${error.retryAfter} s.` : "";
  switch (error.kind) {
    case "offline":
      return `The service cannot be reached; check the connection.${wait || " Retrying."}`;
    case "version-conflict":
      return "The game moved on before your move arrived (another seat acted first). The table is refreshed: look and choose again.";
    case "illegal-action":
      return `That move is not allowed: ${p.reason || p.detail}.`;
    case "idempotency-key-reused":
      return "That move was already sent with different content; the table is refreshed.";
    case "rate-limited":
      return `Too many requests in a short time: ${p.detail}.${error.retryAfter ? "" : " Wait a moment."}`;
    case "unavailable":
      return `The service is briefly unavailable (its database cannot be reached).${wait || " Try again shortly."}`;
    case "unauthorized":
      return "This seat's link is not valid for this game: its token was not accepted. You can still watch the game.";
    case "not-found":
      return `Not found: ${p.detail}.`;
    case "game-not-finished":
      return "The game is still being played; its whole record is given once it has ended.";
    case "hand-not-finished":
      return "This hand is still being played; its record and proof are given once it is over.";
    case "invalid-rules":
      return `Those rules cannot be played: ${p.detail}.`;
    case "malformed-request":
      return `The request was not understood: ${p.detail}.`;
    case "log-altered":
      return `This game's stored history was changed outside the service and no longer verifies (from version ${p.first_bad_version}). Open its audit for details.`;
    default:
      return `The service failed${doing ? ` while ${doing}` : ""} (${error.status}): ${p.detail || p.title || "no detail"}.`;
  }
}

/** Return whether repeating the same request later may succeed. */
export function isTransient(error) {
  return error instanceof ApiProblem && (error.status === 0 || error.status === 429 || error.status === 503 || error.status >= 500 && error.kind === "internal");
}

/**
 * Ask for a hint or a bid analysis (POST answering 202 with its id) and wait until it is no longer pending.
 * `kind` is "hints" or "bid-analyses"; `onPending` is called once the job is accepted.
 */
export async function awaitJob(kind, accepted, token, {timeoutMs = 60000, signal = undefined} = {}) {
  const started = Date.now();
  let delay = 150;
  for (;;) {
    const job = await api("GET", `/v1/${kind}/${accepted.id}`, {token, signal});
    if (job.status !== "pending") return job;
    if (Date.now() - started > timeoutMs) return {...job, status: "timeout"};
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(delay * 1.5, 1000);
  }
}

/** Return a fresh idempotency key for one action. */
export function newKey() {
  if (crypto.randomUUID) return `web-${crypto.randomUUID()}`;
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `web-${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

let catalogue = null;

/** Return the rule presets and options (GET /v1/rules/presets and /options), fetched once per page. */
export async function rulesCatalogue() {
  if (!catalogue) {
    const [presets, options] = await Promise.all([api("GET", "/v1/rules/presets"), api("GET", "/v1/rules/options")]);
    catalogue = {presets: presets.presets, options: options.options};
  }
  return catalogue;
}
