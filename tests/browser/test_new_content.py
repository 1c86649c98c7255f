"""New content in the suite's own period, from the browser (docs/user-guide.md): a new suite in
today's format, its first case labelled by today's spelling, what grades a test said beside its
asserts, an empty conversation turn refused by name, and a revision from before an upgrade
restored in today's format after a confirmation."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from evals_app.models import Case, Membership, Workspace
from evals_app.services.imports.folders import import_workspace
from evals_app.services.suites.upgrade import upgrade_suites
from tests import factories
from tests.browser.conftest import editor_of
from tests.browser.pages import save_status, sign_in

pytestmark = pytest.mark.browser

UPGRADE_FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "upgrade"


@pytest.fixture
def team(transactional_db: None) -> Workspace:
    workspace = factories.workspace("Team evals")
    factories.member(workspace, Membership.Role.OWNER)
    return workspace


@pytest.fixture
def alice(team: Workspace) -> User:
    return editor_of(team, "alice")


def test_a_new_suite_and_its_first_case_are_in_todays_format(
    page: Page, live_server: LiveServer, team: Workspace, alice: User
) -> None:
    sign_in(page, alice, live_server.url)
    page.goto(team.get_absolute_url())
    expect(page.get_by_label("Format")).to_have_value("agentv-2026")
    page.get_by_label("Path of the new eval file").fill("evals/new.yaml")
    page.get_by_role("button", name="Add suite").click()

    page.get_by_label("New case id").fill("greets")
    page.get_by_role("button", name="Add case").click()

    expect(page.get_by_label("Criteria criteria")).to_be_visible()
    note = page.locator("#asserts-note")
    expect(note).to_have_text("No asserts: the test is not graded.")
    page.get_by_label("Criteria criteria").fill("Greets back.")
    expect(note).to_have_text(
        "No asserts: one judge grades it against its criteria (the preview shows its prompt)."
    )
    expect(page.locator("#preview")).not_to_contain_text("not graded")


def test_an_empty_conversation_turn_is_refused_by_name_then_saved_once_typed(
    page: Page,
    live_server: LiveServer,
    team: Workspace,
    alice: User,
    expected_console_errors: list[str],
) -> None:
    suite = factories.suite(
        team, "evals/chat.yaml", document={"prompts": ["{{ input }}"], "tests": []},
        cases_key="tests", profile="agentv-2026",
    )  # fmt: skip
    document = {"id": "chat", "criteria": "Helps.", "vars": {"input": "Hi"}}
    case = Case.objects.create(suite=suite, position=0, case_id="chat", document=document)
    sign_in(page, alice, live_server.url)
    page.goto(reverse("case_editor", args=[suite.workspace.slug, suite.pk, case.pk]))

    page.get_by_role("button", name="Make this a conversation test").click()
    expect(page.get_by_label("User input")).to_be_focused()
    expected_console_errors.append(r"status of 422")
    page.get_by_role("button", name="Save").click()
    expect(save_status(page)).to_contain_text("conversation turn 1 has no user input")
    assert Case.objects.get(pk=case.pk).document == document

    page.get_by_label("User input").fill("And tomorrow?")
    page.get_by_role("button", name="Save").click()
    expect(save_status(page)).to_have_text("Saved (version 2).")
    assert Case.objects.get(pk=case.pk).document["turns"] == [{"input": "And tomorrow?"}]


def test_a_negated_assert_is_said_plainly(
    page: Page, live_server: LiveServer, team: Workspace, alice: User
) -> None:
    suite = factories.suite(
        team, "evals/tone.yaml", document={"prompts": ["{{ input }}"], "tests": []},
        cases_key="tests", profile="agentv-2026",
    )  # fmt: skip
    document = {
        "id": "no-apology",
        "vars": {"input": "Where is my parcel?"},
        "assert": [{"type": "contains", "value": "sorry", "negate": True}],
    }
    case = Case.objects.create(suite=suite, position=0, case_id="no-apology", document=document)
    sign_in(page, alice, live_server.url)
    page.goto(reverse("case_editor", args=[suite.workspace.slug, suite.pk, case.pk]))

    check = page.get_by_role("group", name="contains 1 of the test")
    expect(check).to_contain_text("The answer must NOT contain this text (negate: true).")
    expect(check.get_by_label("Text")).to_have_value("sorry")


def test_restoring_a_revision_from_before_the_upgrade_converts_it_after_confirming(
    page: Page, live_server: LiveServer, transactional_db: None
) -> None:
    workspace = import_workspace(UPGRADE_FIXTURES, "Older files").workspace
    factories.member(workspace, Membership.Role.OWNER)
    account = editor_of(workspace, "alice")
    suite = workspace.suites.get(path="evals/seeds.yaml")
    upgrade_suites(workspace, [suite], None)
    case = suite.cases.get(case_id="refund")
    sign_in(page, account, live_server.url)
    page.goto(reverse("case_history", args=[workspace.slug, suite.pk, case.pk]))

    page.get_by_role("link", name="Restore revision 1…").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Restore revision 1 of refund?")
    conversion = page.get_by_role("region", name="Converted to the suite's format")
    expect(conversion).to_contain_text("outcome")
    assert Case.objects.get(pk=case.pk).version == case.version
    page.get_by_role("button", name="Restore revision 1").click()

    expect(page.get_by_text("Restored revision 1 of refund.")).to_be_visible()
    restored = Case.objects.get(pk=case.pk).document
    assert "outcome" not in restored and "input_messages" not in restored
    assert restored["criteria"] == "Explains the refund policy."
