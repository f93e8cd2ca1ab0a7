"""Shared test set-up: the tests read English unless they ask for a language.

The terminal game and the rule card speak the language of ``LANGUAGE`` / ``LC_ALL`` /
``LC_MESSAGES`` / ``LANG`` (see :func:`twentyone.i18n.choose_language`); a developer's own
locale must not change what the tests read. Tests of another language pass ``lang=`` or set
the variables themselves. The analyses' disk cache (:mod:`twentyone.analysis.result_cache`) is off.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from twentyone.i18n import ENV_VARS


@pytest.fixture(autouse=True)
def _english_environment(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for var in ENV_VARS:
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    # no test reads or writes the user's cache of analyses (tests/test_result_cache.py
    # points it at a temporary folder)
    monkeypatch.setenv("TWENTYONE_CACHE_DIR", "off")
    yield
