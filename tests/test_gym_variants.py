"""The gym's single environment and its table play every variant preset (issue 28): a switch
pair's switch or keep, a doubled hand's rescue, through the engine's round."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

from twentyone.engine.errors import BetError, IllegalActionError  # noqa: E402
from twentyone.engine.replay import replay  # noqa: E402
from twentyone.engine.shoe import StackedShoe  # noqa: E402
from twentyone.gym import table_env  # noqa: E402
from twentyone.gym.core import (  # noqa: E402
    ACTIONS,
    DOUBLE,
    HIT,
    KEEP,
    P_PLAY,
    P_SWITCH,
    RESCUE,
    STAND,
    SWITCH,
    decision_for,
)
from twentyone.gym.env import BlackjackEnv  # noqa: E402

VARIANTS = ("free-bet", "switch", "spanish-21", "double-exposure")

#: the engine's decisions by the action that answers them (tests/test_gym.py's, and the new)
ENGINE_TO_ACTION = {
    "stand": 0,
    "hit": 1,
    "double": 2,
    "double:N": 2,
    "split": 3,
    "surrender": 4,
    "insure": 5,
    "insure:N": 5,
    "even-money": 6,
    "no-insurance": 7,
    "no-even-money": 7,
    "no-surrender": 7,
    "switch": 9,
    "keep": 10,
    "rescue": 11,
}


class EnvShoe(StackedShoe):
    """A stacked shoe the environment can deal from (it asks for the shoe's shuffles)."""

    shuffles = 0
    cut_card_out = False


def stacked_env(rules: str, cards: str, **kwargs: Any) -> BlackjackEnv:
    env = BlackjackEnv(rules, ev_loss=False, **kwargs)
    env.shoe = EnvShoe(cards)  # type: ignore[assignment]
    return env


@pytest.mark.parametrize("rules", VARIANTS)
def test_an_episode_on_each_variant_runs_to_the_end_with_only_legal_actions(rules: str) -> None:
    env = BlackjackEnv(rules, ev_loss=True)
    check_env(env)
    rng = np.random.default_rng(28)
    taken: set[str] = set()
    for episode in range(300):
        obs, info = env.reset(seed=episode)
        total, terminated = 0.0, False
        while not terminated:
            assert env.observation_space.contains(obs)
            rnd = env.round
            mask = info["action_mask"]
            if rnd is not None and rnd.question is not None:  # the mask is the question
                assert set(np.flatnonzero(mask)) == {
                    ENGINE_TO_ACTION[a] for a in rnd.question.actions
                }
            a = int(rng.choice(np.flatnonzero(mask)))
            taken.add(ACTIONS[a])
            obs, reward, terminated, truncated, info = env.step(a)
            assert not truncated and "illegal_action" not in info
            total += reward
        assert replay(info["replay"])["net"]["agent"] == info["net"]
        assert total * env.bet == pytest.approx(info["net"], abs=1e-9)
    if rules == "switch":  # the pair's decision came up and both answers were played
        assert {"switch", "keep"} <= taken
    if rules == "spanish-21":
        assert "rescue" in taken
    if rules not in ("switch",):
        assert not {"switch", "keep"} & taken
    if rules != "spanish-21":
        assert "rescue" not in taken


@pytest.mark.parametrize("rules", VARIANTS)
def test_the_table_plays_each_variant(rules: str) -> None:
    api_test(table_env(rules, players=2), num_cycles=200)


def test_a_switch_table_plays_boxes_in_pairs() -> None:
    env = BlackjackEnv("switch", ev_loss=False)
    assert env.boxes == 2  # one pair by default
    assert BlackjackEnv("switch", boxes=4, ev_loss=False).boxes == 4
    with pytest.raises(BetError, match="bets 3 boxes: a switch table plays") as err:
        BlackjackEnv("switch", boxes=3, ev_loss=False)
    assert err.value.code == "switch-odd-boxes"


# switch.toml: round-robin deal (box 1, box 2, the up card, box 1, box 2, the hole card), a
# dealer peek under a ten, H17, a dealer 22 pushes, even money for every win. Box 1 T-6, box
# 2 5-T, the dealer T-7 (17, no blackjack).
SWITCH_DEAL = "TS 5H TD 6C TC 7D"


def test_switching_10_6_and_5_10_against_a_10_gives_the_hand_computed_reward() -> None:
    # switched: box 1 T-T (20) stands, box 2 5-6 (11) hits a 9 (20); the dealer stands on
    # hard 17: both boxes win one bet each, +2
    env = stacked_env("switch", SWITCH_DEAL + " 9S")
    obs, info = env.reset()
    assert obs["phase"] == P_SWITCH and obs["box"] == 0
    assert list(np.flatnonzero(info["action_mask"])) == [SWITCH, KEEP]
    assert obs["cards"][9] == 1 and obs["cards"][5] == 1  # T-6
    assert obs["partner"][9] == 1 and obs["partner"][4] == 1  # the pair's other box: 5-T
    obs, reward, terminated, _, info = env.step(SWITCH)
    assert not terminated and reward == 0.0
    assert obs["phase"] == P_PLAY and obs["total"] == 20
    obs, _, terminated, _, _ = env.step(STAND)
    assert obs["box"] == 1 and obs["total"] == 11 and not terminated
    obs, _, terminated, _, _ = env.step(HIT)
    assert obs["total"] == 20
    _, reward, terminated, _, info = env.step(STAND)
    assert terminated and reward == 2.0 and info["net"] == 2 * env.bet
    assert info["replay"]["decisions"] == ["switch", "stand", "hit", "stand"]


def test_keeping_10_6_and_5_10_against_a_10_loses_both() -> None:
    # kept: 16 and 15 stand against the dealer's 17: both lose, -2
    env = stacked_env("switch", SWITCH_DEAL)
    env.reset()
    env.step(KEEP)
    env.step(STAND)
    _, reward, terminated, _, info = env.step(STAND)
    assert terminated and reward == -2.0
    assert info["replay"]["decisions"] == ["keep", "stand", "stand"]


def test_rescue_of_a_two_unit_doubled_hand_loses_one_unit() -> None:
    # spanish-21.toml: rescue = "surrender a doubled hand, losing the original bet, the doubles
    # given back". Player 6-5 against a 9 (no peek), doubles for one more bet and draws a 2
    # (13): the rescue loses the original bet alone, -1 of the 2 units staked
    env = stacked_env("spanish-21", "6S 9H 5D 8C 2S")
    obs, info = env.reset()
    assert obs["doubles"] == 0 and not info["action_mask"][RESCUE]  # not doubled yet
    obs, _, _, _, info = env.step(DOUBLE)
    assert obs["total"] == 13 and obs["doubles"] == 1
    assert set(np.flatnonzero(info["action_mask"])) == {STAND, DOUBLE, RESCUE}
    assert env.round is not None and env.round.boxes[0].hands[0].bet == 2 * env.bet
    _, reward, terminated, _, info = env.step(RESCUE)
    assert terminated and reward == -1.0 and info["net"] == -env.bet
    assert info["replay"]["decisions"] == ["double", "rescue"]
    assert replay(info["replay"])["net"]["agent"] == -env.bet


def test_switch_and_rescue_are_refused_where_not_open() -> None:
    env = stacked_env("spanish-21", "6S 9H 5D 8C 2S")
    _, info = env.reset()
    assert env.round is not None
    logged = len(env.round.log)
    for action in (RESCUE, SWITCH, KEEP):  # an undoubled hand; no pair at this table
        _, reward, terminated, _, info = env.step(action)
        assert info["illegal_action"] and reward == 0.0 and not terminated
        assert len(env.round.log) == logged  # nothing acted
    strict = stacked_env("switch", SWITCH_DEAL, illegal="raise")
    strict.reset()
    with pytest.raises(IllegalActionError, match="not open in phase 'switch'"):
        strict.step(HIT)  # the pair's question takes only switch or keep
    with pytest.raises(IllegalActionError, match="action 11: not open in phase 'switch'"):
        strict.step(RESCUE)
    strict.step(SWITCH)
    with pytest.raises(IllegalActionError, match="action 9: not open in phase 'play'"):
        strict.step(SWITCH)  # asked once a pair
    assert strict.round is not None and strict.round.question is not None
    with pytest.raises(IllegalActionError, match=r"action 11 \(rescue\) is not open"):
        decision_for(strict.round.question, RESCUE)


def test_each_player_at_a_switch_table_answers_its_own_pair() -> None:
    env = table_env("switch", players=2)
    env.reset(seed=1)  # the dealer 8-K: both pairs are asked
    assert env.round is not None and [b.player for b in env.round.boxes] == [
        "player_0",
        "player_0",
        "player_1",
        "player_1",
    ]
    asked: list[tuple[str, int]] = []
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        q = env.round.question
        if q is not None and q.kind == "switch":
            asked.append((agent, q.box))
            assert list(np.flatnonzero(obs["action_mask"])) == [SWITCH, KEEP]
            assert len(obs["observation"]) == 18 + 10  # the partner's cards
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert asked == [("player_0", 0), ("player_1", 2)]


class DealtShoe(EnvShoe):
    """A stacked shoe that tells the cards dealt since the shuffle (none: a switch's returns
    are over the full shoe)."""

    def dealt(self) -> list[Any]:
        return []


def test_ev_loss_of_a_switch_question_is_the_pairs_return_given_up() -> None:
    """T-6 and 5-T against a ten: a switch makes T-T and 5-6. The loss is the better answer's
    return less the chosen one's, each the sum of the pair's two hands' returns
    (analysis.switch.hand_returns, the optimum, given no dealer blackjack): 0 for the switch,
    keep's shortfall for keep."""
    from twentyone.analysis.switch import hand_returns, switch_context
    from twentyone.engine.rulesets import load_rules

    rules = load_rules("switch")
    r = hand_returns(switch_context(rules, 2), 9, True)  # value index 9: a ten up
    ten, five, six = 9, 4, 5
    keep = r.dealt[(six, ten)] + r.dealt[(five, ten)]  # 16 and 15
    switch = r.switched[(ten, ten)] + r.switched[(five, six)]  # 20 and 11
    assert switch > 0 > keep  # clearly right to switch
    losses = {}
    for action in (SWITCH, KEEP):
        env = stacked_env("switch", SWITCH_DEAL + " 9S")
        env.shoe = DealtShoe(SWITCH_DEAL + " 9S")  # type: ignore[assignment]
        env.with_ev_loss = True
        env.reset()
        _, _, _, _, info = env.step(action)
        losses[action] = info["ev_loss"]
    assert losses[SWITCH] == 0.0
    assert losses[KEEP] == pytest.approx(switch - keep, abs=1e-12)
    assert losses[KEEP] > 1.0  # two stiffs against a twenty and an eleven: more than a bet
