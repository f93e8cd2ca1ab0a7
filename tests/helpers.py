"""Small helpers shared by the engine tests.

Rounds are dealt from a :class:`StackedShoe` whose card order the test worked out by hand, and
decisions are given in replay spelling (``"hit"``, ``"double:50"``, ``"no-insurance"`` ...).
The accessors read a finished (or paused) round back as plain lists and strings, so that an
assertion can compare against hand-worked values.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, overload

from twentyone import (
    BoxBet,
    Payment,
    Question,
    Reveal,
    Round,
    Rules,
    StackedShoe,
    format_cards,
    load_rules,
)
from twentyone.engine.hands import Hand

#: A box in ``play``'s ``bets``: a full ``BoxBet``, a ``(player, bet)`` pair, or a plain bet.
Bet = BoxBet | tuple[str, int] | int


def _box(i: int, bet: Bet, players: Sequence[str] | None) -> BoxBet:
    """The ``BoxBet`` for the ``i``-th entry of ``play``'s ``bets``."""
    if isinstance(bet, BoxBet):
        return bet
    if isinstance(bet, tuple):
        return BoxBet(*bet)
    return BoxBet(players[i] if players is not None else "ann", bet)


@overload
def play(
    rules: str | Rules,
    shoe: str,
    bets: Sequence[Bet] = ...,
    decisions: Sequence[str] = ...,
    bankrolls: dict[str, int] | None = ...,
    *,
    players: Sequence[str] | None = ...,
    asked: Literal[False] = ...,
) -> Round: ...


@overload
def play(
    rules: str | Rules,
    shoe: str,
    bets: Sequence[Bet] = ...,
    decisions: Sequence[str] = ...,
    bankrolls: dict[str, int] | None = ...,
    *,
    players: Sequence[str] | None = ...,
    asked: Literal[True],
) -> tuple[Round, list[Question]]: ...


def play(
    rules: str | Rules,
    shoe: str,
    bets: Sequence[Bet] = (100,),
    decisions: Sequence[str] = (),
    bankrolls: dict[str, int] | None = None,
    *,
    players: Sequence[str] | None = None,
    asked: bool = False,
) -> Round | tuple[Round, list[Question]]:
    """Deal a round from a stacked shoe and apply ``decisions`` (replay spelling) in order.

    ``rules`` is a :class:`Rules` or anything ``load_rules`` reads (preset name, shorthand).
    Each entry of ``bets`` is one box, in seat order: a ``BoxBet`` or a ``(player, bet)`` pair
    is used as it is; a plain integer is a box of ``"ann"``, or of ``players[i]`` for the
    ``i``-th box when ``players`` is given (one player a box). The default is one box of 100,
    the table minimum. ``bankrolls`` is passed on to :class:`Round`.

    Returns the round; with ``asked=True``, the round and the question each decision answered
    (one per decision, in order). A decision given after the round is over fails the test.
    """
    boxes = [_box(i, b, players) for i, b in enumerate(bets)]
    rnd = Round(load_rules(rules), StackedShoe(shoe), boxes, bankrolls)
    questions: list[Question] = []
    for decision in decisions:
        assert rnd.question is not None, f"round over before {decision!r}"
        questions.append(rnd.question)
        rnd.apply(decision)
    return (rnd, questions) if asked else rnd


# ---------------------------------------------------------------- the boxes' hands


def hand(rnd: Round, box: int = 0, i: int = 0) -> Hand:
    """Hand ``i`` of box ``box`` (the first hand of the first box by default)."""
    return rnd.boxes[box].hands[i]


def shown(h: Hand) -> list[str]:
    """A hand's cards as strings, in the order it got them: ``["AS", "KD"]``."""
    return [str(c) for c in h.cards]


def results(rnd: Round) -> list[list[str | None]]:
    """Each box's hand results (``None`` while a hand is unsettled)."""
    return [[h.result for h in b.hands] for b in rnd.boxes]


def returned(rnd: Round) -> list[list[int]]:
    """What each box's hands returned to the player (stake included)."""
    return [[h.returned for h in b.hands] for b in rnd.boxes]


# ---------------------------------------------------------------- the dealer and the shoe


def dealer(rnd: Round) -> list[str]:
    """All the dealer's cards as strings, hole card included: ``["TD", "7C"]``."""
    return [str(c) for c in rnd.dealer]


def dealer_text(rnd: Round) -> str:
    """All the dealer's cards as one string, hole card included: ``"TD 7C"``."""
    return format_cards(rnd.dealer)


def left(rnd: Round) -> int:
    """Cards still in the stacked shoe: what nobody drew (0 when the order held exactly)."""
    shoe = rnd.shoe
    assert isinstance(shoe, StackedShoe)
    return shoe.remaining


def all_dealt(rnd: Round) -> bool:
    """The stacked shoe was used exactly: the hand-worked card order held to the last card."""
    return left(rnd) == 0


# ---------------------------------------------------------------- the log


def payments(rnd: Round, kind: str) -> list[Payment]:
    """The round's payments of one kind (``"stake"``, ``"return"``, ``"insurance"`` ...)."""
    return [r for r in rnd.log if isinstance(r, Payment) and r.kind == kind]


def side_payments(rnd: Round, side_bet: str) -> list[Payment]:
    """What the side bet ``side_bet`` (an id of the table's side bets) paid out this round."""
    return [
        r
        for r in rnd.log
        if isinstance(r, Payment) and r.kind == "side-bet" and r.side_bet == side_bet
    ]


def reveals(rnd: Round) -> list[str]:
    """The dealer cards turned face up during the round, in order."""
    return [str(r.card) for r in rnd.log if isinstance(r, Reveal)]


def index_of(rnd: Round, record: type, **match: object) -> int:
    """Position in the log of the first record of type ``record`` whose fields match."""
    return next(
        i
        for i, r in enumerate(rnd.log)
        if isinstance(r, record) and all(getattr(r, k) == v for k, v in match.items())
    )
