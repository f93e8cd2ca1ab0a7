"""The PettingZoo table: players act in table order on the engine's questions, rewards are
the replayed nets (issue 14)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test

from twentyone.engine.errors import IllegalActionError, RulesError
from twentyone.engine.replay import replay
from twentyone.engine.rulesets import PRESETS, load_rules
from twentyone.gym import table_env


@pytest.mark.parametrize("rules", PRESETS)
def test_api_test_passes_on_every_preset(rules: str) -> None:
    players = min(3, load_rules(rules).table_boxes)
    api_test(table_env(rules, players=players), num_cycles=200)


@pytest.mark.parametrize("rules", ["pt-casino", "ro-casino", "hu-casino"])
def test_players_act_in_table_order_and_rewards_are_replayed_nets(rules: str) -> None:
    env = table_env(rules, players=3)
    rng = np.random.default_rng(1)
    for episode in range(300):
        env.reset(seed=episode if episode % 50 == 0 else None)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        while env.agents:
            agent = env.agent_selection
            obs, _, terminated, truncated, _ = env.last()
            for a in env.agents:
                totals[a] += env.rewards[a]
            if terminated or truncated:
                env.step(None)
                continue
            q = env.round.question
            if q is not None:
                assert agent == f"player_{q.box}"  # the owner of the box asked about
            a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            env.step(a)
        result = replay(env.round_replay)
        for i, name in enumerate(env.possible_agents):
            assert result["net"][name] == env.round.net()[name]
            assert totals[name] * env.bet == pytest.approx(env.round.net()[name])
            assert result["boxes"][i]["player"] == name


def test_illegal_action_raises_and_too_many_players_is_an_error() -> None:
    env = table_env("pt-casino", players=2)
    env.reset(seed=3)
    obs = env.observe(env.agent_selection)
    with pytest.raises(IllegalActionError):
        env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    with pytest.raises(RulesError, match="players=8"):
        table_env("pt-casino", players=8)
