"""The games' HTTP API: tables and seats, a player's view and actions, the live feed."""
