// Starting a game: a preset from GET /v1/rules/presets (its title, seats and the sentences of
// the rule text it comes from), any option changed within what GET /v1/rules/options allows,
// and each seat a person here, a computer of a level, or open to an invited player. A table may
// be listed among the open tables and have a turn clock. POST /v1/games returns one token per
// seat (an invite per open seat): the human seats' tokens and the open seats' invites are kept
// in this browser (store.js), then the table opens, its invite links in the share panel.
// The creation is sent with an Idempotency-Key, one per request: sent again when the service
// is busy or does not answer, or submitted again unchanged, it answers the game the first
// one created (the same tokens), never a second game. With a player kept in this browser
// (player.js), the first seat played here is that player's (`"player": "me"`, the player's
// token sent), and the game may be rated: every person's seat must then be a player's.

import {api, explain, isTransient, newKey, rulesCatalogue} from "./api.js";
import {fill, h, notify, sleep} from "./dom.js";
import {choiceWords, groupOptions, optionWords} from "./options.js";
import {playerRefused} from "./player.js";
import {me, rememberSeats} from "./store.js";
import {citations, howItPlays, sourceWords} from "./variants.js";

const DEFAULT_LEVEL = 3;

function optionInput(option, value, onchange) {
  const id = `opt-${option.name}`;
  if (option.type === "boolean") {
    return h("input", {id, type: "checkbox", checked: Boolean(value), onchange: (e) => onchange(e.target.checked)});
  }
  if (option.choices && option.choices.length) {
    return h("select", {id, onchange: (e) => onchange(e.target.value)},
      option.choices.map((c) => h("option", {value: c, selected: c === value}, choiceWords(c))));
  }
  if (option.type === "integer") {
    return h("input", {
      id, type: "number", step: "1", value: String(value), min: option.minimum ?? null, max: option.maximum ?? null,
      onchange: (e) => onchange(e.target.value === "" ? value : Number(e.target.value)),
    });
  }
  return h("input", {id, type: "text", value: String(value ?? ""), onchange: (e) => onchange(e.target.value)});
}

const CLOCKS = [[0, "No clock"], [30, "30 seconds"], [60, "1 minute"], [120, "2 minutes"], [300, "5 minutes"]];

function tableOptions(state) {
  return h("fieldset", {class: "table-options"}, h("legend", {}, "Table"),
    h("label", {class: "check-toggle"}, h("input", {type: "checkbox", id: "table-listed", onchange: (e) => { state.listed = e.target.checked; }}),
      " List it among the open tables (anyone may take a seat that is not by invite only)"),
    h("div", {class: "row"}, h("label", {for: "table-clock"}, "Turn clock "),
      h("select", {id: "table-clock", onchange: (e) => { state.clock = Number(e.target.value); }},
        CLOCKS.map(([value, label]) => h("option", {value: String(value)}, label))),
      h("label", {for: "table-stand-in"}, " then a computer of level "),
      h("select", {id: "table-stand-in", onchange: (e) => { state.standIn = Number(e.target.value); }},
        [1, 2, 3, 4, 5, 6].map((l) => h("option", {value: String(l), selected: l === DEFAULT_LEVEL}, String(l)))),
      h("span", {class: "muted"}, " acts for a person who has not.")),
    ratedToggle(state));
}

function ratedToggle(state) {
  const player = me();
  return h("div", {class: "rated-option"},
    h("label", {class: "check-toggle"}, h("input", {type: "checkbox", id: "table-rated", disabled: !player,
      "aria-describedby": "table-rated-help", onchange: (e) => { state.rated = e.target.checked; }}), " Rated: the result counts in the players' ratings"),
    h("p", {class: "muted", id: "table-rated-help"}, player
      ? "Every person at a rated table plays under a name: seat the others as invited players (they give a name when they join) or computers."
      : "Give your name first (at the top of the page) to play rated games."));
}

/** Return the new-game form. */
export async function renderNewGame() {
  const {presets, options} = await rulesCatalogue();
  const state = {preset: presets[0], overrides: {}, seats: [], seed: "", listed: false, clock: 0, standIn: DEFAULT_LEVEL};
  const about = h("div", {class: "preset-about"});
  const seatsBox = h("fieldset", {class: "seats"});
  const optionsBox = h("div", {class: "options"});
  const optionsSummary = h("summary", {}, "Rule options");
  const problem = h("div", {class: "form-problem", role: "alert"});
  const players = () => state.overrides.players ?? state.preset.rules.players;

  const resetSeats = () => {
    const n = players();
    state.seats = Array.from({length: n}, (_, i) => state.seats[i] || (i === 0 ? {kind: "human", level: null} : {kind: "ai", level: DEFAULT_LEVEL}));
    drawSeats();
  };
  const drawAbout = () => {
    const p = state.preset;
    const cited = citations(p.source);
    const players = p.players.minimum === p.players.maximum ? `${p.players.default} players` : `${p.players.minimum} to ${p.players.maximum} players`;
    fill(about,
      h("p", {class: "preset-title"}, h("strong", {}, p.title), ` · ${players}`),
      h("p", {class: "preset-how", id: "preset-how"}, howItPlays({...p.rules, ...state.overrides})),
      cited.length ? h("details", {class: "preset-source"},
        h("summary", {}, "From ", cited.map((c, i) => (i && cited[i - 1].text === c.text ? `, “${c.section}”`
          : [i ? "; " : "", h("cite", {}, c.text), `: “${c.section}”`]))),
        cited.map((c) => h("blockquote", {}, c.quotes.map((q) => h("p", {}, q)),
          h("footer", {}, "— ", h("cite", {}, c.text), `, “${c.section}”`)))) : null);
  };
  const drawSeats = () => {
    const p = state.preset;
    fill(seatsBox, h("legend", {}, "Seats"),
      p.players.minimum !== p.players.maximum ? h("div", {class: "row"},
        h("label", {for: "player-count"}, "Players "),
        h("input", {id: "player-count", type: "number", min: String(p.players.minimum), max: String(p.players.maximum), value: String(players()),
          onchange: (e) => {
            const n = Math.max(p.players.minimum, Math.min(p.players.maximum, Number(e.target.value) || p.players.default));
            if (n === p.rules.players) delete state.overrides.players;
            else state.overrides.players = n;
            resetSeats();
            drawOptions();
            drawAbout();
          }})) : null,
      state.seats.map((seat, i) => h("div", {class: "seat-row"},
        h("span", {class: "seat-label"}, `Seat ${i}`),
        h("label", {class: "sr-only", for: `seat-kind-${i}`}, `Seat ${i} is played by`),
        h("select", {id: `seat-kind-${i}`, onchange: (e) => {
          const kind = e.target.value;
          state.seats[i] = kind === "ai" ? {kind, level: DEFAULT_LEVEL} : {kind, level: null, inviteOnly: false};
          drawSeats();
        }}, h("option", {value: "human", selected: seat.kind === "human"}, "A person here"),
        h("option", {value: "open", selected: seat.kind === "open"}, "An invited player"),
        h("option", {value: "ai", selected: seat.kind === "ai"}, "The computer")),
        seat.kind === "open" ? h("label", {class: "check-toggle"}, h("input", {type: "checkbox", id: `seat-invite-only-${i}`, checked: seat.inviteOnly,
          onchange: (e) => { state.seats[i].inviteOnly = e.target.checked; }}), " by invite only") : null,
        seat.kind === "ai" ? [h("label", {class: "sr-only", for: `seat-level-${i}`}, `Seat ${i}'s level`),
          h("select", {id: `seat-level-${i}`, onchange: (e) => { state.seats[i].level = Number(e.target.value); }},
            [1, 2, 3, 4, 5, 6].map((l) => h("option", {value: String(l), selected: l === seat.level}, `Level ${l}${l === 1 ? " (beginner)" : l === 6 ? " (strongest)" : ""}`)))] : null)));
  };
  const drawOptions = () => {
    const changed = Object.keys(state.overrides).length;
    optionsSummary.textContent = changed ? `Rule options (${changed} changed from the preset)` : "Rule options (as the preset sets them)";
    fill(optionsBox, h("p", {class: "muted"}, "Every option the rule texts name, set as the preset plays it. Change any; the service refuses combinations that contradict each other and says which."),
      h("button", {type: "button", class: "btn btn-small", onclick: () => { state.overrides = {}; resetSeats(); drawOptions(); drawAbout(); }}, "Back to the preset's rules"),
      groupOptions(options.filter((o) => o.name !== "players")).map(([group, list]) => h("fieldset", {class: "option-group"},
        h("legend", {}, group),
        h("div", {class: "option-list"}, list.map((o) => optionRow(o))))));
  };
  const optionRow = (o) => {
    const value = o.name in state.overrides ? state.overrides[o.name] : state.preset.rules[o.name];
    const allowed = o.choices && o.choices.length ? `one of: ${o.choices.map(choiceWords).join(", ")}`
      : o.type === "integer" ? `${o.minimum ?? "any"} to ${o.maximum ?? "any"}` : o.type === "boolean" ? "yes or no" : "text";
    return h("div", {class: `option${o.name in state.overrides ? " option-changed" : ""}`, dataset: {option: o.name}},
      h("label", {for: `opt-${o.name}`}, optionWords(o.name).label),
      optionInput(o, value, (v) => {
        if (JSON.stringify(v) === JSON.stringify(state.preset.rules[o.name])) delete state.overrides[o.name];
        else state.overrides[o.name] = v;
        drawOptions();
        drawAbout();
        const again = document.getElementById(`opt-${o.name}`);
        if (again) again.focus({preventScroll: true});
      }),
      h("p", {class: "option-help"}, o.description),
      h("details", {class: "option-detail"}, h("summary", {}, "Details"),
        h("p", {}, "Allowed: ", allowed, "."),
        h("p", {}, "Source: ", sourceWords(o.source), "."),
        h("p", {}, "Option name: ", h("code", {}, o.name))));
  };
  const presetSelect = h("select", {id: "preset-select", onchange: (e) => {
    state.preset = presets.find((p) => p.name === e.target.value);
    state.overrides = {};
    state.seats = [];
    drawAbout();
    resetSeats();
    drawOptions();
  }}, presets.map((p) => h("option", {value: p.name}, p.title)));
  const seedInput = h("input", {id: "seed", type: "text", maxlength: "200", placeholder: "leave empty for fair, secret deals"});

  const submit = async (e) => {
    e.preventDefault();
    fill(problem);
    const button = e.submitter || e.target.querySelector("button[type=submit]");
    button.disabled = true;
    const player = me();
    const first = state.seats.findIndex((s) => s.kind === "human");
    const body = {
      rules: {preset: state.preset.name, options: state.overrides},
      seats: state.seats.map((s, i) => (s.kind === "ai" ? {kind: "ai", level: s.level}
        : s.kind === "open" ? {kind: "open", invite_only: Boolean(s.inviteOnly)}
          : player && i === first ? {kind: "human", player: "me"} : {kind: "human"})),
    };
    if (state.listed) body.listed = true;
    if (state.rated && player) body.rated = true;
    if (state.clock) body.clock = {seconds: state.clock, stand_in: {kind: "ai", level: state.standIn}};
    if (seedInput.value.trim()) body.seed = seedInput.value.trim();
    const sent = JSON.stringify(body);
    if (!state.creation || state.creation.sent !== sent) state.creation = {sent, key: newKey()};
    const key = state.creation.key;
    try {
      let created;
      for (let attempt = 1; ; attempt += 1) {
        try {
          created = await api("POST", "/v1/games", {body, key, token: player ? player.token : null});
          break;
        } catch (error) {
          // Busy or unreachable: the same request again under the same key creates the game once at most.
          if (!isTransient(error) || attempt >= 4) throw error;
          notify(explain(error, "creating the game"), "warn", error.retryAfter || 3);
          await sleep(1000 * (error.retryAfter || attempt));
        }
      }
      const held = {};
      const invites = {};
      for (const seat of created.seats) {
        if (seat.kind === "human") held[seat.seat] = seat.token;
        if (seat.kind === "open") invites[seat.seat] = seat.invite;
      }
      rememberSeats(created.id, held, {preset: created.preset, title: state.preset.title, invites});
      location.hash = Object.keys(held).length ? `#/game/${created.id}` : `#/watch/${created.id}`;
    } catch (error) {
      fill(problem, playerRefused(error, player) || h("p", {}, explain(error, "creating the game")));
      for (const name of (error.problem && error.problem.options) || []) {
        const row = optionsBox.querySelector(`[data-option="${name}"]`);
        if (row) row.classList.add("option-bad");
      }
      button.disabled = false;
    }
  };
  drawAbout();
  resetSeats();
  drawOptions();
  return h("form", {class: "new-game", onsubmit: submit, "aria-labelledby": "new-game-title"},
    h("h2", {id: "new-game-title"}, "New game"),
    h("div", {class: "row"}, h("label", {for: "preset-select"}, "Rules "), presetSelect),
    about,
    seatsBox,
    tableOptions(state),
    h("details", {class: "rule-options"}, optionsSummary, optionsBox),
    h("details", {class: "seed-options"}, h("summary", {}, "Reproducible deals"),
      h("label", {for: "seed"}, "Seed "), seedInput,
      h("p", {class: "muted"}, "With a seed the same deals come again; such a game is marked as not fair.")),
    problem,
    h("button", {type: "submit", class: "btn btn-primary", id: "start-game"}, "Start the game"));
}
