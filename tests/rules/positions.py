"""Hand-made positions shared by several rule areas."""

# Seat 1 holds every heart; with hearts trump it wins all eight tricks by leading them.
ALL_TRUMPS = (
    "7S 8S 9S TS 7D 8D 9D TD",
    "7H 8H 9H TH JH QH KH AH",
    "JS QS KS AS JD QD KD AD",
    "7C 8C 9C TC JC QC KC AC",
)


def all_trumps_plays() -> list[tuple[int, str]]:
    """Seat 1 leads its hearts from the seven up; the others discard in the order dealt."""
    rows = [row.split() for row in ALL_TRUMPS]
    plays: list[tuple[int, str]] = []
    for trick in range(8):
        plays.extend((seat, rows[seat][trick]) for seat in (1, 2, 3, 0))
    return plays
