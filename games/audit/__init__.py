"""Audits of a game's log: the hash chain and the offline verifier (docs/audit.md).

Pure like the rules package: the standard library, `games.rules` and (to re-derive bot
moves, on request) `games.bots`, never Django, so that `python -m games.audit.verify`
runs from a checkout with nothing installed.
"""
