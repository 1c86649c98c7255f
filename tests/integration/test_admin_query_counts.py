"""The admin's lists use as many queries for many objects as for few (the app's own pages are
in test_page_query_counts_everywhere.py)."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.db.models import Model
from django.test import Client
from django.urls import reverse

from tests.integration.test_page_query_counts import queries
from tests.integration.test_page_query_counts_everywhere import (
    LARGE,
    SMALL,
    active_workspace,
    discussed_case,
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
