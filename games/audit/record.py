"""A game as people read it: tag pairs, then each hand's deal, bidding, play and score.

    python -m games.audit.record game.ndjson [--names N,E,S,W]     (the export's lines)

In the spirit of chess's PGN and bridge's PBN: `[Name "value"]` tag pairs, then the
hands. It is written from the events alone (the rules package and the standard library),
so it is the same whether the service or an auditor prints it; docs/audit.md describes
it line by line. Cards are rank then suit (`JH`: the jack of hearts; `T` is the ten);
seats 0-3 play in that order, 0 and 2 against 1 and 3.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from games import rules
from games.audit.log import LogError, event_of, links, parse_lines
from games.rules import events as ev
from games.rules.cards import CARD_NAMES, SUITS, names_of

SEAT_TAGS = ("Seat0", "Seat1", "Seat2", "Seat3")


def _tag(name: str, value: object) -> str:
    text = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{text}"]'


def _cards(mask: int) -> str:
    return " ".join(names_of(mask)) or "-"


def _result(finished: ev.GameFinished | None) -> str:
    if finished is None:
        return "*"
    if finished.winner is None:
        return "1/2-1/2"
    return "1-0" if finished.winner == 0 else "0-1"


def _header(
    events: Sequence[rules.Event], tags: Mapping[str, str], names: Sequence[str]
) -> list[str]:
    started = next((e for e in events if isinstance(e, ev.GameStarted)), None)
    finished = next((e for e in events if isinstance(e, ev.GameFinished)), None)
    lines = [_tag("Event", "Belote"), *(_tag(name, value) for name, value in tags.items())]
    lines += [
        _tag(tag, names[seat] if seat < len(names) else seat) for seat, tag in enumerate(SEAT_TAGS)
    ]
    if started is not None:
        options = started.options
        lines += [_tag("Target", options.target), _tag("FirstDealer", started.first_dealer)]
        lines += [_tag("Declarations", "yes" if options.declarations else "no")]
        lines += [_tag("TieRule", options.tie_rule), _tag("CapotPoints", options.capot_points)]
    if finished is not None:
        lines += [_tag("Scores", f"{finished.scores[0]}-{finished.scores[1]}")]
    lines += [_tag("Result", _result(finished))]
    return lines


class _Hand:
    """The lines of one hand, gathered as its events go by."""

    def __init__(self, dealt: ev.HandDealt) -> None:
        self.dealt = dealt
        self.held = list(dealt.cards)
        self.bids: list[str] = []
        self.tricks: list[str] = []
        self.plays: list[str] = []
        self.notes: list[str] = []

    def see(self, event: rules.Event) -> None:
        if isinstance(event, ev.Bid):
            self.bids.append(f"{event.seat}:{event.bid}")
        elif isinstance(event, ev.TrumpSet):
            self.bids.append(f"= trump {SUITS[event.trump]}, taken by seat {event.taker}")
            self.held[event.taker] |= 1 << self.dealt.turned_card  # the taker takes it
        elif isinstance(event, ev.RestDealt):
            self.held = [held | rest for held, rest in zip(self.held, event.cards, strict=True)]
        elif isinstance(event, ev.CardPlayed):
            mark = f" ({event.belote})" if event.belote else ""
            self.plays.append(f"{event.seat}:{CARD_NAMES[event.card]}{mark}")
        elif isinstance(event, ev.TrickWon):
            number = f"{event.trick}.".rjust(3)
            self.tricks.append(
                f"  {number} {' '.join(self.plays)}  -> seat {event.winner}, {event.points}"
            )
            self.plays = []
        elif isinstance(event, ev.DeclarationsShown):
            shown = ", ".join(
                f"{d.seat}:{d.kind} {_cards(d.cards)} ({d.points})" for d in event.declarations
            )
            counted = "none" if event.team is None else f"team {event.team}"
            self.notes.append(f"  Declarations counted: {counted}{': ' + shown if shown else ''}")
        elif isinstance(event, ev.TurnTimedOut):
            self.notes.append(f"  Seat {event.seat} timed out ({event.consecutive} in a row)")
        elif isinstance(event, ev.SeatAbsent):
            self.notes.append(f"  Seat {event.seat} handed to a bot ({event.reason})")
        elif isinstance(event, ev.SeatReturned):
            self.notes.append(f"  Seat {event.seat} taken back by its player")

    def lines(self, end: ev.HandScored | ev.HandThrownIn | None) -> list[str]:
        dealt = self.dealt
        out = [
            "",
            f"Hand {dealt.hand}: dealer seat {dealt.dealer}, "
            f"turned card {CARD_NAMES[dealt.turned_card]}",
        ]
        out += [f"  Seat {seat}: {_cards(mask)}" for seat, mask in enumerate(self.held)]
        out += [f"  Bidding: {' '.join(self.bids)}"]
        out += self.tricks + self.notes
        if self.plays:
            out.append(f"       {' '.join(self.plays)}  (trick not finished)")
        if isinstance(end, ev.HandThrownIn):
            out.append("  Thrown in: everybody passed twice")
        elif isinstance(end, ev.HandScored):
            out.append(
                f"  Score: {end.outcome}; card points {end.card_points[0]}-{end.card_points[1]}, "
                f"hand {end.scores[0]}-{end.scores[1]}, game {end.game_scores[0]}-"
                f"{end.game_scores[1]}"
            )
        if end is not None:
            out.append(f"  Seed {end.seed}" + (f", secret {end.secret}" if end.secret else ""))
        return out


def game_record(
    events: Iterable[rules.Event],
    *,
    tags: Mapping[str, str] | None = None,
    names: Sequence[str] = (),
) -> str:
    """The record of a game's events; `tags` go after `Event` (e.g. `Game`, `Date`) and
    `names` name the seats (their numbers otherwise)."""
    events = list(events)
    lines = _header(events, tags or {}, names)
    hand: _Hand | None = None
    for event in events:
        if isinstance(event, ev.HandDealt):
            hand = _Hand(event)
        elif isinstance(event, ev.HandScored | ev.HandThrownIn) and hand is not None:
            lines += hand.lines(event)
            hand = None
        elif isinstance(event, ev.TableClosed):
            lines += ["", f"Table closed before it filled ({event.reason})"]
        elif hand is not None:
            hand.see(event)
    if hand is not None:
        lines += hand.lines(None)
    lines += ["", _result(next((e for e in events if isinstance(e, ev.GameFinished)), None))]
    return "\n".join(lines) + "\n"


def record_of_rows(rows: Iterable[Mapping[str, Any]], **kwargs: Any) -> str:
    """The record of exported rows (`type`, `schema_version`, `payload`, ...)."""
    return game_record([event_of(link) for link in links(rows)], **kwargs)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("log", type=Path, help="a game's export (NDJSON)")
    parser.add_argument("--names", help="the four seats' names, comma-separated, seat 0 first")
    args = parser.parse_args(argv)
    names = args.names.split(",") if args.names else ()
    try:
        rows = parse_lines(args.log.read_text(encoding="utf-8").splitlines())
        sys.stdout.write(record_of_rows(rows, names=names))
    except (OSError, LogError, KeyError, TypeError, ValueError) as error:
        print(f"cannot read {args.log}: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
