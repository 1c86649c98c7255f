"""A seeded generator of realistic AgentV workspaces of any size, in two profiles.

`python -m tests.workload.generate OUT --cases 10000 [--seed 1] [--profile short-values|text-heavy]`
writes a workspace folder.

- `short-values` (the default): several large suite files under `evals/`, multi-turn cases
  of many short values (system, user, assistant and tool turns; text and file blocks;
  guideline files, attachments, expected messages, evaluators, unknown keys),
  `.agentv/config.yaml`, and every referenced file. The first suite holds up to 1,000 cases and
  one case of exactly 50 input turns, which the page and preview measurements open.
- `text-heavy`: thousands of small eval files of every AgentV period with long block-scalar
  turns, nested configs and YAML files that are not eval files (`generate_periods.py`).
"""

from __future__ import annotations

import argparse
import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.workload.authored_yaml import Folded, mapping_lines, sequence_lines
from tests.workload.generate_periods import write_periods_workspace
from tests.workload.vocabulary import (
    AREAS,
    CODE_LANGUAGES,
    GUIDELINE_TOPICS,
    NOUNS,
    SENTENCE_TEMPLATES,
    TRICKY_VALUES,
    VERBS,
)

LONG_CASE_ID = "long-conversation-50-turns"
LONG_CASE_TURNS = 50
FIRST_SUITE_CASES = 1000
CASES_PER_SUITE = 1300
SHORT_VALUES = "short-values"
TEXT_HEAVY = "text-heavy"
PROFILES = (SHORT_VALUES, TEXT_HEAVY)


@dataclass(frozen=True)
class GeneratedWorkspace:
    """Where the workspace is and what the measurements need to find in it."""

    root: Path
    cases: int
    suite_paths: tuple[str, ...]
    yaml_bytes: int
    first_suite: str
    long_case_id: str = LONG_CASE_ID
    profile: str = SHORT_VALUES
    # YAML files that are not eval files, which an import skips (text-heavy only).
    skipped_paths: tuple[str, ...] = ()
    # The period of each eval file (text-heavy only): its path → a name from PERIODS.
    periods: dict[str, str] = field(default_factory=dict)


def generate_workspace(
    root: Path, *, cases: int, seed: int = 1, profile: str = SHORT_VALUES
) -> GeneratedWorkspace:
    """Write a workspace of `cases` cases under `root` (created; must not hold a workspace)."""
    if cases < 1:
        raise ValueError("a workspace needs at least one case")
    if profile == TEXT_HEAVY:
        written = write_periods_workspace(root, cases, random.Random(seed))
        eval_paths: tuple[str, ...] = written["suite_paths"]
        return GeneratedWorkspace(
            root,
            cases,
            eval_paths,
            written["yaml_bytes"],
            eval_paths[0],
            profile=TEXT_HEAVY,
            skipped_paths=written["skipped"],
            periods=written["periods"],
        )
    if profile != SHORT_VALUES:
        raise ValueError(f"unknown profile {profile!r} (one of {', '.join(PROFILES)})")
    writer = WorkspaceWriter(root, random.Random(seed))
    writer.write_files()
    sizes = suite_sizes(cases)
    paths: list[str] = []
    total = 0
    for index, size in enumerate(sizes):
        area = AREAS[index % len(AREAS)]
        path = f"evals/{area}/suite-{index + 1:02d}.yaml"
        total += writer.write_suite(path, size, area, with_long_case=index == 0)
        paths.append(path)
    return GeneratedWorkspace(root, cases, tuple(paths), total, paths[0])


def suite_sizes(cases: int) -> list[int]:
    """How many cases each suite gets: up to 1,000 in the first, the rest spread evenly."""
    first = min(cases, FIRST_SUITE_CASES)
    rest = cases - first
    suites = -(-rest // CASES_PER_SUITE) if rest else 0
    sizes = [first]
    for index in range(suites):
        sizes.append(rest // suites + (1 if index < rest % suites else 0))
    return sizes


class WorkspaceWriter:
    """Writes a workspace's files and suites from one seeded random source."""

    def __init__(self, root: Path, rng: random.Random) -> None:
        self.root = root
        self.rng = rng
        self.guidelines = [f"prompts/{topic}.instructions.md" for topic in GUIDELINE_TOPICS]
        self.guidelines.append(".github/instructions/security.md")
        self.attachments: list[str] = []
        self.judges = ["judges/correctness.md", "judges/tone.md"]

    # Workspace files.

    def write_files(self) -> None:
        """The config, guideline files, attachments, fixtures and judge prompts."""
        self._write(
            ".agentv/config.yaml",
            "$schema: agentv-config-v2\n"
            "# Files matching these globs are guidelines: sent once, shown as <Attached: …>.\n"
            "guideline_patterns:\n"
            '  - "**/*.instructions.md"\n'
            '  - ".github/instructions/**/*.md"\n',
        )
        for path in self.guidelines:
            self._write(path, self._guideline_text(path))
        for index in range(48):
            language, extension = CODE_LANGUAGES[index % len(CODE_LANGUAGES)]
            path = f"src/{self.rng.choice(NOUNS)}/{self.rng.choice(NOUNS)}_{index}.{extension}"
            self.attachments.append(path)
            self._write(path, self._code(language, self.rng.randint(12, 70)))
        for index in range(6):
            path = f"fixtures/run-{index}.log"
            self.attachments.append(path)
            self._write(path, self._log(self.rng.randint(8, 40)))
        self._write("fixtures/empty.txt", "")
        for path in self.judges:
            self._write(path, self._judge_template(path))

    def _guideline_text(self, path: str) -> str:
        title = path.rsplit("/", 1)[-1].split(".")[0].replace("-", " ")
        rules = "\n".join(f"- {self._sentence()}" for _ in range(self.rng.randint(6, 14)))
        return f"# {title.capitalize()} guidelines\n\n{self._paragraph(3)}\n\n{rules}\n"

    def _judge_template(self, path: str) -> str:
        return (
            f"You grade answers for the {path} rubric. {self._paragraph(2)}\n\n"
            "[[ ## expected_outcome ## ]]\n{{expected_outcome}}\n\n"
            "[[ ## question ## ]]\n{{question}}\n\n"
            "[[ ## reference_answer ## ]]\n{{reference_answer}}\n\n"
            "[[ ## candidate_answer ## ]]\n{{candidate_answer}}\n\n"
            'Reply with JSON: {"score": 0.0-1.0, "reasoning": "..."}\n'
        )

    # Suites and cases.

    def write_suite(self, path: str, size: int, area: str, *, with_long_case: bool) -> int:
        """Write a suite of `size` cases; returns its size in bytes."""
        text = self.suite_text(path, size, area, with_long_case=with_long_case)[1]
        self._write(path, text)
        return len(text.encode())

    def suite_text(
        self, path: str, size: int, area: str, *, with_long_case: bool
    ) -> tuple[dict[str, Any], str]:
        """A suite's data and the YAML text an author would have written for it."""
        header: dict[str, Any] = {
            "$schema": "agentv-eval-v2",
            "description": Folded(f"Conversations about {area}: {self._sentence().rstrip('.')}."),
            "dataset": f"{area}-regression",
            "target": "default",
            "execution": {
                "evaluators": [
                    {
                        "name": "correctness",
                        "type": "llm_judge",
                        "prompt": f"../../{self.judges[0]}",
                        "model": "gpt-4o",
                    }
                ]
            },
        }
        lines = mapping_lines(header, 0)
        lines.append("")
        lines.append("evalcases:")
        cases: list[dict[str, Any]] = []
        for number in range(size):
            if with_long_case and number == min(size - 1, 3):
                case = self._case(LONG_CASE_ID, turns=LONG_CASE_TURNS)
            else:
                case = self._case(f"{area}-{number:05d}", turns=self._turn_count())
            if self.rng.random() < 0.15:
                lines.append(f"  # {self._sentence()}")
            lines.extend(sequence_lines([case], 2))
            lines.append("")
            cases.append(case)
        return {**header, "evalcases": cases}, "\n".join(lines)

    def _turn_count(self) -> int:
        return min(24, max(2, int(self.rng.gauss(10, 4))))

    def _case(self, case_id: str, *, turns: int) -> dict[str, Any]:
        rng = self.rng
        case: dict[str, Any] = {"id": case_id}
        if rng.random() < 0.3:
            case["conversation_id"] = f"thread-{rng.randint(1000, 99999)}"
        if rng.random() < 0.3:
            case["tags"] = rng.sample(["smoke", "regression", "billing", "tools", "long"], 2)
        case["outcome"] = Folded(self._paragraph(rng.randint(2, 4)))
        case["input_messages"] = self._conversation(turns)
        if rng.random() < 0.6:
            case["expected_messages"] = [{"role": "assistant", "content": self._answer()}]
        if rng.random() < 0.2:
            case["execution"] = self._execution()
        if rng.random() < 0.08:
            case["metadata"] = {"owner": rng.choice(NOUNS), "priority": rng.randint(1, 3)}
        return case

    def _conversation(self, turns: int) -> list[dict[str, Any]]:
        rng = self.rng
        messages: list[dict[str, Any]] = [self._system_turn()]
        role = "user"
        while len(messages) < turns:
            if role == "assistant" and rng.random() < 0.25:
                messages.append({"role": "assistant", "content": "Let me look that up."})
                messages.append({"role": "tool", "content": self._tool_result()})
                role = "assistant"
                continue
            messages.append(self._user_turn() if role == "user" else self._assistant_turn())
            role = "assistant" if role == "user" else "user"
        return messages[:turns]

    def _system_turn(self) -> dict[str, Any]:
        text = f"You are a {self.rng.choice(NOUNS)} assistant. {self._paragraph(2)}"
        if self.rng.random() < 0.5:
            guideline = self.rng.choice(self.guidelines)
            return {
                "role": "system",
                "content": [{"type": "file", "value": guideline}, {"type": "text", "value": text}],
            }
        return {"role": "system", "content": text}

    def _user_turn(self) -> dict[str, Any]:
        rng = self.rng
        roll = rng.random()
        if roll < 0.22:
            blocks: list[Any] = [{"type": "text", "value": self._paragraph(1)}]
            blocks.append({"type": "file", "value": self._file_reference()})
            if rng.random() < 0.3:
                blocks.append(self._sentence())  # a bare string in a content list
            return {"role": "user", "content": blocks}
        if roll < 0.34:
            language = rng.choice(CODE_LANGUAGES)[0]
            snippet = self._code(language, rng.randint(4, 14))
            return {"role": "user", "content": f"{self._sentence()}\n\n{snippet}"}
        if roll < 0.37:
            return {"role": "user", "content": rng.choice(TRICKY_VALUES)}
        return {"role": "user", "content": self._paragraph(rng.randint(1, 3))}

    def _assistant_turn(self) -> dict[str, Any]:
        rng = self.rng
        if rng.random() < 0.3:
            steps = "\n".join(f"{n}. {self._sentence()}" for n in range(1, rng.randint(3, 6)))
            return {"role": "assistant", "content": f"{self._sentence()}\n\n{steps}\n"}
        return {"role": "assistant", "content": self._paragraph(rng.randint(1, 3))}

    def _answer(self) -> Any:
        if self.rng.random() < 0.2:
            return [
                {"type": "text", "value": self._paragraph(1)},
                {"type": "file", "value": self._file_reference()},
            ]
        return self._paragraph(self.rng.randint(1, 3))

    def _file_reference(self) -> str:
        rng = self.rng
        roll = rng.random()
        if roll < 0.01:
            return f"src/missing/{rng.choice(NOUNS)}.py"  # a warning, as real suites have
        if roll < 0.015:
            return "fixtures/empty.txt"
        if roll < 0.15:
            return rng.choice(self.guidelines)
        path = rng.choice(self.attachments)
        return f"../../{path}" if rng.random() < 0.5 else path  # relative, or found upward

    def _execution(self) -> dict[str, Any]:
        rng = self.rng
        evaluators: list[dict[str, Any]] = [
            {"name": "judge", "type": "llm_judge", "prompt": f"../../{rng.choice(self.judges)}"}
        ]
        if rng.random() < 0.5:
            evaluators.append(
                {"name": "keywords", "type": "code", "script": "uv run check.py", "cwd": "../.."}
            )
        return {"target": rng.choice(["default", "azure_base", "claude"]), "evaluators": evaluators}

    def _tool_result(self) -> str:
        rng = self.rng
        result = {
            "tool": f"get_{rng.choice(NOUNS)}",
            "id": f"{rng.choice(NOUNS)[:2].upper()}-{rng.randint(10000, 99999)}",
            "status": rng.choice(["ok", "pending", "failed"]),
            "items": [
                {"name": rng.choice(NOUNS), "count": rng.randint(0, 9)}
                for _ in range(rng.randint(1, 4))
            ],
        }
        return json.dumps(result, indent=2) + "\n"

    # Text.

    def _sentence(self) -> str:
        rng = self.rng
        template = rng.choice(SENTENCE_TEMPLATES)
        return template.format(
            noun=rng.choice(NOUNS),
            other=rng.choice(NOUNS),
            verb=rng.choice(VERBS),
            number=rng.randint(2, 480),
        )

    def _paragraph(self, sentences: int) -> str:
        return " ".join(self._sentence() for _ in range(sentences))

    def _code(self, language: str, lines: int) -> str:
        rng = self.rng
        body = []
        for index in range(lines):
            depth = "    " * rng.randint(0, 2)
            name = f"{rng.choice(NOUNS)}_{rng.choice(NOUNS)}"
            if language == "python":
                body.append(f"{depth}{name} = compute({index}, '{rng.choice(VERBS)}')  # step")
            else:
                body.append(f"{depth}const {name} = compute({index}, '{rng.choice(VERBS)}');")
        return "\n".join(body) + "\n"

    def _log(self, lines: int) -> str:
        rng = self.rng
        return "".join(
            f"2024-03-{rng.randint(10, 28)}T0{rng.randint(0, 9)}:12:00Z "
            f"{rng.choice(['INFO', 'WARN', 'ERROR'])} {self._sentence()}\n"
            for _ in range(lines)
        )

    def _write(self, relative: str, text: str) -> None:
        target = self.root / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> None:
    """Command line: write a workspace and print what was written."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="the folder to create")
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", choices=PROFILES, default=SHORT_VALUES)
    args = parser.parse_args(argv)
    generated = generate_workspace(args.out, cases=args.cases, seed=args.seed, profile=args.profile)
    megabytes = generated.yaml_bytes / 1e6
    print(
        f"{generated.root}: {generated.cases} cases in {len(generated.suite_paths)} suites, "
        f"{megabytes:.1f} MB of YAML"
    )


if __name__ == "__main__":
    main()
