"""A malformed log's faults in the reader's language: the games' own step faults are ``i18n.Msg``
(English that keeps its marked template and params), so ``Fault.text`` words them in Polish and
Russian at the same JSON Pointer, while the English message (and the JSON of a fault) stays as it
was."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

import i18n
from i18n import N_, Msg
from replays.errors import Fault
from replays.service import validate

EXAMPLES = Path(__file__).resolve().parents[2] / "replays" / "examples"


def _log(name: str, step: dict[str, Any]) -> dict[str, Any]:
    log: dict[str, Any] = json.loads((EXAMPLES / name).read_text(encoding="utf-8"))
    log = copy.deepcopy(log)
    log["steps"] = [step]
    return log


# (a log whose only step is faulty, the fault's pointer, the start of its English, words of it in pl and ru)
CASES = [
    pytest.param(_log("modifier-alone.json", {"by": "p1", "do": "play", "card": "05999"}), "/steps/0/card",
                 "card 05999 is not known to the engine", ("silnik nie zna karty 05999", "неизвестна карта 05999"),
                 id="destiny-unknown-card"),
    pytest.param(_log("swtcg/intercept.json", {"by": "p1", "do": "pass", "cardd": "x"}), "/steps/0/cardd",
                 None, ("nieznany klucz 'cardd' (krok 'pass')", "неизвестный ключ 'cardd' (шаг 'pass')"),
                 id="swtcg-unknown-key"),
    pytest.param(_log("relic/bonus-declared-late.json", {"by": "p1", "do": "test", "skill": "strenght"}),
                 "/steps/0/skill", None, ("'skill' to jedno z:", "'skill' — одно из:"), id="relic-bad-skill"),
    pytest.param(_log("modifier-alone.json", {"by": "p1", "do": "pass", "roll": [2, "1RD"]}), "/steps/0/roll",
                 "'roll' must be a list of die faces such as \"2RD\"",
                 ("'roll' musi być listą ścianek kości", "'roll' должно быть списком граней"), id="bad-roll"),
]


@pytest.mark.parametrize("log, path, english, words", CASES)
def test_a_step_fault_of_each_game_in_polish_and_russian(log: dict[str, Any], path: str, english: str | None,
                                                          words: tuple[str, str]) -> None:
    faults = [f for f in validate(log) if f.path == path]
    assert len(faults) == 1, validate(log)
    fault = faults[0]
    assert isinstance(fault.message, Msg)
    said = {lang: fault.text(i18n.text(lang)) for lang in i18n.LANGS}
    assert said["en"] == fault.message  # English: the message as it always was
    if english is not None:
        assert fault.message.startswith(english)  # (a near name may follow)
    for lang, want in zip(("pl", "ru"), words, strict=True):
        assert want in said[lang], (lang, said[lang])
        assert said[lang] != said["en"]
    assert fault.to_json() == {"path": path, "message": str(fault.message)}


def test_a_near_name_is_worded_in_the_same_language() -> None:
    log = _log("relic/bonus-declared-late.json", {"by": "p1", "do": "test", "skill": "strenght"})
    fault = next(f for f in validate(log) if f.path == "/steps/0/skill")
    assert fault.message.endswith(" (did you mean 'strength'?)")
    assert fault.text(i18n.text("pl")).endswith(" (czy chodziło o 'strength'?)")
    assert fault.text(i18n.text("ru")).endswith(" (может быть, 'strength'?)")


def test_a_bound_names_its_limit_in_every_language() -> None:
    log = _log("modifier-alone.json", {"by": "p1", "do": "pass", "roll": ["1RD"] * 201})
    fault = next(f for f in validate(log) if f.path == "/steps/0/roll")
    assert fault.message == "'roll' lists at most 200 die faces (limit MAX_INPUTS)"
    assert fault.text(i18n.text("pl")) == "'roll' wymienia najwyżej 200 ścianek kości (limit MAX_INPUTS)"
    assert fault.text(i18n.text("ru")) == "в 'roll' — не больше 200 граней кубиков (предел MAX_INPUTS)"


def test_msg_is_its_english_text_and_words_nested_params() -> None:
    near = Msg(N_(" (did you mean '{word}'?)"), word="05058")
    msg = Msg(N_("card {code} is not known to the engine{near}"), code="05085", near=near)
    assert msg == "card 05085 is not known to the engine (did you mean '05058'?)"
    assert isinstance(msg, str) and hash(msg) == hash(str(msg))
    assert msg.template == "card {code} is not known to the engine{near}" and msg.params["near"] is near
    assert json.dumps({"m": msg}) == json.dumps({"m": str(msg)})
    assert msg.text(i18n.text("en")) == msg
    assert msg.text(i18n.text("pl")) == "silnik nie zna karty 05085 (czy chodziło o '05058'?)"
    assert msg.text(i18n.text("ru")) == "движку неизвестна карта 05085 (может быть, '05058'?)"
    plain = Msg(N_("'dice' must be a non-empty list of {\"die\": ..., \"target\": ...}"))  # no params: as written
    assert plain == plain.template and "{\"die\"" in plain.text(i18n.text("pl"))
    assert Msg("not in any catalog {x}", x=1).text(i18n.text("pl")) == "not in any catalog 1"


def test_a_fault_is_its_path_and_message() -> None:
    fault = Fault.of("/steps/0/by", N_("'by' must name the player taking the step"))
    assert fault == Fault("/steps/0/by", "'by' must name the player taking the step")
    assert fault.text(i18n.text("pl")) == "'by' musi wskazywać gracza, który wykonuje krok"
    assert Fault("/x", "plain English").text(i18n.text("ru")) == "plain English"
