"""The admin's lists use as many queries for many objects as for few, and its pages with
inline rows at most one more per row, for the row's user select (the app's own pages are in
test_page_query_counts_everywhere.py)."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.db.models import Model
from django.test import Client
from django.urls import reverse

from evals_app.models import CommentThread
from tests.pages.test_page_query_counts import queries
from tests.pages.test_page_query_counts_everywhere import (
    LARGE,
    SMALL,
    active_workspace,
    discussed_case,
    filled_workspace,
    small_and_large,
)

pytestmark = pytest.mark.django_db

APP_MODELS = sorted(
    (model for model in admin.site._registry if model._meta.app_label == "evals_app"),
    key=lambda model: model.__name__,
)


def admin_url(model: type[Model] | Model, page: str = "changelist") -> str:
    options = model._meta
    name = f"admin:{options.app_label}_{options.model_name}_{page}"
    return reverse(name, args=[model.pk] if isinstance(model, Model) else [])


@pytest.mark.parametrize("model", APP_MODELS, ids=lambda model: model.__name__)
def test_an_admin_list_uses_as_many_queries_for_many_objects_as_for_few(
    signed_in: Client, model: type[Model]
) -> None:
    url = admin_url(model)
    active_workspace("First", SMALL)
    discussed_case("First discussed", SMALL)
    counts = [queries(signed_in, "get", url)]
    active_workspace("More", LARGE)
    discussed_case("More discussed", LARGE)
    counts.append(queries(signed_in, "get", url))

    assert counts[0] == counts[1]


def test_a_thread_in_the_admin_looks_up_no_more_than_each_comments_author(
    signed_in: Client,
) -> None:
    """The author box of each comment row looks up its account with a query of its own (as
    Django's autocomplete widget does); nothing else may grow with the comments."""
    counts = []
    for discussed in small_and_large(discussed_case):
        thread = discussed.threads.first()
        assert isinstance(thread, CommentThread)
        counts.append(queries(signed_in, "get", admin_url(thread, "change")))

    assert counts[1] - counts[0] <= LARGE - SMALL


def test_a_case_in_the_admin_uses_as_many_queries_for_many_turns_as_for_one(
    signed_in: Client,
) -> None:
    counts = []
    for discussed in small_and_large(discussed_case):
        counts.append(queries(signed_in, "get", admin_url(discussed, "change")))

    assert counts[0] == counts[1]


def test_a_workspace_in_the_admin_looks_up_no_more_than_each_members_user(
    signed_in: Client,
) -> None:
    """Django's autocomplete widget reads the chosen user of each member row with a query of
    its own; nothing else may grow with the members."""
    counts = []
    for space in small_and_large(filled_workspace):
        counts.append(queries(signed_in, "get", admin_url(space, "change")))

    assert counts[1] - counts[0] <= LARGE - SMALL
