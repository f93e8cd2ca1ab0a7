"""The cluster's command-line parts: ``serve``'s node options, ``serve --workers N`` (N nodes
behind an nginx on one machine) and ``twentyone proxy-config``.

>>> import argparse
>>> p = argparse.ArgumentParser(); add_node_options(p)
>>> args = p.parse_args(["--node-id", "a"])
>>> args.database_url, args.host, args.port = "postgresql://db/t21", "10.0.0.5", 8001
>>> node_config(args)
NodeConfig(node_id='a', advertise_url='http://10.0.0.5:8001', lease_seconds=5.0, renew_seconds=1.0)
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from twentyone.web.cluster import NodeConfig

__all__ = ["add_node_options", "add_proxy_config_parser", "node_config", "run_workers"]


def add_node_options(w: argparse.ArgumentParser) -> None:
    """``serve``'s cluster options (docs/scaling.md)."""
    w.add_argument(
        "--node-id",
        default=None,
        metavar="ID",
        help="serve as one node of a cluster on a PostgreSQL database (docs/scaling.md)",
    )
    w.add_argument(
        "--advertise-url",
        default=None,
        metavar="URL",
        help="where the proxy reaches this node (default: http://HOST:PORT)",
    )
    w.add_argument(
        "--lease-seconds",
        type=float,
        default=5.0,
        help="a node's table leases expire this long after its last renewal (default 5)",
    )
    w.add_argument(
        "--workers",
        type=int,
        default=None,
        metavar="N",
        help="start N nodes on this machine behind an nginx on --port (PostgreSQL only)",
    )


def node_config(args: argparse.Namespace) -> NodeConfig | None:
    """The node this ``serve`` is, or None (not a cluster). Raises ValueError on bad input."""
    if args.node_id is None:
        if args.advertise_url is not None:
            raise ValueError(f"--advertise-url {args.advertise_url!r} needs --node-id")
        return None
    if not args.database_url.startswith("postgresql"):
        raise ValueError(
            f"--node-id {args.node_id!r} needs a PostgreSQL --database-url (got "
            f"{args.database_url!r}): SQLite has one writer, so it serves one process"
        )
    from twentyone.web.cluster import NodeConfig

    url = args.advertise_url or f"http://{args.host}:{args.port}"
    renew = min(1.0, args.lease_seconds / 5)
    return NodeConfig(
        node_id=args.node_id,
        advertise_url=url,
        lease_seconds=args.lease_seconds,
        renew_seconds=renew,
    )


def _drop_options(argv: Sequence[str], names: Sequence[str]) -> list[str]:
    """``argv`` without the options ``names`` (``--x V`` and ``--x=V`` forms)."""
    out: list[str] = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
            continue
        if arg in names:
            skip = True
            continue
        if any(arg.startswith(n + "=") for n in names):
            continue
        out.append(arg)
    return out


def _port_free(host: str, port: int) -> bool:
    """Whether ``host:port`` can be listened on as the nodes and nginx do (SO_REUSEADDR:
    a port a stopped cluster left in TIME_WAIT is free again at once)."""
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError:
            return False
    return True


def _die_with_parent() -> None:  # pragma: no cover - runs in the child, before exec
    """In a child of ``serve --workers``: receive SIGTERM when the supervisor dies, however
    it dies (Linux's parent-death signal), so no node or nginx outlives it."""
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


class _Restarts:
    """When a child that stopped may start again: at once the first time, then after a
    pause that doubles (0.5 s up to 30 s), back to none once it has stayed up a minute.

    >>> r = _Restarts()
    >>> [r.pause_after(stopped=10.0, started=9.0) for _ in range(8)]
    [0.0, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 30.0]
    >>> r.pause_after(stopped=100.0, started=30.0)  # up for over a minute: forgiven
    0.0
    """

    def __init__(self) -> None:
        self.failures = 0

    def pause_after(self, *, stopped: float, started: float) -> float:
        if stopped - started >= 60.0:
            self.failures = 0
        pause = 0.0 if self.failures == 0 else min(30.0, 0.5 * 2 ** (self.failures - 1))
        self.failures += 1
        return pause


def run_workers(args: argparse.Namespace, argv: Sequence[str]) -> int:
    """``serve --workers N``: N nodes on ports PORT+1 … PORT+N of 127.0.0.1, an nginx on
    HOST:PORT in front of them, all stopped together (a node that dies is started again)."""
    from twentyone.web.proxy_config import nginx_main

    n = args.workers
    if not 1 <= n <= 64:
        print(f"twentyone: error: --workers {n}: expected 1 to 64", file=sys.stderr)
        return 2
    if not args.database_url.startswith("postgresql"):
        print(
            f"twentyone: error: --workers {n} needs a PostgreSQL --database-url (got "
            f"{args.database_url!r}): SQLite has one writer, so it serves one process",
            file=sys.stderr,
        )
        return 2
    nginx_bin = shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if os.path.exists(p)), None
    )
    if nginx_bin is None:
        print(
            "twentyone: error: --workers needs nginx in front of the nodes "
            "(Debian: apt-get install nginx-light)",
            file=sys.stderr,
        )
        return 2
    ports = [args.port + i for i in range(1, n + 1)]
    for port in (args.port, *ports):
        if not _port_free(args.host if port == args.port else "127.0.0.1", port):
            print(f"twentyone: error: port {port} is in use", file=sys.stderr)
            return 2
    base = _drop_options(argv, ["--workers", "--port", "--host", "--node-id", "--advertise-url"])
    base = [a for a in base if a != "serve"]
    nodes = [(f"w{i + 1}", f"http://127.0.0.1:{p}") for i, p in enumerate(ports)]

    def start(i: int) -> subprocess.Popen[bytes]:
        node_id, url = nodes[i]
        cmd = [sys.executable, "-m", "twentyone", "serve", *base, "--host", "127.0.0.1"]
        cmd += ["--port", str(ports[i]), "--node-id", node_id, "--advertise-url", url]
        cmd += ["--forwarded-allow-ips", "127.0.0.1"]
        return subprocess.Popen(cmd, preexec_fn=_die_with_parent)

    workdir = tempfile.mkdtemp(prefix="twentyone-nginx-")
    conf = os.path.join(workdir, "nginx.conf")
    with open(conf, "w", encoding="utf-8") as f:
        f.write(nginx_main(nodes, listen=f"{args.host}:{args.port}", workdir=workdir))

    # the nodes' own login throttles (--login-limits, per node) stay; the proxy adds one per
    # address for the whole machine
    def start_proxy() -> subprocess.Popen[bytes]:
        # its own process group: a master that died leaves workers holding the port, and
        # they go with the group before a new nginx starts
        return subprocess.Popen(
            [nginx_bin, "-p", workdir, "-c", conf], preexec_fn=_die_with_parent, process_group=0
        )

    children = [start(i) for i in range(n)]
    proxy = start_proxy()
    started = [time.monotonic()] * (n + 1)  # the nodes', then nginx's
    restarts = [_Restarts() for _ in range(n + 1)]
    due: dict[int, float] = {}  # a child that stopped: when it may start again
    stopping = False

    def stop(_sig: int, _frame: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    print(
        f"twentyone: serving on http://{args.host}:{args.port}/ "
        f"({n} nodes on ports {ports[0]}-{ports[-1]} behind nginx)",
        flush=True,
    )
    try:
        while not stopping:
            time.sleep(0.25)
            now = time.monotonic()
            for i, proc in enumerate([*children, proxy]):
                name = "nginx" if i == n else f"node {nodes[i][0]}"
                if proc.poll() is not None and i not in due and not stopping:
                    pause = restarts[i].pause_after(stopped=now, started=started[i])
                    due[i] = now + pause
                    print(f"twentyone: {name} stopped; starting it again in {pause:g} s",
                          flush=True)  # fmt: skip
                if i in due and now >= due[i] and not stopping:
                    del due[i]
                    started[i] = now
                    if i == n:
                        with contextlib.suppress(OSError):
                            os.killpg(proxy.pid, signal.SIGKILL)  # its orphaned workers
                        proxy = start_proxy()
                    else:
                        children[i] = start(i)
    finally:
        for proc in (*children, proxy):
            if proc.poll() is None:
                proc.terminate()
        for proc in (*children, proxy):
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=10)
            if proc.poll() is None:
                proc.kill()
        shutil.rmtree(workdir, ignore_errors=True)
    return 0


def add_proxy_config_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``twentyone proxy-config``."""
    x = sub.add_parser(
        "proxy-config", help="the nginx or HAProxy configuration for a cluster's nodes"
    )
    x.add_argument("--database-url", required=True, help="the cluster's PostgreSQL URL")
    x.add_argument("--format", choices=("nginx", "haproxy"), default="nginx")
    x.add_argument("--listen", default="8080", help="the proxy's port (or ADDRESS:PORT)")
    x.add_argument(
        "--login-rate",
        default="30r/m",
        help="nginx: logins and registrations per client address, whole cluster (default 30r/m)",
    )
    x.add_argument(
        "--watch",
        action="store_true",
        help="keep running: rewrite --output and run --reload whenever the set of nodes changes",
    )
    x.add_argument("--output", help="--watch: the configuration file to write")
    x.add_argument(
        "--reload",
        metavar="COMMAND",
        help="--watch: run after each rewrite, e.g. 'nginx -s reload' or "
        "'systemctl reload haproxy'",
    )
    x.add_argument(
        "--interval", type=float, default=1.0, help="--watch: seconds between looks (default 1)"
    )
    x.add_argument(
        "--prune-after",
        type=float,
        default=300.0,
        metavar="SECONDS",
        help="--watch: forget nodes whose heartbeat is older than this (default 300)",
    )
    x.set_defaults(func=_cmd_proxy_config)


def _cmd_proxy_config(args: argparse.Namespace) -> int:
    from sqlalchemy.exc import DBAPIError

    from twentyone.web.cluster import nodes_of
    from twentyone.web.proxy_config import haproxy, nginx
    from twentyone.web.storage.db import make_engine

    if not args.database_url.startswith("postgresql"):
        print(
            f"twentyone: error: --database-url {args.database_url!r}: a cluster's database "
            "is PostgreSQL",
            file=sys.stderr,
        )
        return 2
    if args.watch:
        return _watch(args)
    engine = make_engine(args.database_url)
    try:
        nodes = nodes_of(engine)
    except DBAPIError as exc:
        reason = str(exc.orig).strip().splitlines()[0] if exc.orig else str(exc)
        print(f"twentyone: error: cannot read the nodes: {reason}", file=sys.stderr)
        return 2
    finally:
        engine.dispose()
    try:
        if args.format == "nginx":
            text = nginx(nodes, listen=args.listen, login_rate=args.login_rate)
        else:
            text = haproxy(nodes, listen=args.listen)
    except ValueError as exc:
        print(f"twentyone: error: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(text)
    return 0


def _config_text(args: argparse.Namespace, nodes: Sequence[tuple[str, str]]) -> str:
    from twentyone.web.proxy_config import haproxy, nginx

    if args.format == "nginx":
        return nginx(nodes, listen=args.listen, login_rate=args.login_rate)
    return haproxy(nodes, listen=args.listen)


def _watch(args: argparse.Namespace) -> int:
    """``proxy-config --watch``: look at the nodes every ``--interval`` seconds, forget the
    ones gone for ``--prune-after`` seconds, and when the set changes write ``--output``
    (atomically) and run ``--reload``; until SIGTERM or SIGINT."""
    import shlex

    from sqlalchemy.exc import DBAPIError

    from twentyone.web.cluster import nodes_of, prune_nodes
    from twentyone.web.storage.db import make_engine

    if not args.output:
        print("twentyone: error: --watch needs --output FILE", file=sys.stderr)
        return 2
    if not args.interval > 0 or not args.prune_after > 0:
        print("twentyone: error: --interval and --prune-after: expected seconds above 0",
              file=sys.stderr)  # fmt: skip
        return 2
    try:  # the options are checked now, not at the first change
        _config_text(args, [("check", "http://127.0.0.1:1")])
    except ValueError as exc:
        print(f"twentyone: error: {exc}", file=sys.stderr)
        return 2
    stopping = False

    def stop(_sig: int, _frame: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    engine = make_engine(args.database_url)
    written: str | None = None
    try:
        with contextlib.suppress(OSError), open(args.output, encoding="utf-8") as f:
            written = f.read()
        while not stopping:
            try:
                pruned = prune_nodes(engine, args.prune_after)
                nodes = nodes_of(engine)
            except DBAPIError as exc:  # the database is away: keep the last configuration
                print(f"twentyone: proxy-config: cannot read the nodes: {exc.orig}", flush=True)
                time.sleep(args.interval)
                continue
            for node in pruned:
                print(f"twentyone: proxy-config: node {node} pruned", flush=True)
            if nodes:
                text = _config_text(args, nodes)
                if text != written:
                    tmp = f"{args.output}.tmp"
                    with open(tmp, "w", encoding="utf-8") as f:
                        f.write(text)
                    os.replace(tmp, args.output)
                    written = text
                    names = ", ".join(n for n, _ in nodes)
                    print(f"twentyone: proxy-config: wrote {args.output} ({names})", flush=True)
                    if args.reload:
                        done = subprocess.run(shlex.split(args.reload), check=False)
                        if done.returncode != 0:
                            print(f"twentyone: proxy-config: {args.reload!r} exited with "
                                  f"{done.returncode}", file=sys.stderr, flush=True)  # fmt: skip
            time.sleep(args.interval)
    finally:
        engine.dispose()
    return 0
