"""A round's decisions by name: ``verify_x`` raises
:class:`~twentyone.engine.errors.IllegalActionError` with the reason, ``can_x`` answers, ``x``
acts and returns the :class:`~twentyone.engine.records.Action` appended to the round's log.
Each is one spelling of :meth:`Round.verify <twentyone.engine.round.Round.verify>`,
``can`` and ``apply`` (a mixin of :class:`~twentyone.engine.round.Round`).

>>> from twentyone import BoxBet, Round, StackedShoe, load_rules
>>> rnd = Round(load_rules("ru-online"), StackedShoe("TS 9D 7H 8C"), [BoxBet("ann", 1000)])
>>> rnd.can_split(), rnd.can_stand(), rnd.can_switch(), rnd.can_rescue()
(False, True, False, False)
"""

from __future__ import annotations

from twentyone.engine.records import Action, Decision


def spell(name: str, amount: int | None) -> str:
    """A decision's replay spelling: ``spell("double", 50)`` is ``'double:50'``.

    >>> spell("insure", None), spell("insure", 250)
    ('insure', 'insure:250')
    """
    return name if amount is None else f"{name}:{amount}"


class RoundDecisions:
    """The decisions by name over ``verify``, ``can`` and ``apply`` (which
    :class:`~twentyone.engine.round.Round` defines)."""

    def verify(self, decision: str | Decision) -> tuple[str, int | None]:
        raise NotImplementedError

    def can(self, decision: str | Decision) -> bool:
        raise NotImplementedError

    def apply(self, decision: str | Decision) -> Action:
        raise NotImplementedError

    def verify_hit(self) -> None:
        self.verify("hit")

    def can_hit(self) -> bool:
        return self.can("hit")

    def hit(self) -> Action:
        return self.apply("hit")

    def verify_stand(self) -> None:
        self.verify("stand")

    def can_stand(self) -> bool:
        return self.can("stand")

    def stand(self) -> Action:
        return self.apply("stand")

    def verify_double(self, amount: int | None = None) -> None:
        self.verify(spell("double", amount))

    def can_double(self, amount: int | None = None) -> bool:
        return self.can(spell("double", amount))

    def double(self, amount: int | None = None) -> Action:
        """Double the bet (``amount`` for less, where the rules allow it) and take one card."""
        return self.apply(spell("double", amount))

    def verify_split(self) -> None:
        self.verify("split")

    def can_split(self) -> bool:
        return self.can("split")

    def split(self) -> Action:
        return self.apply("split")

    def verify_surrender(self) -> None:
        self.verify("surrender")

    def can_surrender(self) -> bool:
        return self.can("surrender")

    def surrender(self) -> Action:
        return self.apply("surrender")

    def verify_rescue(self) -> None:
        self.verify("rescue")

    def can_rescue(self) -> bool:
        return self.can("rescue")

    def rescue(self) -> Action:
        """Surrender a doubled hand (``Rules.rescue``): lose the original bet, take back what
        the doubles staked."""
        return self.apply("rescue")

    def decline_surrender(self) -> Action:
        return self.apply("no-surrender")

    def verify_insure(self, amount: int | None = None) -> None:
        self.verify(spell("insure", amount))

    def can_insure(self, amount: int | None = None) -> bool:
        return self.can(spell("insure", amount))

    def insure(self, amount: int | None = None) -> Action:
        """Insure the box (a blackjack facing an ace too, instead of even money: ro.9)."""
        return self.apply(spell("insure", amount))

    def decline_insurance(self) -> Action:
        return self.apply("no-insurance")

    def verify_even_money(self) -> None:
        self.verify("even-money")

    def can_even_money(self) -> bool:
        return self.can("even-money")

    def even_money(self) -> Action:
        return self.apply("even-money")

    def decline_even_money(self) -> Action:
        """Neither even money nor insurance for a blackjack facing an ace."""
        return self.apply("no-even-money")

    def verify_switch(self) -> None:
        self.verify("switch")

    def can_switch(self) -> bool:
        return self.can("switch")

    def switch(self) -> Action:
        """Switch the second cards of the pair's two hands (``Rules.switch``); a two-card 21
        made so is not a blackjack."""
        return self.apply("switch")

    def verify_keep(self) -> None:
        self.verify("keep")

    def can_keep(self) -> bool:
        return self.can("keep")

    def keep(self) -> Action:
        """Keep the pair's cards as dealt (``Rules.switch``)."""
        return self.apply("keep")
