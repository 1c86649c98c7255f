"""Every page is sent with a strict Content Security Policy and may not be framed; request
bodies are limited, yet large enough for the biggest case a person edits."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from evals_app.models import Case
from evals_app.services.imports.folders import import_workspace
from tests import factories
from tests.editor.test_case_editor_views import form_of
from tests.factories import write_files

pytestmark = pytest.mark.django_db


def policy_of(response: object) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]  # type: ignore[index]
    directives = (part.split() for part in header.split(";") if part.strip())
    return {name: values for name, *values in directives}


@pytest.mark.parametrize("url", ["/login/", "/"])
def test_pages_allow_only_own_scripts_and_styles_and_no_inline_code(
    signed_in: Client, url: str
) -> None:
    policy = policy_of(signed_in.get(url))

    assert policy["default-src"] == ["'self'"]
    assert policy["script-src"] == ["'self'"]
    assert policy["style-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"]
    assert policy["base-uri"] == ["'none'"]
    flat = " ".join(value for values in policy.values() for value in values)
    assert "unsafe-inline" not in flat
    assert "unsafe-eval" not in flat


def test_pages_may_not_be_framed(signed_in: Client) -> None:
    response = signed_in.get("/")

    assert response["X-Frame-Options"] == "DENY"
    assert policy_of(response)["frame-ancestors"] == ["'none'"]


def test_htmx_is_told_to_need_no_inline_style_and_no_eval(signed_in: Client) -> None:
    html = signed_in.get("/").content.decode()

    assert '"includeIndicatorStyles": false' in html
    assert '"allowEval": false' in html
    assert '"allowScriptTags": false' in html


def test_a_request_body_fits_the_largest_file_a_person_may_type_in() -> None:
    # A text of AGENTV_MAX_UPLOAD_BYTES bytes, form-encoded at worst 3 bytes per byte.
    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE >= 3 * settings.AGENTV_MAX_UPLOAD_BYTES
    assert settings.FILE_UPLOAD_MAX_MEMORY_SIZE >= settings.AGENTV_MAX_UPLOAD_BYTES


def test_an_oversized_request_body_is_refused_before_it_is_parsed(
    signed_in: Client, settings: object
) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10_000  # type: ignore[attr-defined]
    workspace = factories.workspace()

    response = signed_in.post(
        reverse("suite_create", args=[workspace.slug]), {"path": "x" * 20_000 + ".yaml"}
    )

    assert response.status_code == 400
    assert not workspace.suites.exists()


def test_the_editor_of_a_500_turn_case_can_be_posted(signed_in: Client, tmp_path: Path) -> None:
    turns = [
        {
            "role": "user" if number % 2 == 0 else "assistant",
            "content": [
                {"type": "text", "value": f"turn {number}"},
                {"type": "file", "value": "a.md"},
            ],
        }
        for number in range(500)
    ]
    document = {"id": "long", "outcome": "o", "input_messages": turns}
    root = write_files(
        tmp_path / "ws",
        {"a.md": "A file.", "e.yaml": {"$schema": "agentv-eval-v2", "evalcases": [document]}},
    )
    import_workspace(root, "long")
    case = Case.objects.select_related("suite__workspace").get(case_id="long")
    arguments = [case.suite.workspace.slug, case.suite.pk, case.pk]
    form = form_of(signed_in.get(reverse("case_editor", args=arguments)).content.decode())
    assert len(form) > 4_000  # 4 times what Django accepts by default
    url = reverse("case_preview", args=arguments)

    response = signed_in.post(url, form, HTTP_HX_REQUEST="true")

    assert response.status_code == 200
    assert "turn 499" in response.content.decode()
