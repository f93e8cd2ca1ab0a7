"""The ``twentyone`` command: ``play``, ``replay`` and ``rules``.

Errors in what the user typed exit with status 2 and a message naming the bad value.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from twentyone.errors import ReplayError, TwentyOneError


def _cmd_rules(args: argparse.Namespace) -> int:
    import re

    from twentyone.rulecard import rule_card
    from twentyone.rulesets import PRESETS, load_rules, preset_text

    if args.list or not args.name:
        for name in PRESETS:
            # The preset's first comment line: "# ro-casino: the Romanian casino table (seed)."
            first = preset_text(name).splitlines()[0].lstrip("# ").strip()
            about = re.sub(r"\s*\([^)]*\)\.?$", "", first.removeprefix(f"{name}:").strip())
            print(f"{name:10}  {about}")
        return 0
    print(rule_card(load_rules(args.name)))
    return 0


def _cmd_replay(args: argparse.Namespace) -> int:
    from twentyone.replay import replay_text

    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as fh:
                text = fh.read()
    except OSError as exc:
        print(json.dumps({"error": f"cannot read {args.file!r}: {exc.strerror}", "decision": None}))
        return 2
    # one replay object, or JSON lines (one round per line, as `twentyone play --log` writes)
    lines = [line for line in text.splitlines() if line.strip()]
    rounds = [text]
    if len(lines) > 1:
        try:
            json.loads(text)
        except json.JSONDecodeError:
            rounds = lines
    for number, round_text in enumerate(rounds, 1):
        try:
            result = replay_text(round_text)
        except ReplayError as exc:
            error: dict[str, object] = {"error": str(exc), "decision": exc.decision}
            if len(rounds) > 1:
                error["round"] = number
            print(json.dumps(error))
            return 2
        print(json.dumps(result, indent=2 if args.pretty else None))
    return 0


def _cmd_play(args: argparse.Namespace) -> int:
    from twentyone.terminal import run_game

    return run_game(
        rules=args.rules,
        boxes=args.boxes,
        bankroll=args.bankroll,
        seed=args.seed,
        log_path=args.log,
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="twentyone", description="Blackjack exactly as real houses play it."
    )
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("play", help="play at the terminal")
    p.add_argument("--rules", default="ro-casino", help="preset, TOML file or shorthand")
    p.add_argument("--boxes", type=int, default=1, help="boxes to play each round")
    p.add_argument(
        "--bankroll", type=int, default=100_000, help="starting bankroll in minor units (cents)"
    )
    p.add_argument("--seed", type=int, default=None, help="seed for a reproducible shoe")
    p.add_argument("--log", default=None, help="write each round's replay JSON to this file")
    p.set_defaults(func=_cmd_play)

    r = sub.add_parser("replay", help="replay a round from its JSON hand history")
    r.add_argument("file", help="replay JSON file, or - for standard input")
    r.add_argument("--pretty", action="store_true", help="indent the JSON output")
    r.set_defaults(func=_cmd_replay)

    c = sub.add_parser("rules", help="print a rule card")
    c.add_argument("name", nargs="?", help="preset, TOML file or shorthand")
    c.add_argument("--list", action="store_true", help="list the presets")
    c.set_defaults(func=_cmd_rules)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.func(args)
    except TwentyOneError as exc:
        print(f"twentyone: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return code


def entry() -> None:
    """Console-script entry point."""
    sys.exit(main())


if __name__ == "__main__":
    entry()
