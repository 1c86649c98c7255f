"""Restoring a revision (docs/user-guide.md, "Reviewing as a team"): asked for first, written
in the suite's current format (a revision from before an upgrade is converted, showing what
changes) or refused with the reason; never older spellings in an upgraded file."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from evals_app.models import Case, Suite, Workspace
from evals_app.services.cases.editing import save_case
from evals_app.services.suites.upgrade import upgrade_suites
from tests import factories
from tests.agentv_rejections import rejected_keys

pytestmark = pytest.mark.django_db


@pytest.fixture
def workspace() -> Workspace:
    return factories.workspace()


@pytest.fixture
def editor(workspace: Workspace) -> Client:
    client = Client(enforce_csrf_checks=False)
    client.force_login(factories.member(workspace, "editor"))
    return client


def _case_with_an_edit(workspace: Workspace) -> Case:
    """A 2025 case with revision 1 (as written) and revision 2 (its outcome edited)."""
    suite = factories.suite(workspace)
    case = factories.case(suite, "refund", ("user", "I want a refund."), outcome="Refunds.")
    factories.revision(case, None, "created")
    return save_case(case, {**case.document, "outcome": "Refunds at once."}, case.version)


def _upgraded(case: Case) -> Case:
    suite = Suite.objects.get(pk=case.suite_id)
    upgrade_suites(suite.workspace, [suite], None)
    return Case.objects.get(pk=case.pk)


def _restore_url(case: Case, number: int) -> str:
    return reverse("case_restore", args=[case.suite.workspace.slug, case.suite_id, case.pk, number])


def test_restore_asks_first_and_changes_nothing_until_confirmed(
    workspace: Workspace, editor: Client
) -> None:
    case = _case_with_an_edit(workspace)

    page = editor.get(_restore_url(case, 1))
    unconfirmed = editor.post(_restore_url(case, 1))

    html = page.content.decode()
    assert "Restore revision 1 of refund?" in html
    assert f'name="version" value="{case.version}"' in html
    assert unconfirmed.status_code == 200
    assert Case.objects.get(pk=case.pk).document == case.document


def test_restore_in_a_2025_suite_writes_the_revision_as_it_was(
    workspace: Workspace, editor: Client
) -> None:
    case = _case_with_an_edit(workspace)

    response = editor.post(_restore_url(case, 1), {"version": case.version})

    assert response.status_code == 302
    restored = Case.objects.get(pk=case.pk)
    assert restored.document == case.revisions.get(number=1).snapshot
    assert restored.revisions.order_by("number").last().summary == "restored revision 1"


def test_a_revision_from_before_an_upgrade_shows_its_conversion(
    workspace: Workspace, editor: Client
) -> None:
    case = _upgraded(_case_with_an_edit(workspace))

    html = editor.get(_restore_url(case, 1)).content.decode()

    assert "Converted to the suite's format" in html
    assert "outcome" in html and "criteria" in html
    assert "Restore revision 1</button>" in html


def test_a_revision_from_before_an_upgrade_is_restored_in_todays_format(
    workspace: Workspace, editor: Client
) -> None:
    case = _upgraded(_case_with_an_edit(workspace))

    editor.post(_restore_url(case, 1), {"version": case.version})

    restored = Case.objects.get(pk=case.pk)
    suite = restored.suite
    assert restored.document["criteria"] == "Refunds."
    assert restored.document["vars"]["input"] == [{"role": "user", "content": "I want a refund."}]
    assert "outcome" not in restored.document and "input_messages" not in restored.document
    assert rejected_keys(suite.document, [restored.document]) == []
    last = restored.revisions.order_by("number").last()
    assert last.summary == "restored revision 1 converted to today's format"


def test_a_revision_the_upgrade_cannot_read_is_refused_with_the_reason(
    workspace: Workspace, editor: Client
) -> None:
    case = _upgraded(_case_with_an_edit(workspace))
    broken: dict[str, Any] = {"id": "refund", "input_messages": ["not a message"]}
    factories.revision(case, None, "edited by hand", **broken)
    number = case.revisions.order_by("number").last().number

    page = editor.get(_restore_url(case, number))
    forced = editor.post(_restore_url(case, number), {"version": case.version})

    assert page.status_code == 422
    assert f"Revision {number} cannot be converted to the suite" in page.content.decode()
    assert "Restore revision" not in page.content.decode().split("<h1>", 1)[1].split("</h1>")[1]
    assert forced.status_code == 302
    assert Case.objects.get(pk=case.pk).document == case.document


def test_a_case_saved_after_the_confirmation_page_is_shown_again(
    workspace: Workspace, editor: Client
) -> None:
    case = _case_with_an_edit(workspace)
    seen = case.version
    save_case(case, {**case.document, "outcome": "Refunds later."}, case.version)

    response = editor.post(_restore_url(case, 1), {"version": seen})

    assert response.status_code == 200
    assert "was saved again after you looked" in response.content.decode()
    assert Case.objects.get(pk=case.pk).document["outcome"] == "Refunds later."


def test_the_history_links_each_older_revision_to_its_confirmation(
    workspace: Workspace, editor: Client
) -> None:
    case = _case_with_an_edit(workspace)
    url = reverse("case_history", args=[workspace.slug, case.suite_id, case.pk])

    html = editor.get(url).content.decode()

    assert f'<a href="{_restore_url(case, 1)}" class="button small">Restore revision 1…</a>' in html
