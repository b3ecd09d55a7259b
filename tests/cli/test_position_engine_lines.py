"""``arbiter position``: what the engine refuses when it replays the log built of the compact text
is printed at the text's line (``line 5: ...``) for every game, exit 1; the built log's pointer
(``/setup/position/...``) only where no line can be told (judge.games.quick.log_faults)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from arbiter.commands.position import position
from judge.games import registry

# (game, the text, the line the engine's fault is at, its words)
REFUSED = [
    ("destiny", "round 2\np1 Ana: resources 1\n\n# Luke, with one die\np1 character Luke Skywalker: 1 die\n"
                "p1 die Luke Skywalker/2: 1Sh\np2 Ben: resources 0\np2 character Boba Fett\nask p1 pass\n",
     6, "p1.05031 has 1 dice"),
    # a unique card has one copy in play a player, the title deciding (not the subtitle); a non-unique
    # character has one die
    ("destiny", "p1 character Boba Fett - Deadly Mercenary\np1 character Luke Skywalker\n"
                "p1 character Boba Fett\np2 character Luke Skywalker\nask p1 pass\n",
     3, "p1 already has Boba Fett (p1.05019): a unique card has one copy in play"),
    ("destiny", "p1 character Tusken Raider: 2 dice\np2 character Luke Skywalker\nask p1 pass\n",
     1, "Tusken Raider is not unique: it has one die"),
    ("destiny", "p1 character Boba Fett\np1 support Slave I\np1 support Slave I\n"
                "p2 character Luke Skywalker\np2 support Slave I\nask p1 pass\n",
     3, "p1 already has Slave I (p1.05025#1)"),
    ("destiny", "p1 character Boba Fett\np1 upgrade Hidden Blaster on Boba Fett\n"
                "p1 upgrade Hidden Blaster on Boba Fett\np1 support Slave I\np2 character Luke Skywalker\n"
                "ask p1 pass\n", None, None),
    ("swtcg", None, 11, "unknown key 'dice' in a 'attack' step"),
    # a unit whose damage counters reach its health was discarded; a pilot goes with more than its health
    ("swtcg", ("p2 character Rebel Commando", "p2 character Rebel Commando: 3 damage"), 10,
     "Rebel Commando has 3 health: a unit with 3 damage counters is discarded"),
    ("swtcg", ("p2 character Rebel Commando", "p2 character Rebel Commando\np2 space X-wing\n"
                                              "p2 pilot Starfighter Pilot on X-wing: 3 damage"), 12,
     "Starfighter Pilot has 2 health: a pilot with 3 damage counters is discarded"),
    ("swtcg", ("p2 character Rebel Commando", "p2 character Rebel Commando: 2 damage\np2 space X-wing\n"
                                              "p2 pilot Starfighter Pilot on X-wing: 2 damage"), None, None),
    ("relic", "p1 Ana: Battle Sister\np2 Ben: Tech-Priest\np1 asset Auspex\nbattle Ork Boy\n"
              "ask p1 use Auspex#10000 on d1\n", 5, "'card' is a card reference"),
]


@pytest.mark.parametrize(("game", "text", "line", "words"), REFUSED)
def test_the_engines_fault_is_printed_at_its_line(tmp_path: Path, game: str, text: str | tuple[str, str] | None,
                                                  line: int | None,
                                                  words: str | None) -> None:
    if text is None:  # SW TCG's example, its attack asked with dice it does not roll
        text = registry.get(game).quick_example().replace("rolling 4 4 5", "dice 1 2")
        assert line is not None and text.splitlines()[line - 1].startswith("ask ")
    elif isinstance(text, tuple):  # the game's example, a line of it changed
        old, new = text
        text = registry.get(game).quick_example()
        assert f"\n{old}\n" in text
        text = text.replace(f"\n{old}\n", f"\n{new}\n")
    path = tmp_path / "q.txt"
    path.write_text(text)
    result = CliRunner().invoke(position, ["--game", game, str(path)])
    if line is None:  # (a position the engine takes: non-unique copies, the other player's own unique one)
        assert result.exit_code == 0, result.output
        return
    assert result.exit_code == 1, result.output
    assert f"line {line}: {words}" in result.output and "/setup/" not in result.output and "/steps/" not in \
        result.output
