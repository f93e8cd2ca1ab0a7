"""``twentyone train``: the count drill and the strategy flashcards at the terminal
(:mod:`twentyone.terminal.train`); the options here, the drills imported when run."""

from __future__ import annotations

import argparse

_LANG_HELP = "language: en, ro, pl, pt, hu or ru (default: LANGUAGE, LC_ALL or LANG, else en)"


def _cmd_count(args: argparse.Namespace) -> int:
    from twentyone.terminal.train import count_drill

    return count_drill(
        args.rules,
        count=args.count,
        speed=args.speed,
        true_count=args.true_count,
        rounding=args.rounding,
        rounds=args.rounds,
        cards=args.cards,
        seed=args.seed,
        lang=args.lang,
    )


def _cmd_strategy(args: argparse.Namespace) -> int:
    from twentyone.terminal.train import strategy_drill

    return strategy_drill(
        args.rules, indices=args.indices, rounds=args.rounds, seed=args.seed, lang=args.lang
    )


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``train count`` and ``train strategy`` to the command's subparsers."""
    t = sub.add_parser("train", help="drills: counting cards, basic strategy and index plays")
    drills = t.add_subparsers(dest="drill", required=True)

    c = drills.add_parser("count", help="running-count and true-count drill")
    c.add_argument("rules", help="preset, TOML file or shorthand (the shoe's decks)")
    c.add_argument("--count", default="hilo", help="the counting system (default hilo)")
    c.add_argument(
        "--speed", type=float, default=1.0, help="seconds each card is shown (0: all at once)"
    )
    c.add_argument(
        "--true-count", action="store_true", help="also ask the true count after each round"
    )
    c.add_argument(
        "--rounding",
        default=None,
        metavar="floor|truncate",
        help="how the true count is rounded: floor, down (-1.5 is -2; the default, the "
        "counting system's own rule) or truncate, toward zero (-1.5 is -1)",
    )
    c.add_argument("--rounds", type=int, default=10, help="rounds of the drill (default 10)")
    c.add_argument("--cards", type=int, default=8, help="cards dealt each round (default 8)")
    c.add_argument("--seed", type=int, default=None, help="seed for the same shoes every run")
    c.add_argument("--lang", default=None, help=_LANG_HELP)
    c.set_defaults(func=_cmd_count)

    s = drills.add_parser("strategy", help="basic-strategy or index-play flashcards")
    s.add_argument("rules", help="preset, TOML file or shorthand")
    s.add_argument(
        "--indices",
        default=None,
        metavar="FILE",
        help='index plays (JSON entries {"hand", "up", "below", "at_or_above", "index"}) '
        "instead of the basic-strategy chart",
    )
    s.add_argument("--rounds", type=int, default=20, help="flashcards (default 20)")
    s.add_argument("--seed", type=int, default=None, help="seed for the same cards every run")
    s.add_argument("--lang", default=None, help=_LANG_HELP)
    s.set_defaults(func=_cmd_strategy)
