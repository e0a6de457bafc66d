"""Users and their access tokens; knows nothing of games."""
