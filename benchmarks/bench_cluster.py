"""Cluster benchmark (issue 16): the web load benchmark through nginx with 1, 2 and 3 nodes,
and the failover time over repeated ``kill -9``.

Everything runs on this machine: the nodes, nginx, PostgreSQL and the players share its
cores, so more nodes cannot show more throughput here than the cores allow; what the figures
do show is the cost of the proxy hop and of the leases, how the database's work per round
stays the same with more nodes, and how long a dead node's tables take to come back.

Usage (figures in docs/benchmarks.md and docs/scaling.md)::

    .venv/bin/python benchmarks/bench_cluster.py --database-url postgresql://u:p@127.0.0.1/db
    .venv/bin/python benchmarks/bench_cluster.py --database-url ... --kills 20 --skip-load
    .venv/bin/python benchmarks/bench_cluster.py --database-url ... --skip-load --kills 0 \
        --stops 10 --db-stop 10   # clean stops (drain), and PostgreSQL stopped for 10 s

Each run gets a fresh database next to the one named (created and dropped here).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # its helpers' imports

import bench_web_load
from tests.cluster_support import Cluster, Player, fresh_database


def load(base_url: str, nodes: int, args: argparse.Namespace) -> dict[str, Any]:
    """One load run through the proxy with ``nodes`` nodes."""
    with fresh_database(base_url) as url, tempfile.TemporaryDirectory() as tmp:
        argv = ["--database-url", url, "--nodes", str(nodes), "--players", str(args.players)]
        argv += ["--tables", str(args.tables), "--seconds", str(args.seconds)]
        argv += ["--warmup", "5", "--wait-analysis", "0"]
        run_args = bench_web_load.parse_args(argv)
        report: dict[str, Any] = asyncio.run(bench_web_load.play(run_args, Path(tmp)))
    rounds = max(1, report.get("rounds", 0))
    db = report.get("db_during_play") or {}
    report["db_per_round"] = {k: round(v / rounds, 2) for k, v in db.items()}
    return report


def _round_in_play(cluster: Cluster, k: int, name: str) -> tuple[Player, dict[str, Any], str, str]:
    """Once every table is on its node, a new player at the ``k``-th table (in turn) sits,
    bets 100 and deals: the player, the view after the deal, the node and the table."""
    owners = cluster.wait_balanced(timeout=90)  # a restarted node has its share again
    table = sorted(owners)[k % len(owners)]
    p = Player(cluster, cluster.register(name), table)
    p.open()
    p.send("sit")
    p.send("bet", box=0, amount=100)
    return p, p.send("deal"), owners[table], table


def failover(base_url: str, kills: int, lease: float) -> dict[str, Any]:
    """Kill -9 a node holding a table a player is in the middle of, ``kills`` times: the
    seconds until the table deals again on another node (the player's socket reopened
    through the proxy and a view received), and the money check after all of them."""
    times: list[float] = []
    with fresh_database(base_url) as url:
        tables = [f"f{i}=pl-online" for i in range(1, 7)]
        cluster = Cluster(url, ["n1", "n2", "n3"], tables, lease_seconds=lease)
        try:
            cluster.start_all()
            for k in range(kills):
                p, _, victim, table = _round_in_play(cluster, k, f"killed-{k}")
                killed = time.monotonic()
                cluster.kill(victim)
                p.close()
                p.node_path = None
                p.open(timeout=60)  # retried through the proxy until a node deals it
                took = time.monotonic() - killed
                times.append(took)
                print(
                    f"  kill {k + 1}/{kills}: {victim} ({table}) back in {took:.2f} s", flush=True
                )
                p.close()
                cluster.start_node(victim)
                cluster.wait_up(victim)
            from tests.test_cluster import _money_check

            _money_check(url)
            money = "OK"
        finally:
            cluster.stop()
    return {
        "kills": kills,
        "lease_seconds": lease,
        "seconds": {
            "min": round(min(times), 2),
            "median": round(statistics.median(times), 2),
            "max": round(max(times), 2),
            "mean": round(statistics.fmean(times), 2),
        },
        "all": [round(t, 2) for t in times],
        "money_check": money,
    }


def _statuses(url: str) -> dict[str, int]:
    from sqlalchemy import create_engine, text

    engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://"))
    with engine.connect() as c:
        rows = c.execute(text("SELECT status, count(*) FROM rounds GROUP BY status")).all()
    engine.dispose()
    return {str(s): int(n) for s, n in rows}


def clean_stops(base_url: str, stops: int, lease: float) -> dict[str, Any]:
    """SIGTERM (a drain) the node dealing a round a player is in, ``stops`` times: the player
    plays the round out there, its socket is closed with 4503, and it reopens through the
    proxy; the seconds from that close to a view from the new node, and the rounds voided."""
    from websockets.exceptions import ConnectionClosed

    gaps: list[float] = []
    with fresh_database(base_url) as url:
        tables = [f"d{i}=pl-online" for i in range(1, 7)]
        cluster = Cluster(url, ["n1", "n2", "n3"], tables, lease_seconds=lease)
        try:
            cluster.start_all()
            for k in range(stops):
                p, view, victim, table = _round_in_play(cluster, k, f"drained-{k}")
                cluster.kill(victim, signal.SIGTERM)
                p.play_out(view)  # on the draining node
                assert p.ws is not None
                try:
                    while True:
                        p.ws.recv(timeout=60)
                except ConnectionClosed:
                    pass
                handed = time.monotonic()
                p.node_path = None
                p.open(timeout=60)
                gaps.append(time.monotonic() - handed)
                print(f"  stop {k + 1}/{stops}: {victim} ({table}) back in {gaps[-1]:.2f} s",
                      flush=True)  # fmt: skip
                p.close()
                cluster.procs[victim].wait(timeout=60)
                cluster.start_node(victim)
                cluster.wait_up(victim)
            from tests.test_cluster import _money_check

            _money_check(url)
            statuses = _statuses(url)
        finally:
            cluster.stop()
    return {
        "stops": stops,
        "seconds": {"median": round(statistics.median(gaps), 2), "max": round(max(gaps), 2)},
        "all": [round(t, 2) for t in gaps],
        "rounds": statuses,
        "money_check": "OK",
    }


def _local_cluster(url: str) -> Any:
    """The Debian PostgreSQL cluster on this machine that listens on ``url``'s port (it is
    the one stopped: the benchmark's own server), as tests/test_web_pg_restart.py drives
    one."""
    from tests.test_web_pg_restart import Cluster

    port = urlsplit(url).port or 5432
    try:
        listed = subprocess.run(
            ["pg_lsclusters", "-h"], capture_output=True, text=True, check=True, timeout=60
        ).stdout
    except (OSError, subprocess.CalledProcessError) as exc:
        raise SystemExit(f"--db-stop: pg_lsclusters failed ({exc}): Debian clusters only") from exc
    for line in listed.splitlines():
        version, name, listens = line.split()[:3]
        if int(listens) == port:
            return Cluster(version, name, port)
    raise SystemExit(f"--db-stop: no local Debian cluster listens on port {port} (pg_lsclusters)")


def db_outage(base_url: str, seconds: float, lease: float) -> dict[str, Any]:
    """Three nodes behind nginx, a player in a round at each of six tables; PostgreSQL is
    stopped (fast shutdown) for ``seconds`` and started again; every player then plays the
    round out. The rounds' statuses (voided: refunded) and the money check."""
    server = _local_cluster(base_url)
    with fresh_database(base_url) as url:
        tables = [f"o{i}=pl-online" for i in range(1, 7)]
        cluster = Cluster(url, ["n1", "n2", "n3"], tables, lease_seconds=lease)
        try:
            cluster.start_all()
            owners = cluster.wait_balanced(timeout=90)
            players = [_round_in_play(cluster, i, f"outage-{i}")[:2] for i in range(len(owners))]
            with server.down():
                time.sleep(seconds)
            back = time.monotonic()
            waits: list[float] = []
            for p, view in players:
                while True:
                    try:
                        p.play_out(view)
                        break
                    except RuntimeError as exc:  # "the database is unavailable: try again"
                        if "unavailable" not in str(exc) or time.monotonic() - back > 60:
                            raise
                        time.sleep(0.2)
                        view = p.view
                waits.append(time.monotonic() - back)
                p.close()
            from tests.test_cluster import _money_check

            _money_check(url)
            statuses = _statuses(url)
            moved = {t: n for t, n in cluster.owners().items() if owners.get(t) != n}
        finally:
            cluster.stop()
    print(f"  database stopped {seconds:.0f} s: rounds {statuses}, tables moved {moved}, "
          f"every round played out {max(waits):.2f} s after the restart", flush=True)  # fmt: skip
    return {
        "stopped_seconds": seconds,
        "rounds": statuses,
        "tables_moved": moved,
        "played_out_after_s": round(max(waits), 2),
        "money_check": "OK",
    }


def ledger_ceiling(base_url: str, threads: int, seconds: float) -> dict[str, Any]:
    """Where the database saturates: ``threads`` writers posting rounds with the real ledger
    (a round's start with its stake, then its settlement with a payout, as a node posts a
    round without doubles or splits, lease fence included), as fast as they can; rounds/s."""
    import threading

    from sqlalchemy import text

    from twentyone.engine.ledger import RoundMove
    from twentyone.web.cluster import Leases, NodeConfig
    from twentyone.web.ledger import Ledger
    from twentyone.web.storage.db import make_engine, migrate

    with fresh_database(base_url) as url:
        engine = make_engine(url)
        migrate(engine)
        leases = Leases(engine, NodeConfig(node_id="bench", advertise_url="http://127.0.0.1:1",
                                           lease_seconds=3600, renew_seconds=1))  # fmt: skip
        leases.register()
        counts = [0] * threads
        stop = time.monotonic() + seconds

        def writer(i: int) -> None:
            ledger = Ledger(make_engine(url), shared=True)
            ledger.fence = leases.fence
            table = f"t{i}"
            leases.acquire(table)
            with ledger.engine.begin() as c:
                c.execute(
                    text(
                        "INSERT INTO accounts (kind, username, username_key, balance, created_at)"
                        " VALUES ('player', :n, :n, 1000000000, now())"
                    ),
                    {"n": f"w{i}"},
                )
                acct = c.execute(
                    text("SELECT id FROM accounts WHERE username = :n"), {"n": f"w{i}"}
                ).scalar_one()
            while time.monotonic() < stop:
                rid = ledger.start_round(table, "6D", {}, [acct], [RoundMove(0, acct, -100)])
                ledger.settle_round(rid, [RoundMove(1, acct, 200)], {}, {}, {acct: (100, 100)})
                counts[i] += 1

        workers = [threading.Thread(target=writer, args=(i,)) for i in range(threads)]
        t0 = time.monotonic()
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        took = time.monotonic() - t0
        engine.dispose()
    return {"threads": threads, "rounds": sum(counts), "rounds_per_s": round(sum(counts) / took)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--database-url", required=True, help="a PostgreSQL URL (loopback)")
    p.add_argument("--nodes", default="1,2,3", help="node counts for the load runs")
    p.add_argument("--players", type=int, default=300)
    p.add_argument("--tables", type=int, default=60)
    p.add_argument("--seconds", type=float, default=20.0)
    p.add_argument("--kills", type=int, default=20)
    p.add_argument("--lease-seconds", type=float, default=5.0)
    p.add_argument("--skip-load", action="store_true")
    p.add_argument("--stops", type=int, default=0, help="clean stops (SIGTERM, a drain)")
    p.add_argument(
        "--db-stop",
        type=float,
        default=0.0,
        help="stop the local PostgreSQL for this many seconds under play (pg_ctlcluster, root)",
    )
    p.add_argument(
        "--ceiling", action="store_true", help="also: the database's rounds/s with the ledger alone"
    )
    p.add_argument("--json", help="write the results here too")
    args = p.parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    out: dict[str, Any] = {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "python": platform.python_version(),
        "load": [],
    }
    if not args.skip_load:
        for n in (int(x) for x in args.nodes.split(",")):
            r = load(args.database_url, n, args)
            out["load"].append(r)
            lat = r["latency_ms"]
            print(
                f"{n} node(s): {r['rounds_per_s']} rounds/s, {r['actions_per_s']} actions/s, "
                f"p50 {lat['p50']} ms, p99 {lat['p99']} ms, server CPU "
                f"{r['cpu_s_during_play']['server']} s, per round {r['db_per_round']}, "
                f"tables {r.get('tables_per_node')}, money {'OK' if r['money_ok'] else 'BAD'}",
                flush=True,
            )
    if args.ceiling:
        out["ledger_ceiling"] = [ledger_ceiling(args.database_url, t, 10.0) for t in (1, 4, 16)]
        for r in out["ledger_ceiling"]:
            print(f"ledger alone, {r['threads']} writer(s): {r['rounds_per_s']} rounds/s")
    if args.kills:
        out["failover"] = failover(args.database_url, args.kills, args.lease_seconds)
        print(f"failover: {out['failover']['seconds']}, money {out['failover']['money_check']}")
    if args.stops:
        out["clean_stops"] = clean_stops(args.database_url, args.stops, args.lease_seconds)
        print(f"clean stops: {out['clean_stops']['seconds']}, rounds "
              f"{out['clean_stops']['rounds']}")  # fmt: skip
    if args.db_stop:
        out["db_outage"] = db_outage(args.database_url, args.db_stop, args.lease_seconds)
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
