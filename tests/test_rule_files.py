"""Rule sets as a new user writes them (issue 29, item 4): a copied preset's name, the split
limits real houses use, and errors that name the key, the value and what is expected."""

from __future__ import annotations

from pathlib import Path

import pytest

from twentyone.engine.errors import RulesError
from twentyone.engine.rules import Rules
from twentyone.engine.rulesets import load_rules, preset_text


def _copy(tmp_path: Path, filename: str, *changes: tuple[str, str]) -> Path:
    text = preset_text("pt-casino")
    for old, new in changes:
        assert old in text
        text = text.replace(old, new)
    path = tmp_path / filename
    path.write_text(text, "utf-8")
    return path


def test_a_copied_preset_that_changes_a_rule_is_named_by_its_file(tmp_path: Path) -> None:
    path = _copy(tmp_path, "house.toml", ('blackjack_pays = "3:2"', 'blackjack_pays = "6:5"'))
    rules = load_rules(str(path))
    assert rules.name == "house" and rules.blackjack_pays == load_rules("6D BJ6:5").blackjack_pays
    # named as the preset's file would be: a file called after the preset keeps its suffix
    assert load_rules(str(path.rename(tmp_path / "pt-casino.toml"))).name == "pt-casino.toml"


def test_an_unchanged_copy_of_a_preset_keeps_the_presets_name(tmp_path: Path) -> None:
    assert load_rules(str(_copy(tmp_path, "copy.toml"))).name == "pt-casino"


def test_a_rule_files_own_name_names_it_else_its_file_name(tmp_path: Path) -> None:
    named = _copy(
        tmp_path,
        "a.toml",
        ('name = "pt-casino"', 'name = "Casino Lisboa 6:5"'),
        ('blackjack_pays = "3:2"', 'blackjack_pays = "6:5"'),
    )
    assert load_rules(str(named)).name == "Casino Lisboa 6:5"
    plain = tmp_path / "my-table.toml"
    plain.write_text("decks = 2\n", "utf-8")
    assert load_rules(str(plain)).name == "my-table"


@pytest.mark.parametrize("hands", [1, 2, 3, 4, "unlimited"])
def test_one_to_four_hands_or_no_limit_are_the_split_limits(hands: int | str) -> None:
    assert Rules(decks=6, max_hands=hands).max_hands == hands  # type: ignore[arg-type]


@pytest.mark.parametrize("hands", [0, 5, 8, 100])
def test_a_hand_limit_beyond_what_houses_use_is_refused_with_the_range(hands: int) -> None:
    with pytest.raises(RulesError) as got:
        Rules(decks=6, max_hands=hands)
    assert str(got.value) == (
        f"max_hands={hands}: expected 1 (no split) to 4 hands, or 'unlimited' (no limit)"
    )


@pytest.mark.parametrize("token", ["SPL4", "SPL9", "SPL99"])
def test_shorthand_splits_beyond_three_are_refused_naming_splu(token: str) -> None:
    with pytest.raises(RulesError) as got:
        load_rules(f"6D {token}")
    assert str(got.value) == (
        f"shorthand token {token!r}: expected SPL0 to SPL3 (up to 3 splits: 4 hands) or "
        "SPLU (no limit)"
    )


def test_shorthand_splu_is_no_limit_and_spl0_no_split() -> None:
    assert load_rules("6D SPLU").max_hands == "unlimited"
    assert load_rules("6D SPL0").max_hands == 1 and load_rules("6D SPL3").max_hands == 4


def test_a_ratio_in_an_error_reads_as_the_rule_files_write_it() -> None:
    with pytest.raises(RulesError) as got:
        load_rules("6D BJ0:1")
    assert str(got.value) == "blackjack_pays='0:1': expected a positive ratio such as 3:2"
    assert "Fraction" not in str(got.value)


def test_a_bad_blackjack_payout_is_hinted_as_a_payout() -> None:
    with pytest.raises(RulesError) as got:
        Rules(decks=6, blackjack_pays="x")  # type: ignore[arg-type]
    assert str(got.value) == "blackjack_pays='x': expected a payout such as '3:2' (3 to 2) or '6:5'"
    assert "2/3" not in str(got.value)


def test_an_unknown_key_is_named_with_the_fields(tmp_path: Path) -> None:
    path = tmp_path / "typo.toml"
    path.write_text('decks = 6\nsurender = "late"\n', "utf-8")
    with pytest.raises(RulesError) as got:
        load_rules(str(path))
    text = str(got.value)
    assert text.startswith(f"{path}: unknown key 'surender': expected one of blackjack_")
    assert "surrender_before_play" in text and "__init__" not in text


def test_a_rule_file_without_decks_says_so(tmp_path: Path) -> None:
    path = tmp_path / "nodecks.toml"
    path.write_text('surrender = "late"\n', "utf-8")
    with pytest.raises(RulesError) as got:
        load_rules(str(path))
    assert str(got.value) == f"{path}: no decks: a rule set needs decks = 1 to 8"
