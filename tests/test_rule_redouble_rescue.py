"""Doubling after hits, redoubling and the double-down rescue (``double_after_hit``,
``redoubles``, ``rescue``): rounds settled by hand from stacked shoes as the Spanish 21 rule
sheets describe them. A hand may double on any number of cards; after a double it takes one
card and may then stand, double again (a redouble stakes the hand's whole stake again: $10 to
$20, $40, $80) or rescue it: surrender the doubled hand, losing the original bet only."""

from __future__ import annotations

from typing import Any

import pytest

from twentyone import BoxBet, Round, StackedShoe, replay
from twentyone.analysis.context import Context
from twentyone.engine.errors import IllegalActionError, RulesError
from twentyone.engine.records import Action, Decision
from twentyone.engine.replay import round_result, round_to_replay
from twentyone.engine.rules import Rules
from twentyone.sim.encode import (
    P_DOUBLE_AFTER_HIT,
    P_REDOUBLES,
    P_RESCUE,
    encode_rules,
    refuse_spanish_doubles,
)

#: The Spanish 21 actions on a six-deck H17 table with late surrender (part of the published
#: game; the spanish deck and the 21 bonuses are other fields).
S21 = Rules(
    decks=6,
    dealer_hits_soft_17=True,
    surrender="late",
    double_after_hit=True,
    redoubles=3,
    rescue=True,
)


def _round(cards: str, *decisions: str, rules: Rules = S21, bankroll: int | None = None) -> Round:
    """A one-box round of 100 from ``cards`` (box, dealer up, box, dealer hole, then the
    draws), the ``decisions`` applied in turn."""
    bankrolls = None if bankroll is None else {"ann": bankroll}
    rnd = Round(rules, StackedShoe(cards), [BoxBet("ann", 100)], bankrolls)
    for d in decisions:
        rnd.apply(d)
    return rnd


def _hand(rnd: Round) -> dict[str, Any]:
    hand: dict[str, Any] = round_result(rnd)["boxes"][0]["hands"][0]
    return hand


def _stakes(rnd: Round) -> list[int]:
    return [r.amount for r in rnd.log if isinstance(r, Action) and r.decision.name == "double"]


def test_a_double_after_two_hits_wins_twice_the_bet() -> None:
    # 2-3 hits 2 and 3: hard 10 on four cards doubles, draws a 9: 19, then stands;
    # the dealer's 16 draws a ten and busts: the doubled 200 wins 200
    rnd = _round("2S 6H 3D TC 2C 3H 9S TD", "hit", "hit")
    assert "double" in rnd.question.actions  # type: ignore[union-attr]
    rnd.double()
    assert rnd.question is not None and rnd.question.actions == ("stand", "double", "rescue")
    rnd.stand()
    assert _hand(rnd) | {"cards": None} == {
        "cards": None,
        "bet": 200,
        "total": 19,
        "result": "win",
    }
    assert rnd.net() == {"ann": 200}


def test_a_double_after_two_hits_loses_twice_the_bet() -> None:
    # the same 10 on four cards doubles and draws a 7: 17 against the dealer's 19
    rnd = _round("2S 9H 3D TC 2C 3H 7S", "hit", "hit", "double", "stand")
    assert _hand(rnd)["result"] == "lose"
    assert rnd.net() == {"ann": -200}


def test_without_double_after_hit_a_hand_of_three_cards_may_not_double() -> None:
    rnd = _round("2S 6H 3D TC 2C", "hit", rules=S21.replace(double_after_hit=False))
    assert rnd.question is not None and rnd.question.actions == ("hit", "stand")
    with pytest.raises(IllegalActionError, match="not allowed"):
        rnd.verify_double()


def test_a_double_after_hits_keeps_to_double_on() -> None:
    # 10-11 only: a hard 10 of three cards doubles, a hard 9 or a soft total does not
    ten_eleven = S21.replace(double_on="10-11")
    assert _round("2S 6H 3D TC 5C", "hit", rules=ten_eleven).can_double()
    assert not _round("2S 6H 3D TC 4C", "hit", rules=ten_eleven).can_double()
    assert not _round("AS 6H 2D TC 2C", "hit", rules=ten_eleven).can_double()  # soft 15
    assert _round("AS 6H 2D TC 2C", "hit").can_double()  # any total under "any"


def test_each_redouble_stakes_the_whole_stake_again() -> None:
    # 2-2 doubles (100) and draws a 2: 6; redoubles (200), a 2: 8; again (400), a 3: 11;
    # a third redouble (800), a 2: 13. Then only stand or rescue: the dealer's 16 busts
    # on a ten and the 1600 staked wins 1600
    rnd = _round("2S 6H 2D TC 2C 2H 3S 2S TD", "double", "double", "double", "double")
    assert _stakes(rnd) == [100, 200, 400, 800]
    assert rnd.question is not None and rnd.question.actions == ("stand", "rescue")
    rnd.stand()
    assert _hand(rnd)["bet"] == 1600 and _hand(rnd)["doubles"] == 4
    assert rnd.net() == {"ann": 1600}


def test_a_fourth_double_is_refused_where_the_sheet_allows_three() -> None:
    # "double down a maximum of 3 times on one hand": redoubles=2; the hand has 800 on it
    rnd = _round(
        "2S 6H 2D TC 2C 2H 3S TD", "double", "double", "double", rules=S21.replace(redoubles=2)
    )
    assert not rnd.can_double()
    with pytest.raises(IllegalActionError, match="doubled as many times as the table allows") as e:
        rnd.verify_double()
    assert e.value.code == "no-more-doubles"
    rnd.stand()  # 11 against the dealer's 16, who busts on the ten
    assert rnd.net() == {"ann": 800}


def test_without_redoubles_a_doubled_hand_is_asked_only_stand_or_rescue() -> None:
    rnd = _round("5S TH 6D 9C 2S", "double", rules=S21.replace(redoubles=0))
    assert rnd.question is not None and rnd.question.actions == ("stand", "rescue")
    with pytest.raises(IllegalActionError) as e:
        rnd.verify_double()
    assert e.value.code == "no-redouble"


def test_a_rescue_after_a_double_loses_only_the_original_bet() -> None:
    # 5-6 (11) doubles against a ten and draws a 2: 13; rescued: the doubled 100 comes back,
    # the original 100 is lost. No hand is left to play for: the dealer draws nothing
    rnd = _round("5S TH 6D 9C 2S", "double")
    assert rnd.can_rescue()
    record = rnd.rescue()
    assert record.decision == Decision("rescue") and record.amount == 0
    assert rnd.is_over and rnd.dealer == rnd.dealer[:2]
    assert _hand(rnd) == {
        "cards": ["5S", "6D", "2S"],
        "bet": 200,
        "total": 13,
        "result": "rescue",
        "net": -100,
    }
    assert rnd.net() == {"ann": -100}


def test_a_rescue_after_a_redouble_gets_back_every_double() -> None:
    # 11 doubles (100), draws a 2: 13; redoubles (200), draws an ace: 14; rescued: 300 back
    rnd = _round("5S TH 6D 9C 2S AS", "double", "double", "rescue")
    assert _hand(rnd)["result"] == "rescue" and _hand(rnd)["bet"] == 400
    assert rnd.net() == {"ann": -100}


def test_rescue_is_not_offered_without_a_double() -> None:
    rnd = _round("5S TH 6D 9C 2S")
    assert rnd.question is not None and "rescue" not in rnd.question.actions
    assert not rnd.can_rescue()
    with pytest.raises(IllegalActionError, match="only a doubled hand may be rescued") as e:
        rnd.verify_rescue()
    assert e.value.code == "rescue-needs-double"
    rnd.hit()  # 5-6 hits a 2: 13, still not doubled
    assert not rnd.can_rescue()


def test_rescue_is_not_offered_where_the_rule_is_off() -> None:
    rnd = _round("5S TH 6D 9C 2S", "double", rules=S21.replace(rescue=False))
    assert rnd.question is not None and rnd.question.actions == ("stand", "double")
    with pytest.raises(IllegalActionError, match="offers no double-down rescue") as e:
        rnd.verify_rescue()
    assert e.value.code == "no-rescue"


def test_without_redoubles_or_rescue_a_doubled_hand_stands_on_its_card() -> None:
    rnd = _round("5S TH 6D 9C 2S", "double", rules=S21.replace(rescue=False, redoubles=0))
    assert rnd.is_over and _hand(rnd)["result"] == "lose"
    assert rnd.net() == {"ann": -200}


def test_a_rescued_hand_still_loses_to_a_dealer_blackjack_found_later() -> None:
    # no hole card: the dealer's second card comes after the players. 5-6 doubles, draws a
    # 2, is rescued; the dealer's ten takes an ace: a blackjack takes all bets (200) ...
    enhc = S21.replace(hole_card=False, peek=False)
    rnd = _round("5S TH 6D 2S AC", "double", "rescue", rules=enhc)
    assert _hand(rnd)["result"] == "lose" and rnd.net() == {"ann": -200}
    assert len(rnd.dealer) == 2  # no hand left to play for: only the blackjack is looked for
    # ... or only the original bet where it takes the original bets
    obo = enhc.replace(dealer_blackjack_takes="original")
    assert _round("5S TH 6D 2S AC", "double", "rescue", rules=obo).net() == {"ann": -100}
    # without the blackjack the rescue stands: the dealer's second card is a 7
    assert _hand(_round("5S TH 6D 2S 7C", "double", "rescue", rules=enhc))["result"] == "rescue"


def test_a_redouble_needs_the_money_for_the_whole_stake() -> None:
    # 500 in all: 100 on the box, 100 doubled, 200 redoubled leaves 100, short of 400
    rnd = _round("2S 6H 2D TC 2C 2H", "double", "double", bankroll=500)
    assert rnd.question is not None and rnd.question.actions == ("stand", "rescue")
    # a double for less may stake what is left (from the table minimum)
    dfl = S21.replace(double_for_less=True)
    rnd = _round("2S 6H 2D TC 2C 2H 3S", "double", "double", rules=dfl, bankroll=500)
    q = rnd.question
    assert q is not None and q.actions == ("stand", "double:N", "rescue")
    assert q.amount_range == (100, 100)
    rnd.double(100)
    assert _stakes(rnd) == [100, 200, 100] and rnd.available("ann") == 0


def test_a_double_after_hits_or_a_redouble_is_never_free() -> None:
    # Free Bet's free doubles name hard two-card totals: a hard 9 of three cards pays in
    free = S21.replace(free_doubles=(9, 10, 11))
    rnd = _round("2S 6H 3D TC 4C 5H", "hit", "double", rules=free)
    assert _stakes(rnd) == [100] and rnd.boxes[0].hands[0].free == 0
    # a free two-card 10 doubles for nothing; its redouble stakes the whole 200 on the hand.
    # 12 takes a 5: 17 stands, the dealer's 16 busts on a ten: 300 paid in wins 300, the
    # house's free 100 wins 100
    rnd = _round("6S 6H 4D TC 2C 5C TD", "double", "double", "stand", rules=free)
    assert _stakes(rnd) == [0, 200]
    assert _hand(rnd)["free"] == 100 and _hand(rnd)["bet"] == 300
    assert rnd.net() == {"ann": 400}


def test_split_aces_hit_and_double_with_the_existing_fields() -> None:
    # Spanish 21 hits and doubles split aces: hit_split_aces and double_after_split
    aces = S21.replace(hit_split_aces=True, resplit_aces=True)
    rnd = _round("AS 6H AD TC 5S", "split", rules=aces)
    assert rnd.question is not None and {"hit", "double"} <= set(rnd.question.actions)


@pytest.mark.parametrize(
    "decisions",
    [("double", "double", "rescue"), ("hit", "double", "double", "stand"), ("double", "stand")],
)
def test_a_round_with_doubles_and_rescues_replays_exactly(decisions: tuple[str, ...]) -> None:
    rnd = _round("5S TH 6D 9C 2S AS 2C TD 9S", *decisions, bankroll=10_000)
    data = round_to_replay(rnd)
    assert data["decisions"] == list(decisions)
    assert replay(data) == round_result(rnd)


@pytest.mark.parametrize(
    ("field", "value", "says"),
    [
        ("redoubles", 5, "redoubles=5: expected 0 to 3"),
        ("redoubles", -1, "redoubles=-1: expected 0 to 3"),
        ("redoubles", True, "redoubles=True: expected a whole number"),
        ("rescue", "yes", "rescue='yes': expected true or false"),
        ("double_after_hit", 1, "double_after_hit=1: expected true or false"),
    ],
)
def test_bad_values_are_refused_naming_the_field(field: str, value: Any, says: str) -> None:
    with pytest.raises(RulesError, match=says):
        Rules(decks=6, **{field: value})


@pytest.mark.parametrize(
    ("field", "value"), [("double_after_hit", True), ("redoubles", 1), ("rescue", True)]
)
def test_the_fast_paths_refuse_each_field_by_name(field: str, value: Any) -> None:
    rules = Rules(decks=6, **{field: value})
    if field == "redoubles":  # priced with doubles after hits only (a chart's redouble)
        with pytest.raises(RulesError, match=r"redoubles=1: .*without double_after_hit"):
            Context.of(rules)
        rules = rules.replace(double_after_hit=True, redoubles=1)
    ctx = Context.of(rules)  # the returns and the strategy price it (analysis.spanish)
    with pytest.raises(RulesError, match="=True: the exact analysis does not price"):
        ctx.refuse_spanish("outcomes")
    p, _ = encode_rules(rules)  # the simulator plays it (a chart never rescues)
    assert (p[P_DOUBLE_AFTER_HIT], p[P_REDOUBLES], p[P_RESCUE]) == (
        rules.double_after_hit,
        rules.redoubles,
        rules.rescue,
    )
    with pytest.raises(RulesError, match=r"=.*the counting simulator does not play"):
        refuse_spanish_doubles(rules, "the counting simulator")


def test_both_gym_envs_play_redoubles_and_the_rescue_with_one_action_space() -> None:
    # the vectorized environment's agreement with the engine: tests/test_gym_vector.py
    from twentyone.gym.core import RESCUE
    from twentyone.gym.env import BlackjackEnv
    from twentyone.gym.vector import BlackjackVectorEnv

    BlackjackEnv(Rules(decks=6, redoubles=2, double_after_hit=True))  # the double action
    rules = Rules(decks=6, redoubles=1, rescue=True)
    env = BlackjackEnv(rules, ev_loss=False)  # the rescue action
    vec = BlackjackVectorEnv(2, rules)
    assert env.action_space.contains(RESCUE) and vec.single_action_space == env.action_space
    assert vec.single_observation_space == env.observation_space
    obs, _ = vec.reset(seed=0)
    assert "doubles" in obs and vec.observation_space.contains(obs)


def test_the_rule_card_says_each_rule_in_plain_words() -> None:
    from twentyone.i18n import LANGUAGES
    from twentyone.rulecard import rule_card

    def words(rules: Rules, lang: str = "en") -> str:
        return " ".join(rule_card(rules, lang).split())

    card = words(S21.replace(redoubles=2, free_doubles=(10, 11)))
    assert "may also double after hitting, on any number of cards" in card
    assert "may double again, up to 2 more times (redoubles)" in card
    assert "Double-down rescue" in card and "the original bet is lost" in card
    assert "A double after hitting or a redouble is never free." in card
    assert "double once more (a redouble)" in words(S21.replace(redoubles=1))
    plain = words(Rules(decks=6))
    assert not [s for s in ("redouble", "rescue", "after hitting") if s in plain]
    for lang in LANGUAGES:
        if lang != "en":  # every sentence translated: none left in English
            assert "Double-down rescue" not in words(S21, lang), lang
            assert "after hitting" not in words(S21, lang), lang


@pytest.mark.parametrize(
    ("field", "value"), [("double_after_hit", True), ("redoubles", 1), ("rescue", True)]
)
def test_the_counting_simulator_refuses_the_doubles_by_name(field: str, value: Any) -> None:
    """The flat simulator and the vectorized environment play them; the counting simulator
    (its indexes double two cards) refuses them by name."""
    from twentyone.counting.sim_runner import kernel_inputs
    from twentyone.sim.textbook import textbook_6d_s17_das

    rules = Rules(decks=6, **{field: value})
    with pytest.raises(RulesError, match=rf"{field}={value}: .* does not play this yet") as err:
        kernel_inputs(rules, textbook_6d_s17_das(), None)  # type: ignore[arg-type]
    assert err.value.code == "fast-path-refuses"
