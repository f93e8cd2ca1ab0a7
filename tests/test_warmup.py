"""The first run's compile notice and the distribution kernels compiled aside."""

from __future__ import annotations

from twentyone.analysis import analyze
from twentyone.analysis.warmup import _aside_signatures, compile_aside


def test_the_aside_signatures_are_the_ones_the_analysis_calls() -> None:
    # A signature that differs from the analysis's call would compile a kernel nobody loads,
    # and the first edge would compile it again in its own process.
    analyze("6D S17 DAS SPL1 NS")  # a split into two hands
    analyze("6D S17 DAS SPL3 NS")  # resplits
    for kernel, signature in _aside_signatures():
        assert signature in kernel.signatures, kernel.__name__


def test_nothing_is_compiled_aside_once_the_kernels_are_cached() -> None:
    analyze("6D S17 DAS SPL1 NS")
    assert compile_aside() is None


def test_rules_without_resplits_compile_no_resplit_kernel_aside() -> None:
    from twentyone.analysis import resplit

    two = [kernel for kernel, _ in _aside_signatures(resplits=False)]
    assert resplit.state_joint not in two
    assert resplit.state_joint in [kernel for kernel, _ in _aside_signatures()]
