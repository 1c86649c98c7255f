"""Glob matching of guideline patterns (docs/formatting.md, "Resolving a file block", step 6)."""

from __future__ import annotations

import pytest

from evals_app.formatting.guideline_patterns import compile_patterns, is_guideline


@pytest.mark.parametrize(
    ("pattern", "path", "matches"),
    [
        # `**` spans any number of folders, including none.
        ("**/*.instructions.md", "a.instructions.md", True),
        ("**/*.instructions.md", "prompts/js.instructions.md", True),
        ("**/*.instructions.md", "a/b/c/x.instructions.md", True),
        ("**/*.instructions.md", "a.instructions.md.bak", False),
        ("docs/**/x.md", "docs/x.md", True),
        ("docs/**/x.md", "docs/a/b/x.md", True),
        ("docs/**/x.md", "other/docs/x.md", False),
        ("docs/**", "docs/a/b.md", True),
        ("**", "any/path/at/all.md", True),
        # `*` and `?` stay within one folder.
        ("*.md", "a.md", True),
        ("*.md", "docs/a.md", False),
        ("docs/*.md", "docs/a/b.md", False),
        ("docs/?.md", "docs/a.md", True),
        ("docs/?.md", "docs/ab.md", False),
        ("a?b", "a/b", False),
        ("a**b.md", "a/xb.md", False),
        ("a**b.md", "axyzb.md", True),
        # Dot files and dot folders match like any other name.
        ("**/*.instructions.md", ".github/instructions/x.instructions.md", True),
        ("*", ".hidden", True),
        ("**/*.md", ".a/.b/.c.md", True),
        # Character classes.
        ("[abc].md", "b.md", True),
        ("[abc].md", "d.md", False),
        ("[!abc].md", "d.md", True),
        ("[^abc].md", "a.md", False),
        ("[a-c]x.md", "bx.md", True),
        ("[a-c]x.md", "dx.md", False),
        ("[a-].md", "-.md", True),
        ("[]a].md", "].md", True),
        ("x[!a]y", "x/y", False),
        ("[.md", "[.md", True),
        # Escapes and literal regex characters.
        ("\\*.md", "*.md", True),
        ("\\*.md", "a.md", False),
        ("a+b(c).md", "a+b(c).md", True),
        # Matching is case-sensitive and anchored at the workspace root.
        ("**/*.Instructions.md", "x.instructions.md", False),
        ("docs/*.md", "x/docs/a.md", False),
        ("/docs/*.md", "docs/a.md", True),
        ("./docs/*.md", "docs/a.md", True),
    ],
)
def test_glob_matches_like_the_spec_says(pattern: str, path: str, matches: bool) -> None:
    assert is_guideline(path, [pattern]) is matches


def test_any_of_several_patterns_makes_a_guideline() -> None:
    patterns = ["docs/*.md", "**/*.instructions.md"]

    assert is_guideline("docs/a.md", patterns)
    assert is_guideline("x/y.instructions.md", patterns)
    assert not is_guideline("x/y.md", patterns)


def test_no_patterns_match_nothing() -> None:
    assert not is_guideline("a.instructions.md", [])


def test_compiled_matchers_are_cached() -> None:
    assert compile_patterns(("*.md",)) is compile_patterns(("*.md",))


def test_an_invalid_range_names_the_pattern() -> None:
    with pytest.raises(ValueError, match=r"Invalid guideline pattern '\[z-a\]'"):
        is_guideline("a", ["[z-a]"])


@pytest.mark.parametrize(
    ("pattern", "reason"),
    [
        ("docs/[z-a].md", "the range z-a runs backwards (write a-z)"),
        ("[a--]", "the range a-- runs backwards (write --a)"),
        ("**/x[!9-0]", "the range 9-0 runs backwards (write 0-9)"),
    ],
)
def test_an_invalid_pattern_is_refused_with_the_reason(pattern: str, reason: str) -> None:
    with pytest.raises(ValueError) as refused:
        compile_patterns(("ok/**", pattern))

    assert str(refused.value) == f"Invalid guideline pattern {pattern!r}: {reason}"
