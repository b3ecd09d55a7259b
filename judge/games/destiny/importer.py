"""Import a user's copy of the SWDestinyDB card data into CardDefs.

Takes the files of a directory laid out like the ``swdestinydb-json-data`` repository
(``sets.json``, ``set/*.json``, optionally ``starterPacks.json``: the patterns in ``FILES``),
already read by the caller: ``import_files({"sets.json": b"...", "set/LEG.json": b"..."})``. The
command line does the reading (python-chess style: the caller opens the file); this module reads
no files. Nothing here raises for bad card data:
problems are collected as ``ImportProblem`` values naming the file, card and field, and the
caller decides what to do (python-chess style: the builder collects errors).

Imported cards carry stats, dice and the three keywords the engine knows (Ambush, Guardian,
Redeploy), stored under the lowercase names the engine and the card scripts test for ("ambush",
"guardian", "redeploy"). Any other rules text makes the card ``implemented=False`` with that text
(HTML stripped) in ``unimplemented``, so a ruling that meets the card can say the engine does not
apply it.

The project's own card JSON (``card_to_json`` / ``card_from_json``) is what ``arbiter cards
import`` writes: ``{"format": "arbiter-cards/1", "sets": [...], "cards": [...]}``.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from judge.games.destiny.dice import FaceError, parse_face
from judge.games.destiny.model import AFFILIATIONS, CardDef, CardPool, CardType

FORMAT = "arbiter-cards/1"
# The files of a SWDestinyDB data folder that ``import_files`` reads (glob patterns, relative).
FILES = ("sets.json", "set/*.json", "starterPacks.json")
# Keyword as printed on SWDestinyDB cards -> the name the engine tests for in CardDef.keywords.
KEYWORDS: dict[str, str] = {"Ambush": "ambush", "Guardian": "guardian", "Redeploy": "redeploy"}
_TAG = re.compile(r"<[^>]+>")
# SWDestinyDB writes a variable (X) value as 0: "0RD", "+0MD", "0Sh1".
_ZERO_IS_X = re.compile(r"^(\+?)0(MD|RD|ID|Sh|R|Dr|Dc|F|\*)(\d*)$")
# Types the engine's CardType does not have yet, imported as the nearest type with a note.
TYPE_STANDINS: dict[str, tuple[CardType, str]] = {
    "downgrade": (
        CardType.UPGRADE,
        "Downgrade: attaches to an opponent's character (imported as an upgrade).",
    ),
}
_CODE = re.compile(r"^(?P<set>\d+?)(?P<number>\d{3})(?P<variant>[A-Z]?)$")


@dataclass(frozen=True)
class ImportProblem:
    """One problem with the data: ``where`` is e.g. ``set/LEG.json[8] 05098 sides[1]``."""

    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


@dataclass(frozen=True)
class SetInfo:
    code: str
    name: str
    position: int


@dataclass
class ImportResult:
    cards: list[CardDef] = field(default_factory=list)
    sets: list[SetInfo] = field(default_factory=list)
    starter_packs: list[dict[str, Any]] = field(default_factory=list)
    errors: list[ImportProblem] = field(default_factory=list)

    def pool(self) -> CardPool:
        pool = CardPool()
        for card in self.cards:
            pool.add(card, replace=True)
        return pool


def strip_html(text: str) -> str:
    return html.unescape(_TAG.sub("", text)).strip()


def swdb_face(text: str) -> str:
    """SWDestinyDB side notation to ours: a 0 value on a valued symbol means X."""
    m = _ZERO_IS_X.match(text.strip()) if isinstance(text, str) else None
    return f"{m.group(1)}X{m.group(2)}{m.group(3)}" if m else text


def parse_points(raw: object) -> tuple[int, ...]:
    """``"11/14"`` -> (11, 14); ``"9"`` -> (9,); raises ValueError otherwise."""
    if isinstance(raw, int) and not isinstance(raw, bool):
        return (raw,)
    if not isinstance(raw, str) or not raw.strip():
        raise ValueError(f"points {raw!r} are not like '9' or '11/14'")
    try:
        return tuple(int(p) for p in raw.split("/"))
    except ValueError:
        raise ValueError(f"points {raw!r} are not like '9' or '11/14'") from None


def split_text(text: str) -> tuple[frozenset[str], str]:
    """Keywords (engine names) from keyword-only lines, and the remaining rules text (HTML stripped)."""
    keywords: set[str] = set()
    rest: list[str] = []
    for raw_line in re.split(r"\n|<br\s*/?>", text or ""):
        line = strip_html(raw_line)
        if not line:
            continue
        words = [w.strip() for w in re.split(r"[.,]", line) if w.strip()]
        if words and all(w in KEYWORDS for w in words):
            keywords.update(KEYWORDS[w] for w in words)
        else:
            rest.append(line)
    return frozenset(keywords), "\n".join(rest)


def _int_or_none(raw: object, name: str, where: str, errors: list[ImportProblem]) -> int | None:
    if raw is None:
        return None
    if isinstance(raw, int) and not isinstance(raw, bool):
        return raw
    errors.append(ImportProblem(f"{where} {name}", f"{name} {raw!r} is not a whole number"))
    return None


def card_from_swdb(raw: Mapping[str, Any], where: str) -> tuple[CardDef | None, list[ImportProblem]]:
    """One SWDestinyDB card record to a CardDef; None when the record is unusable."""
    errors: list[ImportProblem] = []
    code, name = raw.get("code"), raw.get("name")
    if not isinstance(code, str) or not isinstance(name, str):
        return None, [ImportProblem(where, "card without a code or name")]
    where = f"{where} {code}"
    type_code = raw.get("type_code")
    notes: list[str] = []
    if type_code in TYPE_STANDINS:
        ctype, note = TYPE_STANDINS[type_code]
        notes.append(note)
    else:
        try:
            ctype = CardType(str(type_code))
        except ValueError:
            # the five card types, plus plots (destiny.cards.types, destiny.deckbuilding.plot)
            return None, [ImportProblem(where, f"unknown type_code {type_code!r}: a card is a battlefield, "
                                        "character, event, upgrade, support or plot")]
    affiliation = str(raw.get("affiliation_code") or "neutral")
    if affiliation not in AFFILIATIONS:  # destiny.cards.affiliation
        return None, [ImportProblem(f"{where} affiliation_code", f"unknown affiliation_code {affiliation!r}: "
                                    f"a card is {', '.join(AFFILIATIONS[:-1])} or {AFFILIATIONS[-1]}")]

    points: tuple[int, ...] = ()
    if raw.get("points") not in (None, ""):
        try:
            points = parse_points(raw["points"])
        except ValueError as exc:
            errors.append(ImportProblem(f"{where} points", str(exc)))
    elif ctype is CardType.CHARACTER:
        errors.append(ImportProblem(f"{where} points", "a character needs points"))

    faces = []
    sides = raw.get("sides") or []
    bad_faces = []
    if sides and len(sides) != 6:
        errors.append(ImportProblem(f"{where} sides", f"a die has 6 sides, got {len(sides)}"))
        bad_faces.append("sides")
    for i, side in enumerate(sides):
        try:
            faces.append(parse_face(swdb_face(side)))
        except FaceError as exc:
            errors.append(ImportProblem(f"{where} sides[{i}]", f"{name}: side {i + 1}: {exc}"))
            bad_faces.append(repr(side))

    keywords, rest = split_text(raw.get("text") or "")
    unimplemented = "\n".join([*notes, rest]) if rest else "\n".join(notes)
    if bad_faces:
        faces = []
        note = f"die not usable: unreadable side(s) {', '.join(bad_faces)}"
        unimplemented = f"{unimplemented}\n{note}" if unimplemented else note

    subtypes = raw.get("subtypes")
    if subtypes is None:
        subtypes = [raw["subtype_code"]] if raw.get("subtype_code") else []
    subtitle = raw.get("subtitle") or None
    card = CardDef(
        code=code,
        name=name,
        type=ctype,
        affiliation=affiliation,
        color=str(raw.get("faction_code") or "gray"),
        subtitle=subtitle,
        unique=bool(raw.get("is_unique")),
        cost=_int_or_none(raw.get("cost"), "cost", where, errors),
        points=points,
        health=_int_or_none(raw.get("health"), "health", where, errors),
        faces=tuple(faces),
        subtypes=tuple(str(s) for s in subtypes),
        keywords=keywords,
        set_code=str(raw.get("set_code") or ""),
        implemented=not unimplemented,
        unimplemented=unimplemented,
    )
    return card, errors


def _parse_json(raw: bytes | str, where: str, errors: list[ImportProblem]) -> Any:
    try:
        return json.loads(raw.decode("utf-8") if isinstance(raw, bytes) else raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        errors.append(ImportProblem(where, f"cannot read: {exc}"))
        return None


def _is_set_file(name: str) -> bool:
    return name.startswith("set/") and name.endswith(".json") and "/" not in name[len("set/"):]


def import_files(files: Mapping[str, bytes | str]) -> ImportResult:
    """Import a SWDestinyDB data folder already read: ``files`` maps a path relative to the folder
    (``"sets.json"``, ``"set/LEG.json"``, ``"starterPacks.json"``) to its content. ``sets.json``
    and at least one ``set/*.json`` are required; other paths are ignored."""
    result = ImportResult()
    if "sets.json" in files:
        sets_raw = _parse_json(files["sets.json"], "sets.json", result.errors)
    else:
        sets_raw = None
        result.errors.append(ImportProblem("sets.json", "no sets.json in the card data"))
    for i, s in enumerate(sets_raw if isinstance(sets_raw, list) else []):
        try:
            result.sets.append(SetInfo(code=str(s["code"]), name=str(s["name"]), position=int(s["position"])))
        except (KeyError, TypeError, ValueError):
            result.errors.append(ImportProblem(f"sets.json[{i}]", "set without code, name and position"))
    set_files = sorted(name for name in files if _is_set_file(name))
    if not set_files:
        result.errors.append(ImportProblem("set/", "no set files found"))
    seen: dict[str, str] = {}
    for rel in set_files:
        records = _parse_json(files[rel], rel, result.errors)
        if records is None:
            continue
        if not isinstance(records, list):
            result.errors.append(ImportProblem(rel, "expected a list of cards"))
            continue
        for i, raw in enumerate(records):
            where = f"{rel}[{i}]"
            if not isinstance(raw, dict):
                result.errors.append(ImportProblem(where, "a card is a JSON object"))
                continue
            card, problems = card_from_swdb(raw, where)
            result.errors.extend(problems)
            if card is None:
                continue
            if card.code in seen:
                result.errors.append(
                    ImportProblem(where, f"card {card.code} already defined in {seen[card.code]}")
                )
                continue
            seen[card.code] = where
            result.cards.append(card)
    if "starterPacks.json" in files:
        packs = _parse_json(files["starterPacks.json"], "starterPacks.json", result.errors)
        if isinstance(packs, list):
            result.starter_packs = [p for p in packs if isinstance(p, dict)]
    return result


# --- the project's own card JSON -------------------------------------------------------------


def card_to_json(card: CardDef) -> dict[str, Any]:
    out: dict[str, Any] = {
        "code": card.code,
        "name": card.name,
        "type": card.type.value,
        "affiliation": card.affiliation,
        "color": card.color,
        "unique": card.unique,
    }
    if card.subtitle:
        out["subtitle"] = card.subtitle
    if card.cost is not None:
        out["cost"] = card.cost
    if card.points:
        out["points"] = list(card.points)
    if card.health is not None:
        out["health"] = card.health
    if card.faces:
        out["faces"] = [f.notation() for f in card.faces]
    if card.subtypes:
        out["subtypes"] = list(card.subtypes)
    if card.keywords:
        out["keywords"] = sorted(card.keywords)
    out["set"] = card.set_code
    out["implemented"] = card.implemented
    if card.unimplemented:
        out["unimplemented"] = card.unimplemented
    return out


def card_from_json(data: Mapping[str, Any]) -> CardDef:
    """Inverse of ``card_to_json``; raises ValueError/KeyError on malformed data."""
    return CardDef(
        code=str(data["code"]),
        name=str(data["name"]),
        type=CardType(data["type"]),
        affiliation=str(data.get("affiliation", "neutral")),
        color=str(data.get("color", "gray")),
        subtitle=data.get("subtitle"),
        unique=bool(data.get("unique", False)),
        cost=data.get("cost"),
        points=tuple(int(p) for p in data.get("points", ())),
        health=data.get("health"),
        faces=tuple(parse_face(f) for f in data.get("faces", ())),
        subtypes=tuple(data.get("subtypes", ())),
        # lowercase: files written before the importer stored engine names say "Guardian"
        keywords=frozenset(str(k).lower() for k in data.get("keywords", ())),
        set_code=str(data.get("set", "")),
        implemented=bool(data.get("implemented", True)),
        unimplemented=str(data.get("unimplemented", "")),
    )


def set_to_json(info: SetInfo) -> dict[str, Any]:
    return {"code": info.code, "name": info.name, "position": info.position}


def dump(cards: Iterable[CardDef], sets: Iterable[SetInfo] = ()) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "sets": [set_to_json(s) for s in sets],
        "cards": [card_to_json(c) for c in cards],
    }


def load(data: Mapping[str, Any]) -> tuple[CardPool, list[SetInfo]]:
    """Read what ``dump`` wrote."""
    if data.get("format") != FORMAT:
        raise ValueError(f"not an {FORMAT} card file (format={data.get('format')!r})")
    pool = CardPool()
    for entry in data.get("cards", []):
        pool.add(card_from_json(entry), replace=True)
    sets = [SetInfo(str(s["code"]), str(s["name"]), int(s["position"])) for s in data.get("sets", [])]
    return pool, sets


def card_number(code: str) -> tuple[int, int] | None:
    """``"05031"`` -> (5, 31): set position and number within the set."""
    m = _CODE.match(code)
    return (int(m.group("set")), int(m.group("number"))) if m else None
