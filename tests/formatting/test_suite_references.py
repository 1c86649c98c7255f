"""Following an eval file's references never fails and never takes a file from outside the
workspace or one AgentV reads as its own, whatever the file holds (docs/runs.md, "The run
folder")."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from evals_app.formatting.suite_references import ReferenceWalker, referenced_files

FILES = {
    "evals/prompt.md": "A prompt.",
    "judges/judge.md": "A judge.",
    "scripts/check.py": "print()",
    ".env": "SECRET=1",
    ".agentv/graders/x.mjs": "x",
}
WORDS = st.sampled_from(
    [
        "prompt.md",
        "../judges/judge.md",
        "../../etc/passwd",
        "/etc/passwd",
        "file:///etc/passwd",
        "../.env",
        "../.agentv/graders/x.mjs",
        "{{ var }}",
        "a\x00b",
        "*.md",
        "check.py",
        "../scripts",
        "",
    ]
)
KEYS = st.sampled_from(
    ["prompt", "workspace", "include", "tests", "cwd", "command", "path", "value", "type", "files"]
)
DOCUMENTS = st.recursive(
    WORDS | st.sampled_from(["file", "code-grader"]),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(KEYS, children, max_size=4),
    max_leaves=12,
)


@given(DOCUMENTS)
def test_references_stay_inside_the_workspace_and_away_from_agentvs_own_files(
    document: Any,
) -> None:
    walker = ReferenceWalker(FILES.get, FILES.keys(), follow_commands=True)
    walker.references(document, "evals/suite.yaml", "the suite")
    assert set(walker.files) <= {"evals/prompt.md", "judges/judge.md", "scripts/check.py"}
    assert set(referenced_files("evals/suite.yaml", document, [], FILES.get)) <= set(FILES)
