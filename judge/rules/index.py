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
DATA_FILES = (*GAMES, "extra")
APPLIED = "applied"
NOT_APPLICABLE = "not-applicable"
STATUSES = (APPLIED, NOT_APPLICABLE)
# Modules that keep their own ``{rule_id: summary}`` registry (one source of truth there).
PROVIDERS = ("judge.tournament.rules:RULES",)


class UnknownRule(KeyError):
    """A rule ID the index does not know."""


@dataclass(frozen=True)
class Rule:
    id: str
    game: str
    section: str
    summary: str
    source: str
    status: str = APPLIED
    reason: str = ""

    @property
    def applicable(self) -> bool:
        return self.status != NOT_APPLICABLE

    def to_json(self) -> dict[str, str]:
        out = {
            "id": self.id,
            "game": self.game,
            "section": self.section,
            "summary": self.summary,
            "source": self.source,
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
    )


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
    for provider in PROVIDERS:
        module_name, attr = provider.split(":")
        registry = getattr(importlib.import_module(module_name), attr)
        for rule_id, text in registry.items():
            if rule_id in index:
                raise ValueError(f"{provider}: rule {rule_id} is also defined in the rule data files")
            index[rule_id] = Rule(rule_id, game_of(rule_id), "", text, provider)
    return index


def get(rule_id: str) -> Rule:
    try:
        return _index()[rule_id]
    except KeyError:
        raise UnknownRule(rule_id) from None


def summary(rule_id: str) -> str:
    return get(rule_id).summary


def is_known(rule_id: str) -> bool:
    return rule_id in _index()


def ids(game: str | None = None) -> list[str]:
    """All IDs in index order (digest order, then extras), optionally for one game."""
    return [r for r in _index() if game is None or game_of(r) == game]


def rules(game: str | None = None) -> list[Rule]:
    return [get(r) for r in ids(game)]
