"""Bot players: from what one seat may see, choose one of its legal actions.

Pure code over `games.rules`: no Django, no I/O, no global RNG. The one entry
point is `choose_action`; docs/bots.md describes the levels and the budget.
"""

from games.bots.budget import Budget
from games.bots.choose import LEVELS, choose_action

__all__ = ["LEVELS", "Budget", "choose_action"]
