"""Card-counting systems as data: tags per rank, the initial running count, side counts, and
the true count a player really computes.

A system is a TOML file (the built-in ones are in ``counting/systems/``; a user's file loads
the same way)::

    name = "Hi-Lo"
    tags = { A = -1, 2 = 1, 3 = 1, 4 = 1, 5 = 1, 6 = 1, 7 = 0, 8 = 0, 9 = 0, T = -1 }
    red_tags = { 7 = 1 }                        # optional: red cards that count otherwise
    initial = { per_deck = -4, constant = 4 }   # optional: the running count at a new shoe
    [[side_counts]]                             # optional: e.g. aces, for betting
    name = "aces"
    rank = "A"
    betting_weight = 2
    [true_count]
    estimation = "exact"                        # exact | half-deck | full-deck | none
    rounding = "floor"                          # floor | truncate | round

Tags are whole numbers, halves or any fraction (``"1/2"``, or ``0.5``), kept as
:class:`~fractions.Fraction`. Whether a system is balanced is computed (a deck's tags sum to
zero), never stated. Suits: the simulator's shoe holds suited cards, so ``red_tags`` (diamonds
and hearts) are counted exactly there (Red 7); where only ranks are known, a rank counts the
mean of its colours (:attr:`CountSystem.rank_tags`).

>>> hilo = load_count("hilo")
>>> hilo.balanced, hilo.initial_running_count(6), hilo.rank_tags[0]
(True, Fraction(0, 1), Fraction(-1, 1))
>>> ko = load_count("ko")
>>> ko.balanced, ko.initial_running_count(6)
(False, Fraction(-20, 1))
>>> load_count("red7").rank_tags[6]
Fraction(1, 2)
>>> hilo.true_count.of(Fraction(7), 104)
3
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, field
from fractions import Fraction
from importlib import resources
from pathlib import Path
from typing import Any

from twentyone.engine.errors import CountError

#: Counting ranks in the order every tag tuple uses (ten-value cards are ``T``).
COUNT_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T")
#: Cards of each counting rank in one deck.
PER_DECK = (4, 4, 4, 4, 4, 4, 4, 4, 4, 16)
#: The built-in systems: file stem (the ``--count`` name) in ``counting/systems/``.
SYSTEMS = ("hilo", "ko", "hiopt1", "hiopt2", "omega2", "zen", "halves", "red7")
ESTIMATIONS = ("exact", "half-deck", "full-deck", "none")
ROUNDINGS = ("floor", "truncate", "round")


def to_tag(value: Any, where: str) -> Fraction:
    """A tag or weight: a whole number, a float that is exact in decimal (``0.5``) or a
    fraction string (``"1/2"``, ``"-3/2"``).

    >>> to_tag("-3/2", "tag 5"), to_tag(0.5, "tag 2"), to_tag(2, "tag 4")
    (Fraction(-3, 2), Fraction(1, 2), Fraction(2, 1))
    """
    if isinstance(value, Fraction):
        return value
    if isinstance(value, bool):
        raise CountError("count-tag", where=where, value=value)
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float | str):
        try:
            return Fraction(str(value).strip())
        except (ValueError, ZeroDivisionError):
            pass
    raise CountError("count-tag", where=where, value=value)


def _round_fraction(x: Fraction, rounding: str) -> int:
    if rounding == "floor":
        return math.floor(x)
    if rounding == "truncate":
        return math.trunc(x)
    # nearest, halves away from zero
    n = math.floor(abs(x) + Fraction(1, 2))
    return n if x >= 0 else -n


@dataclass(frozen=True, kw_only=True)
class TrueCount:
    """How a player turns the running count into a true count: ``running / decks left``, the
    decks left as the player sees them (``exact``; ``half-deck`` or ``full-deck``: the nearest
    half or whole deck, halves up, at least one such unit; ``none``: no division, the running
    count itself, for unbalanced counts), then rounded (``floor`` toward minus infinity,
    ``truncate`` toward zero, ``round`` to the nearest with halves away from zero).

    >>> TrueCount(estimation="half-deck", rounding="truncate").of(Fraction(-5), 80)
    -3
    >>> TrueCount(estimation="full-deck", rounding="round").decks_left(80)
    Fraction(2, 1)
    >>> TrueCount(estimation="exact", rounding="sideways")
    Traceback (most recent call last):
    ...
    twentyone.engine.errors.CountError: rounding='sideways': expected one of floor, truncate, round
    """

    estimation: str = "exact"
    rounding: str = "floor"

    def __post_init__(self) -> None:
        if self.estimation not in ESTIMATIONS:
            raise CountError(
                "not-one-of",
                field="estimation",
                value=self.estimation,
                choices=", ".join(ESTIMATIONS),
            )
        if self.rounding not in ROUNDINGS:
            raise CountError(
                "not-one-of", field="rounding", value=self.rounding, choices=", ".join(ROUNDINGS)
            )

    def decks_left(self, cards_left: int) -> Fraction:
        """The decks the player divides by (``1`` for ``none``)."""
        if self.estimation == "exact":
            return Fraction(max(cards_left, 1), 52)
        if self.estimation == "half-deck":
            return Fraction(max(1, (cards_left + 13) // 26), 2)
        if self.estimation == "full-deck":
            return Fraction(max(1, (cards_left + 26) // 52))
        return Fraction(1)

    def exact(self, running: Fraction, cards_left: int) -> Fraction:
        """The true count before rounding."""
        return Fraction(running) / self.decks_left(cards_left)

    def of(self, running: Fraction, cards_left: int) -> int:
        """The true count, rounded."""
        return _round_fraction(self.exact(running, cards_left), self.rounding)


@dataclass(frozen=True, kw_only=True)
class SideCount:
    """A side count of one rank, used for betting: each card of ``rank`` left beyond its
    normal share of the cards left adds ``betting_weight`` to the running count (before the
    true count is taken), each one short subtracts it."""

    name: str
    rank: str
    betting_weight: Fraction

    def __post_init__(self) -> None:
        if self.rank not in COUNT_RANKS:
            raise CountError(
                "not-one-of",
                field="side_counts.rank",
                value=self.rank,
                choices=" ".join(COUNT_RANKS),
            )

    def adjustment(self, seen: int, cards_left: int, decks: int) -> Fraction:
        """What the side count adds to the running count with ``seen`` cards of its rank
        gone and ``cards_left`` cards left of a ``decks``-deck shoe.

        >>> SideCount(name="aces", rank="A", betting_weight=Fraction(2)).adjustment(0, 156, 6)
        Fraction(24, 1)
        """
        v = COUNT_RANKS.index(self.rank)
        left = PER_DECK[v] * decks - seen
        share = Fraction(PER_DECK[v] * cards_left, 52)
        return self.betting_weight * (left - share)


@dataclass(frozen=True, kw_only=True)
class CountSystem:
    """A counting system (see the module's text). ``tags`` and ``red_tags`` are by rank
    ``A 2 .. 9 T`` (:data:`COUNT_RANKS`); ``red_tags`` equals ``tags`` unless red cards count
    otherwise. The running count at a new shoe is ``initial_per_deck * decks +
    initial_constant``."""

    name: str
    key: str = ""
    tags: tuple[Fraction, ...]
    red_tags: tuple[Fraction, ...] | None = None
    initial_per_deck: Fraction = Fraction(0)
    initial_constant: Fraction = Fraction(0)
    side_counts: tuple[SideCount, ...] = ()
    true_count: TrueCount = field(default_factory=TrueCount)

    def __post_init__(self) -> None:
        for name in ("tags", "red_tags"):
            value = getattr(self, name)
            if value is None:
                continue
            if len(value) != len(COUNT_RANKS):
                raise CountError("count-tags", count=self.name, field=name, tags=list(value))
            object.__setattr__(
                self,
                name,
                tuple(to_tag(t, f"{name}.{r}") for t, r in zip(value, COUNT_RANKS, strict=True)),
            )
        if self.red_tags is None:
            object.__setattr__(self, "red_tags", self.tags)
        for name in ("initial_per_deck", "initial_constant"):
            object.__setattr__(self, name, to_tag(getattr(self, name), name))

    @property
    def rank_tags(self) -> tuple[Fraction, ...]:
        """Tags by rank where suits are unknown: the mean of the black and the red tag."""
        assert self.red_tags is not None
        return tuple((b + r) / 2 for b, r in zip(self.tags, self.red_tags, strict=True))

    @property
    def deck_sum(self) -> Fraction:
        """The tags of one deck's 52 cards added up."""
        return sum((n * t for n, t in zip(PER_DECK, self.rank_tags, strict=True)), Fraction(0))

    @property
    def balanced(self) -> bool:
        """Whether a deck's tags sum to zero (computed, never stated)."""
        return self.deck_sum == 0

    @property
    def scale(self) -> int:
        """The least whole number that makes every tag and weight whole (2 for Wong Halves):
        the simulator counts in these units."""
        assert self.red_tags is not None
        values = [*self.tags, *self.red_tags, self.initial_per_deck, self.initial_constant]
        values += [s.betting_weight for s in self.side_counts]
        return math.lcm(*(v.denominator for v in values))

    def initial_running_count(self, decks: int) -> Fraction:
        """The running count at a new shoe of ``decks`` decks."""
        return self.initial_per_deck * decks + self.initial_constant

    def tag_of(self, rank: str, suit: str) -> Fraction:
        """The tag of one card (rank ``2``..``9``, ``T J Q K``, ``A``; suit ``C D H S``).

        >>> load_count("red7").tag_of("7", "D"), load_count("red7").tag_of("7", "S")
        (Fraction(1, 1), Fraction(0, 1))
        """
        v = COUNT_RANKS.index("T" if rank in "TJQK" else rank)
        assert self.red_tags is not None
        return self.red_tags[v] if suit in "DH" else self.tags[v]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-friendly description (fractions as strings such as ``"1/2"``)."""
        assert self.red_tags is not None
        out: dict[str, Any] = {
            "name": self.name,
            "key": self.key,
            "tags": {r: str(t) for r, t in zip(COUNT_RANKS, self.tags, strict=True)},
            "balanced": self.balanced,
            "initial": {
                "per_deck": str(self.initial_per_deck),
                "constant": str(self.initial_constant),
            },
            "true_count": {
                "estimation": self.true_count.estimation,
                "rounding": self.true_count.rounding,
            },
        }
        if self.red_tags != self.tags:
            out["red_tags"] = {r: str(t) for r, t in zip(COUNT_RANKS, self.red_tags, strict=True)}
        if self.side_counts:
            out["side_counts"] = [
                {"name": s.name, "rank": s.rank, "betting_weight": str(s.betting_weight)}
                for s in self.side_counts
            ]
        return out


_KEYS = {"name", "tags", "red_tags", "initial", "side_counts", "true_count"}


def _rank_table(
    value: Any, source: str, name: str, base: tuple[Fraction, ...] | None
) -> tuple[Fraction, ...]:
    if not isinstance(value, dict):
        raise CountError("count-tags", count=source, field=name, tags=value)
    keys = {str(k).upper(): v for k, v in value.items()}
    unknown = sorted(set(keys) - set(COUNT_RANKS))
    if unknown or (base is None and set(keys) != set(COUNT_RANKS)):
        raise CountError("count-tags", count=source, field=name, tags=value)
    start = base if base is not None else (Fraction(0),) * len(COUNT_RANKS)
    return tuple(
        to_tag(keys[r], f"{name}.{r}") if r in keys else start[i] for i, r in enumerate(COUNT_RANKS)
    )


def count_from_toml(text: str, source: str = "<toml>", key: str = "") -> CountSystem:
    """A count system from TOML text (see the module's text); unknown keys and bad values are
    errors naming them."""
    try:
        data: dict[str, Any] = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CountError("count-file", source=source, reason=str(exc)) from exc
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise CountError("count-key", source=source, key=unknown[0], keys=", ".join(sorted(_KEYS)))
    tags = _rank_table(data.get("tags"), source, "tags", None)
    red = _rank_table(data["red_tags"], source, "red_tags", tags) if "red_tags" in data else None
    initial = data.get("initial", {})
    if not isinstance(initial, dict) or set(initial) - {"per_deck", "constant"}:
        raise CountError("count-key", source=source, key="initial", keys="per_deck, constant")
    sides = []
    if len(data.get("side_counts", [])) > 1:  # the simulator keeps one side count
        raise CountError("count-key", source=source, key="side_counts", keys="one side count")
    for s in data.get("side_counts", []):
        if not isinstance(s, dict) or set(s) != {"name", "rank", "betting_weight"}:
            raise CountError(
                "count-key", source=source, key="side_counts", keys="name, rank, betting_weight"
            )
        sides.append(
            SideCount(
                name=str(s["name"]),
                rank=str(s["rank"]).upper(),
                betting_weight=to_tag(s["betting_weight"], "betting_weight"),
            )
        )
    tc = data.get("true_count", {})
    if not isinstance(tc, dict) or set(tc) - {"estimation", "rounding"}:
        raise CountError("count-key", source=source, key="true_count", keys="estimation, rounding")
    return CountSystem(
        name=str(data.get("name", key or source)),
        key=key,
        tags=tags,
        red_tags=red,
        initial_per_deck=to_tag(initial.get("per_deck", 0), "initial.per_deck"),
        initial_constant=to_tag(initial.get("constant", 0), "initial.constant"),
        side_counts=tuple(sides),
        true_count=TrueCount(**tc),
    )


def system_text(key: str) -> str:
    """The TOML source of a built-in system."""
    return resources.files("twentyone.counting").joinpath(f"systems/{key}.toml").read_text("utf-8")


def load_count(spec: str) -> CountSystem:
    """A built-in system by its key (:data:`SYSTEMS`, e.g. ``hilo``; case and ``-`` ignored)
    or a TOML file's path.

    >>> load_count("Hi-Lo").name
    'Hi-Lo'
    >>> load_count("nonesuch")
    Traceback (most recent call last):
    ...
    twentyone.engine.errors.CountError: --count 'nonesuch': no such count system or file; built \
in: hilo, ko, hiopt1, hiopt2, omega2, zen, halves, red7
    """
    key = spec.lower().replace("-", "").replace(" ", "")
    if key in SYSTEMS:
        return count_from_toml(system_text(key), f"{key}.toml", key)
    path = Path(spec)
    if path.suffix == ".toml" or path.exists():
        try:
            text = path.read_text("utf-8")
        except OSError as exc:
            raise CountError("count-file", source=spec, reason=exc.strerror or str(exc)) from exc
        return count_from_toml(text, spec, path.stem)
    raise CountError("count-unknown", name=spec, names=", ".join(SYSTEMS))


def builtin_counts() -> dict[str, CountSystem]:
    """Every built-in system by its display name (Hi-Lo, KO, ...), in :data:`SYSTEMS` order."""
    out = {}
    for key in SYSTEMS:
        system = load_count(key)
        out[system.name] = system
    return out
