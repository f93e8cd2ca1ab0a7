"""Tabular Q-learning on ru-online with the vectorized environment (no GPU, no torch).

The agent sees ``(phase, total, soft, pair, up, insured)`` and learns one value per state and action
with one-step Q-learning (the max over the *open* actions of the next state, from
``infos["action_mask"]``); rewards come once a round, in initial bets. Every few million
steps its greedy policy is played for a while to draw the learning curve; at the end the
greedy policy and the rules' basic strategy (the exact analysis's chart, played through the
same environment) each play millions of rounds, and the single environment scores the
agent's decisions with ``info["ev_loss"]`` (the exact return each decision gave up).

Run from the repository root (about ten minutes on one core)::

    python examples/rl/q_learning.py --steps 300_000_000 --out docs/rl-learning-curve.png

It prints a JSON summary (the numbers docs/rl.md quotes).
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import gymnasium
import numpy as np

import twentyone.gym
from twentyone.analysis import basic_strategy
from twentyone.gym.core import DECLINE, DOUBLE, HIT, SPLIT, STAND, SURRENDER
from twentyone.sim.encode import encode_strategy

RULES = "ru-online"
N_ACTIONS = 9
# state: phase (6) x total (32) x soft (2) x pair (11) x up (11) x insured (2)
N_STATES = 6 * 32 * 2 * 11 * 11 * 2


def state_index(obs: dict[str, Any]) -> Any:
    """One integer per environment for ``(phase, total, soft, pair, up, insured)``."""
    s = ((obs["phase"] * 32 + obs["total"]) * 2 + obs["soft"]) * 11 + obs["pair"]
    return (s * 11 + obs["up"]) * 2 + obs["insured"]


def greedy(q: Any, s: Any, mask: Any) -> Any:
    """The best open action of each row."""
    values = np.where(mask.astype(bool), q[s], -np.inf)
    return np.argmax(values, axis=1)


def random_open(rng: np.random.Generator, mask: Any) -> Any:
    return np.argmax(rng.random(mask.shape) * mask, axis=1)


def train(steps: int, envs_n: int, seed: int, every: int, eval_rounds: int) -> tuple[Any, list]:
    envs = gymnasium.make_vec(twentyone.gym.ENV_ID, num_envs=envs_n, rules=RULES)
    rng = np.random.default_rng(seed)
    q = np.zeros((N_STATES, N_ACTIONS))
    visits = np.zeros((N_STATES, N_ACTIONS))
    obs, info = envs.reset(seed=seed)
    s = state_index(obs)
    done = 0
    curve = []
    next_eval = every
    t0 = time.perf_counter()
    while done < steps:
        mask = info["action_mask"]
        frac = done / steps
        epsilon = max(0.05, 1.0 - frac / 0.3)  # explore widely first, then mostly greedy
        explore = rng.random(envs_n) < epsilon
        a = np.where(explore, random_open(rng, mask), greedy(q, s, mask))
        obs, reward, term, _, info = envs.step(a)
        s2 = state_index(obs)
        # the next state's best open value (nothing after a round's end)
        best_next = np.where(info["action_mask"].astype(bool), q[s2], -np.inf).max(axis=1)
        target = reward + np.where(term, 0.0, best_next)
        flat = s * N_ACTIONS + a
        n = np.bincount(flat, minlength=N_STATES * N_ACTIONS).reshape(q.shape)
        total = np.bincount(flat, weights=target, minlength=N_STATES * N_ACTIONS).reshape(q.shape)
        seen = n > 0
        visits[seen] += n[seen]
        # step size 1 / visits^0.6 per state and action (batch mean of this step's targets)
        alpha = np.minimum(1.0, n[seen] / visits[seen] ** 0.6)
        q[seen] += alpha * (total[seen] / n[seen] - q[seen])
        s = s2
        done += envs_n
        if done >= next_eval:
            ret, _ = evaluate(lambda o, m: greedy(q, state_index(o), m), eval_rounds, seed + done)
            curve.append((done, ret, time.perf_counter() - t0))
            print(f"{done:>12,} steps  greedy return {ret:+.4f}", flush=True)
            next_eval += every
    return q, curve


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


def ev_loss_per_decision(q: Any, rounds: int, seed: int) -> dict[str, float]:
    """The greedy agent in the single environment, scored by ``info["ev_loss"]``."""
    env = gymnasium.make(twentyone.gym.ENV_ID, rules=RULES, ev_loss=True)
    obs, info = env.reset(seed=seed)
    losses: list[float] = []
    per_round = 0.0
    round_losses: list[float] = []
    for _ in range(rounds):
        while True:
            o = {k: np.asarray(v)[None] for k, v in obs.items()}
            a = int(greedy(q, state_index(o), info["action_mask"][None])[0])
            obs, _, terminated, _, info = env.step(a)
            if "ev_loss" in info:
                losses.append(info["ev_loss"])
                per_round += info["ev_loss"]
            if terminated:
                round_losses.append(per_round)
                per_round = 0.0
                obs, info = env.reset()
                break
    arr = np.array(losses)
    return {
        "decisions": len(arr),
        "mean_ev_loss_per_decision": float(arr.mean()),
        "share_of_decisions_with_loss": float((arr > 1e-12).mean()),
        "mean_ev_loss_per_round": float(np.mean(round_losses)),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=float, default=300e6)
    ap.add_argument("--envs", type=int, default=4096)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--eval-rounds", type=float, default=4e6)
    ap.add_argument("--curve-rounds", type=float, default=400e3)
    ap.add_argument("--out", default=None, help="the learning curve as a PNG")
    args = ap.parse_args()
    steps = int(args.steps)
    q, curve = train(steps, args.envs, args.seed, max(steps // 20, 1), int(args.curve_rounds))
    agent, agent_se = evaluate(
        lambda o, m: greedy(q, state_index(o), m), int(args.eval_rounds), 10_000
    )
    basic, basic_se = evaluate(chart_policy(), int(args.eval_rounds), 20_000)
    summary = {
        "rules": RULES,
        "training_steps": steps,
        "agent_return": agent,
        "agent_se": agent_se,
        "basic_strategy_return": basic,
        "basic_strategy_se": basic_se,
        "gap": basic - agent,
        "ev_loss": ev_loss_per_decision(q, 2000, 30_000),
        "curve": curve,
    }
    print(json.dumps(summary, indent=1))
    if args.out:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        xs = [c[0] / 1e6 for c in curve]
        ys = [100 * c[1] for c in curve]
        fig, ax = plt.subplots(figsize=(7, 4))
        ax.plot(xs, ys, marker="o", label="Q-learning, greedy policy")
        ax.axhline(100 * basic, color="black", linestyle="--", label="basic strategy")
        ax.axhspan(100 * (basic - 0.003), 100 * basic, color="grey", alpha=0.2, label="within 0.3%")
        ax.set_xlabel("training steps (millions)")
        ax.set_ylabel("return (% of the initial bet)")
        ax.set_title(f"tabular Q-learning on {RULES}")
        ax.legend(loc="lower right")
        fig.tight_layout()
        fig.savefig(args.out, dpi=110)


if __name__ == "__main__":
    main()
