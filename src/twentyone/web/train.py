"""The trainers' API: the count drill and basic-strategy flashcards for the rules of a lobby
table (the page's trainer, ``static/trainer.js``).

The server deals and the server grades, and it keeps nothing between the two: a question
carries its cards, the answer sends them back with the player's count or play, and the
server works the answer out again from them (:func:`twentyone.counting.trainer.count_of`,
:func:`twentyone.counting.trainer_cards.answer`). So the count's tags, the true-count rule and the
chart live once, in the tested library, not again in the page's JavaScript; no drill is
stored, so nothing grows with the number of players. The page sees the cards it is asked
about (it has to show them); nothing is at stake, so that is no leak. Accuracy and time per
answer are the page's to keep: it times the answers itself.

Tables only, not any rules text: a table's rules are few and known, and the chart of each is
computed once (in a worker thread, a few seconds the first time) and kept.
"""

from __future__ import annotations

import threading
from fractions import Fraction
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, status
from pydantic import BaseModel, Field

from twentyone.counting.counts import SYSTEMS, CountSystem
from twentyone.counting.index_set import IndexPlay
from twentyone.counting.trainer import MAX_CARDS, CountDrill, count_of, count_system, count_text
from twentyone.counting.trainer_cards import (
    INSURANCE_PLAYS,
    PLAYS,
    Flashcard,
    FlashcardDeck,
    answer,
    entries_for,
    legal_plays,
    load_index_list,
)
from twentyone.engine.cards import Card, hand_total, parse_cards
from twentyone.engine.errors import N_, CountError, Nn_, TwentyOneError
from twentyone.engine.rules import Rules
from twentyone.engine.strategy import Strategy
from twentyone.web.refusal import Refusal
from twentyone.web.ws_limits import clip

router = APIRouter(prefix="/api/train", tags=["trainer"])

_charts: dict[Rules, Strategy] = {}
_lock = threading.Lock()


def chart_of(rules: Rules) -> Strategy:
    """The basic-strategy chart of ``rules``, computed once."""
    with _lock:
        if rules not in _charts:
            from twentyone.analysis import basic_strategy

            _charts[rules] = basic_strategy(rules)
        return _charts[rules]


def _rules(request: Request, table: str) -> Rules:
    """The rules of a lobby table (any node's: a cluster node knows every table's rules)."""
    rules: Rules | None = request.app.state.rules_of.get(table)
    if rules is None:
        raise Refusal(status.HTTP_404_NOT_FOUND, N_("no table {table!r}"), table=clip(table))
    return rules


def _refused(exc: TwentyOneError) -> Refusal:
    t = exc.template
    if t.plural is not None:  # a counted message: the page picks the form by t.count
        forms = (t.text, t.plural)
        return Refusal(status.HTTP_400_BAD_REQUEST, forms, counted=t.count, **exc.params)
    return Refusal(status.HTTP_400_BAD_REQUEST, t.text, **exc.params)


def _cards(text: list[str], most: int) -> tuple[Card, ...]:
    if len(text) > most:
        raise Refusal(
            status.HTTP_400_BAD_REQUEST,
            Nn_("{cards} card: the shoe holds {size}", "{cards} cards: the shoe holds {size}"),
            counted="cards", cards=len(text), size=most,
        )  # fmt: skip
    try:
        return parse_cards(" ".join(text)) if text else ()
    except TwentyOneError as exc:
        raise _refused(exc) from None


Table = Annotated[str, Query(max_length=64, description="a lobby table's id: its rules")]
CountName = Annotated[
    str, Query(description="the counting system", json_schema_extra={"enum": list(SYSTEMS)})
]
#: The index sets the page offers (the shipped published Hi-Lo sets).
INDEX_SETS = ("I18", "FAB4", "I18+FAB4")
IndexSet = Annotated[
    str | None,
    Query(
        description="index flashcards from a published set (default: basic strategy)",
        json_schema_extra={"enum": [*INDEX_SETS, None]},
    ),
]


def _system(name: str, rounding: str | None = None) -> CountSystem:
    """A built-in counting system (never a file: the name comes from the web), its true count
    rounded by ``rounding`` (``floor`` or ``truncate``; None: the system's own, ``floor``)."""
    key = name.lower().replace("-", "").replace(" ", "")
    if key not in SYSTEMS:
        raise _refused(CountError("count-unknown", name=name, names=", ".join(SYSTEMS)))
    try:
        return count_system(key, rounding)
    except TwentyOneError as exc:
        raise _refused(exc) from None


def _indices(name: str | None) -> tuple[IndexPlay, ...]:
    if name is None:
        return ()
    if name not in INDEX_SETS:
        raise Refusal(
            status.HTTP_400_BAD_REQUEST,
            N_("--indices {source!r}: {reason}"),
            source=name,
            reason="expected one of " + ", ".join(INDEX_SETS),
        )
    return load_index_list(name)


class CountQuestion(BaseModel):
    """Cards from the top of a new shoe of the table's decks: what is the count now?"""

    table: str
    count: str = Field(description="the counting system's name", examples=["Hi-Lo"])
    decks: int
    cards: list[str] = Field(examples=[["TS", "5H", "2C"]])
    cards_left: int
    decks_left: float = Field(description="the decks the true count divides by")


class CountAnswer(BaseModel):
    """A count drill's answer: the cards it was about and the player's counts."""

    table: str = Field(max_length=64)
    count: str = Field(default="hilo", max_length=32)
    cards: list[str] = Field(max_length=8 * 52, examples=[["TS", "5H", "2C"]])
    running: float = Field(description="a whole number, or a half for Wong Halves")
    true_count: int | None = None
    rounding: str | None = Field(
        default=None,
        max_length=16,
        description="how the true count is rounded: floor (down: -1.5 is -2; the default) or "
        "truncate (toward zero: -1.5 is -1)",
        json_schema_extra={"enum": ["floor", "truncate", None]},
    )


class Graded(BaseModel):
    """One graded answer (``rules``: the index entries the answer followed, if any)."""

    given: str
    expected: str
    right: bool
    rules: list[dict[str, Any]] = Field(default_factory=list)


class CountGrade(BaseModel):
    """The grade of a count drill's answer (``true_count`` when one was given)."""

    running: Graded
    true_count: Graded | None
    cards_left: int


class CardQuestion(BaseModel):
    """A flashcard: a first hand against the dealer's up card; ``plays``: the plays the
    table's rules give it."""

    table: str
    hand: list[str] = Field(examples=[["TS", "6D"]])
    up: str = Field(examples=["TH"])
    total: int
    soft: bool
    plays: list[str] = Field(examples=[["hit", "stand", "double", "surrender"]])
    true_count: int | None = Field(default=None, description="an index card's true count")
    insurance: bool = Field(default=False, description="an index card asking about insurance")
    indices: str | None = None


class CardAnswer(BaseModel):
    """A flashcard's answer: the card and the play named."""

    table: str = Field(max_length=64)
    hand: list[str] = Field(min_length=2, max_length=2, examples=[["TS", "6D"]])
    up: str = Field(max_length=3, examples=["TH"])
    play: str = Field(examples=["stand"], json_schema_extra={"enum": [*PLAYS, *INSURANCE_PLAYS]})
    indices: str | None = Field(default=None, json_schema_extra={"enum": [*INDEX_SETS, None]})
    true_count: int | None = None
    insurance: bool = False


class Systems(BaseModel):
    """The counting systems and index sets the trainer offers."""

    counts: dict[str, str] = Field(description="key -> the system's name")
    indices: list[str]


@router.get("/count")
def count_question(
    request: Request,
    table: Table,
    cards: Annotated[int, Query(ge=1, le=MAX_CARDS)] = 8,
    count: CountName = "hilo",
) -> CountQuestion:
    """``cards`` cards from the top of a newly shuffled shoe of the table's decks."""
    rules = _rules(request, table)
    try:
        drill = CountDrill(rules, _system(count))
    except TwentyOneError as exc:
        raise _refused(exc) from None
    dealt = drill.deal(cards)
    return CountQuestion(
        table=table,
        count=drill.system.name,
        decks=rules.decks,
        cards=[str(c) for c in dealt],
        cards_left=drill.cards_left,
        decks_left=float(drill.decks_left),
    )


@router.post("/count")
def count_grade(request: Request, body: CountAnswer) -> CountGrade:
    """Grade a running count (and a true count) of the cards sent, dealt from the top of a
    new shoe of the table's decks."""
    rules = _rules(request, body.table)
    cards = _cards(body.cards, rules.shoe_size)
    try:
        right = count_of(rules, _system(body.count, body.rounding), cards)
    except TwentyOneError as exc:
        raise _refused(exc) from None
    tc = None
    if body.true_count is not None:
        tc = Graded(
            given=count_text(body.true_count),
            expected=count_text(right.true),
            right=body.true_count == right.true,
        )
    return CountGrade(
        running=Graded(
            given=count_text(Fraction(str(body.running))),
            expected=count_text(right.running),
            right=Fraction(str(body.running)) == right.running,
        ),
        true_count=tc,
        cards_left=right.cards_left,
    )


@router.get("/systems")
def systems() -> Systems:
    """The counting systems of the count drill and the index sets of the flashcards."""
    return Systems(
        counts={key: count_system(key).name for key in SYSTEMS}, indices=list(INDEX_SETS)
    )


@router.get("/card")
def card_question(request: Request, table: Table, indices: IndexSet = None) -> CardQuestion:
    """A flashcard for the table's rules: basic strategy (drawn evenly over the chart's rows
    and the up cards) or, with ``indices``, an entry of the set at a true count near its
    index."""
    rules = _rules(request, table)
    card = FlashcardDeck(_indices(indices)).draw()
    total = hand_total(card.hand)
    plays = INSURANCE_PLAYS if card.insurance else legal_plays(rules, card.hand, card.up)
    return CardQuestion(
        table=table,
        hand=[str(c) for c in card.hand],
        up=str(card.up),
        total=total.total,
        soft=total.soft,
        plays=list(plays),
        true_count=card.true_count,
        insurance=card.insurance,
        indices=indices,
    )


@router.post("/card")
def card_grade(request: Request, body: CardAnswer) -> Graded:
    """Grade the play named for a flashcard against the table's basic-strategy chart."""
    rules = _rules(request, body.table)
    hand = _cards(body.hand, 2)
    up = _cards([body.up], 1)
    if len(hand) != 2 or len(up) != 1 or hand_total(hand).total == 21:
        raise Refusal(
            status.HTTP_400_BAD_REQUEST,
            N_("hand {hand} against {up}: expected two cards, not a blackjack, and an up card"),
            hand=" ".join(body.hand),
            up=body.up,
        )
    plays = INSURANCE_PLAYS if body.insurance else PLAYS
    if body.play not in plays:
        raise Refusal(
            status.HTTP_400_BAD_REQUEST,
            N_("{text!r} is not a play: expected one of {plays}"),
            text=body.play,
            plays=", ".join(plays),
        )
    entries = entries_for(_indices(body.indices), hand, up[0], insurance=body.insurance)
    if body.indices is not None and body.true_count is None:
        raise Refusal(
            status.HTTP_400_BAD_REQUEST,
            N_("{field}={value!r}: expected a whole number"),
            field="true_count",
            value=None,
        )
    card = Flashcard(hand=hand, up=up[0], true_count=body.true_count, entries=entries)
    right = answer(card, rules, chart_of(rules))
    return Graded(
        given=body.play,
        expected=right,
        right=body.play == right,
        rules=[e.to_dict() for e in entries],
    )
