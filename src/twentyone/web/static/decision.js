// The decision panel of the table screen: the question asked (whose, which box and hand),
// its actions as buttons with their keys, amount fields, and the strategy hint.

import { N_, _, _p } from "./i18n.js";
import { cardEl, decisionText, el, fill, money, totalText } from "./ui.js";

const $ = (id) => document.getElementById(id);

// Keys for decisions: play actions, and y/n for the prompts.
export const PLAY_KEYS = { h: "hit", s: "stand", d: "double", p: "split", r: "surrender", e: "rescue" };
export const YES = { insurance: "insure", "even-money": "even-money", surrender: "surrender", switch: "switch" };
export const NO = { insurance: "no-insurance", "even-money": "no-even-money", surrender: "no-surrender", switch: "keep" };
const PROMPTS = {
  insurance: N_("Insurance?"),
  "even-money": N_("Even money for your blackjack?"),
  surrender: N_("Surrender now (half the bet back)?"),
  switch: N_("Switch the second cards of your two hands?"),
  play: N_("Your move"),
};
const LABELS = {
  hit: N_("Hit"), stand: N_("Stand"), double: N_("Double"), split: N_("Split"),
  surrender: N_("Surrender"), "no-surrender": N_("Play on"), rescue: N_("Rescue"), insure: N_("Insure"),
  "no-insurance": N_("No insurance"), "even-money": N_("Even money"), "no-even-money": N_("No"),
  switch: N_("Switch"), keep: N_("Keep"),
};

function prompt(kind) {
  return PROMPTS[kind] ? _(PROMPTS[kind]) : kind;
}

/** The label of a question's action. */
function actionLabel(kind, action) {
  return LABELS[action] ? _(LABELS[action]) : action;
}

/** The key of an action: the play keys are the terminal's (the same in every language); a
 * prompt's yes/no keys are y/n, and the language's own letters (ru д/н) also answer. */
function keyFor(kind, action) {
  if (kind === "play") {
    for (const [k, a] of Object.entries(PLAY_KEYS)) if (a === action) return k;
    return null;
  }
  if (YES[kind] === action) return _p("yes key", "y");
  if (NO[kind] === action) return _p("no key", "n");
  return null;
}

/** A pressed key as y or n when it is the language's yes or no letter. */
export function yesNo(k) {
  if (k === _p("yes key", "y").toLowerCase()) return "y";
  if (k === _p("no key", "n").toLowerCase()) return "n";
  return k;
}

/** Draw the question of the view's turn on the table screen ``screen`` (its buttons call
 * ``screen.decide`` and ``screen.decideAmount``). */
export function renderDecision(screen, v, me) {
  const t = v.turn;
  $("decision").hidden = !t;
  if (!t) {
    screen.actionsKey = null;
    return;
  }
  const mine = t.player === me;
  $("decision").classList.toggle("mine", mine);
  const at = { box: t.box + 1, hand: t.hand + 1 };
  const where = t.kind === "play" ? _("box {box}, hand {hand}", at)
    : t.partner !== null && t.partner !== undefined ? _("boxes {box} and {partner}", { box: t.box + 1, partner: t.partner + 1 })
    : _("box {box}", at);
  let ask = mine ? prompt(t.kind) : t.kind === "play" ? _("{player} to play", { player: t.player }) : `${t.player}: ${prompt(t.kind)}`;
  if (mine && t.kind === "insurance" && screen.myBoxes(v) > 1) ask = _("Insurance for all your boxes?");
  const hand = t.kind === "play" && v.boxes[t.box] && v.boxes[t.box].hands[t.hand];
  const against = hand && v.dealer ? " \u2014 " + _("{total} against the dealer's {card}", {
    total: totalText(hand.total, hand.soft), card: v.dealer.cards.length ? cardEl(v.dealer.cards[0]).getAttribute("aria-label") : "",
  }) : "";
  $("prompt").textContent = `${ask} \u2014 ${where}${mine ? against : ""}`;
  const buttons = [];
  // the hint: the exact best play for the cards left once the server has it, else the chart's
  const hinted = t.hint && $("show-hint").checked ? t.hint.decision : null;
  for (const action of t.actions) {
    if (action.endsWith(":N")) continue;
    const key = keyFor(t.kind, action);
    let label = actionLabel(t.kind, action);
    if (action === "insure" && t.amount_range) label = _("Insure {amount}", { amount: money(t.amount_range[1]) });
    buttons.push(
      el(
        "button",
        {
          type: "button",
          class: "action" + (action === hinted ? " hinted" : ""),
          "data-action": action,
          onclick: () => screen.decide(action),
        },
        label,
        key ? el("kbd", {}, key) : null,
      ),
    );
  }
  for (const action of t.actions) {
    if (!action.endsWith(":N") || !t.amount_range) continue;
    const name = action.slice(0, -2);
    const [lo, hi] = t.amount_range;
    buttons.push(
      el(
        "span",
        { class: "amount" },
        el("input", {
          type: "text",
          inputmode: "decimal",
          value: money(hi),
          "data-amount-for": name,
          "aria-label": _("{action} amount, {lo} to {hi}", { action: decisionText(name), lo: money(lo), hi: money(hi) }),
          size: 7,
        }),
        el("button", { type: "button", class: "action", "data-action": action, onclick: () => screen.decideAmount(name) }, name === "double" ? _("Double for") : _("Insure for")),
        el("span", { class: "range" }, `${money(lo)}\u2013${money(hi)}`),
      ),
    );
  }
  // the same question again (another player's change): keep the buttons, a typed amount
  // and the focus as they are
  const key = JSON.stringify([t.kind, t.box, t.hand, t.deadline, t.actions, t.amount_range, hinted]);
  if (screen.actionsKey !== key) {
    screen.actionsKey = key;
    fill($("actions"), buttons);
  }
  const hint = $("hint");
  hint.hidden = !(mine && hinted);
  if (mine && hinted) {
    const said = { decision: decisionText(hinted) };
    hint.textContent = t.hint.exact ? _("Best play for the cards left: {decision}", said) : _("Basic strategy: {decision}", said);
  }
}
