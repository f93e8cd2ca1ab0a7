// The page: log in or register, the lobby, a table, session statistics and game recall.
// Routes: "#/" the lobby, "#/table/<id>" a table. Plain ES modules, no build step.

import { _, _n, chooseLanguage, lang, languages, load, offerText, percent, storedLanguage, storeLanguage } from "./i18n.js";
import { setSound, soundOn } from "./sound.js";
import { endCelebration } from "./felt.js";
import { TableScreen, arc } from "./table.js";
import { api, cardsEl, decisionText, el, fill, flagEl, houseLine, money, resultText, ruleCardEl, totalText } from "./ui.js";
import * as trainer from "./trainer.js";

const $ = (id) => document.getElementById(id);

const state = {
  me: null,
  screen: null, // the TableScreen shown, if any
  lobbyTimer: null,
  bannerTimer: null,
  stats: null, // the player's statistics, as the server keeps them (GET /api/me/stats)
  tableLanguage: null, // the language of the table shown, if it sets one
  lobby: null, // the tables as last loaded
};

// ---------------------------------------------------------------- header and banner
function showBalance(balance, pending = 0) {
  $("balance").textContent = money(balance);
  $("balance").dataset.units = String(balance);
  const p = $("pending");
  p.hidden = !pending;
  p.textContent = pending ? _("in chips {amount}", { amount: money(pending) }) : "";
  if (state.me) state.me.balance = balance;
}

/** Show a message above the page (``ms``: for that long). No text hides it; no text and
 * ``kind`` "error" hides only an error (a new attempt clears the last refusal). */
function banner(text, kind = "info", ms = 0) {
  const b = $("banner");
  if (!text && kind === "error" && !(b.classList.contains("error") && !b.hidden)) return;
  clearTimeout(state.bannerTimer);
  if (!text) {
    b.hidden = true;
    return;
  }
  b.textContent = text;
  b.className = `banner ${kind}`;
  b.hidden = false;
  if (ms) state.bannerTimer = setTimeout(() => (b.hidden = true), ms);
}

function show(which) {
  for (const id of ["auth-view", "lobby-view", "table-view", "missing-view", "trainer-view"]) $(id).hidden = id !== which;
  $("recall-view").hidden = which === "auth-view" || which === "missing-view" || which === "trainer-view";
}

// ---------------------------------------------------------------- languages
/** Speak the player's language (docs/i18n.md: the menu's choice, the account's, the
 * browser's languages, English; never the table's) and redraw what is shown. */
async function applyLanguage() {
  const code = chooseLanguage({ account: state.me && state.me.language, stored: storedLanguage() });
  if (code !== lang() || !state.languageLoaded) {
    try {
      await load(code);
      state.languageLoaded = true;
    } catch (err) {
      banner(err.message, "error", 4000);
    }
    redraw();
  }
  languageMenu();
  languageOffer();
}

/** At a table whose house speaks another language than the page: the offer to play in it,
 * written in that language; one click chooses it as the menu would (the menu undoes it). */
async function languageOffer() {
  const offer = $("language-offer");
  const code = state.tableLanguage;
  if (!code || code === lang()) {
    offer.hidden = true;
    return;
  }
  const text = await offerText(code);
  if (state.tableLanguage !== code || code === lang() || !text) return; // moved on meanwhile
  offer.textContent = text;
  offer.lang = code;
  offer.dataset.lang = code;
  offer.hidden = false;
}

function languageMenu() {
  const menu = $("language");
  const names = languages();
  if (menu.options.length !== Object.keys(names).length) {
    fill(menu, Object.entries(names).map(([code, name]) => el("option", { value: code, lang: code }, name)));
  }
  menu.value = lang();
}

async function chooseFromMenu(code) {
  storeLanguage(code);
  if (state.me) {
    try {
      state.me = await api("PUT", "/api/me/language", { language: code });
    } catch (err) {
      banner(err.message, "error", 4000);
    }
  }
  await applyLanguage();
}

/** Everything drawn from data again, in the page's language. */
function redraw() {
  if (state.me) showBalance(state.me.balance);
  renderStats();
  if (state.lobby && !$("lobby-view").hidden) {
    fill($("tables"), state.lobby.map(tableCard));
    loadLobby(); // the rule cards in the new language
  }
  if (state.me) loadRecall();
  if (state.screen) {
    loadRuleCard(state.screen.tableId);
    state.screen.relabel();
  }
  trainer.relabel();
}

// ---------------------------------------------------------------- accounts
async function loadMe() {
  try {
    state.me = await api("GET", "/api/me");
  } catch (err) {
    if (err.status !== 401) throw err;
    state.me = null;
  }
  $("who").hidden = !state.me;
  if (state.me) {
    $("me-name").textContent = state.me.username;
    showBalance(state.me.balance);
    const stored = storedLanguage();
    if (!state.me.language && stored) {
      // a choice made before logging in goes with the account
      state.me = await api("PUT", "/api/me/language", { language: stored }).catch(() => state.me);
    } else if (state.me.language) storeLanguage(state.me.language);
  }
  await applyLanguage();
  return state.me;
}

async function stillLoggedIn() {
  try {
    await api("GET", "/api/me");
    return true;
  } catch (err) {
    if (err.status === 401) {
      leaveTable();
      state.me = null;
      route();
      return false;
    }
    return true; // the server is away: keep trying
  }
}

function bindAuth() {
  const form = $("auth-form");
  let mode = "login";
  for (const b of form.querySelectorAll("button[type=submit]")) b.addEventListener("click", () => (mode = b.dataset.mode));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    $("auth-error").textContent = "";
    const body = { username: $("username").value.trim(), password: $("password").value };
    try {
      await api("POST", mode === "register" ? "/api/register" : "/api/login", body);
      $("password").value = "";
      await loadMe();
      route();
    } catch (err) {
      $("auth-error").textContent = err.message;
    }
  });
  $("logout").addEventListener("click", async () => {
    leaveTable();
    await api("POST", "/api/logout").catch(() => null);
    state.me = null;
    state.stats = null;
    $("who").hidden = true;
    location.hash = "#/";
    route();
  });
}

// ---------------------------------------------------------------- the lobby
function tableCard(t) {
  const taken = _("taken");
  const free = _("free");
  const seats = t.multi_player
    ? _n("{free} of {n} box free", "{free} of {n} boxes free", t.boxes, { free: t.free_boxes })
    : _n("{state}, up to {n} box", "{state}, up to {n} boxes", t.boxes_per_player, { state: t.players.length ? taken : free });
  const facts = el(
    "dl",
    { class: "facts" },
    el("dt", {}, _("Limits")), el("dd", {}, `${money(t.limits.min)} \u2013 ${money(t.limits.max)}`),
    el("dt", {}, _("House edge")), el("dd", { title: _("for a basic-strategy player") }, t.house_edge === null ? "\u2014" : percent(t.house_edge)),
    el("dt", {}, _("Boxes")), el("dd", { "data-testid": "free-boxes" }, seats),
    el("dt", {}, _("Players")), el("dd", {}, t.players.length ? t.players.join(", ") : _("nobody yet")),
    el("dt", {}, _("Game")), el("dd", {}, t.multi_player ? _("several players, {seconds} s countdown", { seconds: t.countdown_seconds }) : _("single player, deal button")),
  );
  const full = !t.multi_player && t.players.length && !(state.me && t.players.includes(state.me.username));
  return el(
    "article",
    { class: "table-card", "data-table": t.id },
    thumbnail(t),
    el("h2", {}, flagEl(t.country, lang()), " ", t.name),
    el("p", { class: "house muted" }, houseLine(t, lang())),
    facts,
    el("details", { class: "rulecard" }, el("summary", {}, _("Rule card")), ruleCardEl(t.rule_sections)),
    el("div", { class: "row" },
      el("a", { class: "button" + (full ? " secondary" : ""), href: `#/table/${encodeURIComponent(t.id)}`, "data-sit": t.id }, full ? _("Watch") : _("Sit down")),
    ),
  );
}

/** A table's felt in small (drawn by the style sheet): the dealer's side, its boxes on the
 * arc, the taken ones with a chip on them. */
function thumbnail(t) {
  const taken = t.multi_player ? t.boxes - t.free_boxes : t.players.length ? t.boxes : 0;
  const flag = flagEl(t.country, lang());
  if (flag) flag.setAttribute("class", "mini-flag"); // the tile's heading has the named one
  const spots = Array.from({ length: t.boxes }, (_x, i) => arc(el("span", { class: "seat" + (i < taken ? " taken" : "") }), i, t.boxes));
  return el(
    "div",
    { class: "thumb" + (t.multi_player ? " multi" : ""), "aria-hidden": "true" },
    el("span", { class: "thumb-dealer" }),
    el("span", { class: "thumb-flag" }, flag),
    el("span", { class: "thumb-spots" }, spots),
  );
}

async function loadLobby() {
  try {
    state.lobby = await api("GET", `/api/tables?lang=${lang()}`);
    fill($("tables"), state.lobby.map(tableCard));
  } catch (err) {
    banner(_("The lobby did not load: {error}", { error: err.message }), "error", 4000);
  }
}

// ---------------------------------------------------------------- statistics and recall
/** The player's statistics from the server (kept per account: a reload or a new login shows
 * the same numbers). */
async function loadStats() {
  if (!state.me) return;
  try {
    state.stats = await api("GET", "/api/me/stats");
  } catch (err) {
    if (err.status !== 401) banner(err.message, "error", 4000);
    return;
  }
  renderStats();
}

function renderStats() {
  const s = state.stats;
  if (!s) {
    fill($("stats"));
    return;
  }
  const rows = [
    [_("Rounds"), s.rounds, "rounds"],
    [_("Hands won / pushed / lost"), `${s.won} / ${s.pushed} / ${s.lost}`, "hands"],
    [_("Blackjacks"), s.blackjacks, "blackjacks"],
    [_("Staked"), money(s.staked), "staked"],
    [_("Net"), money(s.net, true), "net"],
    [_("Best / worst round"), s.best === null ? "\u2014" : `${money(s.best, true)} / ${money(s.worst, true)}`, "best"],
  ];
  if (state.me) rows.push([_("Since you joined"), money(state.me.balance - state.me.starting_balance, true), "joined"]);
  fill($("stats"), rows.flatMap(([k, v, id]) => [el("dt", {}, k), el("dd", { "data-stat": id }, String(v))]));
}

/** A side bet's outcome in recall: "Jackpot 1.00 → 25.00", or "— lost". */
function sideText(box, id, title) {
  const stake = box.side_bets[id];
  const paid = box.side_paid ? box.side_paid[id] : 0;
  const text = _("{bet} {amount}", { bet: _(title), amount: money(stake) });
  return paid ? `${text} \u2192 ${money(paid)}` : `${text} \u2014 ${_("lost")}`;
}

/** A recalled round: the dealer's and every hand's cards in aligned rows (a split's hands
 * one under the other), each decision with its box, hand and the cards it was taken on, the
 * cards in the order they left the shoe, and the replay JSON to copy or download. */
function roundEl(r) {
  const replay = r.replay;
  const json = JSON.stringify(replay, null, 1);
  const clock = new Set(r.decided_by_clock || []);
  const result = r.result;
  const rows = [];
  const table = (state.lobby || []).find((t) => t.id === r.table);
  const sideTitles = Object.fromEntries(((table && table.side_bets) || []).map((b) => [b.id, b.title]));
  if (result) {
    const d = result.dealer;
    rows.push(
      el("div", { class: "recall-row dealer-row" },
        el("span", { class: "who" }, _("Dealer")),
        cardsEl(d.cards),
        el("span", { class: "what" }, d.blackjack ? resultText("blackjack") : totalText(d.total, false))),
    );
    result.boxes.forEach((b, i) => {
      b.hands.forEach((h, j) => {
        const who = b.hands.length > 1
          ? _("{player}, box {box}, hand {hand}", { player: b.player, box: i + 1, hand: j + 1 })
          : _("{player}, box {box}", { player: b.player, box: i + 1 });
        rows.push(
          el("div", { class: "recall-row" + (j ? " split" : ""), "data-box": i, "data-hand": j },
            el("span", { class: "who" }, who),
            cardsEl(h.cards),
            el("span", { class: `what r-${h.result}` }, _("{total} {result} (bet {amount})", { total: h.total, result: h.result ? resultText(h.result) : "", amount: money(h.bet) }))),
        );
      });
      const extras = [];
      if (b.insurance) extras.push(_("insured {amount}", { amount: money(b.insurance) }));
      for (const id of Object.keys(b.side_bets || {})) extras.push(sideText(b, id, sideTitles[id] || id));
      if (extras.length) {
        rows.push(el("div", { class: "recall-row extras", "data-box": i }, el("span", { class: "who" }), el("span", { class: "what" }, extras.join(" \u00b7 "))));
      }
    });
  }
  const steps = r.steps && r.steps.length === (replay.decisions || []).length ? r.steps : null;
  const decisions = (replay.decisions || []).map((d, i) => {
    const said = clock.has(i) ? _("{decision} (clock)", { decision: decisionText(d) }) : decisionText(d);
    if (!steps) return el("li", { class: clock.has(i) ? "clock" : "" }, said);
    const s = steps[i];
    const where = s.kind === "play"
      ? _("{player}, box {box}, hand {hand}", { player: s.player, box: s.box + 1, hand: s.hand + 1 })
      : _("{player}, box {box}", { player: s.player, box: s.box + 1 });
    return el(
      "li",
      { class: "step" + (clock.has(i) ? " clock" : ""), "data-box": s.box, "data-hand": s.hand },
      el("span", { class: "where" }, where),
      s.cards.length ? cardsEl(s.cards) : el("span"),
      el("span", { class: "against" }, _("against"), " ", cardsEl(s.dealer)),
      el("strong", { class: "said" }, said),
    );
  });
  const order = String(replay.shoe || "").split(/\s+/).filter(Boolean);
  const file = `twentyone-${r.table}-round-${r.number}.json`;
  const blob = URL.createObjectURL(new Blob([JSON.stringify(replay, null, 2) + "\n"], { type: "application/json" }));
  return el(
    "details",
    { class: "round", "data-round": r.id, "data-number": r.number },
    el(
      "summary",
      {},
      el("span", { class: "rid" }, `#${r.number}`),
      el("span", { class: "recall-table" }, table ? table.name : r.table),
      el("span", { class: `net ${r.net > 0 ? "up" : r.net < 0 ? "down" : "even"}` }, money(r.net, true)),
      el("span", { class: "muted" }, _("staked {amount}", { amount: money(r.staked) })),
      r.status !== "settled" ? el("span", { class: "muted" }, r.status === "refunded" ? _("refunded") : r.status) : null,
    ),
    el("div", { class: "recall-grid" }, rows),
    el("h3", {}, _("Decisions")),
    decisions.length ? el("ol", { class: "decisions" + (steps ? " steps" : "") }, decisions) : el("p", { class: "muted" }, _("No decisions.")),
    order.length ? el("h3", {}, _("Cards in the order dealt")) : null,
    order.length ? el("div", { class: "shoe-order" }, cardsEl(order)) : null,
    el(
      "details",
      { class: "replay-json" },
      el("summary", {}, _("Replay JSON")),
      el(
        "div",
        { class: "row" },
        el("button", {
          type: "button",
          class: "secondary",
          onclick: async (e) => {
            try {
              await navigator.clipboard.writeText(json);
              e.target.textContent = _("Copied");
            } catch {
              e.target.closest("details").querySelector("textarea").select();
              e.target.textContent = _("Select and copy below");
            }
          },
        }, _("Copy replay JSON")),
        el("a", { class: "button secondary", href: blob, download: file }, _("Download")),
      ),
      el("textarea", { class: "replay", readonly: true, rows: 4, "aria-label": _("replay JSON") }, json),
    ),
  );
}

async function loadRecall() {
  if (!state.me) return;
  try {
    if (!state.lobby) state.lobby = await api("GET", `/api/tables?lang=${lang()}`); // side bets' titles
    const rounds = await api("GET", "/api/rounds?limit=10");
    for (const a of $("recall").querySelectorAll("a[download]")) URL.revokeObjectURL(a.href);
    fill($("recall"), rounds.length ? rounds.map(roundEl) : el("p", { class: "muted" }, _("No rounds yet.")));
  } catch (err) {
    if (err.status !== 401) banner(_("Recall did not load: {error}", { error: err.message }), "error", 4000);
  }
}

// ---------------------------------------------------------------- routing
function leaveTable() {
  if (state.screen) {
    state.screen.close();
    state.screen = null;
  }
  // nothing of the table left behind stays clickable while another one loads
  for (const id of ["betting", "decision", "watching"]) $(id).hidden = true;
  endCelebration(); // nor a celebration of its last round
}

function loadRuleCard(id) {
  api("GET", `/api/tables/${encodeURIComponent(id)}?lang=${lang()}`)
    .then((t) => fill($("table-rulecard"), ruleCardEl(t.rule_sections)))
    .catch((err) => banner(err.message, "error", 4000));
}

/** A table that does not exist: say so, with the way back (no felt, no socket). */
function showMissing(id) {
  leaveTable();
  state.tableLanguage = null;
  show("missing-view");
  $("missing-text").textContent = _("There is no table {table} in this lobby.", { table: `“${id}”` });
  document.title = `${_("No such table")} — twentyone`;
}

async function enterTable(id) {
  if ((state.screen && state.screen.tableId === id) || state.entering === id) return;
  leaveTable();
  let table;
  state.entering = id;
  try {
    table = await api("GET", `/api/tables/${encodeURIComponent(id)}`);
  } catch (err) {
    if (err.status === 404) showMissing(id);
    else banner(err.message, "error", 4000);
    return;
  } finally {
    state.entering = null;
  }
  if (state.screen || location.hash !== `#/table/${encodeURIComponent(id)}`) return; // left meanwhile
  show("table-view");
  fill($("notices"));
  fill($("boxes"));
  fill($("dealer-cards"));
  $("outcome").hidden = true;
  $("table-name").replaceChildren(flagEl(table.country, lang()) || "", " ", table.name);
  document.title = `${table.name} — twentyone`;
  state.tableLanguage = table.language;
  applyLanguage().then(() => state.screen && state.screen.tableId === id && loadRuleCard(id));
  state.screen = new TableScreen(id, {
    autoSit: true,
    banner,
    stillLoggedIn,
    onBalance: showBalance,
    onRoundEnd: () => {
      loadStats();
      loadRecall();
    },
  });
  state.screen.connect();
}

async function route() {
  clearInterval(state.lobbyTimer);
  if (!state.me) {
    leaveTable();
    state.tableLanguage = null;
    await applyLanguage();
    show("auth-view");
    $("username").focus();
    return;
  }
  const m = /^#\/table\/(.+)$/.exec(location.hash);
  if (location.hash === "#/train") {
    leaveTable();
    state.tableLanguage = null;
    await applyLanguage();
    show("trainer-view");
    trainer.open();
    return;
  }
  trainer.close();
  if (m) {
    enterTable(decodeURIComponent(m[1]));
  } else {
    leaveTable();
    state.tableLanguage = null;
    document.title = "twentyone";
    show("lobby-view");
    await loadMe();
    if (location.hash.startsWith("#/table/")) return; // gone to a table meanwhile
    loadLobby();
    state.lobbyTimer = setInterval(loadLobby, 5000);
  }
  loadStats();
  loadRecall();
}

async function main() {
  window.twentyone = state; // for the console (and the browser test): the page's state
  bindAuth();
  $("to-lobby").addEventListener("click", () => (location.hash = "#/"));
  $("show-hint").addEventListener("change", () => {
    if (state.screen && state.screen.hints) state.screen.hints($("show-hint").checked);
    if (state.screen && state.screen.view) state.screen.render();
  });
  const sound = $("sound");
  const soundState = () => sound.setAttribute("aria-pressed", soundOn() ? "true" : "false");
  sound.addEventListener("click", () => {
    setSound(!soundOn());
    soundState();
  });
  soundState();
  $("language").addEventListener("change", (e) => chooseFromMenu(e.target.value));
  $("language-offer").addEventListener("click", (e) => chooseFromMenu(e.currentTarget.dataset.lang));
  window.addEventListener("hashchange", route);
  try {
    await loadMe();
  } catch (err) {
    await applyLanguage();
    banner(_("The server did not answer: {error}", { error: err.message }), "error");
  }
  // a player seated somewhere (a reload, a dropped connection) goes back to their table
  if (state.me && state.me.table && ["", "#"].includes(location.hash)) {
    location.hash = `#/table/${encodeURIComponent(state.me.table)}`;
    return; // hashchange routes
  }
  route();
}

main();
