"""What a live table is made of beyond its :class:`~twentyone.engine.session.TableSession`: its
configuration in the lobby. The session's parts (chips, seats, the round in play, the decision
clock's default action) live in :mod:`twentyone.engine.session_parts` and are named here too.

>>> TableConfig(id="t1", rules="ro-casino").countdown_seconds
15.0
"""

from __future__ import annotations

from dataclasses import dataclass

from twentyone.engine.session_parts import Chip, Clock, DefaultAction, Played, Seat

__all__ = ["Chip", "Clock", "DefaultAction", "Played", "Seat", "TableConfig"]


@dataclass(frozen=True, slots=True)
class TableConfig:
    """A table of the lobby: its id, its rule set (preset, shorthand or TOML path) and
    timings. ``multi_player`` None: the rules' own (``Rules.multi_player``)."""

    id: str
    rules: str
    multi_player: bool | None = None
    countdown_seconds: float = 15.0
    decision_seconds: float = 20.0
    language: str | None = None  # the page's language here unless the player chose one
    shuffle: str = "secure"  # "provable": a committed shoe the players can verify
    name: str | None = None  # the name players see (default: the rules file's [house], else id)
    country: str | None = None  # the house's ISO 3166-1 code (default: the rules file's)
