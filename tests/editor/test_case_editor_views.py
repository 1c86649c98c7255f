"""The case editor's endpoints: page, structural edits, preview, save, conflicts, YAML, paste."""

from __future__ import annotations

from html import unescape
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from evals_app.models import Case, Suite, Workspace
from evals_app.services.cases.editing import save_case
from evals_app.services.imports.folders import import_workspace
from tests.factories import admin, database_snapshot, write_files
from tests.html_forms import form_fields

pytestmark = pytest.mark.django_db


def form_of(html: str) -> dict[str, str]:
    """The fields a browser submits from the editor's form."""
    return form_fields(html, "case-form")


@pytest.fixture
def client(example_root: Path) -> Client:
    import_workspace(example_root, "Example workspace")
    client = Client()
    client.force_login(admin())
    return client


def case_named(case_id: str) -> Case:
    return Case.objects.select_related("suite__workspace").get(case_id=case_id)


def editor_url(case: Case, suffix: str = "") -> str:
    return f"/w/{case.suite.workspace.slug}/suites/{case.suite.pk}/cases/{case.pk}/{suffix}"


def test_editor_page_shows_the_case_and_its_preview(client: Client) -> None:
    case = case_named("debug-checkout-typeerror")

    response = client.get(editor_url(case))

    html = response.content.decode()
    assert response.status_code == 200
    assert 'aria-label="Formatted question"' in html
    assert 'aria-label="Guidelines"' in html
    assert "Role markers <strong>on</strong>: assistant turn present." in html
    assert "Add assistant turn" in html


def test_saving_the_unchanged_form_keeps_the_case_exactly(client: Client) -> None:
    for case in Case.objects.select_related("suite__workspace"):
        before = case.document
        form = form_of(client.get(editor_url(case)).content.decode())

        response = client.post(editor_url(case), {**form, "action": "save"})

        assert response.status_code == 302, case.case_id
        assert Case.objects.get(pk=case.pk).document == before, case.case_id


def test_structural_edit_over_htmx_returns_the_conversation_and_announces_it(
    client: Client,
) -> None:
    case = case_named("http-429-meaning")
    form = form_of(client.get(editor_url(case)).content.decode())

    response = client.post(
        editor_url(case), {**form, "action": "add-turn:input:assistant"}, HTTP_HX_REQUEST="true"
    )

    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div id="conversation"')
    assert 'id="input-1-block-0-value"' in html
    assert "autofocus" in html
    assert "turns-changed" in response["HX-Trigger-After-Settle"]
    assert len(Case.objects.get(pk=case.pk).document["input_messages"]) == 1  # nothing saved


def test_structural_edit_without_javascript_renders_the_whole_page_with_the_edit(
    client: Client,
) -> None:
    case = case_named("http-429-meaning")
    form = form_of(client.get(editor_url(case)).content.decode())

    response = client.post(editor_url(case), {**form, "action": "add-turn:input:system"})

    assert response.status_code == 200
    assert "<html" in response.content.decode()
    assert form_of(response.content.decode())["input-count"] == "2"


def test_preview_reflects_the_unsaved_form_and_writes_nothing(client: Client) -> None:
    case = case_named("http-429-meaning")
    form = form_of(client.get(editor_url(case)).content.decode())
    form["input-0-block-0-value"] = "What is HTTP 418?"
    before = database_snapshot()

    response = client.post(editor_url(case, "preview/"), form, HTTP_HX_REQUEST="true")

    html = response.content.decode()
    assert response.status_code == 200
    assert "What is HTTP 418?" in html
    assert database_snapshot() == before


def test_preview_places_a_missing_file_warning_next_to_its_turn(client: Client) -> None:
    case = case_named("http-429-meaning")
    form = form_of(client.get(editor_url(case)).content.decode())
    form.update(
        {
            "input-0-block-count": "2",
            "input-0-meta": '{"content_form": "list"}',
            "input-0-block-1-type": "file",
            "input-0-block-1-value": "nowhere.md",
        }
    )

    html = client.post(editor_url(case, "preview/"), form, HTTP_HX_REQUEST="true").content.decode()

    slot = html[html.index('id="warnings-input-0"') :]
    assert 'hx-swap-oob="true"' in slot[:200]
    assert 'file "nowhere.md" was not found' in unescape(slot.split("</div>")[0])


def test_preview_shows_an_invalid_case_inline_with_status_200(client: Client) -> None:
    case = case_named("http-429-meaning")
    form = form_of(client.get(editor_url(case)).content.decode())
    form["id"] = "two\tparts"

    response = client.post(editor_url(case, "preview/"), form, HTTP_HX_REQUEST="true")

    assert response.status_code == 200
    assert "id: an id cannot hold line breaks, tabs" in response.content.decode()


def test_preview_fills_the_judge_prompt_with_the_candidate_answer(client: Client) -> None:
    case = case_named("http-429-meaning")
    form = form_of(client.get(editor_url(case)).content.decode())

    html = client.post(
        editor_url(case, "preview/"), {**form, "candidate_answer": "Slow down, <b>retry</b>."}
    ).content.decode()

    assert "Slow down, &lt;b&gt;retry&lt;/b&gt;." in html
    assert "{{candidate_answer}}" not in html


def test_preview_in_agent_mode_references_files(client: Client) -> None:
    case = case_named("debug-checkout-typeerror")
    form = form_of(client.get(editor_url(case)).content.decode())

    html = client.post(
        editor_url(case, "preview/"), {**form, "preview_mode": "agent"}
    ).content.decode()

    assert '<file: path="../../src/cart.js">' in unescape(html)


def test_save_over_htmx_bumps_the_version_and_says_so(client: Client) -> None:
    case = case_named("http-429-meaning")
    form = form_of(client.get(editor_url(case)).content.decode())
    form["outcome"] = "A new outcome."

    response = client.post(editor_url(case), {**form, "action": "save"}, HTTP_HX_REQUEST="true")

    html = response.content.decode()
    saved = Case.objects.get(pk=case.pk)
    assert response.status_code == 200
    assert saved.document["outcome"] == "A new outcome." and saved.version == 2
    assert 'id="case-version" value="2" hx-swap-oob="true"' in html
    assert "case-saved" in response["HX-Trigger"]


def test_save_of_a_renamed_case_renames_its_heading_breadcrumb_and_title(client: Client) -> None:
    case = case_named("http-429-meaning")
    form = form_of(client.get(editor_url(case)).content.decode())
    form["id"] = "http-429-explained"

    response = client.post(editor_url(case), {**form, "action": "save"}, HTTP_HX_REQUEST="true")

    html = response.content.decode()
    assert '<h1 id="case-heading" hx-swap-oob="true">http-429-explained <span' in html
    assert '<span aria-current="page" id="breadcrumb-case" hx-swap-oob="true">' in html
    assert "<title>http-429-explained · " in html


def test_save_of_an_invalid_case_answers_422_and_keeps_the_stored_case(client: Client) -> None:
    case = case_named("http-429-meaning")
    form = form_of(client.get(editor_url(case)).content.decode())
    form["id"] = "two\tparts"
    before = database_snapshot()

    response = client.post(editor_url(case), {**form, "action": "save"}, HTTP_HX_REQUEST="true")

    assert response.status_code == 422
    assert "Not saved: id: an id cannot hold line breaks, tabs" in response.content.decode()
    assert database_snapshot() == before


def test_save_with_an_id_taken_in_the_suite_is_refused(client: Client) -> None:
    case = case_named("http-429-meaning")
    form = form_of(client.get(editor_url(case)).content.decode())
    form["id"] = "rotate-api-key"

    response = client.post(editor_url(case), {**form, "action": "save"}, HTTP_HX_REQUEST="true")

    assert response.status_code == 422
    assert "another case of this suite has this id" in response.content.decode()


def test_save_after_someone_else_saved_is_a_conflict_that_keeps_both(client: Client) -> None:
    case = case_named("http-429-meaning")
    mine = form_of(client.get(editor_url(case)).content.decode())
    theirs = dict(mine, outcome="Their outcome.", action="save")
    client.post(editor_url(case), theirs)
    mine["outcome"] = "My outcome."

    response = client.post(editor_url(case), {**mine, "action": "save"}, HTTP_HX_REQUEST="true")

    html = response.content.decode()
    assert response.status_code == 409
    assert "someone else saved this case" in html
    assert "Their outcome." in html and "My outcome." in html
    assert 'value="overwrite:2"' in html
    assert Case.objects.get(pk=case.pk).document["outcome"] == "Their outcome."


def test_overwrite_after_a_conflict_saves_my_version(client: Client) -> None:
    case = case_named("http-429-meaning")
    mine = form_of(client.get(editor_url(case)).content.decode())
    client.post(editor_url(case), dict(mine, outcome="Their outcome.", action="save"))

    response = client.post(editor_url(case), dict(mine, outcome="Mine.", action="overwrite:2"))

    assert response.status_code == 302
    assert Case.objects.get(pk=case.pk).document["outcome"] == "Mine."


def test_overwrite_of_a_version_that_moved_on_again_is_still_a_conflict(client: Client) -> None:
    case = case_named("http-429-meaning")
    mine = form_of(client.get(editor_url(case)).content.decode())
    client.post(editor_url(case), dict(mine, outcome="One.", action="save"))
    client.post(editor_url(case), dict(mine, outcome="Two.", action="overwrite:2"))

    response = client.post(editor_url(case), dict(mine, outcome="Mine.", action="overwrite:2"))

    assert response.status_code == 409
    assert Case.objects.get(pk=case.pk).document["outcome"] == "Two."


def test_tampered_form_is_a_bad_request(client: Client) -> None:
    case = case_named("http-429-meaning")
    form = form_of(client.get(editor_url(case)).content.decode())

    response = client.post(editor_url(case), {**form, "input-0-role": "robot", "action": "save"})

    assert response.status_code == 400


def test_editor_pages_require_login(example_root: Path) -> None:
    import_workspace(example_root, "Example workspace")
    case = case_named("http-429-meaning")

    for url in (editor_url(case), editor_url(case, "yaml/")):
        response = Client().get(url)
        assert response.status_code == 302
        assert response["Location"].startswith("/login/")


def test_save_requires_the_csrf_token(client: Client) -> None:
    case = case_named("http-429-meaning")
    form = form_of(client.get(editor_url(case)).content.decode())
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(admin("bob"))

    response = strict.post(editor_url(case), {**form, "action": "save"})

    assert response.status_code == 403


def test_case_from_another_suite_is_not_found(client: Client) -> None:
    case = case_named("http-429-meaning")
    other = Suite.objects.exclude(pk=case.suite.pk).first()
    assert other is not None

    response = client.get(f"/w/{case.suite.workspace.slug}/suites/{other.pk}/cases/{case.pk}/")

    assert response.status_code == 404


def test_yaml_view_shows_the_case_as_export_writes_it(client: Client) -> None:
    case = case_named("http-429-meaning")

    html = client.get(editor_url(case, "yaml/")).content.decode()

    assert "- id: http-429-meaning" in html
    assert "Copy to clipboard" in html


def paste_url(suite: Suite) -> str:
    return f"/w/{suite.workspace.slug}/suites/{suite.pk}/cases/paste/"


def test_pasting_yaml_with_a_new_id_adds_a_case_at_the_end(client: Client) -> None:
    suite = case_named("http-429-meaning").suite
    snippet = "id: pasted\noutcome: ok\ninput_messages:\n  - role: user\n    content: hi\n"

    response = client.post(paste_url(suite), {"yaml": snippet})

    pasted = Case.objects.get(suite=suite, case_id="pasted")
    assert response.status_code == 302
    assert suite.cases.order_by("position").last() == pasted


def test_pasting_yaml_with_an_existing_id_shows_the_differences_and_replaces_once_confirmed(
    client: Client,
) -> None:
    case = case_named("http-429-meaning")
    snippet = (
        "- id: http-429-meaning\n  outcome: replaced\n"
        "  input_messages:\n    - {role: user, content: hi}\n"
    )
    before = database_snapshot()

    asked = client.post(paste_url(case.suite), {"yaml": snippet})

    html = unescape(asked.content.decode())
    assert asked.status_code == 200
    assert "Replace http-429-meaning?" in html
    assert '<th scope="row">Outcome</th>' in html and "replaced</pre>" in html
    assert '<th scope="row">Input turn 1</th>' in html and "user: hi</pre>" in html
    assert f'name="replace" value="{case.version}"' in html
    assert database_snapshot() == before

    confirmed = client.post(paste_url(case.suite), {"yaml": snippet, "replace": case.version})

    replaced = Case.objects.get(pk=case.pk)
    assert confirmed.status_code == 302
    assert replaced.document["outcome"] == "replaced" and replaced.position == case.position


def test_paste_confirmation_is_asked_again_when_the_case_changed_meanwhile(
    client: Client,
) -> None:
    case = case_named("http-429-meaning")
    snippet = "id: http-429-meaning\noutcome: replaced\ninput_messages: [{role: user, content: hi}]"
    seen = case.version
    save_case(case, {**case.document, "outcome": "Someone else's outcome."}, seen)

    response = client.post(paste_url(case.suite), {"yaml": snippet, "replace": seen})

    assert response.status_code == 200
    assert "was saved again after you looked" in response.content.decode()
    assert Case.objects.get(pk=case.pk).document["outcome"] == "Someone else's outcome."


def test_pasting_an_approved_case_says_the_approval_goes(client: Client) -> None:
    case = case_named("http-429-meaning")
    Case.objects.filter(pk=case.pk).update(status="approved")
    snippet = "id: http-429-meaning\noutcome: replaced\ninput_messages: [{role: user, content: hi}]"

    html = client.post(paste_url(case.suite), {"yaml": snippet}).content.decode()

    assert "it is approved: replacing it dismisses the approval" in html


@pytest.mark.parametrize(
    ("snippet", "message"),
    [
        (
            "id: x\noutcome: ok\ninput_messages:\n  - role: robot\n    content: hi\n",
            "line 4: case x: input_messages[0].role: unknown role",
        ),
        ("id: x\nid: y\n", "line 2: duplicate key"),
        ("!!python/object/apply:os.system [ls]\n", "unsupported tag"),
        ("just text\n", "a case must be a mapping"),
        (
            "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
            + "".join(
                f"{n}: &{n} [{', '.join([f'*{p}'] * 10)}]\n"
                for p, n in zip("abcdefgh", "bcdefghi", strict=True)
            ),
            "aliases expand to more than",
        ),
    ],
)
def test_pasting_bad_yaml_is_refused_with_a_clear_error(
    client: Client, snippet: str, message: str
) -> None:
    suite = case_named("http-429-meaning").suite
    before = database_snapshot()

    response = client.post(paste_url(suite), {"yaml": snippet})

    assert response.status_code == 422
    assert message in unescape(response.content.decode())
    assert database_snapshot() == before


def case_with_turns(tmp_path: Path, turns: int) -> Case:
    messages: list[dict[str, Any]] = [
        {
            "role": "user" if i % 2 == 0 else "assistant",
            "content": [{"type": "text", "value": f"turn {i}"}, {"type": "file", "value": "a.md"}],
        }
        for i in range(turns)
    ]
    root = write_files(
        tmp_path / f"ws{turns}",
        {
            "a.md": "A file.",
            "e.yaml": {
                "$schema": "agentv-eval-v2",
                "evalcases": [{"id": f"long-{turns}", "outcome": "o", "input_messages": messages}],
            },
        },
    )
    import_workspace(root, f"ws{turns}")
    return case_named(f"long-{turns}")


@pytest.mark.parametrize("turns", [2, 50])
def test_editor_page_queries_do_not_grow_with_the_number_of_turns(
    client: Client, tmp_path: Path, turns: int, django_assert_max_num_queries: Any
) -> None:
    case = case_with_turns(tmp_path, turns)

    # As many as tests/pages/test_page_query_counts.py counts, whatever the turns.
    with django_assert_max_num_queries(15):
        response = client.get(editor_url(case))

    assert response.status_code == 200


@pytest.mark.parametrize("turns", [2, 50])
def test_preview_queries_do_not_grow_with_the_number_of_turns(
    client: Client, tmp_path: Path, turns: int, django_assert_max_num_queries: Any
) -> None:
    case = case_with_turns(tmp_path, turns)
    form = form_of(client.get(editor_url(case)).content.decode())

    with django_assert_max_num_queries(6):
        response = client.post(editor_url(case, "preview/"), form, HTTP_HX_REQUEST="true")

    assert response.status_code == 200


@pytest.mark.parametrize("turns", [2, 50])
def test_save_queries_do_not_grow_with_the_number_of_turns(
    client: Client, tmp_path: Path, turns: int, django_assert_max_num_queries: Any
) -> None:
    case = case_with_turns(tmp_path, turns)
    form = form_of(client.get(editor_url(case)).content.decode())

    with django_assert_max_num_queries(20):
        response = client.post(editor_url(case), {**form, "action": "save"})

    assert response.status_code == 302
    assert Workspace.objects.filter(name=f"ws{turns}").exists()


def test_multi_line_inline_judge_prompt_survives_an_unchanged_save(
    client: Client, tmp_path: Path
) -> None:
    evaluator = {"name": "tone", "type": "llm_judge", "prompt": "Grade it.\n\n{{question}}\n"}
    root = write_files(
        tmp_path / "judged",
        {
            "e.yaml": {
                "$schema": "agentv-eval-v2",
                "evalcases": [
                    {
                        "id": "judged",
                        "outcome": "o",
                        "input_messages": [{"role": "user", "content": "x"}],
                        "execution": {"evaluators": [evaluator]},
                    }
                ],
            }
        },
    )
    import_workspace(root, "judged")
    case = case_named("judged")
    before = case.document
    html = client.get(editor_url(case)).content.decode()

    client.post(editor_url(case), {**form_of(html), "action": "save"})

    # A text box would drop the line breaks in the browser; a text area keeps them.
    assert '<textarea id="evaluator-0-prompt"' in html
    assert Case.objects.get(pk=case.pk).document == before


def test_text_that_starts_with_a_line_break_survives_an_unchanged_save(
    client: Client, tmp_path: Path
) -> None:
    # Browsers drop a line break right after <textarea>: the page must write one more.
    case_data = {
        "id": "leading-break",
        "outcome": "\nThe outcome, after a blank line.",
        "input_messages": [
            {"role": "user", "content": [{"type": "text", "value": "\nFirst block"}]},
            {"role": "assistant", "content": "\n\nTwo breaks first"},
        ],
        "execution": {
            "evaluators": [{"name": "j", "type": "llm_judge", "prompt": "\nGrade.\n{{question}}"}]
        },
    }
    root = write_files(
        tmp_path / "breaks", {"e.yaml": {"$schema": "agentv-eval-v2", "evalcases": [case_data]}}
    )
    import_workspace(root, "breaks")
    case = case_named("leading-break")
    before = case.document
    form = form_of(client.get(editor_url(case)).content.decode())

    client.post(editor_url(case), {**form, "action": "save"})

    assert form["outcome"] == "\nThe outcome, after a blank line."
    assert Case.objects.get(pk=case.pk).document == before
