"""The Gymnasium environment plays the engine's rounds: masks are the round's questions,
rewards are the replayed nets, seeds reproduce episodes (issue 14)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import twentyone.gym  # noqa: E402
from twentyone.engine.errors import IllegalActionError, RulesError  # noqa: E402
from twentyone.engine.replay import replay  # noqa: E402
from twentyone.engine.rulesets import PRESETS, load_rules  # noqa: E402
from twentyone.gym.core import (  # noqa: E402
    ACTIONS,
    BET,
    DECLINE,
    DOUBLE,
    HIT,
    INSURE,
    NEXT,
    STAND,
    legal_actions,
)
from twentyone.gym.env import BlackjackEnv  # noqa: E402

ENGINE_TO_ACTION = {
    "stand": STAND,
    "hit": HIT,
    "double": DOUBLE,
    "double:N": DOUBLE,
    "split": 3,
    "surrender": 4,
    "insure": INSURE,
    "insure:N": INSURE,
    "even-money": 6,
    "no-insurance": DECLINE,
    "no-even-money": DECLINE,
    "no-surrender": DECLINE,
}


def make(**kwargs: Any) -> Any:
    kwargs.setdefault("ev_loss", False)
    return gymnasium.make(twentyone.gym.ENV_ID, **kwargs)


@pytest.mark.parametrize("rules", PRESETS)
def test_check_env_passes_on_every_preset(rules: str) -> None:
    check_env(make(rules=rules).unwrapped)
    check_env(make(rules=rules, bet_levels=[1, 2, 4], observe="count").unwrapped)


def test_check_env_passes_with_composition_shoe_episodes_and_ev_loss() -> None:
    check_env(make(rules="ru-online", observe="composition", episode="shoe").unwrapped)
    check_env(make(rules="6D H17 DAS LS", boxes=2, ev_loss=True).unwrapped)


def play_random(env: Any, episodes: int, seed: int) -> int:
    """Random legal actions; every episode's rewards equal its replayed net, every mask
    equals the round's question. Returns the decisions checked."""
    rng = np.random.default_rng(seed)
    base = env.unwrapped
    checked = 0
    obs, info = env.reset(seed=seed)
    for _ in range(episodes):
        total = 0.0
        while True:
            rnd = base.round
            mask = info["action_mask"]
            if rnd is not None and rnd.question is not None:
                expected = {ENGINE_TO_ACTION[a] for a in rnd.question.actions}
                assert set(np.flatnonzero(mask)) == expected, rnd.question
                checked += 1
            a = int(rng.choice(np.flatnonzero(mask)))
            obs, reward, terminated, truncated, info = env.step(a)
            assert not truncated and env.observation_space.contains(obs)
            total += reward
            if terminated:
                break
        result = replay(info["replay"])
        assert result["net"]["agent"] == info["net"]
        assert total * base.bet == pytest.approx(info["net"], abs=1e-9)
        obs, info = env.reset()
    return checked


@pytest.mark.parametrize("rules", PRESETS)
def test_rewards_equal_replayed_nets_and_masks_equal_questions(rules: str) -> None:
    assert play_random(make(rules=rules), 600, seed=11) > 600
    assert play_random(make(rules=rules, boxes=2, bet_levels=[1, 3]), 200, seed=12) > 200


def test_seeded_resets_reproduce_episodes() -> None:
    def run(seed: int) -> list[Any]:
        env = make(rules="pt-casino", observe="composition")
        rng = np.random.default_rng(0)
        out: list[Any] = []
        obs, info = env.reset(seed=seed)
        for _ in range(40):
            a = int(rng.choice(np.flatnonzero(info["action_mask"])))
            obs, reward, terminated, _, info = env.step(a)
            out.append((a, reward, {k: np.asarray(v).tolist() for k, v in obs.items()}))
            if terminated:
                out.append(info["replay"])
                obs, info = env.reset()
        return out

    assert run(5) == run(5)
    assert run(5) != run(6)


def test_every_round_counts_even_without_a_question() -> None:
    # a round settled at the deal (blackjack paid at once, dealer blackjack after the peek)
    # is an episode of one "next" step whose reward is its net
    env = make(rules="ru-online")
    seen_next = 0
    obs, info = env.reset(seed=2)
    for _ in range(400):
        if info["action_mask"][NEXT]:
            assert info["action_mask"].sum() == 1 and obs["phase"] == 5
            _, reward, terminated, _, info = env.step(NEXT)
            assert terminated and reward == info["net"] / 100
            seen_next += 1
        else:
            while True:
                a = int(np.flatnonzero(info["action_mask"])[0])
                _, _, terminated, _, info = env.step(a)
                if terminated:
                    break
        obs, info = env.reset()
    assert seen_next > 10


def test_illegal_action_is_refused_without_change_or_raises() -> None:
    env = make(rules="ru-online")
    obs, info = env.reset(seed=4)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    before = env.unwrapped.round.decisions
    obs2, reward, terminated, truncated, info2 = env.step(illegal)
    assert info2["illegal_action"] and reward == 0.0 and not terminated and not truncated
    assert env.unwrapped.round.decisions == before
    assert all(np.array_equal(obs[k], obs2[k]) for k in obs)
    strict = make(rules="ru-online", illegal="raise")
    _, info = strict.reset(seed=4)
    with pytest.raises(IllegalActionError, match="not open"):
        strict.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))


def test_ev_loss_is_the_exact_return_given_up_on_the_real_remaining_shoe() -> None:
    from twentyone.analysis.advise import advise
    from twentyone.analysis.context import full_shoe

    rules = load_rules("ru-online")
    full = full_shoe(rules)
    env = BlackjackEnv(rules, ev_loss=True)
    rng = np.random.default_rng(3)
    _, info = env.reset(seed=9)
    checked = 0
    while checked < 30:
        rnd = env.round
        q = rnd.question if rnd is not None else None
        mask = info["action_mask"]
        a = int(rng.choice(np.flatnonzero(mask)))
        if q is not None and q.kind == "play":
            assert rnd is not None
            hand = rnd.boxes[q.box].hands[q.hand]
            # the real remaining shoe: every card dealt since the shuffle is out, except this
            # hand's, the up card and the hidden hole card (advise takes the shoe they came
            # from)
            assert env.shoe is not None
            out = list(env.shoe.dealt())
            for c in (*hand.cards, rnd.upcard, *rnd.dealer[len(rnd.dealer_visible) :]):
                out.remove(c)
            shoe = [n - sum(1 for c in out if c.value - 1 == v) for v, n in enumerate(full)]
            evs = advise(
                rules, hand.cards, rnd.upcard, shoe=shoe, split_hands=len(rnd.boxes[0].hands)
            ).returns
            name = ACTIONS[a]
            expected = (
                max(v for k, v in evs.items() if k in {ACTIONS[i] for i in legal_actions(q)})
                - evs[name]
            )
            _, _, terminated, _, info = env.step(a)
            assert info["ev_loss"] == pytest.approx(expected, abs=1e-12)
            assert info["ev_loss"] >= 0
            checked += 1
        else:
            _, _, terminated, _, info = env.step(a)
        if terminated:
            _obs, info = env.reset()


def test_ev_loss_of_insurance_counts_the_cards_seen() -> None:
    # ru-online, ace up, player T-T: 94 tens among 309 unseen cards (312 less AS, TS, TD)
    from twentyone import BoxBet, StackedShoe
    from twentyone.engine.round import Round
    from twentyone.gym.core import action_returns

    rnd = Round(load_rules("ru-online"), StackedShoe("TS AS TD 9C"), [BoxBet("agent", 100)])
    returns = action_returns(rnd, 1)
    p = 94 / 309
    assert returns == {INSURE: pytest.approx(0.5 * (3 * p - 1)), DECLINE: 0.0}


def test_bet_levels_scale_the_stake_and_render_draws_the_table() -> None:
    env = make(rules="hu-casino", bet_levels=[1, 2, 4, 8], render_mode="ansi")
    obs, info = env.reset(seed=1)
    assert obs["phase"] == 0
    assert list(np.flatnonzero(info["action_mask"])) == [BET + i for i in range(4)]
    assert "place a bet" in env.render()
    obs, _, _terminated, _, info = env.step(BET + 3)
    assert env.unwrapped.round.boxes[0].bet == 800
    assert "dealer:" in env.render()


def test_composition_counts_every_card_seen_since_the_shuffle() -> None:
    # round episodes on one cut-card shoe: the unseen cards are the shoe's rest plus an
    # unshown hole card, episode after episode
    env = make(rules="ru-online", observe="composition")
    obs, info = env.reset(seed=4)
    base = env.unwrapped
    for _ in range(300):
        rnd = base.round
        hidden = 0 if rnd is None or rnd.hole_revealed else 1
        assert obs["composition"].sum() == base.shoe.remaining + hidden
        obs, _, terminated, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        if terminated:
            obs, info = env.reset()


def test_shoe_episode_plays_rounds_until_the_cut_card() -> None:
    env = make(rules="ru-online", episode="shoe", observe="composition")
    obs, info = env.reset(seed=8)
    rounds = 0
    terminated = False
    while not terminated:
        a = int(np.flatnonzero(info["action_mask"])[0])
        obs, _, terminated, _, info = env.step(a)
        rounds += "replay" in info
        base = env.unwrapped
        if not terminated and base.round is not None:
            assert obs["composition"].sum() == base.shoe.remaining + (
                0 if base.round.hole_revealed else 1
            )
    assert env.unwrapped.shoe.cut_card_out and rounds > 20
    with pytest.raises(RulesError, match="continuous"):
        BlackjackEnv("ro-casino", episode="shoe")


def test_twentyone_replay_reproduces_every_episode(tmp_path: Any, capsys: Any) -> None:
    # a thousand random episodes as JSON lines through the command itself: each printed net
    # is the episode's rewards times the bet
    import json

    from twentyone.cli import main

    env = make(rules="ro-casino", boxes=2, bet_levels=[1, 4])
    rng = np.random.default_rng(5)
    _, info = env.reset(seed=5)
    lines: list[str] = []
    totals: list[float] = []
    while len(lines) < 1000:
        total = 0.0
        while True:
            a = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _, reward, terminated, _, info = env.step(a)
            total += reward
            if terminated:
                break
        lines.append(json.dumps(info["replay"]))
        totals.append(total)
        _, info = env.reset()
    path = tmp_path / "episodes.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["replay", str(path)]) == 0
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(out) == 1000
    for result, total in zip(out, totals, strict=True):
        assert result["net"]["agent"] == pytest.approx(total * 100, abs=1e-9)


def test_a_bet_level_above_the_table_maximum_is_refused() -> None:
    # ru-online's maximum is 5,000.00: a unit of 2,000.00 with a top level of 4 would stake
    # 8,000.00, so the environment refuses it rather than dealing a round the table refuses.
    with pytest.raises(RulesError, match="expected bets from"):
        BlackjackEnv(load_rules("ru-online"), bet=200_000, bet_levels=[1, 4])
    with pytest.raises(RulesError, match="expected bets from"):
        BlackjackEnv(load_rules("ru-online"), bet=50)  # below the minimum
    BlackjackEnv(load_rules("ru-online"), bet=100_000, bet_levels=[1, 4])  # 4,000.00: fits
