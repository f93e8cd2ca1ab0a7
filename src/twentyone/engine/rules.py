"""The rules of a table: one frozen, validated object.

Every setting in the table of ``RULES.md`` is a field. A :class:`Rules` checks itself when it
is made and refuses invalid values and combinations with a message naming the field.

>>> r = Rules(decks=6, surrender="late")
>>> r.blackjack_pays, r.max_hands, r.peek
(Fraction(3, 2), 4, True)
>>> Rules(decks=6, max_hands=0)
Traceback (most recent call last):
...
twentyone.engine.errors.RulesError: max_hands=0: expected 1 (no split) to 4 hands, or \
'unlimited' (no limit)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from fractions import Fraction
from typing import Any, Literal

from twentyone.engine.cards import Card, hand_total
from twentyone.engine.errors import BetError, RulesError
from twentyone.engine.predicates import (
    DOUBLE_ON,
    double_is_free,
    split_is_free,
    total_may_double,
)
from twentyone.engine.ratios import fraction_text as fraction_text
from twentyone.engine.ratios import to_fraction as to_fraction
from twentyone.engine.sidebets import SideBet, side_bets_from

Deck = Literal["standard", "spanish"]
Shuffle = Literal["continuous", "cut-card"]
Surrender = Literal["none", "late", "early"]
DoubleOn = Literal["any", "9-11", "10-11"]
SplitBy = Literal["rank", "value"]
DealerBlackjackTakes = Literal["all", "original"]
InsuranceStake = Literal["half", "up-to-half"]
SplitSecondCard = Literal["in-turn", "at-once"]
DealOrder = Literal["round-robin", "box-by-box"]
Dealer22 = Literal["bust", "push"]
Ties = Literal["push", "dealer"]
BlackjackTies = Literal["push", "player", "dealer"]

#: The 6-7-8 / 7-7-7 three-card 21's lines, as ``bonus_21_678_777`` names them: all spades,
#: of one suit, of mixed suits.
BONUS_678_LINES = ("spades", "suited", "mixed")

#: Pairs by value, as ``free_splits`` names them (a ten-value pair is ``T``).
PAIR_VALUES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T")

#: The most hands a box may have under a numbered limit: real houses split to two, three or
#: four hands, or without a limit (``max_hands = "unlimited"``: ro.16, hu.8).
MOST_HANDS = 4

#: The most redoubles a doubled hand may make (``Rules.redoubles``): a Spanish 21 sheet's
#: "redouble up to three times" read as three doubles after the first.
MOST_REDOUBLES = 3

_CHOICES: dict[str, tuple[str, ...]] = {
    "deck": ("standard", "spanish"),
    "shuffle": ("continuous", "cut-card"),
    "surrender": ("none", "late", "early"),
    "double_on": ("any", "9-11", "10-11"),
    "split_by": ("rank", "value"),
    "dealer_blackjack_takes": ("all", "original"),
    "insurance_stake": ("half", "up-to-half"),
    "split_second_card": ("in-turn", "at-once"),
    "deal_order": ("round-robin", "box-by-box"),
    "dealer_22": ("bust", "push"),
    "ties": ("push", "dealer"),
    "blackjack_ties": ("push", "player", "dealer"),
}


@dataclass(frozen=True, kw_only=True)
class Rules:
    """Every setting of a blackjack table. Money fields are integer minor units (cents).

    Fields, with the clause family that sets them in ``RULES.md``:

    - ``decks``, ``deck`` (``standard``: 52 cards; ``spanish``: 48, the four ten-spots
      removed and the jacks, queens and kings kept, as Spanish 21 deals), ``shuffle``
      (``continuous`` or ``cut-card``), ``penetration`` (where the cut card sits, as a
      fraction of the shoe: ru.1 two thirds).
    - ``dealer_hits_soft_17``: H17 when true (all five rulebooks stand: ro.6, pt.2);
      ``dealer_hits_soft_17_min_cards``: the fewest cards with which an H17 dealer hits a soft
      17 (2, every soft 17; 3: "hits soft 17 only with three or more cards", a soft 17 of two
      cards stands). :attr:`Rules.soft_17_hit_from` is the two as one number.
    - ``dealer_22``: what a dealer's final total of exactly 22 does: ``bust`` (it busts, as
      every rulebook has it) or ``push`` (every hand still standing pushes, as in Free Bet and
      Blackjack Switch; a player blackjack is still paid, a busted hand still loses).
    - ``hole_card``: the dealer takes a face-down second card in the initial deal (pl, pt, ru);
      false means the second card is drawn after the players (ro.14, hu.4).
    - ``hole_card_up``: the dealer's second card is dealt face up (Double Exposure: both of
      the dealer's cards are seen before anyone plays; needs ``hole_card`` and ``peek``, a
      dealer blackjack ending the round at once).
    - ``ties``: who takes a tie of totals: ``push`` (a stand-off, every rulebook) or
      ``dealer`` (Double Exposure); ``blackjack_ties``: a player blackjack against a dealer
      blackjack: ``push``, ``player`` (paid as a blackjack) or ``dealer``.
    - ``peek``: with a hole card, the dealer checks it for blackjack under an ace or a ten
      (pl.3, pl.4, ru.5). ``dealer_blackjack_takes``: without a peek, whether a dealer blackjack
      takes ``all`` bets (ro.14, ENHC) or only the ``original`` bets (OBO).
    - ``blackjack_pays`` (3:2), ``blackjack_paid_at_once`` (paid when the dealer shows 2-9, or
      right after a peek finds nothing: ro.12, pt.3, ru.7; else at the end: pl.10).
    - ``insurance_upcards`` (``"A"`` and/or ``"T"``: ru.5 offers it on a ten too),
      ``insurance_stake`` (``half`` exactly, or ``up-to-half`` freely: ro.9, pt.10),
      ``insurance_minimum`` (ro.9: half the table minimum), ``even_money`` (ro.10, pt.4, hu.10).
    - ``surrender`` (``none``, ``late``: lost in full to a dealer blackjack, ``early``: keeps
      half whatever the dealer has), ``surrender_against_ace`` (ro.11, pt.11 refuse it),
      ``surrender_before_play`` (ro.11: asked box by box before the first box plays).
    - ``double_on`` (``any`` two cards, hard ``9-11``: pt.9, hard ``10-11``),
      ``double_for_less`` (ro.15; never below the table minimum), ``double_after_split``.
    - ``double_after_hit``: a hand may double on any number of cards (Spanish 21), still only
      on the totals ``double_on`` allows; ``redoubles`` (0 to 3): how many more times a doubled
      hand may double after its one card, each redouble staking the hand's whole stake again
      (Spanish 21 sheets: "double down a maximum of 3 times on one hand", $10 to $20, $40,
      $80: ``redoubles = 2``; where "redouble up to three times" counts the redoubles alone,
      3); ``rescue``: a
      doubled hand may be surrendered before it stands ("double-down rescue": the original
      bet is lost, every stake the doubles added comes back). A doubled hand is then asked
      again after its card: stand, double again while ``redoubles`` allow, or rescue. A double
      after hits or a redouble is never free (``free_doubles`` names two-card totals only).
    - ``split_by`` (``rank``: ro.16, or ``value``), ``max_hands`` from one box (1 = no split;
      ``"unlimited"``: split again whenever another pair comes, ro.16, hu.8; see
      :attr:`Rules.hand_limit`), ``split_only_one_box`` (pl.7), ``resplit_aces``,
      ``hit_split_aces`` (false: one card each), ``split_second_card`` (``in-turn``: ru.9,
      or ``at-once``: pl.7).
    - ``min_stand_total``: the lowest total a player may stand on voluntarily (pt.5: 12).
    - ``free_doubles``: the hard two-card totals whose double the house stakes (Free Bet: 9,
      10, 11); ``free_splits``: the pairs, by value (``A``, ``2``..``9``, ``T``), whose split
      the house stakes (Free Bet: every pair but tens). A free stake wins like a real one and
      is taken back when its hand loses or pushes (:attr:`Hand.free
      <twentyone.engine.hands.Hand.free>`).
    - ``switch``: Blackjack Switch: a player's boxes play in pairs (their first and second,
      third and fourth...), with equal bets; after the deal (and the insurance and the peek)
      each pair is asked once to ``switch`` the two hands' second cards or ``keep`` them. A
      hand made by switching is never a blackjack (its two-card 21 is a plain 21). Even money
      is not offered (a blackjack may yet be switched away).
    - ``player_21_wins``: a player's 21 that is not a blackjack wins whatever the dealer
      makes (a dealer's 21 included; a dealer blackjack still takes it where no peek ended
      the round first), paid when the round is settled (Spanish 21).
      ``bonus_21_cards``: a player's 21 of that many cards or more pays these odds instead of
      1:1 (TOML ``{ 5 = "3:2", 6 = "2:1", 7 = "3:1" }``, the largest key meaning "that many
      or more"); ``bonus_21_678_777``: a three-card 21 of 6-7-8 or 7-7-7 pays these odds by
      suit (TOML ``{ mixed = "3:2", suited = "2:1", spades = "3:1" }``). Neither is paid on a
      doubled hand (it wins 1:1); both are paid on a split hand (the Spanish 21 sheets except
      only doubles); where both fit, the higher pays. Not the ``678-777`` side bet (pt.12).
    - ``side_bets``: the table's side bets (:class:`~twentyone.engine.sidebets.SideBet`, TOML
      ``[side_bets.<id>]`` with ``kind`` and ``paytable``): the aces jackpot (pt.13), the
      6-7-8 / 7-7-7 bonus paid on the hand without a stake (pt.12), 21+3, Perfect Pairs.
    - ``table_min``, ``table_max`` per box, ``boxes_per_player`` (pl.1: 3, ru.3: 5),
      ``table_boxes`` (seats at the table), ``deal_order`` (``round-robin`` or ``box-by-box``:
      hu.4 deals each box its two cards, then the dealer's), ``multi_player`` (the table
      seats several players; false for a game one player has to themselves: pl-online,
      ru-online).
    """

    name: str = "custom"
    decks: int
    deck: Deck = "standard"
    shuffle: Shuffle = "cut-card"
    penetration: Fraction = Fraction(3, 4)
    dealer_hits_soft_17: bool = False
    dealer_hits_soft_17_min_cards: int = 2
    dealer_22: Dealer22 = "bust"
    hole_card: bool = True
    hole_card_up: bool = False
    peek: bool = True
    dealer_blackjack_takes: DealerBlackjackTakes = "all"
    blackjack_pays: Fraction = Fraction(3, 2)
    blackjack_paid_at_once: bool = True
    ties: Ties = "push"
    blackjack_ties: BlackjackTies = "push"
    insurance_upcards: tuple[str, ...] = ("A",)
    insurance_stake: InsuranceStake = "half"
    insurance_minimum: int = 1
    even_money: bool = True
    surrender: Surrender = "none"
    surrender_against_ace: bool = True
    surrender_before_play: bool = False
    double_on: DoubleOn = "any"
    double_for_less: bool = False
    double_after_split: bool = True
    double_after_hit: bool = False
    redoubles: int = 0
    rescue: bool = False
    split_by: SplitBy = "value"
    max_hands: int | Literal["unlimited"] = 4
    split_only_one_box: bool = False
    resplit_aces: bool = False
    hit_split_aces: bool = False
    split_second_card: SplitSecondCard = "in-turn"
    min_stand_total: int = 0
    free_doubles: tuple[int, ...] = ()
    free_splits: tuple[str, ...] = ()
    switch: bool = False
    player_21_wins: bool = False
    bonus_21_cards: tuple[tuple[int, Fraction], ...] = ()
    bonus_21_678_777: tuple[tuple[str, Fraction], ...] = ()
    side_bets: tuple[SideBet, ...] = ()
    table_min: int = 100
    table_max: int = 500_000
    boxes_per_player: int = 7
    table_boxes: int = 7
    deal_order: DealOrder = "round-robin"
    multi_player: bool = True

    def __post_init__(self) -> None:
        self._coerce()
        self._validate()

    def _coerce(self) -> None:
        def put(name: str, value: Any) -> None:
            object.__setattr__(self, name, value)

        for name in ("penetration", "blackjack_pays"):
            put(name, to_fraction(getattr(self, name), name))
        put("insurance_upcards", tuple(self.insurance_upcards))
        for name in ("free_doubles", "free_splits"):
            value = getattr(self, name)
            if isinstance(value, list | tuple):
                put(name, tuple(value))
        put("side_bets", side_bets_from(self.side_bets))
        put("bonus_21_cards", _odds_table(self.bonus_21_cards, "bonus_21_cards", int))
        put("bonus_21_678_777", _odds_table(self.bonus_21_678_777, "bonus_21_678_777", str))

    def _validate(self) -> None:
        def bad(name: str, code: str, **params: Any) -> RulesError:
            value = getattr(self, name)
            if isinstance(value, Fraction):  # as the rule files write a ratio: '0:1', '6:5'
                value = f"{value.numerator}:{value.denominator}"
            elif name.startswith("bonus_21"):  # an odds table, as the rule files write it
                value = {str(k): fraction_text(odds) for k, odds in value}
            return RulesError(code, field=name, value=value, **params)

        for name, choices in _CHOICES.items():
            if getattr(self, name) not in choices:
                raise bad(name, "not-one-of", choices=", ".join(repr(c) for c in choices))
        for f in fields(self):
            if f.type == "bool" and not isinstance(getattr(self, f.name), bool):
                raise bad(f.name, "not-true-or-false")
            if f.type == "int" and (
                not isinstance(getattr(self, f.name), int)
                or isinstance(getattr(self, f.name), bool)
            ):
                raise bad(f.name, "not-whole-number")
        if not 1 <= self.decks <= 8:
            raise bad("decks", "out-of-range", lo=1, hi=8)
        if not 0 < self.penetration < 1:
            raise bad("penetration", "not-a-fraction")
        if not 2 <= self.dealer_hits_soft_17_min_cards <= 7:  # 7 aces: the longest soft 17
            raise bad("dealer_hits_soft_17_min_cards", "out-of-range", lo=2, hi=7)
        if self.dealer_hits_soft_17_min_cards != 2 and not self.dealer_hits_soft_17:
            raise RulesError("soft-17-cards-needs-h17", cards=self.dealer_hits_soft_17_min_cards)
        if self.peek and not self.hole_card:
            raise RulesError("peek-needs-hole-card")
        if self.hole_card_up and not (self.hole_card and self.peek):
            raise RulesError("hole-up-needs-peek")
        if self.peek and self.dealer_blackjack_takes != "all":
            raise RulesError("original-needs-no-peek")
        if self.blackjack_pays <= 0:
            raise bad("blackjack_pays", "not-positive-ratio")
        if not set(self.insurance_upcards) <= {"A", "T"}:
            raise bad("insurance_upcards", "bad-insurance-upcards")
        if not all(
            isinstance(t, int) and not isinstance(t, bool) and 4 <= t <= 20
            for t in self.free_doubles
        ) or not isinstance(self.free_doubles, tuple):
            raise bad("free_doubles", "bad-free-doubles")
        if not isinstance(self.free_splits, tuple) or not set(self.free_splits) <= set(PAIR_VALUES):
            raise bad("free_splits", "bad-free-splits")
        for t in self.free_doubles:
            if not total_may_double(t, False, DOUBLE_ON[self.double_on]):
                raise RulesError("free-double-not-doubled", hard=t, double_on=self.double_on)
        if self.switch and self.even_money:
            raise RulesError("switch-no-even-money")
        paired = [b.id for b in self.side_bets if b.spec.view == "pair-four"]
        if paired and not self.switch:
            raise RulesError("pair-bet-needs-switch", ids=", ".join(paired))
        if self.insurance_minimum < 1:
            raise bad("insurance_minimum", "at-least", least=1)
        if self.max_hands != "unlimited" and (
            not isinstance(self.max_hands, int)
            or isinstance(self.max_hands, bool)
            or not 1 <= self.max_hands <= MOST_HANDS
        ):
            raise bad("max_hands", "bad-max-hands")
        if self.resplit_aces and self.max_hands != "unlimited" and self.max_hands < 3:
            raise RulesError("resplit-aces-needs-hands", max_hands=self.max_hands)
        if not 0 <= self.redoubles <= MOST_REDOUBLES:
            raise bad("redoubles", "out-of-range", lo=0, hi=MOST_REDOUBLES)
        if not 0 <= self.min_stand_total <= 21:
            raise bad("min_stand_total", "out-of-range", lo=0, hi=21)
        bonuses = [b for b in self.side_bets if b.kind == "678-777"]
        if len(bonuses) > 1 or any(
            set(b.paytable) != {"suited-6-7-8", "7-7-7"} or len(set(b.paytable.values())) != 1
            for b in bonuses
        ):
            raise RulesError("one-678-bonus", ids=[b.id for b in bonuses])
        if not all(3 <= k <= 21 for k, _ in self.bonus_21_cards):
            raise bad("bonus_21_cards", "bad-bonus-21-cards")
        if not {k for k, _ in self.bonus_21_678_777} <= set(BONUS_678_LINES):
            raise bad("bonus_21_678_777", "bad-bonus-21-678", lines=", ".join(BONUS_678_LINES))
        for name in ("bonus_21_cards", "bonus_21_678_777"):
            if any(odds <= 0 for _, odds in getattr(self, name)):
                raise bad(name, "not-positive-ratio")
        if self.table_min < 1:
            raise bad("table_min", "at-least", least=1)
        if self.table_max < self.table_min:
            raise RulesError("max-below-min", max=self.table_max, min=self.table_min)
        if not 1 <= self.table_boxes <= 12:
            raise bad("table_boxes", "out-of-range", lo=1, hi=12)
        if not 1 <= self.boxes_per_player <= self.table_boxes:
            raise bad("boxes_per_player", "out-of-range", lo=1, hi=self.table_boxes)

    @property
    def shoe_size(self) -> int:
        """Cards in the full shoe: ``decks`` decks of 52 cards, or of 48 (``deck="spanish"``).

        >>> Rules(decks=6).shoe_size, Rules(decks=6, deck="spanish").shoe_size
        (312, 288)
        """
        return self.decks * (48 if self.deck == "spanish" else 52)

    @property
    def soft_17_hit_from(self) -> int:
        """The dealer's soft-17 rule as one number: the fewest cards with which the dealer
        hits a soft 17, 0 where the dealer stands on every soft 17 (what the predicates and
        the fast paths read: :func:`twentyone.engine.predicates.dealer_draws`).

        >>> h17 = Rules(decks=6, dealer_hits_soft_17=True)
        >>> Rules(decks=6).soft_17_hit_from, h17.soft_17_hit_from
        (0, 2)
        >>> h17.replace(dealer_hits_soft_17_min_cards=3).soft_17_hit_from
        3
        """
        return self.dealer_hits_soft_17_min_cards if self.dealer_hits_soft_17 else 0

    @property
    def hand_limit(self) -> int | None:
        """The most hands one box may play, ``None`` when a split is never refused for their
        number (``max_hands = "unlimited"``; the shoe's pair cards are then the only bound).

        >>> Rules(decks=6).hand_limit, Rules(decks=6, max_hands="unlimited").hand_limit
        (4, None)
        """
        return None if self.max_hands == "unlimited" else self.max_hands

    @property
    def may_split(self) -> bool:
        """Whether a box may split at all (``max_hands`` above 1)."""
        return self.hand_limit is None or self.hand_limit > 1

    @property
    def may_resplit(self) -> bool:
        """Whether a box may split more than once (more than two hands)."""
        return self.hand_limit is None or self.hand_limit > 2

    @property
    def free_doubles_mask(self) -> int:
        """``free_doubles`` as the bits the predicates read (bit ``t``: hard ``t`` is free)."""
        return sum(1 << t for t in set(self.free_doubles))

    @property
    def free_splits_mask(self) -> int:
        """``free_splits`` as the bits the predicates read (bit ``v``: a pair of card value
        ``v`` is free, 1 for aces, 10 for ten-values)."""
        return sum(1 << (PAIR_VALUES.index(r) + 1) for r in set(self.free_splits))

    def double_is_free(self, total: int, soft: bool) -> bool:
        """Whether the house stakes the double of a two-card ``total`` (``free_doubles``).

        >>> fb = Rules(decks=6, free_doubles=(9, 10, 11))
        >>> fb.double_is_free(10, False), fb.double_is_free(10, True), fb.double_is_free(12, False)
        (True, False, False)
        """
        return double_is_free(total, soft, self.free_doubles_mask)

    def split_is_free(self, value: int) -> bool:
        """Whether the house stakes the split of a pair of card value ``value`` (1 for aces,
        10 for ten-values; ``free_splits``).

        >>> fb = Rules(decks=6, free_splits=("A", "8"))
        >>> fb.split_is_free(1), fb.split_is_free(8), fb.split_is_free(10)
        (True, True, False)
        """
        return split_is_free(value, self.free_splits_mask)

    @property
    def offers_surrender(self) -> bool:
        return self.surrender != "none"

    @property
    def staked_side_bets(self) -> tuple[SideBet, ...]:
        """The side bets a player may stake (the 6-7-8 bonus needs no stake)."""
        return tuple(b for b in self.side_bets if b.staked)

    def side_bet(self, bet_id: str, *, staked: bool = True) -> SideBet:
        """The side bet ``bet_id`` a player may stake (``staked=False``: any of the table's,
        the 6-7-8 bonus too); :class:`BetError` names the ids offered.

        >>> Rules(decks=6).side_bet("21-3")
        Traceback (most recent call last):
        ...
        twentyone.engine.errors.BetError: side bet '21-3': this table offers none
        """
        for b in self.staked_side_bets if staked else self.side_bets:
            if b.id == bet_id:
                return b
        offered = ", ".join(repr(b.id) for b in self.staked_side_bets) or "none"
        raise BetError("unknown-side-bet", side=bet_id, offered=offered)

    @property
    def jackpot_paytable(self) -> tuple[tuple[int, Fraction], ...]:
        """The aces jackpot's ``((aces, odds), ...)``, fewest aces first (empty: none)."""
        for b in self.side_bets:
            if b.kind == "aces-jackpot":
                return tuple(sorted((int(k), v) for k, v in b.paytable.items()))
        return ()

    @property
    def bonus_678_777(self) -> Fraction:
        """Times the box's bet the 6-7-8 / 7-7-7 bonus pays on a hand (0: none), as the exact
        analysis and the simulator take it (pt.12)."""
        for b in self.side_bets:
            if b.kind == "678-777":
                return next(iter(b.paytable.values()))
        return Fraction(0)

    def bonus_21(self, cards: Sequence[Card], doubled: bool) -> Fraction | None:
        """The odds a winning 21 of ``cards`` (not a blackjack) is paid at instead of 1:1,
        ``None`` for none: the 21 bonuses (``bonus_21_cards``, ``bonus_21_678_777``), never
        on a ``doubled`` hand; the higher where both fit.

        >>> from twentyone.engine.cards import parse_cards as p
        >>> s21 = Rules(decks=6, bonus_21_cards={5: "3:2", 6: "2", 7: "3"},
        ...             bonus_21_678_777={"mixed": "3:2", "suited": "2", "spades": "3"})
        >>> [s21.bonus_21(p(t), False) for t in ("2S 3D 4H 5C 7S", "AS AD AH AC 2S 3D 4H 8C")]
        [Fraction(3, 2), Fraction(3, 1)]
        >>> [s21.bonus_21(p(t), False) for t in ("6S 8S 7S", "7H 7H 7H", "7H 6S 8S", "9S 5S 7S")]
        [Fraction(3, 1), Fraction(2, 1), Fraction(3, 2), None]
        >>> s21.bonus_21(p("2S 3D 4H 5C 7S"), True), s21.bonus_21(p("KS 5D 6H"), False)
        (None, None)
        """
        if doubled or hand_total(cards).total != 21:
            return None
        best: Fraction | None = None
        for least, odds in self.bonus_21_cards:  # fewest cards first: the last that fits
            if len(cards) >= least:
                best = odds
        if len(cards) == 3 and sorted(c.rank for c in cards) in (["6", "7", "8"], ["7", "7", "7"]):
            suits = {c.suit for c in cards}
            line = "spades" if suits == {"S"} else "suited" if len(suits) == 1 else "mixed"
            by_suit = dict(self.bonus_21_678_777).get(line)
            if by_suit is not None and (best is None or by_suit > best):
                best = by_suit
        return best

    def replace(self, **changes: Any) -> Rules:
        """A copy with some fields changed (validated again).

        >>> Rules(decks=6).replace(decks=2).decks
        2
        """
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        changes = upgrade_legacy(dict(changes), values["side_bets"])
        unknown = set(changes) - set(values)
        if unknown:
            raise RulesError(
                "unknown-fields",
                unknown=", ".join(sorted(unknown)),
                known=", ".join(sorted(values)),
            )
        values.update(changes)
        return Rules(**values)

    def to_dict(self) -> dict[str, Any]:
        """Plain values (fractions as ``'a:b'`` strings), the shape of a TOML rules file."""
        out: dict[str, Any] = {}
        for f in fields(self):
            v = getattr(self, f.name)
            if isinstance(v, Fraction):
                v = fraction_text(v)
            elif f.name == "side_bets":
                v = {b.id: b.to_dict() for b in v}
            elif f.name in ("bonus_21_cards", "bonus_21_678_777"):
                v = {str(k): fraction_text(odds) for k, odds in v}
            elif isinstance(v, tuple):
                v = list(v)
            out[f.name] = v
        return out


def _odds_table(value: Any, name: str, key: type) -> tuple[tuple[Any, Fraction], ...]:
    """An odds table (``{key: ratio}``, TOML's string keys read as ``key``, or pairs) as the
    sorted pairs a :class:`Rules` keeps; :class:`RulesError` naming ``name`` when it is not."""
    pairs = value.items() if isinstance(value, Mapping) else value
    try:
        out = [(key(k), to_fraction(v, f"{name}.{k}")) for k, v in pairs]
    except (TypeError, ValueError) as exc:
        if isinstance(exc, RulesError):
            raise
        raise RulesError("bad-odds-table", field=name, value=value) from exc
    if len({k for k, _ in out}) != len(out):
        raise RulesError("bad-odds-table", field=name, value=value)
    return tuple(sorted(out))


def rules_from_fields(data: dict[str, Any], source: str) -> Rules:
    """Rules from a table of fields (a TOML file's, a replay's inline rules), the old keys
    upgraded (:func:`upgrade_legacy`); an unknown key and a missing ``decks`` are errors
    naming them and the fields, ``source`` saying where the table came from.

    >>> rules_from_fields({"decks": 6, "surender": "late"}, "house.toml")
    Traceback (most recent call last):
    ...
    twentyone.engine.errors.RulesError: house.toml: unknown key 'surender': expected one of \
blackjack_paid_at_once, blackjack_pays, ..., table_min, ties
    """
    values = upgrade_legacy(dict(data))
    known = sorted(f.name for f in fields(Rules))
    for key in values:
        if key not in known:
            raise RulesError("unknown-rules-key", source=source, key=key, fields=", ".join(known))
    if "decks" not in values:
        raise RulesError("rules-need-decks", source=source)
    try:
        return Rules(**values)
    except TypeError as exc:  # not a table of fields at all
        raise RulesError(
            "bad-rules-file", source=source, reason=str(exc), fields=", ".join(known)
        ) from exc


#: The side bet ids the old keys ``jackpot_paytable`` and ``bonus_678_777`` become.
LEGACY_IDS = {"jackpot_paytable": "jackpot", "bonus_678_777": "bonus"}


def upgrade_legacy(data: dict[str, Any], side_bets: Any = ()) -> dict[str, Any]:
    """Rules data with the old keys (``jackpot_paytable = {2 = "25"}``, ``bonus_678_777 = "3"``)
    moved into ``side_bets`` as ``jackpot`` and ``bonus`` (``0`` or ``{}`` removes them).

    >>> upgrade_legacy({"bonus_678_777": "3"})["side_bets"]["bonus"]["paytable"]
    {'suited-6-7-8': '3', '7-7-7': '3'}
    """
    if not set(LEGACY_IDS) & set(data):
        return data
    out = dict(data)
    bets = out.get("side_bets", side_bets)
    table: dict[str, Any] = (
        dict(bets) if isinstance(bets, dict) else {b.id: b for b in side_bets_from(bets)}
    )
    if "jackpot_paytable" in out:
        pays = out.pop("jackpot_paytable")
        pairs = pays.items() if isinstance(pays, dict) else pays
        lines = {str(k): v for k, v in pairs}
        table.pop("jackpot", None)
        if lines:
            table["jackpot"] = {"kind": "aces-jackpot", "paytable": lines}
    if "bonus_678_777" in out:
        times = out.pop("bonus_678_777")
        table.pop("bonus", None)
        if to_fraction(times, "bonus_678_777") != 0:
            table["bonus"] = {
                "kind": "678-777",
                "paytable": {"suited-6-7-8": times, "7-7-7": times},
            }
    out["side_bets"] = table
    return out
