"""The commands: `ratings_rebuild`."""
