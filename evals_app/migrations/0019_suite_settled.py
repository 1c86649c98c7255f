from django.db import migrations, models

import evals_app.models.ordered_json


class Migration(migrations.Migration):
    dependencies = [
        ("evals_app", "0018_case_search_and_list_indexes"),
    ]

    operations = [
        migrations.AddField(
            model_name="suite",
            name="settled_stamp",
            field=models.CharField(blank=True, default="", max_length=64),
        ),
        migrations.AddField(
            model_name="suite",
            name="base_blob",
            field=models.CharField(blank=True, default="", max_length=64),
        ),
        migrations.AddField(
            model_name="suite",
            name="base_reads",
            field=evals_app.models.ordered_json.OrderedJSONField(
                blank=True, default=None, null=True
            ),
        ),
    ]
