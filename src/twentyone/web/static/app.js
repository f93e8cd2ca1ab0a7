// The page: log in or register, the lobby, a table, session statistics and game recall.
// Routes: "#/" the lobby, "#/table/<id>" a table. Plain ES modules, no build step.

import { _, _n, chooseLanguage, lang, languages, load, percent, storedLanguage, storeLanguage } from "./i18n.js";
import { TableScreen } from "./table.js";
import * as trainer from "./trainer.js";
import { api, cardsEl, decisionText, el, fill, money, resultText, totalText } from "./ui.js";

const $ = (id) => document.getElementById(id);

const state = {
  me: null,
  screen: null, // the TableScreen shown, if any
  lobbyTimer: null,
  bannerTimer: null,
  stats: { rounds: 0, hands: 0, won: 0, lost: 0, pushed: 0, blackjacks: 0, net: 0, best: null, worst: null },
  seenRounds: new Set(),
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

function banner(text, kind = "info", ms = 0) {
  const b = $("banner");
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
  for (const id of ["auth-view", "lobby-view", "table-view", "trainer-view"]) $(id).hidden = id !== which;
  $("recall-view").hidden = which === "auth-view" || which === "trainer-view";
}

// ---------------------------------------------------------------- languages
/** Speak the language the precedence gives (docs/i18n.md) and redraw what is shown. */
async function applyLanguage() {
  const code = chooseLanguage({
    account: state.me && state.me.language,
    stored: storedLanguage(),
    table: state.tableLanguage,
  });
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
    el("h2", {}, t.name),
    facts,
    el("details", {}, el("summary", {}, _("Rule card")), el("pre", {}, t.rule_card)),
    el("div", { class: "row" },
      el("a", { class: "button" + (full ? " secondary" : ""), href: `#/table/${encodeURIComponent(t.id)}`, "data-sit": t.id }, full ? _("Watch") : _("Sit down")),
    ),
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
function countRound(lastRound, me) {
  if (state.seenRounds.has(lastRound.id) || !(me in lastRound.net)) return;
  state.seenRounds.add(lastRound.id);
  const s = state.stats;
  const net = lastRound.net[me];
  s.rounds += 1;
  s.net += net;
  s.best = s.best === null ? net : Math.max(s.best, net);
  s.worst = s.worst === null ? net : Math.min(s.worst, net);
  for (const box of lastRound.boxes) {
    if (box.player !== me) continue;
    for (const h of box.hands) {
      s.hands += 1;
      if (h.result === "blackjack") s.blackjacks += 1;
      if (["win", "blackjack", "even-money"].includes(h.result)) s.won += 1;
      else if (h.result === "push") s.pushed += 1;
      else s.lost += 1;
    }
  }
  renderStats();
}

function renderStats() {
  const s = state.stats;
  const rows = [
    [_("Rounds"), s.rounds],
    [_("Hands won / pushed / lost"), `${s.won} / ${s.pushed} / ${s.lost}`],
    [_("Blackjacks"), s.blackjacks],
    [_("Net"), money(s.net, true)],
    [_("Best / worst round"), s.best === null ? "\u2014" : `${money(s.best, true)} / ${money(s.worst, true)}`],
  ];
  if (state.me) rows.push([_("Since you joined"), money(state.me.balance - state.me.starting_balance, true)]);
  fill($("stats"), rows.flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, String(v))]));
}

function roundEl(r) {
  const replay = r.replay;
  const json = JSON.stringify(replay, null, 1);
  const clock = new Set(r.decided_by_clock || []);
  const result = r.result;
  const parts = [];
  if (result) {
    const d = result.dealer;
    parts.push(el("div", { class: "recall-line" }, el("span", { class: "who" }, _("Dealer")), cardsEl(d.cards), el("span", {}, d.blackjack ? resultText("blackjack") : totalText(d.total, false))));
    result.boxes.forEach((b, i) => {
      b.hands.forEach((h, j) => {
        const who = b.hands.length > 1
          ? _("{player}, box {box}, hand {hand}", { player: b.player, box: i + 1, hand: j + 1 })
          : _("{player}, box {box}", { player: b.player, box: i + 1 });
        parts.push(
          el(
            "div",
            { class: "recall-line" },
            el("span", { class: "who" }, who),
            cardsEl(h.cards),
            el("span", {}, _("{total} {result} (bet {amount})", { total: h.total, result: h.result ? resultText(h.result) : "", amount: money(h.bet) })),
          ),
        );
      });
    });
  }
  const decisions = (replay.decisions || []).map((d, i) =>
    el("li", { class: clock.has(i) ? "clock" : "" }, clock.has(i) ? _("{decision} (clock)", { decision: decisionText(d) }) : decisionText(d)),
  );
  const file = `twentyone-round-${r.id}.json`;
  const blob = URL.createObjectURL(new Blob([JSON.stringify(replay, null, 2) + "\n"], { type: "application/json" }));
  return el(
    "details",
    { class: "round", "data-round": r.id },
    el(
      "summary",
      {},
      el("span", { class: "rid" }, `#${r.id}`),
      el("span", {}, r.table),
      el("span", { class: `net ${r.net > 0 ? "up" : r.net < 0 ? "down" : "even"}` }, money(r.net, true)),
      el("span", { class: "muted" }, _("staked {amount}", { amount: money(r.staked) })),
      r.status !== "settled" ? el("span", { class: "muted" }, r.status === "refunded" ? _("refunded") : r.status) : null,
    ),
    ...parts,
    decisions.length ? el("ol", { class: "decisions" }, decisions) : el("p", { class: "muted" }, _("No decisions.")),
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
  );
}

async function loadRecall() {
  if (!state.me) return;
  try {
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
}

function loadRuleCard(id) {
  api("GET", `/api/tables/${encodeURIComponent(id)}?lang=${lang()}`)
    .then((t) => ($("table-rulecard").textContent = t.rule_card))
    .catch((err) => banner(err.message, "error", 4000));
}

async function tableLanguage(id) {
  try {
    const t = await api("GET", `/api/tables/${encodeURIComponent(id)}`);
    state.tableLanguage = t.language;
  } catch (err) {
    state.tableLanguage = null;
    banner(err.message, "error", 4000);
  }
  await applyLanguage();
  if (state.screen && state.screen.tableId === id) loadRuleCard(id);
}

function enterTable(id) {
  if (state.screen && state.screen.tableId === id) return;
  leaveTable();
  fill($("notices"));
  $("table-name").textContent = id;
  tableLanguage(id);
  state.screen = new TableScreen(id, {
    autoSit: true,
    banner,
    stillLoggedIn,
    onBalance: showBalance,
    onRoundEnd: (lastRound, me) => {
      countRound(lastRound, me);
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
    show("table-view");
    enterTable(decodeURIComponent(m[1]));
  } else {
    leaveTable();
    state.tableLanguage = null;
    show("lobby-view");
    await loadMe();
    loadLobby();
    state.lobbyTimer = setInterval(loadLobby, 5000);
  }
  renderStats();
  loadRecall();
}

async function main() {
  window.twentyone = state; // for the console (and the browser test): the page's state
  bindAuth();
  $("to-lobby").addEventListener("click", () => (location.hash = "#/"));
  $("show-hint").addEventListener("change", () => state.screen && state.screen.view && state.screen.render());
  $("language").addEventListener("change", (e) => chooseFromMenu(e.target.value));
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
