"""The live part of a game: reading a viewer's events and waking those who wait for more."""
