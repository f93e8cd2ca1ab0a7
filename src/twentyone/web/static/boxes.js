// The boxes on the felt and the betting panel: how TableScreen (table.js) draws the boxes on
// their arc, their hands, stakes and side bets, and the chips to bet with. The methods are
// TableScreen's own: table.js mixes boxMethods into its prototype, so ``this`` is the screen.

import { _ } from "./i18n.js";
import {
  cardsEl, chipColour, chipPile, chipStack, chipValues, el, fill, money, resultText, totalText,
} from "./ui.js";

const $ = (id) => document.getElementById(id);

/** A box's place on the table's arc: ``--t`` from -1 (the first box, on the dealer's left) to
 * 1, ``--t2`` its square (how far the box sits from the dealer, the middle box nearest the
 * players' edge): the style sheet turns and lowers each box from them. */
export function arc(node, i, n) {
  const t = n > 1 ? (2 * i) / (n - 1) - 1 : 0;
  node.style.setProperty("--t", t.toFixed(3));
  node.style.setProperty("--t2", (t * t).toFixed(3));
  return node;
}

/** TableScreen's methods that draw the boxes and the betting panel. */
export const boxMethods = {
  /** A box's side stakes by the table's side bets (generic: a kind's title comes from the
   * catalog), each with what it paid once settled. */
  sideStakes(box, settled = false) {
    const bets = (this.view && this.view.table.side_bets) || [];
    return bets
      .filter((b) => box.side_bets && box.side_bets[b.id])
      .map((b) => {
        let paid = box.side_paid ? box.side_paid[b.id] : undefined;
        if (paid === undefined && settled && box.net !== null && box.net !== undefined) paid = 0; // the round is over
        const title = _(b.title);
        const text = _("{bet} {amount}", { bet: title, amount: money(box.side_bets[b.id]) });
        const after = paid === undefined ? "" : paid ? " \u2192 " + money(paid) : " \u2014 " + _("lost");
        const { min, max } = this.view.table.limits;
        return el(
          "span",
          { class: "side-stake" + (paid === 0 ? " lost" : paid ? " won" : ""), "data-side": b.id },
          el("span", { class: "spot side-spot" }, chipPile(box.side_bets[b.id], min, max)),
          el("span", { class: "side-text" }, text + after),
        );
      });
  },

  /** Where the next chip goes: the main bet or one of the table's side bets, each showing
   * its paytable (line titles from the catalog). */
  renderSides(bets) {
    const wrap = $("side-wrap");
    wrap.hidden = !bets.length;
    if (!bets.some((b) => b.id === this.side)) this.side = "main";
    const choice = (id, label, title) =>
      el(
        "label",
        { class: "side-choice", title },
        el("input", {
          type: "radio",
          name: "side",
          value: id,
          "data-testid": `side-${id}`,
          checked: this.side === id,
          onchange: () => {
            this.side = id;
          },
        }),
        " " + label,
      );
    fill(wrap, [
      choice("main", _("main bet"), ""),
      ...bets.map((b) =>
        choice(
          b.id,
          _(b.title),
          b.lines
            .map((l) => {
              const line = _(l.title, { n: l.line });
              return _("{line}: {pays} to 1", { line, pays: l.pays });
            })
            .join("\n"),
        ),
      ),
    ]);
  },

  renderBoxes(v, me) {
    const root = $("boxes");
    const t = v.turn;
    const last = v.phase === "betting" && v.last_round ? v.last_round.boxes : null;
    const boxes = v.boxes.map((box, i) => {
      const shown = v.phase === "playing" ? box : last && last[i] && last[i].player ? last[i] : null;
      const owner = box.player || (shown && shown.player);
      const mine = owner === me;
      const cls = ["box"];
      if (mine) cls.push("mine");
      else if (owner) cls.push("theirs");
      else cls.push("free");
      if (t && t.box === i) cls.push("turn");
      if (v.phase === "betting" && v.you.seated && (!box.player || box.player === me)) cls.push("bettable");
      const node = el(
        "div",
        { class: cls.join(" "), dataset: { box: i }, "data-testid": `box-${i}` },
        el("div", { class: "box-head" }, el("span", { class: "num" }, i + 1), el("span", { class: "owner" }, owner || _("free"))),
      );
      arc(node, i, v.boxes.length);
      if (shown) {
        const hands = el("div", { class: "hands" + (v.phase === "betting" ? " last" : "") });
        shown.hands.forEach((h, j) => {
          const hcls = ["hand"];
          if (h.active) hcls.push("active");
          if (h.result) hcls.push(`r-${h.result}`);
          const info = [];
          info.push(el("span", { class: "total" }, h.surrendered ? "" : totalText(h.total, h.soft)));
          info.push(el("span", { class: "hand-bet" }, h.doubled ? _("bet {amount} doubled", { amount: money(h.bet) }) : _("bet {amount}", { amount: money(h.bet) })));
          // the house's stake from free doubles and splits (Free Bet)
          if (h.free) info.push(el("span", { class: "hand-free", "data-testid": `free-${i}-${j}` }, _("free bet {amount}", { amount: money(h.free) })));
          // Blackjack Switch: the hand's second card came from the pair's other hand
          if (h.switched) info.push(el("span", { class: "hand-switched", "data-testid": `switched-${i}-${j}` }, _("switched")));
          if (h.result) {
            info.push(el("span", { class: `result ${h.result}`, "data-testid": `result-${i}-${j}` }, resultText(h.result)));
            if (h.returned) info.push(el("span", { class: "paid" }, _("paid {amount}", { amount: money(h.returned) })));
          }
          hands.append(
            el(
              "div",
              { class: hcls.join(" "), "data-testid": `hand-${i}-${j}` },
              cardsEl(h.cards, 0, `b${i}h${j}`),
              el("div", { class: "hand-info" }, ...info),
            ),
          );
        });
        node.append(hands);
        if (shown.insurance) node.append(el("div", { class: "insurance" }, _("insured {amount}", { amount: money(shown.insurance) })));
        const settled = v.phase === "betting" ? this.sideStakes(shown, true) : [];
        if (settled.length) node.append(el("div", { class: "sides", "data-testid": `sides-${i}` }, ...settled));
        if (shown.net !== null && shown.net !== undefined) {
          const net = shown.net;
          node.append(el("div", { class: `net ${net > 0 ? "up" : net < 0 ? "down" : "even"}`, "data-testid": `net-${i}` }, money(net, true)));
        }
      }
      const sides = this.sideStakes(box, v.phase === "playing");
      const { min, max } = v.table.limits;
      if (v.phase === "betting" && (box.bet || sides.length)) {
        node.append(
          el(
            "div",
            { class: "stake pending", "data-testid": `stake-${i}` },
            box.bet ? chipStack(box.bet, min, max) : null,
            ...sides,
          ),
        );
      } else if (v.phase === "playing" && box.player) {
        node.append(el("div", { class: "stake placed", "data-testid": `stake-${i}` }, chipStack(box.bet, min, max), ...sides));
      }
      if (cls.includes("bettable")) {
        node.addEventListener("click", () => this.bet(i));
        node.setAttribute("role", "button");
        node.setAttribute("tabindex", "0");
        const label = _("Bet on box {seat}", { seat: i + 1 });
        node.setAttribute("title", label);
        node.setAttribute("aria-label", box.bet ? `${label} (${money(box.bet)})` : label);
      }
      return node;
    });
    fill(root, boxes);
  },

  renderBetting(v) {
    const t = v.table;
    const betting = v.phase === "betting" && v.you.seated;
    $("betting").hidden = !betting;
    $("watching").hidden = v.you.seated;
    if (!v.you.seated) {
      $("watching-text").textContent =
        v.phase === "playing" ? _("You are watching: take a seat to bet on the next round.") : _("You are watching this table.");
    }
    if (!betting) return;
    const values = chipValues(t.limits.min, t.limits.max);
    const free = v.you.balance - v.you.pending;
    if (this.chip === null || !values.includes(this.chip)) this.chip = values[0];
    fill(
      $("chips"),
      values.map((value) =>
        el(
          "button",
          {
            type: "button",
            class: `chip ${chipColour(value, t.limits.min)}` + (value === this.chip ? " selected" : ""),
            role: "radio",
            "aria-checked": value === this.chip ? "true" : "false",
            "data-chip": value,
            disabled: value > free,
            onclick: () => {
              this.chip = value;
              this.render();
            },
          },
          money(value).replace(/[.,]00$/, ""),
        ),
      ),
    );
    this.renderSides(t.side_bets);
    $("undo").disabled = !v.you.pending;
    $("clear").disabled = !v.you.pending;
    $("rebet").disabled = !v.you.can_rebet;
    $("double-rebet").disabled = !v.you.can_rebet;
    const deal = $("deal");
    deal.disabled = !v.you.pending || (t.multi_player && v.you.ready);
    deal.textContent = t.multi_player ? (v.you.ready ? _("Ready") + " \u2713" : _("Ready")) : _("Deal");
    if (this.focusDeal && !deal.disabled) {
      this.focusDeal = false;
      deal.focus();
    }
  },
};
