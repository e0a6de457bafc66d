"""The embedded Celery broker's SQLite engine: a SQLAlchemy plugin named in its options.

kombu's SQLAlchemy channel hands every broker transport option to
``sqlalchemy.create_engine``, ``polling_interval`` included, which kombu's own transport
reads and SQLAlchemy rejects as an unknown argument. A ``CreateEnginePlugin`` (SQLAlchemy's
public hook for this, registered as an entry point in pyproject.toml) is the place where
an engine argument may be consumed: this one takes that option off and gives every new
connection the same journal settings as the application database (WAL: readers never
wait for the writer; synchronous=NORMAL: a commit does not wait for the disk).
"""

from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import URL, CreateEnginePlugin, Engine

PLUGIN_NAME = "belote_embedded_broker"


class EmbeddedBrokerEngine(CreateEnginePlugin):
    def __init__(self, url: URL, kwargs: dict[str, Any]) -> None:
        super().__init__(url, kwargs)
        # kombu's transport has read it already; the engine has no use for it.
        kwargs.pop("polling_interval", None)

    def update_url(self, url: URL) -> URL:
        return url  # nothing of this plugin is in the URL

    def engine_created(self, engine: Engine) -> None:
        event.listen(engine, "connect", _configure_connection)


def _configure_connection(dbapi_connection: Any, _connection_record: Any) -> None:
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
    finally:
        cursor.close()
