"""A judge's quick position, shared by every game that offers one: a table set up by card names
and one question about it, read from JSON (a web form) or from a compact text (the command line),
written out as an ordinary replay log whose one step is the question. The members are listed in
``QuickPosition`` (``MEMBERS``); a game without them has no quick position.

Pure, like the rest of ``judge/``: text and JSON in, a log and faults (JSON Pointers) out.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterator, Sequence
from importlib import import_module
from typing import Any, ClassVar, Protocol

from i18n import N_, Msg
from judge.games.base import PLAYER, Faults
from judge.games.inputs import escape

MEMBERS = ("quick_text", "quick_log", "quick_example")
#: optional members: ``quick_form`` (true: the web page has fields for the JSON; without it, the page
#: is the compact text alone) and ``quick_help()`` (the asked step's forms, as typed, and notes on
#: naming cards as ``i18n.Msg``, shown beside the compact text; ``QuickMembers`` reads them from the
#: game's quick module) and ``quick_places(spec, cards)`` (the places of the log built of ``spec``,
#: JSON Pointers, each with the quick position's pointer it comes from: ``log_faults`` points what
#: the engine refuses in the log at them; ``QuickMembers`` asks the module's ``quick_log`` for them)
OPTIONAL = ("quick_form", "quick_help", "quick_places")


class QuickPosition(Protocol):
    def quick_text(self, text: str) -> tuple[dict[str, Any], Faults]:
        """The compact text as a quick position (JSON); faults point at ``/lines/<n>``."""
        ...

    def quick_log(self, spec: Any, cards: Any) -> tuple[dict[str, Any] | None, Faults]:
        """The replay log of a quick position (``setup.position`` and the asked step as step 1),
        or the faults found in it (JSON Pointers into ``spec``)."""
        ...

    def quick_example(self) -> str:
        """A compact text a judge can start from (the form and ``--help`` show it)."""
        ...


#: the bounds of a compact text, checked before any line is read (a request's work is bounded)
MAX_LINES = 200
MAX_TEXT = 400  # characters in a line, and in the asked step (``ask``)
FORMAT = "arbiter.replay/1"


def text_lines(text: str) -> tuple[list[tuple[str, str]], Faults]:
    """The lines of a compact text to read, each with its pointer (``/lines/<n>``, from 1), blank
    lines and ``#`` comments left out; none and the one fault when the text is out of bounds."""
    lines = text.splitlines()
    if len(lines) > MAX_LINES or any(len(line) > MAX_TEXT for line in lines):
        return [], [("/lines", Msg(N_("at most {lines} lines of at most {n} characters"), lines=MAX_LINES,
                                   n=MAX_TEXT))]
    return [(f"/lines/{n}", line) for n, raw in enumerate(lines, 1)
            if (line := raw.strip()) and not line.startswith("#")], []


def text_faults(read: Callable[[str], tuple[dict[str, Any], Faults]], text: str, faults: Faults) -> Faults:
    """The faults ``quick_log`` found in the quick position that ``read`` (the game's ``quick_text``)
    made of ``text``, each pointed at the line it comes from (``/lines/<n>``) where one can be told.
    The place is the fault's JSON Pointer, or the deepest part of it the whole text's position holds
    (``/players/1/no-such-member`` -> ``/players/1``). For a value (a name, a number) the line is the
    first after which the position holds that value there, as the whole text's position has it (so
    a later line that writes the same fact again is the line); for an object or a list, the first
    after which the position holds it at all (``/players/1/cards/0/zone`` -> the line of that card).
    The position of the first lines only grows as lines are added, so the line is found by halving,
    each number of lines read once (at most ``MAX_LINES`` reads of a bounded text, and only when
    there is a fault). A fault no line can be told for keeps its pointer."""
    lines = text_places(read, text, [path for path, _ in faults])
    return [(line or path, message) for (path, message), line in zip(faults, lines, strict=True)]


def text_places(read: Callable[[str], tuple[dict[str, Any], Faults]], text: str,
                paths: list[str | None]) -> list[str | None]:
    """``/lines/<n>``: the line of ``text`` each of ``paths`` (JSON Pointers into the quick position
    ``read`` makes of it) comes from, as ``text_faults`` tells it; None where none can be told (or
    the path is None)."""
    lines = text.splitlines()
    if not any(paths) or not lines or len(lines) > MAX_LINES:
        return [None] * len(paths)
    read_lines: dict[int, Any] = {}  # the position of the first n lines, by n (each read once)

    def first(n: int) -> Any:
        if n not in read_lines:
            read_lines[n] = read("\n".join(lines[:n]))[0]
        return read_lines[n]

    whole = first(len(lines))
    out: list[str | None] = []
    for path in paths:
        tokens = _tokens(path or "")
        held, value = _held(whole, tokens)
        out.append(_first_line(first, len(lines), tokens[:held], value) if held else None)
    return out


def _tokens(path: str) -> list[str]:
    """The tokens of a JSON Pointer, unescaped (RFC 6901)."""
    return [t.replace("~1", "/").replace("~0", "~") for t in path.split("/")[1:]] if path else []


def log_faults(game: QuickPosition, spec: Any, cards: Any, faults: Faults, text: str | None = None,
               log_base: str = "/log") -> Faults:
    """The faults the engine found in the log ``game.quick_log`` built of ``spec`` (JSON Pointers
    into that log, ``/setup/position/players/p1/characters/p1.05031/dice``: JSON the judge never
    wrote), each pointed at the place of the quick position it comes from: with ``text`` (the
    compact text ``spec`` was read from), its line (``/lines/<n>``, as ``text_faults`` finds it);
    without, the deepest part of the quick position's pointer that ``spec`` holds
    (``/players/0/characters/0/dice``). The built log's places are the game's ``quick_places``
    (``OPTIONAL``: pointers into the log, each with the quick position's pointer it comes from; the
    longest that starts a fault's pointer is read, the rest of it kept: ``place_of``). A fault no
    place can be told for keeps its pointer, after ``log_base`` (the built log's place in the answer);
    a fault found at two places of the log that come from one (the dispute: the step's, the title) is
    listed once. The work is bounded: the log built once more, and ``text_places``' reads."""
    quick_places = getattr(game, "quick_places", None)
    places: dict[str, str] = quick_places(spec, cards) if quick_places is not None and faults else {}
    wanted = [place_of(path, places) for path, _ in faults]
    if text is not None:
        found = text_places(game.quick_text, text, wanted)
    else:
        found = []
        for want in wanted:
            tokens = _tokens(want or "")
            held = _held(spec, tokens)[0]
            found.append("".join(f"/{escape(t)}" for t in tokens[:held]) if held else None)
    out: Faults = []
    seen: set[tuple[str, str]] = set()  # (a fault the log has twice, as its step's dispute and its title: once)
    for (path, message), place in zip(faults, found, strict=True):
        where = place or f"{log_base}{path}"
        if (where, str(message)) not in seen:
            seen.add((where, str(message)))
            out.append((where, message))
    return out


def place_of(path: str, places: dict[str, str]) -> str | None:
    """The quick position's pointer that a pointer into its built log (``path``) comes from: the
    place of the longest pointer of ``places`` that starts ``path``, then the rest of ``path``;
    None when none does."""
    tokens = path.split("/")
    for n in range(len(tokens), 1, -1):
        head = "/".join(tokens[:n])
        if head in places:
            return places[head] + path[len(head):]
    return None


_CONTAINER: Any = object()  # (``_held``'s value of an object or a list: asked only to be there)


def _held(doc: Any, tokens: list[str]) -> tuple[int, Any]:
    """How many of ``tokens`` (a JSON Pointer's) lead through ``doc`` from its root, and the value
    they lead to (``_CONTAINER`` for an object or a list)."""
    for n, token in enumerate(tokens):
        if isinstance(doc, dict) and token in doc:
            doc = doc[token]
        elif isinstance(doc, list) and token.isdigit() and int(token) < len(doc):
            doc = doc[int(token)]
        else:
            return n, _CONTAINER if isinstance(doc, (dict, list)) else doc
    return len(tokens), _CONTAINER if isinstance(doc, (dict, list)) else doc


def _first_line(first: Callable[[int], Any], count: int, tokens: list[str], value: Any) -> str | None:
    """``/lines/<k>``: the least ``k`` for which the first ``k`` lines' position holds ``tokens``
    (and there ``value``, unless that is ``_CONTAINER``)."""

    def holds(k: int) -> bool:
        held, there = _held(first(k), tokens)
        return held == len(tokens) and (value is _CONTAINER or there == value)

    low, high = 1, count
    while low < high:
        mid = (low + high) // 2
        if holds(mid):
            high = mid
        else:
            low = mid + 1
    return f"/lines/{low}" if holds(low) else None


def slip_of(line: str, head: str, rest: str, words: Sequence[str]) -> Msg | None:
    """The fault of a line whose first word is a slip of one of the game's line ``words`` ('trun p1',
    'raund 2'), which would otherwise be read as the line of a player of that ID; None when it is not
    one (a player's line names facts after a ':', or a card)."""
    if ":" in rest or ":" in head or len(head) < 3 or head in words:
        return None
    near = difflib.get_close_matches(head.lower(), words, n=1, cutoff=0.75)
    if not near:
        return None
    return Msg(N_("cannot read {line}: did you mean '{word}'? (a line starts with {words} or a player ID)"),
               line=repr(line), word=near[0], words=", ".join(words))


def player_facts(p: dict[str, Any], rest: str) -> Iterator[tuple[str, str, str]]:
    """The facts of a player's line, ``[NAME:] KEY VALUE, KEY VALUE...`` (``rest``: after the player
    ID): the name, when given, is set in ``p``; each fact is given as (fact, key, value)."""
    name, sep, facts = rest.partition(":")
    if sep and name.strip():
        p["name"] = name.strip()
    for fact in (f.strip() for f in (facts if sep else rest).split(",") if f.strip()):
        key, _, value = fact.partition(" ")
        yield fact, key, value.strip()


def split_names(value: str) -> list[str]:
    """Card names split by ``;`` (a hand, a discard pile)."""
    return [v.strip() for v in value.split(";") if v.strip()]


def asked(spec: dict[str, Any], faults: Faults) -> str | None:
    """The quick position's ``ask`` when it is a step in words within bounds (else a fault at
    ``/ask`` when it is too long; None when missing or blank)."""
    ask = spec.get("ask")
    if isinstance(ask, str) and len(ask) > MAX_TEXT:
        faults.append(("/ask", Msg(N_("at most {n} characters"), n=MAX_TEXT)))
        return None
    return ask if isinstance(ask, str) and ask.strip() else None


def asked_step(spec: dict[str, Any], faults: Faults, read: Callable[[str], dict[str, Any] | None],
               example: str) -> tuple[str, dict[str, Any]] | None:
    """The asked step, as written and as ``read`` makes it a step of the game's (its faults at
    ``/ask``); None when it has faults, or with a fault when it is missing (``example``: one)."""
    ask = asked(spec, faults)
    step = read(ask) if ask else None
    if step is None and not any(p == "/ask" for p, _ in faults):
        faults.append(("/ask", Msg(N_("the step to rule on, e.g. {example}"), example=repr(example))))
    return (ask, step) if ask and step is not None else None


def ask_words(ask: str, ids: list[str], faults: Faults, at: str = "/ask") -> tuple[str, str, str] | None:
    """A step in words: its player, verb and the rest of its words; None with a fault at ``at``
    when it does not start with a player of the position and a verb."""
    words = ask.strip().split(" ", 2)
    if len(words) < 2 or words[0] not in ids:
        faults.append((at, Msg(N_("the step starts with the player who takes it ({players}), then the verb"),
                                  players=", ".join(ids))))
        return None
    return words[0], words[1], (words[2] if len(words) > 2 else "").strip()


def quick_replay(game: str, spec: dict[str, Any], ask: str, players: list[dict[str, Any]],
                 position: dict[str, Any], step: dict[str, Any],
                 places: dict[str, str] | None = None) -> dict[str, Any]:
    """The replay log of a quick position: ``setup.position`` and the asked ``step`` (step 1, with
    the spec's ``dispute``), titled by the spec's ``title``, its dispute or its step. ``places``,
    when given, gets the places of the log that every game's has (``log_faults``): the players (the
    spec's, in its order: a log is built only of a quick position without faults), the position's
    keys as the spec's, the step (``/ask``), its dispute and the title."""
    dispute = spec.get("dispute")
    if isinstance(dispute, str) and dispute.strip():
        step["dispute"] = dispute.strip()
    title_text = str(spec.get("title") or dispute or ask).strip()[:200]
    if places is not None:
        places.update({"/setup/position": "", "/steps/0": "/ask", "/steps/0/dispute": "/dispute",
                       "/meta/title": "/title" if spec.get("title") else "/dispute" if dispute else "/ask"})
        for i, seat in enumerate(players):
            places[f"/players/{i}"] = places[f"/setup/position/players/{escape(seat['id'])}"] = f"/players/{i}"
    return {"format": FORMAT, "game": game, "meta": {"format": "sandbox", "title": title_text},
            "players": players, "setup": {"position": position}, "steps": [step]}


def quick_players(raw_players: list[Any], faults: Faults) -> Iterator[tuple[int, str, dict[str, Any], dict[str, Any]]]:
    """Each player of a quick position with a sound ID listed once: its index, its pointer
    (``/players/<i>``), its entry and its seat in the log (``{"id", "name"}``); a fault at
    ``/players/<i>/id`` for any other, as the players are read (the faults keep their order)."""
    seen: set[str] = set()
    for i, raw in enumerate(raw_players):
        where = f"/players/{i}"
        if not isinstance(raw, dict) or not isinstance(raw.get("id"), str) or not PLAYER.match(raw["id"]):
            faults.append((f"{where}/id", Msg(N_("a player ID: a letter, then letters, digits, - or _ (p1, ana)"))))
            continue
        pid = raw["id"]
        if pid in seen:
            faults.append((f"{where}/id", Msg(N_("player {pid} is listed twice"), pid=pid)))
            continue
        seen.add(pid)
        yield i, where, raw, {"id": pid, "name": str(raw.get("name") or pid)}


class QuickMembers:
    """The members of ``QuickPosition`` taken from a game's quick module (``quick_module``: its
    ``parse_quick``, ``quick_log`` and ``EXAMPLE``; ``HELP_FORMS`` and ``HELP_NOTES`` when it has
    them), imported when first asked for."""

    quick_module: ClassVar[str] = ""

    def quick_text(self, text: str) -> tuple[dict[str, Any], Faults]:
        result: tuple[dict[str, Any], Faults] = import_module(self.quick_module).parse_quick(text)
        return result

    def quick_log(self, spec: Any, cards: Any) -> tuple[dict[str, Any] | None, Faults]:
        result: tuple[dict[str, Any] | None, Faults] = import_module(self.quick_module).quick_log(spec, cards)
        return result

    def quick_places(self, spec: Any, cards: Any) -> dict[str, str]:
        """The places of the log ``quick_log`` builds of ``spec`` (``OPTIONAL``): the module's
        ``quick_log`` asked again, with ``places`` to fill."""
        places: dict[str, str] = {}
        import_module(self.quick_module).quick_log(spec, cards, places)
        return places

    def quick_example(self) -> str:
        return str(import_module(self.quick_module).EXAMPLE)

    def quick_help(self) -> tuple[tuple[str, ...], tuple[Msg, ...]]:
        """The asked step's forms, as typed, and notes on the lines (``OPTIONAL``; none when the
        module has none: a game with fields, Destiny's, shows its own)."""
        module = import_module(self.quick_module)
        return tuple(getattr(module, "HELP_FORMS", ())), tuple(Msg(n) for n in getattr(module, "HELP_NOTES", ()))
