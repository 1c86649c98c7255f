"""The Nunjucks subset of the AgentV 2026 profile (docs/formatting.md, "The AgentV 2026
profile", step 1): rendering, the whole-value rule, undefined names and `env`."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evals_app.formatting.profile_2026.templates import TemplateContext, render_field, render_value

VARIABLES: dict[str, Any] = {
    "product": "AgentV",
    "count": 3,
    "ratio": 0.5,
    "flag": True,
    "nothing": None,
    "tags": ["a", "b"],
    "config": {"name": "prod", "depth": {"level": 2}},
    "messages": [{"role": "user", "content": "Hi"}],
    "html": "<b>&</b>",
}


@pytest.mark.parametrize(
    ("template", "expected"),
    [
        ("Explain what {{ vars.product }} does.", "Explain what AgentV does."),
        ("Explain what {{product}} does.", "Explain what AgentV does."),
        ("{{ 7 * 7 }}", "49"),
        ("{{ 7 / 2 }}", "3.5"),
        ("{{ 6 / 3 }}", "2"),
        ("{{ (1 + 2) * count }}", "9"),
        ("{{ 7 % 4 }} {{ 2 ** 3 }} {{ -count }}", "3 8 -3"),
        ("{{ 'x' + product }} {{ \"y\" ~ count }}", "xAgentV y3"),
        ("{{ config.name }}/{{ vars.config.depth.level }}", "prod/2"),
        ("[{{ config.X }}][{{ missing }}][{{ missing.deeper }}]", "[][][]"),
        ("{{ nothing }}|{{ flag }}|{{ ratio }}", "|true|0.5"),
        ("{{ tags }} {{ config }}", "a,b [object Object]"),
        ("{{ html }}", "<b>&</b>"),
        ("{# a comment #}kept", "kept"),
        ("no tags at all", "no tags at all"),
        ("{{ tags[1] }}", "b"),
    ],
)
def test_render_field_renders_text_by_nunjucks_rules(template: str, expected: str) -> None:
    assert render_field(template, TemplateContext(VARIABLES)) == expected


@pytest.mark.parametrize(
    ("template", "expected"),
    [
        ("{{ messages }}", [{"role": "user", "content": "Hi"}]),
        ("  {{ vars.tags }}  ", ["a", "b"]),
        ("{{ count }}", 3),
        ("{{ config.depth }}", {"level": 2}),
        ("{{ nothing }}", None),
        # Not one whole reference: rendered as text.
        ("{{ count }}!", "3!"),
        ("{{ count + 1 }}", "4"),
        # An undefined whole reference renders as empty text.
        ("{{ missing }}", ""),
    ],
)
def test_whole_value_rule_keeps_the_raw_value(template: str, expected: Any) -> None:
    assert render_field(template, TemplateContext(VARIABLES)) == expected


def test_env_renders_empty_with_a_warning() -> None:
    context = TemplateContext(VARIABLES)
    assert render_field("key={{ env.API_KEY }};", context) == "key=;"
    assert render_field("{{ env.API_KEY }}", context) == ""
    assert context.warnings == [
        "`{{ env.API_KEY }}` is AgentV's environment when it runs; the preview renders it empty."
    ]


def test_an_unreadable_tag_is_kept_as_written_with_a_warning() -> None:
    context = TemplateContext(VARIABLES)
    assert render_field("a {{ product | upper( }} b", context) == "a {{ product | upper( }} b"
    assert len(context.warnings) == 1


def test_render_value_renders_every_string_at_any_depth() -> None:
    value = {"content": ["{{ product }}", {"type": "text", "value": "n={{ count }}"}], "n": 1}
    assert render_value(value, TemplateContext(VARIABLES)) == {
        "content": ["AgentV", {"type": "text", "value": "n=3"}],
        "n": 1,
    }


@given(st.text().filter(lambda text: "{{" not in text and "{#" not in text))
def test_text_without_tags_is_unchanged(text: str) -> None:
    assert render_field(text, TemplateContext(VARIABLES)) == text


@given(st.integers(-1000, 1000), st.integers(-1000, 1000))
def test_integer_arithmetic_matches_python(left: int, right: int) -> None:
    context = TemplateContext({"a": left, "b": right})
    assert render_field("{{ a * b + a - b }}", context) == str(left * right + left - right)
