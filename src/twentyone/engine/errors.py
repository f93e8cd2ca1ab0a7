"""The named errors of twentyone. Every one is a ``ValueError`` with a code and parameters.

An error is raised as ``BetError("outside-limits", box=1, bet=50, min=100, max=500000)``: its
``code`` names what went wrong, its ``params`` the values involved, and ``str(err)`` is the
English message made from the code's template in :data:`TEMPLATES` (money in minor units, as
the engine counts it). The templates are marked for translation (:func:`N_`), so the catalogs
translate an error by its code: :func:`twentyone.i18n.describe` gives the message in a
player's language, money formatted for the locale. A front end shows the engine's refusal and
never checks again what the engine checks.

>>> err = BetError("outside-limits", box=1, bet=50, min=100, max=500000)
>>> str(err)
'box 1: bet 50 is outside the table limits 100 to 500000'
>>> err.code, err.params
('outside-limits', {'box': 1, 'bet': 50, 'min': 100, 'max': 500000})
>>> isinstance(err, ValueError), issubclass(IllegalActionError, ValueError)
(True, True)
>>> BetError("no-such-code")
Traceback (most recent call last):
...
KeyError: "error code 'no-such-code': not in twentyone.engine.errors.TEMPLATES"
"""

from __future__ import annotations

from typing import Any

from twentyone.engine.error_texts import N_ as N_
from twentyone.engine.error_texts import TEMPLATES as TEMPLATES
from twentyone.engine.error_texts import Nn_ as Nn_
from twentyone.engine.error_texts import Template as Template


class TwentyOneError(ValueError):
    """Base of every error twentyone raises on bad input or an illegal move: ``code`` (a key
    of :data:`TEMPLATES`) and ``params`` (the template's values); ``str()`` is the English
    message."""

    def __init__(self, code: str, /, **params: Any) -> None:
        if code not in TEMPLATES:
            raise KeyError(f"error code {code!r}: not in twentyone.engine.errors.TEMPLATES")
        self.code = code
        self.params = params
        super().__init__(TEMPLATES[code].english(params))

    @property
    def template(self) -> Template:
        """The code's English template."""
        return TEMPLATES[self.code]

    def __reduce__(self) -> tuple[Any, ...]:
        # rebuilt from the code and parameters (a worker process's error pickles)
        return (_rebuild, (type(self), self.code, self.params, self.__dict__))


def _rebuild(
    cls: type[TwentyOneError], code: str, params: dict[str, Any], state: dict[str, Any]
) -> TwentyOneError:
    err = cls.__new__(cls)
    TwentyOneError.__init__(err, code, **params)
    err.__dict__.update(state)
    return err


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


class TrainerError(TwentyOneError):
    """A trainer's option, answer or index list is invalid."""


class CountError(TwentyOneError):
    """A counting system, true-count rule, bet ramp or index set is invalid."""


class ReplayError(TwentyOneError):
    """A replay file is malformed or its decisions do not fit the round.

    ``decision`` is the index of the decision at fault (or ``None``).

    >>> ReplayError("missing-decision", asked="box 1 hand 1 (play): hit", decision=2).decision
    2
    """

    def __init__(self, code: str, /, *, decision: int | None = None, **params: Any) -> None:
        super().__init__(code, **params)
        self.decision = decision
