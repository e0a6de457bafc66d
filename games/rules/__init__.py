"""The rules of French Belote: pure, standard library only (see docs/rules-api.md)."""

from games.rules.cards import CARD_NAMES, POINTS, SUIT_MASKS, TRUMP_ABOVE, WIN_KEYS
from games.rules.commands import (
    Action,
    ChooseTrump,
    CloseTable,
    Command,
    Declare,
    LeaveSeat,
    Pass,
    Play,
    PlayerAction,
    ReturnSeat,
    StartGame,
    Take,
    parse_action,
)
from games.rules.declarations import Declaration
from games.rules.engine import decide, legal_actions, legal_moves, replay
from games.rules.errors import ERROR_CODES, InvalidOptions, RuleError
from games.rules.events import Event
from games.rules.folds import apply
from games.rules.options import RANGES, TARGET_MAX, TARGET_MIN, Options
from games.rules.positions import dealt_position, playing_position
from games.rules.scoring import MAX_HANDS
from games.rules.shuffle import first_dealer, seed_commitment, shuffled_deck
from games.rules.state import ENGINE_VERSION, GameState, new_game
from games.rules.summary import Summary, summary
from games.rules.tricks import legal_cards_mask, winning
from games.rules.view import redact, view
from games.rules.wire import event_from_dict, event_to_dict

__all__ = [
    "CARD_NAMES",
    "ENGINE_VERSION",
    "ERROR_CODES",
    "MAX_HANDS",
    "POINTS",
    "RANGES",
    "SUIT_MASKS",
    "TARGET_MAX",
    "TARGET_MIN",
    "TRUMP_ABOVE",
    "WIN_KEYS",
    "Action",
    "ChooseTrump",
    "CloseTable",
    "Command",
    "Declaration",
    "Declare",
    "Event",
    "GameState",
    "InvalidOptions",
    "LeaveSeat",
    "Options",
    "Pass",
    "Play",
    "PlayerAction",
    "ReturnSeat",
    "RuleError",
    "StartGame",
    "Summary",
    "Take",
    "apply",
    "dealt_position",
    "decide",
    "event_from_dict",
    "event_to_dict",
    "first_dealer",
    "legal_actions",
    "legal_cards_mask",
    "legal_moves",
    "new_game",
    "parse_action",
    "playing_position",
    "redact",
    "replay",
    "seed_commitment",
    "shuffled_deck",
    "summary",
    "view",
    "winning",
]
