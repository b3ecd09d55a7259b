"""A ruling on every shared example (../shared/examples) and on the project's examples of each
game, in English, Polish and Russian: the ruling itself (every JSON field, rule ID and hash) is
the same in every language; only the words change, and in Polish and Russian they are not English."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import i18n
from replays.format import parse_log
from replays.ruling import ruling_words
from replays.viewer import EVENT_WORDS, MORE_EVENT_WORDS
from tests.helpers import SHARED as SHARED_DIR

ROOT = Path(__file__).resolve().parents[2]
SHARED = SHARED_DIR / "examples"
EXAMPLES = sorted(SHARED.glob("*.json")) + sorted((ROOT / "replays" / "examples").glob("*/*.json"))
# words that only an English sentence of the ruling has (the labels and the answers' frames)
ENGLISH = re.compile(r"\b(Legal|Not legal|No ruling|decides now|wins|enters play|leaves play|is exhausted|"
                     r"resolves|deals|damage to|the pool|the setup|passes)\b")


def _shape(value: Any) -> Any:
    """The shape of the words: keys, list lengths, kinds of values (not the text)."""
    if isinstance(value, dict):
        return {k: _shape(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_shape(v) for v in value]
    return type(value).__name__


def _texts(words: dict[str, Any]) -> list[str]:
    out = [words["step"], words["answer"], *words["events"], *words["decisions"], *words["changes"]]
    out += [r["summary"] for r in words["rules"]]
    if words["outcome"]:
        out.append(words["outcome"])
    return out


def test_there_are_examples_of_every_game() -> None:
    games = {json.loads(p.read_text())["game"] for p in EXAMPLES}
    assert {"destiny", "swtcg", "relic"} <= games, games
    assert any(p.parent == SHARED for p in EXAMPLES)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_ruling_in_each_language_differs_only_in_its_words(path: Path) -> None:
    log = parse_log(json.loads(path.read_text(encoding="utf-8")))
    by_lang = {lang: ruling_words(log, None, None, lang) for lang in i18n.LANGS}
    english = by_lang["en"]
    for lang in ("pl", "ru"):
        result = by_lang[lang]
        assert result["ruling"] == english["ruling"]  # JSON fields, rule IDs, state hash: unchanged
        assert _shape(result["words"]) == _shape(english["words"])
        assert [r["id"] for r in result["words"]["rules"]] == [r["id"] for r in english["words"]["rules"]]
        assert result["words"]["answer"] != english["words"]["answer"]
        for text in _texts(result["words"]):
            assert not ENGLISH.search(text), (lang, text)
    ru = " ".join(_texts(by_lang["ru"]["words"]))
    assert re.search("[а-яё]", ru), ru


def test_polish_words_of_a_ruling() -> None:
    log = parse_log(json.loads((SHARED / "shields-cap.json").read_text(encoding="utf-8")))
    pl = ruling_words(log, None, 1, "pl")["words"]
    assert pl["answer"] == "Zgodne z zasadami."
    assert "kość karty Luke Skywalker daje 1 osłonę: Luke Skywalker" in pl["events"]  # accusative, 1
    assert "kość 2 karty Luke Skywalker daje 0 osłon: Luke Skywalker (1 ponad limit)" in pl["events"]  # 0: many
    assert "Luke Skywalker zyskuje 1 osłonę (2 → 3)" in pl["changes"]
    ru = ruling_words(log, None, 1, "ru")["words"]
    assert ru["answer"] == "По правилам."
    assert "Luke Skywalker получает 1 щит (2 → 3)" in ru["changes"]


def test_every_event_template_keeps_its_fields_in_each_language() -> None:
    field = re.compile(r"\{([A-Za-z_]+)(?:\|[a-z]+)?\}")
    templates = [*EVENT_WORDS.items(), *((kind, t) for kind, more in MORE_EVENT_WORDS.items() for t in more)]
    for kind, template in templates:
        want = sorted(field.findall(template))
        for lang in ("pl", "ru"):
            said = i18n.text(lang).gettext(template)
            assert said != template, (lang, kind)
            assert sorted(field.findall(said)) == want, (lang, kind, said)
            assert said.count("[") == said.count("]") and said.count("[") <= template.count("["), (lang, kind)


def test_every_event_of_the_sw_tcg_and_relic_examples_is_said_in_words() -> None:
    """No event of another game's shape falls back to the plain "kind: key value" form."""
    import glob

    from replays.format import parse_log
    from replays.replayer import replay
    from replays.viewer import Names, describe_event

    class Events:
        def __init__(self) -> None:
            self.events: list[dict] = []

        def begin(self, log: object, setup: object) -> None:
            pass

        def visit_step(self, rec: object) -> None:
            self.events += [r.to_json() for r in rec.records]  # type: ignore[attr-defined]

        def end(self, result: object) -> None:
            pass

    plain: set[tuple[str, str, str]] = set()
    seen = 0
    for game in ("swtcg", "relic"):
        for path in sorted(glob.glob(str(ROOT / "replays" / "examples" / game / "*.json"))):
            log = json.loads(Path(path).read_text())
            events = Events()
            replay(parse_log(log), visitors=(events,))
            for lang in ("en", "pl", "ru"):
                names = Names(log["players"], {}, i18n.text(lang))
                for e in events.events:
                    said = describe_event(e, names)
                    seen += 1
                    if e["event"] != "phase" and said.startswith(e["event"] + ":"):
                        plain.add((game, lang, e["event"]))
    assert seen > 1000 and not plain, sorted(plain)
