# Moves the suite's file texts to the end of its table (models/workspace.py says why): each is
# copied to a new column, which takes its name once the old column is gone.

from django.db import migrations, models

TEXTS = ("source_text", "base_source_text")


def copy_texts(apps, schema_editor):
    Suite = apps.get_model("evals_app", "Suite")
    Suite.objects.update(**{f"{name}_moved": models.F(name) for name in TEXTS})


def copy_texts_back(apps, schema_editor):
    Suite = apps.get_model("evals_app", "Suite")
    Suite.objects.update(**{name: models.F(f"{name}_moved") for name in TEXTS})


class Migration(migrations.Migration):
    dependencies = [
        ("evals_app", "0025_importing_workspaces"),
    ]

    operations = [
        *(
            migrations.AddField(
                model_name="suite",
                name=f"{name}_moved",
                field=models.TextField(blank=True, default=None, null=True),
            )
            for name in TEXTS
        ),
        migrations.RunPython(copy_texts, copy_texts_back),
        *(migrations.RemoveField(model_name="suite", name=name) for name in TEXTS),
        *(
            migrations.RenameField(model_name="suite", old_name=f"{name}_moved", new_name=name)
            for name in TEXTS
        ),
    ]
