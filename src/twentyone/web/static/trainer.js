// The trainer ("#/train"): a count drill (any of the server's counting systems) and
// basic-strategy or index flashcards (the published Hi-Lo sets) for a lobby table's rules. The server deals and grades (POST /api/train/count, /api/train/card: it works each
// answer out again from the cards sent); the page shows the cards at the chosen speed, times
// each answer and keeps the tally.

import { _, _n, percent } from "./i18n.js";
import { api, cardEl, cardsEl, decisionText, el, fill, totalText } from "./ui.js";

const $ = (id) => document.getElementById(id);

const state = {
  bound: false,
  tables: null,
  systems: null, // {counts: key -> name, indices: [set names]}
  question: null, // the count drill's question shown
  card: null, // the flashcard shown
  asked: 0, // when the answer was asked for (ms)
  flashTimer: null,
  tallies: { count: [], card: [] }, // [{right, seconds}]
};

function table() {
  return $("train-table").value;
}

/** A number with ``digits`` decimals and the locale's decimal separator. */
function decimal(value, digits) {
  const separator = percent(0, 1)[1]; // "0.0%" or "0,0 %": the locale's separator
  return value.toFixed(digits).replace(".", separator);
}

function tallyText(marks) {
  if (!marks.length) return _("No answers yet.");
  const right = marks.filter((m) => m.right).length;
  const seconds = marks.reduce((s, m) => s + m.seconds, 0) / marks.length;
  return _("{right} of {answered} right ({accuracy}), {seconds} s an answer on average", {
    right,
    answered: marks.length,
    accuracy: percent(right / marks.length),
    seconds: decimal(seconds, 1),
  });
}

function mark(kind, right) {
  const seconds = (performance.now() - state.asked) / 1000;
  state.tallies[kind].push({ right, seconds });
  $(`train-${kind}-tally`).textContent = tallyText(state.tallies[kind]);
}

function verdict(id, right, text) {
  const v = $(id);
  v.textContent = text;
  v.className = `train-verdict ${right ? "right" : "wrong"}`;
}

function error(id, err) {
  const v = $(id);
  v.textContent = err.message;
  v.className = "train-verdict wrong";
}

// ---------------------------------------------------------------- the count drill
async function deal() {
  clearTimeout(state.flashTimer);
  fill($("train-count-verdict"));
  $("train-count-form").hidden = true;
  const cards = Math.max(1, Math.min(52, Number($("train-cards").value) || 8));
  const speed = Math.max(0, Math.min(10, Number($("train-speed").value) || 0));
  let q;
  try {
    const count = encodeURIComponent($("train-system").value || "hilo");
    q = await api("GET", `/api/train/count?table=${encodeURIComponent(table())}&cards=${cards}&count=${count}`);
  } catch (err) {
    error("train-count-verdict", err);
    return;
  }
  state.question = q;
  const slot = $("train-flash");
  if (speed === 0) {
    fill(slot, cardsEl(q.cards));
    ask();
    return;
  }
  let i = 0;
  const next = () => {
    if (i >= q.cards.length) {
      fill(slot);
      ask();
      return;
    }
    fill(slot, cardEl(q.cards[i]));
    i += 1;
    state.flashTimer = setTimeout(next, speed * 1000);
  };
  next();
}

function ask() {
  const q = state.question;
  const withTrue = $("train-true-on").checked;
  $("train-true-wrap").hidden = !withTrue;
  const left = _n("{n} card left", "{n} cards left", q.cards_left);
  $("train-left").textContent = _("{left}, {decks} decks", { left, decks: decimal(q.decks_left, 2) });
  $("train-running").value = "";
  $("train-true").value = "";
  $("train-count-form").hidden = false;
  $("train-running").focus();
  state.asked = performance.now();
}

async function answerCount(e) {
  e.preventDefault();
  const q = state.question;
  if (!q) return;
  const running = Number($("train-running").value.trim().replace("\u2212", "-").replace(",", "."));
  const withTrue = $("train-true-on").checked;
  const trueCount = parseInt($("train-true").value.replace("\u2212", "-"), 10);
  if (!$("train-running").value.trim() || Number.isNaN(running) || (withTrue && Number.isNaN(trueCount))) {
    verdict("train-count-verdict", false, _("Type a whole number such as 3, -2 or 0."));
    return;
  }
  const body = { table: q.table, count: $("train-system").value || "hilo", cards: q.cards, running, true_count: withTrue ? trueCount : null, rounding: $("train-rounding").value || "floor" };
  try {
    const g = await api("POST", "/api/train/count", body);
    const right = g.running.right && (!g.true_count || g.true_count.right);
    const parts = [
      g.running.right
        ? _("Right: the running count is {count}", { count: g.running.expected })
        : _("Wrong: the running count is {right} (you said {given})", { right: g.running.expected, given: g.running.given }),
    ];
    if (g.true_count) {
      parts.push(
        g.true_count.right
          ? _("Right: the true count is {count}", { count: g.true_count.expected })
          : _("Wrong: the true count is {right} (you said {given})", { right: g.true_count.expected, given: g.true_count.given }),
      );
    }
    mark("count", right);
    verdict("train-count-verdict", right, parts.join(" \u00b7 "));
    fill($("train-flash"), cardsEl(q.cards));
    $("train-count-form").hidden = true;
    state.question = null;
  } catch (err) {
    error("train-count-verdict", err);
  }
}

// ---------------------------------------------------------------- flashcards
async function nextCard() {
  fill($("train-card-verdict"));
  let c;
  try {
    const deck = $("train-deck").value;
    const extra = deck ? `&indices=${encodeURIComponent(deck)}` : "";
    c = await api("GET", `/api/train/card?table=${encodeURIComponent(table())}${extra}`);
  } catch (err) {
    error("train-card-verdict", err);
    return;
  }
  state.card = c;
  fill(
    $("train-card"),
    el("div", { class: "train-hand" }, el("span", { class: "label" }, _("Your hand")), cardsEl(c.hand), el("span", { class: "total" }, totalText(c.total, c.soft))),
    el("div", { class: "train-hand" }, el("span", { class: "label" }, _("Dealer")), cardsEl([c.up])),
    c.true_count === null ? null : el("div", { class: "train-tc", "data-testid": "train-tc" }, _("true count {tc}", { tc: signed(c.true_count) })),
    c.insurance ? el("div", { class: "train-tc" }, _("Insurance?")) : null,
  );
  fill(
    $("train-plays"),
    c.plays.map((p) =>
      el(
        "button",
        { type: "button", "data-play": p, "data-testid": `train-play-${p}`, "aria-keyshortcuts": Object.keys(KEYS).find((k) => KEYS[k] === p), onclick: () => answerCard(p) },
        decisionText(p),
      ),
    ),
  );
  state.asked = performance.now();
}

async function answerCard(play) {
  const c = state.card;
  if (!c) return;
  try {
    const body = { table: c.table, hand: c.hand, up: c.up, play, indices: c.indices, true_count: c.true_count, insurance: c.insurance };
    const g = await api("POST", "/api/train/card", body);
    const why = g.rules.map(ruleText).join("; ");
    mark("card", g.right);
    verdict(
      "train-card-verdict",
      g.right,
      g.right
        ? _("Right: {play}", { play: decisionText(g.expected) })
        : why
          ? _("Wrong: {right} (you said {given}); {rule}", { right: decisionText(g.expected), given: decisionText(g.given), rule: why })
          : _("Wrong: the chart says {right} (you said {given})", { right: decisionText(g.expected), given: decisionText(g.given) }),
    );
    fill($("train-plays"));
    state.card = null;
  } catch (err) {
    error("train-card-verdict", err);
  }
}

function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

/** An index entry in words: "16 against T: stand at 0 or more, else hit". */
function ruleText(e) {
  const name = (p) => (p === "double-stand" ? _("double, else stand") : decisionText(p));
  return _("{hand} against {up}: {above} at {index} or more, else {below}", {
    hand: e.hand === "insurance" ? _("insurance") : e.hand,
    up: e.up,
    above: name(e.at_or_above),
    below: name(e.below),
    index: signed(e.index),
  });
}

// the keys of the plays, as at the table
const KEYS = { h: "hit", s: "stand", d: "double", p: "split", r: "surrender", y: "insure", n: "no-insurance" };

function onKey(e) {
  if ($("trainer-view").hidden || !state.card || e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
  const play = KEYS[e.key.toLowerCase()];
  if (play && state.card.plays.includes(play)) {
    e.preventDefault();
    answerCard(play);
  }
}

// ---------------------------------------------------------------- the screen
async function loadTables() {
  try {
    state.tables = await api("GET", "/api/tables");
  } catch (err) {
    error("train-count-verdict", err);
    return;
  }
  const menu = $("train-table");
  const chosen = menu.value;
  fill(menu, state.tables.map((t) => el("option", { value: t.id }, t.rules === t.name ? t.name : `${t.name} (${t.rules})`)));
  if (chosen) menu.value = chosen;
  try {
    state.systems = await api("GET", "/api/train/systems");
  } catch {
    state.systems = { counts: { hilo: "Hi-Lo" }, indices: [] };
  }
  fill($("train-system"), Object.entries(state.systems.counts).map(([key, name]) => el("option", { value: key }, name)));
  decks();
}

/** The flashcards' menu: basic strategy, then the index sets. */
function decks() {
  const menu = $("train-deck");
  const chosen = menu.value;
  const sets = state.systems ? state.systems.indices : [];
  fill(menu, el("option", { value: "" }, _("Basic strategy")), sets.map((name) => el("option", { value: name }, _("Index plays: {set}", { set: name.replace("+", " + ") }))));
  menu.value = chosen;
}

/** Show the trainer (the route "#/train"). */
export function open() {
  if (!state.bound) {
    state.bound = true;
    window.twentyoneTrainer = state; // for the console (and the browser test)
    $("train-deal").addEventListener("click", deal);
    $("train-count-form").addEventListener("submit", answerCount);
    $("train-next-card").addEventListener("click", nextCard);
    document.addEventListener("keydown", onKey);
  }
  relabel();
  if (!state.tables) loadTables();
}

/** Leave the trainer: stop a drill that is dealing. */
export function close() {
  clearTimeout(state.flashTimer);
}

/** Redraw what the trainer drew itself, in the page's language. */
export function relabel() {
  if (state.systems) decks();
  $("train-count-tally").textContent = tallyText(state.tallies.count);
  $("train-card-tally").textContent = tallyText(state.tallies.card);
}
