"""What a table session is made of: its refusals, the decision clock's default action, the
chips and seats of the betting phase, the round in play with what the table keeps around it,
a finished round the ledger has not taken yet, the notices it gives, and the small functions
between chips, bets and ledger moves.
:class:`~twentyone.engine.session.TableSession` owns and changes these.

>>> Chip(box=0, side="main", amount=500)
Chip(box=0, side='main', amount=500)
>>> str(SessionError("box {box}: the table has boxes 0 to {last}", "box", 9, box=9, last=6))
'box 9: the table has boxes 0 to 6'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from twentyone.engine.errors import Template, TwentyOneError
from twentyone.engine.hands import BoxBet
from twentyone.engine.ledger import RoundMove
from twentyone.engine.records import Payment
from twentyone.engine.round import Round
from twentyone.engine.rules import Rules

Clock = Callable[[], float]


class SessionError(TwentyOneError):
    """An intention the table refused; it changed nothing. ``field`` and ``value`` name what
    was wrong; ``message`` is a catalog message (marked with ``N_``) whose ``{named}``
    placeholders ``params`` fill, for a front end to translate. The English text is
    ``detail`` when given (an engine error says more), else the message filled in.

    A counted message is its singular and plural (marked with ``Nn_``) and ``counted`` names
    the whole-number parameter that picks the form, as gettext's ``ngettext`` picks it:
    ``message`` is then the singular (the catalog's msgid) and ``plural`` the plural (else
    ``None``).

    ``engine`` is the engine's error when the engine refused (a bet outside the limits, a
    decision it does not allow): ``code`` is then its code, else ``None`` (a refusal of the
    table's own: a seat, a turn). :func:`twentyone.i18n.describe` tells either.

    >>> e = SessionError(("{n} seat left", "{n} seats left"), counted="n", n=2)
    >>> str(e), e.message, e.plural, e.template.plural
    ('2 seats left', '{n} seat left', '{n} seats left', '{n} seats left')
    """

    #: the session's money parameters (minor units), as the web page formats them
    MONEY = ("amount", "bet", "held", "max", "min", "total", "balance")

    def __init__(
        self,
        message: str | tuple[str, str],
        field: str | None = None,
        value: Any = None,
        *,
        detail: str | None = None,
        engine: TwentyOneError | None = None,
        counted: str | None = None,
        **params: Any,
    ) -> None:
        singular, plural = (message, None) if isinstance(message, str) else message
        if plural is not None and not isinstance(params.get(counted or ""), int):
            raise ValueError(f"counted={counted!r}: expected the name of a whole-number parameter")
        english = plural if plural is not None and params[counted or ""] != 1 else singular
        ValueError.__init__(self, detail if detail is not None else english.format(**params))
        self.message = singular
        self.plural = plural
        self.counted = counted if plural is not None else None
        self.params = params
        self.field = field
        self.value = value
        self.detail = detail
        self.engine = engine
        self.code = engine.code if engine is not None else None  # type: ignore[assignment]

    @classmethod
    def from_engine(cls, err: TwentyOneError, field: str | None, value: Any) -> SessionError:
        """The engine's refusal as the table's: its code's template and parameters are the
        message a front end translates (an error among the parameters as its English text).
        The session passes the engine its 0-based table box, so ``box`` counts as it does.

        >>> from twentyone.engine.errors import BetError
        >>> err = BetError("outside-limits", box=0, bet=50, min=100, max=900)
        >>> r = SessionError.from_engine(err, "box", 0)
        >>> r.code, str(r), r.message.format(**r.params) == str(r)
        ('outside-limits', 'box 0: bet 50 is outside the table limits 100 to 900', True)
        """
        params = {k: str(v) if isinstance(v, TwentyOneError) else v for k, v in err.params.items()}
        return cls(err.template.text, field, value, detail=str(err), engine=err, **params)

    @property
    def template(self) -> Template:
        """The catalog message and its money parameters (for :func:`~twentyone.i18n.describe`)."""
        money = tuple(n for n in self.MONEY if n in self.params)
        return Template(self.message, money, plural=self.plural, count=self.counted or "n")

    def __reduce__(self) -> tuple[Any, ...]:
        return (_session_error, (self.message, self.field, self.value, self.__dict__))


def _session_error(
    message: str, field: str | None, value: Any, state: dict[str, Any]
) -> SessionError:
    err = SessionError.__new__(SessionError)
    ValueError.__init__(err, message)
    err.__dict__.update(state)
    return err


class DefaultAction:
    """What the decision clock does for a player who does not act in time.

    >>> from twentyone.engine.hands import BoxBet
    >>> from twentyone.engine.rulesets import load_rules
    >>> from twentyone.engine.shoe import StackedShoe
    >>> rnd = Round(load_rules("ru-online"), StackedShoe("6S 5D 5C 9H"), [BoxBet("ann", 1000)])
    >>> DefaultAction("stand").decide(rnd)
    'stand'
    """

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
        for fallback in ("no-insurance", "no-even-money", "no-surrender", "keep", "stand", "hit"):
            if fallback in q.actions:
                return fallback
        return q.actions[0]


@dataclass(slots=True)
class Chip:
    """A chip placed in the betting phase (undo takes back the last one); ``side`` is
    ``"main"`` or the id of a side bet."""

    box: int
    side: str
    amount: int


@dataclass(slots=True)
class Seat:
    """A seated player (``account`` in the ledger), their chips, what their last round
    staked (for rebet) and how many connections they have open (none: they leave once
    their round is over)."""

    name: str
    account: int
    ready: bool = False
    connections: int = 0
    chips: list[Chip] = field(default_factory=list)
    last_bets: list[Chip] = field(default_factory=list)
    idle_since: float = 0.0  # their idle time counts from here (rounds in play pushed it on)
    warned: bool = False  # told they will be stood up
    rounds_without_bet: int = 0  # betting rounds passed without a bet (multi-player)


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
    number: int = 0  # the round's number at its table (what players see; ``id`` is the books')


@dataclass(slots=True)
class Settling:
    """A finished round whose settlement the ledger could not write yet."""

    played: Played
    moves: list[RoundMove]
    since: float
    retry_at: float
    pause: float = 0.5


@dataclass(frozen=True, slots=True)
class Turn:
    """Whose turn it is: the player, the table box and hand the round asks about, the
    question's kind and legal actions, the decision clock's deadline and default."""

    player: str
    box: int
    hand: int
    kind: str
    actions: tuple[str, ...]
    amount_range: tuple[int, int] | None
    deadline: float | None
    default: str | None


@dataclass(frozen=True, slots=True)
class Notice:
    """Something the table tells everyone: its ``kind`` (``round-start``, ``round-end``,
    ``default-action``, ``bets-dropped``, ``table-error``), the English ``text``, the catalog
    ``message`` with its ``params`` (a front end translates it), and ``extra`` facts.

    >>> Notice("round-start", "round 3: no more bets", "round {round}: no more bets",
    ...        {"round": 3}, {"round": 3}).as_message()["text"]
    'round 3: no more bets'
    """

    kind: str
    text: str
    message: str
    params: dict[str, Any]
    extra: dict[str, Any] = field(default_factory=dict)

    def as_message(self) -> dict[str, Any]:
        """The notice as a JSON-ready message (``type`` "notice")."""
        return {
            "type": "notice",
            "kind": self.kind,
            "text": self.text,
            "message": self.message,
            "params": self.params,
            **self.extra,
        }


def is_multi_player(rules: Rules) -> bool:
    """Whether a rule set's table seats several players (``Rules.multi_player``: false for
    the online games, where one player has the table to themselves).

    >>> from twentyone.engine.rulesets import load_rules
    >>> is_multi_player(load_rules("ro-casino")), is_multi_player(load_rules("pl-online"))
    (True, False)
    """
    return rules.multi_player


def box_bet(player: str, stakes: dict[str, int]) -> BoxBet:
    """The engine's bet on one box from its stakes per side (``main`` and side bets).

    >>> box_bet("ann", {"main": 1000, "jackpot": 100})
    BoxBet(player='ann', bet=1000, side_bets={'jackpot': 100})
    """
    sides = {side: amount for side, amount in stakes.items() if side != "main"}
    return BoxBet(player, stakes.get("main", 0), sides)


def stakes_by_box(chips: list[Chip]) -> dict[int, dict[str, int]]:
    """Chips summed per table box and side, boxes in the order first bet on."""
    out: dict[int, dict[str, int]] = {}
    for c in chips:
        sides = out.setdefault(c.box, {})
        sides[c.side] = sides.get(c.side, 0) + c.amount
    return out


def round_moves(rnd: Round, start: int, accounts: dict[str, int]) -> list[RoundMove]:
    """The round's payments from log record ``start`` on, as ledger moves."""
    moves = []
    for index in range(start, len(rnd.log)):
        rec = rnd.log[index]
        if isinstance(rec, Payment) and rec.amount:
            player = rnd.boxes[rec.box].player
            moves.append(RoundMove(index, accounts[player], rec.amount))
    return moves
