"""belote_project/rows.py builds the instances the ORM would have loaded."""

import pytest
from django.db import connection
from django.db.models.signals import post_init

from accounts.models import AccessToken, User
from belote_project.rows import ModelColumns, table
from games.models import Game, Seat

pytestmark = pytest.mark.django_db


def _loaded(columns, pk):
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {columns.select('t')} FROM {table(columns.model)} t WHERE t.id = %s", [pk]
        )
        return columns.instances(cursor.fetchall())[0]


def _fields(instance):
    return {key: value for key, value in instance.__dict__.items() if key != "_state"}


@pytest.fixture
def rows(make_user, auth_client):
    user = make_user()
    auth_client(user).post("/api/v1/games", {"options": {}, "seat": 0}, format="json")
    game = Game.objects.get(created_by=user)
    return {
        User: user.pk,
        AccessToken: AccessToken.objects.filter(user=user).first().pk,
        Game: game.pk,
        Seat: Seat.objects.get(game=game).pk,
    }


@pytest.mark.parametrize("model", [User, AccessToken, Game, Seat])
def test_instances_match_what_the_orm_loads(rows, model):
    built = _loaded(ModelColumns(model), rows[model])
    orm = model.objects.get(pk=rows[model])

    assert type(built) is model
    assert _fields(built) == _fields(orm)
    assert (built._state.adding, built._state.db) == (False, "default")
    assert built == orm


def test_columns_not_read_are_deferred_as_the_orm_defers_them(rows):
    built = _loaded(ModelColumns(User, ("id", "username")), rows[User])
    orm = User.objects.only("id", "username").get(pk=rows[User])

    assert _fields(built) == _fields(orm)
    assert built.get_deferred_fields() == orm.get_deferred_fields()


def test_a_model_with_init_receivers_goes_through_the_orm_constructor(rows):
    seen = []

    def receiver(sender, instance, **kwargs):
        seen.append(instance)

    post_init.connect(receiver, sender=Seat)
    try:
        built = _loaded(ModelColumns(Seat), rows[Seat])
    finally:
        post_init.disconnect(receiver, sender=Seat)

    assert seen == [built]
