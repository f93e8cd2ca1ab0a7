"""How the ledger's round statements reach the database: SQLAlchemy Core, or on SQLite the
driver's own cursor.

The round methods (:meth:`~twentyone.web.ledger.Ledger.start_round`, ``record_moves``,
``settle_round``) run about a dozen small statements per round, and under load SQLAlchemy's
execution machinery around each one (execution context, parameter processing, result set-up)
cost more than SQLite itself. On SQLite, :class:`StatementRunner` compiles each Core statement
once, with SQLAlchemy's own compiler and the column types' own bind processors (so datetimes
and JSON are stored exactly as Core stores them), and runs it on the driver's cursor of the
same connection, inside the same transaction. Other databases, and any statement it cannot
compile ahead (an expanding ``IN``), go through Core as before.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, cast

from sqlalchemy import Connection, Dialect
from sqlalchemy.sql import ClauseElement
from sqlalchemy.sql.expression import Executable

# the SQL, and for each placeholder in order: its parameter, bind processor and the value
# the statement itself gives it (a literal such as ``status = 'open'``)
_Compiled = tuple[str, list[tuple[str, Callable[[Any], Any] | None, Any]]]


class Outcome:
    """What a statement gave back: rows changed, and its rows (RETURNING or SELECT)."""

    def __init__(self, rowcount: int, rows: Sequence[Sequence[Any]] = ()) -> None:
        self.rowcount = rowcount
        self.rows = rows

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

    def __init__(self, dialect: Dialect) -> None:
        self.dialect = dialect
        self.raw = dialect.name == "sqlite" and dialect.paramstyle == "qmark"
        self._compiled: dict[tuple[Executable, tuple[str, ...]], _Compiled | None] = {}

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

    def values_in(
        self, conn: Connection, stmt: Executable, column: Any, values: Sequence[Any]
    ) -> set[Any]:
        """The ``values`` present in ``column`` (``stmt`` selects it with an expanding
        ``IN``; on SQLite the same query is run with one placeholder per value)."""
        if not self.raw:
            return set(conn.execute(stmt, {"keys": list(values)}).scalars())
        sql = (
            f"SELECT {column.name} FROM {column.table.name} "
            f"WHERE {column.name} IN ({', '.join('?' * len(values))})"
        )
        cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
        try:
            return {row[0] for row in cursor.execute(sql, tuple(values))}
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
