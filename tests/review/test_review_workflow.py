"""The review of a case: steps, approvals dismissed by edits, comments, history, queue, activity."""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from evals_app.models import (
    Case,
    CommentThread,
    Job,
    ReviewEvent,
    ReviewStatus,
    Revision,
    Workspace,
)
from evals_app.services.cases.editing import save_case
from evals_app.services.imports.folders import import_workspace
from evals_app.services.review.comments import CommentError, reply, resolve, start_thread
from evals_app.services.review.workflow import ReviewError, move, waiting_for_review
from tests.factories import member, write_files

pytestmark = pytest.mark.django_db
Action = ReviewEvent.Action


@pytest.fixture
def workspace(tmp_path: Path) -> Workspace:
    root = write_files(
        tmp_path / "ws",
        {
            "evals/suite.yaml": {
                "$schema": "agentv-eval-v2",
                "evalcases": [
                    {
                        "id": "refund",
                        "outcome": "Escalates.",
                        "input_messages": [
                            {"role": "system", "content": "You are support."},
                            {"role": "user", "content": "I was charged twice."},
                        ],
                    },
                    {
                        "id": "other",
                        "outcome": "o",
                        "input_messages": [{"role": "user", "content": "x"}],
                    },
                ],
            }
        },
    )
    return import_workspace(root, "Support").workspace


def the_case(case_id: str = "refund") -> Case:
    return Case.objects.select_related("suite__workspace").get(case_id=case_id)


def edit(case: Case, author: Any, outcome: str) -> Case:
    document = case.document
    return save_case(case, {**document, "outcome": outcome}, case.version, author)


def test_case_goes_from_draft_to_review_to_approved(workspace: Workspace) -> None:
    editor, reviewer = member(workspace, "editor"), member(workspace, "reviewer")
    case = edit(the_case(), editor, "Escalates to billing.")

    move(case, editor, Action.SUBMITTED)
    move(case, reviewer, Action.APPROVED, "Looks right.")

    events = list(case.review_events.values_list("actor__username", "action", "to_status"))
    assert the_case().status == ReviewStatus.APPROVED
    assert events == [
        (editor.username, "submitted", "in_review"),
        (reviewer.username, "approved", "approved"),
    ]


def test_changes_requested_then_edited_then_resubmitted(workspace: Workspace) -> None:
    editor, reviewer = member(workspace, "editor"), member(workspace, "reviewer")
    case = the_case()
    move(case, editor, Action.SUBMITTED)
    move(case, reviewer, Action.CHANGES_REQUESTED, "Mention the invoice numbers.")

    case = edit(the_case(), editor, "Escalates and quotes both invoices.")
    assert case.status == ReviewStatus.CHANGES_REQUESTED
    move(case, editor, Action.SUBMITTED)

    assert the_case().status == ReviewStatus.IN_REVIEW


def test_author_may_not_approve_their_own_change(workspace: Workspace) -> None:
    owner = member(workspace, "owner")
    case = edit(the_case(), owner, "Changed by the owner.")
    move(case, owner, Action.SUBMITTED)

    with pytest.raises(ReviewError, match="You changed this case"):
        move(case, owner, Action.APPROVED)


def test_editing_an_approved_case_dismisses_the_approval(workspace: Workspace) -> None:
    editor, reviewer = member(workspace, "editor"), member(workspace, "reviewer")
    case = the_case()
    move(case, editor, Action.SUBMITTED)
    move(case, reviewer, Action.APPROVED)

    edit(the_case(), editor, "A later edit.")

    last = the_case().review_events.last()
    assert the_case().status == ReviewStatus.IN_REVIEW
    assert last is not None and (last.action, last.actor) == (Action.APPROVAL_DISMISSED, editor)


def test_saving_an_unchanged_case_keeps_its_approval_and_records_nothing(
    workspace: Workspace,
) -> None:
    editor, reviewer = member(workspace, "editor"), member(workspace, "reviewer")
    case = the_case()
    move(case, editor, Action.SUBMITTED)
    move(case, reviewer, Action.APPROVED)

    save_case(the_case(), the_case().document, the_case().version, editor)

    assert the_case().status == ReviewStatus.APPROVED
    assert not Revision.objects.exists()


def test_approving_a_draft_is_refused(workspace: Workspace) -> None:
    with pytest.raises(ReviewError, match="is draft"):
        move(the_case(), member(workspace, "reviewer"), Action.APPROVED)


def test_every_save_records_a_revision_with_the_whole_case(workspace: Workspace) -> None:
    editor = member(workspace, "editor")
    before = the_case().document

    edit(the_case(), editor, "First edit.")
    edit(the_case(), editor, "Second edit.")

    revisions = list(the_case().revisions.order_by("number"))
    assert [r.number for r in revisions] == [1, 2, 3]
    assert revisions[0].snapshot == before and revisions[0].author is None
    assert revisions[2].snapshot["outcome"] == "Second edit." and revisions[2].author == editor


def test_restoring_a_revision_makes_it_current_as_a_new_revision(workspace: Workspace) -> None:
    editor = member(workspace, "editor")
    edit(the_case(), editor, "First edit.")
    client = Client()
    client.force_login(editor)
    case = the_case()
    url = reverse("case_restore", args=[workspace.slug, case.suite_id, case.pk, 1])

    client.post(url, {"version": case.version})

    assert the_case().document["outcome"] == "Escalates."
    assert the_case().revisions.order_by("number").last().summary == "restored revision 1"


def test_comment_threads_on_turns_resolve_and_reopen(workspace: Workspace) -> None:
    reviewer, editor = member(workspace, "reviewer"), member(workspace, "editor")
    thread = start_thread(the_case(), reviewer, "Say which\ncard.", "input", 1)

    assert thread.anchor_label == "turn 2"
    assert thread.excerpt == "user: I was charged twice."
    resolve(thread, editor)
    assert CommentThread.objects.get().is_resolved
    reply(thread, reviewer, "Still unclear.")
    assert not CommentThread.objects.get().is_resolved


@pytest.mark.parametrize(
    ("text", "section", "turn", "message"),
    [
        ("   ", "", None, "empty"),
        ("x" * 10_001, "", None, "longer"),
        ("hi", "input", 9, "no input turn 10"),
        ("hi", "sideways", 0, "input or expected"),
    ],
)
def test_bad_comment_is_refused(
    workspace: Workspace, text: str, section: str, turn: int | None, message: str
) -> None:
    with pytest.raises(CommentError, match=message):
        start_thread(the_case(), member(workspace, "reviewer"), text, section, turn)


def test_comment_text_is_shown_escaped_with_its_line_breaks(workspace: Workspace) -> None:
    reviewer = member(workspace, "reviewer")
    start_thread(the_case(), reviewer, "<b>bold?</b>\nsecond line", "input", 0)
    client = Client()
    client.force_login(reviewer)
    case = the_case()

    html = client.get(reverse("case_editor", args=[workspace.slug, case.suite_id, case.pk]))

    text = html.content.decode()
    assert "&lt;b&gt;bold?&lt;/b&gt;\nsecond line" in text
    assert "<b>bold?</b>" not in text


def test_comment_over_htmx_updates_the_panel_and_the_turns(workspace: Workspace) -> None:
    reviewer = member(workspace, "reviewer")
    client = Client()
    client.force_login(reviewer)
    case = the_case()
    url = reverse("thread_create", args=[workspace.slug, case.suite_id, case.pk])

    response = client.post(
        url,
        {"text": "Why system?", "anchor": "input-0", "input-count": "3", "expected-count": "0"},
        HTTP_HX_REQUEST="true",
    )

    html = response.content.decode()
    assert html.lstrip().startswith('<section id="review"')
    assert "Why system?" in html
    assert [f'id="threads-input-{n}" hx-swap-oob="true"' in html for n in range(4)] == [
        True,
        True,
        True,
        False,
    ]


def test_review_step_over_htmx_refused_with_the_reason(workspace: Workspace) -> None:
    reviewer = member(workspace, "reviewer")
    client = Client()
    client.force_login(reviewer)
    case = the_case()

    response = client.post(
        reverse("case_review", args=[workspace.slug, case.suite_id, case.pk]),
        {"step": "approve"},
        HTTP_HX_REQUEST="true",
    )

    assert response.status_code == 422
    assert "it cannot be approved" in response.content.decode()


def test_review_queue_lists_cases_in_review_changed_by_others(workspace: Workspace) -> None:
    editor, reviewer = member(workspace, "editor"), member(workspace, "reviewer")
    changed = edit(the_case("other"), editor, "Changed by the editor.")
    move(changed, editor, Action.SUBMITTED)
    move(the_case("refund"), editor, Action.SUBMITTED)

    # Oldest change first: "refund" was not changed since its import.
    assert list(waiting_for_review(reviewer).values_list("case_id", flat=True)) == [
        "refund",
        "other",
    ]
    assert list(waiting_for_review(editor)) == []  # an editor does not review


def test_review_queue_leaves_out_cases_i_changed(workspace: Workspace) -> None:
    owner = member(workspace, "owner")
    changed = edit(the_case("other"), owner, "Changed by the owner.")
    move(changed, owner, Action.SUBMITTED)
    move(the_case("refund"), owner, Action.SUBMITTED)

    assert [case.case_id for case in waiting_for_review(owner)] == ["refund"]


def test_review_queue_page_opens_cases_by_link(workspace: Workspace) -> None:
    reviewer, editor = member(workspace, "reviewer"), member(workspace, "editor")
    move(the_case(), editor, Action.SUBMITTED)
    client = Client()
    client.force_login(reviewer)

    html = client.get(reverse("review_queue")).content.decode()

    assert 'data-shortcut="n">refund</a>' in html


def test_activity_lists_changes_comments_and_reviews_newest_first(workspace: Workspace) -> None:
    editor, reviewer = member(workspace, "editor"), member(workspace, "reviewer")
    case = edit(the_case(), editor, "Edited.")
    move(case, editor, Action.SUBMITTED)
    start_thread(case, reviewer, "A question.")
    client = Client()
    client.force_login(reviewer)

    html = client.get(reverse("activity", args=[workspace.slug])).content.decode()

    comment, submitted, changed = (
        html.index("commented on"),
        html.index("submitted for review"),
        html.index("changed"),
    )
    assert comment < submitted < changed


def test_workspace_page_counts_cases_per_status(workspace: Workspace) -> None:
    editor = member(workspace, "editor")
    move(the_case(), editor, Action.SUBMITTED)
    client = Client()
    client.force_login(editor)

    html = client.get(reverse("workspace_detail", args=[workspace.slug])).content.decode()

    rows = re.findall(
        r'<th scope="row"><span class="status status-\w+">([^<]+)</span></th>\s*'
        r'<td class="num">(\d+)</td>',
        html,
    )
    assert rows == [
        ("Draft", "1"),
        ("In review", "1"),
        ("Changes requested", "0"),
        ("Approved", "0"),
    ]
    assert 'aria-label="Approved: 0 of 2 cases"' in html


def test_export_approved_only_writes_only_approved_cases(
    workspace: Workspace, tmp_path: Path
) -> None:
    editor, reviewer = member(workspace, "editor"), member(workspace, "reviewer")
    move(the_case(), editor, Action.SUBMITTED)
    move(the_case(), reviewer, Action.APPROVED)

    call_command("export_evals", "--out", str(tmp_path / "out"), "--approved-only", "--mode", "lm")

    lines = (tmp_path / "out/support/formatted.jsonl").read_text().splitlines()
    assert [json.loads(line)["id"] for line in lines] == ["refund"]
    assert "other" not in (tmp_path / "out/support/evals/suite.yaml").read_text()


def test_approved_only_export_with_nothing_approved_says_so(
    workspace: Workspace, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    call_command("export_evals", "--out", str(tmp_path / "out"), "--approved-only")

    assert "Note: no case of workspace 'Support' is approved: its suites are exported empty." in (
        capsys.readouterr().out
    )


def test_approved_only_download_with_nothing_approved_explains_instead(
    workspace: Workspace,
) -> None:
    client = Client()
    client.force_login(member(workspace, "viewer"))
    url = reverse("workspace_export", args=[workspace.slug])

    response = client.post(url, {"approved": "1"}, follow=True)

    assert response.redirect_chain == [(workspace.get_absolute_url(), 302)]
    assert "No case of Support is approved yet" in unescape(response.content.decode())


def test_approved_only_download_gives_the_approved_cases(workspace: Workspace) -> None:
    editor, reviewer = member(workspace, "editor"), member(workspace, "reviewer")
    move(the_case(), editor, Action.SUBMITTED)
    move(the_case(), reviewer, Action.APPROVED)
    client = Client()
    client.force_login(reviewer)

    client.post(reverse("workspace_export", args=[workspace.slug]), {"approved": "1"})
    response = client.get(reverse("job_download", args=[Job.objects.get().pk]))

    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="support-approved.zip"'
    response.close()


def test_comparing_two_revisions_shows_turn_and_prompt_changes(workspace: Workspace) -> None:
    editor = member(workspace, "editor")
    case = the_case()
    document = case.document
    system, user = document["input_messages"]
    document["input_messages"] = [user, system, {"role": "assistant", "content": "Which card?"}]
    save_case(case, document, case.version, editor)
    client = Client()
    client.force_login(editor)

    html = client.get(
        reverse("case_compare", args=[workspace.slug, case.suite_id, case.pk]) + "?from=1&to=2"
    ).content.decode()

    assert "moved from 2 to 1" in html and "added" in html
    assert "Formatted question" in html and "@[Assistant]:" in html


def test_history_says_what_each_revision_changed(workspace: Workspace) -> None:
    editor = member(workspace, "editor")
    case = the_case()
    document = case.document
    document["input_messages"][1]["content"] = "I was charged three times."
    document["input_messages"].append({"role": "assistant", "content": "Which card?"})
    case = save_case(case, document, case.version, editor)
    save_case(case, {**document, "outcome": "Refunds."}, case.version, editor, "restored")
    client = Client()
    client.force_login(editor)

    html = client.get(
        reverse("case_history", args=[workspace.slug, case.suite_id, case.pk])
    ).content.decode()

    what = [unescape(cell) for cell in re.findall(r"<td>([^<]*)</td>\s*<td>(?:<a |</td>)", html)]
    assert what == [
        "restored: outcome changed",
        "turn 2 text edited; turn 3 added",
        "as imported",
    ]


@pytest.mark.parametrize("threads", [1, 10])
def test_editor_page_queries_stay_constant_with_threads_and_steps(
    workspace: Workspace, django_assert_max_num_queries: Any, threads: int
) -> None:
    editor, reviewer = member(workspace, "editor"), member(workspace, "reviewer")
    move(the_case(), editor, Action.SUBMITTED)
    for number in range(threads):
        thread = start_thread(the_case(), reviewer, f"Question {number}", "input", number % 2)
        reply(thread, editor, "Answer.")
    client = Client()
    client.force_login(reviewer)
    case = the_case()

    # 15, and the review form's rules, approvals, reviews and assignments, the case's open
    # suggestions and its last runs with AgentV.
    with django_assert_max_num_queries(18):
        client.get(reverse("case_editor", args=[workspace.slug, case.suite_id, case.pk]))
