"""Soak benchmark of the web table (issue 11, item 11): the real server under abuse for
minutes, killed with ``kill -9`` every minute and restarted on the same database.

For each database (``--database sqlite|postgres|both``) it starts ``twentyone serve`` as a
subprocess on 127.0.0.1 (SQLite: a file in a temporary folder; PostgreSQL: a fresh database
created on the server of ``--postgres-url`` and dropped at the end), registers the accounts
over HTTP and lets them play for ``--minutes`` (default 10):

- 200 random players (``--players``) over 40 multi-player tables, paced (about
  ``--think-ms`` between a view and the next intention): mostly sensible play, now and then
  any legal decision, and about one intention in twelve illegal (out of turn, a box out of
  range, a negative, huge or textual amount, another script's digits, an empty amount, an
  unknown type, a repeated message id). Each is answered (an error, a duplicate's ack or, if
  it happened to be legal, a view); the legal ones are timed from sending to the view that
  acknowledges them (benchmarks/web_load_players.py). After each kill they reconnect, sit
  down again and go on.
- one socket flooding ``view`` intentions as fast as it can (the server's default token
  bucket, 20 a second with bursts of 40, answers the excess with errors and closes the socket
  with 1008 after 2 s; it reopens at once), at a table where players play;
- one socket sending a 32 KiB frame a second after opening (closed with 1009; it reopens);
- one account holding the seat of a single-player table and doing nothing (stood up and its
  socket closed after ``--idle-seconds``, default 20; it comes back and sits again).

The server keeps its default per-socket rate limit, so the players (a few intentions a
second each) are not throttled while the flooder is; only registrations are opened up (every
account registers from loopback). Every ``--kill-every`` seconds (default 60) the server is
killed with SIGKILL and, once the books have been read in that instant (wallets + stakes of
the rounds in play + the house's result = what the bank credited), restarted on the same
database; the restart voids the rounds cut short.

Reported: rounds settled and voided, restarts, the players' p50/p99 latency (per minute and
over the run), the server's RSS every 2 s (per life of the server, and the first against the
last minute), the abusers' outcomes, the load average, and the money check of
benchmarks/web_load_money.py after the play (every round settled exactly once or voided to
the chip, every wallet its starting balance plus its rounds' nets, players + house = what was
credited). Exit status 0 when every check passed.

    nice .venv/bin/python benchmarks/bench_soak.py --database sqlite
    nice .venv/bin/python benchmarks/bench_soak.py --database postgres \\
        --postgres-url postgresql://user:pass@127.0.0.1:5432/postgres
    .venv/bin/python benchmarks/bench_soak.py --smoke   # 20 players, 24 s, a kill every 10 s

The PostgreSQL role needs CREATEDB (``TWENTYONE_TEST_POSTGRES_URL`` is the default URL).

``--pg-synchronous-commit on|off`` is the server's option of that name (whether a round's
commits wait for PostgreSQL's WAL flush; docs/operations.md); ``both`` soaks PostgreSQL once
with each. ``--repeat N`` runs the whole comparison N times; the PostgreSQL runs of a
repetition alternate their order (on, off; then off, on; ...), each repetition has its own
SQLite run, and the summary gives each run's steady p99 and PostgreSQL's over SQLite's of the
same repetition. With more than one run the ``--json`` file is ``{"summary", "runs"}``, else
the list of reports::

    nice .venv/bin/python benchmarks/bench_soak.py --database both --minutes 2 \\
        --pg-synchronous-commit both --repeat 3 --json soak.json
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_web_load import HOST, free_port, percentile, register_all, table_specs, wait_ready
from soak_clients import Abuser, Flooder, IdleHolder, OversizedSender, SoakState, make_players
from soak_money import books_now, open_rounds
from soak_plan import planned_runs, print_summary, summary
from web_load_money import baseline_of, money_check
from web_load_players import Stats

from twentyone.web.gc_tuning import tune_for_serving

IDLE_TABLE = ("idle1", "pl-online")  # single-player: the idle seat holder's


# --------------------------------------------------------------------------- the server
class Server:
    """``twentyone serve`` on a fixed port, started again after each kill; its output is
    appended to ``workdir/server.log``."""

    def __init__(self, url: str, port: int, specs: list[tuple[str, str]], args: Any, workdir: Path):
        self.url, self.port, self.specs, self.args, self.workdir = url, port, specs, args, workdir
        self.proc: subprocess.Popen[bytes] | None = None
        self.lives = 0

    def start(self) -> subprocess.Popen[bytes]:
        cmd = [sys.executable, "-m", "twentyone.cli", "serve", "--host", HOST]
        cmd += ["--port", str(self.port), "--database-url", self.url]
        cmd += ["--starting-balance", str(self.args.starting_balance)]
        cmd += ["--register-limits", "100000 per hour"]  # every account registers from loopback
        cmd += ["--idle-seconds", str(self.args.idle_seconds)]
        if self.url.startswith("postgres"):
            cmd += ["--pg-synchronous-commit", self.args.synchronous]
        # the socket limits stay the defaults (20 messages a second, bursts of 40, frames up
        # to 16 KiB, 4 sockets per account and table): the paced players stay far below them
        for table_id, rules in self.specs:
            cmd += ["--table", f"{table_id}={rules}"]
        log = (self.workdir / "server.log").open("ab")
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(
            cmd,
            stdout=log,
            stderr=subprocess.STDOUT,
            cwd=self.workdir,
            env=env,
            start_new_session=True,
        )
        log.close()
        self.lives += 1
        return self.proc

    def kill(self) -> None:
        """SIGKILL to the server's process group, and reap it."""
        if self.proc is not None and self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()

    def stop(self) -> int | None:
        """Ctrl-C (a graceful stop), SIGKILL if it hangs; the exit status."""
        proc = self.proc
        if proc is None:
            return None
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()
        return proc.returncode

    def rss_kib(self) -> int | None:
        if self.proc is None or self.proc.poll() is not None:
            return None
        try:
            for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        except OSError:
            return None
        return None


# --------------------------------------------------------------------------- PostgreSQL
@contextlib.contextmanager
def fresh_postgres_database(admin_url: str, name: str) -> Any:
    """A new database on the server of ``admin_url`` (its URL), dropped afterwards."""
    from sqlalchemy import text

    from twentyone.web.storage.db import make_engine

    engine = make_engine(admin_url).execution_options(isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as c:
            c.execute(text(f'CREATE DATABASE "{name}"'))
        parts = urlsplit(admin_url)
        yield urlunsplit(parts._replace(path=f"/{name}"))
    finally:
        with engine.connect() as c:
            c.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        engine.dispose()


# --------------------------------------------------------------------------- the run
async def soak(args: argparse.Namespace, url: str, workdir: Path) -> dict[str, Any]:
    """Start the server, play and kill it for ``args.minutes``, check the money; the report."""
    port = free_port()
    base, base_ws = f"http://{HOST}:{port}", f"ws://{HOST}:{port}"
    rules = [r.strip() for r in args.rules.split(",") if r.strip()]
    specs = table_specs(args.tables, rules)
    server = Server(url, port, [*specs, IDLE_TABLE], args, workdir)
    report: dict[str, Any] = {
        "database": "sqlite" if url.startswith("sqlite") else "postgresql",
        "pg_synchronous_commit": None if url.startswith("sqlite") else args.synchronous,
        "players": args.players,
        "tables": args.tables,
        "rules": rules,
        "minutes": args.minutes,
        "kill_every_s": args.kill_every,
        "think_ms": args.think_ms,
        "idle_seconds": args.idle_seconds,
        "load_average_at_start": [round(x, 2) for x in os.getloadavg()],
    }
    state = SoakState(base_ws)
    stats = Stats()
    stats.window = (0.0, float("inf"))
    loads: list[float] = []
    rss: list[tuple[float, int, int]] = []  # (seconds into the play, life, KiB)
    kills: list[dict[str, Any]] = []
    tasks: list[asyncio.Task[None]] = []
    server.start()
    try:
        await wait_ready(base, server.proc, len(server.specs), args.wait_analysis)  # type: ignore[arg-type]
        baseline = baseline_of(url)
        tag = f"{os.getpid() % 10000:04d}"
        names = [f"s{tag}_{i}" for i in range(args.players)]
        abuser_names = [f"flood{tag}", f"big{tag}", f"idle{tag}"]
        t0 = time.perf_counter()
        tokens, starting = await register_all(base, names + abuser_names, 4)
        report["register_s"] = round(time.perf_counter() - t0, 1)
        players = make_players(
            state,
            names,
            tokens[: len(names)],
            [t for t, _ in specs],
            stats,
            args.seed,
            args.think_ms / 1000,
        )
        abusers: list[Abuser] = [
            Flooder(state, abuser_names[0], tokens[-3], specs[0][0]),
            OversizedSender(state, abuser_names[1], tokens[-2], specs[1 % len(specs)][0]),
            IdleHolder(state, abuser_names[2], tokens[-1], IDLE_TABLE[0]),
        ]
        tune_for_serving()
        start = time.perf_counter()
        end = start + args.minutes * 60
        state.server_up.set()
        tasks = [asyncio.create_task(p.life()) for p in players]
        abuse_tasks = [asyncio.create_task(a.life()) for a in abusers]

        async def sample() -> None:
            while True:
                kib = server.rss_kib()
                if kib is not None and state.server_up.is_set():
                    rss.append((time.perf_counter() - start, server.lives, kib))
                loads.append(os.getloadavg()[0])
                now = time.perf_counter()
                if state.server_up.is_set() and not state.killing:
                    for p in players:
                        p.check_stuck(now)
                await asyncio.sleep(2)

        sampler = asyncio.create_task(sample())
        next_kill = start + args.kill_every
        while True:
            now = time.perf_counter()
            if next_kill >= end:
                await asyncio.sleep(max(0.0, end - now))
                break
            await asyncio.sleep(max(0.0, next_kill - now))
            state.killing = True
            state.server_up.clear()
            killed_at = time.perf_counter() - start
            server.kill()
            books = books_now(url, baseline)
            in_play = open_rounds(url, baseline)
            server.start()
            t_restart = time.perf_counter()
            await wait_ready(base, server.proc, len(server.specs), 0)  # type: ignore[arg-type]
            kills.append(
                {
                    "at_s": round(killed_at, 1),
                    "rounds_in_play": in_play,
                    "restart_s": round(time.perf_counter() - t_restart, 2),
                    **books,
                }
            )
            state.killing = False
            state.server_up.set()
            # every kill_every seconds, but each life at least half of that (a slow restart
            # on a busy machine must not leave a life too short to play a round)
            next_kill = max(next_kill + args.kill_every, time.perf_counter() + args.kill_every / 2)
        report["played_s"] = round(time.perf_counter() - start, 1)
        # time is up: the players finish their rounds and leave; the abusers stop
        state.finished = True
        for p in players:
            p.stopping = True
        for p in players:
            if p.ws is not None and p.view is not None and not p.done.is_set():
                p.step()
        drain0 = time.perf_counter()
        _done, pending = await asyncio.wait(tasks, timeout=args.drain_seconds)
        report["drain_s"] = round(time.perf_counter() - drain0, 1)
        if pending:
            stats.error("drain", f"{len(pending)} players still in a round after the drain")
        await asyncio.wait(abuse_tasks, timeout=15)
        sampler.cancel()
    finally:
        for t in tasks:
            t.cancel()
        for p in players if tasks else []:
            if p.ws is not None and p.ws.transport is not None:
                p.ws.transport.close()
        report["server_exit"] = server.stop()
    # a round the graceful stop left open is voided by the next start, as after a kill
    report["open_after_stop"] = open_rounds(url, baseline)
    server.start()
    try:
        await wait_ready(base, server.proc, len(server.specs), 0)  # type: ignore[arg-type]
    finally:
        server.stop()
    report["restarts"] = len(kills)
    report["kills"] = kills
    shown = {p.name: p.last_balance for p in players}
    problems, facts = money_check(
        url, names + abuser_names, starting, baseline, shown, voided_ok=True
    )
    problems += [
        f"kill at {k['at_s']} s: wallets + stakes in play + house result = {k['sum']}, "
        f"credited {k['credited']}"
        for k in kills
        if k["sum"] != k["credited"]
    ]
    report.update(summarize(state, stats, rss, loads, start, workdir, kills))
    report["money_ok"] = not problems
    report["money_problems"] = problems[:20]
    report["money"] = facts
    return report


def summarize(
    state: SoakState,
    stats: Stats,
    rss: list[tuple[float, int, int]],
    loads: list[float],
    start: float,
    workdir: Path,
    kills: list[dict[str, Any]],
) -> dict[str, Any]:
    """The figures of the play: latencies, RSS, abusers, errors. "Steady" latencies leave out
    the intentions sent from a kill until 15 s after the server is back (when every player
    reconnects, sits and bets at once)."""
    lat = [x for _t, x in state.timed]
    gaps = [(k["at_s"], k["at_s"] + k["restart_s"] + 15) for k in kills]
    steady = [x for t, x in state.timed if not any(a <= t - start < b for a, b in gaps)]
    minutes: dict[int, list[float]] = {}
    for sent, x in state.timed:
        minutes.setdefault(int((sent - start) // 60), []).append(x)

    def ms(values: list[float], q: float) -> float:
        return round(percentile(values, q) * 1000, 1)

    lives: dict[int, list[tuple[float, int]]] = {}
    for t, life, kib in rss:
        lives.setdefault(life, []).append((t, kib))
    last_minute = max((int(t // 60) for t, _l, _k in rss), default=0)
    first = [k for t, _l, k in rss if t < 60]
    last = [k for t, _l, k in rss if int(t // 60) == last_minute]
    log = (workdir / "server.log").read_text(errors="replace")
    return {
        "rounds_seen_ending": len(stats.rounds_ended),
        "latency_ms": {
            "n": len(lat),
            "p50": ms(lat, 0.5),
            "p99": ms(lat, 0.99),
            "max": round(max(lat, default=float("nan")) * 1000, 1),
        },
        "steady_latency_ms": {
            "n": len(steady),
            "p50": ms(steady, 0.5),
            "p99": ms(steady, 0.99),
            "max": round(max(steady, default=float("nan")) * 1000, 1),
        },
        "latency_ms_by_minute": {
            m: {"n": len(v), "p50": ms(v, 0.5), "p99": ms(v, 0.99)}
            for m, v in sorted(minutes.items())
        },
        "rss_mib_by_life": {
            life: {
                "at_10s": round(next((k for t, k in v if t - v[0][0] >= 10), v[-1][1]) / 1024, 1),
                "max": round(max(k for _t, k in v) / 1024, 1),
                "last": round(v[-1][1] / 1024, 1),
                "samples": len(v),
                "by_10s": _every_10s(v),
            }
            for life, v in sorted(lives.items())
        },
        "rss_mib_first_minute": _span(first),
        "rss_mib_last_minute": _span(last),
        "load_average": {
            "min": round(min(loads, default=0), 2),
            "median": round(statistics.median(loads), 2) if loads else None,
            "max": round(max(loads, default=0), 2),
        },
        "illegal_answered": dict(state.illegal),
        "illegal_that_were_legal": state.illegal_accepted,
        "connects": state.reconnects,
        "connect_failures": state.connect_failures,
        "players_sockets_closed_by_code": {str(k): v for k, v in state.lost_codes.items()},
        "unanswered": state.unanswered,
        "abusers": dict(sorted(state.abuse.items())),
        "errors": sum(stats.errors.values()),
        "errors_by_kind": dict(stats.errors),
        "error_samples": stats.error_samples,
        "notices": dict(stats.notices),
        "server_log_tracebacks": log.count("Traceback"),
        "server_log_tail": log.strip().splitlines()[-8:],
    }


def _every_10s(samples: list[tuple[float, int]]) -> list[float]:
    """A life's RSS (MiB) at the end of each 10 s since its first sample."""
    t0 = samples[0][0]
    out: dict[int, int] = {}
    for t, kib in samples:
        out[int((t - t0) // 10)] = kib  # the last sample of each 10 s
    return [round(out[i] / 1024, 1) for i in sorted(out)]


def _span(values: list[int]) -> dict[str, float] | None:
    if not values:
        return None
    return {
        "min": round(min(values) / 1024, 1),
        "median": round(statistics.median(values) / 1024, 1),
        "max": round(max(values) / 1024, 1),
    }


# --------------------------------------------------------------------------- reporting
def print_report(r: dict[str, Any]) -> None:
    """The figures, readably."""
    lat = r["latency_ms"]
    sync = r.get("pg_synchronous_commit")
    print(
        f"== {r['database']}{f' (synchronous_commit {sync})' if sync else ''}: "
        f"{r['players']} players at {r['tables']} tables "
        f"({', '.join(r['rules'])}) + 3 abusers, {r['played_s']} s, kill -9 every "
        f"{r['kill_every_s']} s"
    )
    print(f"  load average: start {r['load_average_at_start']}, during {r['load_average']}")
    m = r["money"]
    print(
        f"  rounds: {m['round_status']} in the database; restarts: {r['restarts']} "
        f"(rounds in play at the kills: {[k['rounds_in_play'] for k in r['kills']]})"
    )
    print(
        f"  players' latency (legal intentions, n={lat['n']}): p50 {lat['p50']} ms, "
        f"p99 {lat['p99']} ms, max {lat['max']} ms"
    )
    st = r["steady_latency_ms"]
    print(
        f"  steady (not from a kill to 15 s after the restart, n={st['n']}): p50 {st['p50']} ms, "
        f"p99 {st['p99']} ms, max {st['max']} ms"
    )
    for minute, v in r["latency_ms_by_minute"].items():
        print(f"    minute {minute:>2}: n={v['n']:6}  p50 {v['p50']:7} ms  p99 {v['p99']:8} ms")
    print(f"  RSS first minute {r['rss_mib_first_minute']}, last {r['rss_mib_last_minute']} MiB")
    for life, v in r["rss_mib_by_life"].items():
        print(
            f"    life {life:>2}: at 10 s {v['at_10s']}, max {v['max']}, last {v['last']} MiB; "
            f"every 10 s {v['by_10s']}"
        )
    print(f"  illegal intentions answered: {r['illegal_answered']}")
    print(
        f"  (legal by chance: {r['illegal_that_were_legal']}; unanswered: {r['unanswered']}; "
        f"connects {r['connects']}, failed {r['connect_failures']})"
    )
    print("  abusers:")
    for k, v in r["abusers"].items():
        print(f"    {k}: {v}")
    print(f"  errors: {r['errors']} {r['errors_by_kind'] or ''}")
    if r["players_sockets_closed_by_code"]:
        codes = r["players_sockets_closed_by_code"]
        print(f"    players' sockets closed outside a kill, by close code: {codes}")
    for s in r["error_samples"]:
        print(f"    {s}")
    print(f"  tracebacks in the server's log: {r['server_log_tracebacks']}")
    for k in r["kills"]:
        print(
            f"    kill at {k['at_s']:>6} s: {k['rounds_in_play']} rounds in play, wallets "
            f"{k['wallets']} + stakes in play {k['stakes_in_play']} + house result "
            f"{k['house_result']} = {k['sum']} (credited {k['credited']}); back in "
            f"{k['restart_s']} s"
        )
    print(
        f"  money check: {'OK' if r['money_ok'] else 'FAILED'}: players + house "
        f"{m['players_plus_house']} (credited {m['expected_total']}), house result "
        f"{m['house_result']}, lowest balance {m['lowest_player_balance']}"
    )
    for p in r["money_problems"]:
        print(f"    {p}")
    print(f"  server exit {r['server_exit']}; open rounds after the stop {r['open_after_stop']}")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Options."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--minutes", type=float, default=10.0, help="minutes of play, default 10")
    p.add_argument("--database", choices=("sqlite", "postgres", "both"), default="sqlite")
    p.add_argument(
        "--postgres-url",
        default=os.environ.get("TWENTYONE_TEST_POSTGRES_URL"),
        help="a loopback PostgreSQL server and a role with CREATEDB (default: "
        "$TWENTYONE_TEST_POSTGRES_URL); a fresh database is created and dropped",
    )
    p.add_argument("--players", type=int, default=200)
    p.add_argument("--tables", type=int, default=40)
    p.add_argument("--rules", default="ro-casino,pt-casino,hu-casino")
    p.add_argument("--kill-every", type=float, default=60.0, help="seconds between kills")
    p.add_argument(
        "--think-ms", type=float, default=500.0, help="the players' pace, default 500 ms"
    )
    p.add_argument("--idle-seconds", type=float, default=20.0, help="the server's option")
    p.add_argument("--starting-balance", type=int, default=100_000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--drain-seconds", type=float, default=60.0)
    p.add_argument("--wait-analysis", type=float, default=60.0)
    p.add_argument(
        "--smoke", action="store_true", help="20 players, 4 tables, 24 s, kills every 10 s"
    )
    p.add_argument(
        "--pg-synchronous-commit",
        choices=("on", "off", "both"),
        default="on",
        help="the server's option on PostgreSQL; both: a PostgreSQL run with each (default on)",
    )
    p.add_argument("--repeat", type=int, default=1, help="run the comparison this many times")
    p.add_argument("--json", help="also write the reports as JSON to this file")
    args = p.parse_args(argv)
    if args.smoke:
        args.players, args.tables, args.minutes, args.kill_every = 20, 4, 0.4, 10.0
        args.idle_seconds, args.wait_analysis = 5.0, 0.0
    if args.repeat < 1:
        p.error("--repeat: 1 or more")
    if not 1 <= args.tables <= args.players:
        p.error("--tables: between 1 and --players")
    if args.database != "sqlite":
        if not args.postgres_url:
            p.error("--database postgres needs --postgres-url or TWENTYONE_TEST_POSTGRES_URL")
        host = urlsplit(args.postgres_url).hostname
        if host not in ("127.0.0.1", "localhost", "::1"):
            p.error(f"--postgres-url: host {host!r}: only a loopback database")
    return args


def main(argv: list[str] | None = None) -> int:
    """Run the soak on each database asked for; 0 when every check passed."""
    args = parse_args(argv)
    reports = []
    for repetition, kind, synchronous in planned_runs(args):
        args.synchronous = synchronous
        with tempfile.TemporaryDirectory(prefix="twentyone-soak-") as tmp:
            workdir = Path(tmp)
            if kind == "sqlite":
                report = asyncio.run(soak(args, f"sqlite:///{workdir / 'soak.db'}", workdir))
            else:
                name = f"twentyone_soak_{os.getpid()}"
                with fresh_postgres_database(args.postgres_url, name) as url:
                    report = asyncio.run(soak(args, url, workdir))
        report["python"] = platform.python_version()
        report["repetition"] = repetition
        print_report(report)
        reports.append(report)
    found = summary(reports)
    if len(reports) > 1:
        print_summary(found)
    if args.json:
        out: Any = {"summary": found, "runs": reports} if len(reports) > 1 else reports
        Path(args.json).write_text(json.dumps(out, indent=2) + "\n")
    ok = all(
        r["money_ok"] and not r["errors"] and not r["server_log_tracebacks"] and not r["unanswered"]
        for r in reports
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
