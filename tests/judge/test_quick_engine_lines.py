"""A fault only the engine finds when it replays the log a quick position was built into (a
Destiny character with 9 dice, a die face it lacks, a step reference it cannot read: ``MalformedLog``
with a pointer into the built log, JSON the judge never wrote) is pointed at the line of the compact
text it comes from (judge.games.quick.log_faults), or at the quick position's place without a text;
the log's pointer is kept where neither can be told."""

from __future__ import annotations

from typing import Any

import pytest

from judge.games import quick, registry
from judge.games.base import Faults
from replays.errors import MalformedLog
from replays.service import ruling_words_json

# (game, the example's line changed, into, words of the engine's fault, its place in the quick position)
REFUSED = [
    ("destiny", "p1 character Luke Skywalker: 2 dice, 2 shields, exhausted",
     "p1 character Luke Skywalker: 2 dice, 5 shields, exhausted", "more than 3 shields",
     "/players/0/characters/0/shields"),
    ("destiny", "p1 die Luke Skywalker/1: 1Sh", "p1 die Luke Skywalker/1: 3Sh", "no face 3Sh", "/players/0/dice/0"),
    ("destiny", "ask p1 resolve Luke Skywalker/1 -> Luke Skywalker, Luke Skywalker/2 -> Luke Skywalker",
     "ask p1 resolve Luke Skywalker/123456 -> Luke Skywalker", "die reference", "/ask"),
    ("swtcg", "ask p1 attack TIE Bomber -> Mon Calamari Cruiser rolling 4 4 5",
     "ask p1 attack TIE Bomber -> Mon Calamari Cruiser amount 2", "unknown key 'amount'", "/ask"),
    ("relic", "ask p1 use Auspex on d1 rolling 6 3", "ask p1 use Auspex#12345 on d1 rolling 6 3",
     "card reference", "/ask"),
]


def _engine_faults(game: Any, text: str) -> tuple[dict[str, Any], Faults]:
    """The quick position of ``text`` (which has no fault of its own) and what the engine refuses
    in the log built of it, as its pointers into that log."""
    spec, faults = game.quick_text(text)
    assert faults == []
    log, faults = game.quick_log(spec, game.default_cards())
    assert faults == [] and log is not None
    with pytest.raises(MalformedLog) as refused:
        ruling_words_json(log, 1)
    return spec, [(f.path, f.message) for f in refused.value.faults]


def _line_of(text: str, line: str) -> str:
    return f"/lines/{text.splitlines().index(line) + 1}"


@pytest.mark.parametrize(("game_id", "old", "new", "words", "place"), REFUSED)
def test_what_the_engine_refuses_is_at_the_line_it_comes_from(game_id: str, old: str, new: str, words: str,
                                                               place: str) -> None:
    game = registry.get(game_id)
    text = game.quick_example().replace(old, new)
    spec, faults = _engine_faults(game, text)
    assert faults and all(p.startswith(("/setup/", "/steps/")) for p, _ in faults)  # (the built log's places)
    lined = quick.log_faults(game, spec, game.default_cards(), faults, text)
    assert [(p, str(m)) for p, m in lined] == [(_line_of(text, new), str(faults[0][1]))]
    assert words in str(lined[0][1])


def test_each_of_several_faults_is_at_its_own_line_even_with_comments_and_blank_lines() -> None:
    """A character with 9 dice: the engine refuses the dice (its ``character`` line) and the pool's
    die 2 of a character that now has 1 (its ``die`` line)."""
    game = registry.get("destiny")
    text = "# Luke\n\n" + game.quick_example().replace("2 dice, 2 shields", "9 dice, 2 shields").replace(
        "p1 die Luke Skywalker/2: 1Sh", "\n# his second die\np1 die Luke Skywalker/2: 1Sh")
    spec, faults = _engine_faults(game, text)
    lined = quick.log_faults(game, spec, game.default_cards(), faults, text)
    assert [p for p, _ in lined] == [_line_of(text, "p1 character Luke Skywalker: 9 dice, 2 shields, exhausted"),
                                     _line_of(text, "p1 die Luke Skywalker/2: 1Sh")]
    assert "1 or 2 dice" in lined[0][1]


def test_an_upgrades_and_a_supports_die_are_at_their_lines() -> None:
    game = registry.get("destiny")
    text = ("p1 Ana: resources 0\np1 character Boba Fett: 2 dice\np1 upgrade Hidden Blaster on Boba Fett\n"
            "p1 support Underworld Connections\np1 die Hidden Blaster/1: 9ZZ\np2 Ben:\n"
            "p2 character Luke Skywalker\nask p1 pass\n")
    spec, faults = _engine_faults(game, text)
    assert [p for p, _ in quick.log_faults(game, spec, game.default_cards(), faults, text)] == \
        [_line_of(text, "p1 die Hidden Blaster/1: 9ZZ")]


@pytest.mark.parametrize(("game_id", "old", "new", "words", "place"), REFUSED)
def test_without_a_text_it_is_at_the_quick_positions_place(game_id: str, old: str, new: str, words: str,
                                                           place: str) -> None:
    """The JSON's pointer (a web form's field), not the built log's."""
    game = registry.get(game_id)
    spec, faults = _engine_faults(game, game.quick_example().replace(old, new))
    assert [p for p, _ in quick.log_faults(game, spec, game.default_cards(), faults)] == [place]


@pytest.mark.parametrize("game_id", ["destiny", "swtcg", "relic"])
def test_a_name_and_a_dispute_the_log_cannot_hold_are_at_their_lines(game_id: str) -> None:
    """A lone surrogate (a web page's JSON may send one) in a player's name and in the dispute: the
    engine's scan of the built log refuses them (the dispute twice: the step's and the title), each
    at its line, once."""
    game = registry.get(game_id)
    example = game.quick_example()
    first = next(line for line in example.splitlines() if line.startswith("p1 ") and ":" in line)
    dispute = next(line for line in example.splitlines() if line.startswith("dispute "))
    named, disputed = first.replace(":", "\ud800:", 1), dispute + " \udc00"
    text = example.replace(first, named).replace(dispute, disputed)
    spec, faults = _engine_faults(game, text)
    lined = quick.log_faults(game, spec, game.default_cards(), faults, text)
    assert sorted(p for p, _ in lined) == sorted([_line_of(text, named), _line_of(text, disputed)])
    assert all("lone surrogate" in m for _, m in lined)
    assert sorted(p for p, _ in quick.log_faults(game, spec, game.default_cards(), faults)) == \
        ["/dispute", "/players/0/name"]


def test_a_place_no_line_comes_from_keeps_the_logs_pointer() -> None:
    """A place of the built log no line of the text writes (the position's ``claimed_by``, the
    log's ``format``) keeps its pointer, after ``log_base``."""
    game = registry.get("destiny")
    text = game.quick_example()
    spec, _ = game.quick_text(text)
    faults: Faults = [("/setup/position/claimed_by", "x"), ("/format", "y"), ("", "z")]
    cards = game.default_cards()
    assert quick.log_faults(game, spec, cards, faults, text) == \
        [("/log/setup/position/claimed_by", "x"), ("/log/format", "y"), ("/log", "z")]
    assert quick.log_faults(game, spec, cards, faults, text, log_base="") == faults
    assert quick.log_faults(game, spec, cards, faults) == \
        [("/log/setup/position/claimed_by", "x"), ("/log/format", "y"), ("/log", "z")]


def test_a_game_without_places_keeps_the_logs_pointers() -> None:
    class NoPlaces:
        def quick_text(self, text: str) -> tuple[dict[str, Any], Faults]:
            return {"round": 1}, []

    faults: Faults = [("/setup/position/round", "x")]
    assert quick.log_faults(NoPlaces(), {"round": 1}, None, faults, "round 1") == \
        [("/log/setup/position/round", "x")]


def test_the_longest_place_that_starts_a_pointer_is_read_the_rest_kept() -> None:
    places = {"/setup/position": "", "/setup/position/players/p1": "/players/0",
              "/setup/position/players/p1/pool/p1.05031~11": "/players/0/dice/0"}
    assert quick.place_of("/setup/position/players/p1/pool/p1.05031~11", places) == "/players/0/dice/0"
    assert quick.place_of("/setup/position/players/p1/resources", places) == "/players/0/resources"
    assert quick.place_of("/setup/position/players/p10", places) == "/players/p10"  # (a token, not a prefix)
    assert quick.place_of("/setup/position/round", places) == "/round"
    assert quick.place_of("/setup/positions", places) is None
    assert quick.place_of("/format", places) is None and quick.place_of("", places) is None


def test_a_fault_of_relics_choices_is_at_the_choice_line_not_the_ask() -> None:
    """The asked step's ``choices`` are the ``choice`` lines (the engine checks their shape)."""
    game = registry.get("relic")
    text = game.quick_example().replace("dispute ", "choice order: Ork Nob\ndispute ")
    spec, faults = game.quick_text(text)
    assert faults == []
    found: Faults = [("/steps/0/choices/0/kind", "x"), ("/steps/0/roll", "y")]
    assert quick.log_faults(game, spec, game.default_cards(), found, text) == \
        [(_line_of(text, "choice order: Ork Nob"), "x"), (_line_of(text, "ask p1 use Auspex on d1 rolling 6 3"), "y")]
