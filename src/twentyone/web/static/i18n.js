// The page's languages: the server's gettext catalogs (GET /api/i18n/<lang>, the same catalogs
// as the terminal game), messages with named placeholders and plural forms, money and typed
// amounts for the locale, the texts of index.html (data-i18n) and the choice of language.

const STORE_KEY = "twentyone.language";

const current = {
  lang: "en",
  messages: {},
  plural: (n) => (n !== 1 ? 1 : 0),
  decimal: ".",
  group: ",",
  languages: null, // code -> own name, from the first catalog loaded
};
// the server's language codes (their names come with each catalog)
const CODES = ["en", "ro", "pl", "pt", "hu", "ru"];

/** The language the page speaks now. */
export function lang() {
  return current.lang;
}

/** Every language of the server, code -> its own name (from the catalog). */
export function languages() {
  return current.languages || { en: "English" };
}

/** Mark a message for extraction; translate it later with _(). */
export const N_ = (message) => message;

/** Fill ``{name}`` / ``{name!r}`` placeholders; ``convert(name, value, conv)`` may render a
 * value (money, a decision), else it is written as is (``!r``: quoted, as Python writes it). */
export function format(text, params = {}, convert = null) {
  return text.replace(/\{(\w+)(?:!(\w))?\}/g, (whole, name, conv) => {
    if (!(name in params)) return whole;
    const value = params[name];
    const shown = convert ? convert(name, value, conv) : undefined;
    if (shown !== undefined) return shown;
    if (conv === "r") return typeof value === "string" ? `'${value}'` : JSON.stringify(value);
    return String(value);
  });
}

/** A message in the page's language, its placeholders filled from ``params``. */
export function _(msgid, params) {
  const t = current.messages[msgid];
  const text = typeof t === "string" && t ? t : msgid;
  return params ? format(text, params) : text;
}

/** A message with a context (gettext's pgettext). */
export function _p(context, msgid, params) {
  const t = current.messages[`${context}\u0004${msgid}`];
  const text = typeof t === "string" && t ? t : msgid;
  return params ? format(text, params) : text;
}

/** The plural form of a counted message for ``n`` ({n} is filled with ``n``). */
export function _n(singular, plural, n, params = {}) {
  return format(pluralForm(singular, n, plural), { n, ...params });
}

/** The form for ``n`` of a counted message, named by its singular msgid, as the catalog's
 * plural rule picks it (not filled in); ``plural`` is the English one, for a catalog without
 * the message. A message the catalog holds without forms is its translation. */
export function pluralForm(singular, n, plural = singular) {
  const forms = current.messages[singular];
  if (Array.isArray(forms) && forms.length) {
    return forms[Math.min(current.plural(n), forms.length - 1)] || (n === 1 ? singular : plural);
  }
  if (typeof forms === "string" && forms) return forms;
  return n === 1 ? singular : plural;
}

/** A whole number with the locale's group separator. */
export function number(value) {
  const text = String(Math.abs(Math.trunc(value))).replace(/\B(?=(\d{3})+(?!\d))/g, current.group);
  return value < 0 ? "-" + text : text;
}

/** Minor units as money for the locale: 123450 -> "1,234.50" (en), "1 234,50" (ru, pl, hu, pt;
 * a no-break space; pt is pt-PT), "1.234,50" (ro); ``sign`` adds + to a positive amount. */
export function money(units, sign = false) {
  const abs = Math.abs(units);
  const text = number(Math.floor(abs / 100)) + current.decimal + String(abs % 100).padStart(2, "0");
  if (units < 0) return "-" + text;
  return sign && units > 0 ? "+" + text : text;
}

/** A fraction as a percentage with the locale's decimal separator: 0.0052 -> "0.52%". */
export function percent(fraction, digits = 2) {
  return (fraction * 100).toFixed(digits).replace(".", current.decimal) + "%";
}

/** An amount as a player of the language types it, in minor units, or null (as the server's
 * i18n.parse_amount: where the decimal separator is a comma, "10,50" is ten and a half and
 * dots and spaces group thousands; "10.50" without a comma is read the same everywhere). */
export function parseMoney(text) {
  let value = String(text).trim();
  if (current.decimal === "," && value.includes(",")) {
    const at = value.lastIndexOf(",");
    value = value.slice(0, at).replace(/[.\s\u00a0\u202f]/g, "") + "." + value.slice(at + 1);
  } else if (current.lang !== "en") value = value.replace(/[\s\u00a0\u202f]/g, "");
  else value = value.replace(/,/g, "");
  const m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(value);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] || "0").padEnd(2, "0"));
}

/** A gettext plural expression (C: n, integers, ! % * / + - < > <= >= == != && || ?: and
 * parentheses) as a function of n, parsed once by precedence climbing. */
export function pluralRule(expr) {
  const tokens = expr.match(/\d+|n|&&|\|\||[=!<>]=|[-+*/%<>!?:()]/g) || [];
  let i = 0;
  const peek = () => tokens[i];
  const BINARY = [["||"], ["&&"], ["==", "!="], ["<", ">", "<=", ">="], ["+", "-"], ["*", "/", "%"]];
  const apply = {
    "||": (a, b) => +(a || b), "&&": (a, b) => +(a && b), "==": (a, b) => +(a === b),
    "!=": (a, b) => +(a !== b), "<": (a, b) => +(a < b), ">": (a, b) => +(a > b),
    "<=": (a, b) => +(a <= b), ">=": (a, b) => +(a >= b), "+": (a, b) => a + b,
    "-": (a, b) => a - b, "*": (a, b) => a * b, "/": (a, b) => Math.trunc(a / b), "%": (a, b) => a % b,
  };
  function primary() {
    const t = tokens[i++];
    if (t === "(") { const e = ternary(); i++; return e; }
    if (t === "!") { const e = primary(); return (n) => +!e(n); }
    if (t === "n") return (n) => n;
    const v = Number(t);
    return () => v;
  }
  function binary(level) {
    if (level === BINARY.length) return primary();
    let left = binary(level + 1);
    while (BINARY[level].includes(peek())) {
      const op = apply[tokens[i++]], l = left, r = binary(level + 1);
      left = (n) => op(l(n), r(n));
    }
    return left;
  }
  function ternary() {
    const cond = binary(0);
    if (peek() !== "?") return cond;
    i++;
    const yes = ternary();
    i++; // ":"
    const no = ternary();
    return (n) => (cond(n) ? yes(n) : no(n));
  }
  const rule = ternary();
  return (n) => Number(rule(n));
}

/** Load a language's catalog and speak it. */
export async function load(code) {
  const r = await fetch(`/api/i18n/${encodeURIComponent(code)}`, { credentials: "same-origin" });
  if (!r.ok) throw new Error(`GET /api/i18n/${code}: HTTP ${r.status}`);
  const data = await r.json();
  current.lang = data.lang;
  current.messages = data.messages;
  current.decimal = data.number.decimal;
  current.group = data.number.group;
  current.languages = data.languages || { [data.lang]: data.name };
  // gettext's plural expression is C; evaluated here without eval (the page's CSP forbids it)
  const rule = pluralRule(data.plural.expr);
  current.plural = (n) => rule(n);
  document.documentElement.lang = data.lang;
  translatePage();
  return data.lang;
}

/** Translate index.html's marked texts: an element with ``data-i18n`` (its text is the msgid)
 * and the attributes named in ``data-i18n-attr`` (their values are msgids). */
export function translatePage(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) {
    if (!node.dataset.msgid) node.dataset.msgid = node.textContent.replace(/\s+/g, " ").trim();
    node.textContent = _(node.dataset.msgid);
  }
  for (const node of root.querySelectorAll("[data-i18n-attr]")) {
    for (const attr of node.dataset.i18nAttr.split(/[\s,]+/).filter(Boolean)) {
      const key = `msgid-${attr}`;
      if (node.getAttribute(`data-${key}`) === null) node.setAttribute(`data-${key}`, node.getAttribute(attr) || "");
      node.setAttribute(attr, _(node.getAttribute(`data-${key}`)));
    }
  }
}

// ---------------------------------------------------------------- the choice of language
/** The first of the browser's languages the server speaks, or null. */
export function browserLanguage(known = CODES) {
  for (const tag of navigator.languages || [navigator.language || ""]) {
    const code = String(tag).toLowerCase().split(/[-_]/)[0];
    if (known.includes(code)) return code;
  }
  return null;
}

/** The language chosen in this browser before logging in (localStorage), or null. */
export function storedLanguage() {
  try {
    return localStorage.getItem(STORE_KEY);
  } catch {
    return null;
  }
}

/** Remember a choice in this browser (null forgets it). */
export function storeLanguage(code) {
  try {
    if (code) localStorage.setItem(STORE_KEY, code);
    else localStorage.removeItem(STORE_KEY);
  } catch {
    /* private mode: the account still remembers */
  }
}

/** The page's language, first of: the account's choice, the choice stored in this browser,
 * the browser's languages, English (docs/i18n.md). A table never picks it: it offers its
 * own (``offerText``). ``known`` lists the server's languages. */
export function chooseLanguage({ account = null, stored = null, known = null } = {}) {
  const codes = known || CODES;
  for (const code of [account, stored]) if (code && codes.includes(code)) return code;
  return browserLanguage(codes) || "en";
}

// A table's offer of its house language, each written in that language (its own catalog's
// translation: "Jogar em português" whatever the page speaks).
const OFFERS = {
  en: N_("Play in English"),
  ro: N_("Play in Romanian"),
  pl: N_("Play in Polish"),
  pt: N_("Play in Portuguese"),
  hu: N_("Play in Hungarian"),
  ru: N_("Play in Russian"),
};
const fetched = new Map(); // code -> Promise of its messages (the offers' catalogs)

/** The offer to play in ``code``, in that language (null for a language without one). */
export async function offerText(code) {
  const msgid = OFFERS[code];
  if (!msgid) return null;
  if (code === current.lang) return _(msgid);
  if (code === "en") return msgid;
  if (!fetched.has(code)) {
    fetched.set(
      code,
      fetch(`/api/i18n/${encodeURIComponent(code)}`, { credentials: "same-origin" })
        .then((r) => (r.ok ? r.json() : { messages: {} }))
        .then((data) => data.messages || {}, () => ({})),
    );
  }
  const messages = await fetched.get(code);
  const t = messages[msgid];
  return typeof t === "string" && t ? t : msgid;
}
