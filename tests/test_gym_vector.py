"""The vectorized environment's numba kernel agrees with the engine round by round: every
finished round is replayed in :class:`twentyone.engine.round.Round` on a stacked shoe of exactly
the cards the kernel dealt, with the same actions, and every step's mask and observation and
the round's money must be the engine's (issue 14), Spanish 21's doubles included: a double
after hits, redoubles and the rescue (issue 28)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

import twentyone.gym  # noqa: E402
from twentyone import BoxBet, StackedShoe, load_rules  # noqa: E402
from twentyone.engine.cards import Card  # noqa: E402
from twentyone.engine.errors import RulesError  # noqa: E402
from twentyone.engine.round import Round  # noqa: E402
from twentyone.engine.rules import Rules  # noqa: E402
from twentyone.engine.rulesets import PRESETS  # noqa: E402
from twentyone.gym.core import (  # noqa: E402
    BET,
    DOUBLE,
    HIT,
    NEXT,
    RESCUE,
    STAND,
    SURRENDER,
    action_mask,
    decision_for,
    observation,
    phase_of,
)
from twentyone.gym.vector import BlackjackVectorEnv  # noqa: E402
from twentyone.sim.encode import card_index  # noqa: E402

#: Spanish 21's doubles on a no-hole-card shoe: three redoubles, a rescue that waits on the
#: dealer's blackjack (examples/rules/redouble-rescue.toml)
REDOUBLE_RESCUE = str(Path(__file__).parent.parent / "examples" / "rules" / "redouble-rescue.toml")

RULES = (
    *PRESETS,
    "6D ENHC LS",
    "6D OBO ES SPL3",
    "2D HSA D10 SPL3 DAS RSA H17",
    "2D H17C3 DAS SPL3",  # the dealer hits a soft 17 only with three cards or more
    "2D H17 P22 DAS SPL3",  # a dealer's 22 pushes every hand standing
    "1D S17 SPL3 RSA LS PEN0.9 BJ6:5",
    "free-bet",  # free doubles and splits: the house's stakes
    "double-exposure",  # the dealer takes ties, a blackjack beats the dealer's
    "spanish-21",  # doubles after hits, two redoubles, the rescue; no bonus 21 on a double
    REDOUBLE_RESCUE,
)


def agree(rules_name: str | Rules, levels: list[int] | None, n: int = 16, steps: int = 300) -> Any:
    """Random legal actions on ``n`` environments; every finished round replayed in the
    engine. Returns the rounds checked, the actions taken and what Spanish 21's doubles
    reached in the engine's rounds: the most doubles on one hand (``"doubles"``), rescues
    settled at once, rescues left to the dealer's blackjack and those it took."""
    rules = load_rules(rules_name)
    envs = gymnasium.make_vec(twentyone.gym.ENV_ID, num_envs=n, rules=rules_name, bet_levels=levels)
    base = envs.unwrapped
    assert isinstance(base, BlackjackVectorEnv)
    obs, info = envs.reset(seed=7)
    rng = np.random.default_rng(7)
    hist: list[list[Any]] = [[] for _ in range(n)]
    rounds = 0
    taken: set[int] = set()
    seen = {"doubles": 0, "rescue-settled": 0, "rescue-waits": 0, "rescue-taken": 0}
    for _ in range(steps):
        mask = info["action_mask"]
        assert mask.shape == (n, base.n_actions)
        acts = np.array([rng.choice(np.flatnonzero(mask[i])) for i in range(n)])
        for i in range(n):
            o = {k: np.asarray(v[i]).tolist() for k, v in obs.items()}
            hist[i].append((int(acts[i]), mask[i].copy(), o))
        obs, reward, term, trunc, info = envs.step(acts)
        assert not trunc.any() and not info["illegal_action"].any()
        for i in np.flatnonzero(term).tolist():
            steps_i, hist[i] = hist[i], []
            level = 1
            if levels:
                level = levels[steps_i[0][0] - BET]
                steps_i = steps_i[1:]
            rnd = Round(
                rules, StackedShoe(base.last_round_cards(i)), [BoxBet("agent", 100 * level)]
            )
            for a, m, o in steps_i:
                q = rnd.question
                assert (action_mask(q, base.n_actions) == m).all(), (q, m)
                expected = observation(rnd, rules, phase_of(q), None, None)
                assert {k: np.asarray(v).tolist() for k, v in expected.items()} == o
                taken.add(a)
                if q is None:
                    assert a == NEXT
                else:
                    if a == RESCUE:  # settled at once where the dealer cannot have a blackjack
                        known = rnd.dealer_blackjack is False
                        seen["rescue-settled" if known else "rescue-waits"] += 1
                    rnd.apply(decision_for(q, a))
            for hand in rnd.boxes[0].hands:
                seen["doubles"] = max(seen["doubles"], hand.doubles)
                seen["rescue-taken"] += hand.rescued and bool(rnd.dealer_blackjack)
            assert isinstance(rnd.shoe, StackedShoe)
            assert rnd.is_over and rnd.shoe.remaining == 0
            assert rnd.net()["agent"] == pytest.approx(100 * reward[i], abs=1e-9)
            rounds += 1
    return rounds, taken, seen


@pytest.mark.parametrize("rules", RULES, ids=lambda r: Path(r).name if r.endswith(".toml") else r)
def test_vector_kernel_agrees_with_the_engine_round_by_round(rules: str) -> None:
    rounds, taken, _ = agree(rules, None)
    assert rounds > 1500
    assert {0, 1, 2, 3, NEXT} <= taken  # stand, hit, double, split and a settled deal
    rounds, _, _ = agree(rules, [1, 2, 5], steps=150)
    assert rounds > 500


#: one redouble and the rescue where a dealer blackjack takes only the original bet (OBO) and
#: surrender is early
OBO_RESCUE = load_rules("6D OBO ES SPL3").replace(
    name="obo-rescue", double_after_hit=True, redoubles=1, rescue=True
)


@pytest.mark.parametrize(
    ("rules", "most"),
    [("spanish-21", 3), (REDOUBLE_RESCUE, 4), (OBO_RESCUE, 2)],
    ids=("spanish-21", "file", "obo"),
)
def test_vector_kernel_plays_redoubles_and_the_rescue_as_the_engine(
    rules: str | Rules, most: int
) -> None:
    # the agreement above, with every Spanish 21 double reached: redoubles up to the rules'
    # last (a double and `redoubles` more), rescues; with no hole card a rescue waits on the
    # dealer's blackjack, which takes the hand as any other
    _, taken, seen = agree(rules, None, steps=600)
    assert RESCUE in taken and seen["doubles"] == most
    assert seen["rescue-settled"] > 0
    if rules == "spanish-21":  # the peek has told: every rescue is settled at once
        assert seen["rescue-waits"] == 0
    else:
        assert seen["rescue-waits"] > 0 and seen["rescue-taken"] > 0


def test_vector_kernel_answers_every_side_question() -> None:
    # insurance, even money and surrender (in play: LS; before play: ro.11) all reached
    _, ru, _ = agree("ru-online", None, steps=400)
    _, ls, _ = agree("6D LS", None, steps=400)
    _, ro, _ = agree("ro-casino", None, steps=400)
    assert {5, 7} <= ru and {4, 5, 6, 7} <= ls and {4, 7} <= ro


def test_seeded_vector_resets_reproduce_and_illegal_actions_are_refused() -> None:
    def run(seed: int) -> list[Any]:
        envs = gymnasium.make_vec(twentyone.gym.ENV_ID, num_envs=8, rules="pt-casino")
        obs, info = envs.reset(seed=seed)
        out = []
        for _ in range(50):
            acts = np.argmax(info["action_mask"], axis=1)
            obs, reward, term, _, info = envs.step(acts)
            out.append((obs["total"].tolist(), reward.tolist(), term.tolist()))
        return out

    assert run(3) == run(3) and run(3) != run(4)
    envs = gymnasium.make_vec(twentyone.gym.ENV_ID, num_envs=4, rules="ru-online")
    obs, info = envs.reset(seed=1)
    bad = np.argmin(info["action_mask"], axis=1)  # a closed action in every row
    obs2, reward, term, _, info2 = envs.step(bad)
    assert info2["illegal_action"].all() and not term.any() and not reward.any()
    assert all(np.array_equal(obs[k], obs2[k]) for k in obs)
    assert np.array_equal(info["action_mask"], info2["action_mask"])


def test_vector_env_spaces_and_what_it_does_not_play() -> None:
    envs = gymnasium.make_vec(twentyone.gym.ENV_ID, num_envs=3, rules="hu-casino")
    obs, _ = envs.reset(seed=0)
    assert envs.observation_space.contains(obs)
    assert envs.single_action_space.n == BET == 12  # docs/rl.md: actions 0-11
    with pytest.raises(RulesError, match="one box"):
        BlackjackVectorEnv(2, "ru-online", boxes=2)


def _all_twos(rules: str, levels: list[int]) -> BlackjackVectorEnv:
    """One environment of ``rules`` whose shoe holds only twos: every card dealt is a 2, in
    any order the shuffle picks."""
    env = BlackjackVectorEnv(1, rules, bet_levels=levels)
    env._shoe[:] = card_index(Card.parse("2S"))
    return env


def _play(env: BlackjackVectorEnv, actions: list[int]) -> list[tuple[list[int], float, bool]]:
    """The mask's open actions before each action, the reward and whether it ended."""
    _, info = env.reset(seed=5)
    out = []
    for a in actions:
        open_ = np.flatnonzero(info["action_mask"][0]).tolist()
        _, reward, term, _, info = env.step([a])
        assert not info["illegal_action"][0]
        out.append((open_, float(reward[0]), bool(term[0])))
    return out


def test_spanish_21_doubled_redoubled_and_rescued_loses_the_original_bet_only() -> None:
    # Spanish 21 (redoubles=2, rescue), a bet of 3 initial bets on a shoe of twos. The hand
    # 2-2 (4) against a dealer 2 doubles: 3 more on it, a 2: 6; redoubles: the whole stake
    # again, 6 more (12 on the hand), a 2: 8; rescued: the doubles' 3 + 6 come back, the
    # original 3 is lost: reward -3 (in initial bets), paid at once (no dealer blackjack
    # behind a 2). Standing instead on the 8 with 12 on it: the dealer draws 2s to 18
    # (nine cards) and wins: -12. A third double (the last: a double and two redoubles)
    # stakes 12 more, a 2: 10 on 24; rescued, again -3.
    bet, double, redouble, last = BET, DOUBLE, DOUBLE, DOUBLE
    rescue = _play(_all_twos("spanish-21", [3]), [bet, double, redouble, RESCUE])
    first = [STAND, HIT, DOUBLE, 3, SURRENDER]  # 2-2: split too, late surrender
    doubled = [STAND, DOUBLE, RESCUE]  # a doubled hand: stand, redouble, rescue
    assert [m for m, _, _ in rescue] == [[BET], first, doubled, doubled]
    assert [(r, t) for _, r, t in rescue] == [(0.0, False)] * 3 + [(-3.0, True)]
    stand = _play(_all_twos("spanish-21", [3]), [bet, double, redouble, STAND])
    assert stand[-1][1:] == (-12.0, True)
    third = _play(_all_twos("spanish-21", [3]), [bet, double, redouble, last, RESCUE])
    assert third[3][0] == doubled and third[4][0] == [STAND, RESCUE]  # no fourth double
    assert third[-1][1:] == (-3.0, True)
