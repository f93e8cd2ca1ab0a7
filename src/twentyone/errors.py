"""The named errors of twentyone. Every one is a ``ValueError``.

>>> issubclass(IllegalActionError, ValueError)
True
"""


class TwentyOneError(ValueError):
    """Base of every error twentyone raises on bad input or an illegal move."""


class CardError(TwentyOneError):
    """A card or card list could not be parsed."""


class RulesError(TwentyOneError):
    """A rule set is invalid: a bad field value or a combination that cannot be played."""


class BetError(TwentyOneError):
    """A bet is outside the table limits, unaffordable, or placed on too many boxes."""


class IllegalActionError(TwentyOneError):
    """An action is not allowed in the round's current state."""


class ShoeExhaustedError(TwentyOneError):
    """A stacked shoe ran out of cards."""


class ReplayError(TwentyOneError):
    """A replay file is malformed or its decisions do not fit the round.

    ``decision`` is the index of the decision at fault (or ``None``).
    """

    def __init__(self, message: str, decision: int | None = None) -> None:
        super().__init__(message)
        self.decision = decision
