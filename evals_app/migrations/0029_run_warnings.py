from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("evals_app", "0028_link_job"),
    ]

    operations = [
        migrations.AddField(
            model_name="run",
            name="agentv_exit_code",
            field=models.IntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="run",
            name="agentv_warnings",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.AddField(
            model_name="run",
            name="spelling_note",
            field=models.TextField(blank=True),
        ),
        migrations.AddField(
            model_name="runresult",
            name="draft",
            field=models.BooleanField(default=False),
        ),
    ]
