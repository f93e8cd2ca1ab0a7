"""What a new process imports: the package's public names on first use
(``twentyone/__init__.py``: loading rules does not import the engine, and every name of
``__all__`` is still there), and the command line's parsers of other modules only for their
commands (``twentyone.cli.build_parser``)."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from types import ModuleType

import twentyone


def _modules_after(code: str) -> set[str]:
    """The ``twentyone`` modules a new process has imported after running ``code``."""
    tail = "import sys, json; print(json.dumps(sorted(m for m in sys.modules if 'twentyone' in m)))"
    out = subprocess.run(
        [sys.executable, "-c", f"{code}\n{tail}"], capture_output=True, text=True, check=True
    )
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


def test_loading_a_preset_does_not_import_the_engine() -> None:
    got = _modules_after(
        "from twentyone.engine.rulesets import load_rules\n"
        "load_rules('ro-casino'); load_rules('6D S17 DAS SPL3 NS')"
    )
    assert "twentyone.engine.rulesets" in got and "twentyone.engine.rules" in got
    engine_modules = ("round", "bets", "replay", "shoe", "records", "hands")
    for engine in (f"twentyone.{m}" for m in engine_modules):
        assert engine not in got, engine


def test_the_engine_is_imported_when_asked_for() -> None:
    got = _modules_after("from twentyone import Round")
    assert "twentyone.engine.round" in got


def test_every_public_name_resolves_to_its_module_s_object() -> None:
    for name in twentyone.__all__:
        value = getattr(twentyone, name)
        module = importlib.import_module(f"twentyone.{twentyone._WHERE[name]}")
        assert value is getattr(module, name), name
    assert set(twentyone.__all__) <= set(dir(twentyone))
    assert set(twentyone._WHERE) == set(twentyone.__all__)


def test_star_import_and_from_import_give_every_name() -> None:
    scope: dict[str, object] = {}
    exec("from twentyone import *", scope)
    assert set(twentyone.__all__) <= set(scope)
    from twentyone import Rules, load_rules

    assert isinstance(load_rules("pl-online"), Rules)


def test_replay_stays_the_function_once_its_module_is_imported() -> None:
    """``twentyone.replay`` is the public function, and importing the engine's module of that
    name (bound on ``twentyone.engine``, not on ``twentyone``) leaves it the function."""
    code = (
        "import sys\nimport twentyone.engine.replay\nfrom twentyone import replay\n"
        "assert replay is sys.modules['twentyone.engine.replay'].replay, replay"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
    assert not isinstance(twentyone.replay, ModuleType)


def test_an_unknown_name_is_an_attribute_error() -> None:
    try:
        twentyone.no_such_name  # noqa: B018
    except AttributeError as exc:
        assert "no_such_name" in str(exc)
    else:  # pragma: no cover - the test fails
        raise AssertionError("no AttributeError")


def test_an_own_command_parses_without_the_server_s_modules() -> None:
    got = _modules_after(
        "import contextlib, io\nfrom twentyone.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n    main(['rules', '--list'])"
    )
    assert "twentyone.cli" in got
    others = ("twentyone.cli.serve", "twentyone.web", "twentyone.counting", "twentyone.cli.train")
    for other in others:
        assert other not in got, other


def test_the_full_parser_still_lists_every_command() -> None:
    from twentyone.cli import build_parser

    own = {"play", "replay", "verify", "rules", "edge", "advise", "eor", "par", "strategy"}
    own.add("simulate")

    def commands(parser: object) -> set[str]:
        import argparse

        assert isinstance(parser, argparse.ArgumentParser)
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        return set(sub.choices)

    every = commands(build_parser())
    assert {"serve", "train", "indices", "audit", "proxy-config"} <= every
    assert commands(build_parser("edge")) == own
    assert every > own
