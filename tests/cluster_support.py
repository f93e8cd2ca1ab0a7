"""A cluster on loopback for the tests and the benchmark: nodes (``twentyone serve --node-id``
processes) on one PostgreSQL database, Debian's nginx in front with the configuration
``twentyone proxy-config`` writes, and players that follow a table to its node."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from collections.abc import Iterator, Sequence
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from twentyone.web.proxy_config import nginx_http
from web_support import drop_database

NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def fresh_database(base_url: str) -> Iterator[str]:
    """A new PostgreSQL database (dropped afterwards)."""
    import psycopg

    name = "c_" + uuid.uuid4().hex[:16]
    with psycopg.connect(base_url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    head, _, _ = base_url.rpartition("/")
    try:
        yield f"{head}/{name}"
    finally:
        drop_database(base_url, name)  # tried again while an autovacuum worker holds it


class Cluster:
    """Nodes and an nginx; ``stop()`` ends every process it started."""

    def __init__(
        self,
        url: str,
        nodes: Sequence[str],
        tables: Sequence[str],
        *,
        lease_seconds: float = 2.0,
        extra: Sequence[str] = (),
    ) -> None:
        self.url = url
        self.tables = list(tables)
        self.lease_seconds = lease_seconds
        self.extra = list(extra)
        self.ports = {n: free_port() for n in nodes}
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        self.logs = tempfile.mkdtemp(prefix="twentyone-cluster-")
        self.proxy_port = free_port()
        self.nginx: subprocess.Popen[bytes] | None = None

    # ----------------------------------------------------------------- processes
    def start_node(self, node: str) -> None:
        port = self.ports[node]
        cmd = [sys.executable, "-m", "twentyone", "serve", "--database-url", self.url]
        cmd += ["--port", str(port), "--node-id", node, "--lease-seconds", str(self.lease_seconds)]
        cmd += ["--forwarded-allow-ips", "127.0.0.1", "--register-limits", "100000 per hour"]
        for t in self.tables:
            cmd += ["--table", t]
        cmd += self.extra
        log = open(os.path.join(self.logs, f"{node}.log"), "ab")  # noqa: SIM115
        self.procs[node] = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)

    def start_all(self) -> None:
        """Every node (the first alone: it migrates the database), then nginx in front."""
        first, *rest = self.ports
        self.start_node(first)
        self.wait_up(first)
        for n in rest:
            self.start_node(n)
        for n in rest:
            self.wait_up(n)
        self.start_proxy()

    def wait_up(self, node: str, timeout: float = 120.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with (
                contextlib.suppress(OSError),
                urllib.request.urlopen(f"{self.base(node)}/api/tables", timeout=2) as r,
            ):
                if r.status == 200:
                    return
            if self.procs[node].poll() is not None:
                raise RuntimeError(f"node {node} exited: {self.log(node)}")
            time.sleep(0.2)
        raise TimeoutError(f"node {node} did not come up: {self.log(node)}")

    def log(self, node: str) -> str:
        with open(os.path.join(self.logs, f"{node}.log"), encoding="utf-8", errors="replace") as f:
            return f.read()[-3000:]

    def start_proxy(self) -> None:
        assert NGINX is not None
        generated = subprocess.run(
            [sys.executable, "-m", "twentyone", "proxy-config", "--database-url", self.url,
             "--listen", f"127.0.0.1:{self.proxy_port}", "--login-rate", "6000r/m"],
            check=True, capture_output=True, text=True,
        ).stdout  # fmt: skip
        work = self.logs
        with open(os.path.join(work, "twentyone.conf"), "w", encoding="utf-8") as f:
            f.write(generated)
        main = nginx_http(f"    include {work}/twentyone.conf;\n", workdir=work)
        with open(os.path.join(work, "nginx.conf"), "w", encoding="utf-8") as f:
            f.write(main)
        log = open(os.path.join(work, "nginx.log"), "ab")  # noqa: SIM115
        self.nginx = subprocess.Popen(
            [NGINX, "-p", work, "-c", f"{work}/nginx.conf"], stdout=log, stderr=subprocess.STDOUT
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            with (
                contextlib.suppress(OSError),
                urllib.request.urlopen(f"{self.proxy}/api/tables", timeout=2),
            ):
                return
            time.sleep(0.2)
        raise TimeoutError("nginx did not come up")

    def kill(self, node: str, sig: int = signal.SIGKILL) -> None:
        self.procs[node].send_signal(sig)
        if sig == signal.SIGKILL:
            self.procs[node].wait(timeout=10)

    def stop(self) -> None:
        for proc in [*self.procs.values(), *([self.nginx] if self.nginx else [])]:
            if proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    proc.send_signal(signal.SIGCONT)
                proc.terminate()
        for proc in [*self.procs.values(), *([self.nginx] if self.nginx else [])]:
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()

    # ----------------------------------------------------------------- HTTP
    def base(self, node: str) -> str:
        return f"http://127.0.0.1:{self.ports[node]}"

    @property
    def proxy(self) -> str:
        return f"http://127.0.0.1:{self.proxy_port}"

    def lobby(self, base: str | None = None) -> dict[str, dict[str, Any]]:
        with urllib.request.urlopen(f"{base or self.proxy}/api/tables", timeout=5) as r:
            return {t["id"]: t for t in json.load(r)}

    def owners(self) -> dict[str, str | None]:
        return {t: v["node"] for t, v in self.lobby().items()}

    def wait_owned(self, timeout: float = 30.0, avoid: str | None = None) -> dict[str, str]:
        """Wait until every table has a live node (not ``avoid``)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError):
                owners = self.owners()
                if all(n is not None and n != avoid for n in owners.values()):
                    return {t: str(n) for t, n in owners.items()}
            time.sleep(0.1)
        raise TimeoutError(f"tables not all owned: {self.owners()}")

    def wait_balanced(self, timeout: float = 60.0) -> dict[str, str]:
        """Wait until every table is on the node it belongs on (rendezvous hashing over the
        running nodes): nothing will move unless a node stops."""
        from twentyone.web.cluster import preferred

        running = [n for n, p in self.procs.items() if p.poll() is None]
        deadline = time.monotonic() + timeout
        owners: dict[str, str | None] = {}
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError):
                owners = self.owners()
                if all(owners[t] == preferred(t, running) for t in owners):
                    return {t: str(n) for t, n in owners.items()}
            time.sleep(0.1)
        raise TimeoutError(f"tables not balanced: {owners}")

    def register(self, name: str) -> str:
        body = json.dumps({"username": name, "password": "password123"}).encode()
        req = urllib.request.Request(
            f"{self.proxy}/api/register", body, {"content-type": "application/json"}
        )
        with urllib.request.urlopen(req, timeout=10) as r:
            cookie = r.headers["set-cookie"]
        return str(cookie.split(";", 1)[0])


class Player:
    """A player at one table through the proxy, following 4302 redirects to its node."""

    def __init__(self, cluster: Cluster, cookie: str, table: str) -> None:
        self.cluster = cluster
        self.cookie = cookie
        self.table = table
        self.ws: ClientConnection | None = None
        self.node_path: str | None = None
        self.n = 0
        self.view: dict[str, Any] = {}
        self.redirects: list[str] = []

    def open(self, timeout: float = 30.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            path = self.node_path or f"/ws/tables/{self.table}"
            try:
                ws = connect(
                    f"ws://127.0.0.1:{self.cluster.proxy_port}{path}",
                    additional_headers={"cookie": self.cookie},
                    open_timeout=10,
                )
            except (OSError, ConnectionClosed, Exception) as exc:  # 502 while a node is down
                if "HTTP" not in str(exc) and not isinstance(exc, OSError):
                    raise
                self.node_path = None
                time.sleep(0.2)
                continue
            try:
                first: dict[str, Any] = json.loads(ws.recv(timeout=10))
            except ConnectionClosed as exc:
                code = exc.rcvd.code if exc.rcvd else None
                reason = exc.rcvd.reason if exc.rcvd else ""
                if code == 4302:
                    self.node_path = reason
                    self.redirects.append(reason)
                else:
                    self.node_path = None
                    time.sleep(0.2)
                continue
            self.ws = ws
            self.view = first
            return first
        raise TimeoutError(f"could not open {self.table}")

    def send(self, kind: str, **fields: Any) -> dict[str, Any]:
        """Send an intention; the view that acknowledges it (raises on an error reply)."""
        assert self.ws is not None
        self.n += 1
        mid = f"m{self.n}"
        self.ws.send(json.dumps({"type": kind, "id": mid, **fields}))
        while True:
            msg: dict[str, Any] = json.loads(self.ws.recv(timeout=20))
            if msg.get("type") == "error" and msg.get("id") == mid:
                raise RuntimeError(f"{kind} refused: {msg.get('error')}")
            if msg.get("type") == "view":
                self.view = msg
                if mid in msg.get("acks", []):
                    return msg

    def play_round(self, amount: int = 100) -> dict[str, Any]:
        """Bet, deal, and answer every question (stand when allowed, else the first
        action): the view once the round is over."""
        if not self.view.get("you", {}).get("seated"):
            self.send("sit")
        self.send("bet", box=0, amount=amount)
        return self.play_out(self.send("deal"))

    def play_out(self, view: dict[str, Any]) -> dict[str, Any]:
        """Answer every question of the round in ``view`` (stand when allowed, else the
        first action): the view once the round is over."""
        while view.get("phase") != "betting":
            turn = view.get("turn") or {}
            actions = turn.get("actions", [])
            choice = next(
                (a for a in ("stand", "no-insurance", "no-even-money") if a in actions),
                actions[0] if actions else "stand",
            )
            view = self.send("decide", decision=choice)
        return view

    def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                self.ws.close()
