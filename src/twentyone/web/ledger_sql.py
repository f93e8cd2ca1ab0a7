"""How the ledger's round statements reach the database: SQLAlchemy Core, or the driver's own
cursor (SQLite; PostgreSQL through psycopg, in pipeline mode).

The round methods (:meth:`~twentyone.web.ledger.Ledger.start_round`, ``record_moves``,
``settle_round``) run about a dozen small statements per round, and under load SQLAlchemy's
execution machinery around each one (execution context, parameter processing, result set-up)
cost more than SQLite itself. On SQLite, :class:`StatementRunner` compiles each Core statement
once, with SQLAlchemy's own compiler and the column types' own bind processors (so datetimes
and JSON are stored exactly as Core stores them), and runs it on the driver's cursor of the
same connection, inside the same transaction. Other databases, and any statement it cannot
compile ahead (an expanding ``IN``), go through Core as before.

On PostgreSQL each statement is a network round trip, and a busy host's scheduler adds its
delay to each one: a settlement's dozen statements held the round connection for 10 ms at the
median and over 150 ms at the 99th percentile in the soak (benchmarks/bench_soak.py, issue 27).
There :meth:`StatementRunner.transaction` runs the round transaction in psycopg's pipeline mode:
the statements are sent without waiting for their answers, and only a statement whose answer
the code reads (the rows of a ``RETURNING`` or a ``SELECT``, a row count) waits, together with
everything sent before it. ``BEGIN`` and ``COMMIT`` are sent as statements in the same pipeline
(the connection is in autocommit mode, so the driver sends no ``BEGIN`` of its own with a sync
after it), so a settlement is two round trips: its look-ups, then the writes with the commit.

Where :attr:`StatementRunner.synchronous_commit` is off (``serve --pg-synchronous-commit
off``, docs/operations.md), each round transaction on PostgreSQL begins with ``SET LOCAL
synchronous_commit = off``: its ``COMMIT`` does not wait for the WAL's flush to disk. The
setting is the transaction's own (it ends with it, so behind PgBouncer in transaction mode it
never reaches another client's transaction on the same server connection) and it goes in the
pipeline with ``BEGIN``, at no round trip.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, cast

from sqlalchemy import ARRAY, Connection, Dialect, any_, bindparam, select
from sqlalchemy.sql import ClauseElement
from sqlalchemy.sql.expression import Executable

# the SQL, and for each placeholder in order: its parameter, bind processor and the value
# the statement itself gives it (a literal such as ``status = 'open'``)
_Compiled = tuple[str, list[tuple[str, Callable[[Any], Any] | None, Any]]]

#: the statement a round transaction begins with when its commit need not wait for the disk
ASYNC_COMMIT = "SET LOCAL synchronous_commit = off"

#: where a connection's open pipeline is noted (``Connection.info``) while a round
#: transaction runs in it
_PIPELINE = "twentyone.pipeline"

# a statement's SQL with named placeholders, and for each: its name in the SQL, the parameter
# it takes, its bind processor and the statement's own value
_Named = tuple[str, list[tuple[str, str, Callable[[Any], Any] | None, Any]]]


class _Pipeline:
    """A round transaction's psycopg pipeline: whether statements were sent since the last
    sync, and the cursors to close at the end."""

    def __init__(self, pipeline: Any) -> None:
        self.pipeline = pipeline
        self.pending = False
        self.syncs = 0  # how many times the answers were waited for
        self.cursors: list[Any] = []

    def sync(self, sent_at: int) -> None:
        """Wait for the answers to everything sent so far, unless they came since the
        statement sent after ``sent_at`` syncs was (the driver raises a statement's error
        here)."""
        if self.pending and self.syncs == sent_at:
            self.pending = False
            self.syncs += 1
            self.pipeline.sync()


class Outcome:
    """What a statement gave back: rows changed, and its rows (RETURNING or SELECT). In a
    pipeline, reading either waits for the statement's answer."""

    def __init__(
        self,
        rowcount: int = 0,
        rows: Sequence[Sequence[Any]] = (),
        *,
        cursor: Any = None,
        pipeline: _Pipeline | None = None,
        fetch: bool = False,
    ) -> None:
        self._rowcount = rowcount
        self._rows = rows
        self._cursor = cursor
        self._pipeline = pipeline
        self._sent_at = pipeline.syncs if pipeline is not None else 0
        self._fetch = fetch

    def _answer(self) -> None:
        cursor = self._cursor
        if cursor is not None:
            if self._pipeline is not None:
                self._pipeline.sync(self._sent_at)
            self._cursor = None
            self._rowcount = cursor.rowcount
            if self._fetch:
                self._rows = cursor.fetchall()

    @property
    def rowcount(self) -> int:
        """Rows the statement changed (summed over an executemany's parameter sets)."""
        self._answer()
        return self._rowcount

    @property
    def rows(self) -> Sequence[Sequence[Any]]:
        """The rows it returned, when run with ``fetch``."""
        self._answer()
        return self._rows

    def scalar_one(self) -> Any:
        """The single value of the single row."""
        (row,) = self.rows
        return row[0]

    def scalars(self) -> Iterator[Any]:
        """The first value of each row."""
        return (row[0] for row in self.rows)


class StatementRunner:
    """Runs Core statements, straight on the driver's cursor where the dialect allows.

    What it buys, measured 2026-12-03 with benchmarks/bench_web_load.py, 500 players / 100
    tables, 3 alternating passes (docs/scaling.md, "Web fast paths against the public APIs"):
    185 rounds/s, p99 82 ms with every fast path against 161 rounds/s, p99 84 ms with
    ``conn.execute`` for every statement and the views as dicts (0.87; the dicts alone cost
    nothing measurable); ``conn.execute`` alone gave 0.96 of the rounds/s (5 passes).
    A round's ledger work (start, one payment, settlement; 5 players) takes 0.66 ms of CPU
    here against 1.18 ms through ``conn.execute``. It reads SQLAlchemy's compiled statement
    (``positiontup``, ``binds``) and the driver's connection beyond the documented API:
    pyproject bounds SQLAlchemy's version.
    """

    def __init__(self, dialect: Dialect, *, synchronous_commit: bool = True) -> None:
        self.dialect = dialect
        #: False: on PostgreSQL each :meth:`transaction` sets ``synchronous_commit = off``
        #: for itself (:data:`ASYNC_COMMIT`); no effect on other databases
        self.synchronous_commit = synchronous_commit
        self.raw = dialect.name == "sqlite" and dialect.paramstyle == "qmark"
        #: round transactions in psycopg's pipeline mode (:meth:`transaction`)
        self.pipelined = dialect.name == "postgresql" and dialect.driver == "psycopg"
        #: the driver's own errors, raised past SQLAlchemy by the pipeline
        self.driver_errors: tuple[type[Exception], ...] = ()
        if self.pipelined:
            import psycopg

            self.pipelined = psycopg.Pipeline.is_supported()
            self.driver_errors = (psycopg.Error,)
        self._compiled: dict[tuple[Executable, tuple[str, ...]], _Compiled | None] = {}
        self._named: dict[tuple[Executable, tuple[str, ...]], _Named] = {}
        self._any_of: dict[tuple[Executable, Any], Executable] = {}

    @contextlib.contextmanager
    def transaction(
        self, conn: Connection, first: Callable[[], object] | None = None
    ) -> Iterator[None]:
        """Where :attr:`pipelined`: one transaction in a pipeline on ``conn``, whose DBAPI
        connection is in autocommit mode: ``BEGIN`` first, ``COMMIT`` when the block ends
        (sent with the statements not yet answered), ``ROLLBACK`` when it raises. The
        statements :meth:`run` and :meth:`values_in` are given meanwhile join the pipeline.
        ``first`` runs in the transaction before the pipeline opens (it may use ``conn`` as
        usual). Elsewhere it only calls ``first`` (the transaction is the caller's). Where
        :attr:`synchronous_commit` is off on PostgreSQL, :data:`ASYNC_COMMIT` is the
        transaction's first statement after ``BEGIN`` (in the pipeline: no round trip of
        its own)."""
        async_commit = not self.synchronous_commit and self.dialect.name == "postgresql"
        if not self.pipelined:
            if async_commit:  # a driver without pipelines: one statement more
                conn.exec_driver_sql(ASYNC_COMMIT)
            if first is not None:
                first()
            yield
            return
        dbapi: Any = conn.connection.dbapi_connection
        done = False
        try:
            if first is not None:
                dbapi.execute("BEGIN")
                first()
            with dbapi.pipeline() as pipeline:
                state = _Pipeline(pipeline)
                conn.info[_PIPELINE] = state
                try:
                    if first is None:
                        dbapi.cursor().execute("BEGIN")
                    if async_commit:  # read at COMMIT: anywhere in the transaction will do
                        dbapi.cursor().execute(ASYNC_COMMIT)
                    yield
                    dbapi.cursor().execute("COMMIT")
                finally:
                    del conn.info[_PIPELINE]
                    for cursor in state.cursors:
                        cursor.close()
            done = True  # the COMMIT answered (a statement's error skips it, as it aborts the
            # pipeline up to its sync, and leaves the transaction to roll back)
        finally:
            if not done and not dbapi.closed:
                with contextlib.suppress(Exception):  # a lost connection is replaced anyway
                    dbapi.execute("ROLLBACK")

    def run(
        self,
        conn: Connection,
        stmt: Executable,
        params: Mapping[str, Any] | Sequence[Mapping[str, Any]],
        *,
        fetch: bool = False,
    ) -> Outcome:
        """Execute ``stmt`` with one set of parameters (a mapping) or many (a list of them,
        all with the same keys); ``fetch`` keeps the rows it returns."""
        batch: Sequence[Mapping[str, Any]] = [params] if isinstance(params, Mapping) else params
        piped: _Pipeline | None = conn.info.get(_PIPELINE) if self.pipelined else None
        if piped is not None:
            return self._send(conn, piped, stmt, params, batch, fetch)
        compiled = self._compile(stmt, tuple(batch[0])) if self.raw else None
        if compiled is None:
            result = conn.execute(stmt, params)
            return Outcome(result.rowcount, result.all() if fetch else ())
        sql, binds = compiled
        values = [
            tuple(p(v) if p else v for name, p, fixed in binds for v in (row.get(name, fixed),))
            for row in batch
        ]
        cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
        try:
            if isinstance(params, Mapping):
                cursor.execute(sql, values[0])
                return Outcome(cursor.rowcount, cursor.fetchall() if fetch else ())
            cursor.executemany(sql, values)
            return Outcome(cursor.rowcount)
        finally:
            cursor.close()

    def _send(
        self,
        conn: Connection,
        piped: _Pipeline,
        stmt: Executable,
        params: Mapping[str, Any] | Sequence[Mapping[str, Any]],
        batch: Sequence[Mapping[str, Any]],
        fetch: bool,
    ) -> Outcome:
        """Send a statement into the transaction's pipeline; its answer is read when asked."""
        sql, binds = self._named_sql(stmt, tuple(batch[0]))
        values = [
            {
                name: p(v) if p else v
                for name, key, p, fixed in binds
                for v in (row.get(key, fixed),)
            }
            for row in batch
        ]
        cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
        piped.cursors.append(cursor)
        if isinstance(params, Mapping):
            cursor.execute(sql, values[0])
        else:
            cursor.executemany(sql, values)
        piped.pending = True
        return Outcome(cursor=cursor, pipeline=piped, fetch=fetch)

    def _named_sql(self, stmt: Executable, keys: tuple[str, ...]) -> _Named:
        """A statement's SQL with named placeholders (psycopg's ``%(name)s``) and, for each,
        the parameter it takes, its bind processor and the statement's own value."""
        cache_key = (stmt, keys)
        found = self._named.get(cache_key)
        if found is None:
            compiled: Any = cast(ClauseElement, stmt).compile(
                dialect=self.dialect, column_keys=list(keys), for_executemany=True
            )
            binds = []
            for bind, name in compiled.bind_names.items():
                impl = bind.type.dialect_impl(self.dialect)
                binds.append(
                    (name, bind.key, impl.bind_processor(self.dialect), bind.effective_value)
                )
            found = self._named[cache_key] = (compiled.string, binds)
        return found

    def values_in(
        self, conn: Connection, stmt: Executable, column: Any, values: Sequence[Any]
    ) -> Outcome:
        """The rows of ``stmt``, a SELECT of one table's columns where ``column`` is one of
        ``values`` (an expanding ``IN`` of the parameter ``keys``): on SQLite the same query
        with one placeholder per value, in a pipeline with ``= ANY`` of an array."""
        piped: _Pipeline | None = conn.info.get(_PIPELINE) if self.pipelined else None
        if piped is not None:
            any_of = self._any_of.get((stmt, column))
            if any_of is None:
                columns = cast(Any, stmt).selected_columns
                any_of = select(*columns).where(
                    column == any_(bindparam("keys", type_=ARRAY(column.type)))
                )
                self._any_of[(stmt, column)] = any_of
            keys = {"keys": list(values)}
            return self._send(conn, piped, any_of, keys, [keys], True)
        if not self.raw:
            return Outcome(rows=conn.execute(stmt, {"keys": list(values)}).all())
        names = ", ".join(c.name for c in cast(Any, stmt).selected_columns)
        sql = (
            f"SELECT {names} FROM {column.table.name} "
            f"WHERE {column.name} IN ({', '.join('?' * len(values))})"
        )
        cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
        try:
            return Outcome(rows=cursor.execute(sql, tuple(values)).fetchall())
        finally:
            cursor.close()

    def _compile(self, stmt: Executable, keys: tuple[str, ...]) -> _Compiled | None:
        """The SQL text and, in order, each placeholder's parameter, bind processor and the
        statement's own value for it; None when the statement must go through Core."""
        cache_key = (stmt, keys)
        if cache_key in self._compiled:
            return self._compiled[cache_key]
        compiled = cast(ClauseElement, stmt).compile(dialect=self.dialect, column_keys=list(keys))
        names = getattr(compiled, "positiontup", None)
        bound = getattr(compiled, "binds", {})
        out: _Compiled | None = None
        if names is not None and "POSTCOMPILE" not in compiled.string:
            binds = []
            for name in names:
                bind = bound[name]
                impl = bind.type.dialect_impl(self.dialect)
                binds.append((name, impl.bind_processor(self.dialect), bind.effective_value))
            out = (compiled.string, binds)
        self._compiled[cache_key] = out
        return out
