"""The tournaments app: hosted tournaments of teams of two, and the players' ratings."""
