"""The accounts' HTTP API: registration, tokens, the signed-in user."""
