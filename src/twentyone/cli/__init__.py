"""The ``twentyone`` command: ``play``, ``replay``, ``rules``, the analysis, ``train``...

Errors in what the user typed exit with status 2 and a message naming the bad value.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import os
import sys
from collections.abc import Sequence

from twentyone.cli.analysis import (
    ANALYSIS_COMMANDS,
    add_shoe_args,
    cmd_advise,
    cmd_edge,
    cmd_eor,
    cmd_par,
    collector_paused,
)
from twentyone.engine.errors import ReplayError, TwentyOneError

_LANG_HELP = "language: en, ro, pl, pt, hu or ru (default: LANGUAGE, LC_ALL or LANG, else en)"


def _cmd_rules(args: argparse.Namespace) -> int:
    import re

    from twentyone.engine.rulesets import PRESETS, load_rules, preset_text
    from twentyone.rulecard import rule_card

    if args.list or not args.name:
        for name in PRESETS:
            # The preset's first comment line: "# ro-casino: the Romanian casino table (seed)."
            first = preset_text(name).splitlines()[0].lstrip("# ").strip()
            about = re.sub(r"\s*\([^)]*\)\.?$", "", first.removeprefix(f"{name}:").strip())
            print(f"{name:10}  {about}")
        return 0
    from twentyone.i18n import choose_language

    print(rule_card(load_rules(args.name), choose_language(args.lang)))
    return 0


def _cmd_replay(args: argparse.Namespace) -> int:
    from twentyone.engine.replay import replay_text, replay_text_round

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
            if args.pretty:
                _print_round_table(replay_text_round(round_text), number if len(rounds) > 1 else 0)
                continue
            result = replay_text(round_text)
        except ReplayError as exc:
            error: dict[str, object] = {"error": str(exc), "decision": exc.decision}
            if len(rounds) > 1:
                error["round"] = number
            print(json.dumps(error))
            return 2
        print(json.dumps(result))
    return 0


def _print_round_table(rnd: object, number: int) -> None:
    """``replay --pretty``: the round as a table (round ``number`` of a log; 0: the only one)."""
    from rich.console import Console

    from twentyone.cli.replay_view import round_table
    from twentyone.engine.round import Round

    assert isinstance(rnd, Round)
    table = round_table(rnd)
    if number:
        table.title = f"{table.title}, round {number}"
    console = Console(highlight=False)
    if not console.is_terminal:  # a file or a pipe: wide enough for a row per hand
        console = Console(highlight=False, width=140)
    console.print(table)


def _bankroll(args: argparse.Namespace) -> int:
    """``--bankroll`` in money (``500``, ``500.00``, ``500,00`` where the language writes a
    decimal comma), in minor units."""
    from twentyone.engine.errors import BetError
    from twentyone.i18n import choose_language, format_money, parse_amount

    text = str(args.bankroll)
    lang = choose_language(args.lang)
    try:
        return parse_amount(text, lang)
    except ValueError:
        raise BetError(
            "option-bankroll-money", text=text, example=format_money(50_000, lang)
        ) from None


def _cmd_play(args: argparse.Namespace) -> int:
    from twentyone.terminal.game import run_game

    if args.hints:  # the exact returns: said before the first bet, not after it
        from twentyone.extras import require

        require("analysis", "play --hints")
    args.bankroll = _bankroll(args)

    if args.players is not None:
        from twentyone.terminal.table import run_shared

        return run_shared(
            rules=args.rules,
            players=args.players,
            boxes=args.boxes,
            bankroll=args.bankroll,
            seed=args.seed,
            log_path=args.log,
            hints=args.hints,
            lang=args.lang,
            side_bets=args.side_bets,
        )
    return run_game(
        rules=args.rules,
        boxes=args.boxes,
        bankroll=args.bankroll,
        seed=args.seed,
        log_path=args.log,
        hints=args.hints,
        lang=args.lang,
        side_bets=args.side_bets,
    )


def _cmd_strategy(args: argparse.Namespace) -> int:
    from twentyone.analysis import basic_strategy
    from twentyone.analysis.chart import render
    from twentyone.engine.rulesets import load_rules

    rules = load_rules(args.rules)
    if args.format == "png" and importlib.util.find_spec("matplotlib") is None:
        raise TwentyOneError("png-needs-matplotlib")  # before the chart's seconds of work
    if args.output:  # a folder that is not there is told before the chart's seconds of work
        folder = os.path.dirname(os.path.abspath(args.output))
        if not os.path.isdir(folder):
            raise TwentyOneError(
                "unwritable-output", path=args.output, reason=f"no folder {folder!r}"
            )
    out: str | bytes
    if rules.hole_card_up:  # both dealer cards seen: a chart by the dealer's total
        out = _exposed_chart(rules, args)
    else:
        chart = basic_strategy(rules, boxes=args.boxes)
        out = render(chart, args.format, title=f"Basic strategy: {rules.name}")
        if rules.switch and isinstance(out, str):  # the pair's switch chart after the play's
            out = _switch_chart(rules, args, out)
    if isinstance(out, bytes) and not args.output and not sys.stdout.isatty():
        # `strategy --format png > chart.png`: the image is what goes to the file or pipe
        sys.stdout.flush()
        sys.stdout.buffer.write(out)
        return 0
    if isinstance(out, bytes) or args.output:
        slug = "".join(ch if ch.isalnum() or ch == "-" else "-" for ch in rules.name)
        path = args.output or f"strategy-{slug}.{args.format}"
        try:
            with open(path, "wb") as fh:
                fh.write(out if isinstance(out, bytes) else out.encode("utf-8"))
        except OSError as exc:
            raise TwentyOneError(
                "unwritable-output", path=path, reason=exc.strerror or str(exc)
            ) from None
        print(path)
    else:
        print(out, end="")
    return 0


def _switch_chart(rules: object, args: argparse.Namespace, out: str) -> str:
    """A switch table's chart with the switch chart (:mod:`twentyone.analysis.switch_chart`)
    after it, in the command's language: text below the text, JSON under the key
    ``"switch"`` (an HTML chart is the play's alone)."""
    from twentyone.analysis.switch_chart import SwitchChart
    from twentyone.engine.rules import Rules
    from twentyone.i18n import choose_language

    assert isinstance(rules, Rules)
    if args.format not in ("text", "json"):
        return out
    lang = choose_language(args.lang)
    chart = SwitchChart.of(rules, args.boxes)
    if args.format == "text":
        return out + "\n" + chart.text(lang)
    data = json.loads(out)
    data["switch"] = chart.to_dict(lang)
    return json.dumps(data, indent=2)


def _exposed_chart(rules: object, args: argparse.Namespace) -> str:
    """The chart by dealer total of rules with the hole card face up, as text or JSON
    (:mod:`twentyone.analysis.exposed_chart`); other formats refused naming the field."""
    from twentyone.analysis.exposed_chart import dealer_total_chart
    from twentyone.engine.errors import RulesError
    from twentyone.engine.rules import Rules

    assert isinstance(rules, Rules)
    if args.format not in ("text", "json"):
        raise RulesError(
            "analysis-refuses",
            field="hole_card_up",
            value=rules.hole_card_up,
            lacks="its chart by the dealer's total is printed as text or JSON only",
        )
    chart = dealer_total_chart(rules, args.boxes)
    return chart.text() if args.format == "text" else chart.to_json()


def _cmd_simulate(args: argparse.Namespace) -> int:
    from twentyone.counting.sim_command import (
        check_count_options,
        run_counting,
        setup_from_options,
    )
    from twentyone.engine.rulesets import load_rules
    from twentyone.sim.command import run
    from twentyone.sim.runner import compile_notice
    from twentyone.sim.textbook import shipped_chart

    check_count_options(args)
    rules = load_rules(args.rules)  # (a bad rule set is told before the notice)
    if args.boxes is None:  # a switch table's boxes come in pairs
        args.boxes = 2 if rules.switch else 1
    # the chart's analysis compiles only where no chart is shipped or given (a face-up hole
    # card's chart by dealer total is always derived: sim.textbook.chart_for)
    derived = args.count is not None or (
        args.strategy is None and (rules.hole_card_up or shipped_chart(rules, args.boxes) is None)
    )
    compile_notice(exact=args.exact, chart=derived)
    if args.count is not None:
        setup = setup_from_options(
            rules=rules,
            count=args.count,
            ramp=args.ramp,
            indices=args.indices,
            wong_in=args.wong_in,
            wong_out=args.wong_out,
            players=args.players,
            boxes=args.boxes,
            bankroll=args.bankroll,
        )
        return run_counting(
            rules,
            setup,
            rounds=args.rounds,
            seed=args.seed,
            workers=args.workers,
            as_json=args.json,
        )
    return run(
        rules,
        rounds=args.rounds,
        boxes=args.boxes,
        seed=args.seed,
        workers=args.workers,
        address=args.address,
        strategy_file=args.strategy,
        as_json=args.json,
        exact=args.exact,
    )


def _cmd_verify(args: argparse.Namespace) -> int:
    from twentyone.engine.provable import verify_file

    try:
        with open(args.file, encoding="utf-8") as fh:
            data = json.load(fh)
        checked = verify_file(data, args.commitment)
    except OSError as exc:
        print(json.dumps({"error": f"cannot read {args.file!r}: {exc.strerror}"}))
        return 2
    except json.JSONDecodeError as exc:
        print(json.dumps({"error": f"{args.file!r} is not JSON: {exc}"}))
        return 2
    except ReplayError as exc:
        print(json.dumps({"error": str(exc)}))
        return 2
    print(json.dumps({"ok": True, **checked}))
    return 0


def command_of(argv: Sequence[str]) -> str | None:
    """The command word of ``argv`` (the program's arguments), None where it starts with an
    option (``--help``) or is empty.

    >>> command_of(["edge", "ro-casino", "--json"]), command_of(["-h"]), command_of([])
    ('edge', None, None)
    """
    return argv[0] if argv and not argv[0].startswith("-") else None


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command's parser; with ``command`` one of the commands this module makes itself,
    without the other modules' commands (which that command's parsing never reads; their
    modules import the web server's limits, sockets and the counting package: about 25 ms of
    a new process's ``edge``)."""
    parser = argparse.ArgumentParser(
        prog="twentyone", description="Blackjack exactly as real houses play it."
    )
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("play", help="play at the terminal")
    p.add_argument("--rules", default="ro-casino", help="preset, TOML file or shorthand")
    p.add_argument(
        "--boxes", type=int, default=None, help="boxes to play each round (1; a switch table: 2)"
    )
    p.add_argument(
        "--players",
        default=None,
        help="several players at one table, taking turns: names separated by commas "
        "(ann,bob); each gets --boxes boxes and --bankroll",
    )
    p.add_argument(
        "--bankroll",
        default="1000",
        help="starting bankroll in money, as every amount: 500 or 500.00 (default 1000)",
    )
    p.add_argument("--seed", type=int, default=None, help="seed for a reproducible shoe")
    p.add_argument("--lang", default=None, help=_LANG_HELP)
    p.add_argument("--log", default=None, help="write each round's replay JSON to this file")
    p.add_argument(
        "--hints", action="store_true", help="show the chart's move and the cost of a deviation"
    )
    p.add_argument(
        "--side-bets",
        action="store_true",
        help="ask the table's side bets (pt-casino's jackpot) with each bet; b at a bet "
        "switches them on or off",
    )
    p.set_defaults(func=_cmd_play)

    r = sub.add_parser("replay", help="replay a round from its JSON hand history")
    r.add_argument("file", help="replay JSON file, or - for standard input")
    r.add_argument(
        "--pretty",
        action="store_true",
        help="print each round as a table (boxes, hands, cards, decisions, results), not JSON",
    )
    r.set_defaults(func=_cmd_replay)

    v = sub.add_parser("verify", help="check a provably fair shoe against its rounds")
    v.add_argument("file", help='JSON: {"record": revealed shoe, "rounds": [replays]} or a list')
    v.add_argument(
        "--commitment",
        action="append",
        metavar="HEX",
        help="a commitment you were shown before a shoe (repeatable): a shoe whose record "
        "names another is refused",
    )
    v.set_defaults(func=_cmd_verify)

    c = sub.add_parser("rules", help="print a rule card")
    c.add_argument("name", nargs="?", help="preset, TOML file or shorthand")
    c.add_argument("--list", action="store_true", help="list the presets")
    c.add_argument("--lang", default=None, help=_LANG_HELP)
    c.set_defaults(func=_cmd_rules)

    e = sub.add_parser("edge", help="exact house edge of a rule set")
    e.add_argument("rules", help="preset, TOML file or shorthand")
    e.add_argument("--json", action="store_true", help="print the report as JSON")
    e.add_argument("--boxes", type=int, default=1, help="boxes played (pl.7: one box may split)")
    add_shoe_args(e)
    e.set_defaults(func=cmd_edge)

    a = sub.add_parser("advise", help="exact return of each action on one hand, any shoe")
    a.add_argument("rules", help="preset, TOML file or shorthand")
    a.add_argument("--hand", required=True, help='the hand: "T 6" or "TS 6D"')
    a.add_argument("--up", required=True, help="the dealer's up card: T, A, 6 or 6H")
    a.add_argument("--json", action="store_true", help="print the advice as JSON")
    a.add_argument("--boxes", type=int, default=1, help="boxes played (pl.7: one box may split)")
    add_shoe_args(a)
    a.set_defaults(func=cmd_advise)

    o = sub.add_parser("eor", help="effects of removal of each rank, counts' betting correlations")
    o.add_argument("rules", help="preset, TOML file or shorthand")
    o.add_argument("--json", action="store_true", help="print the effects as JSON")
    o.add_argument("--boxes", type=int, default=1, help="boxes played (pl.7: one box may split)")
    o.set_defaults(func=cmd_eor)

    q = sub.add_parser("par", help="the PAR sheet of a rule set (exact, with a simulation)")
    q.add_argument("rules", help="preset, TOML file or shorthand")
    q.add_argument("--format", choices=("md", "html", "json"), default="md")
    q.add_argument(
        "--rounds",
        type=int,
        default=0,
        help="rounds to simulate (0: none; a variant's distribution: 10,000,000)",
    )
    q.add_argument("--seed", type=int, default=1, help="the simulation's seed")
    q.set_defaults(func=cmd_par)

    g = sub.add_parser("strategy", help="the basic-strategy chart of a rule set")
    g.add_argument("rules", help="preset, TOML file or shorthand")
    g.add_argument("--format", choices=("text", "json", "html", "png"), default="text")
    g.add_argument(
        "-o",
        "--output",
        default=None,
        help="write the chart to this file (and print its path); without it a PNG goes to "
        "standard output when that is a file or a pipe (strategy --format png > chart.png), "
        "to strategy-NAME.png at a terminal",
    )
    g.add_argument("--boxes", type=int, default=1, help="boxes played (pl.7: one box may split)")
    g.add_argument("--lang", default=None, help=_LANG_HELP + " (a switch table's switch chart)")
    g.set_defaults(func=_cmd_strategy)

    s = sub.add_parser("simulate", help="simulate basic strategy over real shoes")
    s.add_argument("rules", help="preset, TOML file or shorthand")
    s.add_argument("--rounds", type=int, required=True, help="rounds to play")
    s.add_argument(
        "--boxes",
        type=int,
        default=None,
        help="boxes of one player each round (1; a switch table: 2, one pair)",
    )
    s.add_argument("--seed", type=int, default=None, help="seed (default: a random one)")
    s.add_argument(
        "--workers", type=int, default=None, help="local processes (default: every core)"
    )
    s.add_argument(
        "--address", default=None, help="run on Ray: auto or ray://host:port (twentyone[cluster])"
    )
    s.add_argument("--strategy", default=None, help="a chart JSON file instead of basic strategy")
    s.add_argument(
        "--exact",
        action="store_true",
        help="compute the exact return to compare with (default: shown only when "
        "`edge` has kept it)",
    )
    s.add_argument("--json", action="store_true", help="print the result as JSON")
    cg = s.add_argument_group("card counting (docs/counting.md)")
    cg.add_argument("--count", default=None, help="count system (hilo, ko, zen...) or TOML file")
    cg.add_argument(
        "--ramp", default=None, help='bet ramp "tc:units ..." such as "0:1 1:2 2:4" or a TOML file'
    )
    cg.add_argument(
        "--indices",
        default=None,
        help="index plays: I18, FAB4, I18+FAB4 (the published Hi-Lo figures), FULL (every "
        "index generated for these rules from the exact analysis, docs/indices/) or a JSON file",
    )
    cg.add_argument(
        "--wong-in", type=int, default=None, help="join (back-count) at this true count"
    )
    cg.add_argument("--wong-out", type=int, default=None, help="leave below this true count")
    cg.add_argument(
        "--players", type=int, default=None, help="players at the table, the counter too"
    )
    cg.add_argument("--bankroll", type=float, default=None, help="bankroll in units: risk of ruin")
    s.set_defaults(func=_cmd_simulate)

    if command in sub.choices:  # one of this module's own
        return parser
    from twentyone.cli.serve import add_serve_parser
    from twentyone.counting.commands import add_parsers
    from twentyone.web import cluster_cli, deploy

    add_serve_parser(sub)
    cluster_cli.add_proxy_config_parser(sub)
    deploy.add_deploy_parser(sub)

    add_parsers(sub)

    from twentyone.cli.train import add_parser as add_train

    add_train(sub)
    return parser


def _told(exc: TwentyOneError, args: argparse.Namespace) -> str:
    """An error in the language the command speaks (``--lang`` or the environment's where the
    command has the option; English where it has not or the language is the error)."""
    from twentyone.i18n import choose_language, describe

    lang = "en"
    if hasattr(args, "lang"):
        with contextlib.suppress(TwentyOneError):
            lang = choose_language(args.lang)
    return describe(exc, lang)


def main(argv: Sequence[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(command_of(words))
    args = parser.parse_args(words)
    analysis = _ANALYSED[0] = args.func in ANALYSIS_COMMANDS
    try:
        with collector_paused() if analysis else contextlib.nullcontext():
            code: int = args.func(args)
        sys.stdout.flush()  # a closed pipe shows here, not at exit
    except TwentyOneError as exc:
        print(f"twentyone: error: {_told(exc, args)}", file=sys.stderr)
        return 2
    except ModuleNotFoundError as exc:  # an optional extra not installed: which one, in a line
        from twentyone.extras import needs_extra

        told = needs_extra(exc, args.command)
        if told is None:
            raise
        _ANALYSED[0] = False  # nothing of the analysis ran: Python's own exit
        print(f"twentyone: error: {told}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        _quiet_stdout()
        return 0  # the reader had what it wanted (`twentyone rules pt-casino | head`)
    return code


def _quiet_stdout() -> None:
    """After the reader closed standard output: point it at /dev/null so that the flush at
    exit writes nothing (and prints no second error)."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return  # not a real file (tests capture it)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)


#: Whether the command run was an analysis (set by :func:`main` for :func:`entry`).
_ANALYSED = [False]


def entry() -> None:
    """Console-script entry point. After an analysis command the process ends without
    Python's teardown (freeing numba's and LLVM's hundreds of thousands of objects one by
    one: about 0.1 s of a 0.8 s ``edge``): its output is flushed, its files closed, its
    second processes joined; nothing else is left to do at exit."""
    code = main()
    if _ANALYSED[0]:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except BrokenPipeError:
            _quiet_stdout()
        os._exit(code)
    sys.exit(code)
