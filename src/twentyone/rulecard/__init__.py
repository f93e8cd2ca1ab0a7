"""The rule card: a table's rules in plain words, as a casino posts them beside the table.

Every sentence is generated from the fields of a :class:`~twentyone.engine.rules.Rules`, so any rule
set (a preset, a house's own TOML file, shorthand) gets its card; nothing is written per preset.
The card speaks any of the six languages of :mod:`twentyone.i18n`: each sentence is one
translatable message with named placeholders (plural forms where a number is counted), so a new
rule set needs no new strings.

>>> from twentyone.engine.rulesets import load_rules
>>> card = rule_card(load_rules("ru-online"))
>>> print("\\n".join(card.splitlines()[:6]))
ru-online
=========
<BLANKLINE>
The game
  - 6 decks of 52 cards dealt from a shoe, with a cut card at 2/3 of the shoe:
    when it comes out, the round is finished and the cards are shuffled before
>>> words = " ".join(card.split())  # the card's sentences, line breaks undone
>>> "Blackjack pays 3 to 2" in words, "No surrender." in words
(True, True)
>>> "Insurance is offered on each box when the dealer's first card is an ace or a ten" in words
True
"""

from __future__ import annotations

import textwrap

from twentyone.engine.rules import Rules
from twentyone.i18n import Words
from twentyone.rulecard.phrases import money, ratio
from twentyone.rulecard.play import bonuses, doubling, playing, splitting
from twentyone.rulecard.table import blackjack, dealer, game, insurance, surrender

__all__ = ["WIDTH", "money", "ratio", "rule_card", "rule_card_sections"]

WIDTH = 78


def rule_card_sections(rules: Rules, lang: str = "en") -> list[tuple[str, list[str]]]:
    """The rule card of ``rules`` in ``lang`` as its sections: (title, sentences), empty
    sections left out. The web page draws them as a panel; :func:`rule_card` as text.

    >>> from twentyone.engine.rules import PAIR_VALUES, Rules
    >>> [title for title, _ in rule_card_sections(Rules(decks=1))][:3]
    ['The game', 'The dealer', 'Blackjack']
    """
    w = Words(lang)
    sections = [
        (w._("The game"), game(rules, w)),
        (w._("The dealer"), dealer(rules, w)),
        (w._("Blackjack"), blackjack(rules, w)),
        (w._("Insurance and even money"), insurance(rules, w)),
        (w._p("rule card heading", "Surrender"), surrender(rules, w)),
        (w._("Doubling"), doubling(rules, w)),
        (w._("Splitting"), splitting(rules, w)),
        (w._("Playing a hand"), playing(rules, w)),
        (w._("Bonuses"), bonuses(rules, w)),
    ]
    return [(title, lines) for title, lines in sections if lines]


def rule_card(rules: Rules, lang: str = "en") -> str:
    """The rule card of ``rules`` as plain text in ``lang`` (one of
    :data:`twentyone.i18n.LANGUAGES`): a title, then sections of short sentences.

    >>> from twentyone.engine.rules import PAIR_VALUES, Rules
    >>> card = rule_card(Rules(name="home game", decks=1, dealer_hits_soft_17=True,
    ...                        surrender="late", max_hands=1, table_min=500))
    >>> words = " ".join(card.split())
    >>> "1 deck of 52 cards" in words, "hits soft 17" in words, "No splitting." in words
    (True, True, True)
    >>> "Late surrender: once the dealer has checked for blackjack" in words
    True
    >>> print(card.split("Limits")[1].splitlines()[0])
    : 5.00 - 5,000.00 per box.
    >>> "Fără separare." in " ".join(rule_card(Rules(decks=1, max_hands=1), "ro").split())
    True
    """
    w = Words(lang)
    out = [rules.name, "=" * len(rules.name)]
    for title, lines in rule_card_sections(rules, lang):
        out.append("")
        out.append(title)
        for line in lines:
            out.append(
                textwrap.fill(
                    line,
                    WIDTH,
                    initial_indent="  - ",
                    subsequent_indent="    ",
                    break_on_hyphens=w.lang == "en",  # not "Black-/Jack", "dintr-/un"
                )
            )
    return "\n".join(out)
