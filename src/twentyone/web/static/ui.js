// Small helpers shared by the page's modules: elements, money, cards, the JSON API.

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

/** Minor units as money: 1050 -> "10.50", with sign: 2500 -> "+25.00". */
export function money(units, sign = false) {
  const abs = Math.abs(units);
  const text = `${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
  if (units < 0) return "-" + text;
  return sign && units > 0 ? "+" + text : text;
}

/** Money as typed ("10", "10.5", "10.50") in minor units, or null. */
export function parseMoney(text) {
  const m = /^\s*(\d+)(?:[.,](\d{1,2}))?\s*$/.exec(String(text));
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] || "0").padEnd(2, "0"));
}

const SUITS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const RANK_NAMES = { A: "ace", T: "10", J: "jack", Q: "queen", K: "king" };

/** A card face ("TD" -> 10 of diamonds, red) or, for null, the back of a card. */
export function cardEl(code) {
  if (!code) return el("span", { class: "card back", title: "face-down card", "aria-label": "face-down card" });
  const rank = code[0] === "T" ? "10" : code[0];
  const suit = code[1];
  const red = suit === "H" || suit === "D";
  const name = `${RANK_NAMES[code[0]] || code[0]} of ${SUIT_NAMES[suit]}`;
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
  return soft && total <= 21 ? `soft ${total}` : String(total);
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
    const err = new Error((data && data.detail) || `${method} ${path}: HTTP ${r.status}`);
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

/** The spelling of a decision for people. */
export function decisionText(d) {
  const [name, amount] = String(d).split(":");
  const words = {
    hit: "hit", stand: "stand", double: "double", split: "split", surrender: "surrender",
    "no-surrender": "no surrender", insure: "insure", "no-insurance": "no insurance",
    "even-money": "even money", "no-even-money": "no even money",
  };
  const word = words[name] || name;
  return amount !== undefined ? `${word} ${money(Number(amount))}` : word;
}
