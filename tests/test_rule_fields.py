"""Every field of Rules is either read by each fast path (the exact analysis, the simulator's
encoding) or declared irrelevant to it with a reason, and the declarations are true: changing
a field a path reads changes what it computes from, changing one it ignores changes nothing."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any

import pytest

from twentyone.analysis.context import ANALYSIS_IGNORES, ANALYSIS_READS, ANALYSIS_REFUSES, Context
from twentyone.analysis.side_bets import side_bets
from twentyone.engine.cards import parse_cards
from twentyone.engine.errors import RulesError
from twentyone.engine.rules import Rules
from twentyone.engine.sidebets import SideBet
from twentyone.sim.encode import SIM_IGNORES, SIM_REFUSES, encode_rules

FIELDS = [f.name for f in dataclasses.fields(Rules)]

# field -> (another valid value, the base settings under which the field can matter)
CHANGES: dict[str, tuple[Any, dict[str, Any]]] = {
    "name": ("other", {}),
    "decks": (2, {}),
    "deck": ("spanish", {}),
    "shuffle": ("continuous", {}),
    "penetration": (Fraction(1, 2), {}),
    "dealer_hits_soft_17": (True, {}),
    "dealer_hits_soft_17_min_cards": (3, {"dealer_hits_soft_17": True}),
    "dealer_22": ("push", {}),
    "hole_card": (False, {"peek": False}),
    "hole_card_up": (True, {}),
    "ties": ("dealer", {}),
    "blackjack_ties": ("player", {}),
    "peek": (False, {}),
    "dealer_blackjack_takes": ("original", {"peek": False}),
    "blackjack_pays": (Fraction(6, 5), {}),
    "blackjack_paid_at_once": (False, {}),
    "insurance_upcards": (("A", "T"), {}),
    "insurance_stake": ("up-to-half", {}),
    "insurance_minimum": (7, {}),
    "even_money": (False, {}),
    "surrender": ("late", {}),
    "surrender_against_ace": (False, {"surrender": "late"}),
    "surrender_before_play": (True, {"surrender": "late"}),
    "double_on": ("9-11", {}),
    "double_for_less": (True, {}),
    "double_after_split": (False, {}),
    "double_after_hit": (True, {}),
    "redoubles": (2, {"double_after_hit": True}),
    "rescue": (True, {}),
    "split_by": ("rank", {}),
    "max_hands": (2, {}),
    "split_only_one_box": (True, {}),
    "resplit_aces": (True, {}),
    "hit_split_aces": (True, {}),
    "split_second_card": ("at-once", {}),
    "min_stand_total": (12, {}),
    "free_doubles": ((9, 10, 11), {}),
    "free_splits": (("A", "8"), {}),
    "switch": (True, {"even_money": False}),
    "player_21_wins": (True, {}),
    "bonus_21_cards": (((5, Fraction(3, 2)),), {}),
    "bonus_21_678_777": ((("suited", Fraction(2)),), {}),
    "side_bets": (
        (SideBet(id="bonus", kind="678-777", paytable={"suited-6-7-8": "3", "7-7-7": "3"}),),  # type: ignore[dict-item]
        {},
    ),
    "table_min": (200, {}),
    "table_max": (100_000, {}),
    "boxes_per_player": (3, {}),
    "table_boxes": (5, {"boxes_per_player": 3}),
    "deal_order": ("box-by-box", {}),
    "multi_player": (False, {}),
}


def _pair(field: str) -> tuple[Rules, Rules]:
    alt, base = CHANGES[field]
    a = Rules(decks=6, **base)
    return a, a.replace(**{field: alt})


def _analysis_view(rules: Rules) -> tuple[Any, ...]:
    ctx = Context.of(rules, boxes=2)  # two boxes: split_only_one_box can matter
    values = tuple(getattr(ctx, f.name) for f in dataclasses.fields(ctx) if f.name != "rules")
    return values, repr(side_bets(rules))


def _sim_view(rules: Rules) -> tuple[Any, ...]:
    p, f = encode_rules(rules)  # the simulator's: refusing what its kernels cannot play
    return tuple(p.tolist()), tuple(f.tolist())


def test_every_field_has_a_change_to_try() -> None:
    assert set(CHANGES) == set(FIELDS)


@pytest.mark.parametrize("field", FIELDS)
def test_the_analysis_reads_or_declares_every_field(field: str) -> None:
    where = [field in d for d in (ANALYSIS_READS, ANALYSIS_IGNORES, ANALYSIS_REFUSES)]
    assert where.count(True) == 1, field
    a, b = _pair(field)
    if field in ANALYSIS_REFUSES:
        # the value it prices is the default; the other is refused, naming the field
        assert getattr(a, field) == ANALYSIS_REFUSES[field][0]
        _analysis_view(a)
        with pytest.raises(RulesError, match=field):
            _analysis_view(b)
    elif field in ANALYSIS_READS:
        assert _analysis_view(a) != _analysis_view(b), f"{field}: read, yet nothing changes"
    else:
        assert _analysis_view(a) == _analysis_view(b), f"{field}: declared irrelevant, yet read"


@pytest.mark.parametrize("field", FIELDS)
def test_the_simulator_encodes_or_declares_every_field(field: str) -> None:
    a, b = _pair(field)
    assert not (field in SIM_IGNORES and field in SIM_REFUSES), field
    if field in SIM_REFUSES:
        # the value it plays is the default; the other is refused, naming the field
        assert getattr(a, field) == SIM_REFUSES[field][0]
        _sim_view(a)
        with pytest.raises(RulesError, match=field):
            _sim_view(b)
    elif field in SIM_IGNORES:
        assert _sim_view(a) == _sim_view(b), f"{field}: declared irrelevant, yet encoded"
    else:
        assert _sim_view(a) != _sim_view(b), f"{field}: neither encoded nor declared irrelevant"


# fields the analysis prices apart from the kernels (side_bets()): not in the compiled form
PRICED_APART = {"insurance_upcards", "even_money"}


@pytest.mark.parametrize("field", sorted(set(ANALYSIS_READS) - PRICED_APART))
def test_the_analysis_reads_the_one_compiled_form(field: str) -> None:
    # the analysis builds its Context from the same vectors the simulator's kernel reads, so
    # every field it reads is in them
    a, b = _pair(field)
    assert _compiled_view(a) != _compiled_view(b), field


def _compiled_view(rules: Rules) -> tuple[Any, ...]:
    from twentyone.engine.compiled import encode_rules as compiled

    p, f = compiled(rules)
    return tuple(p.tolist()), tuple(f.tolist())


def test_the_kernels_predicates_are_the_engines_functions() -> None:
    from twentyone.engine import compiled, predicates
    from twentyone.engine import round_settlement as round

    pairs = [
        (compiled.dealer_draws_jit, predicates.dealer_draws),
        (compiled.total_may_double_jit, predicates.total_may_double),
        (compiled.may_stand_jit, predicates.may_stand),
        (compiled.cards_pair_jit, predicates.cards_pair),
    ]
    for jit, plain in pairs:
        assert jit.py_func is plain  # type: ignore[attr-defined]
    for total in range(2, 23):
        for soft in (False, True):
            for cards in range(2, 9):
                for h17_from in (0, 2, 3, 7):
                    assert compiled.dealer_draws_jit(total, soft, cards, h17_from) == (
                        predicates.dealer_draws(total, soft, cards, h17_from)
                    )
            for rule in (0, 1, 2):
                assert compiled.total_may_double_jit(total, soft, rule) == (
                    predicates.total_may_double(total, soft, rule)
                )
    assert compiled.dealer_draws_jit(17, True, 2, 2) and not compiled.dealer_draws_jit(
        17, True, 2, 0
    )
    # the engine's round draws by the same predicate, on the dealer's cards
    h17_3 = Rules(decks=6, dealer_hits_soft_17=True, dealer_hits_soft_17_min_cards=3)
    assert not round.dealer_must_draw(parse_cards("AS 6H"), h17_3)
    assert round.dealer_must_draw(parse_cards("AS 2H 4D"), h17_3)
    assert not round.dealer_must_draw(parse_cards("AS 2H 4D"), Rules(decks=6))


def test_the_analysis_tells_which_of_its_refusals_the_simulator_shares() -> None:
    """A field both refuse is said so in the analysis's refusal (the simulator cannot play a
    chart on it either): ``NOT_SIMULATED`` is exactly those fields."""
    from twentyone.analysis.context import NOT_SIMULATED

    assert set(NOT_SIMULATED) == set(ANALYSIS_REFUSES) & set(SIM_REFUSES)
