"""No traceback (issue 15, item 5): every command answers bad input and a missing extra with
one clear line on standard error and exit status 2. One test per row of the issue."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from twentyone.cli import main
from twentyone.engine.errors import RulesError
from twentyone.engine.rulesets import load_rules


def _one_line_error(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[str, str]:
    """Run ``twentyone argv``: exit 2, one line on standard error, no traceback."""
    assert main(list(argv)) == 2
    out, err = capsys.readouterr()
    assert err.count("\n") == 1 and err.startswith("twentyone: error: "), err
    assert "Traceback" not in err
    return out, err


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_strategy_png_without_matplotlib_says_so_before_computing(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import twentyone.analysis

    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if it were not installed

    def computed(*args: Any, **kw: Any) -> None:
        raise AssertionError("the chart was computed before the check")

    monkeypatch.setattr(twentyone.analysis, "basic_strategy", computed)
    _, err = _one_line_error(capsys, "strategy", "ru-online", "--format", "png")
    assert "matplotlib" in err and "twentyone[png]" in err


def test_chart_png_without_matplotlib_is_a_named_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from twentyone.analysis.chart import chart_png
    from twentyone.engine.errors import TwentyOneError
    from twentyone.engine.strategy import Strategy

    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(TwentyOneError) as got:
        chart_png(Strategy.uniform("S"))
    assert got.value.code == "png-needs-matplotlib"


def test_serve_with_an_unreachable_postgresql_url(capsys: pytest.CaptureFixture[str]) -> None:
    url = "postgresql://ann:secret@127.0.0.1:1/twentyone"  # nothing listens on port 1
    port = str(_free_port())
    out, err = _one_line_error(capsys, "serve", "--port", port, "--database-url", url)
    assert "cannot open the database" in err and "127.0.0.1:1" in err
    assert "secret" not in err  # the password is not printed
    assert "serving on" not in out


def test_serve_with_a_database_url_of_no_known_kind(capsys: pytest.CaptureFixture[str]) -> None:
    port = str(_free_port())
    _, err = _one_line_error(capsys, "serve", "--port", port, "--database-url", "nosuch://x")
    assert "--database-url nosuch://x" in err


def test_rules_into_a_closed_pipe_prints_no_traceback() -> None:
    """``twentyone rules pt-casino | head``: the reader closes before the card is written."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "twentyone.cli", "rules", "pt-casino"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # before the child writes: every write meets a closed pipe
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 0
    assert err == ""


def test_rules_piped_into_head_through_a_shell(tmp_path: Path) -> None:
    cmd = f"'{sys.executable}' -m twentyone.cli rules pt-casino 2>'{tmp_path}/err' | head -1"
    out = subprocess.run(["sh", "-c", cmd], capture_output=True, text=True, check=True)
    assert out.stdout == "pt-casino\n"
    assert (tmp_path / "err").read_text() == ""


@pytest.mark.parametrize("port", ["80000", "0", "-1", "65536"])
def test_serve_refuses_a_port_outside_1_to_65535(
    capsys: pytest.CaptureFixture[str], port: str
) -> None:
    out, err = _one_line_error(capsys, "serve", "--port", port)
    assert f"--port {port}: expected a port from 1 to 65535" in err
    assert "serving on" not in out


def test_serve_on_a_busy_port_says_so_before_serving_on(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        db = f"sqlite:///{tmp_path / 'x.db'}"
        out, err = _one_line_error(capsys, "serve", "--port", str(port), "--database-url", db)
    assert f"cannot listen on 127.0.0.1:{port}" in err
    assert out == ""  # no "serving on" before the error


@pytest.mark.parametrize(
    ("text", "first", "second"),
    [
        ("6D S17 H17", "S17", "H17"),
        ("6D 8D", "6D", "8D"),
        ("6D NS LS", "NS", "LS"),
        ("6D DAS NDAS", "DAS", "NDAS"),
        ("6D ENHC OBO", "ENHC", "OBO"),
        ("6D CSM PEN0.8", "CSM", "PEN0.8"),
        ("6D D9 D10", "D9", "D10"),
        ("6D BJ3:2 BJ6:5", "BJ3:2", "BJ6:5"),
    ],
)
def test_contradictory_shorthand_is_an_error(text: str, first: str, second: str) -> None:
    with pytest.raises(RulesError) as got:
        load_rules(text)
    assert got.value.code == "contradictory-tokens"
    assert got.value.params["first"] == first and got.value.params["second"] == second


def test_a_token_said_twice_is_no_contradiction() -> None:
    assert load_rules("6D H17 H17").dealer_hits_soft_17
    assert load_rules("6D H17 DAS").dealer_hits_soft_17


def test_rules_command_refuses_6d_s17_h17(capsys: pytest.CaptureFixture[str]) -> None:
    _, err = _one_line_error(capsys, "rules", "6D S17 H17")
    assert "'6D S17 H17' says both S17 and H17" in err


def test_edge_table_shows_no_raw_keys() -> None:
    from rich.console import Console

    from twentyone.analysis.report import EdgeReport
    from twentyone.analysis.side_bets import side_bets
    from twentyone.analysis.view import edge_table

    for preset in ("pt-casino", "hu-casino", "ro-casino"):
        report = EdgeReport(
            rules=preset,
            ev_basic=-0.005,
            ev_optimal=-0.004,
            by_upcard={},
            dealer_totals={},
            sd=None,
            side_bets=side_bets(load_rules(preset)),
            split_method="CDZ-",
            seconds=0.1,
        )
        console = Console(width=200, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
        console.print(edge_table(report))
        text = console.export_text()
        for raw in ("even_money", "bonus_678_777", "blackjack_vs_ace", "insure_half", "678-777"):
            assert raw not in text, (preset, raw)
        assert "even money" in text


def test_pt_edge_names_its_side_bets() -> None:
    from rich.console import Console

    from twentyone.analysis.report import EdgeReport
    from twentyone.analysis.side_bets import side_bets
    from twentyone.analysis.view import edge_table

    report = EdgeReport(
        rules="pt-casino",
        ev_basic=-0.005,
        ev_optimal=-0.004,
        by_upcard={},
        dealer_totals={},
        sd=None,
        side_bets=side_bets(load_rules("pt-casino")),
        split_method="CDZ-",
        seconds=0.1,
    )
    console = Console(width=200, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(edge_table(report))
    text = console.export_text()
    assert "6-7-8 / 7-7-7 bonus" in text and "Aces jackpot" in text
    assert "first 3 cards aces pays 250" in text


def test_hu_chart_legend_lists_no_surrender_code() -> None:
    from twentyone.analysis import basic_strategy
    from twentyone.analysis.chart import chart_text, legend

    hu = basic_strategy(load_rules("hu-casino"))  # hu.8: no surrender
    text = chart_text(hu)
    assert "surrender" not in text and not any(code.startswith("R") for code in legend(hu))
    ro = basic_strategy(load_rules("ro-casino"))  # ro.12: early surrender
    assert any(code.startswith("R") for code in legend(ro))


def test_simulate_says_it_compiles_before_the_first_run(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The notice is h12b's (analysis/warmup.py, ``command="simulate"``); simulate says it
    before the run, so the first run is never silent at 0%."""
    import twentyone.analysis.warmup as warmup
    import twentyone.sim.command

    told: list[str] = []
    monkeypatch.setattr(
        warmup, "compile_pending", lambda command="analysis", resplits=True, extra=(): True
    )

    def run(*args: Any, **kw: Any) -> int:
        told.append(capsys.readouterr().err)  # what was said before the simulation began
        return 0

    monkeypatch.setattr(twentyone.sim.command, "run", run)
    assert main(["simulate", "ru-online", "--rounds", "10"]) == 0
    assert told and "compiling the simulator" in told[0] and "cache" in told[0]
    monkeypatch.setattr(
        warmup, "compile_pending", lambda command="analysis", resplits=True, extra=(): False
    )
    told.clear()
    assert main(["simulate", "ru-online", "--rounds", "10"]) == 0
    assert told == [""]


def _answers(url: str, seconds: float = 60.0) -> None:
    """Wait until ``url`` answers 200 (the server has started: Ctrl-C is its to handle)."""
    import time
    import urllib.request

    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(url, timeout=10) as r:
                assert r.status == 200
                return
        except OSError:
            assert time.monotonic() < deadline, f"{url} never answered"
            time.sleep(0.2)


def test_serve_says_where_it_serves_and_stops_cleanly_on_ctrl_c(tmp_path: Path) -> None:
    """After the checks, "serving on" names the real port; Ctrl-C ends it with status 0."""
    import signal

    port = _free_port()
    db = f"sqlite:///{tmp_path / 'x.db'}"
    argv = ["serve", "--port", str(port), "--database-url", db, "--table", "solo=ru-online"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "twentyone.cli", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line == f"twentyone: serving on http://127.0.0.1:{port}/\n"
        _answers(f"http://127.0.0.1:{port}/api/tables")  # it serves where it said
    finally:
        proc.send_signal(signal.SIGINT)
        code = proc.wait(timeout=60)
    assert code == 0
    assert proc.stderr is not None and "Traceback" not in proc.stderr.read()


# ----------------------------------------------------------------------------- issue 29, item 4
def test_advise_refuses_a_one_card_hand(capsys: pytest.CaptureFixture[str]) -> None:
    _, err = _one_line_error(capsys, "advise", "6D", "--hand", "T", "--up", "6")
    assert err == (
        "twentyone: error: hand 'T': expected two cards or more, such as 'T 6' or 'TS 6D'\n"
    )


def test_a_bad_rank_is_worded_alike_in_advise_and_edge(capsys: pytest.CaptureFixture[str]) -> None:
    want = "twentyone: error: bad rank 'X': expected one of 2 3 4 5 6 7 8 9 T J Q K A\n"
    assert _one_line_error(capsys, "advise", "6D", "--hand", "T X", "--up", "6")[1] == want
    assert _one_line_error(capsys, "advise", "6D", "--hand", "T 6", "--up", "X")[1] == want
    assert _one_line_error(capsys, "edge", "6D S17", "--remove", "5 X")[1] == want


def test_an_unknown_toml_key_is_named_not_pythons_words(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "house.toml"
    path.write_text("decks = 6\nbogus = 1\n", "utf-8")
    _, err = _one_line_error(capsys, "rules", str(path))
    assert f"{path}: unknown key 'bogus': expected one of blackjack_paid_at_once," in err
    assert "__init__" not in err and "keyword argument" not in err


def test_shorthand_errors_print_ratios_not_fractions(capsys: pytest.CaptureFixture[str]) -> None:
    _, err = _one_line_error(capsys, "rules", "6D BJ0:1")
    assert err == "twentyone: error: blackjack_pays='0:1': expected a positive ratio such as 3:2\n"


def test_rules_refuse_spl9_naming_the_range(capsys: pytest.CaptureFixture[str]) -> None:
    _, err = _one_line_error(capsys, "rules", "6D SPL9")
    assert "'SPL9': expected SPL0 to SPL3" in err and "SPLU (no limit)" in err


def test_simulate_indices_naming_no_set_nor_file_lists_the_sets(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import twentyone.sim.runner

    monkeypatch.setattr(twentyone.sim.runner, "compile_notice", lambda **kw: False)
    argv = ["simulate", "6D", "--rounds", "10", "--count", "hilo", "--indices", "I19"]
    _, err = _one_line_error(capsys, *argv)
    assert err == (
        "twentyone: error: --indices 'I19': no such index set or file: expected I18, FAB4, "
        "I18+FAB4, FULL or a JSON file\n"
    )


@pytest.mark.parametrize(
    ("boxes", "players", "said"),
    [("1", "a,b,c,d,e,f,g,h", "8 players with 1 box each"), ("2", "a,b,c,d", "2 boxes each")],
)
def test_players_who_need_more_boxes_than_the_table_has_agree_in_number(
    capsys: pytest.CaptureFixture[str], boxes: str, players: str, said: str
) -> None:
    argv = ["play", "--rules", "ro-casino", "--players", players, "--boxes", boxes, "--lang", "en"]
    _, err = _one_line_error(capsys, *argv)
    assert said in err and "1 boxes" not in err


@pytest.mark.parametrize(
    ("boxes", "said"), [(1, "по 1 боксу"), (2, "по 2 бокса"), (5, "по 5 боксов")]
)
def test_an_error_with_a_count_takes_the_languages_plural_form(boxes: int, said: str) -> None:
    from twentyone.engine.errors import BetError
    from twentyone.i18n import describe

    err = BetError("option-players-boxes", n=8, boxes=boxes, need=8 * boxes, table="t", most=7)
    assert said in describe(err, "ru")
    assert (" 1 box each" in str(err)) == (boxes == 1)


def test_strategy_output_into_a_missing_folder_is_told_before_computing(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import twentyone.analysis

    def computed(*args: Any, **kw: Any) -> None:
        raise AssertionError("the chart was computed before the check")

    monkeypatch.setattr(twentyone.analysis, "basic_strategy", computed)
    path = tmp_path / "no-such-folder" / "c.png"
    _, err = _one_line_error(capsys, "strategy", "ru-online", "--format", "png", "-o", str(path))
    assert repr(str(path)) in err and "no-such-folder" in err and "folder that exists" in err
    assert not path.parent.exists()


def test_strategy_output_a_file_cannot_be_written_to_names_the_path_and_reason(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import twentyone.analysis
    from twentyone.engine.strategy import Strategy

    monkeypatch.setattr(twentyone.analysis, "basic_strategy", lambda *a, **k: Strategy.uniform("S"))
    _, err = _one_line_error(capsys, "strategy", "ru-online", "-o", str(tmp_path))  # a folder
    assert repr(str(tmp_path)) in err and "Is a directory" in err
