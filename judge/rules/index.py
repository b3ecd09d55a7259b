"""The project's rule index: every rule ID of the digests, with a one-line summary in our own words.

Data lives beside this module: ``destiny.json``, ``swtcg.json`` and ``relic.json`` (one entry per
``###`` heading of the digests, with the seed section each comes from) and ``extra.json`` for IDs
the project defines itself (``destiny.reference.*``...); modules listed in ``PROVIDERS`` keep their
own ``{id: summary}`` registries (``judge.tournament.rules.RULES`` for ``tournament.*``). Every ID carries a
status for the coverage report: ``applied`` (default) or ``not-applicable`` with a reason.

The one read in ``judge/`` (the core otherwise reads no files, STYLE.md section 1): the data files
are package data, shipped inside ``judge.rules`` and loaded once through ``importlib.resources``
(which also works from a wheel or a zip). They are part of the core's code in all but syntax --
fixed at install, never chosen by a caller, never user input -- like a table compiled into the
module. Moving the load to the shell would make every user of a rule ID (the engine's events, the
rulings, the coverage report) take an index as an argument, for no gain in purity. User input (a
log, card data, test files) is read by the shell and passed in.
"""

from __future__ import annotations

import importlib
import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

GAMES = ("destiny", "swtcg", "relic")
LANGS = ("en", "pl", "ru")  # the summaries' languages (i18n.LANGS; English is the fallback)
# Polish and Russian summaries of the IDs that modules in PROVIDERS define (tournament.*).
PROVIDER_TRANSLATIONS = "tournament_i18n"
DATA_FILES = (*GAMES, "extra")
APPLIED = "applied"
NOT_APPLICABLE = "not-applicable"
STATUSES = (APPLIED, NOT_APPLICABLE)
# Modules that keep their own ``{rule_id: summary}`` registry (one source of truth there).
PROVIDERS = ("judge.tournament.rules:RULES",)


class UnknownRule(KeyError):
    """A rule ID the index does not know."""


@dataclass(frozen=True)
class Heading:
    """A section heading of a seed document, exactly as printed there, so that a judge can open the
    original at the right place (``seed``: the file's number, e.g. ``"000"``)."""

    seed: str
    heading: str

    def to_json(self) -> dict[str, str]:
        return {"seed": self.seed, "heading": self.heading}


@dataclass(frozen=True)
class Rule:
    id: str
    game: str
    section: str
    summary: str
    source: str
    status: str = APPLIED
    reason: str = ""
    # The summary in the other languages, (lang, text) pairs; a missing language reads English.
    translations: tuple[tuple[str, str], ...] = ()
    headings: tuple[Heading, ...] = ()

    @property
    def applicable(self) -> bool:
        return self.status != NOT_APPLICABLE

    def summary_in(self, lang: str | None = "en") -> str:
        """The one-line summary in ``lang`` (``en``, ``pl``, ``ru``); English when there is none."""
        for code, text in self.translations:
            if code == lang:
                return text
        return self.summary

    def summaries(self) -> dict[str, str]:
        return {"en": self.summary, **dict(self.translations)}

    def to_json(self, lang: str | None = "en") -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "game": self.game,
            "section": self.section,
            "summary": self.summary_in(lang),
            "summaries": self.summaries(),
            "source": self.source,
            "headings": [h.to_json() for h in self.headings],
            "status": self.status,
        }
        if self.reason:
            out["reason"] = self.reason
        return out


def game_of(rule_id: str) -> str:
    return rule_id.split(".", 1)[0]


def _rule_from_entry(entry: dict[str, Any], where: str) -> Rule:
    for key in ("id", "summary"):
        if not isinstance(entry.get(key), str) or not entry[key]:
            raise ValueError(f"{where}: rule entry without {key!r}: {entry!r}")
    status = entry.get("status", APPLIED)
    if status not in STATUSES:
        raise ValueError(f"{where}: {entry['id']}: unknown status {status!r}")
    reason = entry.get("reason", "")
    if status == NOT_APPLICABLE and not reason:
        raise ValueError(f"{where}: {entry['id']}: not-applicable needs a reason")
    return Rule(
        id=entry["id"],
        game=game_of(entry["id"]),
        section=entry.get("section", ""),
        summary=entry["summary"],
        source=entry.get("source", ""),
        status=status,
        reason=reason,
        translations=_translations(entry, where),
        headings=_headings(entry, where),
    )


def _translations(entry: dict[str, Any], where: str) -> tuple[tuple[str, str], ...]:
    out = []
    for lang in LANGS[1:]:
        text = entry.get(f"summary_{lang}")
        if text is None:
            continue
        if not isinstance(text, str) or not text.strip():
            raise ValueError(f"{where}: {entry.get('id')}: summary_{lang} must be a non-empty string")
        out.append((lang, text))
    return tuple(out)


def _headings(entry: dict[str, Any], where: str) -> tuple[Heading, ...]:
    raw = entry.get("headings", [])
    if not isinstance(raw, list):
        raise ValueError(f"{where}: {entry.get('id')}: headings must be a list")
    out = []
    for h in raw:
        if not (isinstance(h, dict) and isinstance(h.get("seed"), str) and isinstance(h.get("heading"), str)):
            raise ValueError(f"{where}: {entry.get('id')}: a heading is {{\"seed\": ..., \"heading\": ...}}")
        out.append(Heading(h["seed"], h["heading"]))
    return tuple(out)


def load_entries(text: str, where: str) -> list[Rule]:
    """Parse one data file's text (``{"rules": [...]}``)."""
    data = json.loads(text)
    return [_rule_from_entry(e, where) for e in data.get("rules", [])]


@lru_cache(maxsize=1)
def _index() -> dict[str, Rule]:
    index: dict[str, Rule] = {}
    package = resources.files("judge.rules")
    for name in DATA_FILES:
        where = f"judge/rules/{name}.json"
        for rule in load_entries((package / f"{name}.json").read_text(encoding="utf-8"), where):
            if rule.id in index:
                raise ValueError(f"{where}: rule {rule.id} defined twice")
            index[rule.id] = rule
    extra = package / f"{PROVIDER_TRANSLATIONS}.json"
    translated: dict[str, Any] = {}
    if extra.is_file():
        translated = json.loads(extra.read_text(encoding="utf-8")).get("rules", {})
    for provider in PROVIDERS:
        module_name, attr = provider.split(":")
        registry = getattr(importlib.import_module(module_name), attr)
        for rule_id, text in registry.items():
            if rule_id in index:
                raise ValueError(f"{provider}: rule {rule_id} is also defined in the rule data files")
            where = f"judge/rules/{PROVIDER_TRANSLATIONS}.json"
            index[rule_id] = Rule(rule_id, game_of(rule_id), "", text, provider,
                                  translations=_translations({"id": rule_id, **translated.get(rule_id, {})}, where))
    return index


def get(rule_id: str) -> Rule:
    try:
        return _index()[rule_id]
    except KeyError:
        raise UnknownRule(rule_id) from None


def summary(rule_id: str, lang: str | None = "en") -> str:
    return get(rule_id).summary_in(lang)


def is_known(rule_id: str) -> bool:
    return rule_id in _index()


def ids(game: str | None = None) -> list[str]:
    """All IDs in index order (digest order, then extras), optionally for one game."""
    return [r for r in _index() if game is None or game_of(r) == game]


def rules(game: str | None = None) -> list[Rule]:
    return [get(r) for r in ids(game)]
