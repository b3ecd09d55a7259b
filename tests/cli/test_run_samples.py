"""``make run`` stores complete sample games beside the examples, for the replay viewer: seeded (the
same games and IDs on every machine), finished, and named after their decks."""

from __future__ import annotations

from arbiter.commands.run import SAMPLE_GAMES, sample_games
from replays.service import log_id, replay_json


def test_sample_games_are_seeded_complete_and_named() -> None:
    first, again = sample_games(), sample_games()
    assert [log_id(log) for _, log in first] == [log_id(log) for _, log in again]
    assert len(first) == len(SAMPLE_GAMES)
    for (name, log), (seed, _, _) in zip(first, SAMPLE_GAMES, strict=True):
        result = replay_json(log)
        assert result["valid"], (name, result["error"])
        assert result["outcome"] is not None, name  # played to the end
        names = [p["name"] for p in log["players"]]
        assert all(n.endswith(" bot") for n in names) and len(set(names)) == 2
        assert seed in log["meta"]["title"] and names[0] in log["meta"]["title"]


def test_make_run_loads_every_games_examples_and_the_samples(redis_url: str, redis_db: object) -> None:
    from arbiter.commands.run import load_examples
    from tests.helpers import EXAMPLE_NAMES

    loaded = dict(load_examples(redis_url))
    names = {name.rsplit("/", 1)[-1] for name in EXAMPLE_NAMES}
    assert names <= set(loaded)  # the examples of every game folder, Relic's and SW TCG's included
    assert {f"self-play {seed}" for seed, _, _ in SAMPLE_GAMES} <= set(loaded)
