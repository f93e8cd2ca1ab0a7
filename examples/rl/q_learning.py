"""Tabular Q-learning on ru-online with the vectorized environment (no GPU, no torch).

The agent sees ``(phase, total, soft, pair, up, insured, split)`` and learns one value per
state and action with one-step double Q-learning (the max over the *open* actions of the next
state, from ``infos["action_mask"]``); rewards come once a round, in initial bets. At ten
checkpoints (1 M to 400 M steps) its greedy policy plays 1 M rounds and is scored on 1,000
rounds by ``info["ev_loss"]`` (the exact return each decision gave up) for the learning curve;
at the end the greedy policy and the rules' basic strategy (the exact analysis's chart, played
through the same environment) each play 4 M rounds and are scored on the same 5,000 rounds.

Run from the repository root (about ten minutes on one idle core)::

    python examples/rl/q_learning.py --out docs/rl-learning-curve.png

It prints a JSON summary (``--json FILE`` writes it to a file too).
``benchmarks/rl_docs.py --run`` runs it, keeps the summary in ``benchmarks/results/`` and
writes docs/rl.md's tables and the learning curve from it.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import gymnasium
import numpy as np
from numba import njit

import twentyone.gym
from twentyone.analysis import basic_strategy
from twentyone.gym.core import BET, DECLINE, DOUBLE, HIT, SPLIT, STAND, SURRENDER
from twentyone.sim.encode import encode_strategy

RULES = "ru-online"
N_ACTIONS = BET  # every action but a bet level (the run has none)
# state: phase (6) x total (32) x soft (2) x pair (11) x up (11) x insured (2) x split (2)
N_STATES = 6 * 32 * 2 * 11 * 11 * 2 * 2


def state_index(obs: dict[str, Any]) -> Any:
    """One integer per environment for ``(phase, total, soft, pair, up, insured, split)``.

    ``split`` matters: the reward is the round's net, so the value of a split hand's state is
    both hands' money; shared with a lone hand's state, a split would be valued as one hand
    and look better than it is."""
    s = ((obs["phase"] * 32 + obs["total"]) * 2 + obs["soft"]) * 11 + obs["pair"]
    return ((s * 11 + obs["up"]) * 2 + obs["insured"]) * 2 + obs["split"]


def greedy(q: Any, s: Any, mask: Any) -> Any:
    """The best open action of each row."""
    values = np.where(mask.astype(bool), q[s], -np.inf)
    return np.argmax(values, axis=1)


def random_open(rng: np.random.Generator, mask: Any) -> Any:
    return np.argmax(rng.random(mask.shape) * mask, axis=1)


@njit(cache=True)
def _act2(qa: Any, qb: Any, s: Any, mask: Any, epsilon: float, u: Any, out: Any) -> None:
    """Epsilon-greedy on the two tables' sum among the open actions (``u``: two uniform
    numbers a row)."""
    for i in range(s.shape[0]):
        n_open = 0
        best, best_v = -1, -np.inf
        for a in range(mask.shape[1]):
            if mask[i, a]:
                n_open += 1
                v = qa[s[i], a] + qb[s[i], a]
                if v > best_v:
                    best, best_v = a, v
        if u[i, 0] < epsilon:
            k = int(u[i, 1] * n_open)
            for a in range(mask.shape[1]):
                if mask[i, a]:
                    if k == 0:
                        best = a
                        break
                    k -= 1
        out[i] = best


@njit(cache=True)
def _learn(
    qa: Any,
    qb: Any,
    visits: Any,
    s: Any,
    a: Any,
    r: Any,
    term: Any,
    s2: Any,
    mask2: Any,
    coin: Any,
    power: float,
) -> None:
    """Double Q-learning (van Hasselt, 2010), one transition at a time: a coin picks the
    table to update; its best open action in the next state is valued by the other table
    (which takes the max's upward bias out of the target); nothing after a round's end. Step
    size visits^-power per state and action."""
    for i in range(s.shape[0]):
        one, other = (qa, qb) if coin[i] < 0.5 else (qb, qa)
        target = r[i]
        if not term[i]:
            best, best_v = -1, -np.inf
            for b in range(mask2.shape[1]):
                if mask2[i, b] and one[s2[i], b] > best_v:
                    best, best_v = b, one[s2[i], b]
            target += other[s2[i], best]
        visits[s[i], a[i]] += 1.0
        alpha = min(1.0, 2.0 * visits[s[i], a[i]] ** -power)
        one[s[i], a[i]] += alpha * (target - one[s[i], a[i]])


CHECKPOINTS = (1e6, 2e6, 5e6, 10e6, 20e6, 50e6, 100e6, 200e6, 300e6, 400e6)


def train(
    steps: int, envs_n: int, seed: int, eval_rounds: int, ev_rounds: int, power: float = 0.7
) -> tuple[Any, list[dict[str, float]]]:
    """Train for ``steps`` environment steps; returns the value table (the two tables'
    mean) and the learning curve: at each checkpoint the greedy policy's return over
    ``eval_rounds`` rounds and its ``ev_loss`` per round over ``ev_rounds`` rounds."""
    envs = gymnasium.make_vec(twentyone.gym.ENV_ID, num_envs=envs_n, rules=RULES)
    rng = np.random.default_rng(seed)
    qa = np.zeros((N_STATES, N_ACTIONS))
    qb = np.zeros((N_STATES, N_ACTIONS))
    visits = np.zeros((N_STATES, N_ACTIONS))
    obs, info = envs.reset(seed=seed)
    s = state_index(obs)
    a = np.zeros(envs_n, dtype=np.int64)
    done = 0
    curve: list[dict[str, float]] = []
    checkpoints = [c for c in CHECKPOINTS if c < steps] + [steps]
    t0 = time.perf_counter()
    while done < steps:
        epsilon = max(0.05, 1.0 - done / (0.3 * steps))  # explore widely first
        _act2(qa, qb, s, info["action_mask"], epsilon, rng.random((envs_n, 2)), a)
        obs, reward, term, _, info = envs.step(a)
        s2 = state_index(obs)
        coin = rng.random(envs_n)
        _learn(qa, qb, visits, s, a, reward, term, s2, info["action_mask"], coin, power)
        s = s2
        done += envs_n
        if checkpoints and done >= checkpoints[0]:
            checkpoints.pop(0)
            q = (qa + qb) / 2

            def policy(o: Any, m: Any, q: Any = q) -> Any:
                return greedy(q, state_index(o), m)

            ret, se = evaluate(policy, eval_rounds, seed + done)
            loss = ev_loss_per_decision(policy, ev_rounds, seed + done)
            point = {
                "steps": done,
                "return": ret,
                "se": se,
                "ev_loss_per_round": loss["mean_ev_loss_per_round"],
                "ev_loss_se": loss["se_ev_loss_per_round"],
                "seconds": time.perf_counter() - t0,
            }
            curve.append(point)
            print(
                f"{done:>12,} steps  greedy return {ret:+.4f} (se {se:.4f})  ev_loss/round "
                f"{point['ev_loss_per_round']:.4f}",
                flush=True,
            )
    return (qa + qb) / 2, curve


def evaluate(policy: Any, rounds: int, seed: int, envs_n: int = 4096) -> tuple[float, float]:
    """Mean and standard error of the round's net in initial bets over ``rounds`` rounds."""
    envs = gymnasium.make_vec(twentyone.gym.ENV_ID, num_envs=envs_n, rules=RULES)
    obs, info = envs.reset(seed=seed)
    total = squares = 0.0
    count = 0
    while count < rounds:
        obs, reward, term, _, info = envs.step(policy(obs, info["action_mask"]))
        r = reward[term]
        total += float(r.sum())
        squares += float((r * r).sum())
        count += int(term.sum())
    mean = total / count
    return mean, float(np.sqrt((squares / count - mean * mean) / count))


def chart_policy() -> Any:
    """The rules' basic strategy as a policy on observations (insurance declined)."""
    hard, soft, pairs = encode_strategy(basic_strategy(RULES))
    # chart codes H S Dh Ds P Rh Rs Rp -> preferred actions, in order
    prefs = {
        0: (HIT,),
        1: (STAND,),
        2: (DOUBLE, HIT),
        3: (DOUBLE, STAND),
        4: (SPLIT,),
        5: (SURRENDER, HIT),
        6: (SURRENDER, STAND),
        7: (SURRENDER, SPLIT),
    }

    def policy(obs: dict[str, Any], mask: Any) -> Any:
        up = obs["up"]
        col = np.where(up == 1, 9, up - 2)
        total = obs["total"]
        code = np.where(
            obs["soft"] == 1, soft[np.minimum(total, 21), col], hard[total.clip(0, 21), col]
        )
        pair = obs["pair"]
        pcode = pairs[pair, col]
        split_ok = (pair > 0) & mask[:, SPLIT].astype(bool) & np.isin(pcode, (4, 7))
        code = np.where(split_ok, pcode, code)
        out = np.full(len(total), -1)
        for c, order in prefs.items():
            rows = code == c
            for a in reversed(order):  # the first open preference wins
                out = np.where(rows & mask[:, a].astype(bool), a, out)
            hit_or_stand = rows & (out == -1)
            out = np.where(hit_or_stand & mask[:, HIT].astype(bool), HIT, out)
            out = np.where(hit_or_stand & mask[:, STAND].astype(bool), STAND, out)
        # side questions: decline; a settled deal: next; anything else: the first open action
        out = np.where(mask[:, DECLINE].astype(bool), DECLINE, out)
        first = np.argmax(mask, axis=1)
        return np.where(
            (out < 0) | (mask[np.arange(len(out)), np.maximum(out, 0)] == 0), first, out
        )

    return policy


def describe(obs: dict[str, Any]) -> str:
    """``'hard 16 v T'``, ``'pair 8s v A'``, ``'insurance v A'`` for an observation."""
    up = {1: "A", 10: "T"}.get(int(obs["up"]), str(int(obs["up"])))
    phase = int(obs["phase"])
    if phase in (1, 2, 3):
        return f"{('insurance', 'even money', 'surrender')[phase - 1]} v {up}"
    if int(obs["pair"]):
        return f"pair {int(obs['pair'])}s v {up}"
    return f"{'soft' if int(obs['soft']) else 'hard'} {int(obs['total'])} v {up}"


def ev_loss_per_decision(policy: Any, rounds: int, seed: int) -> dict[str, Any]:
    """A policy in the single environment, scored by ``info["ev_loss"]``: the mean per
    decision and per round, and the decisions that gave up the most in all."""
    from twentyone.gym.core import ACTIONS

    env = gymnasium.make(twentyone.gym.ENV_ID, rules=RULES, ev_loss=True)
    obs, info = env.reset(seed=seed)
    losses: list[float] = []
    per_round = 0.0
    round_losses: list[float] = []
    worst: dict[str, float] = {}
    for _ in range(rounds):
        while True:
            o = {k: np.asarray(v)[None] for k, v in obs.items()}
            a = int(policy(o, info["action_mask"][None])[0])
            where = describe(obs)
            obs, _, terminated, _, info = env.step(a)
            if "ev_loss" in info:
                losses.append(info["ev_loss"])
                per_round += info["ev_loss"]
                if info["ev_loss"] > 1e-12:
                    key = f"{ACTIONS[a]} on {where}"
                    worst[key] = worst.get(key, 0.0) + info["ev_loss"] / rounds
            if terminated:
                round_losses.append(per_round)
                per_round = 0.0
                obs, info = env.reset()
                break
    arr = np.array(losses)
    top = sorted(worst.items(), key=lambda kv: -kv[1])[:8]
    return {
        "rounds": rounds,
        "decisions": len(arr),
        "mean_ev_loss_per_decision": float(arr.mean()),
        "share_of_decisions_with_loss": float((arr > 1e-12).mean()),
        "mean_ev_loss_per_round": float(np.mean(round_losses)),
        "se_ev_loss_per_round": float(np.std(round_losses) / np.sqrt(len(round_losses))),
        "largest_losses_per_round": {k: round(v, 6) for k, v in top},
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=float, default=400e6)
    ap.add_argument("--envs", type=int, default=4096)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--eval-rounds", type=float, default=4e6)
    ap.add_argument("--curve-rounds", type=float, default=1e6)
    ap.add_argument("--power", type=float, default=0.7, help="step size visits^-power")
    ap.add_argument("--ev-loss-rounds", type=int, default=5000)
    ap.add_argument("--curve-ev-rounds", type=int, default=1000)
    ap.add_argument("--save", default=None, help="save the value table (.npy)")
    ap.add_argument("--out", default=None, help="the learning curve as a PNG")
    ap.add_argument("--json", default=None, help="also write the summary to this file")
    args = ap.parse_args()
    steps = int(args.steps)
    q, curve = train(
        steps, args.envs, args.seed, int(args.curve_rounds), args.curve_ev_rounds, args.power
    )
    if args.save:
        np.save(args.save, q)
    agent, agent_se = evaluate(
        lambda o, m: greedy(q, state_index(o), m), int(args.eval_rounds), 10_000
    )
    basic, basic_se = evaluate(chart_policy(), int(args.eval_rounds), 20_000)
    summary = {
        "rules": RULES,
        "training_steps": steps,
        "seed": args.seed,
        "envs": args.envs,
        "eval_rounds": int(args.eval_rounds),
        "curve_rounds": int(args.curve_rounds),
        "curve_ev_rounds": args.curve_ev_rounds,
        "agent_return": agent,
        "agent_se": agent_se,
        "basic_strategy_return": basic,
        "basic_strategy_se": basic_se,
        "gap": basic - agent,
        "ev_loss": ev_loss_per_decision(
            lambda o, m: greedy(q, state_index(o), m), args.ev_loss_rounds, 30_000
        ),
        "basic_strategy_ev_loss": ev_loss_per_decision(chart_policy(), args.ev_loss_rounds, 30_000),
        "curve": curve,
    }
    print(json.dumps(summary, indent=1))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(summary, f, indent=1)
    if args.out:
        plot(curve, basic, basic_se, summary, args.out)


def plot(
    curve: list[dict[str, float]], basic: float, basic_se: float, summary: Any, out: str
) -> None:
    """Two panels: the greedy policy's return (with two standard errors) against basic
    strategy and the 0.3% band; and its exact regret, ``ev_loss`` per round."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    xs = [c["steps"] / 1e6 for c in curve]
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4))
    left.errorbar(
        xs,
        [100 * c["return"] for c in curve],
        yerr=[200 * c["se"] for c in curve],
        marker="o",
        capsize=3,
        label="Q-learning, greedy policy (1 M rounds, 2 se)",
    )
    left.axhline(100 * basic, color="black", linestyle="--", label="basic strategy (4 M rounds)")
    left.axhspan(100 * (basic - 0.003), 100 * basic, color="grey", alpha=0.2, label="within 0.3%")
    left.set_xscale("log")
    left.set_xlabel("training steps (millions)")
    left.set_ylabel("return (% of the initial bet)")
    left.legend(loc="lower right", fontsize=8)
    right.errorbar(
        xs,
        [100 * c["ev_loss_per_round"] for c in curve],
        yerr=[200 * c["ev_loss_se"] for c in curve],
        marker="o",
        capsize=3,
        label="Q-learning, greedy policy (1,000 rounds)",
    )
    bl = 100 * summary["basic_strategy_ev_loss"]["mean_ev_loss_per_round"]
    right.axhline(bl, color="black", linestyle="--", label="basic strategy")
    right.axhline(bl + 0.3, color="grey", linestyle=":", label="basic strategy + 0.3%")
    right.set_xscale("log")
    right.set_yscale("log")
    right.set_xlabel("training steps (millions)")
    right.set_ylabel("ev_loss per round (% of the initial bet)")
    right.legend(loc="upper right", fontsize=8)
    fig.suptitle(f"tabular double Q-learning on {RULES}")
    fig.tight_layout()
    fig.savefig(out, dpi=110)


if __name__ == "__main__":
    main()
