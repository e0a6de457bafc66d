"""The yardstick's table: created by the benchmark in its own database, written by
bench/ceiling.py. No migration creates it; the product never sees it."""

CEILING_TABLE = "bench_row"
CREATE_CEILING_TABLE = (
    f"CREATE TABLE IF NOT EXISTS {CEILING_TABLE} "
    "(id bigserial PRIMARY KEY, user_id bigint NOT NULL)"
)
