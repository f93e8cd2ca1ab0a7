"""Deploying by stock parts (issue 27, item 9): systemd units for N nodes and the proxy
watcher, checked by ``systemd-analyze verify``, and the Containerfile."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from twentyone.web.deploy import containerfile, systemd_units

ROOT = Path(__file__).resolve().parents[1]
#: keys of systemd 254 and later (the restart backoff) an older systemd warns it ignores
NEWER_KEYS = ("RestartSteps", "RestartMaxDelaySec")


def test_the_units_pass_systemd_analyze_verify(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        if os.environ.get("CI"):
            pytest.fail("systemd-analyze is missing (apt-get install systemd)")
        pytest.skip("systemd-analyze is missing (apt-get install systemd)")
    out = tmp_path / "units"
    cmd = [sys.executable, "-m", "twentyone", "deploy", "systemd", "--nodes", "3",
           "--output", str(out), "--proxy", "haproxy"]  # fmt: skip
    done = subprocess.run(cmd, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    target = (out / "twentyone.target").read_text()
    assert "twentyone-node@8001.service twentyone-node@8002.service " in target
    assert "twentyone-node@8003.service twentyone-proxy-watch.service" in target
    node = (out / "twentyone-node@.service").read_text()
    assert "Restart=on-failure" in node and "RestartMaxDelaySec=30s" in node
    assert "KillSignal=SIGTERM" in node and "--drain-seconds 30" in node
    assert (
        '--reload "systemctl reload haproxy"' in (out / "twentyone-proxy-watch.service").read_text()
    )
    check = subprocess.run(
        [analyze, "verify", "--man=no", "./twentyone-node@8001.service",
         "./twentyone-proxy-watch.service", "./twentyone.target"],
        cwd=out, capture_output=True, text=True,
    )  # fmt: skip
    assert check.returncode == 0, check.stderr
    problems = [
        line
        for line in (check.stdout + check.stderr).splitlines()
        if line.strip() and not any(f"Unknown key '{k}'" in line for k in NEWER_KEYS)
    ]
    assert problems == []


def test_bad_deploy_options_are_refused_with_the_value() -> None:
    with pytest.raises(ValueError, match="--nodes 0: expected 1 to 64"):
        systemd_units(nodes=0, python=sys.executable)
    with pytest.raises(ValueError, match="--proxy 'caddy'"):
        systemd_units(nodes=1, python=sys.executable, proxy="caddy")


def test_the_shipped_containerfile_is_the_generated_one() -> None:
    shipped = (ROOT / "Containerfile").read_text()
    assert shipped == containerfile()
    instructions = [
        line.split()[0]
        for line in shipped.splitlines()
        if line.strip() and not line.startswith("#") and not line.startswith("--")
    ]
    assert instructions[0] == "FROM" and "HEALTHCHECK" in instructions
    assert set(instructions) <= {"FROM", "RUN", "COPY", "USER", "WORKDIR", "ENV", "EXPOSE",
                                 "STOPSIGNAL", "HEALTHCHECK", "CMD"}  # fmt: skip
