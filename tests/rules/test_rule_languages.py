"""The rule index in three languages (issue 16): every rule ID has a one-line summary in English,
Polish and Russian, and every seed-sourced rule names the seed's section headings verbatim, so a
judge can find the place in the original document they hold."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from judge.rules import index

ROOT = Path(__file__).resolve().parents[2]
CYRILLIC = re.compile(r"[\u0400-\u04ff]")
POLISH_LETTERS = re.compile(r"[ąćęłńóśźżĄĆĘŁŃÓŚŹŻ]")


def _seeds_dir() -> Path:
    for parent in ROOT.parents:
        if (parent / "shared" / "seeds").is_dir():
            return parent / "shared" / "seeds"
    return ROOT / ".." / "shared" / "seeds"


def _seeds() -> dict[str, str]:
    folder = _seeds_dir()
    found = {p.name[:3]: p.read_text(encoding="utf-8") for p in folder.glob("*.txt")}
    if not found:
        pytest.fail(f"the seed documents are missing: no *.txt in {folder.resolve()} (shared/seeds beside the repo)")
    return found


def language_faults(rules: list[index.Rule], seeds: dict[str, str]) -> list[str]:
    """Every way the rules fall short of the three-language index: a missing or untranslated
    summary, a seed-sourced rule without headings, a heading not found verbatim in its seed."""
    faults = []
    for rule in rules:
        summaries = rule.summaries()
        for lang in ("pl", "ru"):
            text = summaries.get(lang, "")
            if not text.strip():
                faults.append(f"{rule.id}: no {lang} summary")
            elif text == rule.summary:
                faults.append(f"{rule.id}: the {lang} summary is the English one")
        if summaries.get("ru") and not CYRILLIC.search(summaries["ru"]):
            faults.append(f"{rule.id}: the ru summary is not in Cyrillic")
        if summaries.get("pl") and CYRILLIC.search(summaries["pl"]):
            faults.append(f"{rule.id}: the pl summary is in Cyrillic")
        if re.match(r"\d{3} ", rule.source) and not rule.headings:
            faults.append(f"{rule.id}: source {rule.source!r} names a seed but the rule lists no headings")
        for h in rule.headings:
            if h.seed not in seeds:
                faults.append(f"{rule.id}: no seed {h.seed}")
            elif not h.heading.strip() or h.heading not in seeds[h.seed]:
                faults.append(f"{rule.id}: heading {h.heading!r} is not in seed {h.seed} verbatim")
    return faults


def test_every_rule_has_three_languages_and_verbatim_headings():
    faults = language_faults(index.rules(), _seeds())
    assert not faults, f"{len(faults)} faults, e.g.:\n" + "\n".join(faults[:15])


def test_the_check_finds_each_kind_of_fault():
    seeds = {"000": "Złota zasada\nKarty"}
    good = index.Rule("x.a", "x", "", "Card text wins.", '000 "Złota zasada"',
                      translations=(("pl", "Tekst karty wygrywa."), ("ru", "Текст карты важнее.")),
                      headings=(index.Heading("000", "Złota zasada"),))
    assert language_faults([good], seeds) == []
    no_ru = index.Rule("x.b", "x", "", "A.", "reference x", translations=(("pl", "Ą."),))
    assert language_faults([no_ru], seeds) == ["x.b: no ru summary"]
    latin_ru = index.Rule("x.c", "x", "", "A.", "project", translations=(("pl", "B."), ("ru", "C.")))
    assert language_faults([latin_ru], seeds) == ["x.c: the ru summary is not in Cyrillic"]
    english = index.Rule("x.d", "x", "", "A.", "project", translations=(("pl", "A."), ("ru", "Б.")))
    assert language_faults([english], seeds) == ["x.d: the pl summary is the English one"]
    no_heading = index.Rule("x.e", "x", "", "A.", '000 "Karty"', translations=(("pl", "B."), ("ru", "Б.")))
    assert language_faults([no_heading], seeds) == [
        "x.e: source '000 \"Karty\"' names a seed but the rule lists no headings"]
    paraphrase = index.Rule("x.f", "x", "", "A.", '000 "Zlota zasada"', translations=(("pl", "B."), ("ru", "Б.")),
                            headings=(index.Heading("000", "Zlota zasada"),))
    assert language_faults([paraphrase], seeds) == ["x.f: heading 'Zlota zasada' is not in seed 000 verbatim"]


@pytest.mark.parametrize("lang", ["pl", "ru"])
def test_summary_in_falls_back_to_english(lang):
    rule = index.Rule("x.a", "x", "", "English only.", "project")
    assert rule.summary_in(lang) == "English only."
    assert rule.to_json(lang)["summary"] == "English only."
