"""Health and readiness, for a proxy, an orchestrator or an operator:

- ``GET /healthz``: the process answers (200 ``{"ok": true}``), nothing else is checked;
- ``GET /readyz``: whether this node should get new traffic: the database answers a query
  within a second, the node is not draining, and (a cluster node) its heartbeat and every
  lease it holds are current. 200 ``{"ready": true}``, else 503 ``{"ready": false,
  "reasons": [...]}`` naming what failed. The generated proxy configurations check it.
"""

from __future__ import annotations

import time
from typing import Any

from fastapi import FastAPI
from fastapi.responses import JSONResponse
from sqlalchemy import text


def readiness(app: FastAPI) -> list[str]:
    """What keeps this node from taking new traffic (empty: ready)."""
    state = app.state
    reasons = []
    if getattr(state, "draining", False):
        reasons.append("draining: the node is stopping")
    started = time.monotonic()
    try:
        with state.engine.connect() as conn:
            conn.execute(text("SELECT 1"))
    except Exception as exc:  # the driver's own error for a database that is away
        why = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0][:200]
        reasons.append(f"database: {why}")
    else:
        if time.monotonic() - started > 1.0:
            reasons.append("database: slower than a second to answer")
    leases = getattr(state, "leases", None)
    if leases is not None:
        if not leases.heartbeat_current():
            reasons.append("cluster: no heartbeat renewed within the lease time")
        stale = [t for t in leases.held if not leases.valid(t)]
        if stale:
            reasons.append(f"cluster: leases not renewed in time: {', '.join(sorted(stale))}")
    return reasons


def install(app: FastAPI) -> None:
    """Add ``/healthz`` and ``/readyz`` (not in the OpenAPI schema: they are for machines)."""

    @app.get("/healthz", include_in_schema=False)
    def healthz() -> dict[str, Any]:
        return {"ok": True}

    @app.get("/readyz", include_in_schema=False)
    def readyz() -> JSONResponse:
        reasons = readiness(app)
        if reasons:
            return JSONResponse({"ready": False, "reasons": reasons}, status_code=503)
        return JSONResponse({"ready": True})
