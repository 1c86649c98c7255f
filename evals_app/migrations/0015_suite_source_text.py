from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("evals_app", "0014_suite_file_formats"),
    ]

    operations = [
        migrations.AddField(
            model_name="suite",
            name="source_text",
            field=models.TextField(blank=True, default=None, null=True),
        ),
        migrations.AddField(
            model_name="suite",
            name="base_source_text",
            field=models.TextField(blank=True, default=None, null=True),
        ),
        migrations.AddField(
            model_name="suite",
            name="source_digest",
            field=models.CharField(blank=True, default="", max_length=64),
        ),
    ]
