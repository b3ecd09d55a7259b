"""A fault that only the built position shows (a card in the wrong arena, a name no card has) is
pointed at the line of the compact text it comes from (judge.games.quick.text_faults), for every
game with a quick position."""

from __future__ import annotations

import pytest

from judge.games import quick, registry

# (game, the example's line changed, into, the fault's words)
BROKEN = [
    ("swtcg", "p2 space Mon Calamari Cruiser", "p2 ground Mon Calamari Cruiser", "space card"),
    ("relic", "p1 asset Auspex", "p1 asset Auspexx", "Auspexx"),
    ("destiny", "p2 character Boba Fett: 2 dice", "p2 character Boba Fettt: 2 dice", "Boba Fettt"),
]


def _line_of(text: str, line: str) -> int:
    return text.splitlines().index(line) + 1


@pytest.mark.parametrize(("game_id", "old", "new", "words"), BROKEN)
def test_a_fault_of_the_built_position_points_at_its_line(game_id: str, old: str, new: str, words: str) -> None:
    game = registry.get(game_id)
    text = game.quick_example().replace(old, new)
    assert new in text.splitlines()
    spec, faults = game.quick_text(text)
    assert faults == []
    log, faults = game.quick_log(spec, game.default_cards())
    assert log is None and faults and not faults[0][0].startswith("/lines/")  # a pointer into the JSON
    lined = quick.text_faults(game.quick_text, text, faults)
    assert [m for _, m in lined] == [m for _, m in faults]
    assert lined[0][0] == f"/lines/{_line_of(text, new)}" and words in str(lined[0][1])


def test_the_line_is_the_first_that_makes_the_place_even_with_comments_and_blank_lines() -> None:
    game = registry.get("swtcg")
    text = "# a comment\n\n" + game.quick_example().replace("p2 space Mon Calamari Cruiser",
                                                           "p2 ground Mon Calamari Cruiser\n\n# more")
    spec, _ = game.quick_text(text)
    _, faults = game.quick_log(spec, game.default_cards())
    assert quick.text_faults(game.quick_text, text, faults)[0][0] == \
        f"/lines/{_line_of(text, 'p2 ground Mon Calamari Cruiser')}"


def test_a_pointer_no_line_makes_is_kept() -> None:
    game = registry.get("relic")
    text = game.quick_example()
    faults = [("/nowhere/0", "x"), ("", "y")]
    assert quick.text_faults(game.quick_text, text, faults) == faults


def test_the_deepest_place_held_is_asked_for() -> None:
    """A fault about a member the position lacks (``/players/1/force``) is at its player's first line."""
    game = registry.get("swtcg")
    text = game.quick_example()
    spec, _ = game.quick_text(text)
    first_p2 = next(n for n, line in enumerate(text.splitlines(), 1) if line.startswith("p2 "))
    assert quick.text_faults(game.quick_text, text, [("/players/1/no-such-member", "z")]) == \
        [(f"/lines/{first_p2}", "z")]


def test_a_fact_written_again_is_at_the_line_that_wrote_it_last() -> None:
    """A value is at the first line after which the position holds it as the whole text has it: a
    fact a later line writes again (SW TCG's ``discard``) is at that later line."""
    game = registry.get("swtcg")
    text = game.quick_example().replace("p2 Luke:", "p1 discard Nobody One\np1 discard Nobody Two\np2 Luke:")
    spec, faults = game.quick_text(text)
    assert faults == []
    _, faults = game.quick_log(spec, game.default_cards())
    lined = quick.text_faults(game.quick_text, text, faults)
    assert [(p, str(m)) for p, m in lined if "Nobody" in str(m)] == \
        [(f"/lines/{_line_of(text, 'p1 discard Nobody Two')}", "no card is named 'Nobody Two'")]


@pytest.mark.parametrize("game_id", ["destiny", "swtcg", "relic"])
def test_a_misspelt_line_word_is_named_and_a_card_typo_gets_the_nearest_names(game_id: str) -> None:
    game = registry.get(game_id)
    example = game.quick_example()
    text = "raund 3\n" + example
    _, faults = game.quick_text(text)
    assert [(p, str(m)) for p, m in faults if "raund" in str(m)] == [
        ("/lines/1", next(str(m) for _, m in faults if "raund" in str(m)))]
    assert "did you mean 'round'?" in str(faults[0][1])
    # a line of a player ID with facts after ':' is never taken for a slip
    assert not game.quick_text(example)[1]
    # a name one letter off: the nearest card is named, in every game, and worded in Polish too
    old, new = {"destiny": ("Boba Fett", "Boba Fettt"), "swtcg": ("Mon Calamari Cruiser", "Mon Calamari Cruser"),
                "relic": ("Auspex", "Auspexx")}[game_id]
    spec, faults = game.quick_text(example.replace(old, new, 1))
    log, faults = game.quick_log(spec, game.default_cards())
    assert log is None and faults
    words = str(faults[0][1])
    assert repr(new) in words and "nearest" in words and old in words, words
    assert words.split("nearest:")[1].count(old) == 1  # the nearest card listed once
    from i18n import Msg
    from i18n import text as in_lang

    assert isinstance(faults[0][1], Msg) and "nearest" not in faults[0][1].text(in_lang("pl"))
