"""Signals games sends for the apps built on them (games imports none of those apps)."""

from django.dispatch import Signal

#: sent after the commit of the append that ends a game, with `game_id` (a UUID); a
#: receiver that must not be lost (tournaments) also sweeps for what it missed
game_finished = Signal()
