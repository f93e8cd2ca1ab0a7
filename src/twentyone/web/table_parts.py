"""What a live table is made of: its configuration, the decision clock's default action, the
chips and seats of the betting phase, and the round in play with what the table keeps around
it. :class:`~twentyone.web.tables.LiveTable` owns and changes these.

>>> TableConfig(id="t1", rules="ro-casino").countdown_seconds
15.0
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from twentyone.round import Round
from twentyone.web.storage.accounts import Player

Clock = Callable[[], float]


@dataclass(frozen=True, slots=True)
class TableConfig:
    """A table of the lobby: its id, its rule set (preset, shorthand or TOML path) and
    timings. ``multi_player`` None: single-player for the online games (``*-online``)."""

    id: str
    rules: str
    multi_player: bool | None = None
    countdown_seconds: float = 15.0
    decision_seconds: float = 20.0
    language: str | None = None  # the page's language here unless the player chose one


class DefaultAction:
    """What the decision clock does for a player who does not act in time."""

    def __init__(self, name: str, chooser: Callable[[Round], str] | None = None) -> None:
        self.name = name
        self.chooser = chooser

    def decide(self, rnd: Round) -> str:
        """A legal decision for the round's question: the chooser's, or stand (hit where a
        stand is not allowed), and every prompt declined."""
        q = rnd.question
        assert q is not None
        if self.chooser is not None:
            try:
                choice = self.chooser(rnd)
            except Exception:  # a failing strategy must not stop the table
                choice = ""
            if choice and rnd.can(choice):
                return choice
        for fallback in ("no-insurance", "no-even-money", "no-surrender", "stand", "hit"):
            if fallback in q.actions:
                return fallback
        return q.actions[0]


@dataclass(slots=True)
class Chip:
    """A chip placed in the betting phase (undo takes back the last one)."""

    box: int
    side: str
    amount: int


@dataclass(slots=True)
class Seat:
    """A seated player, their chips and what their last round staked (for rebet)."""

    player: Player
    ready: bool = False
    connections: int = 0
    chips: list[Chip] = field(default_factory=list)
    last_bets: list[Chip] = field(default_factory=list)


@dataclass(slots=True)
class Played:
    """The round in play: the engine's round plus what the table needs around it."""

    id: int
    rnd: Round
    box_map: list[int]  # the round's box i sits at table box box_map[i]
    accounts: dict[str, int]
    posted: int = 0  # log records already sent to the ledger
    clock_decisions: list[int] = field(default_factory=list)
    log: list[dict[str, Any]] = field(default_factory=list)
    question_key: tuple[Any, ...] | None = None
    deadline: float | None = None
    default: str | None = None
