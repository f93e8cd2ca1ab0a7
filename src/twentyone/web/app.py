"""The FastAPI app: JSON API, table WebSockets and the page, on SQLite or PostgreSQL.

>>> from twentyone.web.app import default_tables
>>> [t.id for t in default_tables()]
['ro-casino', 'pl-online', 'pt-casino', 'hu-casino', 'ru-online']
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Annotated, Any

from argon2 import PasswordHasher
from fastapi import Depends, FastAPI, Query, Request, status
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import DBAPIError

from twentyone.engine.ledger import LedgerUnavailableError
from twentyone.engine.provable import ProvableShoe
from twentyone.engine.rules import Rules
from twentyone.engine.rulesets import PRESETS, load_rules
from twentyone.engine.session_parts import is_multi_player
from twentyone.engine.shoe import CardSource, Shoe
from twentyone.i18n import LANGUAGES, N_, RULEBOOK_LANGUAGES
from twentyone.web import auth, health, languages, openapi, train, ws
from twentyone.web.advice import Advice, edge_text
from twentyone.web.auth import Auth, current_player
from twentyone.web.cluster import Leases, NodeConfig
from twentyone.web.guard import (
    ADDRESS_LOGIN_LIMITS,
    LOGIN_LIMITS,
    MAX_BODY_BYTES,
    REGISTER_LIMITS,
    BodyLimit,
    SecurityHeaders,
)
from twentyone.web.ledger import Ledger
from twentyone.web.metrics import Metrics
from twentyone.web.node import ClusterNode
from twentyone.web.recall import decision_steps, private_replay
from twentyone.web.refusal import UNAVAILABLE, Refusal
from twentyone.web.schemas import Limits, RoundRecord, RuleSection, Stats, TableOut
from twentyone.web.storage.accounts import Accounts, Player
from twentyone.web.storage.checkpoints import BackgroundCheckpoints
from twentyone.web.storage.db import (
    DEFAULT_DATABASE_URL,
    MAX_OVERFLOW,
    POOL_SIZE,
    make_engine,
    migrate,
    normalize_url,
)
from twentyone.web.storage.provable import ProvableStore, revealed_shoes
from twentyone.web.storage.seats import SeatClaims
from twentyone.web.table_workers import TableWorkers
from twentyone.web.tables import Clock, LiveTable, TableConfig, rules_house, table_house
from twentyone.web.views import side_bets_info
from twentyone.web.ws import Hub
from twentyone.web.ws_limits import SocketLimits, clip

STATIC = Path(__file__).with_name("static")
ShoeFactory = Callable[[TableConfig, Rules], CardSource]
STARTING_BALANCE = 100_000


def default_tables() -> list[TableConfig]:
    """One table per preset, named after it, speaking its rulebook's language by default."""
    return [
        TableConfig(id=name, rules=name, language=RULEBOOK_LANGUAGES.get(name)) for name in PRESETS
    ]


def _default_shoe(config: TableConfig, rules: Rules) -> CardSource:
    if config.shuffle == "provable":
        return ProvableShoe(
            decks=rules.decks,
            shuffle=rules.shuffle,
            penetration=rules.penetration,
            deck=rules.deck,
        )
    return Shoe.for_rules(rules)


def create_app(
    database_url: str = DEFAULT_DATABASE_URL,
    *,
    tables: Sequence[TableConfig] | None = None,
    clock: Clock = time.time,
    shoe_factory: ShoeFactory = _default_shoe,
    starting_balance: int = STARTING_BALANCE,
    password_hasher: PasswordHasher | None = None,
    analysis: bool = True,
    secure_cookies: bool = False,
    tick_interval: float = 0.05,
    after_analysis: Callable[[], object] | None = None,
    max_body_bytes: int = MAX_BODY_BYTES,
    login_limits: Sequence[str] = LOGIN_LIMITS,
    register_limits: Sequence[str] = REGISTER_LIMITS,
    address_login_limits: Sequence[str] = ADDRESS_LOGIN_LIMITS,
    socket_limits: SocketLimits | None = None,
    chart_hints: bool = False,
    node: NodeConfig | None = None,
    metrics: bool = False,
    db_pool_size: int = POOL_SIZE,
    db_max_overflow: int = MAX_OVERFLOW,
    table_threads: int | None = None,
    pg_synchronous_commit: bool = True,
) -> FastAPI:
    """Build the app on a database (migrated on the spot; rounds a previous run left open
    are refunded, see docs/web.md).

    ``tables`` configures the lobby (default: one table per preset); ``clock`` (epoch
    seconds) drives countdowns and decision clocks; ``shoe_factory`` makes each table's
    shoe (tests stack them); ``analysis=False`` skips the house edge and basic strategy;
    ``after_analysis`` is called (in the analysis's thread) once it has finished.
    ``max_body_bytes``, ``login_limits`` (failures per name at an address),
    ``address_login_limits`` (failures per address) and ``register_limits`` are the guards of
    :mod:`twentyone.web.guard` (bodies over the bound get 413; throttled logins and
    registrations 429 with ``Retry-After``, counted in the database for every node);
    ``socket_limits`` those of the table WebSocket
    (:class:`~twentyone.web.ws_limits.SocketLimits`). The page's hint is the exact
    best play for the cards the players know (``twentyone advise``'s returns on the shoe less
    the cards seen since a cut-card shoe's shuffle, :mod:`twentyone.web.hint_worker`), worked
    out off the event loop; ``chart_hints``: the basic-strategy chart's move instead. The
    decision clock plays the chart either way.
    ``node``: this process is one node of a cluster on a PostgreSQL database; it deals only
    the tables it holds a lease on (:mod:`twentyone.web.cluster`, docs/scaling.md).
    ``metrics``: count what :mod:`twentyone.web.metrics` describes (``app.state.metrics``;
    ``twentyone serve --metrics-port`` serves them on their own address). ``/healthz`` and
    ``/readyz`` are always there (:mod:`twentyone.web.health`). ``db_pool_size`` and
    ``db_max_overflow``: the PostgreSQL connections kept and added at busy times.
    ``table_threads``: the worker threads the tables' work (the engine and the ledger's
    commits) runs in, one piece at a time per table, so no commit blocks the event loop
    (:mod:`twentyone.web.table_workers`); 0 runs it on the event loop; None (the default)
    chooses: ``db_pool_size + db_max_overflow`` threads on PostgreSQL (its commits wait on the
    network and a flush to disk), 0 on SQLite (its commits take less than the hop to a thread).
    ``pg_synchronous_commit=False`` (PostgreSQL only): the round transactions' commits do not
    wait for the WAL's flush to disk (docs/operations.md, "Durability of the round commits").
    """
    if table_threads is not None and table_threads < 0:
        raise ValueError(f"table_threads {table_threads!r}: expected 0 or more")
    if not pg_synchronous_commit and not normalize_url(database_url).startswith("postgresql"):
        raise ValueError(
            "pg_synchronous_commit off needs a PostgreSQL database (SQLite's commits do not "
            "wait for the disk already: synchronous=NORMAL)"
        )
    engine = make_engine(
        database_url,
        background_checkpoints=True,
        pool_size=db_pool_size,
        max_overflow=db_max_overflow,
    )
    checkpoints = BackgroundCheckpoints(engine)
    migrate(engine)
    ledger = Ledger(engine, shared=node is not None, synchronous_commit=pg_synchronous_commit)
    leases = Leases(engine, node) if node is not None else None
    # a cluster node refunds a table's open rounds when it takes the table, not all at start
    refunded = ledger.refund_open_rounds() if leases is None else []
    accounts = Accounts(ledger, starting_balance)

    def analysed() -> None:
        # the analysis's tables live as long as the process: out of the collector's way
        # (a full collection would walk them all, many times a minute under load)
        gc.freeze()
        if after_analysis is not None:
            after_analysis()

    advice = Advice(enabled=analysis, on_done=analysed, chart_hints=chart_hints)
    configs: dict[str, TableConfig] = {}
    rules_of: dict[str, Rules] = {}
    for config in tables if tables is not None else default_tables():
        if config.id in configs:
            raise ValueError(f"table id {config.id!r} is used twice")
        if config.language is not None and config.language not in LANGUAGES:
            raise ValueError(f"table {config.id!r}: language {config.language!r} is not one of "
                             + ", ".join(LANGUAGES))  # fmt: skip
        if config.shuffle not in ("secure", "provable"):
            raise ValueError(
                f"table {config.id!r}: shuffle {config.shuffle!r}: expected 'secure' or 'provable'"
            )
        configs[config.id] = config
        rules_of[config.id] = load_rules(config.rules)

    # every rule set is the analysis's before it starts (a cluster node makes its tables
    # later, as it takes their leases: they find their chart and hints there)
    for rules in rules_of.values():
        advice.default_action(rules)
        advice.exact_hints(rules)

    claims = SeatClaims(engine)  # one table at a time per account, on every node

    def make_shoe(config: TableConfig, rules: Rules) -> CardSource:
        shoe = shoe_factory(config, rules)
        if isinstance(shoe, ProvableShoe):  # its shoes kept in the database as they happen
            store = ProvableStore(engine, config.id, rules.decks)
            shoe.attach(store, store.adopt())
        return shoe

    def make_live(config: TableConfig) -> LiveTable:
        rules = rules_of[config.id]
        return LiveTable(
            config,
            rules,
            ledger=ledger,
            shoe=make_shoe(config, rules),
            clock=clock,
            default_action=advice.default_action(rules),
            idle_seconds=(socket_limits or SocketLimits()).idle_seconds,
            exact_hints=advice.exact_hints(rules),
            claims=claims,
        )

    live = {} if leases is not None else {t: make_live(c) for t, c in configs.items()}
    if table_threads is None:
        # as many as the node's connections (no thread waits for one beyond the pool's
        # bound), not only the pool's kept ones: most of a table's work needs none, and a
        # thread waiting for the round connection must not hold up the other tables' work
        sqlite = engine.dialect.name == "sqlite"
        table_threads = 0 if sqlite else db_pool_size + db_max_overflow
    workers = TableWorkers(table_threads) if table_threads else None
    hub = Hub(live, ledger, clock, tick_interval, socket_limits, workers=workers)
    meters = Metrics() if metrics else None
    hub.metrics = ledger.metrics = meters
    cluster = None
    if leases is not None:
        cluster = ClusterNode(
            leases, hub, configs, make_live, ledger, live_sessions=accounts.live_sessions
        )

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        gc.freeze()  # what the app was built with lives as long as it: not collected again
        advice.start()
        checkpoints.start()
        ticker = asyncio.create_task(hub.ticker())
        node_loop = asyncio.create_task(cluster.run()) if cluster is not None else None
        try:
            yield
        finally:
            for task in (ticker, node_loop):
                if task is not None:
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task
            if leases is not None:
                with contextlib.suppress(DBAPIError):
                    leases.release_all()
            if workers is not None:
                workers.close()
            advice.stop()
            checkpoints.stop()
            ledger.close()
            engine.dispose()

    app = FastAPI(
        title="twentyone",
        summary="Blackjack tables in the browser: accounts, a ledger, live tables.",
        description="The JSON API of the web table. The table WebSocket is described in "
        "docs/protocol.md.",
        lifespan=lifespan,
    )
    app.state.ledger = ledger
    app.state.accounts = accounts
    app.state.auth = Auth(
        accounts,
        password_hasher,
        secure=secure_cookies,
        login_limits=login_limits,
        register_limits=register_limits,
        address_login_limits=address_login_limits,
        engine=engine,
    )
    app.add_middleware(SecurityHeaders, hsts=secure_cookies)
    app.add_middleware(BodyLimit, max_bytes=max_body_bytes)
    app.state.hub = hub
    app.state.configs = configs
    app.state.rules_of = rules_of
    app.state.cluster = cluster
    app.state.advice = advice
    app.state.engine = engine
    app.state.refunded_at_start = refunded
    app.state.leases = leases
    app.state.draining = False
    app.state.metrics = meters
    if meters is not None:
        meters.watch(
            sockets=lambda: sum(len(c) for c in hub.connections.values()),
            tables=lambda: len(hub.tables),
            leases=(lambda: len(leases.held)) if leases is not None else None,
            draining=lambda: float(bool(app.state.draining)),
        )

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        parts = []
        for err in exc.errors():
            where = ".".join(str(p) for p in err.get("loc", ()) if p != "body")
            parts.append(f"{where}: {err.get('msg', 'invalid')}")
        return JSONResponse({"detail": "; ".join(parts)}, status_code=400)

    @app.exception_handler(DBAPIError)
    @app.exception_handler(sqlite3.DatabaseError)
    @app.exception_handler(LedgerUnavailableError)
    async def _unavailable(_request: Request, exc: Exception) -> JSONResponse:
        refusal = Refusal(503, UNAVAILABLE, counted="seconds", seconds=5)
        return JSONResponse(refusal.body(), status_code=503, headers={"Retry-After": "5"})

    @app.exception_handler(Refusal)
    async def _refused(_request: Request, exc: Refusal) -> JSONResponse:
        return JSONResponse(exc.body(), status_code=exc.status_code, headers=exc.headers)

    openapi.install(app)
    health.install(app)
    app.include_router(auth.router)
    app.include_router(languages.router)
    app.include_router(ws.router)
    app.include_router(train.router)
    _add_lobby(app)
    _add_page(app)
    return app


@functools.lru_cache(maxsize=256)
def _rule_card(rules: Rules, lang: str) -> str:
    from twentyone.rulecard import rule_card

    return rule_card(rules, lang)


@functools.lru_cache(maxsize=256)
def _rule_sections(rules: Rules, lang: str) -> tuple[RuleSection, ...]:
    from twentyone.rulecard import rule_card_sections

    return tuple(
        RuleSection(title=title, lines=lines) for title, lines in rule_card_sections(rules, lang)
    )


def _table_out(table: LiveTable, advice: Advice, lang: str | None = None) -> TableOut:
    return _out(
        table.config,
        table.rules,
        advice,
        lang,
        free_boxes=table.free_boxes(),
        players=list(table.seats),
        multi_player=table.multi_player,
        default_action=table.default_action.name,
    )


def _out(
    config: TableConfig,
    rules: Rules,
    advice: Advice,
    lang: str | None,
    *,
    free_boxes: int,
    players: list[str],
    multi_player: bool,
    default_action: str,
    node: str | None = None,
) -> TableOut:
    edge = advice.house_edge(rules)
    name, country = table_house(config)
    card_lang = lang or config.language or "en"
    return TableOut(
        id=config.id,
        name=name,
        country=country,
        house=rules_house(config),
        rules=rules.name,
        rule_card=_rule_card(rules, card_lang),
        rule_sections=list(_rule_sections(rules, card_lang)),
        limits=Limits(min=rules.table_min, max=rules.table_max),
        boxes=rules.table_boxes,
        boxes_per_player=rules.boxes_per_player,
        free_boxes=free_boxes,
        players=players,
        multi_player=multi_player,
        side_bets=side_bets_info(rules),
        house_edge=edge,
        house_edge_text=edge_text(edge),
        default_action=default_action,
        countdown_seconds=config.countdown_seconds if multi_player else None,
        decision_seconds=config.decision_seconds,
        language=config.language,
        node=node,
    )


def _lobby(state: Any, lang: str | None) -> list[TableOut]:
    """Every table: those dealt here from the table itself; on a cluster node, the others
    from their lease's summary (what their node last published, within a second)."""
    cluster: ClusterNode | None = state.cluster
    tables: dict[str, LiveTable] = state.hub.tables
    if cluster is None:
        return [_table_out(t, state.advice, lang) for t in tables.values()]
    owners = cluster.owners()
    out = []
    for table_id, config in state.configs.items():
        owner = owners.get(table_id)
        here = tables.get(table_id)
        if here is not None:
            item = _table_out(here, state.advice, lang)
            out.append(item.model_copy(update={"node": cluster.node_id}))
            continue
        rules = state.rules_of[table_id]
        summary = owner.summary if owner is not None and owner.live and owner.summary else {}
        multi = config.multi_player
        out.append(
            _out(
                config,
                rules,
                state.advice,
                lang,
                free_boxes=int(summary.get("free_boxes", rules.table_boxes)),
                players=list(summary.get("players", [])),
                multi_player=multi if multi is not None else is_multi_player(rules),
                default_action=state.advice.default_action(rules).name,
                node=owner.node_id if owner is not None and owner.live else None,
            )
        )
    return out


Lang = Annotated[
    str | None,
    Query(
        description="a rule card's language: en, ro, pl, pt, hu, ru",
        json_schema_extra={"enum": [*LANGUAGES, None]},
    ),
]


def _lang(lang: str | None) -> str | None:
    """A ``lang`` query parameter checked (422 names the six languages)."""
    if lang is not None and lang not in LANGUAGES:
        raise languages.no_such_language(lang, 422)
    return lang


def _add_lobby(app: FastAPI) -> None:
    state = app.state

    @app.get("/api/tables", tags=["lobby"])
    def list_tables(lang: Lang = None) -> list[TableOut]:
        """Every table of the lobby: rules, limits, free boxes, house edge; the rule cards in
        ``lang`` (default: each table's language, else English)."""
        return _lobby(state, _lang(lang))

    @app.get("/api/tables/{table_id}", tags=["lobby"])
    def get_table(table_id: str, lang: Lang = None) -> TableOut:
        """One table of the lobby (its rule card in ``lang``)."""
        if table_id not in state.configs:
            raise Refusal(status.HTTP_404_NOT_FOUND, N_("no table {table!r}"), table=clip(table_id))
        return next(t for t in _lobby(state, _lang(lang)) if t.id == table_id)

    @app.get("/api/tables/{table_id}/shoes", tags=["lobby"])
    def provable_shoes(table_id: str) -> list[dict[str, Any]]:
        """A provable table's revealed shoes (the last 20), each with its rounds' cards in
        the order they left the shoe: the file ``twentyone verify`` checks."""
        config = state.configs.get(table_id)
        if config is None:
            raise Refusal(status.HTTP_404_NOT_FOUND, N_("no table {table!r}"), table=clip(table_id))
        if config.shuffle != "provable":
            return []
        return revealed_shoes(state.engine, table_id)  # any node answers: in the database

    @app.get("/api/me/stats", tags=["recall"])
    def my_stats(player: Annotated[Player, Depends(current_player)]) -> Stats:
        """The player's statistics over every settled round, kept by the server (they
        survive a reload, a new login and a restart)."""
        return Stats(**state.ledger.stats(player.id))

    @app.get("/api/rounds", tags=["recall"])
    def list_rounds(
        player: Annotated[Player, Depends(current_player)],
        limit: Annotated[int, Query(ge=1, le=100)] = 20,
    ) -> list[RoundRecord]:
        """The player's finished rounds, newest first, each with its replay JSON (other
        players' bankrolls hidden: see ``twentyone.web.recall``)."""
        return [_recalled(r, player) for r in state.accounts.recent_rounds(player.id, limit)]

    @app.get("/api/rounds/{round_id}", tags=["recall"])
    def get_round(round_id: int, player: Annotated[Player, Depends(current_player)]) -> RoundRecord:
        """One finished round of the player."""
        found: list[dict[str, Any]] = (
            state.accounts.recent_rounds(player.id, 1, round_id) if 0 < round_id < 2**63 else []
        )
        if not found:
            raise Refusal(
                status.HTTP_404_NOT_FOUND, N_("no round {round} of yours"), round=round_id
            )
        return _recalled(found[0], player)


def _recalled(record: dict[str, Any], player: Player) -> RoundRecord:
    """A stored round as ``player`` may see it: their own bankroll, nobody else's."""
    if isinstance(record.get("replay"), dict):
        steps = decision_steps(record["replay"])
        record = {
            **record,
            "replay": private_replay(record["replay"], player.username),
            "steps": steps,
        }
    return RoundRecord(**record)


def _add_page(app: FastAPI) -> None:
    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> Response:
        """The page's icon (a browser asks here before it reads the page's link)."""
        return Response(
            (STATIC / "favicon.svg").read_bytes(),
            media_type="image/svg+xml",
            headers={"Cache-Control": "max-age=86400"},
        )

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
