"""``twentyone serve``: its options, and the checks it makes before it says where it serves.

The port is checked (1 to 65535) and bound, and the database opened (and migrated), before
the ``serving on`` line: a busy port or an unreachable database is one line on standard error
and exit status 2, never a traceback after a promise.
"""

from __future__ import annotations

import argparse
import contextlib
import socket
import sys
from typing import Any

from twentyone.web import cluster_cli


def add_serve_parser(sub: Any) -> None:
    """The ``serve`` subcommand and its options."""
    w = sub.add_parser("serve", help="serve the web table (page, JSON API, WebSocket)")
    w.add_argument("--host", default="127.0.0.1", help="address to bind")
    w.add_argument("--port", type=int, default=8000, help="port to bind")
    w.add_argument(
        "--database-url",
        default="sqlite:///twentyone.db",
        help="sqlite:///file.db (default ./twentyone.db) or postgresql://user:pass@host/db",
    )
    w.add_argument(
        "--table",
        action="append",
        metavar="ID=RULES",
        help="a table of the lobby (repeatable; default: one per preset)",
    )
    w.add_argument(
        "--starting-balance", type=int, default=100_000, help="a new wallet, in minor units"
    )
    w.add_argument("--secure-cookies", action="store_true", help="mark cookies Secure (HTTPS)")
    w.add_argument(
        "--provable",
        action="append",
        metavar="ID",
        help="deal this table from a provably fair shoe (repeatable; docs/web.md)",
    )
    w.add_argument(
        "--chart-hints",
        action="store_true",
        help="the page's hint is the basic-strategy chart's move (default: the exact best "
        "play for the cards the players know, worked out off the event loop)",
    )
    # the exact hint was opt-in before it became the default: still accepted, changes nothing
    w.add_argument("--exact-hints", action="store_true", help=argparse.SUPPRESS)
    _add_guard_options(w)
    cluster_cli.add_node_options(w)
    w.set_defaults(func=_cmd_serve)


def _cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from twentyone.web.cluster_cli import node_config, run_workers

    if not 1 <= args.port <= 65535:
        print(
            f"twentyone: error: --port {args.port}: expected a port from 1 to 65535",
            file=sys.stderr,
        )
        return 2
    if args.workers is not None:
        return run_workers(args, sys.argv[1:])
    if args.pg_synchronous_commit == "off" and not args.database_url.startswith("postgres"):
        print(
            "twentyone: error: --pg-synchronous-commit off needs a PostgreSQL --database-url "
            f"(got {args.database_url!r}): SQLite's commits do not wait for the disk already "
            "(synchronous=NORMAL)",
            file=sys.stderr,
        )
        return 2
    try:
        node = node_config(args)
    except ValueError as exc:
        print(f"twentyone: error: {exc}", file=sys.stderr)
        return 2

    from twentyone.i18n import RULEBOOK_LANGUAGES
    from twentyone.web import gc_tuning
    from twentyone.web.app import create_app, default_tables
    from twentyone.web.drain import DrainingServer
    from twentyone.web.tables import TableConfig
    from twentyone.web.ws_limits import SocketLimits

    tables = None
    if args.table:
        tables = []
        for spec in args.table:
            table_id, sep, rules = spec.partition("=")
            if not sep or not table_id or not rules:
                print(f"twentyone: error: --table {spec!r}: expected ID=RULES", file=sys.stderr)
                return 2
            language = RULEBOOK_LANGUAGES.get(rules)  # a preset speaks its rulebook's
            shuffle = "provable" if table_id in (args.provable or ()) else "secure"
            tables.append(TableConfig(id=table_id, rules=rules, language=language, shuffle=shuffle))
    if args.provable and not args.table:
        tables = [
            TableConfig(
                id=t.id,
                rules=t.rules,
                language=t.language,
                shuffle="provable" if t.id in args.provable else "secure",
            )
            for t in default_tables()
        ]
    known = {t.id for t in tables} if tables is not None else set()
    unknown = sorted(set(args.provable or ()) - known)
    if unknown:
        print(f"twentyone: error: --provable {unknown[0]!r}: no such table", file=sys.stderr)
        return 2
    try:
        sockets = SocketLimits(
            max_message_bytes=args.max_message_bytes,
            rate=args.messages_per_second,
            burst=args.message_burst,
            max_sockets_per_table=args.max_sockets_per_table,
            idle_seconds=args.idle_seconds,
        )
    except ValueError as exc:
        print(f"twentyone: error: {exc}", file=sys.stderr)
        return 2
    sock = _listen(args.host, args.port)
    if sock is None:
        return 2
    try:
        app = _app_on_database(create_app, args, tables, sockets, node)
    except _DatabaseError as exc:
        sock.close()
        print(f"twentyone: error: {exc}", file=sys.stderr)
        return 2
    gc_tuning.tune_for_serving()
    if args.metrics_port is not None:
        from prometheus_client import start_http_server

        try:  # their own address: never the players' port
            start_http_server(
                args.metrics_port, args.metrics_host, registry=app.state.metrics.registry
            )
        except OSError as exc:
            sock.close()
            where = f"{args.metrics_host}:{args.metrics_port}"
            print(f"twentyone: error: --metrics-port: cannot listen on {where}: {exc.strerror}",
                  file=sys.stderr)  # fmt: skip
            return 2
        print(f"twentyone: metrics on http://{args.metrics_host}:{args.metrics_port}/metrics")
    print(f"twentyone: serving on http://{_shown_host(args.host)}:{args.port}/", flush=True)
    config = uvicorn.Config(
        app,
        log_level="warning",
        ws_max_size=args.max_message_bytes,
        proxy_headers=args.forwarded_allow_ips is not None,
        forwarded_allow_ips=args.forwarded_allow_ips or "",
    )
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C: shut down, then re-raised
        DrainingServer(config, app, args.drain_seconds).run(sockets=[sock])
    return 0


class _DatabaseError(Exception):
    """``serve``: the database of ``--database-url`` cannot be opened (the message says why)."""


def _app_on_database(
    create_app: Any, args: argparse.Namespace, tables: Any, sockets: Any, node: Any
) -> Any:
    """The app, or :class:`_DatabaseError` naming the URL (password hidden) and the reason."""
    from sqlalchemy.exc import SQLAlchemyError

    from twentyone.web import gc_tuning, guard

    try:
        return create_app(
            args.database_url,
            tables=tables,
            starting_balance=args.starting_balance,
            secure_cookies=args.secure_cookies,
            after_analysis=gc_tuning.settle,
            max_body_bytes=args.max_body_bytes,
            login_limits=args.login_limits or guard.LOGIN_LIMITS,
            address_login_limits=args.address_login_limits or guard.ADDRESS_LOGIN_LIMITS,
            register_limits=args.register_limits or guard.REGISTER_LIMITS,
            socket_limits=sockets,
            chart_hints=args.chart_hints,
            node=node,
            metrics=args.metrics_port is not None,
            db_pool_size=args.db_pool_size,
            table_threads=args.table_threads,
            db_max_overflow=args.db_max_overflow,
            pg_synchronous_commit=args.pg_synchronous_commit == "on",
        )
    except (SQLAlchemyError, ImportError, OSError) as exc:
        why = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]
        url = _hide_password(args.database_url)
        raise _DatabaseError(f"--database-url {url}: cannot open the database: {why}") from exc


def _hide_password(url: str) -> str:
    """The URL with its password as ``***`` (it is printed)."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        return make_url(url).render_as_string(hide_password=True)
    except (ArgumentError, ValueError):
        return url.split("@")[-1] if "@" in url else url


def _shown_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def _listen(host: str, port: int) -> socket.socket | None:
    """A socket bound to ``host:port`` and listening (uvicorn serves on it), or ``None``
    after saying on standard error why it cannot be (a busy port, an unknown address)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        family, kind, proto, _, address = infos[0]
        sock = socket.socket(family, kind, proto)
    except OSError as exc:
        print(f"twentyone: error: --host {host}: {exc.strerror or exc}", file=sys.stderr)
        return None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(2048)
    except OSError as exc:
        sock.close()
        print(
            f"twentyone: error: cannot listen on {host}:{port}: {exc.strerror or exc}",
            file=sys.stderr,
        )
        return None
    sock.set_inheritable(True)
    return sock


def _add_guard_options(w: argparse.ArgumentParser) -> None:
    """``serve``'s limits (docs/web.md, "Limits")."""
    from twentyone.web import guard
    from twentyone.web.ws_limits import SocketLimits

    w.add_argument(
        "--forwarded-allow-ips",
        default=None,
        metavar="IPS",
        help="trust X-Forwarded-For from these proxy addresses (comma-separated, as uvicorn's)",
    )
    w.add_argument(
        "--max-body-bytes",
        type=int,
        default=guard.MAX_BODY_BYTES,
        help="request bodies over this get 413",
    )
    w.add_argument(
        "--login-limits",
        action="append",
        metavar="N per PERIOD",
        help=f"login failures per username at one address (default: {guard.LOGIN_LIMITS})",
    )
    w.add_argument(
        "--address-login-limits",
        action="append",
        metavar="N per PERIOD",
        help="login failures per address, whatever the usernames "
        f"(default: {guard.ADDRESS_LOGIN_LIMITS})",
    )
    w.add_argument(
        "--register-limits",
        action="append",
        metavar="N per PERIOD",
        help=f"registrations per address (default: {guard.REGISTER_LIMITS})",
    )
    sockets = SocketLimits()
    w.add_argument(
        "--max-message-bytes",
        type=int,
        default=sockets.max_message_bytes,
        help="a WebSocket frame over this closes the socket with 1009",
    )
    w.add_argument(
        "--messages-per-second",
        type=float,
        default=sockets.rate,
        help="a socket's token bucket rate (over it: an error; kept up 2 s: closed with 1008)",
    )
    w.add_argument(
        "--message-burst", type=int, default=sockets.burst, help="the token bucket's size"
    )
    w.add_argument(
        "--max-sockets-per-table",
        type=int,
        default=sockets.max_sockets_per_table,
        help="sockets one account may open at one table (the next is refused with 1008)",
    )
    w.add_argument(
        "--idle-seconds",
        type=float,
        default=sockets.idle_seconds,
        help="a silent socket is closed, and an idle player stood up, after this long",
    )
    w.add_argument(
        "--db-pool-size",
        type=int,
        default=5,
        help="PostgreSQL: connections a node keeps open (default 5; docs/operations.md)",
    )
    w.add_argument(
        "--db-max-overflow",
        type=int,
        default=10,
        help="PostgreSQL: connections a node may open beyond them at busy times (default 10)",
    )
    w.add_argument(
        "--table-threads",
        type=int,
        default=None,
        help="worker threads the tables' work and commits run in, off the event loop (0: on "
        "the loop; default: --db-pool-size plus --db-max-overflow on PostgreSQL, 0 on SQLite)",
    )
    w.add_argument(
        "--pg-synchronous-commit",
        choices=("on", "off"),
        default="on",
        help="PostgreSQL: off: a round's commits do not wait for the WAL's flush to disk "
        "(faster; a PostgreSQL crash or power loss may lose the last rounds' commits, up to "
        "about 3 x wal_writer_delay; docs/operations.md) (default: on)",
    )
    w.add_argument(
        "--drain-seconds",
        type=float,
        default=30.0,
        help="on SIGTERM: no new rounds, and the open ones get this long to finish before the "
        "tables are handed over (default 30)",
    )
    w.add_argument(
        "--metrics-port",
        type=int,
        default=None,
        metavar="PORT",
        help="serve Prometheus metrics on this port, apart from the players' (default: off)",
    )
    w.add_argument(
        "--metrics-host",
        default="127.0.0.1",
        help="the metrics' address (default: 127.0.0.1, this machine only)",
    )
    w.set_defaults(login_limits=None, register_limits=None, address_login_limits=None)
