"""Every way a suite can make AgentV start a program, run through the app with the real pinned
AgentV: refused, naming the place, with commands off (the canary never appears); run with
commands on (the canary appears, so each row is a real way) (docs/security.md, "Runs")."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from evals_app.models import Job, Run
from evals_app.services.runs.agentv_cli import agentv_status, version_tuple
from evals_app.services.runs.starting import RunRefused

from .sandbox import PLAIN_TEST, run_case, sandbox_workspace

pytestmark = pytest.mark.django_db

# `TOUCH` is a command that creates the row's canary file; `CANARY` is its path.
TOUCH = '["sh", "-c", "touch CANARY; cat >/dev/null; echo {}"]'
TEST = """\
  - id: t
    input: What is 2 + 2?
"""
# AgentV 5.x: today's format, and JavaScript that AgentV runs in its own process.
PROMPTS = "prompts:\n  - '{{ input }}'\ntests:\n"
TEST_5 = """\
  - id: t
    vars:
      input: What is 2 + 2?
"""
PLAIN_TEST_5 = """\
  - id: plain
    vars:
      input: What is 2 + 2?
    assert:
      - type: contains
        value: fixed answer
"""
JAVASCRIPT = "\"process.getBuiltinModule('fs').writeFileSync('CANARY', '') || true\"\n"
CONTAINS = """\
    assertions:
      - type: contains
        value: fixed answer
"""


@dataclass(frozen=True)
class Way:
    """One way to start a program: the eval file, other workspace files, and the place the
    refusal names."""

    name: str
    suite: str
    place: str
    files: dict[str, str] = field(default_factory=dict)
    # The AgentV generation that reads the suite, so runs it with commands on.
    generation: int = 4


WAYS = [
    Way(
        "config-hook",
        "tests:\n" + TEST + CONTAINS,
        ".agentv/config.yaml › hooks: starts a program",
        {".agentv/config.yaml": "hooks:\n  before_session: touch CANARY\n"},
    ),
    Way(
        "suite-workspace-file-hook",
        "workspace: ./ws.yaml\ntests:\n" + TEST + CONTAINS,
        "evals/ws.yaml › hooks: starts a program",
        {"evals/ws.yaml": "hooks:\n  before_all:\n    command: TOUCH\n"},
    ),
    Way(
        "case-workspace-file-setup",
        "tests:\n" + TEST + "    workspace: ./ws.yaml\n" + CONTAINS,
        "evals/ws.yaml › hooks: starts a program",
        {"evals/ws.yaml": "hooks:\n  before_each:\n    script: TOUCH\n"},
    ),
    Way(
        "suite-workspace-hook",
        "workspace:\n  hooks:\n    after_all:\n      command: TOUCH\ntests:\n" + TEST + CONTAINS,
        "the suite › workspace › hooks: starts a program",
    ),
    Way(
        "suite-assertions-code-grader",
        "assertions:\n  - type: code-grader\n    command: TOUCH\ntests:\n" + TEST + CONTAINS,
        "the suite › assertions #1: a `code-grader` grader starts a program",
    ),
    Way(
        "suite-execution-evaluators",
        "execution:\n  evaluators:\n    - type: code_grader\n      command: TOUCH\ntests:\n"
        + TEST
        + CONTAINS,
        "the suite › execution › evaluators #1: a `code_grader` grader starts a program",
    ),
    Way(
        "case-assert-code-grader",
        "tests:\n" + TEST + "    assert:\n      - type: code-grader\n        script: TOUCH\n",
        "t › assert #1: a `code-grader` grader starts a program",
    ),
    Way(
        "turn-code-grader",
        "tests:\n"
        + TEST
        + "    mode: conversation\n    turns:\n      - input: Hello\n        assertions:\n"
        + "          - type: code-grader\n            command: TOUCH\n",
        "t › turns #1 › assertions #1: a `code-grader` grader starts a program",
    ),
    Way(
        "composite-member",
        "tests:\n"
        + TEST
        + "    assertions:\n      - type: composite\n        aggregator:\n"
        + "          type: weighted_average\n        assertions:\n"
        + "          - name: member\n            type: code-grader\n            command: TOUCH\n",
        "t › assertions #1 › assertions #1: a `code-grader` grader starts a program",
    ),
    Way(
        "composite-aggregator",
        "tests:\n"
        + TEST
        + "    assertions:\n      - type: composite\n        aggregator:\n"
        + "          type: code-grader\n          path: sh ./aggregate.sh\n        assertions:\n"
        + "          - name: member\n            type: contains\n            value: fixed\n",
        "t › assertions #1 › aggregator: a `code-grader` aggregator runs a program",
        {"evals/aggregate.sh": "touch CANARY; cat >/dev/null; echo {}\n"},
    ),
    Way(
        "custom-grader-file",
        "tests:\n" + TEST + "    assertions:\n      - type: pwn\n",
        "t › assertions #1: a `pwn` grader starts a program",
        {".agentv/graders/pwn.mjs": "import fs from 'node:fs'; fs.writeFileSync('CANARY', '');\n"},
    ),
    Way(
        "custom-assertion-file",
        "tests:\n" + TEST + "    assertions:\n      - type: pwned\n",
        "t › assertions #1: a `pwned` grader starts a program",
        {
            ".agentv/assertions/pwned.mjs": (
                "import fs from 'node:fs'; fs.writeFileSync('CANARY', '');\n"
            )
        },
    ),
    Way(
        "default-test-script",
        "default_test:\n  assert:\n    - type: script\n      command: TOUCH\n" + PROMPTS + TEST_5,
        "the suite › default_test › assert #1: a `script` grader starts a program",
        generation=5,
    ),
    Way(
        "case-script",
        PROMPTS + TEST_5 + "    assert:\n      - type: script\n        command: TOUCH\n",
        "t › assert #1: a `script` grader starts a program",
        generation=5,
    ),
    Way(
        "javascript-assert",
        PROMPTS + TEST_5 + "    assert:\n      - type: javascript\n        value: " + JAVASCRIPT,
        "t › assert #1: a `javascript` grader starts a program",
        generation=5,
    ),
    Way(
        "python-assert",
        PROMPTS
        + TEST_5
        + "    assert:\n      - type: python\n"
        + "        value: __import__('os').system('touch CANARY') or True\n",
        "t › assert #1: a `python` grader starts a program",
        generation=5,
    ),
    Way(
        "assert-set-member",
        PROMPTS
        + TEST_5
        + "    assert:\n      - type: assert-set\n        assert:\n"
        + "          - type: script\n            command: TOUCH\n",
        "t › assert #1 › assert #1: a `script` grader starts a program",
        generation=5,
    ),
    Way(
        "transform",
        PROMPTS
        + TEST_5
        + "    assert:\n      - type: equals\n        value: x\n        transform: "
        + JAVASCRIPT.replace("true", "output"),
        "t › assert #1 › transform: starts a program",
        generation=5,
    ),
]


def _written(text: str, canary: Path) -> str:
    return text.replace("TOUCH", TOUCH).replace("CANARY", str(canary))


def _workspace(way: Way, folder: Path, canary: Path) -> Any:
    files = {path: _written(text, canary) for path, text in way.files.items()}
    plain = PLAIN_TEST if way.generation == 4 else PLAIN_TEST_5
    return sandbox_workspace(folder, _written(way.suite, canary) + plain, files)


@pytest.mark.parametrize("way", WAYS, ids=[way.name for way in WAYS])
def test_a_way_to_start_a_program_is_refused_naming_it_and_never_runs(
    way: Way, tmp_path: Path
) -> None:
    canary = tmp_path / "canary"
    workspace = _workspace(way, tmp_path / "workspace", canary)
    with pytest.raises(RunRefused) as refused:
        run_case(workspace, "t")
    assert "AGENTV_RUNS_ALLOW_COMMANDS" in str(refused.value)
    assert way.place in str(refused.value)
    assert not Run.objects.exists()
    # The suite's other test, which starts nothing, is refused too only where the program
    # would start for every test of the suite (hooks, suite-level graders).
    assert not canary.exists()


def test_each_way_runs_when_commands_are_allowed(tmp_path: Path, settings: Any) -> None:
    """The same rows with commands on: each starts its program (the rows are real), those of
    the AgentV generation configured (AGENTV_COMMAND)."""
    settings.AGENTV_RUNS_ALLOW_COMMANDS = True
    version = version_tuple(agentv_status().version) or (4,)
    generation = 5 if version[0] >= 5 else 4
    missing = []
    for way in [way for way in WAYS if way.generation == generation]:
        canary = tmp_path / f"canary-{way.name}"
        workspace = _workspace(way, tmp_path / way.name, canary)
        run = run_case(workspace, "t")
        assert run.job.state in (Job.State.DONE, Job.State.FAILED), way.name
        if not canary.exists():
            missing.append((way.name, run.job.error))
    assert missing == []
