"""SW TCG deck formats: ``standard`` (one side plus neutral cards; the fan validator's 60 cards, 4
copies, 12 of each unit type) and ``sandbox``; in a decklist check, a replay's meta.format and the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from arbiter.cli import main
from judge.games.swtcg import importer
from judge.games.swtcg.cards import DARK_60, LIGHT_60, default_pool
from judge.games.swtcg.deckcheck import check_deck
from judge.games.swtcg.game import GAME
from judge.games.swtcg.model import card_json
from tests.judge.swtcg.table import play

POOL = default_pool()


def decklist(deck: list[str]) -> str:
    return "\n".join(f"{deck.count(code)} {code}" for code in dict.fromkeys(deck))


@pytest.mark.rules("swtcg.base.deck-side", "swtcg.project.fan-deck-limits")
def test_the_self_play_decks_are_standard_decks() -> None:
    assert GAME.deck_formats == ("standard", "sandbox") and GAME.default_deck_format == "sandbox"
    for deck in (DARK_60, LIGHT_60):
        result = importer.check_decklist(decklist(list(deck)), POOL)
        assert result.deck_format == "standard" and result.legal, result.violations
        assert sorted(result.entry["deck"]) == sorted(deck)


@pytest.mark.rules("swtcg.base.deck-side")
def test_a_deck_is_one_side_plus_neutral_cards() -> None:
    mixed = [c for c in DARK_60 if c != "DS-TIE"] + ["LS-XW"] * 4
    [side] = [v for v in check_deck({"deck": mixed}, POOL) if v["rule"] == "swtcg.base.deck-side"]
    assert side == {"rule": "swtcg.base.deck-side", "card": "LS-XW",
                    "message": "X-wing (LS-XW) (4 copies) is a Light Side card in a Dark Side deck: a deck is one "
                               "side, Dark or Light, plus any neutral cards"}
    neutral = [c for c in DARK_60 if c != "DS-ST"] + ["LS-JH"] * 4  # Jabba is neutral: fine on either side
    assert check_deck({"deck": neutral}, POOL) == []
    [only] = [v for v in check_deck({"deck": ["LS-JH"] * 4}, POOL) if v["rule"] == "swtcg.base.deck-side"]
    assert "no Dark Side or Light Side card" in only["message"]


@pytest.mark.rules("swtcg.project.fan-deck-limits")
def test_standard_asks_for_sixty_cards_four_copies_and_twelve_of_each_unit_type() -> None:
    deck = [c for c in DARK_60 if c not in ("DS-ATAT", "DS-SPB")] + ["DS-TIE"]  # 53 cards, 5 TIE Fighters
    found = check_deck({"deck": deck}, POOL)
    assert [(v["rule"], v.get("card")) for v in found] == [
        ("swtcg.project.fan-deck-limits", None), ("swtcg.project.fan-deck-limits", "DS-TIE"),
        ("swtcg.project.fan-deck-limits", None)]
    messages = [v["message"] for v in found]
    assert messages[0].startswith("the deck has 53 cards; the standard format asks for exactly 60")
    assert messages[1].startswith("TIE Fighter (DS-TIE): 5 copies; the standard format allows at most 4 of a card")
    assert messages[2].startswith("the deck has 6 Ground cards; the standard format asks for at least 12 each")
    assert all("a fan deck validator's limit, not an official rule" in m for m in messages)
    assert check_deck({"deck": deck}, POOL, "sandbox") == []
    unknown = check_deck({"deck": [*DARK_60[:-1], "DS-NOPE"]}, POOL)
    assert unknown[0] == {"rule": "swtcg.project.card-pool", "card": "DS-NOPE",
                          "message": "the deck lists 'DS-NOPE', a card the card pool does not know"}
    with pytest.raises(ValueError, match="unknown format"):
        check_deck({"deck": deck}, POOL, "eternal")


@pytest.mark.rules("swtcg.project.fan-deck-limits")
def test_a_log_in_the_standard_format_stops_on_a_deck_violation() -> None:
    def log(meta: dict[str, str], dark: list[str]) -> dict[str, object]:
        return {"format": "arbiter.replay/1", "game": "swtcg", "meta": meta,
                "players": [{"id": "p1", "deck": dark}, {"id": "p2", "deck": list(LIGHT_60)}],
                "setup": {}, "steps": []}

    short = list(DARK_60[:-1])
    result, _ = play(log({"format": "standard"}, short))
    assert result.error is not None and result.error.rule == "swtcg.project.fan-deck-limits"
    assert "the deck has 59 cards" in result.error.message
    fine, _ = play(log({"format": "standard"}, list(DARK_60)))
    assert fine.error is None or fine.error.rule != "swtcg.project.fan-deck-limits"
    sandbox, _ = play(log({}, short))  # no meta.format: sandbox, nothing checked
    assert sandbox.error is None or not sandbox.error.rule.startswith("swtcg.project.fan")


def test_arbiter_cards_check_uses_standard_for_sw_tcg(tmp_path: Path) -> None:
    cards = tmp_path / "cards.json"
    cards.write_text(json.dumps({"game": "swtcg", "cards": [card_json(c) for c in POOL]}))
    good, bad = tmp_path / "dark.txt", tmp_path / "bad.txt"
    good.write_text(decklist(list(DARK_60)))
    bad.write_text(decklist(list(DARK_60[:-1])))
    runner = CliRunner()
    ok = runner.invoke(main, ["cards", "check", "--game", "swtcg", "--cards", str(cards), str(good)])
    assert ok.exit_code == 0 and "legal for standard" in ok.output, ok.output
    no = runner.invoke(main, ["cards", "check", "--game", "swtcg", "--cards", str(cards), str(bad)])
    assert no.exit_code == 1 and "swtcg.project.fan-deck-limits: the deck has 59 cards" in no.output
    loose = runner.invoke(main, ["cards", "check", "--game", "swtcg", "--cards", str(cards), str(bad),
                                 "--format", "sandbox"])
    assert loose.exit_code == 0 and "legal for sandbox" in loose.output
    wrong = runner.invoke(main, ["cards", "check", "--game", "swtcg", "--cards", str(cards), str(bad),
                                 "--format", "starter"])
    assert wrong.exit_code != 0 and "standard, sandbox" in wrong.output
