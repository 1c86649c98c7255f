"""Bounded work for guideline patterns (docs/security.md): limits on their number and length, and
compiled expressions whose size follows the pattern's, whatever it holds."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evals_app.eval_files.configs import patterns_for, read_config
from evals_app.formatting.guideline_patterns import (
    DEFAULT_GUIDELINE_PATTERNS,
    MAX_PATTERN_LENGTH,
    MAX_PATTERNS,
    PatternLimitError,
    check_pattern_limits,
    compile_patterns,
)

# The attack of the issue: a class of a million ranges (here as many as the limit allows).
MANY_RANGES = "**/*[" + "0-0" * ((MAX_PATTERN_LENGTH - 8) // 3) + "]*d"


@pytest.mark.parametrize(
    ("patterns", "index", "message"),
    [
        (
            ["a", "x" * (MAX_PATTERN_LENGTH + 1)],
            1,
            f"a guideline pattern can be at most {MAX_PATTERN_LENGTH} characters "
            f"(this one has {MAX_PATTERN_LENGTH + 1})",
        ),
        (
            ["a"] * (MAX_PATTERNS + 1),
            MAX_PATTERNS,
            f"at most {MAX_PATTERNS} guideline patterns are allowed",
        ),
    ],
)
def test_patterns_beyond_the_limits_are_refused_naming_the_limit_and_which(
    patterns: list[str], index: int, message: str
) -> None:
    with pytest.raises(PatternLimitError) as refused:
        check_pattern_limits(patterns)

    assert (refused.value.index, refused.value.message) == (index, message)


def test_patterns_at_the_limits_are_accepted() -> None:
    patterns = tuple(str(n) + "x" * (MAX_PATTERN_LENGTH - 1) for n in range(MAX_PATTERNS))

    assert compile_patterns(patterns).matches(patterns[-1])


def test_the_matcher_is_never_built_beyond_the_limits() -> None:
    with pytest.raises(PatternLimitError):
        compile_patterns(("**/*[" + "0-0" * 1_000_000 + "]*d",))


def test_a_config_beyond_the_limits_is_skipped_with_the_reason_and_the_defaults_apply() -> None:
    text = "$schema: agentv-config-v2\nguideline_patterns: ['a/**', '" + "x" * 101 + "']\n"

    config = read_config(".agentv/config.yaml", text)

    assert config.patterns is None
    assert config.problem == (
        f"pattern 2: a guideline pattern can be at most {MAX_PATTERN_LENGTH} characters "
        "(this one has 101)"
    )
    configs = {config.path: config}
    assert patterns_for("evals/a.yaml", configs) == DEFAULT_GUIDELINE_PATTERNS


def test_a_class_of_repeated_ranges_compiles_to_one_range() -> None:
    expression = compile_patterns((MANY_RANGES,)).expression

    assert expression is not None
    assert expression.pattern.count("0") == 1
    assert compile_patterns((MANY_RANGES,)).matches("x/y0d")
    assert not compile_patterns((MANY_RANGES,)).matches("x/y1d")


@given(st.text("ab*?[]!-/\\.", max_size=MAX_PATTERN_LENGTH))
def test_the_compiled_expression_grows_at_most_linearly_with_the_pattern(pattern: str) -> None:
    try:
        matcher = compile_patterns((pattern,))
    except ValueError:
        return
    assert matcher.expression is not None
    # Each character of a glob becomes a bounded piece of expression: no expansion, so the
    # work of one attempt at a place is linear in the pattern.
    assert len(matcher.expression.pattern) <= 40 * len(pattern) + 40


def test_stacked_stars_compile_to_one_loop_per_double_star() -> None:
    # "**/**/x" is "**/x": the repeated step is dropped rather than tried in every combination.
    stacked = compile_patterns(("/".join(["**"] * 30 + ["x"]),)).expression
    single = compile_patterns(("**/x",)).expression

    assert stacked is not None and single is not None
    assert stacked.pattern == single.pattern
