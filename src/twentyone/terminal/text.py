"""How the terminal game draws cards, totals, results and money (rich ``Text``), in the
player's language.

The game speaks one language at a time: :func:`use_language` picks it (``twentyone play``
calls it once per session) and :func:`_`, :func:`_n` and :func:`money` speak it. Messages are
written in English with named placeholders (``_("Bet on box {seat}", seat=2)``); the catalogs
of :mod:`twentyone.i18n` translate them.

>>> from twentyone.engine.cards import parse_cards
>>> _ = use_language("en")
>>> total_text(parse_cards("AS 6D")), total_text(parse_cards("TS 9D 5C"))
('soft 17', 'bust 24')
>>> cards_text(parse_cards("TH"), hidden=1).plain
'10♥ ??'
>>> _ = use_language("ru")
>>> total_text(parse_cards("AS 6D")), money(123_450) == "1\\u00a0234,50"
('мягкие 17', True)
>>> _ = use_language("en")
"""

from __future__ import annotations

import gettext
from collections.abc import Iterable, Sequence

from babel.numbers import format_percent
from rich.text import Text

from twentyone import i18n
from twentyone.engine.cards import Card, hand_total
from twentyone.engine.errors import N_, BetError, TwentyOneError
from twentyone.engine.hands import Hand
from twentyone.engine.rules import Rules
from twentyone.engine.stats import Stats


class _Speech:
    """The language the game speaks now."""

    lang = "en"
    tr: gettext.NullTranslations = gettext.NullTranslations()


_SPEECH = _Speech()


def use_language(lang: str | None) -> str:
    """Speak ``lang`` (``None``: the environment's language, else English); returns its code.
    An unknown language raises :class:`~twentyone.i18n.LanguageError`."""
    code = i18n.choose_language(lang)
    _SPEECH.lang, _SPEECH.tr = code, i18n.translator(code)
    return code


def language() -> str:
    """The code of the language spoken now."""
    return _SPEECH.lang


def _(message: str, **values: object) -> str:
    """``message`` translated, its ``{named}`` placeholders filled from ``values``."""
    text = _SPEECH.tr.gettext(message)
    return text.format(**values) if values else text


def _n(singular: str, plural: str, n: int, **values: object) -> str:
    """The plural form for ``n`` of a message (``{n}`` is filled too)."""
    return _SPEECH.tr.ngettext(singular, plural, n).format(n=n, **values)


def _p(context: str, message: str) -> str:
    """``message`` translated in ``context`` (short words such as the yes/no keys)."""
    return _SPEECH.tr.pgettext(context, message)


#: The single key that answers each play action (``double`` covers ``double:N`` too). The keys
#: are the same in every language; the action names beside them are translated.
ACTION_KEYS = {
    "hit": "h",
    "stand": "s",
    "double": "d",
    "split": "p",
    "surrender": "r",
    "rescue": "e",
}

#: The Russian (ЙЦУКЕН) layout's letter on each Latin key: a player who left the keyboard in
#: Russian presses ``р`` for ``h``; the game takes the key's place, not its letter.
CYRILLIC_KEYS = dict(
    zip(
        "йцукенгшщзхъфывапролджэячсмитьбю",
        "qwertyuiop[]asdfghjkl;'zxcvbnm,.",
        strict=True,
    )
)


def latin_key(answer: str) -> str:
    """The Latin key in the place of a one-letter answer typed in the Russian layout (``р`` is
    ``h``, ``ы`` is ``s``); any other answer as it is.

    >>> latin_key("р"), latin_key("Ы"), latin_key("в"), latin_key("з"), latin_key("к")
    ('h', 's', 'd', 'p', 'r')
    >>> latin_key("h"), latin_key("hit")
    ('h', 'hit')
    """
    return CYRILLIC_KEYS.get(answer.lower(), answer) if len(answer) == 1 else answer


#: Each play action's name as the menu shows it.
ACTION_NAMES = {
    "hit": N_("hit"),
    "stand": N_("stand"),
    "double": N_("double"),
    "split": N_("split"),
    "surrender": N_("surrender"),
    "no-surrender": N_("no surrender"),
    "rescue": N_("rescue"),
}

RESULT_WORDS = {
    "blackjack": (N_("BLACKJACK"), "bold green"),
    "win": (N_("win"), "bold green"),
    "bonus-21": (N_("21 BONUS"), "bold green"),
    "even-money": (N_("even money"), "green"),
    "push": (N_("push"), "yellow"),
    "lose": (N_("lose"), "red"),
    "bust": (N_("bust"), "red"),
    "surrender": (N_("surrendered"), "yellow"),
    "rescue": (N_("rescued"), "yellow"),
}


def action_name(action: str) -> str:
    """A play action's name in the game's language (``double:50`` is a double; a name the
    menu does not know is returned as it is)."""
    name = action.split(":")[0]
    return _(ACTION_NAMES[name]) if name in ACTION_NAMES else action


def percent(value: float) -> str:
    """A fraction as a percentage with two decimals, for the locale: every percentage a player
    reads in the terminal (hints, costs, the trainer's accuracy) goes through here, so they
    share one precision (``82.76%``, ``51.00%``, ``0.04%``; ``82,76%`` in ru).

    >>> percent(0.51), percent(0.5169), percent(0.0004)
    ('51.00%', '51.69%', '0.04%')
    """
    return format_percent(value, "#,##0.00%", locale=i18n.number_locale(_SPEECH.lang))


def stakes_text(rules: Rules, stakes: Iterable[tuple[int, dict[str, int]]]) -> str:
    """Bets box by box, each with its side bets (``r``'s offer and "Rebet"): ``main`` and
    each side bet's id to its stake (a ``"main"`` key among the sides is skipped).

    >>> from twentyone.engine.rulesets import load_rules
    >>> stakes_text(load_rules("pt-casino"), [(1000, {"jackpot": 100}), (500, {})])
    '10.00 + Aces jackpot 1.00 · 5.00'
    """
    shown = []
    for main, sides in stakes:
        parts = [money(main)]
        for side_id, amount in sides.items():
            if side_id != "main" and amount:
                title = rules.side_bet(side_id, staked=False).spec.title
                parts.append(f"{_(title)} {money(amount)}")
        shown.append(" + ".join(parts))
    return " · ".join(shown)


def hint_text(move: str, returns: dict[str, float]) -> str:
    """The ``--hints`` line, in words: the chart's move and what each of the two nearest
    other choices costs (or, where the cards left favour it, gains) per unit bet against it,
    from the exact returns (``returns``: per unit bet, by action).

    >>> print(hint_text("hit", {"stand": -0.5, "hit": -0.25, "double": -0.5037}))
    ... # doctest: +NORMALIZE_WHITESPACE
    Hint: the chart says hit; stand costs 25.00% of your bet on average;
    double costs 25.37% of your bet on average.
    >>> _ = use_language("ru")
    >>> hint_text("hit", {"stand": -0.5, "hit": -0.25})
    'Подсказка: по таблице — ещё; «хватит» в среднем стоит 25,00% ставки.'
    >>> _ = use_language("en")
    """
    best = returns.get(move)
    if best is None:
        return _("Hint: the chart says {move}.", move=action_name(move))
    others = sorted((best - v, k) for k, v in returns.items() if k != move)
    parts = []
    for cost, action in others[:2]:
        if cost > -5e-5:
            parts.append(
                _(
                    "{action} costs {cost} of your bet on average",
                    action=action_name(action),
                    cost=percent(max(cost, 0.0)),
                )
            )
        else:
            parts.append(
                _(
                    "{action} gains {gain} of your bet on average with the cards left",
                    action=action_name(action),
                    gain=percent(-cost),
                )
            )
    if not parts:
        return _("Hint: the chart says {move}.", move=action_name(move))
    return _(
        "Hint: the chart says {move}; {costs}.", move=action_name(move), costs="; ".join(parts)
    )


def insurance_hint(insurance: float, chance: float) -> str:
    """The ``--hints`` line before an insurance question: ``insurance`` is its return per unit
    insured, ``chance`` the dealer's chance of a blackjack over the cards left.

    >>> print(insurance_hint(-0.0740, 0.3087))  # doctest: +NORMALIZE_WHITESPACE
    Hint: decline insurance; it loses 7.40% of what you insure on average
    (a dealer blackjack: 30.87%).
    """
    if insurance < 0:
        return _(
            "Hint: decline insurance; it loses {cost} of what you insure on average (a dealer "
            "blackjack: {chance}).",
            cost=percent(-insurance),
            chance=percent(chance),
        )
    return _(
        "Hint: insure; with the cards left it gains {gain} of what you insure on average (a "
        "dealer blackjack: {chance}).",
        gain=percent(insurance),
        chance=percent(chance),
    )


def even_money_hint(declined: float, chance: float) -> str:
    """The ``--hints`` line before an even-money question: even money pays the bet for sure;
    ``declined`` is what the blackjack returns per unit bet waiting for the dealer's card.

    >>> print(even_money_hint(1.0388, 0.3074))  # doctest: +NORMALIZE_WHITESPACE
    Hint: decline even money; waiting returns 103.88% of your bet on average,
    even money 100.00%.
    """
    if declined > 1.0:
        return _(
            "Hint: decline even money; waiting returns {ret} of your bet on average, even money "
            "{sure}.",
            ret=percent(declined),
            sure=percent(1.0),
        )
    return _(
        "Hint: take even money; waiting returns only {ret} of your bet on average (a dealer "
        "blackjack: {chance}).",
        ret=percent(declined),
        chance=percent(chance),
    )


def dealer_rule(rules: Rules) -> str:
    """The dealer's soft-17 rule as the table's line of facts says it.

    >>> dealer_rule(Rules(decks=1)), dealer_rule(Rules(decks=1, dealer_hits_soft_17=True))
    ('dealer stands on soft 17', 'dealer hits soft 17')
    >>> dealer_rule(Rules(decks=1, dealer_hits_soft_17=True, dealer_hits_soft_17_min_cards=3))
    'dealer hits soft 17 with 3 or more cards'
    """
    if rules.soft_17_hit_from > 2:
        return _("dealer hits soft 17 with {n} or more cards", n=rules.soft_17_hit_from)
    if rules.dealer_hits_soft_17:
        return _("dealer hits soft 17")
    return _("dealer stands on soft 17")


def table_facts(rules: Rules) -> list[str]:
    """The table's line of facts as a header shows it: the limits, the blackjack payout, the
    dealer's soft-17 rule, no hole card where there is none, the decks.

    >>> table_facts(Rules(decks=6, hole_card=False, peek=False))[1:]
    ['blackjack pays 3:2', 'dealer stands on soft 17', 'no hole card', '6 decks']
    >>> table_facts(Rules(decks=6, dealer_22="push"))[3]
    "dealer's 22 pushes"
    """
    bj = f"{rules.blackjack_pays.numerator}:{rules.blackjack_pays.denominator}"
    return [
        _("bets {lo} to {hi}", lo=money(rules.table_min), hi=money(rules.table_max)),
        _("blackjack pays {ratio}", ratio=bj),
        dealer_rule(rules),
        *([_("dealer's 22 pushes")] if rules.dealer_22 == "push" else []),
        *([] if rules.hole_card else [_("no hole card")]),
        _n("{n} deck", "{n} decks", rules.decks),
    ]


def yes_no_keys() -> tuple[str, str]:
    """The keys for yes and no in the game's language (``y``/``n`` are always accepted too)."""
    return _p("yes key", "y"), _p("no key", "n")


def money(units: int, *, sign: bool = False) -> str:
    """Minor units as money in the game's language, grouped as the locale does (``123450`` ->
    ``'1,234.50'`` in English, ``'1 234,50'`` in Russian)."""
    return i18n.format_money(units, _SPEECH.lang, sign=sign)


def parse_amount(text: str) -> int:
    """An amount typed in the game's language (the locale's decimal comma too), in minor units;
    :class:`ValueError` with a translated message if it is not one."""
    try:
        return i18n.parse_amount(text, _SPEECH.lang)
    except ValueError:
        example = money(1050)
        raise ValueError(
            _(
                "{text!r} is not an amount: expected money such as 10 or {example}",
                text=text.strip(),
                example=example,
            )
        ) from None


def reason(exc: Exception) -> str:
    """Why something was refused, in the game's language: an engine error is told from its
    code and parameters (:func:`twentyone.i18n.describe`), another error as it reads.

    >>> from twentyone.engine.errors import BetError
    >>> _ = use_language("pl")
    >>> reason(BetError("no-bets"))
    'brak stawek: runda wymaga co najmniej jednego pola ze stawką'
    >>> _ = use_language("en")
    """
    if isinstance(exc, TwentyOneError):
        return i18n.describe(exc, _SPEECH.lang)
    return str(exc)


def card_text(card: Card) -> Text:
    """A card with its suit symbol, red for hearts and diamonds."""
    return Text(card.pretty, style="bold red" if card.suit in "HD" else "bold")


def cards_text(cards: Iterable[Card], hidden: int = 0) -> Text:
    """Cards side by side; ``hidden`` face-down cards print as ``??``."""
    parts = [card_text(c) for c in cards] + [Text("??", style="dim") for _ in range(hidden)]
    return Text(" ").join(parts)


def total_text(cards: Sequence[Card], *, blackjack: bool = False, push22: bool = False) -> str:
    """``17``, ``soft 17``, ``bust 25`` or ``blackjack``; ``push22``: the dealer's cards under
    ``dealer_22 = "push"``, whose 22 is no bust.

    >>> from twentyone.engine.cards import parse_cards
    >>> total_text(parse_cards("TS 6D 6C")), total_text(parse_cards("TS 6D 6C"), push22=True)
    ('bust 22', '22, pushes')
    """
    if blackjack:
        return _("blackjack")
    t = hand_total(cards)
    if push22 and t.total == 22:
        return _("22, pushes")
    if t.total > 21:
        return _("bust {total}", total=t.total)
    return _("soft {total}", total=t.total) if t.soft else str(t.total)


def side_outcome(paid: int, stake: int) -> str:
    """What a side bet (insurance, a table's side bet) of ``stake`` came to, having paid
    ``paid``."""
    if not paid:
        return _("lost ({amount})", amount=money(-stake))
    return _("paid {amount} ({net})", amount=money(paid), net=money(paid - stake, sign=True))


def hand_paid(hand: Hand) -> str:
    """What a settled hand was paid: ``paid 20.00 + bonus 15.00 (+25.00)``."""
    extra = _(" + bonus {amount}", amount=money(hand.bonus)) if hand.bonus else ""
    net = money(hand.returned + hand.bonus - hand.bet, sign=True)
    return _("paid {amount}{extra} ({net})", amount=money(hand.returned), extra=extra, net=net)


def stats_lines(s: Stats, start: int, end: int) -> list[str | Text]:
    """A player's summary lines: their statistics and bankroll from ``start`` to ``end``."""
    style = "bold green" if s.net > 0 else "bold red" if s.net < 0 else "bold"
    return [
        _("Rounds played: {n}", n=s.rounds),
        _(
            "Hands: {hands} · won {won} · lost {lost} · pushed {pushed} · surrendered {surr}",
            hands=s.hands,
            won=s.won,
            lost=s.lost,
            pushed=s.pushed,
            surr=s.surrendered,
        ),
        _("Blackjacks: {n}", n=s.blackjacks),
        Text(_("Net: {net}", net=money(s.net, sign=True)), style=style),
        _("Biggest win: {amount}", amount=money(s.biggest_win, sign=True)),
        _(
            "Bankroll: {start} -> {end}",
            start=money(start),
            end=money(end),
        ),
    ]


def default_boxes(rules: Rules, boxes: int | None) -> int:
    """``--boxes``, or where it is not given one box (a switch pair at a switch table).

    >>> from twentyone.engine.rulesets import load_rules
    >>> default_boxes(load_rules("switch"), None), default_boxes(load_rules("ro-casino"), None)
    (2, 1)
    """
    if boxes is not None:
        return boxes
    return 2 if rules.switch else 1


def check_options(rules: Rules, boxes: int, bankroll: int, log_path: str | None) -> None:
    """Raise :class:`~twentyone.engine.errors.TwentyOneError` (see :func:`reason`) for a bad
    ``--boxes``, ``--bankroll`` or ``--log`` of ``twentyone play``."""
    if not 1 <= boxes <= rules.boxes_per_player:
        raise BetError("option-boxes", boxes=boxes, table=rules.name, most=rules.boxes_per_player)
    if rules.switch and boxes % 2:
        raise BetError("option-boxes-pairs", boxes=boxes, table=rules.name)
    if bankroll < rules.table_min:
        raise BetError("option-bankroll", amount=bankroll, minimum=rules.table_min)
    if log_path is not None:
        try:
            with open(log_path, "a", encoding="utf-8"):
                pass
        except OSError as exc:
            raise TwentyOneError("option-log", path=log_path, why=exc.strerror) from exc
