// The felt's motion and voice: cards dealt from the shoe (Web Animations, none when the
// player asks for reduced motion), the hole card turned, the end of each hand shown, and what
// a screen reader is told (the live region #announce). table.js draws the felt; this module
// animates what changed since the last view.

import { _, _n, lang } from "./i18n.js";
import { play } from "./sound.js";
import { el, money, resultText } from "./ui.js";

const $ = (id) => document.getElementById(id);
const DEAL_MS = 380;
const STAGGER_MS = 140;

/** True when the player asked the system for less motion. */
export function reducedMotion() {
  return window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** Tell a screen reader (the polite live region): one line per call, the last few kept. */
export function announce(text) {
  if (!text) return;
  const region = $("announce");
  region.append(el("p", {}, text));
  while (region.children.length > 6) region.firstChild.remove();
}

/** Fit every hand on the felt inside its box: where the cards overlapping as the style sheet
 * says would still stick out (a long hand in a narrow box, a phone), they overlap more. */
export function fitCards(root) {
  for (const row of root.querySelectorAll(".cards")) {
    row.style.removeProperty("--overlap");
    const cards = row.children.length;
    if (cards < 2 || row.scrollWidth <= row.clientWidth + 1) continue;
    const width = row.firstElementChild.getBoundingClientRect().width;
    const gap = parseFloat(getComputedStyle(row).columnGap) || 0;
    const step = Math.max(4, (row.clientWidth - width) / (cards - 1));
    row.style.setProperty("--overlap", `${Math.min(0, step - width - gap)}px`);
  }
}

/** The cards on the felt between views: which places held which card, so a card just dealt
 * flies in from the shoe and a hole card turned over flips, and nothing else moves. */
export class Dealing {
  constructor() {
    this.round = null;
    this.seen = new Map(); // place key -> card code ("" for a card face down)
    this.running = 0; // animations not finished (the felt's data-dealing)
    this.animated = 0; // cards animated since the page loaded (the browser test reads it)
  }

  /** Forget the cards of the previous round (a new round is dealt). */
  reset(round) {
    this.round = round;
    this.seen.clear();
  }

  /** Animate the felt's cards that are new or turned since the last call; ``quiet``: only
   * remember them (the first view after a (re)load shows the table as it is). Returns the
   * cards dealt, as {key, code}, in the order they were dealt on the felt. */
  update(felt, quiet) {
    const shoe = $("shoe").querySelector(".shoe-body") || $("shoe");
    const from = shoe.getBoundingClientRect();
    const dealt = [];
    const still = reducedMotion();
    for (const card of felt.querySelectorAll(".card[data-key]")) {
      const key = card.dataset.key;
      const code = card.dataset.card || "";
      const before = this.seen.get(key);
      this.seen.set(key, code);
      if (quiet || before === code) continue;
      if (before === undefined) {
        dealt.push({ key, code });
        if (!still) this.fly(card, from, dealt.length - 1);
      } else if (before === "" && code && !still) this.flip(card);
    }
    dealt.forEach((_d, i) => play("card", (i * STAGGER_MS) / 1000));
    return dealt;
  }

  track(animation) {
    this.running += 1;
    this.animated += 1;
    $("felt").dataset.dealing = String(this.running);
    const done = () => {
      this.running = Math.max(0, this.running - 1);
      $("felt").dataset.dealing = String(this.running);
    };
    animation.finished.then(done, done);
  }

  fly(card, from, n) {
    const to = card.getBoundingClientRect();
    const dx = from.left + from.width / 2 - (to.left + to.width / 2);
    const dy = from.top + from.height / 2 - (to.top + to.height / 2);
    const animation = card.animate(
      [
        { transform: `translate(${dx}px, ${dy}px) rotate(-20deg) scale(0.8)`, opacity: 0.2 },
        { transform: "translate(0, 0) rotate(0) scale(1)", opacity: 1 },
      ],
      { duration: DEAL_MS, delay: n * STAGGER_MS, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" },
    );
    this.track(animation);
  }

  flip(card) {
    const animation = card.animate(
      [{ transform: "rotateY(90deg)" }, { transform: "rotateY(0)" }],
      { duration: 260, easing: "ease-out" },
    );
    this.track(animation);
  }
}

/** The result of the player's boxes at the end of a round, shown on the felt for a moment
 * (and said to a screen reader): win, lose or push, and the amount. */
export function showOutcome(lastRound, me, boxNames, sideBets = []) {
  const box = $("outcome");
  const net = lastRound.net[me];
  if (net === undefined) {
    box.hidden = true;
    return;
  }
  const kind = net > 0 ? "win" : net < 0 ? "lose" : "push";
  const lines = [];
  let pushes = true;
  lastRound.boxes.forEach((b, i) => {
    if (b.player !== me) return;
    b.hands.forEach((h, j) => {
      if (!h.result) return;
      pushes = pushes && h.result === "push";
      const where = b.hands.length > 1 ? boxNames.hand(i, j) : boxNames.box(i);
      lines.push(`${where}: ${resultText(h.result)}${h.returned ? " \u2014 " + _("paid {amount}", { amount: money(h.returned) }) : ""}`);
    });
    for (const bet of sideBets) {
      const stake = b.side_bets && b.side_bets[bet.id];
      if (!stake) continue;
      const paid = (b.side_paid && b.side_paid[bet.id]) || 0;
      const text = _("{bet} {amount}", { bet: _(bet.title), amount: money(stake) });
      lines.push(paid ? `${text} \u2192 ${money(paid)}` : `${text} \u2014 ${_("lost")}`);
      pushes = false;
    }
  });
  let title;
  if (net > 0) title = _("You win {amount}", { amount: money(net) });
  else if (net < 0) title = _("You lose {amount}", { amount: money(-net) });
  else title = pushes ? _("Push: your bets come back") : _("Even: nothing won, nothing lost");
  box.className = `outcome ${kind}`;
  box.replaceChildren(el("strong", {}, title), ...lines.map((l) => el("span", {}, l)));
  box.hidden = false;
  play(kind, 0.2);
  announce([title, ...lines].join(". "));
  if (!reducedMotion()) {
    // each hand's result and each box's net pop up where they are
    for (const badge of document.querySelectorAll("#boxes .result, #boxes .net")) {
      badge.animate([{ transform: "scale(0.4)", opacity: 0 }, { transform: "scale(1.15)", opacity: 1, offset: 0.7 }, { transform: "scale(1)" }], {
        duration: 420,
        easing: "ease-out",
      });
    }
    box.animate(
      [{ transform: "scale(0.6)", opacity: 0 }, { transform: "scale(1.08)", opacity: 1, offset: 0.6 }, { transform: "scale(1)", opacity: 1 }],
      { duration: 450, easing: "ease-out" },
    );
  }
}

/** Hide the round's result (chips go down for the next round). */
export function hideOutcome() {
  $("outcome").hidden = true;
}

/** The dealer's shoe and discard tray: cards left and discards for a cut-card shoe, a
 * shuffling machine otherwise. */
export function renderShoe(shoe) {
  if (!shoe) return;
  const count = $("shoe-count");
  const tray = $("discard-count");
  $("shoe").classList.toggle("machine", shoe.kind === "continuous");
  if (shoe.kind === "continuous") {
    count.textContent = _("shuffling machine");
    tray.textContent = _("cards go back in the machine");
    $("discard-tray").style.setProperty("--depth", "0");
    $("shoe").title = _("A continuous shuffling machine: every round is dealt from a full shoe.");
    return;
  }
  const left = shoe.left === null ? "" : _n("{n} card left", "{n} cards left", shoe.left);
  count.textContent = left;
  tray.textContent = shoe.discards === null ? "" : _n("{n} discard", "{n} discards", shoe.discards);
  const depth = shoe.discards === null ? 0 : Math.min(1, shoe.discards / shoe.size);
  $("discard-tray").style.setProperty("--depth", String(depth));
  $("shoe").style.setProperty("--fill", String(shoe.left === null ? 1 : Math.min(1, shoe.left / shoe.size)));
  $("shoe").title = shoe.cut ? _("The cut card is out: a new shoe next round.") : left;
  $("shoe").classList.toggle("cut", Boolean(shoe.cut));
}

// ---------------------------------------------------------------- the house's printing
const SVG_NS = "http://www.w3.org/2000/svg";

function svgNode(tag, attrs = {}, text = null) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== null) node.textContent = text;
  return node;
}

/** The house's words printed on the felt, in the page's language, from the table's rules
 * (the view's ``table.felt``): the blackjack payout on the large arc, the dealer's soft-17
 * rule under it, and the insurance band where insurance is offered. */
export function feltWords(felt) {
  if (!felt) return [];
  const [win, stake] = felt.blackjack_pays;
  const ratio = _("{a} to {b}", { a: win, b: stake });
  const lines = [{ kind: "payout", text: _("Blackjack pays {ratio}", { ratio }) }];
  lines.push({
    kind: "dealer",
    text: felt.dealer_hits_soft_17
      ? _("Dealer must draw to 16, hit soft 17 and stand on hard 17s")
      : _("Dealer must draw to 16 and stand on all 17s"),
  });
  if (felt.insurance) {
    const two = _("{a} to {b}", { a: 2, b: 1 });
    lines.push({ kind: "insurance", text: _("Insurance pays {ratio}", { ratio: two }) });
  }
  return lines;
}

// the arcs the words follow (a 600 x 150 drawing, the players' edge of the table below)
const ARCS = {
  payout: { d: "M 40,22 Q 300,96 560,22", size: 26 },
  dealer: { d: "M 80,58 Q 300,124 520,58", size: 14 },
  insurance: { d: "M 130,100 Q 300,150 470,100", size: 14 },
};

/** Words as the house prints them: capitals, but a plural's "s" after a number stays small
 * ("ALL 17s"). */
export function printed(text) {
  return text.toLocaleUpperCase(lang()).replace(/(\d)S\b/g, "$1s");
}

/** Print the felt (#felt-print); drawn again only when the words change. */
export function renderFeltPrint(felt) {
  const root = $("felt-print");
  const lines = feltWords(felt);
  const key = lines.map((l) => l.text).join("|");
  if (root.dataset.key === key) return;
  root.dataset.key = key;
  const drawing = svgNode("svg", { viewBox: "0 0 600 150", class: "print", focusable: "false" });
  const defs = svgNode("defs");
  drawing.append(defs);
  for (const line of lines) {
    const arc = ARCS[line.kind];
    const id = `felt-arc-${line.kind}`;
    defs.append(svgNode("path", { id, d: arc.d }));
    if (line.kind === "insurance") {
      // the insurance band: two printed lines either side of the words
      drawing.append(svgNode("path", { d: "M 110,82 Q 300,136 490,82", class: "band" }));
      drawing.append(svgNode("path", { d: "M 150,118 Q 300,164 450,118", class: "band" }));
    }
    const text = svgNode("text", { class: `print-${line.kind}`, "font-size": arc.size, "text-anchor": "middle", "data-testid": `felt-${line.kind}` });
    const path = svgNode("textPath", { href: `#${id}`, startOffset: "50%" }, printed(line.text));
    text.append(path);
    drawing.append(text);
  }
  root.replaceChildren(drawing);
  // a long translation is squeezed onto its arc rather than cut off
  for (const text of drawing.querySelectorAll("text")) {
    const path = drawing.querySelector(`#felt-arc-${text.classList[0].slice(6)}`);
    const room = path.getTotalLength() * 0.94;
    if (text.getComputedTextLength() > room) {
      text.firstChild.setAttribute("textLength", String(Math.round(room)));
      text.firstChild.setAttribute("lengthAdjust", "spacingAndGlyphs");
    }
  }
}

// ---------------------------------------------------------------- celebrations
/** A blackjack or a big win, celebrated on the felt for a moment: the words, chips thrown up
 * and a short fanfare (when sounds are on). Nothing at all under reduced motion (the outcome
 * says it). Returns whether it was shown. */
export function celebrate(kind, amount = "") {
  if (reducedMotion()) return false;
  const root = $("celebration");
  const title = kind === "blackjack" ? _("Blackjack") + "!" : _("Big win!");
  const chips = [];
  for (let i = 0; i < 14; i++) {
    const chip = el("span", { class: `confetti disc ${["d5", "d10", "d25", "d100", "d500"][i % 5]}` });
    chips.push(chip);
  }
  root.replaceChildren(el("strong", { class: "words" }, title), ...(amount ? [el("span", { class: "amount" }, amount)] : []), ...chips);
  root.dataset.kind = kind;
  root.dataset.count = String(Number(root.dataset.count || 0) + 1);
  root.hidden = false;
  play(kind === "blackjack" ? "blackjack" : "big-win");
  const words = root.querySelector(".words");
  const shown = [
    words.animate(
      [
        { transform: "scale(0.3) rotate(-8deg)", opacity: 0 },
        { transform: "scale(1.2) rotate(3deg)", opacity: 1, offset: 0.35 },
        { transform: "scale(1) rotate(0)", opacity: 1, offset: 0.8 },
        { transform: "scale(1.05)", opacity: 0 },
      ],
      { duration: 1900, easing: "ease-out" },
    ),
  ];
  chips.forEach((chip, i) => {
    const angle = (i / chips.length) * Math.PI * 2;
    const dx = Math.cos(angle) * (120 + (i % 3) * 40);
    const dy = Math.sin(angle) * (60 + (i % 4) * 20) - 40;
    shown.push(
      chip.animate(
        [
          { transform: "translate(0, 0) scale(0.4)", opacity: 1 },
          { transform: `translate(${dx}px, ${dy}px) scale(1) rotate(${i * 50}deg)`, opacity: 1, offset: 0.55 },
          { transform: `translate(${dx * 1.1}px, ${dy + 90}px) scale(0.9) rotate(${i * 80}deg)`, opacity: 0 },
        ],
        { duration: 1500, delay: i * 25, easing: "cubic-bezier(.2,.7,.4,1)", fill: "backwards" },
      ),
    );
  });
  const mine = root.dataset.count;
  Promise.all(shown.map((a) => a.finished.catch(() => null))).then(() => {
    if (root.dataset.count === mine) root.hidden = true; // not a later one's
  });
  return true;
}

/** Stop a celebration (the player leaves the table). */
export function endCelebration() {
  const root = $("celebration");
  for (const a of root.getAnimations({ subtree: true })) a.cancel();
  root.replaceChildren();
  root.hidden = true;
}
