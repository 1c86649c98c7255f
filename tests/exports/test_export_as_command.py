"""`export_evals --as promptfoo|chat-jsonl`: one file per suite at its path with its suffix
replaced, under the workspace's folder; the default stays AgentV's own files (docs/exports.md)."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
import yaml
from django.core.management import call_command
from django.core.management.base import CommandError

from evals_app.models import Workspace
from evals_app.services.imports.folders import import_workspace
from tests.eval_files.promptfoo_schema import config_problems
from tests.factories import write_files

pytestmark = pytest.mark.django_db

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "today"


@pytest.fixture
def today() -> Workspace:
    return import_workspace(FIXTURE, "Today").workspace


@pytest.mark.parametrize("as_text", [True, False], ids=["out as text", "out as a Path"])
def test_promptfoo_writes_one_config_per_suite(
    today: Workspace, tmp_path: Path, as_text: bool
) -> None:
    output = StringIO()
    call_command(
        "export_evals",
        out=str(tmp_path) if as_text else tmp_path,
        as_format="promptfoo",
        stdout=output,
    )

    written = sorted(path.relative_to(tmp_path).as_posix() for path in tmp_path.rglob("*.*"))
    assert written == ["today/evals/shop/shop.eval.promptfoo.yaml"]
    config = yaml.safe_load((tmp_path / written[0]).read_text())
    assert config_problems(config) == []
    assert len(config["tests"]) == 6
    assert (
        "Exported workspace 'Today' as promptfoo to "
        f"{tmp_path / 'today'}: 1 suites, 5 tests, 4 warnings"
    ) in output.getvalue()
    assert 'warning: evals/shop/shop.eval.yaml: case "chat", `turns`' in output.getvalue()


def test_chat_jsonl_writes_one_file_per_suite_from_the_command_line(
    today: Workspace, tmp_path: Path
) -> None:
    call_command("export_evals", "--out", str(tmp_path), "--as", "chat-jsonl", stdout=StringIO())

    text = (tmp_path / "today" / "evals" / "shop" / "shop.eval.chat.jsonl").read_text()
    lines = [json.loads(line) for line in text.splitlines()]
    assert [line["messages"][-1]["role"] for line in lines] == [
        "user",  # greet-en: no expected output
        "user",
        "user",
        "user",
        "user",  # chat: its last turn has no expected output
    ]
    assert not (tmp_path / "today" / "formatted.jsonl").exists()


def test_the_default_is_agentvs_own_files(today: Workspace, tmp_path: Path) -> None:
    call_command("export_evals", out=tmp_path, stdout=StringIO())

    assert (tmp_path / "today" / "formatted.jsonl").exists()
    assert (tmp_path / "today" / "evals" / "shop" / "shop.eval.yaml").exists()
    assert not list(tmp_path.rglob("*.promptfoo.yaml"))


def test_check_fails_when_the_export_has_warnings(today: Workspace, tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="--check: 11 export warnings"):
        call_command(
            "export_evals", out=tmp_path, as_format="chat-jsonl", check=True, stdout=StringIO()
        )


def test_an_older_workspace_exports_each_suite(example_root: Path, tmp_path: Path) -> None:
    workspace = import_workspace(example_root, "Example workspace").workspace
    suites = list(workspace.suites.order_by("path").values_list("path", flat=True))

    call_command("export_evals", out=tmp_path, as_format="promptfoo", stdout=StringIO())

    folder = tmp_path / workspace.slug
    for path in suites:
        config = yaml.safe_load((folder / f"{path.rsplit('.', 1)[0]}.promptfoo.yaml").read_text())
        assert config_problems(config) == [], path


def test_an_unknown_format_is_refused_by_the_command_line(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="invalid choice: 'xlsx'"):
        call_command("export_evals", "--out", str(tmp_path), "--as", "xlsx")


def test_a_file_of_cases_exports_as_a_suite_of_its_own(tmp_path: Path) -> None:
    case = {"id": "t", "criteria": "Answers", "input": "Q?", "expected_output": "A."}
    root = write_files(
        tmp_path / "source",
        {
            "evals/suite.yaml": {"description": "Refers", "tests": "file://cases.jsonl"},
            "evals/cases.jsonl": json.dumps(case) + "\n",
        },
    )
    workspace = import_workspace(root, "Referring").workspace

    call_command("export_evals", out=tmp_path / "out", as_format="chat-jsonl", stdout=StringIO())

    folder = tmp_path / "out" / workspace.slug / "evals"
    assert (folder / "suite.chat.jsonl").read_text() == ""
    lines = (folder / "cases.chat.jsonl").read_text().splitlines()
    assert [json.loads(line) for line in lines] == [
        {"messages": [{"role": "user", "content": "Q?"}, {"role": "assistant", "content": "A."}]}
    ]
