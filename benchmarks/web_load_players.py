"""The scripted players of benchmarks/bench_web_load.py: one WebSocket each, one intention
in flight at a time, timed from sending it to the view that reflects it. Each player reacts
to a message in the socket's callback (web_load_socket.PlayerSocket): read, decide, send."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import orjson
from web_load_socket import PlayerSocket

COOKIE = "twentyone_session"


def choose(view: dict[str, Any], turn: dict[str, Any], rng: random.Random) -> str:
    """An answer to the question: roughly basic strategy, sometimes insurance, a double for
    less, a surrender, so that every kind of money movement happens."""
    actions: list[str] = turn["actions"]
    kind = turn["kind"]
    lo_hi = turn.get("amount_range")

    def spelled(action: str) -> str:
        if action.endswith(":N"):
            assert lo_hi is not None
            return f"{action[:-2]}:{rng.randint(lo_hi[0], lo_hi[1])}"
        return action

    if kind == "insurance":
        if rng.random() < 0.25:
            return spelled(rng.choice([a for a in actions if a.startswith("insure")]))
        return "no-insurance"
    if kind == "even-money":
        return "even-money" if rng.random() < 0.3 else "no-even-money"
    if kind == "surrender":
        return "surrender" if rng.random() < 0.05 else "no-surrender"
    hand = view["boxes"][turn["box"]]["hands"][turn["hand"]]
    total, soft, cards = hand["total"], hand["soft"], hand["cards"]
    up = view["dealer"]["cards"][0][0] if view["dealer"]["cards"] else "T"
    strong_up = up in "789TJQKA"
    wants: list[str] = []
    if len(cards) == 2 and cards[0][0] == cards[1][0] and cards[0][0] in "A89":
        wants.append("split")
    if not soft and total in (10, 11):
        wants += ["double", "double:N"]
    if not soft and total == 16 and strong_up:
        wants.append("surrender")
    if total < 12 or (soft and total < 18) or (total < 17 and strong_up):
        wants.append("hit")
    wants += ["stand", "hit"]
    for w in wants:
        if w in actions:
            return spelled(w)
    return spelled(actions[0])


@dataclass
class Stats:
    """What all the clients saw."""

    latencies: dict[str, list[float]] = field(default_factory=dict)
    warmup_latencies: list[float] = field(default_factory=list)  # before the window
    actions: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    error_samples: list[str] = field(default_factory=list)
    notices: Counter[str] = field(default_factory=Counter)
    # (table, round number) -> when first seen ending: round numbers count per table
    rounds_ended: dict[tuple[str, int], float] = field(default_factory=dict)
    window: tuple[float, float] = (0.0, 0.0)

    def error(self, kind: str, text: str) -> None:
        """Count an error (and keep the first few as samples)."""
        self.errors[kind] += 1
        if len(self.error_samples) < 10:
            self.error_samples.append(f"{kind}: {text}")


class Client:
    """One scripted player on one WebSocket, one intention in flight at a time."""

    def __init__(
        self,
        name: str,
        token: str,
        table: str,
        box: int,
        stats: Stats,
        seed: int,
        think: float = 0.0,
    ) -> None:
        self.name = name
        self.think = think
        self.thinking = False
        self.box = box
        self.token = token
        self.table = table
        self.stats = stats
        self.rng = random.Random(seed)
        self.ws: PlayerSocket | None = None
        self.counter = 0
        self.in_flight: tuple[str, str, float] | None = None  # id, type, sent at
        self.view: dict[str, Any] | None = None
        self.answered_turn: tuple[Any, ...] | None = None
        self.stopping = False
        self.done = asyncio.Event()
        self.last_balance: int | None = None
        self.first_view: asyncio.Future[None] | None = None
        self.running = False  # run() has begun: views before it only update the view
        self.closing: asyncio.Future[None] | None = None

    async def connect(self, base_ws: str) -> None:
        """Open the WebSocket (the session cookie in the handshake) and read the first view."""
        self.first_view = asyncio.get_running_loop().create_future()
        self.ws = PlayerSocket(self.receive, self.lost)
        await self.ws.open(
            f"{base_ws}/ws/tables/{self.table}", {"Cookie": f"{COOKIE}={self.token}"}
        )
        await asyncio.wait_for(self.first_view, 60)

    def send(self, type_: str, **fields: Any) -> None:
        """Send an intention with the next message id and start its clock."""
        assert self.ws is not None
        self.counter += 1
        mid = f"{self.name}-{self.counter}"
        self.in_flight = (mid, type_, time.perf_counter())
        self.ws.send_text(orjson.dumps({"type": type_, "id": mid, **fields}))

    def next_step(self) -> tuple[str, dict[str, Any]] | None:
        """What to send on the latest view ("close" to leave), or None to wait."""
        view = self.view
        assert view is not None
        you = view["you"]
        if view["phase"] == "betting":
            if self.stopping:
                return ("clear", {}) if you["pending"] else ("close", {})
            if not you["seated"]:
                return ("sit", {})
            if not you["pending"]:
                if you["can_rebet"] and self.rng.random() < 0.5:
                    return ("rebet", {})
                box = self.box % view["table"]["boxes"]
                return ("bet", {"box": box, "amount": view["table"]["limits"]["min"]})
            if not you["ready"]:
                return ("ready", {})
            return None
        turn = view["turn"]
        if turn and turn["player"] == self.name and turn["actions"]:
            key = (
                view["round"]["id"],
                turn["kind"],
                turn["box"],
                turn["hand"],
                len(view["round"]["log"]),
            )
            if key != self.answered_turn:
                self.answered_turn = key
                decision = choose(view, turn, self.rng)
                return ("decide", {"decision": decision, "box": turn["box"], "hand": turn["hand"]})
        return None

    def step(self) -> None:
        """Act on the latest view unless an intention is in flight (after a pause of about
        ``think`` seconds when pacing)."""
        if self.in_flight is not None or self.done.is_set() or self.thinking:
            return
        if self.think and not self.stopping and self.next_step_pending():
            self.thinking = True
            asyncio.get_running_loop().call_later(
                self.think * (0.5 + self.rng.random()), self._wake
            )
            return
        self.act()

    def next_step_pending(self) -> bool:
        """Whether the latest view asks for something (without consuming the turn)."""
        saved = self.answered_turn
        nxt = self.next_step()
        self.answered_turn = saved
        return nxt is not None

    def _wake(self) -> None:
        self.thinking = False
        self.act()

    def act(self) -> None:
        """Send what the latest view asks for, or leave."""
        if self.in_flight is not None or self.done.is_set():
            return
        nxt = self.next_step()
        if nxt is None:
            return
        kind, fields = nxt
        if kind == "close":  # leave: close the WebSocket
            self.done.set()
            if self.ws is not None:
                self.closing = asyncio.ensure_future(self.ws.close())
            return
        self.send(kind, **fields)

    def notice(self, msg: dict[str, Any], now: float) -> None:
        """Count a notice (a view carries them); the ones that mean trouble are errors."""
        stats = self.stats
        stats.notices[msg["kind"]] += 1
        if msg["kind"] == "round-end":
            stats.rounds_ended.setdefault((self.table, msg["round"]), now)
        elif msg["kind"] in ("bets-dropped", "table-error"):
            stats.error(f"notice {msg['kind']}", msg["text"])

    async def run(self) -> None:
        """Act on the first view, then react to every message until the socket is closed."""
        self.running = True
        self.step()
        await self.done.wait()

    def lost(self) -> None:
        """The socket is gone: an error unless this player was leaving."""
        if not self.done.is_set():
            self.stats.error("connection", f"{self.name}: closed by the server")
            self.done.set()
        if self.first_view is not None and not self.first_view.done():
            self.first_view.set_exception(ConnectionError(f"{self.name}: closed at once"))

    def receive(self, raw: bytes) -> None:
        """One message from the server."""
        try:
            self._receive(raw)
        except Exception as exc:  # a broken message is an error of the run
            if not self.done.is_set():
                self.stats.error("connection", repr(exc))
                self.done.set()

    def _receive(self, raw: bytes) -> None:
        stats = self.stats
        now = time.perf_counter()
        msg = orjson.loads(raw)
        kind = msg["type"]
        if self.first_view is not None and not self.first_view.done():
            assert kind == "view", msg
            self.view = msg
            self.first_view.set_result(None)
            return
        if not self.running:  # (others sitting down before the play starts)
            if kind == "view":
                self.view = msg
            return
        if kind == "view":
            for notice in msg.get("notices", ()):
                self.notice(notice, now)
            self.view = msg
            self.last_balance = msg["you"]["balance"]
            if self.in_flight is not None and self.in_flight[0] in msg.get("acks", ()):
                _mid, type_, sent = self.in_flight
                self.in_flight = None
                if stats.window[0] <= sent < stats.window[1]:
                    stats.latencies.setdefault(type_, []).append(now - sent)
                    stats.actions += 1
                elif sent < stats.window[0]:
                    stats.warmup_latencies.append(now - sent)
            self.step()
        elif kind == "error":
            if self.in_flight is not None and msg["id"] == self.in_flight[0]:
                if self.stopping and self.in_flight[1] == "clear":
                    stats.notices["stop: clear too late, round started"] += 1
                else:
                    stats.error(f"error on {self.in_flight[1]}", msg["error"])
                self.in_flight = None
                self.step()
            else:
                stats.error("unexpected answer", json.dumps(msg))
        else:  # an ack answers only a repeated id (never sent here); notices ride in views
            stats.error("unexpected answer", json.dumps(msg))
