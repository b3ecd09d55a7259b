"""Every event kind has one class and one shape, and docs/events.md documents each (issue 10).

The shape test replays the golden corpus and the example logs (tests/replays/golden.py) and runs in
the compiled build too; the tests that read the record classes' docstrings and annotations need the
pure-Python modules and are skipped in the compiled build (tests/replays/event_schema.py).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from judge.games.destiny.cards import default_pool
from judge.kernel.core import Record
from judge.rules import index
from replays.format import parse_log
from replays.replayer import replay
from tests.replays import event_schema as schema
from tests.replays import golden

CLASSES = schema.record_classes()
BY_KIND = {cls.kind: cls for cls in CLASSES}
needs_source = pytest.mark.skipif(not schema.available(), reason="reads docstrings and annotations of the "
                                  "pure-Python record classes")


class _Events:
    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []

    def begin(self, log: Any, setup: Any) -> None:
        self.events += setup.events

    def visit_step(self, record: Any) -> None:
        self.events += record.events

    def end(self, result: Any) -> None:
        pass


def corpus_events() -> Iterator[tuple[str, dict[str, Any]]]:
    """(log name, event) for every event of every log of the golden corpus and the examples, with
    the events a ``replaced`` record holds."""
    pool = default_pool()
    for name, log in golden.corpus():
        seen = _Events()
        replay(parse_log(log, pool), pool, visitors=(seen,))
        for e in seen.events:
            yield name, e


EVENTS = list(corpus_events())


def test_every_kind_has_one_class_named_after_it() -> None:
    assert len(BY_KIND) == len(CLASSES), "two record classes write the same kind"
    for cls in CLASSES:
        assert cls.__name__ == schema.class_name(cls.kind), cls


def test_every_event_of_a_kind_has_the_same_keys() -> None:
    """Optional keys aside (each class names its own), all events of a kind have the same keys, and
    every kind written is a record class's."""
    shapes: dict[str, set[tuple[str, ...]]] = {}
    where: dict[tuple[str, tuple[str, ...]], str] = {}
    for name, e in EVENTS:
        kind = e["event"]
        assert kind in BY_KIND, f"{name}: no record class writes {kind!r}"
        keys = tuple(k for k in e if k not in BY_KIND[kind].optional)
        shapes.setdefault(kind, set()).add(keys)
        where.setdefault((kind, keys), name)
    assert len(shapes) > 30  # the corpus is no toy: most kinds are seen
    for kind, found in shapes.items():
        assert len(found) == 1, f"{kind} has {len(found)} shapes: " + "; ".join(
            f"{list(keys)} ({where[kind, keys]})" for keys in sorted(found))


def test_events_written_are_json_in_their_key_order() -> None:
    for _name, e in EVENTS:
        assert list(e)[0] == "event"
        if "rules" in e:
            assert list(e)[-1] == "rules" and all(isinstance(r, str) for r in e["rules"])
        assert json.loads(json.dumps(e)) == e


def test_rules_cited_are_those_the_record_class_documents() -> None:
    """A kind without ``cites_also`` cites only the rules its class lists (the doc's "Rules")."""
    for name, e in EVENTS:
        cls = BY_KIND[e["event"]]
        if not cls.cites_also:
            assert set(e.get("rules", ())) <= set(schema.cited(cls)), f"{name}: {e}"


def test_the_rules_cited_are_known() -> None:
    for cls in CLASSES:
        for rule in cls.cites:
            if cls.__module__ == "judge.kernel.core":
                assert hasattr(schema.TIMING_RULES, rule), (cls, rule)
            else:
                assert index.is_known(rule), (cls, rule)


@needs_source
@pytest.mark.parametrize("cls", CLASSES, ids=[c.kind for c in CLASSES])
def test_a_record_writes_the_keys_it_documents(cls: type[Record]) -> None:
    """With every field set, a record writes ``event``, then each documented key in order, then
    ``rules``; with the optional ones empty, it leaves out exactly the keys it calls optional."""
    k = schema.describe(cls)
    summary, meanings = schema.docstring(cls)
    assert summary, f"{cls.__name__} has no docstring"
    assert list(meanings) == [key.name for key in k.keys], f"{cls.__name__}: document each key once, in order"
    assert all(key.meaning for key in k.keys)
    full = schema.instance(cls, full=True).to_json()
    assert full["event"] == cls.kind
    assert list(full) == ["event", *(key.name for key in k.keys), *(["rules"] if k.writes_rules else [])]
    assert set(cls.optional) <= set(full), f"{cls.__name__}.optional names a key it never writes"
    least = schema.instance(cls, full=False).to_json()
    assert list(least) == [key for key in full if key not in cls.optional]
    assert json.loads(json.dumps(full)) == full
    for key in k.keys:
        schema.json_type(key.annotation, key.optional)  # every type has a JSON name


@needs_source
def test_a_performed_event_is_written_as_the_event_writes_itself() -> None:
    """A performed event's record writes each of its event's fields as ``Event.to_json`` would."""
    for k in schema.kinds():
        if k.event is None:
            continue
        for full in (True, False):
            rec = schema.instance(k.cls, full)
            own = rec.event.to_json()  # type: ignore[attr-defined]
            written = rec.to_json()
            assert {key: written[key] for key in own} == own, k.kind


@needs_source
def test_the_doc_lists_every_kind_and_key() -> None:
    assert schema.current_doc() == schema.generated(), (
        "docs/events.md is out of date: run .venv/bin/python -m tests.replays.event_schema")
    text = schema.DOC.read_text(encoding="utf-8")
    for k in schema.kinds():
        assert f"### `{k.kind}`" in text
        for key in k.keys:
            assert f"| `{key.name}` |" in text
