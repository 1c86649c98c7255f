"""Runs against the real AgentV CLI (the pinned one, or the one AGENTV_COMMAND names: the
tests hold for both generations), with the mock target and a judge target that answers from
an OpenAI-compatible server on 127.0.0.1 (docs/runs.md, docs/development.md)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from evals_app.models import Case, Membership, Workspace
from evals_app.permissions import WorkspaceAccess
from evals_app.services.runs.agentv_cli import agentv_status, version_tuple
from tests.factories import imported_workspace, user, write_files

RUBRIC_REASONING = "The answer says four, as the rubric asks."


@pytest.fixture(autouse=True)
def runs_on(settings: Any, tmp_path: Path) -> None:
    """Runs are on, commands are not, and only the mock target is offered."""
    settings.AGENTV_RUNS_ENABLED = True
    settings.AGENTV_RUNS_ALLOW_COMMANDS = False
    settings.AGENTV_TARGETS_FILE = ""
    settings.AGENTV_RUN_TIME_LIMIT_SECONDS = 120


@dataclass
class JudgeServer:
    """An OpenAI-compatible chat server with fixed answers; `delay` holds every answer back."""

    url: str
    requests: list[dict[str, Any]] = field(default_factory=list)
    delay: float = 0.0


def _judge_answer(body: dict[str, Any]) -> str:
    """A rubric grader asks for `checks`; a score grader for `score` and `assertions`. AgentV
    5 asks both in words of its own, so an answer holds both when the system message does
    not tell which (each generation's reader keeps what it asks for)."""
    system = " ".join(
        str(message.get("content")) for message in body["messages"] if message["role"] == "system"
    )
    checks = [{"id": "rubric-1", "satisfied": True, "reasoning": RUBRIC_REASONING}]
    rubric = {"checks": checks, "overall_reasoning": "Four is right."}
    assertions = [{"text": "Says four", "passed": True, "evidence": "Four."}]
    scored = {"score": 1, "assertions": assertions}
    if '"checks"' in system and '"score"' not in system:
        return json.dumps(rubric)
    if '"checks"' not in system:
        return json.dumps(scored)
    return json.dumps({**rubric, **scored})


@pytest.fixture
def judge_server() -> Iterator[JudgeServer]:
    server_state = JudgeServer(url="")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (http.server's name)
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            server_state.requests.append(body)
            time.sleep(server_state.delay)
            chunk = {"id": "c", "object": "chat.completion.chunk", "created": 0, "model": "m"}
            content = _judge_answer(body)
            events = [
                {
                    **chunk,
                    "choices": [{"index": 0, "delta": {"role": "assistant", "content": content}}],
                },
                {**chunk, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
                {**chunk, "choices": [], "usage": {"prompt_tokens": 120, "completion_tokens": 30}},
            ]
            data = b"".join(b"data: " + json.dumps(e).encode() + b"\n\n" for e in events)
            data += b"data: [DONE]\n\n"
            try:
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass  # AgentV was stopped while the answer was held back

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server_state.url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server_state
    server.shutdown()
    server.server_close()


@pytest.fixture
def judge_targets(
    judge_server: JudgeServer, settings: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> JudgeServer:
    """AGENTV_TARGETS_FILE with a mock target graded by the judge server; the key and model
    come from the server's environment."""
    monkeypatch.setenv("RUN_TEST_JUDGE_KEY", "secret-judge-key")
    monkeypatch.setenv("RUN_TEST_JUDGE_MODEL", "fixed-judge")
    targets = tmp_path / "operator-targets.yaml"
    targets.write_text(
        "targets:\n"
        "  - name: graded-mock\n"
        "    provider: mock\n"
        "    response: Four.\n"
        "    grader_target: judge\n"
        "  - name: judge\n"
        "    provider: openai\n"
        f"    endpoint: {judge_server.url}\n"
        "    api_key: ${{ RUN_TEST_JUDGE_KEY }}\n"
        "    model: ${{ RUN_TEST_JUDGE_MODEL }}\n",
        encoding="utf-8",
    )
    settings.AGENTV_TARGETS_FILE = str(targets)
    return judge_server


def workspace_of(folder: Path, tests: str) -> Workspace:
    """A workspace imported from one eval file, `evals/math.eval.yaml`, of `tests`."""
    write_files(folder, {"evals/math.eval.yaml": f"description: Arithmetic.\ntests:\n{tests}"})
    return imported_workspace(folder)


def case_named(workspace: Workspace, case_id: str) -> Case:
    return Case.objects.get(suite__workspace=workspace, case_id=case_id)


def access_of(workspace: Workspace, role: str) -> WorkspaceAccess:
    return WorkspaceAccess(workspace, role, is_superuser=False)


def editor_of(workspace: Workspace, username: str = "erin") -> Any:
    account = user(username)
    Membership.objects.create(workspace=workspace, user=account, role=Membership.Role.EDITOR)
    return account


def agentv_label() -> str:
    """How results name the AgentV the tests run ("AgentV 4.42.4")."""
    return f"AgentV {agentv_status().version}"


def on_agentv_5() -> bool:
    """Whether the tests run AgentV 5 (AGENTV_COMMAND), whose spelling of some results
    differs (docs/runs.md, "AgentV generations")."""
    return (version_tuple(agentv_status().version) or (0,)) >= (5, 0, 0)
