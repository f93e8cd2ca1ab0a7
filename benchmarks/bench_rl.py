"""Time the vectorized RL environment: steps per second on one core with random legal actions.

Run: ``.venv/bin/python benchmarks/bench_rl.py [--seconds 5] [--repeat 5] [--envs 1024 4096]``

``gymnasium.make_vec("twentyone/Blackjack-v0", num_envs=N, rules=R)`` is stepped with a random
open action per environment (drawn from ``infos["action_mask"]`` by numpy, in the same
process: the time counted includes choosing the actions and Gymnasium's step call, not just
the kernel). The kernel is compiled or loaded from numba's cache first (excluded). Every
environment step is one agent decision (or one ``next`` on a round settled at the deal);
rounds are counted from ``terminations``. One process, one thread: the kernel is serial.
Prints a Markdown table for docs/benchmarks.md, with the machine and the load average.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import time
from datetime import UTC, datetime

import gymnasium
import numba
import numpy as np

import twentyone.gym
from twentyone.engine.rulesets import PRESETS


def _cpu() -> str:
    """The CPU model as lscpu names it (with the hypervisor), else Python's guess."""
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return platform.processor() or platform.machine()
    fields = dict(line.split(":", 1) for line in out.splitlines() if ":" in line)
    model = fields.get("Model name", platform.machine()).strip()
    hv = fields.get("Hypervisor vendor", "").strip()
    return f"{model}{f' ({hv})' if hv else ''}"


def run(rules: str, n: int, seconds: float, seed: int) -> tuple[float, float]:
    """Steps and rounds per second of ``n`` environments over about ``seconds``."""
    envs = gymnasium.make_vec(twentyone.gym.ENV_ID, num_envs=n, rules=rules)
    _, info = envs.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = rounds = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        mask = info["action_mask"]
        actions = np.argmax(rng.random(mask.shape) * mask, axis=1)
        _, _, term, _, info = envs.step(actions)
        steps += n
        rounds += int(term.sum())
    dt = time.perf_counter() - start
    return steps / dt, rounds / dt


def main() -> None:
    ap = argparse.ArgumentParser(description="steps per second of the vectorized RL env")
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--envs", type=int, nargs="+", default=[1024, 4096])
    ap.add_argument("--rules", nargs="+", default=list(PRESETS))
    args = ap.parse_args()
    t = time.perf_counter()
    run("ru-online", 8, 0.01, 0)
    warm = time.perf_counter() - t
    print(
        f"Machine: {_cpu()}, {os.cpu_count()} CPUs, "
        f"Python {platform.python_version()}, numba {numba.__version__}, "
        f"gymnasium {gymnasium.__version__}."
    )
    print(
        f"Date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC; load average "
        f"{os.getloadavg()[0]:.1f}; warm-up {warm:.2f} s excluded.\n"
    )
    print("| rules | envs | best / median steps/s | median rounds/s |")
    print("|---|---|---|---|")
    for rules in args.rules:
        for n in args.envs:
            runs = [run(rules, n, args.seconds, seed) for seed in range(args.repeat)]
            steps = [s for s, _ in runs]
            rounds = [r for _, r in runs]
            best, median = max(steps) / 1e6, statistics.median(steps) / 1e6
            print(
                f"| {rules} | {n} | {best:.2f} M / {median:.2f} M "
                f"| {statistics.median(rounds) / 1e6:.2f} M |",
                flush=True,
            )


if __name__ == "__main__":
    main()
