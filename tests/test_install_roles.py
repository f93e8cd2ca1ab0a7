"""Installs by role: ``pip install twentyone`` plays, replays, verifies and prints rule cards
without any extra, and a command that needs one says which in one line (exit status 2).

The commands run in new processes whose imports of the extras' modules fail, as where the
extra is not installed (an import hook, :data:`BOOT`); the hook writes down every import it
refused, so a base role is shown to import none of them, not merely to survive without them.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import tomllib
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: Every optional module: the base install has none of them.
EVERY_EXTRA = (
    "numpy,numba,llvmlite,fastapi,starlette,pydantic,uvicorn,sqlalchemy,alembic,argon2,psycopg,"
    "orjson,limits,gymnasium,pettingzoo,ray,matplotlib"
)
WEB = "fastapi,starlette,pydantic,uvicorn,sqlalchemy,alembic,argon2,psycopg,orjson,limits"

#: Run first in each process: imports of the modules in $TW_BLOCKED (top-level names, by
#: commas) fail as a missing module's, each refused name written to the file $TW_BLOCK_LOG.
BOOT = """
import importlib.abc, os, sys
_blocked = set(os.environ["TW_BLOCKED"].split(","))
class _Missing(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in _blocked:
            with open(os.environ["TW_BLOCK_LOG"], "a") as log:
                log.write(name + "\\n")
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
sys.meta_path.insert(0, _Missing())
"""

CLI = BOOT + "sys.argv[0] = 'twentyone'\nfrom twentyone.cli import entry\nentry()\n"


def run(
    tmp_path: Path,
    code: str,
    args: list[str] | None = None,
    stdin: str = "",
    blocked: str = EVERY_EXTRA,
) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    """Run ``code`` (after :data:`BOOT`) in a new process; its result and the imports refused."""
    log = tmp_path / f"refused-{len(list(tmp_path.glob('refused-*')))}.txt"
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "TTY_COMPATIBLE")}
    env.update(TW_BLOCKED=blocked, TW_BLOCK_LOG=str(log), PYTHONIOENCODING="utf-8")
    proc = subprocess.run(
        [sys.executable, "-c", code, *(args or [])],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    refused = log.read_text().split() if log.exists() else []
    return proc, refused


def base_cli(tmp_path: Path, *args: str, stdin: str = "") -> str:
    """The command's standard output; it must succeed and import no extra's module."""
    proc, refused = run(tmp_path, CLI, list(args), stdin)
    assert proc.returncode == 0, proc.stderr
    assert refused == [], refused
    return proc.stdout


# ------------------------------------------------------------------------- the base roles
def test_rule_cards_without_any_extra(tmp_path: Path) -> None:
    listed = base_cli(tmp_path, "rules", "--list")
    assert listed.split()[0] == "ro-casino" and "ru-online" in listed
    assert "ro-casino" in base_cli(tmp_path, "rules", "ro-casino")
    assert base_cli(tmp_path, "rules", "pl-online", "--lang", "pl").strip()


def test_play_and_replay_without_any_extra(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    answers = "\n".join(["", "s", "n"] * 12) + "\n"  # a bet, stand, no insurance; then ends
    out = base_cli(
        tmp_path, "play", "--seed", "1", "--rules", "ru-online", "--log", str(log), stdin=answers
    )
    rounds = int(re.search(r"Rounds played: (\d+)", out)[1])  # type: ignore[index]
    assert rounds >= 3
    assert len(log.read_text().splitlines()) == rounds
    results = [json.loads(line) for line in base_cli(tmp_path, "replay", str(log)).splitlines()]
    assert len(results) == rounds and all("net" in r for r in results)
    assert "round 1" in base_cli(tmp_path, "replay", "--pretty", str(log))


def test_a_shared_table_without_any_extra(tmp_path: Path) -> None:
    answers = "\n".join(["", "s", "n"] * 12) + "\n"
    out = base_cli(
        tmp_path,
        "play",
        "--players",
        "ann,bob",
        "--rules",
        "pt-casino",
        "--seed",
        "3",
        stdin=answers,
    )
    assert "ann" in out and "bob" in out


def test_verify_without_any_extra(tmp_path: Path) -> None:
    from twentyone import BoxBet, Round, load_rules, round_to_replay
    from twentyone.engine.provable import ProvableShoe

    shoe = ProvableShoe(decks=1, shuffle="cut-card", penetration=Fraction(1, 2))
    rules = load_rules("6D S17 DAS SPL3 LS").replace(decks=1)
    pick = random.Random(4)
    by_shoe: dict[int, list[dict[str, Any]]] = {}
    for _ in range(12):
        rnd = Round(rules, shoe, [BoxBet("ann", 100)])
        number = shoe.number
        while not rnd.is_over:
            assert rnd.question is not None
            rnd.apply(pick.choice(rnd.question.actions).replace(":N", ""))
        shoe.finish_round()
        by_shoe.setdefault(number, []).append(round_to_replay(rnd))
    entries = [{"record": r, "rounds": by_shoe[r["shoe"]]} for r in shoe.revealed]
    (tmp_path / "shoes.json").write_text(json.dumps(entries))
    result = json.loads(base_cli(tmp_path, "verify", "shoes.json"))
    assert result["ok"] is True and result["shoes"] == len(entries)


def test_the_library_without_any_extra(tmp_path: Path) -> None:
    code = BOOT + (
        "from twentyone import BoxBet, Round, StackedShoe, load_rules, replay, round_to_replay\n"
        "shoe = StackedShoe('8S 8D 9H TC 5S')\n"
        "rnd = Round(load_rules('hu-casino'), shoe, [BoxBet('ann', 100)])\n"
        "rnd.apply('stand')\n"
        "print(rnd.is_over, replay(round_to_replay(rnd))['net']['ann'])\n"
    )
    proc, refused = run(tmp_path, code)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["True", "-100"]
    assert refused == []


def test_the_command_s_help_without_any_extra(tmp_path: Path) -> None:
    """Every command is listed, and ``serve --help`` reads its limits, with no extra."""
    assert "serve" in base_cli(tmp_path, "--help")
    assert "--max-message-bytes" in base_cli(tmp_path, "serve", "--help")


# --------------------------------------------------------------- what needs an extra says so
@pytest.mark.parametrize(
    ("args", "blocked", "what", "extra"),
    [
        (["edge", "ru-online"], EVERY_EXTRA, "edge", "analysis"),
        (["edge", "ru-online"], "numba,llvmlite", "edge", "analysis"),  # numpy alone is not it
        (["simulate", "ru-online", "--rounds", "100"], EVERY_EXTRA, "simulate", "analysis"),
        (["play", "--hints", "--seed", "1"], EVERY_EXTRA, "play --hints", "analysis"),
        (["play", "--hints", "--players", "ann,bob"], EVERY_EXTRA, "play --hints", "analysis"),
        (["train", "count", "ru-online"], EVERY_EXTRA, "train", "analysis"),
        (["serve", "--port", "0"], EVERY_EXTRA, "serve", "web"),
        (["serve", "--port", "0"], WEB, "serve", "web"),  # the analysis installed, the web not
    ],
)
def test_a_command_without_its_extra_says_which_in_one_line(
    tmp_path: Path, args: list[str], blocked: str, what: str, extra: str
) -> None:
    proc, _ = run(tmp_path, CLI, args, stdin="\n" * 20, blocked=blocked)
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == ""  # nothing started: no table, no bet asked, no "serving on"
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith(f"twentyone: error: {what} needs the '{extra}' extra (")
    assert lines[0].endswith(f"pip install 'twentyone[{extra}]'")


def test_a_missing_module_of_no_extra_is_not_blamed_on_one() -> None:
    from twentyone.extras import needs_extra

    assert needs_extra(ModuleNotFoundError("x", name="yaml"), "edge") is None
    # a part missing from an installed numpy is a broken install, not a missing extra
    assert needs_extra(ModuleNotFoundError("x", name="numpy.no_such_part"), "edge") is None
    told = needs_extra(ModuleNotFoundError("x", name="psycopg"), "serve")
    assert told is not None and "'web' extra" in told


def test_the_older_messages_name_the_same_extras() -> None:
    from twentyone.engine.errors import TwentyOneError
    from twentyone.extras import EXTRA_OF

    assert f"twentyone[{EXTRA_OF['ray']}]" in str(TwentyOneError("needs-ray"))
    assert f"twentyone[{EXTRA_OF['matplotlib']}]" in str(TwentyOneError("png-needs-matplotlib"))


# --------------------------------------------------------------------------- pyproject.toml
def _name(requirement: str) -> str:
    return re.split(r"[\s\[<>=!~;]", requirement, maxsplit=1)[0].lower()


def test_the_extras_in_pyproject() -> None:
    from twentyone.extras import EXTRA_OF, EXTRAS

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras: dict[str, list[str]] = project["optional-dependencies"]
    assert set(EXTRAS) | {"all", "test"} <= set(extras)
    assert set(EXTRA_OF.values()) <= set(EXTRAS)
    assert extras["all"] == [f"twentyone[{','.join(EXTRAS)}]"]
    assert "twentyone[all]" in extras["test"]  # the README's and CI's install: everything

    def distributions(extra: str) -> set[str]:
        """The distributions an extra installs, through the extras it names too."""
        found: set[str] = set()
        for req in extras[extra]:
            if req.startswith("twentyone["):
                for inner in req[len("twentyone[") : -1].split(","):
                    found |= distributions(inner)
            else:
                found.add(_name(req))
        return found

    through = {"argon2": "argon2-cffi", "starlette": "fastapi", "pydantic": "fastapi"}
    through["prometheus_client"] = "prometheus-client"  # the module and its distribution
    through["llvmlite"] = "numba"  # numba's own dependency
    for module, extra in EXTRA_OF.items():
        assert through.get(module, module) in distributions(extra), (module, extra)
    for extra in ("web", "rl", "cluster"):  # each runs the analysis's kernels
        assert "numba" in distributions(extra), extra
    base = {_name(req) for req in project["dependencies"]}
    optional = {through.get(m, m) for m in EXTRA_OF}
    assert base & optional == set()
    assert base == {"rich", "babel"}
