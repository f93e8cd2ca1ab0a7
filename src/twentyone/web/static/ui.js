// Small helpers shared by the page's modules: elements, money, cards, the JSON API, the game's
// words and the server's messages in the page's language.

import { N_, _, format, money } from "./i18n.js";

export { money, parseMoney } from "./i18n.js";

/** Build an element: el("div", {class: "x", onclick: f}, child, "text", ...). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const SUITS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
const SUIT_NAMES = { S: N_("spades"), H: N_("hearts"), D: N_("diamonds"), C: N_("clubs") };
const RANK_NAMES = { A: N_("ace"), J: N_("jack"), Q: N_("queen"), K: N_("king") };

/** A card face ("TD" -> 10 of diamonds, red) or, for null, the back of a card. */
export function cardEl(code) {
  if (!code) {
    const back = _("face-down card");
    return el("span", { class: "card back", title: back, "aria-label": back });
  }
  const rank = code[0] === "T" ? "10" : code[0];
  const suit = code[1];
  const red = suit === "H" || suit === "D";
  const name = _("{rank} of {suit}", { rank: RANK_NAMES[code[0]] ? _(RANK_NAMES[code[0]]) : rank, suit: _(SUIT_NAMES[suit]) });
  return el(
    "span",
    { class: `card ${red ? "red" : "black"}`, title: name, "aria-label": name, dataset: { card: code } },
    el("span", { class: "corner" }, rank, el("br"), SUITS[suit]),
    el("span", { class: "pip" }, SUITS[suit]),
  );
}

/** A row of cards, with ``hidden`` card backs after them. */
export function cardsEl(codes, hidden = 0) {
  const row = el("div", { class: "cards" });
  for (const c of codes) row.append(cardEl(c));
  for (let i = 0; i < hidden; i++) row.append(cardEl(null));
  return row;
}

/** "soft 17" / "21" / "" for a hand total. */
export function totalText(total, soft) {
  if (!total) return "";
  return soft && total <= 21 ? _("soft {total}", { total }) : String(total);
}

/** Call the JSON API; throws Error(detail) with .status on a non-2xx answer. */
export async function api(method, path, body) {
  const init = { method, headers: {}, credentials: "same-origin" };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const r = await fetch(path, init);
  if (r.status === 204) return null;
  let data = null;
  try {
    data = await r.json();
  } catch {
    data = null;
  }
  if (!r.ok) {
    const text = data && data.message ? serverText(data.message, data.params) : data && data.detail;
    const err = new Error(text || `${method} ${path}: HTTP ${r.status}`);
    err.status = r.status;
    throw err;
  }
  return data;
}

/** Replace a node's children. */
export function fill(node, ...children) {
  node.replaceChildren();
  for (const child of children.flat()) if (child !== null && child !== undefined) node.append(child);
}

const DECISIONS = {
  hit: N_("hit"), stand: N_("stand"), double: N_("double"), split: N_("split"),
  surrender: N_("surrender"), "no-surrender": N_("no surrender"), insure: N_("insure"),
  "no-insurance": N_("no insurance"), "even-money": N_("even money"),
  "no-even-money": N_("no even money"),
};

/** The spelling of a decision for people, in the page's language ("double:500" -> "double 5.00"). */
export function decisionText(d) {
  const [name, amount] = String(d).split(":");
  const word = DECISIONS[name] ? _(DECISIONS[name]) : name;
  return amount !== undefined && amount !== "N" ? _("{decision} {amount}", { decision: word, amount: money(Number(amount)) }) : word;
}

const RESULTS = {
  blackjack: N_("Blackjack"), win: N_("Win"), push: N_("Push"), lose: N_("Lose"), bust: N_("Bust"),
  surrender: N_("Surrendered"), "even-money": N_("Even money"),
};

/** A hand's result ("win", "push"...) for people, in the page's language. */
export function resultText(result) {
  return RESULTS[result] ? _(RESULTS[result]) : result;
}

/** The table's default action ("stand", "basic strategy", "exact") in the page's language. */
export function defaultActionText(name) {
  if (name === "basic strategy") return _("basic strategy");
  if (name === "exact") return _("the best play for the cards left");
  return decisionText(name);
}

// the server's parameters that are money (minor units) and box indices (0-based: shown + 1)
const MONEY_PARAMS = new Set(["amount", "bet", "held", "max", "min", "total", "balance"]);

function serverParam(name, value, conv) {
  if (name === "decision" && typeof value === "string") return conv === "r" ? `'${decisionText(value)}'` : decisionText(value);
  if (name === "default" && typeof value === "string") return defaultActionText(value);
  if (name === "summary" && value && typeof value === "object") {
    return Object.entries(value).map(([who, net]) => `${who} ${money(net, true)}`).join(", ");
  }
  if (conv === "r" || typeof value !== "number") return undefined;
  if (MONEY_PARAMS.has(name)) return money(value);
  if (name === "box") return String(value + 1);
  return undefined;
}

/** A message of the server (an error or notice: its catalog message and parameters) in the
 * page's language: money for the locale, boxes counted from 1, decisions in words. */
export function serverText(message, params = {}) {
  return format(_(message), params || {}, serverParam);
}
