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
    ("swtcg", None, 11, "unknown key 'dice' in a 'attack' step"),
    ("relic", "p1 Ana: Battle Sister\np2 Ben: Tech-Priest\np1 asset Auspex\nbattle Ork Boy\n"
              "ask p1 use Auspex#10000 on d1\n", 5, "'card' is a card reference"),
]


@pytest.mark.parametrize(("game", "text", "line", "words"), REFUSED)
def test_the_engines_fault_is_printed_at_its_line(tmp_path: Path, game: str, text: str | None, line: int,
                                                  words: str) -> None:
    if text is None:  # SW TCG's example, its attack asked with dice it does not roll
        text = registry.get(game).quick_example().replace("rolling 4 4 5", "dice 1 2")
        assert text.splitlines()[line - 1].startswith("ask ")
    path = tmp_path / "q.txt"
    path.write_text(text)
    result = CliRunner().invoke(position, ["--game", game, str(path)])
    assert result.exit_code == 1, result.output
    assert f"line {line}: {words}" in result.output and "/setup/" not in result.output and "/steps/" not in \
        result.output
