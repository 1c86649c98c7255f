"""Which YAML files of a folder are eval files, which are skipped and why (docs/formats.md,
"Which files are eval files")."""

from __future__ import annotations

from pathlib import Path

import pytest

from evals_app.eval_files.configs import read_config
from evals_app.eval_files.discovery import Discovery, discover
from tests.factories import write_files

SUITE = "tests:\n  - id: t1\n    criteria: ok\n    input: hi\n"


def discovered(tmp_path: Path, files: dict[str, str], single: str | None = None) -> Discovery:
    root = write_files(tmp_path / "ws", {"evals/suite.yaml": SUITE, **files})
    return discover(root, None if single is None else root / single)


@pytest.mark.parametrize(
    ("path", "text"),
    [
        pytest.param(
            "evals/compare.exp.yaml",
            "eval_suites: [evals/suite.yaml]\neval_cases: t1\n",
            id="exp.yaml",
        ),
        pytest.param("evals/run.exp.yml", "eval_cases: t1\n", id="exp.yml"),
        pytest.param("evals/nightly.yaml", "eval_suites: ['**/*.yaml']\n", id="eval_suites"),
        pytest.param(
            "evals/filter.yaml", "target: azure\neval_cases: 't1*'\n", id="eval_cases text"
        ),
        pytest.param(
            "evals/cases.exp.yaml", "eval_cases:\n  - {id: x, input: hi}\n", id="named exp"
        ),
    ],
)
def test_an_experiment_file_is_skipped_as_one_and_the_import_goes_on(
    tmp_path: Path, path: str, text: str
) -> None:
    found = discovered(tmp_path, {path: text})

    assert found.errors == []
    assert (path, "AgentV experiment file") in found.skipped
    assert [eval_file.path for eval_file in found.eval_files] == ["evals/suite.yaml"]


def test_an_experiment_file_imported_on_its_own_is_refused_naming_what_it_is(
    tmp_path: Path,
) -> None:
    found = discovered(tmp_path, {"evals/a.exp.yaml": "eval_cases: t1\n"}, "evals/a.exp.yaml")

    assert [str(error) for error in found.errors] == [
        "evals/a.exp.yaml: an AgentV experiment file, not an eval file"
    ]


def test_eval_cases_as_a_list_is_still_an_eval_file(tmp_path: Path) -> None:
    found = discovered(tmp_path, {"evals/old.yaml": "eval_cases:\n  - {id: c1, input: hi}\n"})

    assert sorted(eval_file.path for eval_file in found.eval_files) == [
        "evals/old.yaml",
        "evals/suite.yaml",
    ]


@pytest.mark.parametrize(
    ("text", "where"),
    [
        pytest.param("a: [1, 2\nb: c\n", "evals/notes.yaml:2:2", id="unclosed flow list"),
        pytest.param("a: b\n  c: d\n", "evals/notes.yaml:2:4", id="bad indentation"),
        pytest.param("key: 'open\n", "evals/notes.yaml:2:1", id="unclosed quote"),
    ],
)
def test_a_yaml_file_that_does_not_parse_is_skipped_naming_file_line_and_column(
    tmp_path: Path, text: str, where: str
) -> None:
    found = discovered(tmp_path, {"evals/notes.yaml": text})

    reasons = dict(found.skipped)
    assert reasons["evals/notes.yaml"].startswith("not valid YAML: ")
    assert reasons["evals/notes.yaml"].endswith(f"({where})")


def test_an_eval_file_that_does_not_parse_is_refused_at_file_line_and_column(
    tmp_path: Path,
) -> None:
    found = discovered(tmp_path, {"evals/broken.eval.yaml": "tests:\n  - id: [x\n"})

    assert [str(error).split(": not valid YAML")[0] for error in found.errors] == [
        "evals/broken.eval.yaml:3:1"
    ]


@pytest.mark.parametrize(
    ("text", "patterns", "problem"),
    [
        pytest.param("guideline_patterns: ['docs/*.md']\n", ("docs/*.md",), None, id="no $schema"),
        pytest.param("{}\n", ("**/*.instructions.md",), None, id="empty, no $schema"),
        pytest.param(
            "$schema: agentv-config-v2\nguideline_patterns: [a.md]\n", ("a.md",), None, id="v2"
        ),
        pytest.param(
            "$schema: agentv-config-v1\nguideline_patterns: [a.md]\n",
            None,
            "$schema must be 'agentv-config-v2'",
            id="another $schema",
        ),
    ],
)
def test_a_config_is_read_by_its_path_with_or_without_schema(
    text: str, patterns: tuple[str, ...] | None, problem: str | None
) -> None:
    config = read_config(".agentv/config.yaml", text)

    assert (config.patterns, config.problem) == (patterns, problem)


FOLDER_SUITE = "prompts:\n  - '{{ input }}'\ntests: ./cases/\n"


@pytest.mark.parametrize("reference", ["./cases/", "./cases", "file://cases/", "cases"])
def test_tests_naming_a_folder_read_one_case_per_folder_as_agentv_does(
    tmp_path: Path, reference: str
) -> None:
    found = discovered(
        tmp_path,
        {
            "evals/folder.yaml": FOLDER_SUITE.replace("./cases/", reference),
            "evals/cases/b-second/case.yaml": "vars: {input: Second?}\n",
            "evals/cases/a-first/case.yml": "id: named\nvars: {input: First?}\n",
            "evals/cases/a-first/case.yaml": "vars: {input: Preferred}\n",
            "evals/cases/c-empty/notes.yaml": "not: a case\n",
            "evals/cases/d/deeper/case.yaml": "vars: {input: Too deep}\n",
        },
    )

    cases = [
        (eval_file.path, eval_file.referenced_by, eval_file.contents.cases)
        for eval_file in found.eval_files
        if eval_file.contents.format == "yaml-case"
    ]
    assert found.errors == [] and found.notes == []
    assert cases == [
        (
            "evals/cases/a-first/case.yaml",
            "evals/folder.yaml",
            [{"id": "a-first", "vars": {"input": "Preferred"}}],
        ),
        (
            "evals/cases/b-second/case.yaml",
            "evals/folder.yaml",
            [{"id": "b-second", "vars": {"input": "Second?"}}],
        ),
    ]
    assert "evals/cases/b-second/case.yaml" not in dict(found.skipped)


def test_a_case_of_a_folder_that_is_not_a_mapping_is_refused_naming_its_file(
    tmp_path: Path,
) -> None:
    found = discovered(
        tmp_path, {"evals/folder.yaml": FOLDER_SUITE, "evals/cases/one/case.yaml": "- a\n- b\n"}
    )

    assert [str(error) for error in found.errors] == [
        "evals/cases/one/case.yaml: a case file must hold one case (a YAML mapping), not a list"
    ]


def test_a_scenarios_file_is_an_eval_file(tmp_path: Path) -> None:
    scenarios = "prompts: [x]\nscenarios:\n  - config: [{}]\n    tests: [{id: t}]\n"

    found = discovered(tmp_path, {"evals/scenarios.yaml": scenarios})

    read = {eval_file.path: eval_file.contents for eval_file in found.eval_files}
    assert read["evals/scenarios.yaml"].format == "scenarios"
    assert [parts.case_id for parts in read["evals/scenarios.yaml"].parts] == ["t"]


def test_another_tools_scenarios_do_not_make_an_eval_file(tmp_path: Path) -> None:
    found = discovered(tmp_path, {"load/plan.yaml": "scenarios:\n  - name: spike\n    users: 9\n"})

    assert ("load/plan.yaml", "not an eval file") in found.skipped
