"""OpenAI Evals' registry: samples JSONL (`{"input": chat | text, "ideal": text | [texts]}`) and
the registry YAML that names each eval's class and samples (`docs/build-eval.md`)."""

from __future__ import annotations

import posixpath
import re
from typing import Any

from .base import REFERENCE_RUBRIC, ImportWarning, Mapped, Reading, Row, SourceFiles, TestBuilder
from .messages import chat_messages
from .records import first_record, json_rows, yaml_data

MATCH = "evals.elsuite.basic.match:Match"
INCLUDES = "evals.elsuite.basic.includes:Includes"
FUZZY_MATCH = "evals.elsuite.basic.fuzzy_match:FuzzyMatch"
MODEL_GRADED = "evals.elsuite.modelgraded.classify:ModelBasedClassify"
# JavaScript's regular expression specials (AgentV runs `regex` asserts in JavaScript).
_REGEX_SPECIALS = re.compile(r"[\\^$.*+?()\[\]{}|/]")


class OpenAiEvals:
    """Samples files and registry YAML (docs/imports.md, "OpenAI Evals")."""

    name = "openai-evals"
    label = "OpenAI Evals registry (samples JSONL)"

    def detect(self, path: str, text: str) -> bool:
        if path.endswith((".yaml", ".yml")):
            return bool(_evals_of(text))
        record = first_record(path, text)
        return isinstance(record, dict) and "input" in record and "ideal" in record

    def read(self, path: str, files: SourceFiles) -> Reading:
        text = files.get(path) or ""
        if not path.endswith((".yaml", ".yml")):
            return Reading(json_rows(path, text))
        reading = Reading([])
        registry = yaml_data(path, text)
        for eval_name, spec in _evals_of(text, registry):
            samples = _samples_path(path, spec, files)
            if samples is None:
                missing = spec["args"]["samples_jsonl"]
                message = f"its samples file {missing} is not among the files: no tests made"
                reading.warnings.append(ImportWarning(path, "", eval_name, message))
                continue
            context = {"eval": eval_name, "class": spec.get("class"), "args": spec.get("args")}
            for row in json_rows(samples, files.get(samples) or ""):
                reading.rows.append(Row(row.file, row.row, row.data, row.line, context))
        return reading

    def consumed(self, path: str, files: SourceFiles) -> set[str]:
        if not path.endswith((".yaml", ".yml")):
            return set()
        found = {_samples_path(path, spec, files) for _, spec in _evals_of(files.get(path) or "")}
        return {samples for samples in found if samples is not None}

    def map(self, row: Row) -> Mapped:
        builder = TestBuilder(row, self.name)
        context = row.context
        eval_name = context.get("eval")
        folder = posixpath.basename(posixpath.dirname(row.file)) or "samples"
        builder.set_id(None, f"{eval_name or folder}-{row.row}")
        data = row.data
        builder.vars["input"] = chat_messages(builder, "input", data.get("input"))
        ideal = data.get("ideal")
        ideals = [str(item) for item in ideal] if isinstance(ideal, list) else [str(ideal)]
        if ideal is not None and ideals:
            builder.vars["expected_output"] = ideals[0]
            if len(ideals) > 1:
                builder.metadata["ideal"] = ideals
        if eval_name:
            builder.metadata["openai_eval"] = {"name": eval_name, "class": context.get("class")}
            _grading(builder, str(context.get("class")), context.get("args") or {}, ideals)
        for key, value in data.items():
            if key not in ("input", "ideal"):
                builder.metadata[key] = value
        return builder.build()


def _grading(
    builder: TestBuilder, eval_class: str, args: dict[str, Any], ideals: list[str]
) -> None:
    """The asserts of an eval's class: Match and Includes map; the others are kept."""
    ignore_case = bool(args.get("ignore_case"))
    if eval_class == MATCH:
        if len(ideals) == 1:
            builder.asserts.append({"type": "starts-with", "value": ideals[0]})
        else:
            pattern = "^(?:" + "|".join(_REGEX_SPECIALS.sub(r"\\\g<0>", i) for i in ideals) + ")"
            builder.asserts.append({"type": "regex", "value": pattern})
    elif eval_class == INCLUDES:
        prefix = "i" if ignore_case else ""
        if len(ideals) == 1:
            builder.asserts.append({"type": f"{prefix}contains", "value": ideals[0]})
        else:
            builder.asserts.append({"type": f"{prefix}contains-any", "value": ideals})
    elif eval_class == FUZZY_MATCH:
        builder.keep_unsupported(
            "class",
            eval_class,
            "FuzzyMatch (a normalised two-way substring match) has no AgentV equivalent; "
            "the test is graded by the reference-answer rubric",
        )
        builder.asserts.append({"type": "llm-rubric", "value": REFERENCE_RUBRIC})
    else:
        spec = args.get("modelgraded_spec") or args.get("modelgraded_spec_file")
        reason = (
            f"the model-graded spec {spec!r} is not among the files"
            if eval_class == MODEL_GRADED
            else "this eval class has no AgentV equivalent"
        )
        builder.keep_unsupported(
            "class",
            {"class": eval_class, "args": args},
            f"{reason}; the test is graded by the reference-answer rubric",
        )
        builder.asserts.append({"type": "llm-rubric", "value": REFERENCE_RUBRIC})


def _evals_of(text: str, data: Any = None) -> list[tuple[str, dict[str, Any]]]:
    """The evals of a registry YAML that name a class and a samples file."""
    if data is None:
        try:
            data = yaml_data("", text)
        except Exception:  # noqa: BLE001 - detection: a file that does not read is not one
            return []
    if not isinstance(data, dict):
        return []
    found = []
    for name, spec in data.items():
        if isinstance(spec, dict) and isinstance(spec.get("class"), str):
            args = spec.get("args")
            if isinstance(args, dict) and isinstance(args.get("samples_jsonl"), str):
                base = str(name).split(".")[0]
                found.append((base, spec))
    return found


def _samples_path(path: str, spec: dict[str, Any], files: SourceFiles) -> str | None:
    """Where the registry keeps an eval's samples: `registry/data/<samples_jsonl>` beside
    `registry/evals/`, else beside the YAML, else anywhere among the files."""
    samples = str(spec["args"]["samples_jsonl"])
    folder = posixpath.dirname(path)
    for candidate in (
        posixpath.join(posixpath.dirname(folder), "data", samples),
        posixpath.join(folder, samples),
        samples,
    ):
        if files.get(candidate) is not None:
            return posixpath.normpath(candidate)
    suffix = "/" + samples
    matches = sorted(name for name in files if name.endswith(suffix))
    return matches[0] if matches else None
