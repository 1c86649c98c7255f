"""Hostile YAML is refused quickly and with bounded memory, on import and in the editor's
"Paste YAML": bombs, over-deep nesting, unknown tags, non-UTF-8 and over-size input.

The messages of each refusal are tested in tests/imports/test_import_evals_bad_input.py
and test_case_editor_views.py; here the cost of refusing, and the paste form's edge cases.
"""

from __future__ import annotations

import time
import tracemalloc
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from evals_app.eval_files.errors import EvalFileError
from evals_app.eval_files.yaml_loader import load_yaml
from evals_app.models import Case, Suite
from evals_app.services.imports.folders import ImportFailed, import_workspace
from tests import factories
from tests.factories import database_snapshot

LAUGHS = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{name}: &{name} [{', '.join([f'*{previous}'] * 10)}]\n"
    for previous, name in zip("abcdefgh", "bcdefghi", strict=True)
)
# Aliases of a large anchor: few bytes, each alias worth 10,000 nodes.
WIDE_ALIASES = (
    "big: &big [" + ", ".join(["x"] * 10_000) + "]\n" + "".join(f"k{i}: *big\n" for i in range(200))
)
DEEP_FLOW = "a: " + "[" * 1_000_000 + "]" * 1_000_000 + "\n"
DEEP_BLOCK = "".join(" " * depth + "- \n" for depth in range(1000))
HOSTILE = [
    pytest.param(LAUGHS, "aliases expand to more than", id="billion-laughs"),
    pytest.param(WIDE_ALIASES, "aliases expand to more than", id="wide-aliases"),
    pytest.param(DEEP_FLOW, "nested deeper than", id="million-brackets"),
    pytest.param(DEEP_BLOCK, "nested deeper than", id="deep-block-list"),
    pytest.param("a: !custom {x: 1}\n", "unsupported tag !custom", id="custom-tag"),
    pytest.param("a: !!binary aGk=\n", "unsupported tag !!binary", id="binary-tag"),
    pytest.param("a: 1\n---\nb: 2\n", "more than one YAML document", id="two-documents"),
    pytest.param("a: " + "9" * 100_000 + "\n", "integer", id="huge-integer"),
]
MAX_SECONDS = 5  # generous for a loaded machine; an expansion would take minutes


@pytest.mark.parametrize(("source", "message"), HOSTILE)
def test_hostile_yaml_is_refused_quickly_with_bounded_memory(source: str, message: str) -> None:
    data = source.encode()
    tracemalloc.start()
    started = time.monotonic()
    try:
        with pytest.raises(EvalFileError, match=message):
            load_yaml(data)
        elapsed = time.monotonic() - started
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()

    assert elapsed < MAX_SECONDS
    assert peak < 8 * len(data) + 2**20  # a few copies of the input at most, never its expansion


@pytest.mark.django_db
@pytest.mark.parametrize(("source", "message"), HOSTILE[:4])
def test_an_import_of_hostile_yaml_is_refused_and_writes_nothing(
    tmp_path: Path, source: str, message: str
) -> None:
    eval_file = tmp_path / "ws" / "evals" / "hostile.yaml"
    eval_file.parent.mkdir(parents=True)
    eval_file.write_text(
        "$schema: agentv-eval-v2\nevalcases: []\nx_payload:\n  " + source.replace("\n", "\n  ")
    )
    before = database_snapshot()

    with pytest.raises(ImportFailed, match=message):
        import_workspace(tmp_path / "ws", "hostile")

    assert database_snapshot() == before


@pytest.fixture
def suite(db: None) -> Suite:
    suite = factories.suite(factories.workspace())
    factories.case(suite, "existing")
    return suite


def paste_url(suite: Suite) -> str:
    return reverse("case_paste", args=[suite.workspace.slug, suite.pk])


@pytest.mark.parametrize(("source", "message"), HOSTILE)
def test_pasting_hostile_yaml_is_refused_and_writes_nothing(
    signed_in: Client, suite: Suite, source: str, message: str
) -> None:
    before = database_snapshot()

    response = signed_in.post(paste_url(suite), {"yaml": source})

    assert response.status_code == 422
    assert message in response.content.decode()
    assert database_snapshot() == before


def test_pasting_bytes_that_are_not_utf8_never_fails_the_server(
    signed_in: Client, suite: Suite
) -> None:
    body = b"yaml=id%3A+%E9t%E9%0Aoutcome%3A+%FF%0Ainput_messages%3A+%5B%7Brole%3A+r%E9%7D%5D%0A"

    response = signed_in.post(
        paste_url(suite), body, content_type="application/x-www-form-urlencoded"
    )

    # The form is decoded as UTF-8 with replacement characters, like every form field.
    assert response.status_code == 422
    assert "unknown role" in response.content.decode()


def test_an_oversized_paste_is_refused_before_it_is_read(
    signed_in: Client, suite: Suite, settings: object
) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 100_000  # type: ignore[attr-defined]
    before = database_snapshot()

    response = signed_in.post(paste_url(suite), {"yaml": "a: b\n" * 50_000})

    assert response.status_code == 400
    assert database_snapshot() == before
    assert Case.objects.filter(suite=suite).count() == 1
