"""The clients of benchmarks/bench_soak.py: random players that reconnect when the server is
killed, and the three abusers (a flooding socket, a sender of oversized frames, an idle seat
holder). The players are web_load_players.Client with a random streak: now and then an
illegal intention (out of turn, a bad amount, another script's digits, an unknown type, a box
out of range, a repeated message id), and now and then any legal decision rather than the
sensible one."""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import orjson
from web_load_players import COOKIE, Client, Stats, choose
from web_load_socket import PlayerSocket
from websockets.protocol import State


@dataclass
class SoakState:
    """What every client of a soak shares: whether the server is up, the counts."""

    base_ws: str
    server_up: asyncio.Event = field(default_factory=asyncio.Event)
    finished: bool = False
    killing: bool = False  # sockets lost now are the kill's, not errors
    illegal: Counter[str] = field(default_factory=Counter)  # answered illegal intentions
    illegal_accepted: int = 0  # "illegal" ones that happened to be legal
    reconnects: int = 0
    connect_failures: int = 0
    unanswered: int = 0  # intentions with no answer for 60 s while the server was up
    timed: list[tuple[float, float]] = field(default_factory=list)  # (sent at, latency)
    abuse: Counter[str] = field(default_factory=Counter)
    lost_codes: Counter[int | None] = field(default_factory=Counter)  # players' sockets


IDLE_CLOSE = 4408  # the server closes a socket silent for --idle-seconds

ILLEGAL_KINDS = (
    "out-of-turn",
    "box-out-of-range",
    "negative-amount",
    "huge-amount",
    "arabic-digits",
    "empty-amount",
    "unknown-type",
    "amount-as-text",
    "repeated-id",
)


class SoakPlayer(Client):
    """A random player: mostly legal play (sometimes any legal decision), about one
    intention in twelve illegal; reconnects after the server is killed."""

    def __init__(self, soak: SoakState, *args: Any, illegal_rate: float = 0.08, **kw: Any):
        super().__init__(*args, **kw)
        self.soak = soak
        self.illegal_rate = illegal_rate
        self.illegal_mid: str | None = None
        self.left = False

    # ----------------------------------------------------------------- life over restarts
    async def life(self) -> None:
        """Connect, play until the socket is gone, reconnect when the server is back; until
        the soak is over and this player has left."""
        while True:
            await self.soak.server_up.wait()
            self._reset()
            try:
                await self.connect(self.soak.base_ws)
            except Exception:
                self.soak.connect_failures += 1
                await asyncio.sleep(0.5 + self.rng.random())
                continue
            self.soak.reconnects += 1
            await self.run()
            if self.left:
                return
            if not self.soak.killing:  # lost while the server was up (lost() counted it)
                await asyncio.sleep(1)

    async def connect(self, base_ws: str) -> None:
        await super().connect(base_ws)
        assert self.view is not None
        self.last_balance = self.view["you"]["balance"]  # what this life shows first

    def _reset(self) -> None:
        self.done = asyncio.Event()
        self.in_flight = None
        self.illegal_mid = None
        self.answered_turn = None
        self.thinking = False
        self.running = False
        self.view = None
        self.ws = None

    def lost(self) -> None:
        if self.soak.killing and not self.done.is_set():
            self.done.set()  # the kill: not an error
        if not self.done.is_set():  # lost while the server runs: which close code
            rcvd = getattr(self.ws.proto, "close_rcvd", None) if self.ws is not None else None
            code = getattr(rcvd, "code", None)
            self.soak.lost_codes[code] += 1
            if code == IDLE_CLOSE:  # silent for --idle-seconds (waiting at a slow table):
                self.done.set()  # the server's rule, not an error; the player reconnects
        super().lost()
        first = self.first_view
        if first is not None and first.done() and not first.cancelled():
            first.exception()  # connect() reads it, or has given up on it already

    def act(self) -> None:
        if self.in_flight is not None or self.done.is_set() or not self.open():
            return
        if not self.stopping and self.view is not None and self.rng.random() < self.illegal_rate:
            self.send_illegal()
            return
        before = self.done.is_set()
        super().act()
        if self.done.is_set() and not before:
            self.left = True

    def open(self) -> bool:
        """Whether the socket can take a message (a paced step may fire after a kill)."""
        ws = self.ws
        if ws is None or ws.proto is None or ws.transport is None:
            return False
        return ws.proto.state is State.OPEN and not ws.transport.is_closing()

    def next_step(self) -> tuple[str, dict[str, Any]] | None:
        nxt = super().next_step()
        if nxt is None or self.stopping:
            return nxt
        kind, fields = nxt
        view = self.view
        assert view is not None
        if kind == "decide" and self.rng.random() < 0.3:  # any legal decision, not the sensible
            turn = view["turn"]
            action = self.rng.choice(turn["actions"])
            if action.endswith(":N"):
                lo, hi = turn["amount_range"]
                action = f"{action[:-2]}:{self.rng.randint(lo, hi)}"
            fields = {**fields, "decision": action}
        elif kind == "bet":  # a random stake, a few times the minimum
            limits = view["table"]["limits"]
            fields = {**fields, "amount": limits["min"] * self.rng.randint(1, 5)}
        return kind, fields

    # ----------------------------------------------------------------- illegal intentions
    def send_illegal(self) -> None:
        """One illegal intention; its answer is counted, not timed."""
        assert self.ws is not None and self.view is not None
        what = self.rng.choice(ILLEGAL_KINDS)
        limits = self.view["table"]["limits"]
        box = self.box % self.view["table"]["boxes"]
        payload: dict[str, Any]
        if what == "repeated-id" and self.counter > 0:
            mid: Any = f"{self.name}-{self.rng.randint(1, self.counter)}"
            payload = {"type": "view"}
        else:
            if what == "repeated-id":
                what = "unknown-type"
            self.counter += 1
            mid = f"{self.name}-{self.counter}"
            payload = {
                "out-of-turn": {"type": "decide", "decision": "hit", "box": 0, "hand": 0},
                "box-out-of-range": {"type": "bet", "box": 99, "amount": limits["min"]},
                "negative-amount": {"type": "bet", "box": box, "amount": -limits["min"]},
                "huge-amount": {"type": "bet", "box": box, "amount": 10**15},
                "arabic-digits": {"type": "decide", "decision": "double:١٠٠"},
                "empty-amount": {"type": "decide", "decision": "double:"},
                "unknown-type": {"type": "shuffle-up"},
                "amount-as-text": {"type": "bet", "box": box, "amount": "ten"},
            }[what]
        self.illegal_mid = mid
        self.in_flight = (mid, f"illegal {what}", time.perf_counter())
        self.ws.send_text(orjson.dumps({**payload, "id": mid}))

    def _receive(self, raw: bytes) -> None:
        msg = orjson.loads(raw)
        kind = msg.get("type")
        now = time.perf_counter()
        mid = self.illegal_mid
        if mid is not None and self.running:
            if kind in ("error", "ack") and msg.get("id") == mid:
                assert self.in_flight is not None
                self.soak.illegal[self.in_flight[1]] += 1
                self.illegal_mid = self.in_flight = None
                self.step()
                return
            if kind == "view" and mid in msg.get("acks", ()):
                self.soak.illegal_accepted += 1
                self.illegal_mid = self.in_flight = None
        elif (
            kind == "view"
            and self.running
            and self.in_flight is not None
            and self.in_flight[0] in msg.get("acks", ())
        ):
            self.soak.timed.append((self.in_flight[2], now - self.in_flight[2]))
        super()._receive(raw)

    def check_stuck(self, now: float) -> None:
        """An intention unanswered for 60 s while the server is up (a slow answer is a
        latency; this one is taken as lost): counted, dropped."""
        if self.in_flight is not None and now - self.in_flight[2] > 60 and not self.done.is_set():
            self.soak.unanswered += 1
            self.stats.error("no answer", f"{self.name}: {self.in_flight[1]}")
            self.in_flight = self.illegal_mid = None
            self.step()


# --------------------------------------------------------------------------- abusers
class Abuser:
    """One socket at a time on one account, reopened whenever it is closed."""

    def __init__(self, soak: SoakState, name: str, token: str, table: str) -> None:
        self.soak, self.name, self.token, self.table = soak, name, token, table
        self.ws: PlayerSocket | None = None
        self.gone: asyncio.Event = asyncio.Event()
        self.counter = 0

    def close_code(self) -> int | None:
        proto = self.ws.proto if self.ws is not None else None
        if proto is None:
            return None
        rcvd = getattr(proto, "close_rcvd", None)
        return getattr(rcvd, "code", None)

    async def open(self) -> bool:
        self.gone = asyncio.Event()
        self.ws = PlayerSocket(self.on_message, self.gone.set)
        try:
            await self.ws.open(
                f"{self.soak.base_ws}/ws/tables/{self.table}", {"Cookie": f"{COOKIE}={self.token}"}
            )
        except Exception:
            self.soak.abuse[f"{self.name}: handshake refused or failed"] += 1
            return False
        return True

    def on_message(self, raw: bytes) -> None:
        msg = orjson.loads(raw)
        self.soak.abuse[f"{self.name}: {msg.get('type')} received"] += 1
        if msg.get("type") == "error" and "too many messages" in msg.get("error", ""):
            self.soak.abuse[f"{self.name}: rate-limit error replies"] += 1
        for notice in msg.get("notices", ()):
            self.soak.abuse[f"{self.name}: notice {notice['kind']}"] += 1

    def send(self, payload: dict[str, Any]) -> None:
        assert self.ws is not None
        self.counter += 1
        self.ws.send_text(orjson.dumps({**payload, "id": f"{self.name}-{self.counter}"}))

    async def life(self) -> None:
        while not self.soak.finished:
            await self.soak.server_up.wait()
            if self.soak.finished:
                return
            if not await self.open():
                await asyncio.sleep(1)
                continue
            try:
                await self.abuse()
            except Exception as exc:  # the socket went away under a send
                self.soak.abuse[f"{self.name}: {type(exc).__name__}"] += 1
            if self.soak.finished and self.ws is not None:
                await self.ws.close()
            await self.gone.wait()
            code = self.close_code()
            if code == 4408 and not self.soak.killing:
                await self.after_idle_close()
            if not self.soak.killing and not self.soak.finished:
                self.soak.abuse[f"{self.name}: closed with {code}"] += 1
            if self.ws is not None and self.ws.transport is not None:
                self.ws.transport.close()
            await asyncio.sleep(0.5)

    async def abuse(self) -> None:
        raise NotImplementedError

    async def after_idle_close(self) -> None:
        """The server closed the socket for its silence."""


class Flooder(Abuser):
    """Sends `view` intentions as fast as the socket takes them, until it is closed."""

    async def abuse(self) -> None:
        assert self.ws is not None and self.ws.transport is not None
        transport, proto = self.ws.transport, self.ws.proto
        assert proto is not None
        while not self.gone.is_set() and not self.soak.finished:
            if transport.is_closing() or proto.state is not State.OPEN:
                break
            if transport.get_write_buffer_size() < 1 << 20:
                for _ in range(50):
                    self.send({"type": "view"})
                self.soak.abuse[f"{self.name}: messages sent"] += 50
            await asyncio.sleep(0.005)
        if self.soak.finished:
            await self.ws.close()


class OversizedSender(Abuser):
    """Sends one frame of 32 KiB (the limit is 16 KiB) a second after opening."""

    async def abuse(self) -> None:
        await asyncio.sleep(1)
        if self.gone.is_set() or self.soak.finished:
            return
        self.send({"type": "view", "pad": "x" * 32 * 1024})
        self.soak.abuse[f"{self.name}: oversized frames sent"] += 1
        try:
            await asyncio.wait_for(self.gone.wait(), 10)
        except TimeoutError:
            self.soak.abuse[f"{self.name}: not closed within 10 s"] += 1
            assert self.ws is not None
            await self.ws.close()


class IdleHolder(Abuser):
    """Sits down at a single-player table and does nothing more. When the server has closed
    its socket for its silence, the lobby is asked whether the table's boxes are free."""

    async def after_idle_close(self) -> None:
        import httpx

        base = self.soak.base_ws.replace("ws://", "http://", 1)
        try:
            async with httpx.AsyncClient(base_url=base, timeout=5) as client:
                rows = (await client.get("/api/tables")).json()
        except Exception:
            return
        row = next((r for r in rows if r["id"] == self.table), None)
        if row is not None:
            free = row["free_boxes"] == row["boxes"] and self.name not in row["players"]
            self.soak.abuse[f"{self.name}: lobby after the close, boxes all free: {free}"] += 1

    async def abuse(self) -> None:
        await asyncio.sleep(0.2)
        self.send({"type": "sit"})
        while not self.gone.is_set() and not self.soak.finished:
            await asyncio.sleep(0.5)
        if self.soak.finished:
            assert self.ws is not None
            await self.ws.close()


def make_players(
    soak: SoakState,
    names: list[str],
    tokens: list[str],
    tables: list[str],
    stats: Stats,
    seed: int,
    think: float,
) -> list[SoakPlayer]:
    """The random players, spread over the tables in turn."""
    rng = random.Random(seed)
    return [
        SoakPlayer(
            soak,
            name,
            token,
            tables[i % len(tables)],
            i // len(tables),
            stats,
            rng.randrange(2**32),
            think,
        )
        for i, (name, token) in enumerate(zip(names, tokens, strict=True))
    ]


__all__ = ["Flooder", "IdleHolder", "OversizedSender", "SoakPlayer", "SoakState", "choose"]
