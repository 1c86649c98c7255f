"""Cases and suites stored as their YAML mappings; configs stored as workspace files.

Every period's files keep parts under different names and in different shapes, so a case is
now its document (docs/formats.md) rather than columns and message rows; a workspace's
`.agentv/config.yaml` is a stored file like any other, at its path, since there may be several.
"""

from typing import Any

from django.db import migrations, models

import evals_app.models.ordered_json

DEFAULT_PATTERNS = ["**/*.instructions.md"]


def _ordered(known: dict[str, Any], extra: dict[str, Any], key_order: list[str]) -> dict[str, Any]:
    # The rule the old columns were written with: known keys (None only if the source had
    # them) and unknown ones, in the original order, new keys after.
    present = {key: value for key, value in known.items() if value is not None or key in key_order}
    result: dict[str, Any] = {}
    for key in key_order:
        if key in present:
            result[key] = present[key]
        elif key in extra:
            result[key] = extra[key]
    for source in (present, extra):
        for key, value in source.items():
            result.setdefault(key, value)
    return result


def _message(message: Any) -> dict[str, Any]:
    blocks = []
    for block in message.blocks.order_by("position"):
        if block.bare:
            blocks.append(block.value)
        else:
            blocks.append(
                _ordered({"type": block.type, "value": block.value}, block.extra, block.key_order)
            )
    plain = (
        len(blocks) == 1
        and isinstance(blocks[0], dict)
        and blocks[0].get("type") == "text"
        and set(blocks[0]) == {"type", "value"}
    )
    if message.content_form == "string" and plain:
        content: Any = blocks[0]["value"]
    else:
        content = blocks
    return _ordered({"role": message.role, "content": content}, message.extra, message.key_order)


def _case_document(case: Any) -> dict[str, Any]:
    inputs = [_message(m) for m in case.messages.filter(section="input").order_by("position")]
    expected = [
        _message(m) for m in case.messages.filter(section="expected").order_by("position")
    ]
    known = {
        "id": case.case_id,
        "conversation_id": case.conversation_id,
        "outcome": case.outcome,
        "input_messages": inputs,
        "expected_messages": expected if expected or "expected_messages" in case.key_order else None,
        "execution": case.execution,
    }
    return _ordered(known, case.extra, case.key_order)


def forward(apps: Any, schema_editor: Any) -> None:
    from evals_app.eval_files.yaml_dumper import dump_yaml

    Suite = apps.get_model("evals_app", "Suite")
    Case = apps.get_model("evals_app", "Case")
    Workspace = apps.get_model("evals_app", "Workspace")
    WorkspaceFile = apps.get_model("evals_app", "WorkspaceFile")
    for suite in Suite.objects.all():
        count = Case.objects.filter(suite=suite).count()
        known = {
            "$schema": "agentv-eval-v2",
            "description": suite.description,
            "dataset": suite.dataset,
            "target": suite.target,
            "execution": suite.execution,
            "evalcases": [None] * count,
        }
        suite.document = _ordered(known, suite.extra, suite.key_order)
        suite.cases_key = "evalcases"
        suite.save(update_fields=["document", "cases_key"])
    for case in Case.objects.all():
        case.document = _case_document(case)
        case.save(update_fields=["document"])
    for workspace in Workspace.objects.all():
        if workspace.guideline_patterns == DEFAULT_PATTERNS and not workspace.config:
            continue
        config = {"$schema": "agentv-config-v2", **workspace.config}
        config["guideline_patterns"] = workspace.guideline_patterns
        WorkspaceFile.objects.update_or_create(
            workspace=workspace, path=".agentv/config.yaml", defaults={"text": dump_yaml(config)}
        )


class Migration(migrations.Migration):
    dependencies = [
        ("evals_app", "0003_case_summary"),
    ]

    operations = [
        migrations.AddField(
            model_name="case",
            name="document",
            field=evals_app.models.ordered_json.OrderedJSONField(
                default=dict, help_text="The case as its YAML mapping"
            ),
        ),
        migrations.AddField(
            model_name="suite",
            name="document",
            field=evals_app.models.ordered_json.OrderedJSONField(
                default=dict, help_text="Top-level keys; cases stand as null"
            ),
        ),
        migrations.AddField(
            model_name="suite",
            name="cases_key",
            field=models.CharField(
                blank=True,
                default="evalcases",
                help_text="The key of the list of cases",
                max_length=20,
            ),
        ),
        migrations.AddField(
            model_name="suite",
            name="file_format",
            field=models.CharField(
                choices=[
                    ("yaml", "yaml"),
                    ("yaml-list", "yaml-list"),
                    ("jsonl", "jsonl"),
                    ("csv", "csv"),
                ],
                default="yaml",
                max_length=10,
            ),
        ),
        migrations.AddField(
            model_name="suite",
            name="profile",
            field=models.CharField(
                choices=[("agentv-2025", "agentv-2025"), ("agentv-2026", "agentv-2026")],
                default="agentv-2025",
                max_length=20,
            ),
        ),
        migrations.AddField(
            model_name="suite",
            name="referenced_by",
            field=models.CharField(blank=True, default="", max_length=1000),
        ),
        migrations.RunPython(forward, elidable=False),
        migrations.RemoveField(model_name="case", name="conversation_id"),
        migrations.RemoveField(model_name="case", name="outcome"),
        migrations.RemoveField(model_name="case", name="execution"),
        migrations.RemoveField(model_name="case", name="extra"),
        migrations.RemoveField(model_name="case", name="key_order"),
        migrations.DeleteModel(name="ContentBlock"),
        migrations.DeleteModel(name="Message"),
        migrations.RemoveField(model_name="suite", name="description"),
        migrations.RemoveField(model_name="suite", name="dataset"),
        migrations.RemoveField(model_name="suite", name="target"),
        migrations.RemoveField(model_name="suite", name="execution"),
        migrations.RemoveField(model_name="suite", name="extra"),
        migrations.RemoveField(model_name="suite", name="key_order"),
        migrations.RemoveField(model_name="workspace", name="guideline_patterns"),
        migrations.RemoveField(model_name="workspace", name="config"),
    ]
