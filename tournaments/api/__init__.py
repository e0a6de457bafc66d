"""The tournament endpoints under /api/v1/tournaments and /api/v1/ratings."""
