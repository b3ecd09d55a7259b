"""The replay viewer page's words (replays/viewer_words.py): every word has its Polish and Russian
translation in the catalogs, with the same ``{params}`` as the English; every word the page's
scripts ask for is in the dict; the viewer data carries the words of its language."""

from __future__ import annotations

import json
import re
import string

import pytest

import i18n
from replays import viewer
from replays.viewer_words import CATEGORIES, PLURALS, UI, ui_words
from tests.helpers import load_example

FORMS = {"one": 1, "few": 2, "many": 5}
#: words that the language writes as English does
SAME = {("pl", "{left} vs {right}"), ("pl", "R{round}")}


def _catalog_words() -> dict[str, dict[str, object]]:
    """Each word's translations as the catalogs give them ({msgid: {lang: word or [3 forms]}})."""
    out: dict[str, dict[str, object]] = {}
    for msgid in UI.values():
        out[msgid] = {lang: i18n.text(lang).gettext(msgid) for lang in ("pl", "ru")}
    for one, many in PLURALS.values():
        out[one] = {"msgid_plural": many, **{lang: [i18n.translations(lang).ngettext(one, many, n)
                                                    for n in FORMS.values()] for lang in ("pl", "ru")}}
    return out


TRANSLATIONS = _catalog_words()
SCRIPTS = ("viewer.js", *viewer.RENDERERS)


def params(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


@pytest.mark.parametrize("lang", ["pl", "ru"])
def test_every_word_has_its_translation_with_the_same_params(lang: str) -> None:
    for key, msgid in UI.items():
        entry = TRANSLATIONS.get(msgid)
        assert entry is not None, f"{key}: {msgid!r} has no translations"
        word = entry.get(lang)
        assert isinstance(word, str) and word.strip(), f"{key}: no {lang} for {msgid!r}"
        assert word != msgid or (lang, msgid) in SAME, f"{key}: {msgid!r} left in English in {lang}"
        assert params(word) == params(msgid), f"{key} ({lang}): {word!r} has not the params of {msgid!r}"


@pytest.mark.parametrize("lang", ["pl", "ru"])
def test_every_counted_word_has_three_forms_with_n(lang: str) -> None:
    for key, (one, many) in PLURALS.items():
        entry = TRANSLATIONS[one]
        assert entry["msgid_plural"] == many
        forms = entry[lang]
        assert isinstance(forms, list) and len(set(forms)) >= 2 and one not in forms, (key, lang, forms)
        assert all(params(form) == {"n"} == params(one) == params(many) for form in forms), (key, lang, forms)


def test_every_word_the_scripts_ask_for_is_a_key() -> None:
    keys = {*UI, *PLURALS}
    for name in SCRIPTS:
        text = viewer.asset(name)
        asked = set(re.findall(r"""\bw\(\s*"([a-z_]+)\"[,)]""", text))
        asked |= set(re.findall(r"""\bplural\(\s*"([a-z_]+)\"""", text))
        asked |= set(re.findall(r"""data-ui(?:-title|-aria-label)?="([a-z_]+)\"""", viewer.asset("viewer.html")))
        assert asked, name
        assert asked <= keys, f"{name} asks for {sorted(asked - keys)}"


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_ui_words_give_every_key_in_the_language(lang: str) -> None:
    words = ui_words(lang)
    assert set(words) == set(UI) | {f"{k}_{c}" for k in PLURALS for c in CATEGORIES}
    if lang == "en":
        assert words["all_steps"] == "All steps"
        assert words["steps_one"] == "{n} step" and words["steps_many"] == "{n} steps"
        return
    # the catalog's translation: never the English
    for key, msgid in UI.items():
        assert words[key] == TRANSLATIONS[msgid][lang]
        assert words[key] != msgid or (lang, msgid) in SAME
    assert words["all_steps"] != "All steps"
    for key, (one, _) in PLURALS.items():
        assert [words[f"{key}_{c}"] for c in ("one", "few", "many")] == TRANSLATIONS[one][lang]


def test_the_viewer_data_carries_the_words_of_its_language() -> None:
    data = viewer.viewer_json(load_example("shields-cap.json"), lang="pl")
    assert data["lang"] == "pl" and data["ui"] == ui_words("pl")
    assert viewer.viewer_json(load_example("shields-cap.json"))["ui"] == ui_words("en")
    text = viewer.page(data)
    assert '<html lang="pl">' in text
    assert TRANSLATIONS["{title} \u2014 Arbiter replay"]["pl"].format(title=data["title"] or ui_words("pl")["replay"]) \
        in text


def test_every_language_replays_once_and_words_the_same_steps() -> None:
    log = load_example("shields-cap.json")
    langs = viewer.viewer_json_langs(log)
    assert set(langs) == set(i18n.LANGS)
    for lang, data in langs.items():
        assert data == json.loads(json.dumps(viewer.viewer_json(log, lang=lang)))
        assert [s.get("state") for s in data["steps"]] == [s.get("state") for s in langs["en"]["steps"]]


def test_every_phase_and_step_of_each_game_has_its_words() -> None:
    """The page says a state's phase in its language (``phaseWord``): each phase and step a game's
    state takes has its word, so none shows as the engine writes it ("encounter" in a Polish page)."""
    from judge.games.relic.setup import PHASES as RELIC

    destiny = ("setup", "action", "upkeep", "over")
    swtcg = ("setup", "ready", "command", "build", "retreat", "battle", "over")  # (swtcg.setup: phases, steps)
    phases = {*destiny, *RELIC, *swtcg}
    missing = sorted(p for p in phases if f"phase_{p}" not in UI)
    assert missing == []
