"""Playing a perfect-information hand to its end with the card-play heuristic."""

from __future__ import annotations

from games.bots.cardplay import play_card
from games.rules.cards import LAST_TRICK_BONUS, POINTS
from games.rules.tricks import legal_cards_mask, winning


def close_trick(trick: tuple[int, ...], leader: int, trump: int, *, last: bool) -> tuple[int, int]:
    """The winner of a full trick and the points it carries (with the last-trick bonus)."""
    winner = (leader + winning(trick, trump)[0]) & 3
    table = POINTS[trump]
    won = table[trick[0]] + table[trick[1]] + table[trick[2]] + table[trick[3]]
    return winner, (won + LAST_TRICK_BONUS) if last else won


class Table:
    """A mutable hand in progress: the four hands, the trick, what each team won."""

    __slots__ = (
        "hands",
        "leader",
        "overtrump_partner",
        "points",
        "taker",
        "trick",
        "tricks",
        "trump",
    )

    def __init__(  # noqa: PLR0917 (positional: copied in the playouts' inner loop)
        self,
        hands: list[int],
        trump: int,
        taker: int,
        leader: int,
        trick: tuple[int, ...],
        points: list[int],
        tricks: list[int],
        overtrump_partner: bool,
    ) -> None:
        self.hands = hands
        self.trump = trump
        self.taker = taker
        self.leader = leader
        self.trick = trick
        self.points = points
        self.tricks = tricks
        self.overtrump_partner = overtrump_partner

    def copy(self) -> Table:
        """An independent copy."""
        return Table(
            list(self.hands),
            self.trump,
            self.taker,
            self.leader,
            self.trick,
            list(self.points),
            list(self.tricks),
            self.overtrump_partner,
        )

    def turn(self) -> int:
        """The seat to play."""
        return (self.leader + len(self.trick)) & 3

    def legal(self) -> int:
        """The cards the seat to play may play."""
        return legal_cards_mask(
            self.hands[self.turn()], self.trick, self.trump, self.overtrump_partner
        )

    def play(self, card: int) -> None:
        """Play a card for the seat to play; close the trick when it is the fourth."""
        seat = self.turn()
        self.hands[seat] &= ~(1 << card)
        trick = (*self.trick, card)
        self.trick = trick
        if len(trick) < 4:
            return
        winner, won = close_trick(trick, self.leader, self.trump, last=not self.hands[0])
        self.points[winner & 1] += won
        self.tricks[winner & 1] += 1
        self.leader = winner
        self.trick = ()

    def heuristic_card(self) -> int:
        """The card the heuristic plays for the seat to play, all hands in view."""
        seat = self.turn()
        return play_card(
            seat, self.legal(), self.trick, self.leader, self.trump, self.taker, self.hands
        )

    def play_out(self) -> None:
        """Play the heuristic for every seat until the hand ends."""
        while self.hands[self.turn()]:
            self.play(self.heuristic_card())
