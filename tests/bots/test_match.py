"""The match runner, its statistics and its progress bar."""

import io
import math

from games.bots.match import main, run_deals
from games.bots.progress import ProgressBar
from games.bots.stats import interval


def test_the_match_runner_prints_the_margin_per_hand(capsys):
    assert main(["--team0", "basic", "--team1", "random", "--deals", "3", "--duplicate"]) == 0
    out = capsys.readouterr()
    assert "6 hands over 3 deals (duplicate)" in out.out
    assert "team 0 margin per hand:" in out.out
    assert "3/3" in out.err


def test_duplicate_deals_give_two_margins_each_and_repeat_exactly():
    first = run_deals(5, 2, "basic", "random", duplicate=True, jobs=1)
    assert [len(margins) for margins in first] == [2, 2]
    assert run_deals(5, 2, "basic", "random", duplicate=True, jobs=1) == first


def test_interval_of_a_known_sample():
    result = interval([1.0, 2.0, 3.0, 4.0])
    assert result.mean == 2.5
    half = 1.96 * math.sqrt((1.5**2 + 0.5**2) * 2 / 3 / 4)
    assert math.isclose(result.high - result.mean, half)
    assert result.excludes_zero()
    assert not interval([-1.0, 1.0]).excludes_zero()


def test_progress_bar_draws_on_its_stream():
    stream = io.StringIO()
    bar = ProgressBar(4, "deals", stream)
    bar.update(2)
    bar.close()
    assert "[###############...............] 2/4" in stream.getvalue()
