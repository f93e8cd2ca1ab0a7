"""Side bets as data: a table's :class:`SideBet` settings, the kinds they name, one evaluator
per kind.

A side bet is an id (how players and replays name it), a kind (what it looks at and which
lines it knows) and a paytable (each line's odds, *to one*). The engine, the exact analysis and
the simulator all settle a side bet through :func:`outcome`; a new kind is one
:class:`Kind` in :data:`KINDS`: its evaluator, its lines and their catalog strings.

>>> from twentyone.engine.cards import parse_cards
>>> pp = SideBet(id="pp", kind="perfect-pairs", paytable={"perfect": "25", "mixed": "6"})
>>> outcome(pp, 100, parse_cards("QH QH"))
('perfect', Fraction(2600, 1))
>>> outcome(pp, 100, parse_cards("QH QD"))  # a coloured pair: not on this paytable
(None, Fraction(0, 1))
>>> SideBet(id="x", kind="21+3", paytable={"pair": "5"})
Traceback (most recent call last):
...
twentyone.engine.errors.RulesError: side_bets.x: paytable line 'pair': expected one of \
'suited-trips', 'straight-flush', 'three-of-a-kind', 'straight', 'flush'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal

from twentyone.engine.cards import RANKS, Card, hand_total
from twentyone.engine.errors import N_, RulesError

if TYPE_CHECKING:
    from twentyone.engine.hands import Box
    from twentyone.engine.records import Payment


#: What a kind looks at, which also says when it is settled:
#: ``first-two`` the box's first two cards, and ``first-two-and-up`` with the dealer's up card
#: (settled right after the initial deal); ``hand-three`` a hand's cards when its third card
#: lands (no stake of its own: it pays a multiple of the box's bet, on that hand);
#: ``box-cards`` every card the box received, in order (settled with the round);
#: ``dealer-final`` the dealer's cards once the dealer is done (settled with the round; the
#: dealer draws out while such a bet is staked, even with no hand left to play for);
#: ``pair-four`` the first two cards of both boxes of a switch pair (``Rules.switch``: the box's
#: and its partner's, settled right after the initial deal, before the switch).
View = Literal[
    "first-two", "first-two-and-up", "hand-three", "box-cards", "dealer-final", "pair-four"
]

#: Ids the analysis report keeps for itself.
RESERVED_IDS = ("insurance", "even_money", "blackjack_vs_ace", "main")


@dataclass(frozen=True, kw_only=True)
class Kind:
    """A kind of side bet: its ``lines`` (best first), what it looks at (``view``), whether a
    player stakes it (``staked``), and its ``evaluate``: the lines the cards hit (a straight
    flush also hits ``straight`` and ``flush``; the best paying line on the paytable pays).
    ``ordered``: the evaluator cares which card is the dealer's (Match the Dealer), so a
    pricing must not shuffle the cards it looks at. ``title`` and ``line_titles`` are catalog
    strings (English msgids) for the front ends."""

    name: str
    title: str
    lines: tuple[str, ...]
    line_titles: Mapping[str, str]
    view: View
    evaluate: Callable[[Sequence[Card]], frozenset[str]]
    staked: bool = True
    ordered: bool = False  # the evaluator tells the box's cards from the dealer's up card


_RED = frozenset("DH")
_ORDER = {r: i + 2 for i, r in enumerate(RANKS)}  # 2..14, the ace high


def perfect_pairs(cards: Sequence[Card]) -> frozenset[str]:
    """The player's first two cards: a pair of one suit (``perfect``), of one colour
    (``coloured``) or of both colours (``mixed``).

    >>> from twentyone.engine.cards import parse_cards as p
    >>> [sorted(perfect_pairs(p(t))) for t in ("8S 8S", "8S 8C", "8S 8H", "8S 9S", "TS KS")]
    [['perfect'], ['coloured'], ['mixed'], [], []]
    """
    a, b = cards[:2]
    if a.rank != b.rank:
        return frozenset()
    if a.suit == b.suit:
        return frozenset({"perfect"})
    return frozenset({"coloured" if (a.suit in _RED) == (b.suit in _RED) else "mixed"})


def twenty_one_plus_three(cards: Sequence[Card]) -> frozenset[str]:
    """The player's two cards and the dealer's up card as a three-card poker hand: one suit
    (``flush``), three ranks in a row (``straight``: the ace low in A-2-3, high in Q-K-A, never
    K-A-2), both (``straight-flush``), one rank (``three-of-a-kind``), one rank and one suit
    (``suited-trips``).

    >>> from twentyone.engine.cards import parse_cards as p
    >>> [sorted(twenty_one_plus_three(p(t))) for t in ("2S AH 3D", "QS AS KS", "KS AS 2S")]
    [['straight'], ['flush', 'straight', 'straight-flush'], ['flush']]
    >>> sorted(twenty_one_plus_three(p("7H 7H 7H"))), sorted(twenty_one_plus_three(p("7H 7S 7H")))
    (['flush', 'suited-trips', 'three-of-a-kind'], ['three-of-a-kind'])
    """
    three = cards[:3]
    hit: set[str] = set()
    if len({c.suit for c in three}) == 1:
        hit.add("flush")
    ranks = sorted(_ORDER[c.rank] for c in three)
    if len(set(ranks)) == 1:
        hit.add("three-of-a-kind")
        if "flush" in hit:
            hit.add("suited-trips")
    elif (ranks[2] - ranks[0] == 2 and len(set(ranks)) == 3) or ranks == [2, 3, 14]:
        hit.add("straight")
        if "flush" in hit:
            hit.add("straight-flush")
    return frozenset(hit)


def match_the_dealer(cards: Sequence[Card]) -> frozenset[str]:
    """The box's first two cards against the dealer's up card (the third card): each of the
    two of the up card's rank is a match, ``suited`` when of its suit too. The lines name the
    combination, and hit the lesser lines it holds (each matching card pays in the published
    game, so a combination's odds are the sum of its cards': WoO, "Match the Dealer"):
    ``two-suited``, ``suited-and-unsuited``, ``two-unsuited``, ``suited``, ``unsuited``.

    >>> from twentyone.engine.cards import parse_cards as p
    >>> [sorted(match_the_dealer(p(t))) for t in ("7S 4H 7S", "7S 7H 7S", "7D 7H 7S", "KS QS JS")]
    [['suited'], ['suited', 'suited-and-unsuited', 'unsuited'], ['two-unsuited', 'unsuited'], []]
    >>> sorted(match_the_dealer(p("9C 9C 9C")))
    ['suited', 'two-suited']
    """
    up = cards[2]
    matches = sorted(c.suit == up.suit for c in cards[:2] if c.rank == up.rank)
    if not matches:
        return frozenset()
    hit = {"suited" if m else "unsuited" for m in matches}
    if len(matches) == 2:
        hit.add(
            {(True, True): "two-suited", (False, True): "suited-and-unsuited"}.get(
                (matches[0], matches[1]), "two-unsuited"
            )
        )
    return frozenset(hit)


def aces_jackpot(cards: Sequence[Card]) -> frozenset[str]:
    """The box's cards in the order it received them (split hands included): ``"k"`` for
    every k from 2 up to the count of its leading aces (pt.13).

    >>> from twentyone.engine.cards import parse_cards as p
    >>> sorted(aces_jackpot(p("AS AH AD 5C"))), sorted(aces_jackpot(p("AS 5C AH")))
    (['2', '3'], [])
    """
    leading = 0
    for card in cards:
        if not card.is_ace:
            break
        leading += 1
    return frozenset(str(k) for k in range(2, leading + 1))


def bonus_678_777(cards: Sequence[Card]) -> frozenset[str]:
    """A hand's first three cards: 6-7-8 of one suit, or 7-7-7 of any suits (pt.12).

    >>> from twentyone.engine.cards import parse_cards as p
    >>> [sorted(bonus_678_777(p(t))) for t in ("8H 6H 7H", "7S 7H 7D", "6H 7H 8S", "7S 7H")]
    [['suited-6-7-8'], ['7-7-7'], [], []]
    """
    if len(cards) != 3:
        return frozenset()
    ranks = sorted(c.rank for c in cards)
    if ranks == ["6", "7", "8"] and len({c.suit for c in cards}) == 1:
        return frozenset({"suited-6-7-8"})
    if ranks == ["7", "7", "7"]:
        return frozenset({"7-7-7"})
    return frozenset()


def push_22(cards: Sequence[Card]) -> frozenset[str]:
    """The dealer's final cards: a total of exactly 22 (``any``), all of one colour
    (``coloured``), all of one suit (``suited``): the Push 22 bet of Free Bet tables.

    >>> from twentyone.engine.cards import parse_cards as p
    >>> [sorted(push_22(p(t))) for t in ("TS 6S 6S", "TS 6C 6S", "TH 6C 6S", "TS 6C 7S")]
    [['any', 'coloured', 'suited'], ['any', 'coloured'], ['any'], []]
    """
    if hand_total(cards).total != 22:
        return frozenset()
    hit = {"any"}
    if len({c.suit in _RED for c in cards}) == 1:
        hit.add("coloured")
        if len({c.suit for c in cards}) == 1:
            hit.add("suited")
    return frozenset(hit)


def super_match(cards: Sequence[Card]) -> frozenset[str]:
    """The four first cards of a switch pair, by rank: ``pair``, ``two-pairs``,
    ``three-of-a-kind`` or ``four-of-a-kind`` (the Super Match bet of Blackjack Switch
    tables; four of a kind also hits three of a kind and a pair, two pairs and three of a kind
    a pair).

    >>> from twentyone.engine.cards import parse_cards as p
    >>> [sorted(super_match(p(t))) for t in ("QS QH 5D 9C", "QS KH 5D 9C", "QS QH 5D 5C")]
    [['pair'], [], ['pair', 'two-pairs']]
    >>> sorted(super_match(p("7S 7H 7D 2C"))), sorted(super_match(p("7S 7H 7D 7S")))
    (['pair', 'three-of-a-kind'], ['four-of-a-kind', 'pair', 'three-of-a-kind'])
    """
    counts = sorted(sum(c.rank == r for c in cards[:4]) for r in {c.rank for c in cards[:4]})
    hit: set[str] = set()
    if counts[-1] >= 2:
        hit.add("pair")
    if counts[-1] >= 3:
        hit.add("three-of-a-kind")
    if counts[-1] == 4:
        hit.add("four-of-a-kind")
    if counts == [2, 2]:
        hit.add("two-pairs")
    return frozenset(hit)


#: Every kind a table may offer, by name.
KINDS: dict[str, Kind] = {
    k.name: k
    for k in (
        Kind(
            name="perfect-pairs",
            title=N_("Perfect Pairs"),
            lines=("perfect", "coloured", "mixed"),
            line_titles={
                "perfect": N_("perfect pair (one suit)"),
                "coloured": N_("coloured pair (one colour)"),
                "mixed": N_("mixed pair (both colours)"),
            },
            view="first-two",
            evaluate=perfect_pairs,
        ),
        Kind(
            name="21+3",
            title=N_("21+3"),
            lines=("suited-trips", "straight-flush", "three-of-a-kind", "straight", "flush"),
            line_titles={
                "suited-trips": N_("suited three of a kind"),
                "straight-flush": N_("straight flush"),
                "three-of-a-kind": N_("three of a kind"),
                "straight": N_("straight"),
                "flush": N_("flush"),
            },
            view="first-two-and-up",
            evaluate=twenty_one_plus_three,
        ),
        Kind(
            name="match-the-dealer",
            title=N_("Match the Dealer"),
            lines=("two-suited", "suited-and-unsuited", "two-unsuited", "suited", "unsuited"),
            line_titles={
                "two-suited": N_("both cards match the dealer's up card, suited"),
                "suited-and-unsuited": N_("both cards match the dealer's up card, one suited"),
                "two-unsuited": N_("both cards match the dealer's up card"),
                "suited": N_("a card matches the dealer's up card, suited"),
                "unsuited": N_("a card matches the dealer's up card"),
            },
            view="first-two-and-up",
            evaluate=match_the_dealer,
            ordered=True,
        ),
        Kind(
            name="aces-jackpot",
            title=N_("Aces jackpot"),
            lines=tuple(str(k) for k in range(8, 1, -1)),
            line_titles={str(k): N_("first {n} cards aces") for k in range(2, 9)},
            view="box-cards",
            evaluate=aces_jackpot,
        ),
        Kind(
            name="678-777",
            title=N_("6-7-8 / 7-7-7 bonus"),
            lines=("suited-6-7-8", "7-7-7"),
            line_titles={
                "suited-6-7-8": N_("6-7-8 of one suit"),
                "7-7-7": N_("7-7-7"),
            },
            view="hand-three",
            evaluate=bonus_678_777,
            staked=False,
        ),
        Kind(
            name="push-22",
            title=N_("Push 22"),
            lines=("suited", "coloured", "any"),
            line_titles={
                "suited": N_("dealer's 22 of one suit"),
                "coloured": N_("dealer's 22 of one colour"),
                "any": N_("dealer's 22"),
            },
            view="dealer-final",
            evaluate=push_22,
        ),
        Kind(
            name="super-match",
            title=N_("Super Match"),
            lines=("four-of-a-kind", "two-pairs", "three-of-a-kind", "pair"),
            line_titles={
                "four-of-a-kind": N_("four of a kind in the pair's four cards"),
                "two-pairs": N_("two pairs in the pair's four cards"),
                "three-of-a-kind": N_("three of a kind in the pair's four cards"),
                "pair": N_("a pair in the pair's four cards"),
            },
            view="pair-four",
            evaluate=super_match,
        ),
    )
}


@dataclass(frozen=True, kw_only=True)
class SideBet:
    """A side bet a table offers: ``id`` (``[a-z0-9+-]``, how bets and replays name it),
    ``kind`` (a name in :data:`KINDS`) and ``paytable`` (line -> odds to one; a line left out
    pays nothing). Ratios may be given as ``'25'``, ``'3:2'``…

    >>> SideBet(id="pp", kind="perfect-pairs", paytable={"mixed": "6"}).paytable
    {'mixed': Fraction(6, 1)}
    """

    id: str
    kind: str
    paytable: Mapping[str, Fraction] = field(default_factory=dict)

    def __post_init__(self) -> None:
        from twentyone.engine.ratios import to_fraction

        where = f"side_bets.{self.id}"
        if (
            not isinstance(self.id, str)
            or not self.id
            or not all(c.isascii() and (c.isalnum() or c in "+-") for c in self.id)
            or self.id != self.id.lower()
        ):
            raise RulesError("bad-side-bet-id", id=self.id)
        if self.id in RESERVED_IDS:
            raise RulesError("reserved-side-bet-id", id=self.id, reserved=", ".join(RESERVED_IDS))
        kind = KINDS.get(self.kind)
        if kind is None:
            raise RulesError(
                "unknown-side-bet-kind",
                id=self.id,
                kind=self.kind,
                kinds=", ".join(repr(k) for k in KINDS),
            )
        if not isinstance(self.paytable, Mapping) or not self.paytable:
            raise RulesError("bad-paytable", id=self.id, paytable=self.paytable)
        table: dict[str, Fraction] = {}
        for line in kind.lines:  # in the kind's order, best first
            if line in self.paytable:
                table[line] = to_fraction(self.paytable[line], f"{where}.paytable.{line}")
        for line in self.paytable:
            if line not in kind.lines:
                raise RulesError(
                    "unknown-paytable-line",
                    id=self.id,
                    line=str(line),
                    lines=", ".join(repr(x) for x in kind.lines),
                )
        for line, pays in table.items():
            if pays <= 0:
                raise RulesError("paytable-not-positive", id=self.id, line=line, pays=pays)
        object.__setattr__(self, "paytable", table)

    def __hash__(self) -> int:
        return hash((self.id, self.kind, tuple(self.paytable.items())))

    @property
    def spec(self) -> Kind:
        """The bet's :class:`Kind`."""
        return KINDS[self.kind]

    @property
    def staked(self) -> bool:
        return self.spec.staked

    def to_dict(self) -> dict[str, Any]:
        """The TOML shape: ``{"kind": ..., "paytable": {line: "odds"}}``."""
        from twentyone.engine.ratios import fraction_text

        return {
            "kind": self.kind,
            "paytable": {k: fraction_text(v) for k, v in self.paytable.items()},
        }


def side_bets_from(value: Any) -> tuple[SideBet, ...]:
    """Read ``Rules.side_bets``: SideBets, or the TOML table ``{id: {kind, paytable}}``.

    >>> [b.id for b in side_bets_from({"21-3": {"kind": "21+3", "paytable": {"flush": "5"}}})]
    ['21-3']
    """
    if isinstance(value, Mapping):
        out = []
        for key, spec in value.items():
            if isinstance(spec, SideBet):
                out.append(spec)
                continue
            if not isinstance(spec, Mapping) or set(spec) - {"kind", "paytable"}:
                raise RulesError("bad-side-bet-spec", key=key, spec=spec)
            out.append(
                SideBet(id=str(key), kind=spec.get("kind", ""), paytable=spec.get("paytable", {}))
            )
        bets = tuple(out)
    else:
        bets = tuple(value)
        if not all(isinstance(b, SideBet) for b in bets):
            raise RulesError("bad-side-bets", value=value)
    ids = [b.id for b in bets]
    if len(set(ids)) != len(ids):
        raise RulesError("repeated-side-bet", ids=ids)
    return bets


def cards_seen(
    view: View,
    box_cards: Sequence[Card],
    up: Card | None,
    dealer: Sequence[Card] = (),
    partner: Sequence[Card] = (),
) -> list[Card]:
    """The cards a side bet of ``view`` looks at, from the box's cards, the up card, the
    dealer's final cards and the cards of the box's switch partner."""
    if view == "dealer-final":
        return list(dealer)
    if view == "pair-four":
        return [*box_cards[:2], *partner[:2]]
    if view == "first-two":
        return list(box_cards[:2])
    if view == "first-two-and-up":
        return [*box_cards[:2], *([up] if up is not None else [])]
    return list(box_cards)


def outcome(bet: SideBet, stake: int, cards: Sequence[Card]) -> tuple[str | None, Fraction]:
    """The paytable line ``cards`` win on (the best paying line they hit) and what the bet
    returns, exactly: a staked bet returns its stake and the odds, or nothing; an unstaked one
    (``hand-three``) pays ``stake`` (the box's bet) times the odds.

    >>> from twentyone.engine.cards import parse_cards
    >>> trips = SideBet(id="t", kind="21+3", paytable={"three-of-a-kind": "30", "flush": "5"})
    >>> outcome(trips, 10, parse_cards("9S 9S 9S"))  # suited trips not on the paytable
    ('three-of-a-kind', Fraction(310, 1))
    >>> bonus = SideBet(id="b", kind="678-777", paytable={"7-7-7": "3", "suited-6-7-8": "3"})
    >>> outcome(bonus, 1000, parse_cards("7C 7D 7S"))
    ('7-7-7', Fraction(3000, 1))
    """
    hit = bet.spec.evaluate(cards)
    best: str | None = None
    for line, pays in bet.paytable.items():
        if line in hit and (best is None or pays > bet.paytable[best]):
            best = line
    if best is None:
        return None, Fraction(0)
    pays = bet.paytable[best]
    return best, stake * (pays + 1 if bet.staked else pays)


def settle_side_bets(
    bets: Sequence[SideBet],
    box: Box,
    hand: int | None,
    views: Sequence[View],
    up: Card,
    dealer: Sequence[Card] = (),
    partner: Sequence[Card] = (),
) -> list[Payment]:
    """The payments settling ``box``'s side bets whose kind looks at ``views`` (the engine's
    one place for them): a staked bet once, returning its stake and odds (``0`` when it lost,
    recorded in ``box.side_paid``); a stakeless one (the 6-7-8 bonus) on ``hand`` only when it
    wins (added to the hand's ``bonus``). ``partner``: the cards of the box's switch partner
    (``pair-four``). The caller books the amounts and logs the records.
    """
    from twentyone.engine.records import Payment  # here: the rules alone need no records

    out = []
    for bet in bets:
        if bet.spec.view not in views:
            continue
        if bet.staked:
            stake = box.side_bets.get(bet.id, 0)
            if not stake or bet.id in box.side_paid:
                continue
            cards = cards_seen(bet.spec.view, box.cards_received, up, dealer, partner)
        elif hand is not None:
            stake, cards = box.bet, box.hands[hand].cards
        else:
            continue
        line, exact = outcome(bet, stake, cards)
        if not bet.staked and line is None:
            continue
        paid = int(exact)
        if hand is None:
            box.side_paid[bet.id] = paid
        else:
            box.hands[hand].bonus += paid
        out.append(
            Payment("side-bet", box.index, hand, paid, exact - paid, side_bet=bet.id, line=line)
        )
    return out
