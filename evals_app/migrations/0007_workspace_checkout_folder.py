from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("evals_app", "0006_suite_settings"),
    ]

    operations = [
        migrations.AddField(
            model_name="workspace",
            name="checkout_folder",
            field=models.CharField(
                blank=True,
                default="",
                help_text="The folder AgentV runs from; empty: paths show as / + the workspace path",
                max_length=1000,
            ),
        ),
    ]
