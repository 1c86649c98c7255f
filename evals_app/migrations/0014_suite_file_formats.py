"""A suite's file may also be a folder's `case.yaml` or an eval file of `scenarios:`
(docs/formats.md): both read-only, like a CSV file of cases."""

from __future__ import annotations

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("evals_app", "0013_repository_remote")]

    operations = [
        migrations.AlterField(
            model_name="suite",
            name="file_format",
            field=models.CharField(
                choices=[
                    ("yaml", "yaml"),
                    ("yaml-list", "yaml-list"),
                    ("jsonl", "jsonl"),
                    ("csv", "csv"),
                    ("yaml-case", "yaml-case"),
                    ("scenarios", "scenarios"),
                ],
                default="yaml",
                max_length=10,
            ),
        ),
    ]
