"""Template helpers of the case editor."""

from __future__ import annotations

import pytest
from django.template import Context, Template

from evals_app.eval_files.dialects import ROLES
from evals_app.templatetags.editor_tags import role_options

OPTIONS_LOOP = Template(
    "{% for role in roles %}"
    '<option value="{{ role }}"{% if role == selected %} selected{% endif %}>'
    "{{ role|title }}</option>"
    "{% endfor %}"
)


@pytest.mark.parametrize("selected", [*ROLES, "unknown"])
def test_role_options_are_what_a_loop_over_the_roles_renders(selected: str) -> None:
    expected = OPTIONS_LOOP.render(Context({"roles": ROLES, "selected": selected}))

    assert role_options(selected) == expected
