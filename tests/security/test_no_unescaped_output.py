"""Nothing is marked safe by hand: every value reaches the page through Django's autoescaping.

A scan of templates/ and evals_app/ fails on `|safe`, `|safeseq`, `{% autoescape off %}`,
`{% filter safe %}`, `mark_safe`, `SafeString` and `format_html` without arguments (which
escapes nothing). If one is ever truly needed, it needs a reason here, not a quiet exception.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.conftest import REPOSITORY

TEMPLATE_PATTERNS = {
    "|safe filter": re.compile(r"\|\s*safe(seq)?\b"),
    "autoescape off": re.compile(r"{%-?\s*autoescape\s+off\b"),
    "filter safe": re.compile(r"{%-?\s*filter\s[^%]*\bsafe(seq)?\b"),
}
UNSAFE_CALLS = {"mark_safe", "SafeString", "SafeText"}


def template_problems(text: str) -> list[str]:
    """What in a template's text bypasses autoescaping."""
    return [name for name, pattern in TEMPLATE_PATTERNS.items() if pattern.search(text)]


def python_problems(source: str) -> list[str]:
    """Calls in Python source that mark text safe without escaping it, with their lines."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        function = node.func
        name = function.attr if isinstance(function, ast.Attribute) else getattr(function, "id", "")
        if name in UNSAFE_CALLS:
            found.append(f"line {node.lineno}: {name}()")
        elif name == "format_html" and len(node.args) <= 1 and not node.keywords:
            found.append(f"line {node.lineno}: format_html() without arguments")
    return found


@pytest.mark.parametrize(
    ("text", "problems"),
    [
        ("{{ turn.text|safe }}", ["|safe filter"]),
        ("{{ items | safeseq|join:', ' }}", ["|safe filter"]),
        ("{% autoescape off %}{{ x }}{% endautoescape %}", ["autoescape off"]),
        ("{% filter force_escape|safe %}{{ x }}{% endfilter %}", ["|safe filter", "filter safe"]),
        ("{{ x|escape }} {% autoescape on %}{% endautoescape %} {{ safety_note }}", []),
    ],
)
def test_the_template_scan_finds_what_bypasses_escaping(text: str, problems: list[str]) -> None:
    assert template_problems(text) == problems


@pytest.mark.parametrize(
    ("source", "problems"),
    [
        ("mark_safe(text)", ["line 1: mark_safe()"]),
        ("html = safestring.SafeString(x)", ["line 1: SafeString()"]),
        ("format_html(f'<b>{name}</b>')", ["line 1: format_html() without arguments"]),
        ("format_html('<b>{}</b>', name)", []),
        ("def mark_safe_reason(): pass", []),
    ],
)
def test_the_python_scan_finds_what_bypasses_escaping(source: str, problems: list[str]) -> None:
    assert python_problems(source) == problems


def test_no_template_bypasses_autoescaping() -> None:
    templates = sorted((REPOSITORY / "templates").rglob("*.html"))
    templates += sorted((REPOSITORY / "evals_app").rglob("*.html"))
    assert templates
    found = {
        str(path.relative_to(REPOSITORY)): problems
        for path in templates
        if (problems := template_problems(path.read_text(encoding="utf-8")))
    }
    assert not found


def test_no_python_code_marks_text_safe() -> None:
    modules = [Path(p) for p in sorted((REPOSITORY / "evals_app").rglob("*.py"))]
    modules += sorted((REPOSITORY / "agentv_web").rglob("*.py"))
    found = {
        str(path.relative_to(REPOSITORY)): problems
        for path in modules
        if (problems := python_problems(path.read_text(encoding="utf-8")))
    }
    assert not found
