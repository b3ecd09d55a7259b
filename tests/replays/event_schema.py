"""The schema of the events in rulings and timelines, read from the record classes, and the table of
docs/events.md written from it (tests/replays/test_event_schema.py checks that the file is current).

    .venv/bin/python -m tests.replays.event_schema     # write the generated part of docs/events.md again

Every record class (``judge.kernel.core.Record``: the kernel's own, and Destiny's in
``judge.games.destiny.records``) gives its kind, its JSON keys in order with their types (from
``__init__``'s annotations; a performed event's fields from its event dataclass), which keys are
optional, the rules it cites (``cites``, ``cites_also``) and, in its docstring, its meaning and one
``key: meaning`` line per key. Introspection needs the pure-Python modules (mypyc keeps neither
docstrings nor annotations): ``available()`` says whether they are.
"""

from __future__ import annotations

import inspect
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from judge.games.destiny import events as ev
from judge.games.destiny import records
from judge.games.destiny.engine import TIMING_RULES
from judge.kernel import core
from judge.kernel.core import Event, Record

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "events.md"
BEGIN = "<!-- BEGIN GENERATED: .venv/bin/python -m tests.replays.event_schema -->"
END = "<!-- END GENERATED -->"
KEY_LINE = re.compile(r"^([a-z_]+): (.+)$")


@dataclass(frozen=True)
class Key:
    name: str  # the JSON key
    annotation: str  # its Python type, as written in the source
    optional: bool  # left out when it does not apply
    meaning: str
    from_event: bool  # a field of the performed event


@dataclass(frozen=True)
class Kind:
    kind: str
    cls: type[Record]
    event: type[Event] | None  # the event a performed-event record holds
    summary: str
    keys: tuple[Key, ...]
    writes_rules: bool
    cites: tuple[str, ...]  # rule IDs (a kernel record's resolved through Destiny's TimingRules)
    cites_also: str


def record_classes() -> list[type[Record]]:
    """Every record class: the kernel's, then Destiny's, in the order of their source (bases whose
    name starts with ``_`` share code between kinds and are no kind themselves)."""
    out: list[type[Record]] = []
    for module in (core, records):
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, Record) and value is not Record \
                    and value.__module__ == module.__name__ and not value.__name__.startswith("_"):
                out.append(value)
    return out


def available() -> bool:
    """The record classes are pure Python here (the compiled build keeps no docstrings or annotations)."""
    return all(str(m.__file__).endswith(".py") for m in (core, records))


def class_name(kind: str) -> str:
    """The class of a kind: ``x-value`` -> ``XValueRecord``."""
    return "".join(part.capitalize() for part in kind.split("-")) + "Record"


def params(cls: type) -> list[tuple[str, str]]:
    """(name, annotation) of ``cls.__init__``'s parameters, in order."""
    sig = inspect.signature(cls.__init__)  # type: ignore[misc]
    out = []
    for name, p in sig.parameters.items():
        if name == "self":
            continue
        assert isinstance(p.annotation, str), (cls, name)
        out.append((name, p.annotation))
    return out


def event_class(annotation: str) -> type[Event] | None:
    if annotation.startswith("ev."):
        found = getattr(ev, annotation[3:])
        assert isinstance(found, type) and issubclass(found, Event)
        return found
    return None


def docstring(cls: type) -> tuple[str, dict[str, str]]:
    """The summary (first paragraph) and the ``key: meaning`` lines of a class's docstring."""
    text = inspect.cleandoc(cls.__doc__ or "")
    head, _, rest = text.partition("\n\n")
    meanings: dict[str, str] = {}
    last: str | None = None
    for line in rest.splitlines():
        m = KEY_LINE.match(line)
        if m:
            last = m.group(1)
            meanings[last] = m.group(2)
        elif line.strip() and last is not None:
            meanings[last] += " " + line.strip()
    return " ".join(head.split()), meanings


def describe(cls: type[Record]) -> Kind:
    summary, meanings = docstring(cls)
    keys: list[Key] = []
    event: type[Event] | None = None
    writes_rules = False
    for name, annotation in params(cls):
        found = event_class(annotation)
        if found is not None and name == "event":
            event = found
            for key, annotation_ in params(found):
                keys.append(Key(key, annotation_, key in cls.optional, meanings.get(key, ""), True))
            continue
        if name == "rules":
            writes_rules = True
            continue
        key = name.rstrip("_")
        keys.append(Key(key, annotation, key in cls.optional, meanings.get(key, ""), False))
    return Kind(cls.kind, cls, event, summary, tuple(keys), writes_rules, cited(cls), cls.cites_also)


def cited(cls: type[Record]) -> tuple[str, ...]:
    """The rule IDs a record class cites; a kernel record's through the host's TimingRules (Destiny's)."""
    if cls.__module__ == core.__name__:
        return tuple(getattr(TIMING_RULES, name) for name in cls.cites)
    return cls.cites


def kinds() -> list[Kind]:
    return [describe(cls) for cls in record_classes()]


# ---------------------------------------------------------------------- JSON types
def json_type(annotation: str, optional: bool = False) -> str:
    """A Python annotation as a JSON type: ``str | None`` is "string or null" (or, for a key left
    out when it does not apply, "string")."""
    if annotation.endswith(" | None"):
        inner = json_type(annotation[: -len(" | None")])
        return inner if optional else f"{inner} or null"
    simple = {"str": "string", "int": "integer", "bool": "boolean", "Event": "object (an event)"}
    if annotation in simple:
        return simple[annotation]
    m = re.fullmatch(r"tuple\[(.+), \.\.\.\]|list\[(.+)\]", annotation)
    if m:
        return f"array of {_plural(json_type(m.group(1) or m.group(2)))}"
    m = re.fullmatch(r"dict\[str, (.+)\]", annotation)
    if m:
        return f"object of {_plural(json_type(m.group(1)))}"
    raise ValueError(f"no JSON type for {annotation!r}")


def _plural(typ: str) -> str:
    head, sep, rest = typ.partition(" of ")
    return head + "s" + sep + rest


def sample(annotation: str, full: bool) -> Any:
    """A value of ``annotation`` for a test instance; with ``full`` False an optional one is None."""
    if annotation.endswith(" | None"):
        return sample(annotation[: -len(" | None")], full) if full else None
    values: dict[str, Any] = {"str": "x", "int": 2, "bool": full}
    if annotation in values:
        return values[annotation]
    if annotation.startswith(("tuple[", "list[")):
        return ("a",) if annotation.startswith("tuple[") else ["a"]
    m = re.fullmatch(r"dict\[str, (.+)\]", annotation)
    if m:
        return {"k": sample(m.group(1), True)}
    event = event_class(annotation) or (ev.Heal if annotation == "Event" else None)
    if event is not None:
        return event(**{name: sample(annotation_, full) for name, annotation_ in params(event)})
    raise ValueError(f"no sample for {annotation!r}")


def instance(cls: type[Record], full: bool) -> Record:
    """A record with every field set (``full``) or every optional one left empty."""
    return cls(**{name: sample(annotation, full) for name, annotation in params(cls)})


# ---------------------------------------------------------------------- the document
def _md(text: str) -> str:
    return text.replace("``", "`").replace("|", "\\|")


def _rules(k: Kind) -> str:
    cited = ", ".join(f"`{r}`" for r in k.cites)
    if k.cites_also:
        return f"{cited}; also {_md(k.cites_also)}" if cited else _md(k.cites_also)
    return cited or "none"


def _section(k: Kind) -> list[str]:
    where = "judge/kernel/core.py" if k.cls.__module__ == core.__name__ else "judge/games/destiny/records.py"
    performs = f", performing `events.{k.event.__name__}`" if k.event else ""
    out = [f"### `{k.kind}`", "", f"`{k.cls.__name__}` ({where}{performs}). {_md(k.summary)}", ""]
    if k.keys:
        out += ["| key | type | meaning |", "|---|---|---|"]
        for key in k.keys:
            typ = json_type(key.annotation, key.optional) + (", optional" if key.optional else "")
            out.append(f"| `{key.name}` | {typ} | {_md(key.meaning)} |")
        out.append("")
    out += [f"Rules: {_rules(k)}." if k.writes_rules else "Writes no `rules`.", ""]
    return out


def generated() -> str:
    """The generated part of docs/events.md."""
    all_kinds = kinds()
    groups = [
        ("Records of every game", "The timing kernel's own records, and the replayer's `position` "
         "(judge/kernel/core.py). The kernel cites the host game's rule IDs: Destiny's are shown.",
         [k for k in all_kinds if k.cls.__module__ == core.__name__]),
        ("Events performed", "The record of an event that went through the kernel and was performed: the "
         "event's fields (judge/games/destiny/events.py), then what performing it did.",
         [k for k in all_kinds if k.cls.__module__ != core.__name__ and k.event is not None]),
        ("Notes", "The engine's other records: setup, the round, actions, dice resolving, cards entering and "
         "leaving play, card effects.",
         [k for k in all_kinds if k.cls.__module__ != core.__name__ and k.event is None]),
    ]
    out = [BEGIN, "", "## Index", "", "| kind | class | keys (optional in italics) |", "|---|---|---|"]
    for _, _, group in groups:
        for k in group:
            keys = ", ".join(f"*{key.name}*" if key.optional else key.name for key in k.keys)
            out.append(f"| [`{k.kind}`](#{k.kind}) | `{k.cls.__name__}` | {keys} |")
    out.append("")
    for title, intro, group in groups:
        out += [f"## {title}", "", intro, ""]
        for k in group:
            out += _section(k)
    out.append(END)
    return "\n".join(out) + "\n"


def current_doc() -> str:
    """The generated part of docs/events.md as it is now."""
    text = DOC.read_text(encoding="utf-8")
    start, end = text.index(BEGIN), text.index(END) + len(END)
    return text[start:end] + "\n"


def write() -> None:
    text = DOC.read_text(encoding="utf-8")
    start, end = text.index(BEGIN), text.index(END) + len(END) + 1
    DOC.write_text(text[:start] + generated() + text[end:], encoding="utf-8")


if __name__ == "__main__":
    write()
    print(DOC.relative_to(ROOT))
