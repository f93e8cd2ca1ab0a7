// The table screen: one WebSocket to a table, the view it sends drawn on the felt, and the
// player's intentions (chips, deal/ready, decisions) sent with ids the server applies once.
// The protocol is docs/protocol.md.

import { _, _n, lang } from "./i18n.js";
import { NO, PLAY_KEYS, YES, renderDecision, yesNo } from "./decision.js";
import { FairnessCheck, fairnessText } from "./fairness.js";
import { Dealing, announce, celebrate, fitCards, hideOutcome, renderFeltPrint, renderShoe, showOutcome } from "./felt.js";
import { boxMethods } from "./boxes.js";
import { play } from "./sound.js";
import {
  cardEl, cardsEl, chipValues, decisionText, defaultActionText, el, fill, flagEl, houseLine, money,
  parseMoney, resultText, serverText, totalText,
} from "./ui.js";

export { arc } from "./boxes.js";
export { chipValues } from "./ui.js";

const $ = (id) => document.getElementById(id);

// the server's refusal of a seat while the player still sits at another table
const LEAVING = "you are seated at table {table}: leave it first";

export class TableScreen {
  /**
   * @param {string} tableId
   * @param {{onBalance: Function, onRoundEnd: Function, onLoggedOut: Function,
   *          onLobby: Function, autoSit: boolean}} hooks
   */
  constructor(tableId, hooks) {
    this.tableId = tableId;
    this.hooks = hooks;
    this.fairness = new FairnessCheck(tableId);
    this.wantSeat = Boolean(hooks.autoSit);
    this.prefix = "p" + Math.random().toString(36).slice(2, 8);
    this.counter = 0;
    this.view = null;
    this.receivedAt = 0;
    this.socket = null;
    this.closed = false;
    this.retries = 0;
    this.chip = null;
    this.side = "main"; // where the next chip goes: "main" or a side bet id
    this.lastRoundSeen = null;
    this.notices = []; // the table log: messages kept with their parameters (relabelled)
    this.dealing = new Dealing();
    this.firstView = true;
    this.insurance = null; // {round, action}: the player's one answer for all their boxes
    this.autoSent = null; // the question the page answered with it
    this.timer = setInterval(() => this.renderClocks(), 200);
    this.onKey = (e) => this.key(e);
    document.addEventListener("keydown", this.onKey);
    this.onResize = () => fitCards($("felt"));
    window.addEventListener("resize", this.onResize);
    this.bindButtons();
  }

  // ------------------------------------------------------------- the socket
  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    // on a cluster the table's node may be elsewhere: it answers 4302 with the path
    // to reconnect to (docs/scaling.md); otherwise any node's /ws/tables/ID
    const path = this.nodePath || `/ws/tables/${encodeURIComponent(this.tableId)}`;
    const ws = new WebSocket(`${scheme}://${location.host}${path}`);
    this.socket = ws;
    ws.addEventListener("open", () => {
      this.fresh = true; // a restarted server counts seq from 0 again
      this.sitId = null;
      this.hooks.banner(null);
      this.hints($("show-hint").checked); // the server works out the exact hint only if shown
    });
    ws.addEventListener("message", (e) => {
      if (this.socket === ws && (this.retries || this.redirects)) {
        this.retries = 0; // a node that answers: the next loss starts the backoff again
        this.redirects = 0;
      }
      this.receive(JSON.parse(e.data));
    });
    ws.addEventListener("close", (e) => {
      if (this.closed || this.socket !== ws) return;
      if (e.code === 4302 && e.reason.startsWith("/") && (this.redirects || 0) < 3) {
        this.redirects = (this.redirects || 0) + 1;
        this.nodePath = e.reason; // the node that deals this table
        this.connect();
        return;
      }
      this.nodePath = null; // lost, or the table is moving: ask any node again
      this.reconnect();
    });
  }

  async reconnect() {
    this.retries += 1;
    this.hooks.banner(_("Connection lost: reconnecting\u2026"));
    if (this.retries > 2 && !(await this.hooks.stillLoggedIn())) return;
    // exponential backoff with jitter: the players of a failed node do not all come back in
    // the same instant (0.5 to 1.5 times 0.5 s, 1 s, 2 s, 4 s, then 5 s)
    const delay = Math.min(5000, 250 * 2 ** Math.min(this.retries, 5)) * (0.5 + Math.random());
    setTimeout(() => {
      if (!this.closed) this.connect();
    }, delay);
  }

  close() {
    this.closed = true;
    clearInterval(this.timer);
    document.removeEventListener("keydown", this.onKey);
    window.removeEventListener("resize", this.onResize);
    if (this.socket) {
      if (this.view && this.view.you.seated && this.view.phase === "betting") this.send("leave");
      const ws = this.socket;
      setTimeout(() => ws.close(), 50);
    }
  }

  /** Tell the server whether this page shows the hint ("Show hint"). */
  hints(on) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) this.send("hints", { on });
  }

  send(type, fields = {}) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) {
      this.note(_("Not connected: try again in a moment."), "error");
      return null;
    }
    if (type !== "hints") this.clearErrors(); // a new attempt: the last one's refusal is old
    const id = `${this.prefix}-${++this.counter}`;
    this.socket.send(JSON.stringify({ type, id, ...fields }));
    return id;
  }

  receive(msg) {
    if (msg.type === "view") {
      for (const notice of msg.notices || []) this.receive(notice); // the change's notices first
      if (!this.fresh && this.view && msg.seq < this.view.seq) return;
      this.fresh = false;
      this.view = msg;
      this.receivedAt = performance.now() / 1000;
      if (this.wantSeat && !msg.you.seated && !this.sitId) this.sitId = this.send("sit");
      if (msg.you.seated) this.sitId = null;
      this.render();
    } else if (msg.type === "error") {
      if (msg.id !== null && msg.id === this.sitId) {
        if (msg.message === LEAVING && (this.sitRetries = (this.sitRetries || 0) + 1) <= 5) {
          // the seat at the table just left is still being given up: ask again in a moment
          this.sitId = null;
          setTimeout(() => !this.closed && this.view && !this.view.you.seated && (this.sitId = this.send("sit")), 200);
          return;
        }
        this.wantSeat = false; // the table is full or taken
      }
      const text = msg.message ? serverText(msg.message, msg.params, msg.count) : msg.error;
      this.note(text, "error", msg.message, msg.params, msg.count);
      this.hooks.banner(text, "error", 4000);
      if (this.view) this.render();
    } else if (msg.type === "notice") {
      const text = msg.message ? serverText(msg.message, msg.params, msg.count) : msg.text;
      this.note(text, msg.kind, msg.message, msg.params, msg.count);
      if (msg.kind === "default-action" || msg.kind === "bets-dropped" || msg.kind === "table-error") {
        this.hooks.banner(text, "notice", 5000);
      }
    }
  }

  /** Forget the refusals of earlier attempts: their lines in the table log and the error
   * banner (a refusal of the new attempt comes back on its own). */
  clearErrors() {
    const kept = this.notices.filter((n) => n.kind !== "error");
    if (kept.length !== this.notices.length) {
      this.notices = kept;
      this.renderNotices();
    }
    this.hooks.banner(null, "error");
  }

  /** Add a line to the table log: a server message (kept with its parameters, so a change
   * of language writes it again) or a text of the page. */
  note(text, kind = "info", message = null, params = null, count = null) {
    this.notices.unshift({ text, kind, message, params, count });
    this.notices.length = Math.min(this.notices.length, 30);
    this.renderNotices();
  }

  renderNotices() {
    fill(
      $("notices"),
      this.notices.map((n) => el("li", { class: `notice ${n.kind}` }, n.message ? serverText(n.message, n.params, n.count) : n.text)),
    );
  }

  // ------------------------------------------------------------- intentions
  bindButtons() {
    const on = (id, f) => {
      const b = $(id);
      const clone = b.cloneNode(true); // drop listeners of an earlier table screen
      b.replaceWith(clone);
      clone.addEventListener("click", f);
    };
    on("undo", () => this.send("undo"));
    on("clear", () => this.send("clear"));
    // after a rebet the next Enter deals (the focus goes to Deal, not back to Rebet)
    on("rebet", () => {
      this.send("rebet");
      this.focusDeal = true;
    });
    on("double-rebet", () => {
      this.send("double-rebet");
      this.focusDeal = true;
    });
    on("deal", () => this.send(this.view && this.view.table.multi_player ? "ready" : "deal"));
    on("sit", () => {
      this.wantSeat = true;
      this.sitId = this.send("sit");
    });
  }

  bet(box) {
    const v = this.view;
    if (!v || v.phase !== "betting" || !v.you.seated) return;
    const offered = v.table.side_bets.some((b) => b.id === this.side);
    if (this.send("bet", { box, amount: this.chip, side: offered ? this.side : "main" })) play("chip");
  }

  decide(decision) {
    const t = this.view && this.view.turn;
    if (!t || !t.actions.length) return;
    if (t.kind === "insurance" && (decision === "insure" || decision === "no-insurance") && this.view.round) {
      // one answer for every box of the player: the page gives it again at their next box
      this.insurance = { round: this.view.round.id, action: decision };
    }
    this.send("decide", { decision, box: t.box, hand: t.hand });
  }

  /** The insurance question of another of the player's boxes, answered as the first was. */
  answerInsurance(v) {
    const t = v.turn;
    const a = this.insurance;
    if (!t || t.kind !== "insurance" || !t.actions.length || !a || !v.round || a.round !== v.round.id) return false;
    if (!t.actions.includes(a.action)) return false;
    const asked = `${v.round.id}:${t.box}`;
    if (this.autoSent === asked) return true;
    this.autoSent = asked;
    this.send("decide", { decision: a.action, box: t.box, hand: t.hand });
    return true;
  }

  /** How many boxes the player has in the round in play. */
  myBoxes(v) {
    return v.phase === "playing" ? v.boxes.filter((b) => b.player === v.you.username && b.hands.length).length : 0;
  }

  /** An amount action (double:N, insure:N) with the amount typed in its field (the server's
   * engine judges the amount: one outside the range comes back as its refusal). */
  decideAmount(name) {
    const input = document.querySelector(`input[data-amount-for="${name}"]`);
    const t = this.view && this.view.turn;
    if (!input || !t) return;
    const units = parseMoney(input.value);
    const [lo, hi] = t.amount_range || [0, 0];
    if (units === null) {
      this.clearErrors();
      this.hooks.banner(_("Amount: between {lo} and {hi}", { lo: money(lo), hi: money(hi) }), "error", 4000);
      input.focus();
      return;
    }
    this.decide(`${name}:${units}`);
  }

  key(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const inField = e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement;
    const v = this.view;
    if (!v) return;
    const t = v.turn;
    if (e.key === "Enter" && inField && e.target.dataset.amountFor) {
      e.preventDefault();
      this.decideAmount(e.target.dataset.amountFor);
      return;
    }
    if (inField) return;
    const k = e.key.toLowerCase();
    if (t && t.actions.length) {
      // the play keys are the same in every language; a prompt also takes its language's yes/no
      const yn = t.kind === "play" ? k : yesNo(k);
      let action = t.kind === "play" ? PLAY_KEYS[k] : yn === "y" ? YES[t.kind] : yn === "n" ? NO[t.kind] : null;
      if (t.kind === "surrender" && k === "r") action = "surrender";
      if (!action) return;
      e.preventDefault();
      if (t.actions.includes(action)) this.decide(action);
      else if (t.actions.includes(`${action}:N`)) this.decideAmount(action);
      return;
    }
    const onChip = e.target instanceof HTMLElement && e.target.closest("#chips");
    const onRebet = e.target instanceof HTMLElement && ["rebet", "double-rebet"].includes(e.target.id);
    const box = e.target instanceof HTMLElement && e.target.closest(".box.bettable");
    if (box && (e.key === "Enter" || e.key === " ")) {
      e.preventDefault();
      this.bet(Number(box.dataset.box));
      return;
    }
    if (v.phase === "betting" && v.you.seated && e.key === "Enter" && (onChip || onRebet || !(e.target instanceof HTMLButtonElement))) {
      e.preventDefault();
      this.send(v.table.multi_player ? "ready" : "deal"); // the server checks the bets
    }
  }

  // ------------------------------------------------------------- drawing
  /** Draw again in the page's language (after a change of language). */
  relabel() {
    this.actionsKey = null;
    this.renderNotices();
    if (this.view) this.render();
  }

  render() {
    const v = this.view;
    const me = v.you.username;
    this.hooks.onBalance(v.you.balance, v.you.pending);
    if (v.last_round && v.last_round.id !== this.lastRoundSeen) {
      this.lastRoundSeen = v.last_round.id;
      this.hooks.onRoundEnd(v.last_round, me);
    }
    const t = v.table;
    $("table-name").replaceChildren(flagEl(t.country, lang()) || "", " ", t.name || t.id);
    $("table-house").textContent = houseLine(t, lang());
    const facts = [
      _("{min}\u2013{max} a box", { min: money(t.limits.min), max: money(t.limits.max) }),
      t.boxes_per_player < t.boxes
        ? _n("{n} box, up to {each} each", "{n} boxes, up to {each} each", t.boxes, { each: t.boxes_per_player })
        : _n("{n} box", "{n} boxes", t.boxes),
      t.multi_player ? _("several players") : _("single player"),
      _("clock {seconds} s, then {action}", { seconds: Math.round(t.decision_seconds), action: defaultActionText(t.default_action) }),
    ];
    $("table-facts").textContent = facts.join(" \u00b7 ");
    this.renderFairness(t.provable);
    const roundId = v.round ? v.round.id : v.last_round ? v.last_round.id : null;
    if (roundId !== this.dealing.round) this.dealing.reset(roundId);
    renderShoe(v.shoe);
    renderFeltPrint(t.felt);
    this.renderDealer(v);
    this.renderBoxes(v, me);
    this.renderStatus(v, me);
    if (this.answerInsurance(v)) return; // the answer goes out: the next view moves on
    this.renderDecision(v, me);
    this.renderBetting(v);
    this.renderClocks();
    fitCards($("felt"));
    this.animate(v, me);
  }

  /** A provable table: the coming shoe's commitment (kept by the page) and the check of the
   * last revealed seed against the commitment kept from before its shoe. */
  renderFairness(provable) {
    const line = $("fairness");
    line.hidden = !provable;
    if (!provable) return;
    this.fairness.update(provable).then((shown) => {
      if (!shown || this.view?.table?.provable !== provable) return; // a newer view drew it
      line.textContent = fairnessText(shown);
      line.title = provable.commitment;
      line.dataset.check = shown.revealed ? shown.revealed.result : "";
    });
  }

  /** Deal the new cards from the shoe, show a round's end, and say what happened. */
  animate(v, me) {
    const dealt = this.dealing.update($("felt"), this.firstView);
    const ended = v.phase === "betting" && v.last_round && v.last_round.id !== this.resultShown;
    if (ended && !this.firstView) {
      this.resultShown = v.last_round.id;
      showOutcome(v.last_round, me, this.places(), v.table.side_bets);
      this.celebrate(v.last_round, me, v.table.limits.min);
    } else if (ended) this.resultShown = v.last_round.id;
    if (v.phase === "playing" || (v.phase === "betting" && v.you.pending)) {
      if (v.phase === "playing" || this.resultShown !== null) hideOutcome();
    }
    this.firstView = false;
    if (dealt.length) announce(this.dealtText(v, dealt));
    const t = v.turn;
    const turnKey = t ? `${t.player}:${t.kind}:${t.box}:${t.hand}:${t.deadline}` : null;
    if (t && t.player === me && turnKey !== this.turnSaid) announce($("prompt").textContent);
    this.turnSaid = turnKey;
    this.keepTurnInSight(t, turnKey);
  }

  /** On a phone the decision and bet panel stays at the bottom of the screen (sticky): the box
   * whose turn it is scrolls up above it, once per turn and panel height (a player who
   * scrolls away meanwhile is left alone). */
  keepTurnInSight(t, turnKey) {
    const controls = document.querySelector(".controls");
    if (!t || !controls || getComputedStyle(controls).position !== "sticky") {
      this.sightKey = null;
      return;
    }
    const panel = controls.getBoundingClientRect();
    const key = `${turnKey}:${Math.round(panel.height)}`;
    if (key === this.sightKey) return;
    this.sightKey = key;
    const box = $("boxes").querySelector(`.box[data-box="${t.box}"]`);
    if (!box) return;
    const r = box.getBoundingClientRect();
    const covered = r.bottom + 8 - panel.top;
    const room = r.top - ($("banner").hidden ? 60 : 100); // under the top bar
    if (covered > 0) window.scrollBy({ top: room > 0 ? Math.min(covered, room) : covered, behavior: "instant" });
  }

  /** A blackjack of the player's (whatever their other boxes did), or a big win (at least the stake back again and twenty
   * table minimums), celebrated on the felt. */
  celebrate(last, me, min) {
    const net = last.net[me];
    if (net === undefined) return;
    const mine = last.boxes.filter((b) => b.player === me);
    const blackjack = mine.some((b) => b.hands.some((h) => h.result === "blackjack"));
    const staked = mine.reduce(
      (sum, b) => sum + b.hands.reduce((s, h) => s + h.bet, 0) + Object.values(b.side_bets || {}).reduce((s, x) => s + x, 0),
      0,
    );
    if (blackjack) celebrate("blackjack", net > 0 ? money(net, true) : "");
    else if (net >= Math.max(20 * min, staked)) celebrate("big-win", money(net, true));
  }

  /** Box and hand names, counted from 1. */
  places() {
    return {
      box: (i) => _("box {box}", { box: i + 1 }),
      hand: (i, j) => _("box {box}, hand {hand}", { box: i + 1, hand: j + 1 }),
    };
  }

  /** The cards just dealt, in words: whose they are and the hand's total. */
  dealtText(v, dealt) {
    const names = this.places();
    const parts = [];
    for (const { key, code } of dealt) {
      const card = code ? cardEl(code).getAttribute("aria-label") : _("face-down card");
      const [where] = key.split(":");
      if (where === "d") parts.push(_("Dealer: {card}", { card }));
      else {
        const [, box, hand] = /b(\d+)h(\d+)/.exec(where) || [];
        const b = (v.phase === "playing" ? v.boxes : (v.last_round || {}).boxes || [])[Number(box)];
        const who = b && b.player === v.you.username ? _("You") : b ? b.player : "";
        parts.push(`${who}, ${names.hand(Number(box), Number(hand))}: ${card}`);
      }
    }
    return parts.join("; ");
  }

  renderDealer(v) {
    const d = v.phase === "playing" ? v.dealer : v.last_round ? v.last_round.dealer : null;
    $("dealer").classList.toggle("last", v.phase === "betting");
    $("felt").classList.toggle("playing", v.phase === "playing");
    if (!d) {
      fill($("dealer-cards"));
      $("dealer-total").textContent = "";
      return;
    }
    $("dealer-cards").replaceWith(Object.assign(cardsEl(d.cards, d.hidden, "d"), { id: "dealer-cards" }));
    let text = d.cards.length === 1 ? String(d.total) : totalText(d.total, d.soft);
    if (d.blackjack) text = resultText("blackjack");
    else if (d.pushes) text = _("{total} \u2014 pushes", { total: d.total });
    else if (d.total > 21) text = _("{total} \u2014 bust", { total: d.total });
    $("dealer-total").textContent = text;
  }

  renderStatus(v, me) {
    const parts = [];
    if (v.phase === "playing") {
      parts.push(_("Round {n}", { n: v.round.number }));
      if (v.turn) {
        const where = { box: v.turn.box + 1, hand: v.turn.hand + 1, player: v.turn.player };
        if (v.turn.player === me) parts.push(v.turn.kind === "play" ? _("you to act (box {box}, hand {hand})", where) : _("you to act (box {box})", where));
        else parts.push(v.turn.kind === "play" ? _("{player} to act (box {box}, hand {hand})", where) : _("{player} to act (box {box})", where));
      } else parts.push(_("the dealer plays"));
    } else if (v.last_round) {
      const net = v.last_round.net[me];
      parts.push(net !== undefined ? _("Round {n} over: you {net}", { n: v.last_round.number, net: money(net, true) }) : _("Round {n} over", { n: v.last_round.number }));
      parts.push(_("place your bets"));
    } else parts.push(_("Place your bets"));
    const away = _("(away)");
    const players = v.players.map((p) => `${p.username}${p.ready ? " \u2713" : ""}${p.connected ? "" : " " + away}`);
    fill($("status"), el("span", {}, parts.join(" \u2014 ")), players.length ? el("span", { class: "players" }, _("Seated: {players}", { players: players.join(", ") })) : null);
  }

  renderDecision(v, me) {
    renderDecision(this, v, me);
  }

  /** The countdown and the decision clock, counted down between views. */
  renderClocks() {
    const v = this.view;
    if (!v) return;
    const elapsed = performance.now() / 1000 - this.receivedAt;
    const cd = $("countdown");
    if (v.phase === "betting" && v.table.multi_player) {
      if (v.countdown) {
        const left = Math.max(0, v.countdown.seconds_left - elapsed);
        cd.textContent = _("Cards in {seconds} s (or when every seated player is ready)", { seconds: Math.ceil(left) });
      } else cd.textContent = _("The countdown starts with the first chip.");
    } else cd.textContent = v.phase === "betting" ? _("Press Deal when your bets are placed.") : "";
    const t = v.turn;
    if (!t) return;
    const left = Math.max(0, t.seconds_left - elapsed);
    const total = v.table.decision_seconds || 1;
    $("clock-bar").style.width = `${Math.min(100, (100 * left) / total)}%`;
    $("clock-bar").classList.toggle("low", left < Math.min(5, total / 3));
    const then = { seconds: Math.ceil(left), player: t.player, decision: t.default ? decisionText(t.default) : _("the table default") };
    $("clock-text").textContent = t.player === v.you.username
      ? _("{seconds} s \u2014 then you get: {decision}", then)
      : _("{seconds} s \u2014 then {player} gets: {decision}", then);
  }
}

Object.assign(TableScreen.prototype, boxMethods);
