// Small helpers shared by the page's modules: elements, money, cards, the JSON API, the game's
// words and the server's messages in the page's language.

import { faceSvg } from "./cards.js";
import { N_, _, format, money, pluralForm } from "./i18n.js";

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

const SUIT_NAMES = { S: N_("spades"), H: N_("hearts"), D: N_("diamonds"), C: N_("clubs") };
const RANK_NAMES = { A: N_("ace"), J: N_("jack"), Q: N_("queen"), K: N_("king") };

/** A card face ("TD" -> 10 of diamonds, red: corner indices, pips or a court figure, drawn
 * by cards.js) or, for null, the back of a card. */
export function cardEl(code) {
  if (!code) {
    const back = _("face-down card");
    return el("span", { class: "card back", title: back, "aria-label": back, role: "img" });
  }
  const rank = code[0] === "T" ? "10" : code[0];
  const suit = code[1];
  const red = suit === "H" || suit === "D";
  const name = _("{rank} of {suit}", { rank: RANK_NAMES[code[0]] ? _(RANK_NAMES[code[0]]) : rank, suit: _(SUIT_NAMES[suit]) });
  const court = "JQK".includes(code[0]) ? " court" : "";
  const card = el("span", { class: `card ${red ? "red" : "black"}${court}`, title: name, "aria-label": name, role: "img", dataset: { card: code } });
  card.append(faceSvg(code));
  return card;
}

/** A row of cards, with ``hidden`` card backs after them; ``key`` names each card's place
 * (``key:0``, ``key:1``...) so the table can tell a card just dealt from one already there.
 * The more cards, the more they overlap: a hand of any length stays inside its box. */
export function cardsEl(codes, hidden = 0, key = null) {
  const n = codes.length + hidden;
  const row = el("div", { class: "cards" + (n >= 6 ? " lots" : n >= 4 ? " many" : "") });
  const all = [...codes, ...Array(hidden).fill(null)];
  all.forEach((c, i) => {
    const card = cardEl(c);
    if (key !== null) card.dataset.key = `${key}:${i}`;
    row.append(card);
  });
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
    const text = data && data.message ? serverText(data.message, data.params, data.count) : data && data.detail;
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
  surrender: N_("surrender"), "no-surrender": N_("no surrender"), rescue: N_("rescue"), insure: N_("insure"),
  "no-insurance": N_("no insurance"), "even-money": N_("even money"),
  "no-even-money": N_("no even money"), switch: N_("switch"), keep: N_("keep"),
};

/** The spelling of a decision for people, in the page's language ("double:500" -> "double 5.00"). */
export function decisionText(d) {
  const [name, amount] = String(d).split(":");
  const word = DECISIONS[name] ? _(DECISIONS[name]) : name;
  return amount !== undefined && amount !== "N" ? _("{decision} {amount}", { decision: word, amount: money(Number(amount)) }) : word;
}

const RESULTS = {
  blackjack: N_("Blackjack"), win: N_("Win"), push: N_("Push"), lose: N_("Lose"), bust: N_("Bust"),
  surrender: N_("Surrendered"), rescue: N_("Rescued"), "even-money": N_("Even money"),
  "bonus-21": N_("21 bonus"),
};

/** A hand's result ("win", "push"...) for people, in the page's language. */
export function resultText(result) {
  return RESULTS[result] ? _(RESULTS[result]) : result;
}

/** The table's default action ("stand", "basic strategy") in the page's language. */
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
 * page's language: money for the locale, boxes counted from 1, decisions in words. A counted
 * message (``count`` names the parameter that counts: "try again in {seconds} seconds") takes
 * the catalog's plural form for that number. */
export function serverText(message, params = {}, count = null) {
  const values = params || {};
  const text = count && typeof values[count] === "number" ? pluralForm(message, values[count]) : _(message);
  return format(text, values, serverParam);
}

// ---------------------------------------------------------------- chips
/** A table's chip denominations as multiples of its minimum (a casino's 1, 5, 10, 25, 100,
 * 500 and 1000), each with its one colour: the rack, a pending stake and a placed stake all
 * draw a denomination the same way. */
export const CHIP_FACTORS = [1, 5, 10, 25, 100, 500, 1000];

/** Chip values for a table's limits: the minimum and round multiples up to the maximum. */
export function chipValues(min, max) {
  const out = [];
  for (const f of CHIP_FACTORS) {
    const v = min * f;
    if (v <= max) out.push(v);
    if (out.length === 6) break;
  }
  return out;
}

/** The colour class of a chip of ``value`` at a table whose minimum is ``min`` ("d25": the
 * green of a 25-unit chip), "odd" for an amount no denomination makes. */
export function chipColour(value, min) {
  const f = value / min;
  return CHIP_FACTORS.includes(f) ? `d${f}` : "odd";
}

/** ``amount`` as chips of the table's denominations, largest first (what a dealer would
 * stack); a remainder no chip makes (a double for less, an insurance) is one odd chip. */
export function chipsFor(amount, min, max) {
  const values = chipValues(min, max).reverse();
  const out = [];
  let left = amount;
  for (const v of values) {
    while (left >= v && out.length < 40) {
      out.push(v);
      left -= v;
    }
  }
  if (left > 0) out.push(left);
  return out;
}

// the most chips a stack draws: a taller one is capped with a label of its count
const STACK_CAP = 12;

/** The chips of ``amount`` as a pile: one disc per chip (largest at the bottom), each a little
 * above the one under it, at most STACK_CAP drawn; a taller pile is capped with its count
 * (a style sheet label: the element's text stays the amount's). */
export function chipPile(amount, min, max) {
  const chips = chipsFor(amount, min, max);
  const stack = el("span", { class: "stack", "aria-hidden": "true", dataset: { chips: chips.length } });
  chips.slice(0, STACK_CAP).forEach((v, i) => {
    const disc = el("span", { class: `disc ${chipColour(v, min)}`, dataset: { value: v } });
    disc.style.setProperty("--i", String(i));
    stack.append(disc);
  });
  stack.style.setProperty("--n", String(Math.min(chips.length, STACK_CAP)));
  if (chips.length > STACK_CAP) stack.append(el("span", { class: "cap", dataset: { count: `\u00d7${chips.length}` } }));
  return stack;
}

/** A stack of chips for ``amount`` on its betting spot, the total written beside it. */
export function chipStack(amount, min, max, label = null) {
  return el(
    "span",
    { class: "chip-stack", dataset: { amount }, title: label || money(amount) },
    el("span", { class: "spot main-spot" }, chipPile(amount, min, max)),
    el("span", { class: "stack-amount" }, label || money(amount)),
  );
}

// ---------------------------------------------------------------- houses
// a few flags as stripes (drawn inline: no image is fetched, and emoji flags are missing on
// some systems); another country gets its regional-indicator emoji
const FLAGS = {
  RO: ["v", "#002b7f", "#fcd116", "#ce1126"],
  PL: ["h", "#ffffff", "#dc143c"],
  HU: ["h", "#ce2939", "#ffffff", "#477050"],
  RU: ["h", "#ffffff", "#0039a6", "#d52b1e"],
  PT: ["pt", "#006600", "#ff0000"],
};
const SVG = "http://www.w3.org/2000/svg";

function svgEl(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/** The country's name in the page's language (the browser's own list of names). */
export function countryName(code, language) {
  try {
    return new Intl.DisplayNames([language], { type: "region" }).of(code) || code;
  } catch {
    return code;
  }
}

/** A table's subtitle: its country and, where the table has a name of its own, the house
 * whose rules it deals (the rules file's [house]); rules without a house by their name. */
export function houseLine(t, language) {
  const rules = t.house ? (t.house !== t.name ? t.house : null) : t.rules;
  return [t.country ? countryName(t.country, language) : null, rules].filter(Boolean).join(" \u00b7 ");
}

/** A small flag for an ISO 3166-1 country code, labelled with the country's name. */
export function flagEl(code, language) {
  if (!code) return null;
  const name = countryName(code, language);
  const f = FLAGS[code];
  if (!f) {
    const emoji = String.fromCodePoint(...[...code].map((c) => 0x1f1e6 + c.charCodeAt(0) - 65));
    return el("span", { class: "flag", role: "img", "aria-label": name, title: name }, emoji);
  }
  const svg = svgEl("svg", { viewBox: "0 0 30 20", class: "flag", role: "img", "aria-label": name });
  const title = svgEl("title", {});
  title.textContent = name;
  svg.append(title);
  const [kind, ...colours] = f;
  if (kind === "pt") {
    svg.append(svgEl("rect", { x: 0, y: 0, width: 12, height: 20, fill: colours[0] }));
    svg.append(svgEl("rect", { x: 12, y: 0, width: 18, height: 20, fill: colours[1] }));
    svg.append(svgEl("circle", { cx: 12, cy: 10, r: 4.2, fill: "#ffe000" }));
    svg.append(svgEl("circle", { cx: 12, cy: 10, r: 2.6, fill: "#ffffff", stroke: "#ff0000", "stroke-width": 1 }));
  } else {
    colours.forEach((c, i) => {
      const part = 30 / colours.length;
      const h = 20 / colours.length;
      svg.append(
        kind === "v"
          ? svgEl("rect", { x: i * part, y: 0, width: part + 0.1, height: 20, fill: c })
          : svgEl("rect", { x: 0, y: i * h, width: 30, height: h + 0.1, fill: c }),
      );
    });
  }
  svg.append(svgEl("rect", { x: 0.25, y: 0.25, width: 29.5, height: 19.5, fill: "none", stroke: "rgba(0,0,0,0.35)", "stroke-width": 0.5 }));
  return svg;
}

/** A table's rule card as a panel: each section a titled list of its sentences. */
export function ruleCardEl(sections) {
  return el(
    "div",
    { class: "rule-panel" },
    (sections || []).map((s) =>
      el("section", { class: "rule-section" }, el("h3", {}, s.title), el("ul", {}, s.lines.map((line) => el("li", {}, line)))),
    ),
  );
}
