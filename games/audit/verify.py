"""The offline verifier: `python -m games.audit.verify game.ndjson [--receipt SEQ:HASH]
[--commitment HEX]`.

Checks an exported log (docs/audit.md) with the standard library and the rules package
only: the hash chain, any receipts a player kept, then a replay of every event with the
rules engine (`games.audit.replay`), commit-reveal included (`games.audit.fairness`),
and with `--bots` every bot move re-derived (`games.audit.bots`). Prints `valid` and
exits 0, or prints the first discrepancy (seq, what, expected, found) and exits 1; 2 for
a usage error or an unreadable file.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from games import rules
from games.audit.bots import bot_moves_check
from games.audit.chain import GENESIS, Link, first_break
from games.audit.log import LogError, event_of, links, parse_lines
from games.audit.replay import ReplayError, replay_log
from games.audit.report import Discrepancy, Report
from games.rules.events import GameStarted

CHECKS = ("chain", "receipts", "events", "rules")
_RECEIPT = re.compile(r"^([1-9][0-9]{0,9}):([0-9a-f]{64})$")


def audit_rows(
    rows: Iterable[Mapping[str, Any]],
    *,
    receipts: Sequence[tuple[int, str]] = (),
    bots: bool = False,
    commitment: str | None = None,
) -> Report:
    """The report on exported rows (`seq`, `type`, `schema_version`, `payload`, `hash`);
    `bots`: re-derive every bot move too (games/audit/bots.py); `commitment`: the one the
    game's secrets must be committed to (a duplicate board's, published by its
    tournament), checked against `game_started.secret_chain`."""
    rows = list(rows)
    try:
        chained = links(rows)
    except LogError as error:
        return _invalid([], error.discrepancy, ())
    found = first_break(chained)
    if found is not None:
        return _invalid(chained, Discrepancy(found.seq, "chain", found.expected, found.found), ())
    for seq, wanted in receipts:
        held = chained[seq - 1].hash if 0 < seq <= len(chained) else None
        if held != wanted:
            return _invalid(chained, Discrepancy(seq, "receipt", wanted, held), CHECKS[:1])
    events = []
    for item in chained:
        try:
            events.append(event_of(item))
        except (KeyError, TypeError, ValueError, IndexError) as error:
            what = Discrepancy(item.seq, "event", "an event of the rules' schema", repr(error))
            return _invalid(chained, what, CHECKS[:2])
    chain = events[0].secret_chain if events and isinstance(events[0], GameStarted) else None
    if commitment is not None and chain != commitment:
        return _invalid(chained, Discrepancy(1, "commitment", commitment, chain), CHECKS[:3])
    check = bot_moves_check(rows) if bots else None
    try:
        state = replay_log(events, check_move=check)
    except ReplayError as error:
        return _invalid(chained, error.discrepancy, CHECKS[:3])
    progress = rules.summary(state)
    finished = progress.status == "finished"
    return Report(
        valid=True,
        events=len(chained),
        head_hash=_head(chained),
        finished=finished,
        hands=state.hand_number,
        checks=(*CHECKS, "bots") if bots else CHECKS,
        scores=state.scores if finished else None,
        winner=progress.winner,
    )


def _head(chained: Sequence[Link]) -> str:
    return chained[-1].hash if chained else GENESIS


def _invalid(chained: Sequence[Link], discrepancy: Discrepancy, passed: tuple[str, ...]) -> Report:
    return Report(
        valid=False,
        events=len(chained),
        head_hash=_head(chained),
        finished=False,
        hands=0,
        checks=passed,
        discrepancy=discrepancy,
    )


def audit_text(
    lines: Iterable[str],
    *,
    receipts: Sequence[tuple[int, str]] = (),
    bots: bool = False,
    commitment: str | None = None,
) -> Report:
    """The report on NDJSON lines, as `export` writes them."""
    try:
        rows = parse_lines(lines)
    except LogError as error:
        return _invalid([], error.discrepancy, ())
    return audit_rows(rows, receipts=receipts, bots=bots, commitment=commitment)


def receipt(text: str) -> tuple[int, str]:
    """`SEQ:HASH` (a seq from 1, 64 lowercase hex digits) as a pair, for argparse."""
    matched = _RECEIPT.match(text.strip())
    if matched is None:
        raise argparse.ArgumentTypeError(f"not SEQ:HASH (64 lowercase hex digits): {text!r}")
    return int(matched.group(1)), matched.group(2)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="belote-verify", description="Verify an exported belote game log (NDJSON)."
    )
    parser.add_argument("log", help="the exported log; - reads standard input")
    parser.add_argument(
        "--receipt",
        type=receipt,
        action="append",
        default=[],
        metavar="SEQ:HASH",
        help="a (version, head_hash) pair you kept from an answer; repeatable",
    )
    parser.add_argument("--bots", action="store_true", help="re-derive every bot move too (slower)")
    parser.add_argument(
        "--commitment",
        metavar="HEX",
        help="the commitment the game's secrets must follow from (a duplicate board's)",
    )
    parser.add_argument("--json", action="store_true", help="print the whole report as JSON")
    args = parser.parse_args(argv)
    checks = {"receipts": args.receipt, "bots": args.bots, "commitment": args.commitment}
    try:
        if args.log == "-":
            report = audit_text(sys.stdin, **checks)
        else:
            with open(args.log, encoding="utf-8") as file:
                report = audit_text(file, **checks)
    except (OSError, UnicodeDecodeError) as error:
        print(f"belote-verify: cannot read {args.log}: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(report.to_dict(), indent=2))
    elif report.valid:
        state = "finished" if report.finished else "not finished"
        print(f"valid: {report.events} events, {report.hands} hands, {state}")
        print(f"  head: {report.head_hash}")
    else:
        found = report.discrepancy
        assert found is not None
        print(f"invalid at seq {found.seq}: {found.what}")
        print(f"  expected: {json.dumps(found.expected)}")
        print(f"  found:    {json.dumps(found.found)}")
    return 0 if report.valid else 1


if __name__ == "__main__":
    sys.exit(main())
