"""What the exact analysis does with each field of :class:`~twentyone.engine.rules.Rules`:
reads it (:data:`ANALYSIS_READS`, and where), refuses some of its values
(:data:`ANALYSIS_REFUSES`; :data:`NOT_SIMULATED` those the simulator refuses too; the parts
that refuse free stakes, ties the dealer takes and a dealer's 22 that pushes), or ignores it
(:data:`ANALYSIS_IGNORES`, and why). :class:`~twentyone.analysis.context.Context` acts on these
tables; ``tests/test_rule_fields.py`` checks every declaration against what the analysis does.

>>> from dataclasses import fields
>>> from twentyone.engine.rules import Rules
>>> declared = set(ANALYSIS_READS) | set(ANALYSIS_REFUSES) | set(ANALYSIS_IGNORES)
>>> sorted(f.name for f in fields(Rules) if f.name not in declared)
[]
"""

from __future__ import annotations

from twentyone.engine.errors import RulesError
from twentyone.engine.rules import Rules

#: Every field of :class:`~twentyone.engine.rules.Rules` the analysis reads, and where.
ANALYSIS_READS: dict[str, str] = {
    "decks": "Context.shoe (the full shoe) and the hand tables",
    "deck": "Context.shoe: the full shoe's ten-values (twelve a Spanish deck, sixteen a "
    "standard one)",
    "dealer_hits_soft_17": "Context.h17_from: the dealer's tables",
    "dealer_hits_soft_17_min_cards": "Context.h17_from: the dealer's tables",
    "dealer_22": "Context.push22: the dealer's tables keep a final 22 apart (a push); the "
    "round's distribution and the moments of splits past four hands refuse it (PUSH22_REFUSED)",
    "peek": "Context.peek, f1, f2",
    "dealer_blackjack_takes": "Context.f1, f2, f1s, f2s (without a peek)",
    "blackjack_pays": "Context.bj_pays",
    "surrender": "Context.surrender",
    "surrender_against_ace": "Context.surrender_vs_ace",
    "double_on": "Context.double_rule",
    "double_after_split": "Context.das",
    "split_by": "Context.split_rank",
    "max_hands": "Context.max_hands, can_split",
    "split_only_one_box": "Context.can_split (with boxes > 1)",
    "resplit_aces": "Context.rsa",
    "hit_split_aces": "Context.hsa",
    "min_stand_total": "Context.min_stand",
    "insurance_upcards": "side_bets: insurance and even money by up card",
    "even_money": "side_bets: even money and a blackjack against an ace",
    "side_bets": "Context.bonus (the 6-7-8 / 7-7-7 bonus) and side_bets(): each priced",
    "free_doubles": "Context.free_doubles: a free double's stake wins only (player.solve)",
    "free_splits": "Context.free_splits: a free split's hands stake the house's bet "
    "(hands.free_split_value)",
    "ties": "Context.ties_lose: a tie of totals lost (standing.gather_stand)",
    "blackjack_ties": "Context.bj_tie: a blackjack against the dealer's (hands.blackjack_value)",
    "double_after_hit": "Context.dbl_more: player.solve doubles hands of three cards or more",
    "redoubles": "Context.doubles: spanish.doubled_values doubles a doubled hand again",
    "rescue": "Context.rescue: spanish.doubled_values gives a doubled hand up",
    "player_21_wins": "spanish.apply_21_rules: a 21's stand values (Context.base_table)",
    "bonus_21_cards": "spanish.apply_21_rules: an undoubled 21's stand value by its cards",
    "bonus_21_678_777": "spanish.apply_21_rules: a three-card 21's, its suits averaged",
}
#: The Spanish 21 fields (:mod:`twentyone.analysis.spanish`) and their values when off.
SPANISH_OFF: dict[str, object] = {
    "double_after_hit": False,
    "redoubles": 0,
    "rescue": False,
    "player_21_wins": False,
    "bonus_21_cards": (),
    "bonus_21_678_777": (),
}
SPANISH_FIELDS = tuple(SPANISH_OFF)
#: The parts of the analysis that refuse the Spanish 21 fields (a :class:`RulesError` naming
#: the first one on, from :meth:`Context.refuse_spanish`): their kernels stand a doubled hand
#: and pay a 21 as any total. The returns (``ev_basic``, ``ev_optimal``), the strategy and the
#: advice price them (:mod:`~twentyone.analysis.spanish`).
SPANISH_REFUSED: dict[str, str] = {
    "outcomes": "the round's distribution and its standard deviation",
    "split moments": "a split past four hands (the split moments)",
    "action moments": "the second moments of each action (count indexes)",
}


def refuse_spanish_with(rules: Rules) -> None:
    """Refuse (a :class:`RulesError` naming the field) the Spanish 21 rules the analysis does
    not price with the others: its doubles with free stakes (``free_doubles``,
    ``free_splits``), ``redoubles`` without ``double_after_hit`` (a chart's redouble reads
    the code a multi-card hand doubles by), and a 21 bonus where the dealer takes ties
    without ``player_21_wins`` (a 21's chance of a win is not kept apart)."""
    doubles = rules.double_after_hit or rules.redoubles > 0 or rules.rescue
    bonus = bool(rules.bonus_21_cards or rules.bonus_21_678_777)
    checks = (
        (
            "free_doubles",
            doubles and rules.free_doubles_mask != 0,
            "free doubles with Spanish 21's doubles",
        ),
        (
            "free_splits",
            doubles and rules.free_splits_mask != 0,
            "free splits with Spanish 21's doubles",
        ),
        (
            "redoubles",
            rules.redoubles > 0 and not rules.double_after_hit,
            "a redouble without double_after_hit",
        ),
        (
            "ties",
            bonus and rules.ties == "dealer" and not rules.player_21_wins,
            "a 21 bonus where the dealer takes ties",
        ),
    )
    for name, on, lacks in checks:
        if on:
            raise RulesError(
                "analysis-refuses", field=name, value=getattr(rules, name), lacks=lacks
            )


#: Fields whose other values the analysis refuses (a :class:`RulesError` from
#: :meth:`Context.of` naming the field), with the value it prices and what it lacks.
ANALYSIS_REFUSES: dict[str, tuple[object, str]] = {
    "hole_card_up": (
        False,
        "a play by both of the dealer's cards: only the returns (edge) and the chart by the "
        "dealer's total (strategy, as text or JSON) price it, by the dealer's two-card start",
    ),
    "switch": (
        False,
        "a pair of boxes and the switch decision: only the returns (edge) and the chart "
        "(strategy) price it, by analysis.switch",
    ),
}
#: Of :data:`ANALYSIS_REFUSES`, the fields the simulator refuses too (its message says so;
#: ``switch`` is simulated: :mod:`twentyone.sim.switch`).
NOT_SIMULATED: tuple[str, ...] = ()
#: The parts of the analysis that refuse free stakes (``free_doubles``, ``free_splits``: a
#: :class:`RulesError` naming the field, from :meth:`Context.refuse_free`): their kernels
#: take every stake as the player's. The returns (``ev_basic``, ``ev_optimal``), the strategy
#: and the advice on a first hand price free stakes exactly, splits of up to four hands dealt
#: in turn included (:func:`~twentyone.analysis.hands.free_split_value`).
FREE_REFUSED: dict[str, str] = {
    "outcomes": "the round's distribution and its standard deviation (the split kernels' "
    "and the moments' nets)",
    "split moments": "a free split past four hands, or with both second cards dealt at once",
    "action moments": "action_moments: the second moments of each action (count indexes)",
}
#: The same parts refuse a tie the dealer takes (``ties``, ``blackjack_ties``; a
#: :class:`RulesError` naming the field, from :meth:`Context.refuse_ties`): their kernels
#: push a tie. The returns, the strategy and the advice price both exactly.
TIES_REFUSED = FREE_REFUSED
#: The parts of the analysis that refuse ``dealer_22="push"`` (a :class:`RulesError` naming
#: the field, from :meth:`Context.refuse_push22`): their kernels read the dealer's outcomes
#: one by one, seven of them, and have no 22 among them yet. The returns (``ev_basic``,
#: ``ev_optimal``, by up card) and the strategy price it exactly, a split of up to four hands
#: included; the second moment (``sd`` without outcomes) as under "bust" (exact but for splits).
PUSH22_REFUSED: dict[str, str] = {
    "outcomes": "the round's distribution (analyze(outcomes=True), round_outcomes, "
    "up_outcomes): the split kernels' dealer outcomes",
    "split moments": "split_moments_of: the return and moments of a split past four hands "
    "(max_hands beyond 4, unlimited splits)",
    "action moments": "action_moments: the second moments of each action (count indexes)",
}
#: Every other field, and why it cannot change an exact return.
ANALYSIS_IGNORES: dict[str, str] = {
    "name": "a label",
    "hole_card": "read only through peek (which needs it): without a peek, a hole card dealt "
    "before the players draw has the distribution of a card drawn after them",
    "shuffle": "the analysis deals one round from a given shoe (the full one by default)",
    "penetration": "as shuffle",
    "blackjack_paid_at_once": "when a blackjack is paid, not how much",
    "insurance_stake": "insurance is priced per unit insured",
    "insurance_minimum": "a money limit",
    "surrender_before_play": "when surrender is asked: the chart's R codes already mean it",
    "double_for_less": "never better than a full double or none (the return is linear)",
    "split_second_card": "a split hand's play sees only its own cards: the order of dealing "
    "second cards does not change their distribution",
    "table_min": "a money limit",
    "table_max": "a money limit",
    "boxes_per_player": "one box is analysed (analyze's boxes argument)",
    "table_boxes": "seats at the table",
    "deal_order": "the order of the initial deal does not change the cards' distribution",
    "multi_player": "who else may sit at the table: each box's play is the same",
}
