"""The exact endgame search agrees with plain minimax on small endgames."""

from games.bots.outcome import Objective
from games.bots.playout import Table
from games.bots.search import Solver
from games.rules.cards import cards_in
from tests.bots.helpers import positions


def _table(state):
    return Table(
        list(state.hands),
        state.trump,
        state.taker,
        state.trick_leader if state.trick else _next_leader(state),
        state.trick,
        list(state.trick_points),
        list(state.tricks_won),
        state.options.overtrump_partner_on_trump_lead,
    )


def _next_leader(state):
    return state.tricks[-1].winner if state.tricks else (state.dealer + 1) % 4


def _minimax(table, objective):
    seat = table.turn()
    if not table.hands[seat]:
        return objective(table.points, table.tricks)
    values = []
    for card in cards_in(table.legal()):
        child = table.copy()
        child.play(card)
        values.append(_minimax(child, objective))
    return max(values) if seat % 2 == objective.team else min(values)


def _endgames(count):
    for state, seat in positions(3000, seed=61):
        if state.trump >= 0 and 0 < state.hands[seat].bit_count() <= 3:
            yield state, seat
            count -= 1
            if not count:
                return


def test_alpha_beta_values_equal_brute_force_minimax():
    checked = 0
    for state, seat in _endgames(25):
        table = _table(state)
        objective = Objective(
            state.options,
            team=seat % 2,
            taker_team=state.taker % 2,
            counted_team=None,
            counted_points=0,
            belote_team=None,
        )
        legal = list(cards_in(table.legal()))
        values = Solver(table, seat % 2, objective).card_values(table, legal)
        for card in legal:
            child = table.copy()
            child.play(card)
            assert values[card] == _minimax(child, objective)
        checked += 1
    assert checked == 25
