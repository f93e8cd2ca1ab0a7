"""The numbers of a :class:`~twentyone.engine.rules.Rules` that the analysis uses, and one up card's
base tables (the stand values of every hand), cached.

>>> from twentyone import load_rules
>>> ctx = Context.of(load_rules("6D S17 DAS SPL1 NS"))
>>> ctx.peek, ctx.f1, ctx.can_split, ctx.max_hands
(True, 0.0, True, 2)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, fields, replace
from functools import cached_property, lru_cache

import numpy as np

from twentyone.analysis.caches import memo
from twentyone.analysis.dealer import (
    BUST,
    TWENTY_TWO,
    DealerTable,
    dealer_dists,
    standing_table,
    start_stands,
    with_bust,
)
from twentyone.analysis.fields import ANALYSIS_IGNORES as ANALYSIS_IGNORES
from twentyone.analysis.fields import ANALYSIS_READS as ANALYSIS_READS
from twentyone.analysis.fields import ANALYSIS_REFUSES as ANALYSIS_REFUSES
from twentyone.analysis.fields import FREE_REFUSED as FREE_REFUSED
from twentyone.analysis.fields import NOT_SIMULATED as NOT_SIMULATED
from twentyone.analysis.fields import PUSH22_REFUSED as PUSH22_REFUSED
from twentyone.analysis.fields import SPANISH_FIELDS, SPANISH_REFUSED, refuse_spanish_with
from twentyone.analysis.fields import SPANISH_OFF as ANALYSIS_OFF
from twentyone.analysis.fields import TIES_REFUSED as TIES_REFUSED
from twentyone.analysis.player import CHART, StandValues
from twentyone.analysis.shoe_counts import (
    ACE,
    TEN,
    BoolArray,
    FloatArray,
    IntArray,
    Nodes,
    fresh_counts,
    player_nodes,
    removed_sets,
)
from twentyone.analysis.solved import Solved as Solved
from twentyone.analysis.solved import arrays_key as arrays_key
from twentyone.analysis.solved import arrays_of as arrays_of
from twentyone.analysis.solved import run_solve as run_solve
from twentyone.analysis.solved import shoe_after as shoe_after
from twentyone.analysis.spanish import apply_21_rules
from twentyone.analysis.standing import gather_stand, stand_rows
from twentyone.engine.compiled import (
    F_BJ,
    F_BONUS,
    MAX_HANDS,
    P_BJ_TIES,
    P_DAS,
    P_DEALER_22,
    P_DECKS,
    P_DOUBLE_AFTER_HIT,
    P_DOUBLE_ON,
    P_FREE_DOUBLES,
    P_FREE_SPLITS,
    P_H17,
    P_HOLE,
    P_HSA,
    P_MAX_HANDS,
    P_MIN_STAND,
    P_OBO,
    P_ONE_BOX_SPLIT,
    P_PEEK,
    P_REDOUBLES,
    P_RESCUE,
    P_RSA,
    P_SPLIT_RANK,
    P_SURR_VS_ACE,
    P_SURRENDER,
    P_TIES,
    SURRENDER_NAMES,
    encode_rules,
)
from twentyone.engine.errors import CardError, RulesError
from twentyone.engine.predicates import split_is_free, total_may_double
from twentyone.engine.rules import Rules

#: The most hands of one split the tables behind the approximation of a ten-value pair split
#: by rank reach (:func:`~twentyone.analysis.hands.split_value`; the shoe's counts do not
#: tell its rank's cards, so its split is weighted by the pair cards drawn as second cards).
#: A 17th hand has a chance of 3.6e-13 for such a pair from six decks. Every other split is
#: exact to every hand the rules and the pair's cards allow (:meth:`Context.split_max`).
TABLE_HANDS = 16
#: The fewest cards a shoe given to the analysis may hold (the round must be dealt from it;
#: where a round can run out of cards the returns count only the rounds that end).
MIN_CARDS = 8
UPS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 0)  # value indexes in chart order 2..9, T, A
UP_KEYS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "A")
_NO_BONUS = np.zeros(0)


def full_shoe(rules: Rules) -> tuple[int, ...]:
    """The rules' full, fresh shoe as value counts (A, 2..9, ten-value; twelve ten-values a
    deck in Spanish decks).

    >>> full_shoe(Rules(decks=6, deck="spanish"))[9], full_shoe(Rules(decks=6))[9]
    (72, 96)
    """
    return tuple(int(x) for x in fresh_counts(rules.decks, rules.deck))


def check_shoe(shoe: Sequence[int]) -> tuple[int, ...]:
    """Ten counts, none negative, as a tuple (else :class:`~twentyone.engine.errors.CardError`).

    >>> check_shoe([4, 4, 4, 4, 4, 4, 4, 4, 4, 16])[9]
    16
    """
    counts = tuple(int(x) for x in shoe)
    if len(counts) != 10 or min(counts) < 0:
        raise CardError("bad-shoe-counts", counts=list(counts))
    if sum(counts) < MIN_CARDS:
        raise CardError("shoe-too-small", counts=list(counts), least=MIN_CARDS)
    return counts


def node_decks(shoe: tuple[int, ...], decks: int) -> int:
    """The fewest decks whose full shoe holds every count of ``shoe`` (at least ``decks``):
    the table of player hands is built for it."""
    out = decks
    one = fresh_counts(1)
    for v in range(10):
        while min(shoe[v], 21) > one[v] * out:
            out += 1
    return out


def up_key(u: int) -> str:
    """Chart label of a value index: ``'A'``, ``'2'``..``'9'``, ``'T'``."""
    return UP_KEYS[UPS.index(u)]


@dataclass(frozen=True)
class Context:
    """Rule numbers for the kernels. ``f1``/``f2``: part of a standing / doubled stake a
    dealer blackjack takes (0 with a peek: values are then kept in the no-blackjack space);
    ``f1s``/``f2s`` the same on split hands (OBO: the box loses one original bet)."""

    rules: Rules
    decks: int
    shoe: tuple[int, ...]
    h17_from: int  # Rules.soft_17_hit_from: the fewest cards the dealer hits a soft 17 with
    push22: bool  # dealer_22 == "push": a dealer's final 22 pushes every standing hand
    peek: bool
    f1: float
    f2: float
    f1s: float
    f2s: float
    min_stand: int
    das: bool
    double_rule: int
    can_split: bool
    max_hands: int
    split_rank: bool
    rsa: bool
    hsa: bool
    bonus: float
    bj_pays: float
    surrender: str
    surrender_vs_ace: bool
    free_doubles: int = 0  # Rules.free_doubles_mask: hard two-card totals doubled free
    free_splits: int = 0  # Rules.free_splits_mask: pairs (by card value) split free
    ties_lose: bool = False  # Rules.ties == "dealer": a tie of totals is lost
    bj_tie: float = 0.0  # a blackjack against the dealer's: 0 push, bj_pays won, -1 lost
    hole: int = -1  # the dealer's known hole card (Rules.hole_card_up; see exposed()), or -1
    dbl_more: bool = False  # Rules.double_after_hit (analysis.spanish)
    doubles: int = 1  # the most doubles of one hand: 1 + Rules.redoubles
    rescue: bool = False  # Rules.rescue
    wins_21: bool = False  # Rules.player_21_wins (analysis.spanish)
    bonus_21: tuple[object, ...] = ()  # Rules.bonus_21_cards and bonus_21_678_777, if any

    @classmethod
    def of(
        cls,
        rules: Rules,
        boxes: int = 1,
        shoe: Sequence[int] | None = None,
        *,
        exposed: bool = False,
    ) -> Context:
        """The context of ``rules`` dealing from ``shoe`` (counts of A, 2..9, ten-value before
        the round's cards come out; default: the rules' full shoe). ``exposed``: the caller
        prices a face-up hole card by :meth:`exposed` contexts (:mod:`~twentyone.analysis.
        exposed`); else such rules are refused (:data:`ANALYSIS_REFUSES`)."""
        for name, (priced, lacks) in ANALYSIS_REFUSES.items():
            if name == "hole_card_up" and exposed:
                continue
            if getattr(rules, name) != priced:
                value = getattr(rules, name)
                if name in NOT_SIMULATED:
                    raise RulesError(
                        "fast-path-refuses",
                        field=name,
                        value=value,
                        path="the exact analysis",
                        lacks=lacks,
                    )
                raise RulesError("analysis-refuses", field=name, value=value, lacks=lacks)
        refuse_spanish_with(rules)
        counts = full_shoe(rules) if shoe is None else check_shoe(shoe)
        p, f = encode_rules(rules)  # the one compiled form the simulator reads too
        peek = bool(p[P_HOLE] and p[P_PEEK])
        obo = not peek and bool(p[P_OBO])
        f1, f2 = (0.0, 0.0) if peek else (1.0, 1.0 if obo else 2.0)
        f1s, f2s = (0.0, 0.0) if peek else ((0.5, 0.5) if obo else (1.0, 2.0))
        limit = int(p[P_MAX_HANDS])
        can_split = limit >= 2 and not (p[P_ONE_BOX_SPLIT] and boxes > 1)
        return cls(
            rules=rules,
            decks=node_decks(counts, int(p[P_DECKS])),
            shoe=counts,
            h17_from=int(p[P_H17]),
            push22=bool(p[P_DEALER_22]),
            peek=peek,
            f1=f1,
            f2=f2,
            f1s=f1s,
            f2s=f2s,
            min_stand=int(p[P_MIN_STAND]),
            das=bool(p[P_DAS]),
            double_rule=int(p[P_DOUBLE_ON]),
            can_split=can_split,
            max_hands=min(limit, MAX_HANDS) if can_split else 1,
            split_rank=bool(p[P_SPLIT_RANK]),
            rsa=bool(p[P_RSA]),
            hsa=bool(p[P_HSA]),
            bonus=float(f[F_BONUS]),
            bj_pays=float(f[F_BJ]),
            surrender=SURRENDER_NAMES[int(p[P_SURRENDER])],
            surrender_vs_ace=bool(p[P_SURR_VS_ACE]),
            free_doubles=int(p[P_FREE_DOUBLES]),
            free_splits=int(p[P_FREE_SPLITS]),
            ties_lose=bool(p[P_TIES]),
            bj_tie=(0.0, float(f[F_BJ]), -1.0)[int(p[P_BJ_TIES])],
            dbl_more=bool(p[P_DOUBLE_AFTER_HIT]),
            doubles=1 + int(p[P_REDOUBLES]),
            rescue=bool(p[P_RESCUE]),
            wins_21=rules.player_21_wins,
            bonus_21=(rules.bonus_21_cards, rules.bonus_21_678_777)
            if rules.bonus_21_cards or rules.bonus_21_678_777
            else (),
        )

    def exposed(self, hole: int) -> Context:
        """This context with the dealer's hole card ``hole`` (a value index) known and out of
        the shoe (Double Exposure, ``Rules.hole_card_up``): the dealer's tables draw to both
        cards, no drawn card makes a dealer blackjack (a two-card one is settled before play,
        :mod:`~twentyone.analysis.exposed`), and the values are those of a dealer known not to
        hold one (as with a peek). ``shoe`` is the shoe less the hole card, ``is_full`` and
        :meth:`full` read the full shoe less it."""
        shoe = list(self.shoe)
        shoe[hole] -= 1
        return replace(
            self,
            shoe=check_shoe(shoe),
            hole=hole,
            peek=True,
            f1=0.0,
            f2=0.0,
            f1s=0.0,
            f2s=0.0,
        )

    @property
    def nodes(self) -> Nodes:
        return player_nodes(self.decks)

    def fresh(self) -> IntArray:
        """The shoe the round is dealt from (a new array)."""
        return np.array(self.shoe, dtype=np.int64)

    def _full_shoe(self) -> tuple[int, ...]:
        """The rules' full shoe (less the known hole card where there is one)."""
        shoe = full_shoe(self.rules)
        if self.hole < 0:
            return shoe
        return tuple(n - (v == self.hole) for v, n in enumerate(shoe))

    @property
    def is_full(self) -> bool:
        """Whether the shoe is the rules' full, fresh shoe (less a known hole card)."""
        return self.shoe == self._full_shoe()

    def full(self) -> Context:
        """The same rules over the full shoe (where basic strategy is derived)."""
        return (
            self if self.is_full else replace(self, decks=self.rules.decks, shoe=self._full_shoe())
        )

    def can_double(self, total: int, soft: bool) -> bool:
        """Whether the first two cards may be doubled (ro.15, pt.9)."""
        return total_may_double(total, soft, self.double_rule)

    def surrender_offered(self, u: int) -> bool:
        return self.surrender != "none" and (u != ACE or self.surrender_vs_ace)

    def surrender_value(self, pbj: float) -> float:
        """A surrender's return in the values' space, given P(dealer blackjack)."""
        if self.peek:
            return -0.5 * (1.0 - pbj)
        if self.surrender == "early":
            return -0.5
        return -0.5 * (1.0 - pbj) - pbj

    @property
    def has_free(self) -> bool:
        """Whether the house stakes some doubles or splits (Free Bet)."""
        return self.free_doubles != 0 or self.free_splits != 0

    def split_is_free(self, pair: int) -> bool:
        """Whether the split of a pair of value index ``pair`` (0 = ace) is the house's."""
        return split_is_free(pair + 1, self.free_splits)

    def refuse_free(self, part: str) -> None:
        """Raise a :class:`RulesError` naming the free stakes' field where the rules have free
        doubles or splits and ``part`` (a key of :data:`FREE_REFUSED`) does not price them."""
        for name, mask in (("free_doubles", self.free_doubles), ("free_splits", self.free_splits)):
            if mask:
                raise RulesError(
                    "analysis-free-stakes",
                    field=name,
                    value=getattr(self.rules, name),
                    part=FREE_REFUSED[part],
                )

    @property
    def has_ties(self) -> bool:
        """Whether the dealer takes some ties (``ties``, ``blackjack_ties`` other than push)."""
        return self.ties_lose or self.bj_tie != 0.0

    def refuse_ties(self, part: str) -> None:
        """Raise a :class:`RulesError` naming the tie rule where the dealer takes ties or a
        blackjack tie is paid or lost and ``part`` (a key of :data:`TIES_REFUSED`) does not
        price it."""
        for name, on in (("ties", self.ties_lose), ("blackjack_ties", self.bj_tie != 0.0)):
            if on:
                raise RulesError(
                    "analysis-ties",
                    field=name,
                    value=getattr(self.rules, name),
                    part=TIES_REFUSED[part],
                )

    @property
    def spanish_doubles(self) -> bool:
        """Whether a hand may double after hits, redouble or be rescued (Spanish 21)."""
        return self.dbl_more or self.doubles > 1 or self.rescue

    @property
    def has_spanish(self) -> bool:
        """Whether some Spanish 21 rule is on: its doubles, a 21 that always wins, a 21 bonus
        (:mod:`~twentyone.analysis.spanish`)."""
        return self.spanish_doubles or self.wins_21 or bool(self.bonus_21)

    def refuse_spanish(self, part: str) -> None:
        """Raise a :class:`RulesError` naming the first Spanish 21 field on where ``part`` (a
        key of :data:`SPANISH_REFUSED`) does not price it."""
        if self.has_spanish:
            name = next(n for n in SPANISH_FIELDS if getattr(self.rules, n) != ANALYSIS_OFF[n])
            value = getattr(self.rules, name)
            raise RulesError(
                "analysis-refuses", field=name, value=value, lacks=SPANISH_REFUSED[part]
            )

    def refuse_push22(self, part: str) -> None:
        """Raise a :class:`RulesError` naming ``dealer_22`` where the rules push a dealer's 22
        and ``part`` (a key of :data:`PUSH22_REFUSED`) does not price it yet."""
        if self.push22:
            raise RulesError(
                "analysis-dealer-22", field="dealer_22", value=self.rules.dealer_22, part=part
            )

    def __hash__(self) -> int:
        """Hashed once (the contexts key every cache of the analysis)."""
        found = self.__dict__.get("_hash")
        if found is None:
            found = hash(tuple(getattr(self, f.name) for f in fields(self)))
            object.__setattr__(self, "_hash", found)
        return int(found)

    @cached_property
    def hands_by_pair(self) -> tuple[int, ...]:
        """Per pair, how many layers of extra pair cards out the split values need (0 to
        2m-3 extra for Farmer's exact method with m <= 4 hands, m-1 beyond)."""
        out = []
        for p in range(10):  # the rules' limits, not the shoe's: one set of tables serves
            m = self.hands_allowed(p)  # every shoe of the same rules
            out.append(2 * m - 2 if 2 <= m <= 4 else min(m, TABLE_HANDS))
        return tuple(out)

    def hands_allowed(self, pair: int) -> int:
        """How many hands the rules let one pair make (:data:`MAX_HANDS`: no limit)."""
        if not self.can_split:
            return 1
        if pair == ACE and not self.rsa:
            return 2
        return self.max_hands

    def split_max(self, pair: int) -> int:
        """How many hands one pair can make: the rules' limit; where they set none, as many
        as the pair's cards in the shoe (by rank, a ten-value pair's: at most a rank's cards).

        >>> from twentyone import load_rules
        >>> ctx = Context.of(load_rules("hu-casino"), shoe=(4, 4, 4, 4, 4, 4, 4, 4, 4, 40))
        >>> ctx.split_max(0), ctx.split_max(7), ctx.split_max(9)
        (4, 4, 40)
        """
        most = self.hands_allowed(pair)
        if most < MAX_HANDS:
            return most
        cards = self.shoe[pair]
        if pair == TEN and self.split_rank:
            cards = min(cards, 4 * self.rules.decks)
        return max(2, cards)

    def pair_cards_left(self, shoe: IntArray, pair: int, up: int) -> float:
        """Cards left that allow a resplit after the two pair cards and the up card are out
        (by rank, a ten-value pair resplits only with its own rank: the up card is that rank
        with probability (4d-2)/(16d-2) when it is a ten)."""
        if pair == TEN and self.split_rank:
            tens = float(self.shoe[TEN])  # taken as four ranks in equal shares
            same = tens / 4.0 - 2.0
            if up == TEN:
                same -= same / (tens - 2.0)
            return max(same, 0.0)
        return float(shoe[pair] - 2)

    def same_rank_share(self) -> float:
        """Share of ten-value pairs that are one rank (split by rank only; the shoe's tens
        taken as four ranks in equal shares)."""
        tens = float(self.shoe[TEN])
        return max(tens / 4.0 - 1.0, 0.0) / (tens - 1.0) if tens > 1 else 0.0


@dataclass(frozen=True)
class Base:
    """Stand values of every hand for one up card and one composition (before a hand's own
    cards come out)."""

    comp: IntArray
    nb: FloatArray
    pbj: FloatArray
    valid: BoolArray
    mask: BoolArray
    push: FloatArray
    extra: FloatArray = field(default_factory=lambda: _NO_BONUS)  # what an undoubled stand
    # adds: the 21 bonuses (analysis.spanish; empty for none)

    @property
    def stand(self) -> StandValues:
        """The stand values as the kernels take them."""
        return StandValues(self.nb, self.pbj, self.push)


@dataclass
class DistCache:
    """Dealer outcome probabilities for the sets of cards out of
    :func:`~twentyone.analysis.shoe_counts.removed_sets` under one up card, computed on
    demand (a split hand's play needs only the hands it can stand on), over the dealer's
    table without the hands that bust (:func:`~twentyone.analysis.dealer.standing_table`)."""

    shoe: IntArray
    keys: IntArray
    table: DealerTable
    dists: FloatArray
    done: BoolArray
    stands: int = -1  # a known two-card start the dealer stands on: its outcome (0-4)

    def compute(self, rows: IntArray) -> None:
        """Compute the rows ``rows`` (distinct, none done yet)."""
        if rows.size and self.stands >= 0:  # one outcome, wherever the cards can be out
            ok = (self.shoe[None, :] - self.keys[rows] >= 0).all(axis=1)
            self.dists[rows] = 0.0
            self.dists[rows, self.stands] = np.where(ok, 1.0, 0.0)
            self.done[rows] = True
        elif rows.size:
            t = self.table
            d, ok = dealer_dists(self.shoe, self.keys[rows], t.parent, t.fac, t.ways, t.bucket)
            if self.dists.shape[1] == 8:  # push22: the bust's column holds P(22) so far
                p22 = np.where(ok, d[:, BUST], 0.0)
                self.dists[rows, :7] = with_bust(d, ok)  # 1 less all: P(23 or more)
                self.dists[rows, TWENTY_TWO] = p22
            else:
                self.dists[rows] = with_bust(d, ok)
            self.done[rows] = True

    def ensure(self, rows: IntArray) -> None:
        """Compute the rows ``rows`` not done yet (-1 entries ignored)."""
        rows = rows[rows >= 0]
        self.compute(np.unique(rows[~self.done[rows]]))


@memo(64)
def _dists(
    decks: int,
    shoe0: tuple[int, ...],
    h17_from: int,
    hands_by_pair: tuple[int, ...],
    up: int,
    push22: bool = False,
    hole: int = -1,
) -> DistCache:
    sets = removed_sets(decks, hands_by_pair)
    shoe = np.array(shoe0, dtype=np.int64)
    shoe[up] -= 1
    n = sets.keys.shape[0]
    width = 8 if push22 else 7  # push22: P(22) in TWENTY_TWO (7), the bust (5) 23 or more
    stands = -1 if hole < 0 else start_stands(up, hole, h17_from)
    if hole >= 0 and stands < 0:  # a known start the dealer draws to
        table = standing_table(up, h17_from, push22, hole)
    else:  # (a known start the dealer stands on: this table is not read)
        table = standing_table(up, h17_from, push22)
    return DistCache(
        shoe,
        sets.keys,
        table,
        np.zeros((n, width)),
        np.zeros(n, dtype=np.bool_),
        stands,
    )


def up_dists(ctx: Context, up: int) -> DistCache:
    """The (cached) dealer probabilities of up card ``up`` (with a known hole card: of the
    two cards)."""
    if ctx.hole < 0:
        return _dists(ctx.decks, ctx.shoe, ctx.h17_from, ctx.hands_by_pair, up, ctx.push22)
    return _dists(ctx.decks, ctx.shoe, ctx.h17_from, ctx.hands_by_pair, up, ctx.push22, ctx.hole)


def base_table(
    ctx: Context, up: int, pair: int = -1, extra: int = 0, needed: BoolArray | None = None
) -> Base:
    """Stand values of every hand (of the hands holding ``pair`` when ``pair >= 0``) with
    ``extra`` more ``pair`` cards out of the shoe; with ``needed``, stand values only of
    those hands (the others read 0: a fixed play that never stands on them never uses them)."""
    nodes = ctx.nodes
    cache = up_dists(ctx, up)
    rows = removed_sets(ctx.decks, ctx.hands_by_pair).where[max(pair, 0), extra]
    comp = ctx.fresh()
    comp[up] -= 1
    if pair >= 0:
        comp[pair] -= extra
    need = _all_hands(nodes.size) if needed is None else needed
    mask, feasible, want, todo = stand_rows(comp, nodes.counts, pair, need, rows, cache.done)
    cache.compute(todo)
    nb, pbj, push = gather_stand(cache.dists, cache.done, rows, nodes.total, want, ctx.ties_lose)
    bonus = _NO_BONUS
    if ctx.has_spanish:  # a 21 that always wins, the 21 bonuses (analysis.spanish)
        bonus = apply_21_rules(ctx.rules, ctx.shoe, nodes.counts, nodes.total, want, nb, push, pbj)
    return Base(comp, nb, pbj, feasible, mask, push, bonus)


@lru_cache(maxsize=4)
def _all_hands(n: int) -> BoolArray:
    return np.ones(n, dtype=np.bool_)


@memo(64)
def up_base(ctx: Context, up: int) -> Base:
    """The base table of up card ``up`` over the fresh shoe less the up card (cached)."""
    return base_table(ctx, up)


def chart_solved(ctx: Context, up: int, chart: tuple[IntArray, IntArray]) -> Solved:
    """Every first hand against ``up`` played by ``chart`` over the fresh shoe less the up
    card (kept a while: the chart's return, its second moment and its exact distribution read
    the same)."""
    return _chart_solved(ctx, up, arrays_key(chart))


@memo(64)
def _chart_solved(ctx: Context, up: int, chart: bytes) -> Solved:
    return run_solve(ctx, up, up_base(ctx, up), CHART, chart=arrays_of(chart))
