"""Templates are compiled once per process, not on every render (compiling the editor's
template was most of a preview's time)."""

from __future__ import annotations

from django.template.loader import get_template


def test_a_page_template_is_compiled_once() -> None:
    first = get_template("evals/case_editor.html")
    again = get_template("evals/case_editor.html")

    assert again.template is first.template


def test_a_partial_is_taken_from_the_compiled_page() -> None:
    first = get_template("evals/case_editor.html#preview")
    again = get_template("evals/case_editor.html#preview")

    assert again.template is first.template
