"""Blackjack Switch (the ``switch`` rule file; ``switch``, ``dealer_22`` and ``blackjack_pays``):
rounds settled by hand from stacked shoes as the rule sheets cited in the file describe them.
A player's boxes play in pairs of equal bets; after the deal, the insurance and the peek, each
pair is asked once to switch the two hands' second cards or keep them. A hand made by switching
is never a blackjack; a blackjack pays 1:1; a dealer's 22 pushes every hand still standing but
a blackjack.

Cards are dealt round-robin: box 1, box 2, the dealer's up card, box 1, box 2, the hole card,
then the draws."""

from __future__ import annotations

from fractions import Fraction

import pytest

from twentyone import BoxBet, Round, StackedShoe, load_rules
from twentyone.engine.errors import BetError, IllegalActionError, RulesError
from twentyone.engine.records import Action
from twentyone.engine.replay import replay_round, round_result, round_to_replay
from twentyone.engine.rules import Rules

SWITCH = load_rules("switch")


def _round(cards: str, *decisions: str, bets: tuple[int, int] = (1000, 1000)) -> Round:
    """A round of one player's pair at the switch table from ``cards``, the ``decisions``
    applied in turn."""
    boxes = [BoxBet("ann", bets[0]), BoxBet("ann", bets[1])]
    rnd = Round(SWITCH, StackedShoe(cards), boxes)
    for d in decisions:
        rnd.apply(d)
    return rnd


def _hand(rnd: Round, box: int) -> dict[str, object]:
    hand: dict[str, object] = round_result(rnd)["boxes"][box]["hands"][0]
    return hand


def test_switch_rule_file_cites_the_standard_game() -> None:
    r = SWITCH
    assert r.switch and (r.decks, r.dealer_hits_soft_17, r.dealer_22) == (6, True, "push")
    assert r.blackjack_pays == Fraction(1) and r.blackjack_ties == "push"
    assert (r.peek, r.double_on, r.double_after_split, r.max_hands, r.surrender) == (
        True,
        "any",
        True,
        4,
        "none",
    )
    assert r.deal_order == "round-robin" and not r.even_money


def test_each_pair_is_asked_once_to_switch_or_keep() -> None:
    rnd = _round("AS 9H TD 7C KS 9D")
    q = rnd.question
    assert q is not None and (q.kind, q.box, q.partner, q.actions) == (
        "switch",
        0,
        1,
        ("switch", "keep"),
    )
    assert q.describe() == "boxes 1 and 2 (switch): switch, keep"
    assert rnd.can_switch() and rnd.can_keep() and not rnd.can_hit()


def test_a_switch_that_makes_21_from_a_blackjacks_cards_is_paid_1_to_1_as_a_21() -> None:
    # box 1 A-7, box 2 9-K, the dealer T-9. Switching gives A-K (21) and 9-7 (16): the 21 is
    # not a blackjack, stands at once and wins 1:1 against 19; 16 stands and loses
    rnd = _round("AS 9H TD 7C KS 9D", "switch")
    first, second = rnd.boxes[0].hands[0], rnd.boxes[1].hands[0]
    assert [str(c) for c in first.cards] == ["AS", "KS"] and not first.is_blackjack
    assert [str(c) for c in second.cards] == ["9H", "7C"]
    q = rnd.question
    assert q is not None and (q.kind, q.box) == ("play", 1)  # the 21 is not asked
    rnd.stand()
    assert rnd.is_over
    assert _hand(rnd, 0) == {
        "cards": ["AS", "KS"],
        "bet": 1000,
        "total": 21,
        "result": "win",
        "switched": True,
    }
    assert first.returned == 2000
    assert _hand(rnd, 1)["result"] == "lose"
    assert rnd.net() == {"ann": 0}


def test_a_switched_21_pushes_the_dealers_22() -> None:
    # the same switch; the dealer T-6 draws a 6: 22 pushes the 21 and the 16 alike
    rnd = _round("AS 9H TD 7C KS 6D 6C", "switch", "stand")
    result = round_result(rnd)
    assert result["dealer"] == {"cards": ["TD", "6D", "6C"], "total": 22, "blackjack": False}
    assert [_hand(rnd, 0)["result"], _hand(rnd, 1)["result"]] == ["push", "push"]
    assert rnd.net() == {"ann": 0}


def test_a_switched_21_pushes_the_dealers_three_card_21() -> None:
    # dealer T-6 draws a 5: 21. A blackjack would win; the switched 21 pushes, 16 loses
    rnd = _round("AS 9H TD 7C KS 6D 5C", "switch", "stand")
    assert [_hand(rnd, 0)["result"], _hand(rnd, 1)["result"]] == ["push", "lose"]


def test_a_kept_blackjack_is_paid_1_to_1_and_beats_the_dealers_22() -> None:
    # box 1 A-K (a blackjack), box 2 9-7; kept. The dealer T-6 draws a 6: 22 pushes the 16
    # but the blackjack wins, paid even money
    rnd = _round("AS 9H TD KC 7S 6D 6C", "keep", "stand")
    first = rnd.boxes[0].hands[0]
    assert first.is_blackjack and first.result == "blackjack" and first.returned == 2000
    assert _hand(rnd, 1)["result"] == "push"
    assert "switched" not in _hand(rnd, 0)
    assert rnd.net() == {"ann": 1000}


def test_keep_leaves_the_cards_as_dealt() -> None:
    # box 1 5-T (15), box 2 T-6 (16) against a 9 up
    kept = _round("5S TH 9D TC 6S 8D", "keep")
    assert [str(c) for c in kept.boxes[0].hands[0].cards] == ["5S", "TC"]
    assert [str(c) for c in kept.boxes[1].hands[0].cards] == ["TH", "6S"]
    assert not kept.boxes[0].hands[0].switched
    keep = next(r for r in kept.log if isinstance(r, Action))
    assert (keep.kind, str(keep.decision), keep.cards, keep.amount) == ("switch", "keep", (), 0)


def test_a_switched_hand_may_double() -> None:
    # switching 5-T and T-6 gives 5-6 (11) and T-T (20): the 11 is asked with a double
    rnd = _round("5S TH 9D TC 6S 8D 9C", "switch")
    assert [str(c) for c in rnd.boxes[0].hands[0].cards] == ["5S", "6S"]
    assert [str(c) for c in rnd.boxes[1].hands[0].cards] == ["TH", "TC"]
    q = rnd.question
    assert q is not None and q.box == 0 and "double" in q.actions
    rnd.double()  # draws a 9: 20
    q = rnd.question
    assert q is not None and q.box == 1 and "split" in q.actions  # T-T after the switch
    rnd.stand()  # dealer 9-8: 17
    assert [_hand(rnd, 0)["result"], _hand(rnd, 1)["result"]] == ["win", "win"]
    assert rnd.net() == {"ann": 3000}


def test_a_dealer_blackjack_ends_the_round_before_the_switch() -> None:
    # dealer T up, A in the hole: the peek finds it. The blackjack of box 1 pushes, box 2 loses;
    # no pair is asked
    rnd = _round("AS 9H TD KC 7S AD")
    assert rnd.is_over
    assert [_hand(rnd, 0)["result"], _hand(rnd, 1)["result"]] == ["push", "lose"]
    assert not any(isinstance(r, Action) for r in rnd.log)


def test_the_switch_comes_after_the_insurance() -> None:
    # an ace up: each box is asked insurance, the peek finds a 9, then the pair decides
    rnd = _round("AS 9H AD 7C KS 9D")
    q = rnd.question
    assert q is not None and (q.kind, q.box) == ("insurance", 0)
    with pytest.raises(IllegalActionError):
        rnd.switch()
    rnd.decline_insurance()
    rnd.decline_insurance()
    q = rnd.question
    assert q is not None and q.kind == "switch"
    rnd.switch()
    rnd.stand()  # 9-7 against the dealer's A-9 (20)
    assert [_hand(rnd, 0)["result"], _hand(rnd, 1)["result"]] == ["win", "lose"]


def test_each_player_switches_their_own_pair() -> None:
    # ann on boxes 1 and 3, bob on 2 and 4: ann's pair is (1, 3), bob's (2, 4)
    bets = [BoxBet("ann", 100), BoxBet("bob", 100), BoxBet("ann", 100), BoxBet("bob", 100)]
    rnd = Round(SWITCH, StackedShoe("2S 3S 4S 5S 9D 6H 7H 8H 9H 8D"), bets)
    q = rnd.question
    assert q is not None and (q.box, q.partner) == (0, 2)
    rnd.switch()  # ann: 2-8 and 4-6
    q = rnd.question
    assert q is not None and (q.box, q.partner) == (1, 3)
    rnd.keep()
    assert [str(c) for c in rnd.boxes[0].hands[0].cards] == ["2S", "8H"]
    assert [str(c) for c in rnd.boxes[2].hands[0].cards] == ["4S", "6H"]
    assert [str(c) for c in rnd.boxes[1].hands[0].cards] == ["3S", "7H"]


def test_unequal_bets_on_a_pair_are_refused() -> None:
    with pytest.raises(BetError, match="1000 and 500") as err:
        _round("AS 9H TD 7C KS 9D", bets=(1000, 500))
    assert err.value.code == "switch-unequal-bets"


def test_an_odd_number_of_boxes_is_refused() -> None:
    with pytest.raises(BetError, match="even number") as err:
        Round(SWITCH, StackedShoe("AS TD 7C 9D"), [BoxBet("ann", 1000)])
    assert err.value.code == "switch-odd-boxes"


def test_a_switch_table_offers_no_even_money() -> None:
    with pytest.raises(RulesError, match="even_money=False"):
        Rules(decks=6, switch=True)


def test_a_switched_round_replays_exactly() -> None:
    rnd = _round("5S TH 9D TC 6S 8D 9C", "switch", "double", "stand")
    data = round_to_replay(rnd)
    assert data["rules"] == "switch" and data["decisions"] == ["switch", "double", "stand"]
    again = replay_round(data)
    assert again.log == rnd.log
    assert round_result(again) == round_result(rnd)
    assert round_result(again)["boxes"][0]["hands"][0]["switched"] is True


def test_the_fast_paths_that_play_boxes_alone_refuse_switch_by_name() -> None:
    # the gym's single and table environments play it (tests/test_gym_variants.py)
    from twentyone.counting.sim_runner import kernel_inputs
    from twentyone.gym.vector import BlackjackVectorEnv
    from twentyone.sim.textbook import textbook_6d_s17_das

    for make in (
        lambda: kernel_inputs(SWITCH, textbook_6d_s17_das(), None),  # type: ignore[arg-type]
        lambda: BlackjackVectorEnv(1, SWITCH),
    ):
        with pytest.raises(RulesError, match=r"switch=True: .* does not play this yet") as err:
            make()
        assert err.value.code == "fast-path-refuses"


def test_the_exact_analysis_prices_only_the_returns_and_says_the_simulator_plays_switch() -> None:
    from twentyone.analysis import analyze
    from twentyone.sim.encode import encode_rules

    encode_rules(SWITCH)  # the simulator plays it (tests/test_sim_switch.py)
    with pytest.raises(RulesError, match=r"switch=True: .* the simulator plays a chart") as err:
        analyze(SWITCH)  # the returns alone are priced: analysis.switch
    assert err.value.code == "analysis-refuses"


@pytest.mark.parametrize("lang", ["en", "ro", "pl", "pt", "hu", "ru"])
def test_the_rule_card_tells_switching_in_every_language(lang: str) -> None:
    from twentyone.rulecard import rule_card

    card = " ".join(rule_card(SWITCH, lang).split())
    classic = " ".join(rule_card(SWITCH.replace(switch=False, side_bets=()), lang).split())
    assert card != classic and len(card) > len(classic)
    if lang == "en":
        assert "switch the second cards of a pair's two hands" in card
        assert "a 21 made by switching is a plain 21, not a blackjack" in card
    else:
        assert "second cards" not in card and "pairs with equal bets" not in card  # translated


def test_the_terminal_asks_the_pair_to_switch_with_one_key() -> None:
    import io

    from twentyone.terminal.game import play

    out = io.StringIO()
    code = play(
        "switch",
        bankroll=10_000,
        stdin=io.StringIO("10\ny\ns\nq\n"),
        stdout=out,
        shoe=StackedShoe("AS 9H TD 7C KS 9D"),
        color=False,
        lang="en",
    )
    text = out.getvalue()
    assert code == 0
    assert "Box 2 takes the same bet: the pair's." in text  # two boxes by default
    assert "switch the second cards, to make A♠ K♠ and 9♥ 7♣?" in text
    assert "The second cards are switched." in text
    result = text.split("Result", 1)[1]
    assert "A♠ K♠" in result and "switched" in result and "win" in result


def test_the_terminal_refuses_an_odd_number_of_boxes_at_a_switch_table() -> None:
    import io

    from twentyone.terminal.game import play

    with pytest.raises(BetError, match="even number") as err:
        play("switch", boxes=3, stdin=io.StringIO(""), stdout=io.StringIO())
    assert err.value.code == "option-boxes-pairs"


def test_the_replay_table_shows_the_switch_on_both_boxes_of_the_pair() -> None:
    import io

    from rich.console import Console

    from twentyone.cli.replay_view import round_table

    out = io.StringIO()
    Console(file=out, width=140, color_system=None).print(
        round_table(_round("AS 9H TD 7C KS 6D 6C", "switch", "stand"))
    )
    rows = [line for line in out.getvalue().splitlines() if "ann" in line]
    assert "switch" in rows[0] and "switch, stand" in rows[1]
