"""The engine's own messages in the reader's language: why a step is illegal (``IllegalAction``)
and what a pending decision asks (its ``prompt``) are ``i18n.Msg``, worded by the ruling's words
and the viewer in Polish or Russian; the ruling itself keeps them in English in every language."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from i18n import Msg
from replays.format import parse_log
from replays.ruling import ruling_words
from replays.viewer import viewer_data

EXAMPLES = Path(__file__).resolve().parents[2] / "replays" / "examples"


def _example(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EXAMPLES / name).read_text(encoding="utf-8"))
    return data


def _cut(raw: dict[str, Any], at: int) -> dict[str, Any]:
    """The log up to step ``at`` (1-based), that step neither disputed nor expected to fail."""
    out = copy.deepcopy(raw)
    out["steps"] = out["steps"][:at]
    for key in ("expect", "dispute"):
        out["steps"][at - 1].pop(key, None)
    return out


def _out_of_turn(name: str) -> dict[str, Any]:
    """The example's first step, taken by another player."""
    raw = _cut(_example(name), 1)
    step = raw["steps"][0]
    step["by"] = next(p["id"] for p in raw["players"] if p["id"] != step["by"])
    return raw


def _without_choices(name: str, at: int) -> dict[str, Any]:
    """The example up to step ``at``, that step's choices left out: a decision is pending."""
    raw = _cut(_example(name), at)
    del raw["steps"][at - 1]["choices"]
    return raw


# (log, the ruling's English message (references), its words in English (names), a fragment of
# its Polish, of its Russian)
ILLEGAL = {
    "destiny": (_out_of_turn("modifier-with-base.json"), "it is p1's turn, not p2's", "it is Ana's turn, not Ben's",
                "teraz jest tura gracza Ana, nie gracza Ben", "сейчас ход игрока Ana, а не игрока Ben"),
    "relic": (_out_of_turn("relic/six-six-two.json"), "it is p1's turn: only the active player acts",
              "it is Ana's turn: only the active player acts", "działa tylko aktywny gracz",
              "действует только активный игрок"),
    "swtcg": (_out_of_turn("swtcg/chance-dark-side-first.json"), "LS-SEC is not a card in p1's hand",
              "Second Wind is not a card in Dark's hand", "nie jest kartą na ręce gracza Dark",
              "не карта в руке игрока Dark"),
}


@pytest.mark.parametrize("game", sorted(ILLEGAL))
def test_an_illegal_step_is_explained_in_the_readers_language(game: str) -> None:
    raw, message, english, polish, russian = ILLEGAL[game]
    log = parse_log(raw)
    by_lang = {lang: ruling_words(log, None, 1, lang) for lang in ("en", "pl", "ru")}
    violation = by_lang["en"]["ruling"]["violation"]
    assert by_lang["en"]["ruling"]["legal"] is False
    assert isinstance(violation["message"], Msg)  # worded where the words are made
    assert violation["message"] == message
    assert english in by_lang["en"]["words"]["answer"]
    for lang, fragment in (("pl", polish), ("ru", russian)):
        answer = by_lang[lang]["words"]["answer"]
        assert fragment in answer, answer
        assert english not in answer
        # the ruling is the same in every language, its message the English one
        assert by_lang[lang]["ruling"] == by_lang["en"]["ruling"]
        assert json.dumps(by_lang[lang]["ruling"], sort_keys=True) == json.dumps(by_lang["en"]["ruling"],
                                                                                 sort_keys=True)
        assert by_lang[lang]["ruling"]["violation"]["message"] == message


def test_the_viewer_words_a_steps_error_in_its_language() -> None:
    raw, message, english, polish, _ = ILLEGAL["destiny"]
    raw = copy.deepcopy(raw)
    raw["steps"][0]["expect"] = {"error": {"kind": "illegal-action"}}
    log = parse_log(raw)
    en, pl = viewer_data(log, None, "en"), viewer_data(log, None, "pl")
    err_en = next(s["error"] for s in en["steps"] if s.get("error"))
    err_pl = next(s["error"] for s in pl["steps"] if s.get("error"))
    assert english in err_en["text"]
    assert polish in err_pl["text"] and english not in err_pl["text"]
    assert err_pl["message"] == err_en["message"] == message  # the data's message: the English


# (log, the step that leaves a decision pending, the English prompt, a fragment of its Polish)
PENDING = {
    "destiny": ("simultaneous-after-abilities.json", 1, "order of 2 simultaneous after-abilities",
                "kolejność jednoczesnych zdolności"),
    "relic": ("relic/discard-player-chooses.json", 3, "discard 1 Power card(s)", "odrzuć karty typu Power"),
}


@pytest.mark.parametrize("game", sorted(PENDING))
def test_a_pending_decisions_prompt_is_in_the_readers_language(game: str) -> None:
    name, at, english, polish = PENDING[game]
    log = parse_log(_without_choices(name, at))
    en, pl = ruling_words(log, None, at, "en"), ruling_words(log, None, at, "pl")
    assert en["ruling"]["pending"]["prompt"] == english
    assert en["words"]["decides"]["what"] == english
    what = pl["words"]["decides"]["what"]
    assert polish in what and english not in what
    assert polish in pl["words"]["answer"]
    assert pl["ruling"] == en["ruling"]


def test_an_answered_decisions_prompt_is_worded_by_the_viewer() -> None:
    log = parse_log(_example("simultaneous-after-abilities.json"))
    en, pl = viewer_data(log, None, "en"), viewer_data(log, None, "pl")
    texts_en = [d["text"] for s in en["steps"] for d in s["decisions"]]
    texts_pl = [d["text"] for s in pl["steps"] for d in s["decisions"]]
    assert any("order of 2 simultaneous after-abilities" in t for t in texts_en)
    assert any("kolejność jednoczesnych zdolności" in t for t in texts_pl)
    assert not any("simultaneous" in t for t in texts_pl)


def test_an_engine_message_is_english_and_keeps_its_template() -> None:
    from judge.kernel.core import IllegalAction

    log = parse_log(_out_of_turn("modifier-with-base.json"))
    message = ruling_words(log, None, 1, "en")["ruling"]["violation"]["message"]
    assert isinstance(message, Msg) and message.template == "it is {expected}'s turn, not {by}'s"
    exc = IllegalAction("r", message)
    assert str(exc) == f"{message} [r]"


def test_a_cards_prompt_is_in_the_readers_language() -> None:
    log = parse_log(_without_choices("multiplayer-seats.json", 4))
    en, ru = ruling_words(log, None, 4, "en"), ruling_words(log, None, 4, "ru")
    assert en["words"]["decides"]["what"] == "which opponent loses 1 resource"
    assert ru["words"]["decides"]["what"] == "какой соперник теряет 1 ресурс"
    assert ru["ruling"] == en["ruling"]
