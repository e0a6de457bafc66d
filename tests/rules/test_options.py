"""Table options: docs/rules.md, "Table options". Each option's effect is pinned where its rule
lives; here: defaults, validation, and the options whose effect is a whole hand."""

import pytest

from games import rules
from tests.rules.helpers import play_vector, vector

DEFAULTS = {
    "target": 501,
    "declarations": True,
    "auto_belote": True,
    "overtrump_partner_on_trump_lead": True,
    "tie_rule": "litige",
    "capot_points": 252,
    "turn_seconds": None,
    "time_bank_seconds": 0,
    "absent_after": 2,
    "board": False,
}


def test_defaults_are_those_of_the_french_ruleset() -> None:
    assert rules.Options().to_dict() == DEFAULTS
    assert rules.Options.from_dict({}).to_dict() == DEFAULTS


def test_given_options_are_kept_and_the_rest_defaulted() -> None:
    chosen = rules.Options.from_dict({"target": 1000, "tie_rule": "inside", "capot_points": 250})
    assert chosen.to_dict() == {
        **DEFAULTS,
        "target": 1000,
        "tie_rule": "inside",
        "capot_points": 250,
    }


@pytest.mark.parametrize(
    ("given", "field"),
    [
        ({"target": 0}, "target"),
        ({"target": -5}, "target"),
        ({"target": 10_001}, "target"),
        ({"target": 10**1000}, "target"),
        ({"target": "501"}, "target"),
        ({"target": True}, "target"),
        ({"target": 1.5}, "target"),
        ({"declarations": "yes"}, "declarations"),
        ({"auto_belote": 1}, "auto_belote"),
        ({"board": "yes"}, "board"),
        ({"overtrump_partner_on_trump_lead": None}, "overtrump_partner_on_trump_lead"),
        ({"tie_rule": "split"}, "tie_rule"),
        ({"capot_points": 300}, "capot_points"),
        ({"colour": "red"}, "colour"),
        ({"turn_seconds": 4}, "turn_seconds"),
        ({"turn_seconds": 3601}, "turn_seconds"),
        ({"turn_seconds": 30.5}, "turn_seconds"),
        ({"turn_seconds": False}, "turn_seconds"),
        ({"time_bank_seconds": -1}, "time_bank_seconds"),
        ({"time_bank_seconds": None}, "time_bank_seconds"),
        ({"time_bank_seconds": 3601}, "time_bank_seconds"),
        ({"absent_after": 0}, "absent_after"),
        ({"absent_after": 21}, "absent_after"),
    ],
)
def test_invalid_options_are_refused_with_the_field_named(
    given: dict[str, object], field: str
) -> None:
    with pytest.raises(rules.InvalidOptions) as raised:
        rules.Options.from_dict(given)
    assert raised.value.field == field
    assert raised.value.code


@pytest.mark.parametrize(
    "clock",
    [
        {"turn_seconds": 5},
        {"turn_seconds": 3600, "time_bank_seconds": 3600, "absent_after": 20},
        {"turn_seconds": None, "time_bank_seconds": 0, "absent_after": 1},
    ],
)
def test_the_clock_options_take_their_bounds(clock: dict[str, object]) -> None:
    assert rules.Options.from_dict(clock).to_dict() == {**DEFAULTS, **clock}


def test_a_whole_number_written_with_a_fraction_is_that_integer() -> None:
    # JSON Schema's `integer` admits 30.0, so a client generated from the schema may send it
    options = rules.Options.from_dict({"turn_seconds": 30.0, "target": 501.0})
    assert (options.turn_seconds, options.target) == (30, 501)
    assert type(options.turn_seconds) is int


def test_a_game_recorded_before_the_clocks_reads_as_untimed() -> None:
    before_clocks = {key: DEFAULTS[key] for key in ("target", "tie_rule", "capot_points")}
    assert rules.Options.from_record(before_clocks).turn_seconds is None


@pytest.mark.parametrize("target", [1, 10_000])
def test_the_target_bounds_are_accepted(target: int) -> None:
    assert rules.Options.from_dict({"target": target}).target == target


@pytest.mark.parametrize(
    ("target", "reason"), [(10**1000, "out_of_range"), (False, "wrong_type"), (0, "out_of_range")]
)
def test_a_target_out_of_bounds_is_refused_with_its_reason(target: object, reason: str) -> None:
    with pytest.raises(rules.InvalidOptions) as raised:
        rules.Options.from_dict({"target": target})
    assert (raised.value.field, raised.value.reason) == ("target", reason)
    assert str(10**1000) not in raised.value.message


def test_a_recorded_game_keeps_options_chosen_before_the_bounds() -> None:
    recorded = {"type": "game_started", "v": 1, "first_dealer": 2, "game_seed": ""}
    options = {**DEFAULTS, "target": 50_000}
    event = rules.event_from_dict({**recorded, "options": options})
    # upcast to version 2, from before commit-reveal (docs/fairness.md)
    upcast = {**recorded, "v": 2, "secret_chain": "", "client_seeds": ["", "", "", ""]}
    assert rules.event_to_dict(event) == {**upcast, "options": options}


def test_without_declarations_nothing_is_offered_or_counted() -> None:
    spec = vector("declarations_off")
    state = rules.playing_position(
        options=rules.Options(declarations=False),
        dealer=spec["dealer"],
        hands=spec["hands"],
        taker=spec["taker"],
        trump=spec["trump"],
    )
    assert all(
        a["type"] != "declare" for seat in range(4) for a in rules.legal_actions(state, seat)
    )
    _, scored = play_vector("declarations_off")
    assert scored["counted_declarations"] == {"team": None, "points": 0}
    assert (scored["totals"], scored["outcome"]) == ([85, 97], "made")


def test_the_same_hand_scores_declarations_with_the_option_on() -> None:
    spec = vector("declarations_off")
    state = rules.playing_position(
        dealer=spec["dealer"], hands=spec["hands"], taker=spec["taker"], trump=spec["trump"]
    )
    assert any(
        a["type"] == "declare" for seat in range(4) for a in rules.legal_actions(state, seat)
    )


def test_tie_rule_inside_makes_a_tie_inside() -> None:
    _, scored = play_vector("tie_rule_inside")
    assert (scored["outcome"], scored["scores"], scored["waiting_after"]) == ("inside", [162, 0], 0)
