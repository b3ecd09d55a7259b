"""A judge's quick position: a Destiny table set up by card names, and one question about it.

Two ways in, one shape: the web form sends a *quick position* as JSON, and the command line reads
the same thing written compactly (``parse_quick``, one fact a line). ``quick_log`` turns a quick
position into a replay log that starts from that position (``setup.position``, docs/replay-format.md
section 2) and has the asked step as its one step, so the ruling is the ordinary ruling on step 1.
Pure: text and JSON in, JSON and faults out; cards are named through the card lookup
(``cardtools.card_code``), so a name two cards share is a fault that lists them.

The quick position (JSON)::

    {"round": 5, "turn": "p1",
     "battlefield": {"card": "Outer Rim Outpost", "controller": "p1"},
     "players": [{"id": "p1", "name": "Ana", "resources": 2, "hand": 0, "deck": 10,
                  "characters": [{"card": "Luke Skywalker", "dice": 2, "damage": 0, "shields": 2,
                                  "exhausted": true}],
                  "dice": [{"card": "Luke Skywalker", "die": 1, "face": "1Sh"}]},
                 {"id": "p2", ...}],
     "ask": "p1 resolve Luke Skywalker/1 -> Luke Skywalker",
     "dispute": "Does the third shield stay?"}

``hand`` is a count (cards whose identity does not matter) or a list of card names; ``deck`` a
count. The asked step (``ask``), in words: ``P resolve DIE [-> TARGET], DIE [-> TARGET]``,
``P activate CHARACTER [rolling FACE FACE ...]``, ``P play CARD [on CHARACTER]``, ``P use CARD``,
``P claim``, ``P pass``. A character or die is named by its card's name (``Boba Fett``, ``Boba
Fett/2``), with its player first when both have one (``p2:Boba Fett``).

The compact text (``parse_quick``)::

    round 5
    turn p1
    battlefield p1 Outer Rim Outpost
    p1 Ana: resources 2, hand 0, deck 10
    p1 character Luke Skywalker: 2 dice, 2 shields, exhausted
    p1 die Luke Skywalker/1: 1Sh
    p2 Ben: resources 2, deck 12
    p2 character Boba Fett: 2 dice
    ask p1 resolve Luke Skywalker/1 -> Luke Skywalker
    dispute Does the third shield stay?
"""

from __future__ import annotations

import re
from typing import Any

from i18n import N_, Msg
from judge.games.base import PLAYER, Faults
from judge.games.destiny.cardtools import card_code, pool_of, title
from judge.games.destiny.model import CardPool, CardType

FORMAT = "arbiter.replay/1"
MAX_LINES = 200
MAX_PLAYERS = 4
#: a quick position is a table a judge types: characters and dice of one player, cards named in a
#: hand, and characters of one line (each name is looked up, so these bound the work of a request)
MAX_CHARACTERS = 10
MAX_DICE = 20
MAX_HAND = 30
MAX_TEXT = 400
_COUNT = re.compile(r"^(\d{1,3}) (dice|die|damage|shields?)$")


EXAMPLE = """round 5
turn p1
battlefield p1 Outer Rim Outpost
p1 Ana: resources 2, hand 0, deck 10
p1 character Luke Skywalker: 2 dice, 2 shields, exhausted
p1 die Luke Skywalker/1: 1Sh
p1 die Luke Skywalker/2: 1Sh
p2 Ben: resources 2, hand 3, deck 12
p2 character Boba Fett: 2 dice
ask p1 resolve Luke Skywalker/1 -> Luke Skywalker, Luke Skywalker/2 -> Luke Skywalker
dispute Luke has 2 shields. Does the second die give him a fourth?
"""


# ------------------------------------------------------------------------ the compact text
def parse_quick(text: str) -> tuple[dict[str, Any], Faults]:
    """The compact text as a quick position (JSON), and each line it cannot read (pointer
    ``/lines/<n>``, from 1)."""
    spec: dict[str, Any] = {"players": []}
    faults: Faults = []
    players: dict[str, dict[str, Any]] = {}

    def player(pid: str) -> dict[str, Any]:
        if pid not in players:
            players[pid] = {"id": pid}
            spec["players"].append(players[pid])
        return players[pid]

    lines = text.splitlines()
    if len(lines) > MAX_LINES or any(len(line) > MAX_TEXT for line in lines):
        return spec, [("/lines", Msg(N_("at most {lines} lines of at most {n} characters"), lines=MAX_LINES,
                                         n=MAX_TEXT))]
    for n, raw in enumerate(lines, 1):
        line = raw.strip()
        where = f"/lines/{n}"
        if not line or line.startswith("#"):
            continue
        head, _, rest = line.partition(" ")
        rest = rest.strip()
        if head in ("round",):
            if not rest.isdigit():
                faults.append((where, Msg(N_("'round N': a whole number"))))
            else:
                spec["round"] = int(rest)
        elif head == "turn":
            spec["turn"] = rest
        elif head == "ask":
            spec["ask"] = rest
        elif head == "dispute":
            spec["dispute"] = rest
        elif head == "battlefield":
            pid, _, name = rest.partition(" ")
            if not PLAYER.match(pid) or not name.strip():
                faults.append((where,
                               Msg(N_("'battlefield PLAYER CARD': the controller, then the battlefield's name"))))
            else:
                spec["battlefield"] = {"card": name.strip(), "controller": pid}
        elif PLAYER.match(head):
            _player_line(player(head), rest, where, faults)
        else:
            faults.append((where, Msg(N_("cannot read {line}: a line starts with round, turn, battlefield, ask, "
                                         "dispute or a player ID (p1 ...)"), line=repr(line))))
    return spec, faults


def _player_line(p: dict[str, Any], rest: str, where: str, faults: Faults) -> None:
    if not rest:
        faults.append((where, Msg(N_("cannot read {line} alone: 'PLAYER NAME: resources N, hand N, deck N', "
                                     "'PLAYER character CARD: ...' or 'PLAYER die CARD/N: FACE'"),
                                  line=repr(p["id"]))))
        return
    kind, _, body = rest.partition(" ")
    if kind == "character":
        name, _, facts = body.partition(":")
        ch: dict[str, Any] = {"card": name.strip()}
        for fact in (f.strip() for f in facts.split(",") if f.strip()):
            m = _COUNT.match(fact)
            if fact == "exhausted":
                ch["exhausted"] = True
            elif m:
                key = {"die": "dice", "shield": "shields"}.get(m.group(2), m.group(2))
                ch[key] = int(m.group(1))
            else:
                faults.append((where, Msg(N_("cannot read {fact}: '2 dice', '3 damage', '1 shield' or 'exhausted'"),
                                          fact=repr(fact))))
        p.setdefault("characters", []).append(ch)
    elif kind == "die":
        ref, _, face = body.rpartition(":")
        name, _, number = ref.strip().rpartition("/")
        if not name or not number.strip().isdigit() or not face.strip():
            faults.append((where, Msg(N_("'PLAYER die CHARACTER/N: FACE', e.g. 'p1 die Luke Skywalker/1: 2RD'"))))
        else:
            p.setdefault("dice", []).append({"card": name.strip(), "die": int(number), "face": face.strip()})
    else:
        name, sep, facts = rest.partition(":")
        if sep and name.strip():
            p["name"] = name.strip()
        for fact in (f.strip() for f in (facts if sep else rest).split(",") if f.strip()):
            key, _, value = fact.partition(" ")
            value = value.strip()
            if key in ("resources", "deck") and value.isdigit():
                p[key] = int(value)
            elif key == "hand":
                p["hand"] = int(value) if value.isdigit() else [v.strip() for v in value.split(";") if v.strip()]
            else:
                faults.append((where, Msg(N_("cannot read {fact}: 'resources N', 'hand N' (or card names split "
                                             "by ';'), 'deck N'"), fact=repr(fact))))


# ------------------------------------------------------------------------ the log
def quick_log(spec: Any, cards: Any) -> tuple[dict[str, Any] | None, Faults]:
    """The replay log of a quick position: its players, ``setup.position`` and the asked step (the
    log's step 1, with ``dispute``). Faults carry JSON Pointers into ``spec``."""
    faults: Faults = []
    if not isinstance(spec, dict):
        return None, [("", Msg(N_("a quick position is an object (judge.games.destiny.quick)")))]
    pool = pool_of(cards)
    raw_players = spec.get("players")
    if not isinstance(raw_players, list) or not 2 <= len(raw_players) <= MAX_PLAYERS:
        return None, [("/players", Msg(N_("2 to {n} players"), n=MAX_PLAYERS))]
    seats: list[dict[str, Any]] = []
    position: dict[str, Any] = {"round": 1, "phase": "action", "players": {}}
    table = _Table()
    for i, raw in enumerate(raw_players):
        where = f"/players/{i}"
        if not isinstance(raw, dict) or not isinstance(raw.get("id"), str) or not PLAYER.match(raw["id"]):
            faults.append((f"{where}/id", Msg(N_("a player ID: a letter, then letters, digits, - or _ (p1, ana)"))))
            continue
        pid = raw["id"]
        if any(s["id"] == pid for s in seats):
            faults.append((f"{where}/id", Msg(N_("player {pid} is listed twice"), pid=pid)))
            continue
        seats.append({"id": pid, "name": str(raw.get("name") or pid)})
        position["players"][pid] = _seat(pid, raw, where, pool, table, faults)
    rnd = spec.get("round", 1)
    if type(rnd) is not int or rnd < 1:
        faults.append(("/round", Msg(N_("a round number, from 1"))))
    else:
        position["round"] = rnd
    ids = [s["id"] for s in seats]
    turn = spec.get("turn") or (ids[0] if ids else None)
    if turn not in ids:
        faults.append(("/turn", Msg(N_("the player whose turn it is: one of {players}"), players=", ".join(ids))))
    position["turn"] = turn
    position["claimed_by"] = None
    bf = spec.get("battlefield")
    if isinstance(bf, dict) and bf.get("card"):
        code = _card(pool, bf.get("card"), "/battlefield/card", faults, CardType.BATTLEFIELD)
        controller = bf.get("controller") or turn
        if controller not in ids:
            faults.append(("/battlefield/controller", Msg(N_("one of {players}"), players=", ".join(ids))))
        if code:
            position["battlefield"] = {"card": code, "controller": controller}
    elif bf is not None:
        faults.append(("/battlefield", Msg(N_("{\"card\": name, \"controller\": player}"))))
    ask = spec.get("ask")
    if isinstance(ask, str) and len(ask) > MAX_TEXT:
        faults.append(("/ask", Msg(N_("at most {n} characters"), n=MAX_TEXT)))
        ask = None
    step = _ask(ask, ids, pool, table, faults) if isinstance(ask, str) and ask.strip() else None
    if step is None and not any(p == "/ask" for p, _ in faults):
        faults.append(("/ask", Msg(N_("the step to rule on, e.g. 'p1 resolve Luke Skywalker/1 -> Boba Fett'"))))
    if faults or step is None:
        return None, faults
    dispute = spec.get("dispute")
    if isinstance(dispute, str) and dispute.strip():
        step["dispute"] = dispute.strip()
    title_text = str(spec.get("title") or dispute or ask).strip()[:200]
    log = {"format": FORMAT, "game": "destiny", "meta": {"format": "sandbox", "title": title_text},
           "players": seats, "setup": {"position": position}, "steps": [step]}
    return log, []


class _Table:
    """The cards in play of a quick position, to name them in the asked step: card refs by player
    and by folded name."""

    def __init__(self) -> None:
        self.refs: list[tuple[str, str, str]] = []  # (player, code, ref)

    def find(self, pool: CardPool, text: str, faults: Faults, where: str, prefer: str | None = None) -> str | None:
        """The ref of the card in play ``[player:]NAME``, or a fault; a name in play for several
        players is ``prefer``'s card (the asker's own dice and cards), if ``prefer`` has one."""
        pid, sep, name = text.partition(":")
        if not sep or not PLAYER.match(pid.strip()):
            pid, name = "", text
        match = card_code(pool, name.strip())
        codes = {match.code} if match.code else set(match.candidates) if match.ambiguous else set()
        if not codes:
            faults.append((where, f"{name.strip()!r}: {match.why(name.strip())}"))
            return None
        found = [ref for p, code, ref in self.refs if code in codes and (not pid or p == pid.strip())]
        own = [ref for ref in found if prefer and ref.startswith(f"{prefer}.")]
        if len(found) > 1 and len(own) == 1:
            return own[0]
        if len(found) == 1:
            return found[0]
        if not found:
            faults.append((where, Msg(N_("{name} is not in play for {pid}"), name=repr(name.strip()), pid=pid.strip())
                           if pid else Msg(N_("{name} is not in play"), name=repr(name.strip()))))
        else:
            faults.append((where, Msg(N_("{name} is in play more than once: say whose, e.g. '{owner}:{plain}'"),
                                      name=repr(name.strip()), owner=found[0].split(".")[0], plain=name.strip())))
        return None


def _card(pool: CardPool, name: Any, where: str, faults: Faults, kind: CardType | None = None) -> str | None:
    if not isinstance(name, str) or not name.strip():
        faults.append((where, Msg(N_("a card's name or code"))))
        return None
    match = card_code(pool, name)
    if match.code is None:
        near = "; ".join(f"{c} {title(pool.cards[c])}" for c in match.candidates[:8])
        faults.append((where, match.why(name) + (f": {near}" if near else "")))
        return None
    card = pool.cards[match.code]
    if kind is not None and card.type != kind:
        faults.append((where, Msg(N_("{card} is a {type}, not a {kind}"), card=title(card), type=card.type, kind=kind)))
        return None
    return match.code


def _count(raw: dict[str, Any], key: str, where: str, faults: Faults, default: int = 0) -> int:
    value = raw.get(key, default)
    if type(value) is not int or not 0 <= value <= 99:
        faults.append((f"{where}/{key}", Msg(N_("'{key}': a whole number from 0 to 99"), key=key)))
        return default
    return value


def _seat(pid: str, raw: dict[str, Any], where: str, pool: CardPool, table: _Table, faults: Faults,
          ) -> dict[str, Any]:
    seat: dict[str, Any] = {"resources": _count(raw, "resources", where, faults), "discard": [], "passed": False,
                            "characters": {}, "supports": {}, "pool": {}}
    hand = raw.get("hand", 0)
    if isinstance(hand, list) and len(hand) > MAX_HAND:
        faults.append((f"{where}/hand", Msg(N_("at most {n} cards named in a hand (or a count)"), n=MAX_HAND)))
    elif isinstance(hand, list):
        codes = [_card(pool, h, f"{where}/hand/{i}", faults) for i, h in enumerate(hand)]
        seat["hand"] = [c for c in codes if c]
    else:
        seat["hand"] = {"unknown": _count(raw, "hand", where, faults)}
    seat["deck"] = {"unknown": _count(raw, "deck", where, faults, 10)}
    chars = raw.get("characters")
    if not isinstance(chars, list) or not 1 <= len(chars) <= MAX_CHARACTERS:
        faults.append((f"{where}/characters",
                       Msg(N_("1 to {n} characters, each {{\"card\": name, \"dice\": 1 or 2, ...}}"),
                           n=MAX_CHARACTERS)))
        chars = []
    copies: dict[str, int] = {}
    for i, ch in enumerate(chars):
        sub = f"{where}/characters/{i}"
        if not isinstance(ch, dict):
            faults.append((sub,
                           Msg(N_("a character is {\"card\": name, \"dice\", \"damage\", \"shields\", "
                                  "\"exhausted\"}"))))
            continue
        code = _card(pool, ch.get("card"), f"{sub}/card", faults, CardType.CHARACTER)
        if code is None:
            continue
        copies[code] = copies.get(code, 0) + 1
        ref = f"{pid}.{code}" + (f"#{copies[code]}" if copies[code] > 1 else "")
        table.refs.append((pid, code, ref))
        exhausted = ch.get("exhausted", False)
        if not isinstance(exhausted, bool):
            faults.append((f"{sub}/exhausted", Msg(N_("true or false"))))
            exhausted = False
        seat["characters"][ref] = {"dice": _count(ch, "dice", sub, faults, 1),
                                   "damage": _count(ch, "damage", sub, faults),
                                   "shields": _count(ch, "shields", sub, faults), "defeated": False,
                                   "exhausted": exhausted, "upgrades": []}
    dice = raw.get("dice", [])
    if not isinstance(dice, list) or len(dice) > MAX_DICE:
        faults.append((f"{where}/dice",
                       Msg(N_("at most {n} dice, each {{\"card\": name, \"die\": 1 or 2, \"face\": \"2RD\"}}"),
                           n=MAX_DICE)))
        dice = []
    for i, die in enumerate(dice):
        sub = f"{where}/dice/{i}"
        if not isinstance(die, dict) or not isinstance(die.get("face"), str):
            faults.append((sub, Msg(N_("a die in the pool is {\"card\": name, \"die\": 1 or 2, \"face\": \"2RD\"}"))))
            continue
        die_of = table.find(pool, f"{pid}:{die.get('card')}", faults, f"{sub}/card")
        number = die.get("die", 1)
        if type(number) is not int or not 1 <= number <= 2:
            faults.append((f"{sub}/die", Msg(N_("the die's number on its card: 1 or 2"))))
            continue
        if die_of is not None:
            seat["pool"][f"{die_of}/{number}"] = die["face"].strip()
    return seat


def _ref(text: str, pool: CardPool, table: _Table, faults: Faults, prefer: str | None = None) -> str | None:
    """``[player:]NAME[/N]`` as a card or die reference (``prefer``: whose card a shared name is)."""
    name, sep, number = text.strip().rpartition("/")
    if sep and number.isdigit():
        card = table.find(pool, name, faults, "/ask", prefer)
        return f"{card}/{number}" if card else None
    return table.find(pool, text.strip(), faults, "/ask", prefer)


def _ask(ask: str, ids: list[str], pool: CardPool, table: _Table, faults: Faults) -> dict[str, Any] | None:
    words = ask.strip().split(" ", 2)
    if len(words) < 2 or words[0] not in ids:
        faults.append(("/ask", Msg(N_("the step starts with the player who takes it ({players}), then the verb"),
                                  players=", ".join(ids))))
        return None
    by, verb, rest = words[0], words[1], (words[2] if len(words) > 2 else "").strip()
    step: dict[str, Any] = {"by": by, "do": verb}
    if verb in ("pass", "claim"):
        return step
    if verb == "resolve":
        entries = []
        for part in (p.strip() for p in rest.split(",") if p.strip()):
            die, arrow, target = part.partition("->")
            entry: dict[str, Any] = {"die": _ref(die, pool, table, faults, by)}
            if arrow:
                entry["target"] = _ref(target, pool, table, faults)
            entries.append(entry)
        if not entries:
            faults.append(("/ask", Msg(N_("'P resolve DIE -> TARGET, DIE -> TARGET'"))))
        step["dice"] = entries
    elif verb == "activate":
        name, _, roll = rest.partition(" rolling ")
        step["card"] = _ref(name, pool, table, faults, by)
        if roll.strip():
            step["roll"] = roll.split()
    elif verb in ("play", "use"):
        name, _, on = rest.partition(" on ")
        if verb == "play":
            step["card"] = _card(pool, name, "/ask", faults)
            if on.strip():
                step["on"] = _ref(on, pool, table, faults)
        else:
            step["card"] = _ref(name, pool, table, faults, by)
    else:
        faults.append(("/ask", Msg(N_("the verb is one of resolve, activate, play, use, claim, pass (got {verb})"),
                                  verb=repr(verb))))
        return None
    return None if any(p == "/ask" for p, _ in faults) else step

