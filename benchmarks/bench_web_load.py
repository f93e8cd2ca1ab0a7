"""Load benchmark of the web table: N scripted players over WebSocket on loopback.

Starts the real server (``twentyone serve`` as a subprocess on 127.0.0.1 and a free port, a
fresh SQLite file in a temporary folder, or ``--database-url``), registers N accounts over
HTTP, opens one WebSocket per player spread over T multi-player tables, and lets every player
play as fast as it can: sit, bet (or rebet), ready, and answer every question it is asked (a
simple basic-strategy-like policy that also takes insurance, doubles, splits and surrenders
now and then, so every kind of money movement happens). Each client has one intention in
flight at a time and times it from sending it to receiving the view that reflects it (the
view whose ``acks`` list names it). The figures are those of S seconds of steady play after
W seconds of warm-up (``--warmup``, default 5): at the start all N players sit, bet and say
ready in the same instant, a burst no table sees again; its latencies are reported apart.

When the time is up the players finish the round they are in and leave, the server is
stopped, and the money is checked in the database (SQLAlchemy), "not a chip lost or
duplicated":

- the sum over the players' wallets and the house is the starting total (N starting balances
  on top of what the database held before), the bank paid exactly N starting balances, and
  every account's balance equals what its ledger entries say;
- no player's balance is negative;
- no round is left open, every round is settled exactly once: each player's part of a
  round (its ledger entries) equals the round's recorded net, equals the net of replaying
  the round's stored log with the engine, and each wallet is its starting balance plus the
  nets of the rounds it played;
- the last balance each client was shown equals its ledger balance.

Usage (see docs/benchmarks.md for figures)::

    .venv/bin/python benchmarks/bench_web_load.py             # 500 players, 100 tables, 5 + 30 s
    .venv/bin/python benchmarks/bench_web_load.py --players 50 --tables 10 --seconds 20
    .venv/bin/python benchmarks/bench_web_load.py --smoke     # 10 players, 2 tables, 1 + 3 s
    .venv/bin/python benchmarks/bench_web_load.py --database-url postgresql://u:p@127.0.0.1/db

The exit status is 0 when the money check passes and no client failed, 1 otherwise.
Only loopback addresses are used.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx

from twentyone.web.gc_tuning import tune_for_serving

sys.path.insert(0, str(Path(__file__).resolve().parent))
from web_load_money import baseline_of, money_check
from web_load_players import COOKIE, Client, Stats

HOST = "127.0.0.1"
PASSWORD = "load-test-password"


# --------------------------------------------------------------------------- the server
def free_port() -> int:
    """A free TCP port on the loopback interface."""
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def table_specs(tables: int, rules: list[str]) -> list[tuple[str, str]]:
    """``tables`` table ids, the rule sets taken in turn."""
    return [(f"t{i:03d}", rules[i % len(rules)]) for i in range(tables)]


def start_server(
    url: str,
    port: int,
    specs: list[tuple[str, str]],
    starting_balance: int,
    workdir: Path,
    profile: Path | None,
    extra: list[str] | None = None,
    src: str | None = None,
) -> subprocess.Popen[bytes]:
    """``twentyone serve`` on loopback, its output into ``workdir/server.log``."""
    cmd = [sys.executable]
    if profile is not None:  # the event loop's CPU in the measured seconds (SIGUSR1 to SIGUSR2)
        cmd += [str(Path(__file__).resolve().parent / "profile_server.py"), str(profile)]
    else:
        cmd += ["-m"]
    cmd += ["twentyone.cli", "serve", "--host", HOST, "--port", str(port)]
    cmd += ["--database-url", url, "--starting-balance", str(starting_balance)]
    cmd += ["--register-limits", "100000 per hour"]  # every player registers from loopback
    cmd += ["--messages-per-second", "1000", "--message-burst", "1000"]  # as fast as they can
    for table_id, rules in specs:
        cmd += ["--table", f"{table_id}={rules}"]
    cmd += extra or []
    log = (workdir / "server.log").open("wb")
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    if src is not None:  # another tree's server (an A/B in one sitting)
        env["PYTHONPATH"] = src
    return subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, cwd=workdir, env=env)


def start_cluster(url: str, nodes: int, specs: list[tuple[str, str]], starting: int) -> Any:
    """``nodes`` cluster nodes on ``url`` and an nginx in front (tests/cluster_support.py)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from tests.cluster_support import Cluster

    extra = ["--starting-balance", str(starting)]
    extra += ["--messages-per-second", "1000", "--message-burst", "1000"]
    cluster = Cluster(
        url,
        [f"n{i}" for i in range(1, nodes + 1)],
        [f"{t}={r}" for t, r in specs],
        lease_seconds=5.0,
        extra=extra,
    )
    cluster.start_all()
    return cluster


def db_counters(url: str) -> dict[str, int] | None:
    """PostgreSQL's counters for the database (transactions, rows written), or None."""
    if not url.startswith("postgresql"):
        return None
    import psycopg

    name = urlsplit(url).path.lstrip("/")
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT xact_commit, tup_inserted, tup_updated, tup_deleted "
            "FROM pg_stat_database WHERE datname = %s",
            (name,),
        ).fetchone()
    if row is None:
        return None
    return dict(zip(("commits", "inserted", "updated", "deleted"), map(int, row), strict=True))


def stop_server(proc: subprocess.Popen[bytes]) -> int:
    """Ctrl-C (uvicorn shuts down gracefully), then kill if it hangs; the exit status."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return proc.returncode


async def wait_ready(
    base: str, proc: subprocess.Popen[bytes], tables: int, wait_advice: float
) -> None:
    """Until the lobby answers with every table (and, for up to ``wait_advice`` seconds,
    until the background analysis has finished, so it does not run during the load)."""
    deadline = time.monotonic() + 120
    async with httpx.AsyncClient(base_url=base, timeout=5) as client:
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"the server exited with status {proc.returncode}")
            try:
                r = await client.get("/api/tables")
                if r.status_code == 200 and len(r.json()) == tables:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not answer within 120 s")
            await asyncio.sleep(0.2)
        advice_deadline = time.monotonic() + wait_advice
        while time.monotonic() < advice_deadline:
            rows = (await client.get("/api/tables")).json()
            if all(t["house_edge"] is not None for t in rows):
                break
            await asyncio.sleep(0.5)


async def register_all(base: str, names: list[str], concurrency: int) -> tuple[list[str], int]:
    """Register every player over HTTP; their session tokens and the starting balance."""
    sem = asyncio.Semaphore(concurrency)
    tokens: dict[str, str] = {}
    starting: set[int] = set()
    limits = httpx.Limits(max_connections=concurrency)
    async with httpx.AsyncClient(base_url=base, timeout=120, limits=limits) as client:

        async def one(name: str) -> None:
            async with sem:
                r = await client.post(
                    "/api/register", json={"username": name, "password": PASSWORD}
                )
            if r.status_code != 201:
                raise RuntimeError(f"register {name}: {r.status_code} {r.text}")
            tokens[name] = r.cookies[COOKIE]
            starting.add(r.json()["starting_balance"])
            client.cookies.clear()

        await asyncio.gather(*(one(n) for n in names))
    (start,) = starting
    return [tokens[n] for n in names], start


def _proc_cpu(pid: int) -> float:
    """CPU seconds (user + system) a process has used (Linux /proc), 0 elsewhere."""
    return _proc_cpu_of(Path(f"/proc/{pid}/stat"))


def _threads_cpu(pid: int) -> dict[int, float]:
    """CPU seconds of each of a process's threads by thread id (Linux /proc), {} elsewhere:
    the server's event loop is the thread whose id is the process's."""
    out: dict[int, float] = {}
    with contextlib.suppress(OSError):
        for task in Path(f"/proc/{pid}/task").iterdir():
            out[int(task.name)] = _proc_cpu_of(task / "stat")
    return out


def _proc_cpu_of(stat: Path) -> float:
    """CPU seconds (user + system) of a /proc stat file's process or thread, 0 if gone."""
    try:
        fields = stat.read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _machine_cpu() -> tuple[int, int]:
    """All CPU time of the machine and the part of it the hypervisor gave to others ("steal",
    Linux /proc/stat, in clock ticks); (0, 0) elsewhere."""
    try:
        fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return (0, 0)
    return (sum(fields[:8]), fields[7] if len(fields) > 7 else 0)


# --------------------------------------------------------------------------- the run
def percentile(values: list[float], q: float) -> float:
    """The q-quantile (0..1), nearest rank."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


async def play(args: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    """Start the server, play, stop it, check the money; the report."""
    url = args.database_url or f"sqlite:///{workdir / 'load.db'}"
    port = free_port()
    base, base_ws = f"http://{HOST}:{port}", f"ws://{HOST}:{port}"
    rules = [r.strip() for r in args.rules.split(",") if r.strip()]
    specs = table_specs(args.tables, rules)
    profile = Path(args.profile).resolve() if args.profile else None
    report: dict[str, Any] = {
        "players": args.players,
        "tables": args.tables,
        "seconds": args.seconds,
        "rules": rules,
        "think_ms": args.think_ms,
        "database": "sqlite" if url.startswith("sqlite") else url.split(":", 1)[0],
    }
    cluster = None
    prefixes: dict[str, str] = {}
    if args.nodes:
        # N nodes behind Debian's nginx (issue 16): players connect through the proxy, to the
        # path of the node dealing their table (as the page does after a 4302 redirect)
        cluster = start_cluster(url, args.nodes, specs, args.starting_balance)
        base, base_ws = cluster.proxy, f"ws://{HOST}:{cluster.proxy_port}"
        proc = cluster.procs[next(iter(cluster.procs))]
        report["nodes"] = args.nodes
    else:
        extra = [*args.serve_arg]
        if args.metrics:  # counted, and served on their own port (nobody scrapes them here)
            extra += ["--metrics-port", str(free_port())]
        proc = start_server(
            url, port, specs, args.starting_balance, workdir, profile, extra, args.server_src
        )
        report["serve_args"] = extra
        report["server_src"] = args.server_src
    clients: list[Client] = []
    stats = Stats()
    try:
        t0 = time.perf_counter()
        await wait_ready(base, proc, args.tables, args.wait_analysis)
        if cluster is not None:
            owners = await asyncio.to_thread(cluster.wait_owned, 120.0)
            prefixes = {t: f"/n/{n}" for t, n in owners.items()}
            report["tables_per_node"] = dict(Counter(owners.values()))
        report["server_start_s"] = round(time.perf_counter() - t0, 2)
        baseline = baseline_of(url)
        tag = f"{os.getpid() % 10000:04d}{random.randrange(1000):03d}"
        names = [f"p{tag}_{i}" for i in range(args.players)]
        t0 = time.perf_counter()
        tokens, starting = await register_all(base, names, args.register_concurrency)
        report["register_s"] = round(time.perf_counter() - t0, 2)
        clients = [
            Client(
                name,
                token,
                specs[i % args.tables][0],
                i // args.tables,
                stats,
                args.seed * 100_003 + i,
                args.think_ms / 1000,
            )
            for i, (name, token) in enumerate(zip(names, tokens, strict=True))
        ]
        t0 = time.perf_counter()
        sem = asyncio.Semaphore(50)

        async def open_one(c: Client) -> None:
            async with sem:
                await c.connect(base_ws + prefixes.get(c.table, ""))

        await asyncio.gather(*(open_one(c) for c in clients))
        report["connect_s"] = round(time.perf_counter() - t0, 2)
        # the players' process takes the server's GC settings (twentyone.web.gc_tuning): with
        # CPython's defaults its collections stopped all 500 players for up to 80 ms (1.2 s in
        # 20 s of play), and every intention in flight counted that as the server's latency
        tune_for_serving()

        start = time.perf_counter() + args.warmup
        stats.window = (start, start + args.seconds)
        tasks = [asyncio.create_task(c.run()) for c in clients]
        await asyncio.sleep(args.warmup)  # everyone sits and bets at once: not measured
        spy = None
        if args.py_spy:
            spy = subprocess.Popen(
                [
                    shutil.which("py-spy", path=str(Path(sys.executable).parent)) or "py-spy",
                    "record",
                    "--pid",
                    str(proc.pid),
                    "--duration",
                    str(int(args.seconds)),
                    "--format",
                    "raw",
                    "--nonblocking",
                    "--rate",
                    "200",
                    "-o",
                    args.py_spy,
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        pids = [p.pid for p in cluster.procs.values()] if cluster is not None else [proc.pid]
        if profile is not None and cluster is None:
            proc.send_signal(signal.SIGUSR1)  # profile_server.py: the profiler on
        cpu0 = (sum(map(_proc_cpu, pids)), time.process_time())
        threads0 = _threads_cpu(proc.pid)
        machine0 = _machine_cpu()
        db0 = db_counters(url)
        await asyncio.sleep(args.seconds)
        db1 = db_counters(url)
        cpu1 = (sum(map(_proc_cpu, pids)), time.process_time())
        threads1 = _threads_cpu(proc.pid)
        if profile is not None and cluster is None:
            proc.send_signal(signal.SIGUSR2)  # and off
        machine1 = _machine_cpu()
        ticks = machine1[0] - machine0[0]
        report["steal_pct_during_play"] = (
            round(100 * (machine1[1] - machine0[1]) / ticks, 1) if ticks > 0 else None
        )
        report["cpu_s_during_play"] = {
            "server": round(cpu1[0] - cpu0[0], 2),
            "clients": round(cpu1[1] - cpu0[1], 1),
        }
        if threads1:  # the event loop apart from the other threads (WAL checkpoints, hints)
            loop_s = threads1.get(proc.pid, 0.0) - threads0.get(proc.pid, 0.0)
            others = sum(v - threads0.get(t, 0.0) for t, v in threads1.items() if t != proc.pid)
            report["cpu_s_during_play"]["server_loop"] = round(loop_s, 2)
            report["cpu_s_during_play"]["server_other_threads"] = round(others, 2)
        if spy is not None:
            try:
                spy.wait(timeout=30)
            except subprocess.TimeoutExpired:
                spy.kill()
                spy.wait()
        # time is up: finish the round in play, take back pending chips, leave
        for c in clients:
            c.stopping = True
        for c in clients:
            c.step()
        drain_start = time.perf_counter()
        _done, pending = await asyncio.wait(tasks, timeout=args.drain_seconds)
        report["drain_s"] = round(time.perf_counter() - drain_start, 2)
        if pending:
            stats.error("drain", f"{len(pending)} clients still in a round after the drain")
            for c in clients:
                if not c.done.is_set():
                    c.done.set()
                    if c.ws is not None:
                        with contextlib.suppress(Exception):
                            await c.ws.close()
            await asyncio.wait(tasks, timeout=10)
    finally:
        for c in clients:
            if c.ws is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(c.ws.close(), 5)
        if cluster is not None:
            cluster.stop()
            report["server_exit"] = max(p.returncode or 0 for p in cluster.procs.values())
        else:
            report["server_exit"] = stop_server(proc)
    shown = {c.name: c.last_balance for c in clients}
    problems, facts = money_check(url, names, starting, baseline, shown)

    seconds = args.seconds
    if db0 and db1:
        report["db_during_play"] = {k: db1[k] - db0[k] for k in db0}
    all_lat = [x for v in stats.latencies.values() for x in v]
    in_window = [r for r, t in stats.rounds_ended.items() if stats.window[0] <= t < stats.window[1]]
    warm = stats.warmup_latencies
    report.update(
        {
            "rounds": len(in_window),
            "rounds_per_s": round(len(in_window) / seconds, 1),
            "actions": stats.actions,
            "actions_per_s": round(stats.actions / seconds, 1),
            # robust to a busy machine, unlike actions/s: what the server spends on an action
            "server_cpu_ms_per_action": (
                round(1000 * report["cpu_s_during_play"]["server"] / stats.actions, 4)
                if stats.actions and "cpu_s_during_play" in report
                else None
            ),
            "latency_ms": {
                "p50": round(percentile(all_lat, 0.5) * 1000, 1),
                "p99": round(percentile(all_lat, 0.99) * 1000, 1),
                "max": round(max(all_lat, default=float("nan")) * 1000, 1),
                "mean": round(statistics.fmean(all_lat) * 1000, 1) if all_lat else None,
            },
            "warmup_s": args.warmup,
            "warmup_latency_ms": {
                "n": len(warm),
                "p50": round(percentile(warm, 0.5) * 1000, 1),
                "p99": round(percentile(warm, 0.99) * 1000, 1),
                "max": round(max(warm, default=float("nan")) * 1000, 1),
            },
            "whole_run_latency_ms": {
                "n": len(warm) + len(all_lat),
                "p50": round(percentile(warm + all_lat, 0.5) * 1000, 1),
                "p99": round(percentile(warm + all_lat, 0.99) * 1000, 1),
            },
            "latency_ms_by_type": {
                k: {
                    "n": len(v),
                    "p50": round(percentile(v, 0.5) * 1000, 1),
                    "p99": round(percentile(v, 0.99) * 1000, 1),
                }
                for k, v in sorted(stats.latencies.items())
            },
            "errors": sum(stats.errors.values()),
            "errors_by_kind": dict(stats.errors),
            "error_samples": stats.error_samples,
            "notices": dict(stats.notices),
            "money_ok": not problems,
            "money_problems": problems[:20],
            "money": facts,
        }
    )
    return report


def print_report(r: dict[str, Any]) -> None:
    """The figures, readably."""
    lat = r["latency_ms"]
    print(
        f"{r['players']} players, {r['tables']} tables ({', '.join(r['rules'])}), "
        f"{r['seconds']} s on {r['database']}"
    )
    if r.get("think_ms"):
        print(f"  paced: about {r['think_ms']} ms between an update and the next action")
    cpu = r.get("cpu_s_during_play", {})
    print(
        f"  CPU during play: server {cpu.get('server')} s (event loop {cpu.get('server_loop')} "
        f"s, other threads {cpu.get('server_other_threads')} s), clients {cpu.get('clients')} s; "
        f"taken by the hypervisor (steal): {r.get('steal_pct_during_play')}%"
    )
    print(
        f"  set-up: server {r.get('server_start_s')} s, register {r.get('register_s')} s, "
        f"connect {r.get('connect_s')} s; drain {r.get('drain_s')} s"
    )
    print(f"  rounds: {r['rounds']} ({r['rounds_per_s']}/s)")
    print(
        f"  actions: {r['actions']} ({r['actions_per_s']}/s), server CPU per action "
        f"{r.get('server_cpu_ms_per_action')} ms"
    )
    print(
        f"  action-to-update latency: p50 {lat['p50']} ms, p99 {lat['p99']} ms, "
        f"max {lat['max']} ms, mean {lat['mean']} ms"
    )
    for k, v in r["latency_ms_by_type"].items():
        print(f"    {k:8} n={v['n']:7}  p50 {v['p50']:7} ms  p99 {v['p99']:7} ms")
    w, whole = r["warmup_latency_ms"], r["whole_run_latency_ms"]
    print(
        f"  warm-up (the first {r['warmup_s']} s, not in the figures above): n={w['n']}, "
        f"p50 {w['p50']} ms, p99 {w['p99']} ms, max {w['max']} ms; warm-up and play "
        f"together: p50 {whole['p50']} ms, p99 {whole['p99']} ms"
    )
    print(f"  errors: {r['errors']} {r['errors_by_kind'] or ''}")
    for s in r["error_samples"]:
        print(f"    {s}")
    print(f"  notices: {r['notices']}")
    m = r["money"]
    print(
        f"  money check: {'OK' if r['money_ok'] else 'FAILED'}: {m['rounds_in_database']} "
        f"rounds {m['round_status']}, {m['ledger_entries_of_rounds']} round entries, players "
        f"+ house {m['players_plus_house']} (expected {m['expected_total']}), house result "
        f"{m['house_result']}, lowest balance {m['lowest_player_balance']}"
    )
    for p in r["money_problems"]:
        print(f"    {p}")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Options."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--players", type=int, default=500, help="players (WebSockets), default 500")
    p.add_argument("--tables", type=int, default=100, help="tables, default 100")
    p.add_argument("--seconds", type=float, default=30.0, help="seconds of play, default 30")
    p.add_argument(
        "--warmup",
        type=float,
        default=5.0,
        help="seconds of play before the measured seconds (the start, where every player sits "
        "and bets in the same instant, is reported apart), default 5",
    )
    p.add_argument("--smoke", action="store_true", help="10 players, 2 tables, 1 + 3 s")
    p.add_argument(
        "--rules",
        default="ro-casino,pt-casino,hu-casino",
        help="rule sets of the tables, taken in turn (multi-player ones)",
    )
    p.add_argument("--database-url", help="default: a fresh SQLite file in a temporary folder")
    p.add_argument("--starting-balance", type=int, default=100_000)
    p.add_argument("--seed", type=int, default=1, help="seeds the players' choices")
    p.add_argument("--register-concurrency", type=int, default=4)
    p.add_argument(
        "--think-ms",
        type=float,
        default=0.0,
        help="pace the players: wait 0.5 to 1.5 times this between an update and the next "
        "action (default 0: as fast as possible)",
    )
    p.add_argument("--drain-seconds", type=float, default=60.0, help="time to finish rounds")
    p.add_argument(
        "--wait-analysis",
        type=float,
        default=60.0,
        help="seconds to wait for the server's background analysis before playing",
    )
    p.add_argument(
        "--profile",
        help="profile the server's event loop during the measured seconds (cProfile timing "
        "its CPU: benchmarks/profile_server.py), stats to this file",
    )
    p.add_argument(
        "--py-spy", help="sample the server with py-spy during the play (raw stacks to this file)"
    )
    p.add_argument("--json", help="also write the report as JSON to this file")
    p.add_argument("--metrics", action="store_true", help="serve with its metrics on")
    p.add_argument(
        "--server-src",
        help="run the server from another source tree (its src/, as PYTHONPATH): the players "
        "and the checks stay this tree's",
    )
    p.add_argument(
        "--serve-arg",
        action="append",
        default=[],
        help="one more argument for `twentyone serve` (repeat: --serve-arg=--table-threads "
        "--serve-arg=4)",
    )
    p.add_argument(
        "--nodes",
        type=int,
        default=0,
        help="serve with N cluster nodes behind Debian's nginx (PostgreSQL --database-url)",
    )
    args = p.parse_args(argv)
    if args.smoke:
        args.players, args.tables, args.seconds, args.warmup = 10, 2, 3.0, 1.0
    if args.warmup < 0:
        p.error(f"--warmup {args.warmup}: expected 0 or more seconds")
    if not 1 <= args.tables <= args.players:
        p.error("--tables: between 1 and --players")
    if args.nodes and not (args.database_url or "").startswith("postgresql"):
        p.error(f"--nodes {args.nodes}: needs a PostgreSQL --database-url")
    if args.database_url and not args.database_url.startswith("sqlite"):
        host = urlsplit(args.database_url).hostname
        if host not in (None, "127.0.0.1", "localhost", "::1"):
            p.error(f"--database-url: host {host!r}: only a loopback database")
    return args


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; 0 when the money check passed and nothing failed."""
    args = parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="twentyone-load-") as tmp:
        workdir = Path(tmp)
        try:
            report = asyncio.run(play(args, workdir))
        finally:
            log = workdir / "server.log"
            server_log = log.read_text(errors="replace") if log.exists() else ""
        report["python"] = platform.python_version()
    print_report(report)
    if server_log.strip():
        tail = server_log.strip().splitlines()[-15:]
        print("  server log (last lines):")
        for line in tail:
            print(f"    {line}")
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2) + "\n")
    return 0 if report["money_ok"] and not report["errors"] and report["server_exit"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
