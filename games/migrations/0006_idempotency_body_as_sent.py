# The stored answer's body as the text first sent: a jsonb column reorders object keys,
# which made a replay on PostgreSQL differ from the original answer.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0005_turn_clocks_and_absent_seats'),
    ]

    operations = [
        migrations.AlterField(
            model_name='idempotencyrecord',
            name='response_body',
            field=models.TextField(),
        ),
    ]
