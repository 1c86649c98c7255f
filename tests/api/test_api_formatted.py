"""`GET …/formatted`: the case's rows of formatted.jsonl, exactly as export writes them."""

from __future__ import annotations

import json
from operator import itemgetter
from pathlib import Path

import pytest

from evals_app.models import Case, Workspace
from evals_app.services.exports.exporting import FORMATTED_FILE, export_workspace
from tests.api.api_calls import ApiClient
from tests.factories import api_token, imported_workspace, member

pytestmark = pytest.mark.django_db
SUITE, CASE = "evals/support/escalation.yml", "unauthorised-second-charge"


@pytest.fixture
def examples(example_root: Path) -> Workspace:
    return imported_workspace(example_root, "Examples")


@pytest.fixture
def api(examples: Workspace) -> ApiClient:
    return ApiClient(api_token(member(examples, "viewer")))


def exported_rows(
    workspace: Workspace, out: Path, toon: bool = False, tokens: bool = False
) -> list[dict[str, object]]:
    summary = export_workspace(workspace, out, toon=toon, tokens=tokens)
    lines = (summary.folder / FORMATTED_FILE).read_text(encoding="utf-8").splitlines()
    return [row for row in map(json.loads, lines) if row["file"] == SUITE and row["id"] == CASE]


def test_gives_the_rows_export_writes_lm_then_agent(
    examples: Workspace, api: ApiClient, tmp_path: Path
) -> None:
    response = api.get("/workspaces/examples/formatted", suite=SUITE, id=CASE)

    assert response.status_code == 200
    assert response.json() == exported_rows(examples, tmp_path)
    assert [row["mode"] for row in response.json()] == ["lm", "agent"]


def test_each_row_holds_the_cases_lint_findings_and_token_counts_when_asked(
    examples: Workspace, api: ApiClient, tmp_path: Path
) -> None:
    examples.token_encoding = "cl100k_base"
    examples.save()

    rows = api.get("/workspaces/examples/formatted", suite=SUITE, id=CASE, tokens="true").json()

    assert rows == exported_rows(examples, tmp_path, tokens=True)
    for row in rows:
        assert isinstance(row["lint"], list)
        assert row["tokens"]["encoding"] == "cl100k_base"
        assert row["tokens"]["question"] > 10
        assert set(row["tokens"]) == {
            "encoding",
            "question",
            "guidelines",
            "system_message",
            "evaluator_prompt",
        }


@pytest.mark.parametrize("mode", ["lm", "agent"])
def test_gives_one_mode_when_asked(
    examples: Workspace, api: ApiClient, tmp_path: Path, mode: str
) -> None:
    response = api.get("/workspaces/examples/formatted", suite=SUITE, id=CASE, mode=mode)

    assert response.json() == [r for r in exported_rows(examples, tmp_path) if r["mode"] == mode]


def test_adds_the_toon_question_as_export_does(
    examples: Workspace, api: ApiClient, tmp_path: Path
) -> None:
    response = api.get("/workspaces/examples/formatted", suite=SUITE, id=CASE, toon="true")

    assert response.json() == exported_rows(examples, tmp_path, toon=True)
    assert "question_toon" in response.json()[0]


def test_an_unknown_mode_is_bad_input(api: ApiClient) -> None:
    response = api.get("/workspaces/examples/formatted", suite=SUITE, id=CASE, mode="chat")

    assert response.status_code == 400
    assert "query.mode" in response.json()["message"]


def test_an_unknown_case_is_not_found(api: ApiClient) -> None:
    response = api.get("/workspaces/examples/formatted", suite=SUITE, id="nope")

    assert response.status_code == 404
    assert response.json() == {"message": f"No case 'nope' in {SUITE}."}


def test_every_case_of_the_examples_formats_as_export_writes_it(
    examples: Workspace, api: ApiClient, tmp_path: Path
) -> None:
    summary = export_workspace(examples, tmp_path)
    exported = (summary.folder / FORMATTED_FILE).read_text(encoding="utf-8").splitlines()

    served = []
    for case in Case.objects.filter(suite__workspace=examples).select_related("suite"):
        query = {"suite": case.suite.path, "id": case.case_id}
        served += api.get("/workspaces/examples/formatted", **query).json()

    key = itemgetter("file", "id", "mode")
    assert sorted(served, key=key) == sorted(map(json.loads, exported), key=key)


def test_gives_a_todays_test_its_rows_per_expanded_test_as_export_does(
    tmp_path: Path,
) -> None:
    fixture = Path(__file__).resolve().parent.parent / "fixtures" / "today"
    today = imported_workspace(fixture, "Today")
    api = ApiClient(api_token(member(today, "viewer")))
    suite = "evals/shop/shop.eval.yaml"

    response = api.get("/workspaces/today/formatted", suite=suite, id="greet-{{ lang }}")

    summary = export_workspace(today, tmp_path)
    lines = (summary.folder / FORMATTED_FILE).read_text(encoding="utf-8").splitlines()
    expected = [row for row in map(json.loads, lines) if row["id"].startswith("greet-")]
    assert response.status_code == 200
    assert response.json() == expected
    assert {row["profile"] for row in expected} == {"agentv-2026"}
    assert len(expected) > 2  # one row per expanded test and mode
