"""Every object saves in the admin as the admin renders it: JSON columns are edited as JSON
(indented, key order kept, checked when sent); key orders, computed warnings and revision
snapshots are shown read-only."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib import admin
from django.db.models import Model, TextField
from django.test import Client
from django.urls import reverse

from evals_app.models import (
    ActivityRecord,
    Case,
    ReviewEvent,
    Revision,
    Suite,
    Workspace,
)
from evals_app.models.ordered_json import OrderedJSONField, readable_json
from tests import factories
from tests.factories import key_orders
from tests.html_forms import form_fields

pytestmark = pytest.mark.django_db

APP_MODELS = sorted(
    (model for model in admin.site._registry if model._meta.app_label == "evals_app"),
    key=lambda model: model.__name__,
)


def change_url(obj: Model) -> str:
    options = obj._meta
    return reverse(f"admin:{options.app_label}_{options.model_name}_change", args=[obj.pk])


def rendered_form(client: Client, obj: Model) -> dict[str, str]:
    response = client.get(change_url(obj))
    assert response.status_code == 200
    # The admin's change form is the one whose id ends in "_form", e.g. "workspace_form".
    return form_fields(response.content.decode(), lambda form_id: form_id.endswith("_form"))


def stored_values(obj: Model) -> dict[str, Any]:
    """The object's columns as stored, but for the time of the last change."""
    fresh = type(obj)._default_manager.get(pk=obj.pk)
    return {
        field.attname: getattr(fresh, field.attname)
        for field in fresh._meta.concrete_fields
        if not getattr(field, "auto_now", False)
    }


@pytest.fixture
def one_of_each(db: None) -> dict[type[Model], Model]:
    """One object of every model in the admin, with documents whose key order is not
    alphabetical and a mapping whose keys are numbers (a rubric's score ranges)."""
    author = factories.admin("author")
    space = factories.workspace("Team")
    factories.member(space, "owner")
    suite = factories.suite(
        space, document={"zeta": True, "evalcases": [None], "alpha": None}, cases_key="evalcases"
    )
    case = factories.case(
        suite,
        "greeting",
        tags=["b", "a"],
        meta={"z": 1, "a": 2},
        rubrics=[{"id": "r1", "score_ranges": {0: "wrong", 3: "right"}}],
        execution={"target": "x", "evaluators": [{"name": "j", "type": "llm_judge"}]},
        format_warnings=["a warning"],
    )
    thread = factories.comment_thread(case, author, "Why?", (author, "Because."))
    revision = factories.revision(case, author)
    event = factories.review_event(case, author)
    file = factories.workspace_file(space, "docs/a.md")
    objects: list[Model] = [space, suite, case, thread, revision, event, file]
    objects += [thread.comments.first(), space.memberships.first()]  # type: ignore[list-item]
    objects += [ActivityRecord.objects.create(workspace=space, actor=author, action="file_added")]
    return {type(obj): obj for obj in objects}


@pytest.mark.parametrize("model", APP_MODELS, ids=lambda model: model.__name__)
def test_every_object_saves_unchanged_as_the_admin_renders_it(
    signed_in: Client, one_of_each: dict[type[Model], Model], model: type[Model]
) -> None:
    obj = one_of_each[model]
    before = stored_values(obj)

    response = signed_in.post(change_url(obj), rendered_form(signed_in, obj))

    assert response.status_code == 302, response.content.decode()
    after = stored_values(obj)
    assert after == before
    assert key_orders(after) == key_orders(before)


def changed(value: Any) -> Any:
    """A different JSON value of the same kind, with keys out of alphabetical order."""
    if isinstance(value, dict):
        return {**value, "added": {"z": 1, "a": [2, "two"]}}
    if isinstance(value, list):
        return [*value, "added/**"]
    return {"z": "new", "a": None}


def fields_in_form(model: type[Model], form: dict[str, str], kind: str) -> list[str]:
    """The model's JSON columns (`kind="json"`) or other text columns in the rendered form."""
    return [
        field.name
        for field in model._meta.concrete_fields
        if isinstance(field, TextField)
        and isinstance(field, OrderedJSONField) is (kind == "json")
        and field.name in form
    ]


@pytest.mark.parametrize("model", APP_MODELS, ids=lambda model: model.__name__)
def test_every_object_saves_changed_json_and_text_as_typed(
    signed_in: Client, one_of_each: dict[type[Model], Model], model: type[Model]
) -> None:
    obj = one_of_each[model]
    form = rendered_form(signed_in, obj)
    json_fields = fields_in_form(model, form, "json")
    text_fields = fields_in_form(model, form, "text")
    wanted_json = {name: changed(getattr(obj, name)) for name in json_fields}
    # As a browser sends a text box: CRLF line ends; spaces around the text are part of it.
    typed_text = {name: f"{form[name]}\r\n  Changed in the admin. " for name in text_fields}

    response = signed_in.post(
        change_url(obj),
        {
            **form,
            **{name: readable_json(value) for name, value in wanted_json.items()},
            **typed_text,
        },
    )

    assert response.status_code == 302, response.content.decode()
    after = stored_values(obj)
    assert {name: after[name] for name in json_fields} == wanted_json
    assert key_orders([after[name] for name in json_fields]) == key_orders([*wanted_json.values()])
    assert {name: after[name] for name in text_fields} == {
        name: text.replace("\r\n", "\n") for name, text in typed_text.items()
    }


def test_the_admin_edits_the_json_columns_it_should(
    signed_in: Client, one_of_each: dict[type[Model], Model]
) -> None:
    editable = {
        model.__name__: fields_in_form(model, rendered_form(signed_in, one_of_each[model]), "json")
        for model in (Workspace, Suite, Case, Revision, ReviewEvent)
    }

    assert editable == {
        "Workspace": [],
        "Suite": ["document"],
        "Case": ["document"],
        "Revision": [],
        "ReviewEvent": [],
    }


def test_json_is_shown_indented_with_its_keys_in_order(
    signed_in: Client, one_of_each: dict[type[Model], Model]
) -> None:
    form = rendered_form(signed_in, one_of_each[Suite])

    assert (
        form["document"]
        == '{\n  "zeta": true,\n  "evalcases": [\n    null\n  ],\n  "alpha": null\n}'
    )


def test_read_only_json_is_shown_as_json(
    signed_in: Client, one_of_each: dict[type[Model], Model]
) -> None:
    html = signed_in.get(change_url(one_of_each[Case])).content.decode()

    assert "<pre>[\n  &quot;a warning&quot;\n]</pre>" in html


def test_a_mapping_with_number_keys_keeps_them_through_the_admin(
    signed_in: Client, one_of_each: dict[type[Model], Model]
) -> None:
    case = one_of_each[Case]

    signed_in.post(change_url(case), rendered_form(signed_in, case))

    case.refresh_from_db()
    assert case.document["rubrics"][0]["score_ranges"] == {0: "wrong", 3: "right"}


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        pytest.param("{'a': 1}", "Enter valid JSON (Expecting property name", id="python repr"),
        pytest.param('{"a": 1', "Enter valid JSON (Expecting", id="unclosed"),
        pytest.param('"text"', "a bare string is not a value of this field", id="bare string"),
        pytest.param("[" * 5000 + "]" * 5000, "nested deeper than the limit of 64", id="deep"),
        pytest.param("", "This field is required.", id="empty"),
    ],
)
def test_invalid_json_is_refused_with_a_message_and_nothing_saved(
    signed_in: Client, one_of_each: dict[type[Model], Model], typed: str, message: str
) -> None:
    suite = one_of_each[Suite]
    before = stored_values(suite)

    response = signed_in.post(
        change_url(suite), {**rendered_form(signed_in, suite), "document": typed}
    )

    assert response.status_code == 200
    assert message in response.content.decode()
    assert stored_values(suite) == before


@pytest.mark.usefixtures("tasks_in_the_database")
def test_a_config_saved_in_the_admin_marks_the_case_summaries_out_of_date(
    signed_in: Client, one_of_each: dict[type[Model], Model]
) -> None:
    config = factories.workspace_file(
        one_of_each[Workspace], ".agentv/config.yaml", "$schema: agentv-config-v2\n"
    )
    form = rendered_form(signed_in, config)

    text = "$schema: agentv-config-v2\nguideline_patterns: ['**/*.md']\n"
    signed_in.post(change_url(config), {**form, "text": text})

    assert factories.summaries_pending(one_of_each[Suite])
