"""Belote games: the rules engine, the event store, tables, bots, the API and the live feed."""
