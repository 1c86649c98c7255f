"""Today's tests in the editor, through the real form: every test saves unchanged, variables,
asserts and conversation turns are edited as fields, and the preview follows them
(docs/user-guide.md, "The editor for today's tests")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from hypothesis import HealthCheck, given, settings

from evals_app.models import Case, Membership, Revision, Workspace
from evals_app.services.imports.folders import import_workspace
from tests import factories
from tests.editor.test_case_editor_views import case_named, editor_url
from tests.editor.test_period_editor import edited, opened, saved
from tests.factories import admin
from tests.imports.test_periods import exactly
from tests.strategies import today_tests

pytestmark = pytest.mark.django_db

TODAY_FILE = {"prompts": ["{{ input }}"], "tests": []}


@pytest.fixture
def client(example_root: Path) -> Client:
    import_workspace(example_root, "Example workspace")
    client = Client()
    client.force_login(admin())
    return client


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(document=today_tests("generated"))
def test_any_todays_test_saves_unchanged_from_the_editor(document: dict[str, Any]) -> None:
    Workspace.objects.all().delete()
    suite = factories.suite(
        factories.workspace("Today"), "evals/today.eval.yaml", document=TODAY_FILE,
        cases_key="tests", profile="agentv-2026",
    )  # fmt: skip
    case = Case.objects.create(suite=suite, position=0, case_id="generated", document=document)
    client = Client()
    client.force_login(User.objects.filter(is_superuser=True).first() or admin())

    form = opened(client, case)
    response = client.post(editor_url(case), {**form, "action": "save"})

    assert response.status_code == 302, response.content.decode()[:2000]
    assert exactly(Case.objects.get(pk=case.pk).document) == exactly(document)
    assert not Revision.objects.filter(case=case).exists()


def test_a_todays_test_shows_its_variables_asserts_and_conversation(client: Client) -> None:
    html = client.get(editor_url(case_named("opening-hours-{{ language }}"))).content.decode()

    assert 'id="variables-heading"' in html
    assert "2 items: 2 tests, one per item." in html
    assert 'id="asserts-heading"' in html
    assert 'value="8[:h.]?0?0?"' in html
    assert "Make this a conversation test" in html
    assert 'id="evaluators-heading"' not in html


def test_a_case_of_an_older_period_shows_no_variables_asserts_or_turns(client: Client) -> None:
    html = client.get(editor_url(case_named("debug-checkout-typeerror"))).content.decode()

    for part in ("variables-heading", "asserts-heading", "cturns-heading"):
        assert f'id="{part}"' not in html
    assert "Make this a conversation test" not in html
    assert 'id="evaluators-heading"' in html


def test_a_list_variable_typed_into_shows_its_count_and_the_expanded_tests(client: Client) -> None:
    case = case_named("opening-hours-{{ language }}")
    form = opened(client, case)

    response = client.post(
        editor_url(case, "preview/"), {**form, "var-0-value": "English\nFrench\nGerman"},
        HTTP_HX_REQUEST="true",
    )  # fmt: skip

    html = response.content.decode()
    assert 'id="var-0-expansions" aria-live="polite" hx-swap-oob="true">3 items: 3 tests' in html
    assert "Today's AgentV runs this test as 3 tests." in html
    assert "opening-hours-German" in html


def test_variables_added_in_the_editor_are_saved_with_their_types(client: Client) -> None:
    case = case_named("small-talk")
    form = edited(client, case, opened(client, case), "add-var:number")
    form = edited(
        client, case, {**form, "var-0-name": "budget", "var-0-value": "30"}, "add-var:list"
    )

    document = saved(client, case, {**form, "var-1-name": "tone", "var-1-value": "warm\ncurt"})

    assert document["vars"] == {
        "input": "Thanks, that was quick!",
        "budget": 30,
        "tone": ["warm", "curt"],
    }


def test_an_assert_added_in_the_editor_is_saved_and_judged_in_the_preview(client: Client) -> None:
    case = case_named("small-talk")
    form = edited(client, case, opened(client, case), "add-assert:case:llm-rubric")
    form = {**form, "assert-0-value": "Replies warmly", "assert-0-weight": "2"}

    preview = client.post(editor_url(case, "preview/"), form).content.decode()
    document = saved(client, case, form)

    assert "not graded: no assert" not in preview
    assert "Replies warmly" in preview
    assert document["assert"] == [{"type": "llm-rubric", "value": "Replies warmly", "weight": 2}]


def test_a_conversation_turn_added_in_the_editor_reaches_the_preview_and_the_file(
    client: Client,
) -> None:
    case = case_named("order-lookup")
    form = edited(client, case, opened(client, case), "add-cturn")
    form = {**form, "cturn-2-input": "Can I change the address?"}

    preview = client.post(editor_url(case, "preview/"), form).content.decode()
    document = saved(client, case, form)

    assert 'aria-label="Turn 3 of order-lookup' in preview
    assert "Can I change the address?" in preview
    assert document["turns"][2] == {"input": "Can I change the address?"}
    assert exactly(document["turns"][:2]) == exactly(case.document["turns"])


def test_a_bad_window_size_is_named_and_nothing_is_saved(client: Client) -> None:
    case = case_named("order-lookup")
    form = {**opened(client, case), "conversation-window_size": "two", "action": "save"}

    response = client.post(editor_url(case), form)

    assert response.status_code == 422
    assert (
        "Window (exchanges kept): &#x27;two&#x27; is not a whole number"
        in response.content.decode()
    )
    assert Case.objects.get(pk=case.pk).version == case.version


def test_a_viewer_sees_the_parts_without_edit_controls(client: Client) -> None:
    case = case_named("order-lookup")
    viewer = factories.member(case.suite.workspace, Membership.Role.VIEWER)
    client.force_login(viewer)

    html = client.get(editor_url(case)).content.decode()

    assert 'id="cturns-heading"' in html
    assert "Add conversation turn" not in html
    assert "add-assert:" not in html
    assert 'name="cturn-0-input" rows="2" class="grow" readonly' in html


def test_a_conversation_without_asserts_of_its_own_is_said_to_be_graded_per_turn(
    client: Client,
) -> None:
    case = case_named("order-lookup")

    preview = client.post(editor_url(case, "preview/"), opened(client, case)).content.decode()

    assert "No assert for the conversation as a whole: each turn is graded" in preview
    assert "not graded: no assert" not in preview


def test_a_viewer_posts_the_same_form_as_an_editor_so_sees_the_same_preview(
    client: Client,
) -> None:
    case = case_named("opening-hours-{{ language }}")
    editors_form = opened(client, case)
    client.force_login(factories.member(case.suite.workspace, Membership.Role.VIEWER))
    viewers_form = opened(client, case)

    for form in (editors_form, viewers_form):
        del form["csrfmiddlewaretoken"]
    assert viewers_form == editors_form


def test_the_examples_reference_answer_reaches_its_judge_through_a_rubric(client: Client) -> None:
    case = case_named("refund-window")

    preview = client.post(editor_url(case, "preview/"), opened(client, case)).content.decode()

    assert "as this reference does: Yes: a plan bought in the last 30 days" in preview
    assert "is empty: AgentV fills it" not in preview
