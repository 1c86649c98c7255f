"""A workspace with script-injection payloads in every field a person can edit, for the XSS tests
(the view tests here and the browser test in tests/browser/test_hostile_input.py)."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

from evals_app.models import Workspace
from evals_app.services.imports.folders import import_workspace
from tests.factories import write_files

SCRIPT = "<script>alert(1)</script>"
ATTRIBUTE = '"><img src=x onerror=alert(1)>'
JAVASCRIPT_URL = "javascript:alert(1)"
TEXTAREA = "</textarea><script>alert(1)</script>"
PAYLOADS = (SCRIPT, ATTRIBUTE, JAVASCRIPT_URL, TEXTAREA)
# How each payload must appear in the page's HTML when it is shown as text.
ESCAPED = {
    SCRIPT: "&lt;script&gt;alert(1)&lt;/script&gt;",
    ATTRIBUTE: "&quot;&gt;&lt;img src=x onerror=alert(1)&gt;",
    TEXTAREA: "&lt;/textarea&gt;&lt;script&gt;alert(1)&lt;/script&gt;",
}

NAME = f"Hostile {ATTRIBUTE}"
CASE_ID = f"case {SCRIPT}"
FOLDER = f"evals/{ATTRIBUTE}"  # "/" is the one character a folder name cannot hold
ATTACHMENT = f"prompts/{ATTRIBUTE}.md"
GUIDELINE = f"prompts/{ATTRIBUTE}.instructions.md"


def hostile_workspace(root: Path) -> Workspace:
    """Import a workspace whose every user-editable field carries the payloads."""
    case = {
        "id": CASE_ID,
        "conversation_id": ATTRIBUTE,
        "outcome": f"Outcome {ATTRIBUTE} {TEXTAREA}",
        f"x_{JAVASCRIPT_URL}": SCRIPT,  # a key this app does not model
        "input_messages": [
            {"role": "system", "content": [{"type": "file", "value": GUIDELINE}, SCRIPT]},
            {"role": "user", "content": f"Question {SCRIPT} {ATTRIBUTE}"},
            {"role": "assistant", "content": f"Answer {TEXTAREA} {JAVASCRIPT_URL}"},
            {
                "role": "user",
                "content": [
                    {"type": "text", "value": JAVASCRIPT_URL},
                    {"type": "file", "value": ATTACHMENT},
                    {"type": "file", "value": f"missing {SCRIPT}.md"},
                    {"type": "image", "value": SCRIPT, "detail": ATTRIBUTE},
                ],
            },
        ],
        "expected_messages": [{"role": "assistant", "content": f"Reference {SCRIPT}"}],
        "execution": {
            "target": ATTRIBUTE,
            "evaluators": [
                {
                    "name": SCRIPT,
                    "type": "llm_judge",
                    "model": ATTRIBUTE,
                    # One line: the editor shows an inline prompt in a one-line text box.
                    "prompt": f"Judge {TEXTAREA} {{{{question}}}} {{{{candidate_answer}}}}",
                },
                {"name": ATTRIBUTE, "type": "code", "script": SCRIPT, "cwd": JAVASCRIPT_URL},
            ],
        },
    }
    write_files(
        root,
        {
            f"{FOLDER}/suite {SCRIPT[:8]}.yaml": {
                "$schema": "agentv-eval-v2",
                "description": f"Description {SCRIPT} {ATTRIBUTE}",
                "evalcases": [case],
            },
            ATTACHMENT: f"Attachment text {SCRIPT} {TEXTAREA}\n",
            GUIDELINE: f"Guideline text {SCRIPT} {ATTRIBUTE}\n",
            ".agentv/config.yaml": {
                "$schema": "agentv-config-v2",
                "guideline_patterns": ["**/*.instructions.md", f"{ATTRIBUTE}/**"],
            },
        },
    )
    return import_workspace(root, NAME).workspace


class ActiveContent(HTMLParser):
    """Everything in a page that could run code: inline scripts, event handler attributes and
    `javascript:` URLs."""

    URL_ATTRIBUTES = ("href", "src", "action", "formaction", "hx-get", "hx-post", "data")

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if tag == "script":
            self._in_script = True
            if "src" not in attributes:
                self.found.append("inline <script>")
        for name, value in attributes.items():
            if name.startswith("on"):
                self.found.append(f"event handler attribute {name}={value!r} on <{tag}>")
            if name in self.URL_ATTRIBUTES and (value or "").strip().lower().startswith(
                "javascript:"
            ):
                self.found.append(f"javascript: URL in {name} of <{tag}>")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script and data.strip():
            self.found.append(f"script content {data.strip()[:60]!r}")


def active_content(html: str) -> list[str]:
    """What in `html` could execute (nothing, in a page that escapes what it shows)."""
    parser = ActiveContent()
    parser.feed(html)
    parser.close()
    return parser.found
