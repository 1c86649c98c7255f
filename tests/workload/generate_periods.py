"""The text-heavy workspace: thousands of eval files of every AgentV period, as repositories hold.

Where `generate.py` writes a few large suites of many short values (which makes the parse floor
slow and the import's ratio to it easy), this writes what a real AgentV repository looks like
after months of use: many small eval files in project folders, each in the spelling of its
period (docs/formats.md, "Periods and their spellings"), with long multi-paragraph turns written
as block scalars, code blocks, content lists of text and file blocks, expected answers that are
tool calls, rubrics with integer `score_ranges` keys, nested `.agentv/config.yaml` files, and a
few YAML files that are not eval files (CI workflows, one with a repeated key), which an import
must skip. Every word comes from `vocabulary.py`; the seed decides everything.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.workload.authored_yaml import Folded, mapping_lines, sequence_lines
from tests.workload.vocabulary import AREAS, CODE_LANGUAGES, GUIDELINE_TOPICS, NOUNS, VERBS

# The periods of docs/formats.md, each with its share of a repository's files.
PERIODS: tuple[tuple[str, float], ...] = (
    ("2025-11 evalcases", 0.12),  # the seeds: $schema, evalcases, input_messages, outcome
    ("2025-12 eval_cases", 0.14),  # input, expected_output, expected_outcome, evaluators
    ("2026-01 cases", 0.14),  # criteria, rubrics with score_ranges
    ("2026-02 tests", 0.30),  # input strings or messages, criteria, assert
    ("2026-07 tests vars", 0.22),  # vars.input through prompts: ["{{ input }}"]
    ("2026-07 conversation", 0.08),  # mode: conversation with turns
)
CASES_PER_FILE = 4  # on average; between 1 and 8
FILES_PER_PROJECT = 14
# YAML files that are not eval files: the import skips them (one has a repeated key and does
# not even parse) and lists them in its summary.
NON_EVAL_FILES = (
    ".github/workflows/ci.yml",
    ".github/workflows/release.yml",
    "governance.yaml",
    "docker-compose.yml",
)
TOOLS = ("search_docs", "get_order", "run_query", "read_file", "create_ticket", "list_plans")


def file_count(cases: int) -> int:
    """How many eval files hold `cases` cases (about four a file)."""
    return max(1, math.ceil(cases / CASES_PER_FILE))


class PeriodsWriter:
    """Writes the text-heavy workspace from one seeded random source."""

    def __init__(self, root: Path, rng: random.Random) -> None:
        self.root = root
        self.rng = rng

    # Words.

    def sentence(self) -> str:
        """A sentence of plain prose (the short profile's templates are questions and notes)."""
        rng = self.rng
        subject = f"the {rng.choice(NOUNS)} {rng.choice(['service', 'job', 'page', 'team'])}"
        clauses = [
            f"{subject.capitalize()} {rng.choice(VERBS)} when the {rng.choice(NOUNS)} is stale",
            f"after {rng.randint(2, 90)} minutes the {rng.choice(NOUNS)} {rng.choice(VERBS)}",
            f"which is why the {rng.choice(NOUNS)} owner checks the {rng.choice(NOUNS)} first",
            f"so the {rng.choice(NOUNS)} and the {rng.choice(NOUNS)} stay in step",
            f"unless the {rng.choice(NOUNS)} limit of {rng.randint(10, 900)} is reached",
        ]
        return ", ".join(clauses[: rng.randint(1, 4)]) + "."

    def paragraph(self, sentences: int) -> str:
        """Sentences joined into one line of prose."""
        return " ".join(self.sentence() for _ in range(sentences))

    def long_text(self, least: int, most: int) -> str:
        """Multi-paragraph text of `least` to `most` characters (log-uniform): prose, bullet
        lists and fenced code blocks, as turns and reference answers are."""
        rng = self.rng
        wanted = int(math.exp(rng.uniform(math.log(least), math.log(most))))
        pieces: list[str] = []
        size = 0
        while size < wanted:
            roll = rng.random()
            if roll < 0.2 and pieces:
                language = rng.choice(CODE_LANGUAGES)[0]
                piece = f"```{language}\n{self.code(language, rng.randint(3, 16))}```"
            elif roll < 0.35:
                piece = "\n".join(f"- {self.sentence()}" for _ in range(rng.randint(2, 5)))
            elif roll < 0.42:
                piece = f"## {rng.choice(NOUNS).capitalize()} {rng.choice(NOUNS)}"
            else:
                piece = self.paragraph(rng.randint(1, 4))
            pieces.append(piece)
            size += len(piece) + 2
        return "\n\n".join(pieces)

    def code(self, language: str, lines: int) -> str:
        """Source lines in `language`, each ending in a line feed."""
        rng = self.rng
        body = []
        for index in range(lines):
            depth = "    " * rng.randint(0, 2)
            name = f"{rng.choice(NOUNS)}_{rng.choice(NOUNS)}"
            if language == "python":
                body.append(f"{depth}{name} = compute({index}, {rng.choice(VERBS)!r})")
            else:
                body.append(f"{depth}const {name} = compute({index}, '{rng.choice(VERBS)}');")
        return "\n".join(body) + "\n"

    def slug(self) -> str:
        """A kebab-case name of two or three words."""
        words = [self.rng.choice(NOUNS) for _ in range(self.rng.randint(2, 3))]
        return "-".join(words)

    # Files.

    def write(self, relative: str, text: str) -> None:
        """Write a workspace file (its folders created)."""
        target = self.root / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")

    def write_non_eval_files(self) -> None:
        """CI workflows, a compose file and a governance file: YAML the import must skip."""
        self.write(
            ".github/workflows/ci.yml",
            "name: CI\non:\n  push:\n    branches: [main]\njobs:\n  evals:\n"
            "    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
            "      - run: npx agentv eval projects\n",
        )
        self.write(  # a repeated key: not valid YAML to a strict reader, and not an eval file
            ".github/workflows/release.yml",
            "name: Release\non: workflow_dispatch\nenv:\n  STAGE: prod\nenv:\n  STAGE: test\n"
            "jobs:\n  publish:\n    runs-on: ubuntu-latest\n",
        )
        self.write(
            "governance.yaml",
            "owners:\n"
            + "".join(f"  - {self.rng.choice(NOUNS)}-team\n" for _ in range(4))
            + f"review: {self.paragraph(1)}\n",
        )
        self.write(
            "docker-compose.yml",
            "services:\n  web:\n    image: example/evals:latest\n    ports: ['8000:8000']\n",
        )

    def write_project_files(self, project: str, topic: str) -> list[str]:
        """A project's guideline file, attachments and judge prompt; returns the guideline's and
        the attachments' paths in the project."""
        rng = self.rng
        rules = "\n".join(f"- {self.sentence()}" for _ in range(rng.randint(5, 12)))
        self.write(
            f"{project}/prompts/{topic}.instructions.md",
            f"# {topic.replace('-', ' ').capitalize()}\n\n{self.paragraph(3)}\n\n{rules}\n",
        )
        attachments = []
        for index in range(3):
            language, extension = CODE_LANGUAGES[index % len(CODE_LANGUAGES)]
            name = f"src/{rng.choice(NOUNS)}_{index}.{extension}"
            self.write(f"{project}/{name}", self.code(language, rng.randint(10, 60)))
            attachments.append(name)
        self.write(
            f"{project}/judges/grader.md",
            f"Grade the answer. {self.paragraph(2)}\n\n"
            "[[ ## expected_outcome ## ]]\n{{expected_outcome}}\n\n"
            "[[ ## candidate_answer ## ]]\n{{candidate_answer}}\n",
        )
        return [f"prompts/{topic}.instructions.md", *attachments]

    def write_config(self, folder: str, topic: str) -> None:
        """A project's own `.agentv/config.yaml`, nearer its eval files than the root one."""
        prefix = f"{folder}/" if folder else ""
        self.write(
            f"{prefix}.agentv/config.yaml",
            "$schema: agentv-config-v2\n"
            "guideline_patterns:\n"
            f'  - "**/{topic}.instructions.md"\n'
            '  - "**/*.guidelines.md"\n',
        )


class PeriodCases:
    """The cases and headers of each period, drawn from a writer's words."""

    def __init__(self, words: PeriodsWriter, files: list[str], up: str) -> None:
        self.words = words
        self.rng = words.rng
        # The project's files, as the eval file refers to them (`up` leads to the project).
        self.files = [up + path for path in files]
        self.judge = f"{up}judges/grader.md"

    def turn(self) -> str:
        """A user or assistant turn: hundreds to thousands of characters."""
        return self.words.long_text(200, 4000)

    def blocks(self) -> list[Any]:
        """A content list: text and file blocks, now and then a bare string."""
        rng = self.rng
        blocks: list[Any] = [{"type": "text", "value": self.words.long_text(150, 1500)}]
        blocks.append({"type": "file", "value": rng.choice(self.files)})
        if rng.random() < 0.25:
            blocks.append(self.words.sentence())
        return blocks

    def messages(self, turns: int) -> list[dict[str, Any]]:
        """A conversation: a system turn, then user and assistant turns by turns."""
        rng = self.rng
        system: Any = f"You are a {rng.choice(NOUNS)} assistant. {self.words.paragraph(2)}"
        if rng.random() < 0.4:
            system = [{"type": "file", "value": self.files[0]}, {"type": "text", "value": system}]
        messages: list[dict[str, Any]] = [{"role": "system", "content": system}]
        for index in range(turns):
            if index % 2 == 0:
                content: Any = self.blocks() if rng.random() < 0.3 else self.turn()
                messages.append({"role": "user", "content": content})
            else:
                messages.append({"role": "assistant", "content": self.turn()})
        if messages[-1]["role"] != "user":
            messages.append({"role": "user", "content": self.turn()})
        return messages

    def turn_count(self) -> int:
        """How many turns after the system one: mostly one question, sometimes a thread."""
        return self.rng.choice((1, 1, 1, 2, 3, 5))

    def expected(self) -> list[dict[str, Any]]:
        """An expected answer: text, or a tool call and then text."""
        rng = self.rng
        answer = {"role": "assistant", "content": self.turn()}
        if rng.random() < 0.25:
            tool = rng.choice(TOOLS)
            call = {
                "tool": tool,
                "input": {"query": self.words.sentence(), "limit": rng.randint(1, 20)},
                "output": {"status": "ok", "items": rng.randint(0, 9)},
            }
            return [{"role": "assistant", "tool_calls": [call]}, answer]
        return [answer]

    def criteria(self) -> str:
        """What the judge grades against, as a `|-` block of a few lines."""
        return "\n".join(self.words.paragraph(1) for _ in range(self.rng.randint(1, 3)))

    def rubrics(self) -> list[Any]:
        """Rubric items: strings, weighted objects, and objects with integer score ranges."""
        rng = self.rng
        roll = rng.random()
        if roll < 0.4:
            return [self.words.sentence() for _ in range(rng.randint(2, 4))]
        items: list[Any] = []
        for _ in range(rng.randint(1, 3)):
            item: dict[Any, Any] = {"id": self.words.slug(), "description": self.words.sentence()}
            if roll < 0.75:
                item["weight"] = rng.choice([1.0, 1.5, 2.0])
                item["required"] = rng.random() < 0.5
            else:
                item["score_ranges"] = {0: self.words.sentence(), 3: self.words.sentence()}
                if rng.random() < 0.5:
                    item["score_ranges"] = {
                        0: item["score_ranges"][0],
                        1: self.words.sentence(),
                        2: self.words.sentence(),
                        3: item["score_ranges"][3],
                    }
            items.append(item)
        return items

    def assertions(self) -> list[Any]:
        """An `assert` list: rubric strings and typed entries."""
        rng = self.rng
        entries: list[Any] = [self.words.sentence() for _ in range(rng.randint(1, 3))]
        if rng.random() < 0.4:
            entries.append({"type": "contains", "value": rng.choice(NOUNS)})
        if rng.random() < 0.25:
            entries.append(
                {
                    "name": f"{rng.choice(NOUNS)}-check",
                    "type": "code-judge",
                    "command": ["uv", "run", f"check_{rng.choice(NOUNS)}.py"],
                    "cwd": ".",
                }
            )
        if rng.random() < 0.25:
            entries.append({"name": "quality", "type": "llm-judge", "prompt": self.judge})
        return entries

    # One case of each period.

    def seeds_case(self, case_id: str) -> dict[str, Any]:
        """2025-11: `outcome`, `input_messages`, `expected_messages`, `execution.evaluators`."""
        rng = self.rng
        case: dict[str, Any] = {"id": case_id}
        if rng.random() < 0.3:
            case["conversation_id"] = self.words.slug()
        case["outcome"] = self.criteria()
        case["input_messages"] = self.messages(self.turn_count())
        if rng.random() < 0.7:
            case["expected_messages"] = [{"role": "assistant", "content": self.turn()}]
        if rng.random() < 0.2:
            case["execution"] = {
                "evaluators": [{"name": "judge", "type": "llm_judge", "prompt": self.judge}]
            }
        return case

    def eval_cases_case(self, case_id: str) -> dict[str, Any]:
        """2025-12: `expected_outcome`, `input`, `expected_output`, per-case `evaluators`."""
        rng = self.rng
        case: dict[str, Any] = {"id": case_id, "expected_outcome": self.criteria()}
        case["input"] = self.messages(self.turn_count())
        if rng.random() < 0.7:
            case["expected_output"] = self.expected()
        if rng.random() < 0.2:
            case["evaluators"] = [
                {
                    "name": "keywords",
                    "type": "code",
                    "script": ["uv", "run", f"check_{rng.choice(NOUNS)}.py"],
                }
            ]
        return case

    def cases_case(self, case_id: str) -> dict[str, Any]:
        """2026-01: `criteria`, `input` (text or messages), `expected_output`, `rubrics`."""
        rng = self.rng
        case: dict[str, Any] = {"id": case_id, "criteria": self.criteria()}
        case["input"] = self.turn() if rng.random() < 0.3 else self.messages(self.turn_count())
        if rng.random() < 0.6:
            case["expected_output"] = self.expected()
        if rng.random() < 0.6:
            case["rubrics"] = self.rubrics()
        return case

    def tests_case(self, case_id: str) -> dict[str, Any]:
        """2026-02: `criteria`, `input` as a string or messages, `expected_output`, `assert`."""
        rng = self.rng
        case: dict[str, Any] = {"id": case_id, "criteria": self.criteria()}
        case["input"] = self.turn() if rng.random() < 0.5 else self.messages(self.turn_count())
        if rng.random() < 0.5:
            case["expected_output"] = self.turn() if rng.random() < 0.5 else self.expected()
        case["assert"] = self.assertions()
        return case

    def vars_case(self, case_id: str) -> dict[str, Any]:
        """2026-07: `assert` first, then `vars` with `input` and `expected_output`."""
        rng = self.rng
        case: dict[str, Any] = {"id": case_id, "assert": self.assertions()}
        variables: dict[str, Any] = {}
        variables["input"] = self.turn() if rng.random() < 0.3 else self.messages(self.turn_count())
        if rng.random() < 0.5:
            variables["expected_output"] = self.expected()
        case["vars"] = variables
        if rng.random() < 0.1:
            case["metadata"] = {"owner": rng.choice(NOUNS), "priority": rng.randint(1, 3)}
        return case

    def conversation_case(self, case_id: str) -> dict[str, Any]:
        """2026-07: `mode: conversation` with `turns`, each with its input and assertions."""
        rng = self.rng
        turns = []
        for _ in range(rng.randint(2, 5)):
            turn: dict[str, Any] = {"input": self.turn()}
            if rng.random() < 0.6:
                turn["expected_output"] = self.turn()
            turn["assert"] = [self.words.sentence() for _ in range(rng.randint(1, 2))]
            turns.append(turn)
        return {
            "id": case_id,
            "mode": "conversation",
            "criteria": self.criteria(),
            "turns": turns,
            "aggregation": rng.choice(["mean", "min"]),
        }

    # Headers, and where each period's files go.

    def header(self, period: str, name: str) -> tuple[dict[str, Any], str]:
        """A file's top-level keys before its list of cases, and that list's key."""
        rng = self.rng
        description = Folded(self.words.paragraph(rng.randint(1, 2)))
        if period == "2025-11 evalcases":
            return {
                "$schema": "agentv-eval-v2",
                "description": description,
                "target": "default",
                "execution": {
                    "evaluators": [
                        {"name": "correctness", "type": "llm_judge", "prompt": self.judge}
                    ]
                },
            }, "evalcases"
        if period == "2025-12 eval_cases":
            header: dict[str, Any] = {"description": description}
            header["execution"] = {"target": "default"}
            if rng.random() < 0.5:
                header["evaluators"] = [{"name": "judge", "type": "llm_judge"}]
            # Some files of the period kept the older list name (by the file's number, so
            # that the first file of the period, number 2, has the newer one).
            return header, "evalcases" if name.endswith(("3", "6", "9")) else "eval_cases"
        if period == "2026-01 cases":
            return {"description": description, "execution": {"target": "default"}}, "cases"
        if period == "2026-02 tests":
            return {
                "name": name,
                "description": description,
                "version": "1.0",
                "tags": [rng.choice(AREAS), "regression"],
                "execution": {"target": "default"},
            }, "tests"
        return {
            "name": name,
            "description": description,
            "providers": ["llm"],
            "prompts": ["{{ input }}"],
        }, "tests"

    def case_maker(self, period: str) -> Callable[[str], dict[str, Any]]:
        """The function that writes one case of `period`."""
        return {
            "2025-11 evalcases": self.seeds_case,
            "2025-12 eval_cases": self.eval_cases_case,
            "2026-01 cases": self.cases_case,
            "2026-02 tests": self.tests_case,
            "2026-07 tests vars": self.vars_case,
            "2026-07 conversation": self.conversation_case,
        }[period]


def eval_file_path(project: str, period: str, name: str, rng: random.Random) -> str:
    """Where a file of `period` lives in its project, named as that period named them."""
    if period == "2026-02 tests":
        return f"{project}/evals/{name}.eval.yaml"
    if period == "2026-07 tests vars":
        if rng.random() < 0.5:
            return f"{project}/skills/{name}/EVAL.yaml"
        return f"{project}/evals/{name}/suite.yaml"
    return f"{project}/evals/{name}.yaml"


def eval_file_text(
    cases: PeriodCases, period: str, name: str, size: int
) -> tuple[dict[str, Any], str]:
    """An eval file's data and its YAML text as an author writes it: comments, blank lines
    between cases, block scalars for long text."""
    rng = cases.rng
    header, cases_key = cases.header(period, name)
    make = cases.case_maker(period)
    lines = [f"# {cases.words.sentence()}"] if rng.random() < 0.5 else []
    lines += mapping_lines(header, 0)
    lines += ["", f"{cases_key}:"]
    written: list[dict[str, Any]] = []
    for number in range(size):
        case = make(f"{name}-{number + 1:02d}")
        if rng.random() < 0.3:
            lines.append(f"  # {cases.words.sentence()}")
        lines.extend(sequence_lines([case], 2))
        lines.append("")
        written.append(case)
    return {**header, cases_key: written}, "\n".join(lines)


def pick_period(rng: random.Random) -> str:
    """A period, as often as repositories hold its files."""
    return rng.choices([name for name, _ in PERIODS], [share for _, share in PERIODS])[0]


def write_periods_workspace(root: Path, cases: int, rng: random.Random) -> dict[str, Any]:
    """Write the text-heavy workspace of about `cases` cases; returns what was written:
    `suite_paths`, `yaml_bytes`, `cases`, `periods` (path → period) and `skipped`."""
    writer = PeriodsWriter(root, rng)
    writer.write_non_eval_files()
    writer.write_config("", GUIDELINE_TOPICS[0])
    files = file_count(cases)
    remaining = cases
    paths: list[str] = []
    periods: dict[str, str] = {}
    total = 0
    project_files: list[str] = []
    project = ""
    for index in range(files):
        if index % FILES_PER_PROJECT == 0:
            number = index // FILES_PER_PROJECT
            project = f"projects/{AREAS[number % len(AREAS)]}-{number + 1:03d}"
            topic = GUIDELINE_TOPICS[number % len(GUIDELINE_TOPICS)]
            project_files = writer.write_project_files(project, topic)
            if number % 3 == 1:  # a project with its own config, nearer than the root's
                writer.write_config(project, topic)
        left = files - index
        size = remaining if left == 1 else max(1, min(8, round(rng.gauss(remaining / left, 2))))
        size = min(size, remaining - (left - 1))
        remaining -= size
        period = pick_period(rng)
        if index < len(PERIODS):  # every period, even in a small workspace
            period = PERIODS[index][0]
        name = f"{writer.slug()}-{index + 1:04d}"
        path = eval_file_path(project, period, name, rng)
        up = "../" * (path.count("/") - project.count("/") - 1)
        text = eval_file_text(PeriodCases(writer, project_files, up), period, name, size)[1]
        writer.write(path, text)
        total += len(text.encode())
        paths.append(path)
        periods[path] = period
    return {
        "suite_paths": tuple(paths),
        "yaml_bytes": total,
        "cases": cases,
        "periods": periods,
        "skipped": NON_EVAL_FILES,
    }
