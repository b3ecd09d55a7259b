"""A judge's quick position: a Relic table set up by card names, and one question about it
(judge.games.quick; Destiny's judge.games.destiny.quick is the same seam).

Two ways in, one shape: the web form sends a *quick position* as JSON, and the command line reads
the same thing written compactly (``parse_quick``, one fact a line). ``quick_log`` turns it into a
replay log that starts from that position (``setup.position``, read by ``setup.from_position``) and
has the asked step, in the ordinary step format (docs/replay-format.md, "Relic logs"), as its one
step: the ruling is the ordinary ruling on step 1. Cards, character sheets and scenarios are named
by name, looked up as a log's names are (``names.card_names``): a name several cards share is a
fault that lists them. Pure: text and JSON in, JSON and faults (JSON Pointers into the JSON) out.

The quick position (JSON)::

    {"round": 3, "phase": "encounter", "turn": "p1", "order": ["p1", "p2"],
     "scenario": "The Mystery Beyond",
     "players": [{"id": "p1", "name": "Ana", "character": "Battle Sister", "life": 4, "influence": 2,
                  "assets": [{"card": "Needle Rifle", "charges": 1, "spent": true}, "Auspex"],
                  "hand": ["Divination"], "discard": ["Bolt Pistol"], "trophies": ["Ork Boy"],
                  "at_scenario": false},
                 {"id": "p2", "character": "Tech-Priest"}],
     "contest": {"battle": ["Ork Nob"], "declared": ["Needle Rifle"],
                 "dice": [{"id": "e1", "rolls": [4]}, {"id": "d1", "rolls": [2]}]},
     "ask": "p1 use Auspex on d1 rolling 6 3",
     "choices": [{"kind": "order", "answer": ["Ork Boy", "Ork Nob"]}],
     "dispute": "The reroll shows 6: does it explode?"}

- A player's ``character`` is a sheet's name (or the sheet written out: ``name``, ``strength``,
  ``willpower``, ``cunning``, ``life``); ``strength``, ``willpower``, ``cunning`` and ``life`` are
  its values now (1-12, relic.base.levels; default the sheet's), ``influence`` its Influence
  (default 3, relic.base.setup).
- ``assets`` (the play area) and ``hand`` (Power cards, relic.base.power) list cards by name, or
  ``{"card": name, "charges": n, "spent": true}``: ``charges`` defaults to the card's charge value
  (relic.charges.initial), ``spent`` says a charge was spent from it this turn
  (relic.charges.one-per-card-per-turn). The copies of a card are ``NAME``, ``NAME#2``... in the
  order listed (assets, then hand), as the engine numbers them.
- ``discard`` (the discard pile, relic.discard.pile) and ``trophies`` (beaten enemies) list names.
- ``contest``, the battle or skill test under way (Encounter phase): ``"battle": [enemies]`` (one
  colour, relic.base.threats), ``"test": skill, "target": n`` or ``"confrontation": true`` (the
  scenario's, relic.scenario.confrontation); ``declared`` bonuses (a card's name, or ``{"card",
  "bonus": index from 0}``), ``used``: the weapons and armour whose effect was used in the battle
  (relic.project.effect-uses-card), ``extra`` dice, a Power ``power`` number, ``score`` and
  ``enemy_score`` adjustments (default: what the start-of-battle or -test effects of the enemies and
  the active player's assets added, relic.timing.start) and the ``dice`` rolled: ``{"id": "d1"
  (the player's) or "e1" (the enemy's), "rolls": [first, reroll...], "modifiers": [+1], "parent":
  the die it exploded from, "void": true}``. With dice the contest is rolled, else being prepared.
- ``ended`` (``"lost"`` or ``"tied"``): a battle of this Encounter phase was lost or tied, which
  ended the phase's threats (relic.base.threats); ``confronted`` (true): the active player resolved
  the Confrontation this Encounter phase (once each, relic.base.winning).
- ``choices`` answer the decisions the asked step may raise: ``{"kind": "order" | "discard" |
  "card", "answer": names}`` (relic.timing.active-player-orders, relic.discard.player-chooses).

The asked step (``ask``), in words, is the ordinary step: ``P end-phase``, ``P reach``,
``P battle ENEMY, ENEMY``, ``P test SKILL TARGET``, ``P confront``, ``P declare CARD [bonus N]``,
``P power CARD``, ``P use CARD [on DIE]``, ``P roll [FACE FACE ...]``, ``P resolve``,
``P discard CARD, CARD``, ``P buy CARD``; any of them may end ``rolling FACE FACE ...``, the dice the
step rolls (relic.project.roll-order). A card is ``P``'s by name (``Needle Rifle#2`` for a copy).

The compact text (``parse_quick``; ``EXAMPLE`` is a battle)::

    round 4
    phase encounter
    turn p2
    order p1 p2
    scenario The Warp Storm
    p1 Ana: Battle Sister
    p1 trophies: Ork Boy, Plague Zombie
    p2 Ben: Sanctioned Psyker, willpower 6, influence 5, at scenario
    p2 asset Purity Seal
    p2 asset Targeting Cogitator: 2 charges
    p2 hand: The Emperor's Grace
    p2 discard pile: Data-slate
    confrontation
    declared Purity Seal
    dice d1 6, d2 1 from d1
    ask p2 use Targeting Cogitator on d2
    dispute Does the +1 on the exploded die count toward the 13 (12, +1 for the Warp Storm)?

A player's first fact is their sheet; ``strength N``, ``willpower N``, ``cunning N``, ``life N``,
``influence N`` and ``at scenario`` follow. ``test willpower 9`` or ``confrontation`` instead of
``battle``; ``ended lost``, ``ended tied`` and ``confronted`` (see ``ended`` and ``confronted``
above); ``declared CARD bonus 1``, ``used CARD`` (a weapon's effect used in the battle), ``extra N``,
``power N``, ``score N``, ``enemy score N``. A die
is ``ID ROLLS [+N|-N ...] [from DIE] [void]``, its rolls as ``2>6`` when it was rerolled
(``d2 3 from d1``: an explosion of d1).
"""

from __future__ import annotations

import re
from typing import Any, Final

from i18n import N_, Msg
from judge.games.base import PLAYER, Faults
from judge.games.cardnames import CardNames
from judge.games.inputs import nearest
from judge.games.quick import ask_words, asked_step, quick_players, quick_replay, slip_of, text_lines
from judge.games.relic.actions import DIE, VERBS
from judge.games.relic.cards import CHARACTERISTIC, COLOR_OF, SKILLS, Card, Character, Pool, read_character
from judge.games.relic.names import card_names
from judge.games.relic.setup import PHASES

MAX_PLAYERS = 4  # the game's max_players
MAX_HELD = 20  # assets, or Power cards in hand, of one player
MAX_PILE = 60  # cards in a discard pile, trophies
MAX_LIST = 20  # enemies of a battle, bonuses declared, cards named in a step, choices (actions.MAX_LIST)
MAX_DICE = 30  # dice of a contest, of each side
MAX_ROLLS = 10  # results one die showed (its first roll and its rerolls)
MAX_VALUE = 99  # charges, Influence, a target, an adjustment (cards.MAX_VALUE)
MAX_EXTRA = 10  # additional dice
MAX_ROUND = 10_000  # (setup.from_position)
_NUMBER = re.compile(r"^[+-]?[0-9]{1,6}$")
_STAT = re.compile(r"^(strength|willpower|cunning|life|influence) ([+-]?[0-9]{1,6})$")
_CHARGES = re.compile(r"^([0-9]{1,6}) charges?$")
_DIE_ID = re.compile(r"^[de]([1-9][0-9]?)$")
_FACES = ("1", "2", "3", "4", "5", "6")
_ROLLING = re.compile(r"\srolling\s")

#: the asked step's forms, as typed, and notes shown beside the compact text (judge.games.quick.OPTIONAL)
HELP_FORMS = ("P end-phase", "P reach", "P battle ENEMY, ENEMY", "P test SKILL TARGET", "P confront",
              "P declare CARD bonus N", "P power CARD", "P use CARD on DIE rolling 6 3", "P roll 4 2",
              "P resolve", "P discard CARD, CARD", "P buy CARD")
HELP_NOTES = (
    N_("A player line is PLAYER NAME: SHEET, then life N, influence N, strength N, willpower N, cunning N "
       "and 'at scenario'; an asset line is PLAYER asset CARD, then its charges and 'spent' after a colon."),
    N_("The contest under way is a 'battle ENEMY, ENEMY', a 'test SKILL TARGET' or 'confrontation' line, "
       "with 'declared CARD' bonuses and the dice rolled: 'dice e1 4, d1 2>6 +1, d2 3 from d1' (a reroll is "
       "2>6, an explosion names its die)."),
    N_("A second copy of a player's card is NAME#2. 'rolling' gives the dice the step rolls, in order."),
    N_("'ended lost' or 'ended tied': a battle of this Encounter phase was lost or tied, which ended its threats; "
       "'confronted': the active player resolved the Confrontation this Encounter phase."),
)

EXAMPLE = """# Ana's Encounter phase, on The Mystery Beyond: a battle against an Ork Nob
round 3
phase encounter
turn p1
scenario The Mystery Beyond
p1 Ana: Battle Sister, life 4, influence 2
p1 asset Needle Rifle: 1 charge, spent
p1 asset Auspex
p1 hand: Divination
p2 Ben: Tech-Priest
battle Ork Nob
declared Needle Rifle
dice e1 4, d1 2
ask p1 use Auspex on d1 rolling 6 3
dispute Ana rerolls her 2 with the Auspex and gets a 6. Does it explode, and is she ahead?
"""


# ------------------------------------------------------------------------ the compact text
#: the words a line of the compact text starts with, but for a player ID
_LINE_WORDS: tuple[str, ...] = ("round", "phase", "turn", "order", "scenario", "battle", "test", "confrontation",
                                "declared", "used", "extra", "power", "score", "enemy", "dice", "ended", "confronted",
                                "ask", "choice", "dispute")


def parse_quick(text: str) -> tuple[dict[str, Any], Faults]:
    """The compact text as a quick position (JSON), and each line it cannot read (pointer
    ``/lines/<n>``, from 1)."""
    spec: dict[str, Any] = {"players": []}
    players: dict[str, dict[str, Any]] = {}
    lines, faults = text_lines(text)

    def contest() -> dict[str, Any]:
        out: dict[str, Any] = spec.setdefault("contest", {})
        return out

    for where, line in lines:
        head, _, rest = line.partition(" ")
        rest = rest.strip()
        if head in ("phase", "turn", "scenario", "ask", "dispute"):
            spec[head] = rest
        elif head == "order":
            spec["order"] = rest.split()
        elif head in ("round", "extra", "power", "score") or (head == "enemy" and rest.startswith("score ")):
            value = rest.removeprefix("score ").strip() if head == "enemy" else rest
            if not _NUMBER.match(value):
                faults.append((where, Msg(N_("'{key} N': a whole number"), key=line[:len(line) - len(value)].strip())))
            elif head == "round":
                spec["round"] = int(value)
            else:
                contest()["enemy_score" if head == "enemy" else head] = int(value)
        elif head == "battle":
            contest()["battle"] = _names(rest)
        elif head == "test":
            skill, _, target = rest.partition(" ")
            if not _NUMBER.match(target.strip()):
                faults.append((where, Msg(N_("'test SKILL TARGET', e.g. 'test willpower 9'"))))
            else:
                contest().update(test=skill, target=int(target))
        elif head == "confrontation" and not rest:
            contest()["confrontation"] = True
        elif head == "confronted" and not rest:
            spec["confronted"] = True
        elif head == "ended":
            spec["ended"] = rest
        elif head in ("confrontation", "confronted"):
            faults.append((where, Msg(N_("'{word}' stands alone on its line"), word=head)))
        elif head == "declared":
            name, sep, bonus = rest.rpartition(" bonus ")
            if sep and bonus.strip().isdigit():
                contest().setdefault("declared", []).append({"card": name.strip(), "bonus": int(bonus)})
            else:
                contest().setdefault("declared", []).append(rest)
        elif head == "used":
            contest().setdefault("used", []).append(rest)
        elif head == "dice":
            for part in (p.strip() for p in rest.split(",")):
                die = _die_text(part)
                if die is None:
                    faults.append((where, Msg(N_("cannot read the die {die}: 'ID ROLLS [+N] [from DIE] [void]', e.g. "
                                                 "'d1 6', 'd2 3 from d1', 'd1 2>6 +1'"), die=repr(part))))
                else:
                    contest().setdefault("dice", []).append(die)
        elif head == "choice":
            kind, sep, answer = rest.partition(":")
            if not sep or not kind.strip():
                faults.append((where, Msg(N_("'choice KIND: ANSWER, ANSWER', e.g. 'choice order: Ork Boy, Ork Nob'"))))
            else:
                spec.setdefault("choices", []).append({"kind": kind.strip(), "answer": _names(answer)})
        elif (slip := slip_of(line, head, rest, _LINE_WORDS)) is not None:
            faults.append((where, slip))
        elif PLAYER.match(head.removesuffix(":")):
            pid = head.removesuffix(":")
            if pid not in players:
                players[pid] = {"id": pid}
                spec["players"].append(players[pid])
            _player_line(players[pid], (": " + rest) if head.endswith(":") else rest, where, faults)
        else:
            faults.append((where, Msg(N_("cannot read {line}: a line starts with round, phase, turn, order, scenario, "
                                         "battle, test, confrontation, declared, used, extra, power, score, "
                                         "enemy score, dice, ended, confronted, ask, choice, dispute or a player ID "
                                         "(p1 ...)"),
                                      line=repr(line))))
    return spec, faults


def _names(text: str) -> list[str]:
    return [n.strip() for n in text.split(",") if n.strip()]


def _die_text(text: str) -> dict[str, Any] | None:
    """``d1 2>6 +1 from d3 void`` as a die of the JSON, or None."""
    words = text.split()
    if len(words) < 2 or not all(r in _FACES for r in words[1].split(">")):
        return None
    die: dict[str, Any] = {"id": words[0], "rolls": [int(r) for r in words[1].split(">")]}
    rest = words[2:]
    while rest:
        word = rest.pop(0)
        if word[:1] in "+-" and _NUMBER.match(word):
            die.setdefault("modifiers", []).append(int(word))
        elif word == "from" and rest:
            die["parent"] = rest.pop(0)
        elif word == "void":
            die["void"] = True
        else:
            return None
    return die


def _player_line(p: dict[str, Any], rest: str, where: str, faults: Faults) -> None:
    kind, _, body = rest.partition(" ")
    if kind == "asset":
        name, _, facts = body.partition(":")
        entry: dict[str, Any] = {"card": name.strip()}
        for fact in _names(facts):
            m = _CHARGES.match(fact)
            if m:
                entry["charges"] = int(m.group(1))
            elif fact == "spent":
                entry["spent"] = True
            else:
                faults.append((where, Msg(N_("cannot read {fact}: an asset line ends with ': N charges', "
                                             "': spent' or both"), fact=repr(fact))))
        if not entry["card"]:
            faults.append((where, Msg(N_("'PLAYER asset CARD', e.g. 'p1 asset Needle Rifle: 1 charge, spent'"))))
        else:
            p.setdefault("assets", []).append(entry if len(entry) > 1 else entry["card"])
        return
    for key, words in (("hand", "hand:"), ("discard", "discard pile:"), ("trophies", "trophies:")):
        if rest.startswith(words):
            p.setdefault(key, []).extend(_names(rest.removeprefix(words)))
            return
    name, sep, facts = rest.partition(":")
    if not sep:
        faults.append((where, Msg(N_("cannot read {line}: 'PLAYER NAME: SHEET, life N, ...', 'PLAYER asset CARD', "
                                     "'PLAYER hand: CARDS', 'PLAYER discard pile: CARDS' or 'PLAYER trophies: "
                                     "CARDS'"), line=repr(f"{p['id']} {rest}".strip()))))
        return
    if name.strip():
        p["name"] = name.strip()
    for fact in _names(facts):
        m = _STAT.match(fact)
        if m:
            p[m.group(1)] = int(m.group(2))
        elif fact == "at scenario":
            p["at_scenario"] = True
        elif "character" not in p:
            p["character"] = fact
        else:
            faults.append((where, Msg(N_("cannot read {fact}: the sheet, then 'strength N', 'willpower N', "
                                         "'cunning N', 'life N', 'influence N' or 'at scenario'"), fact=repr(fact))))


# ------------------------------------------------------------------------ the log
class _Table:
    """What a quick position is read with: the pool's names and the cards each player holds."""

    def __init__(self, pool: Pool) -> None:
        self.pool = pool
        self.names: CardNames = card_names(pool.cards, pool.names)
        self.held: dict[str, list[tuple[str, str]]] = {}  # player -> (code, ref), assets then hand
        self.discard: dict[str, list[str]] = {}

    def card(self, raw: Any, where: str, faults: Faults) -> Card | None:
        """The card ``raw`` names (a name or a code), or a fault."""
        if not isinstance(raw, str) or not raw.strip():
            faults.append((where, Msg(N_("a card's name or code"))))
            return None
        code, fault = self.names.code(raw.strip())
        if code is None:
            faults.append((where, fault or ""))
            return None
        return self.pool.cards[code]

    def hold(self, pid: str, code: str) -> str:
        """The reference of the next copy of ``code`` that ``pid`` holds (as ``engine.new_held``)."""
        mine = self.held.setdefault(pid, [])
        n = sum(1 for c, _ in mine if c == code) + 1
        ref = f"{pid}.{code}" + (f"#{n}" if n > 1 else "")
        mine.append((code, ref))
        return ref

    def ref(self, pid: str, raw: str, where: str, faults: Faults) -> str | None:
        """``pid``'s card ``NAME[#N]``: its reference when they hold it (the N-th copy), else the
        reference it would have (the engine rules on a card not held); a fault when the name names
        no card, or several copies are held and ``#N`` does not say which."""
        name, hashed, copy = raw.strip().rpartition("#")
        if not (hashed and copy.isdigit()):
            name, copy = raw.strip(), ""
        card = self.card(name, where, faults)
        if card is None:
            return None
        refs = [ref for code, ref in self.held.get(pid, []) if code == card.code]
        if copy:
            return f"{pid}.{card.code}" + (f"#{copy}" if int(copy) > 1 else "")
        if len(refs) > 1:
            faults.append((where, Msg(N_("{pid} has {name} in play more than once: say which copy, e.g. "
                                         "'{plain}#2' (the copies are numbered as they are listed)"),
                                      pid=pid, name=repr(card.name), plain=card.name)))
            return None
        return refs[0] if refs else f"{pid}.{card.code}"


def _int(raw: dict[str, Any], key: str, where: str, faults: Faults, lo: int, hi: int, default: int,
         rule: str = "") -> int:
    value = raw.get(key, default)
    if type(value) is not int or not lo <= value <= hi:
        faults.append((f"{where}/{key}", Msg(N_("'{key}': a whole number from {lo} to {hi}{rule}"), key=key, lo=lo,
                                             hi=hi, rule=f" ({rule})" if rule else "")))
        return default
    return value


def _list(raw: dict[str, Any], key: str, where: str, faults: Faults, most: int) -> list[Any]:
    value = raw.get(key, [])
    if not isinstance(value, list) or len(value) > most:
        faults.append((f"{where}/{key}", Msg(N_("'{key}': a list of at most {n}"), key=key, n=most)))
        return []
    return value


def quick_log(spec: Any, cards: Any, places: dict[str, str] | None = None) -> tuple[dict[str, Any] | None, Faults]:
    """The replay log of a quick position: its players, ``setup.position`` and the asked step (the
    log's step 1, with its ``choices`` and ``dispute``). Faults carry JSON Pointers into ``spec``.
    ``places``, when given, gets the log's places and the pointers into ``spec`` they come from
    (judge.games.quick.log_faults; a player's cards and the contest's dice are listed in the spec's
    order, so the rest of a pointer reads the same in both)."""
    if not isinstance(spec, dict):
        return None, [("", Msg(N_("a quick position is an object (judge.games.relic.quick)")))]
    raw_players = spec.get("players")
    if not isinstance(raw_players, list) or not 2 <= len(raw_players) <= MAX_PLAYERS:
        return None, [("/players", Msg(N_("2 to {n} players"), n=MAX_PLAYERS))]
    faults: Faults = []
    table = _Table(cards)
    seats: list[dict[str, Any]] = []
    players: dict[str, Any] = {}
    for _, where, raw, seat in quick_players(raw_players, faults):
        seats.append(seat)
        players[seat["id"]] = _seat(seat["id"], raw, where, table, faults)
    ids = list(players)
    order = spec.get("order", ids)
    if not isinstance(order, list) or not all(isinstance(o, str) for o in order) or sorted(order) != sorted(ids):
        faults.append(("/order", Msg(N_("'order' lists the log's players in turn order"))))
        order = ids
    turn = spec.get("turn", order[0] if order else None)
    if turn not in ids:
        faults.append(("/turn", Msg(N_("the player whose turn it is: one of {players}"), players=", ".join(ids))))
        turn = None
    phase = spec.get("phase", "encounter")
    if phase not in PHASES[:4]:
        faults.append(("/phase", Msg(N_("'phase' is one of {known}"), known=", ".join(PHASES[:4]))))
    position: dict[str, Any] = {"round": _int(spec, "round", "", faults, 1, MAX_ROUND, 1), "phase": phase,
                                "turn": turn, "order": order, "players": players, "scenario": None,
                                "contest": None, "winner": None, "reason": None}
    if spec.get("scenario") is not None:
        sheets = card_names(cards.scenarios, cards.names, "scenarios")
        code, fault = sheets.code(spec["scenario"]) if isinstance(spec["scenario"], str) else (None, None)
        if code is None:
            faults.append(("/scenario", fault or Msg(N_("a scenario sheet's name"))))
        else:
            position["scenario"] = cards.scenarios[code].to_json()
    if spec.get("contest") is not None and turn is not None:
        position["contest"] = _contest(spec["contest"], str(turn), position, table, faults)
    _encounter(spec, position, faults)
    read = asked_step(spec, faults, lambda ask: _ask(ask, ids, table, faults), "p1 use Auspex on d1 rolling 6")
    choices = _choices(spec, str(turn), table, faults)
    if faults or read is None:
        return None, faults
    ask, step = read
    if choices:
        step["choices"] = choices
    if places is not None:
        places["/steps/0/choices"] = "/choices"  # (the step's choices are the spec's, in its order)
    return quick_replay("relic", spec, ask, seats, position, step, places), []


def _encounter(spec: dict[str, Any], position: dict[str, Any], faults: Faults) -> None:
    """What the Encounter phase under way has seen: a battle lost or tied (``ended``, which ends its
    threats, relic.base.threats), the Confrontation resolved (``confronted``, relic.base.winning)."""
    ended, confronted = spec.get("ended"), spec.get("confronted", False)
    if ended is not None:
        if ended not in ("lost", "tied"):
            faults.append(("/ended", Msg(N_("'ended' is \"lost\" or \"tied\": a battle of this Encounter phase "
                                            "lost or tied (relic.base.threats)"))))
        elif position["phase"] != "encounter" or position["contest"] is not None:
            faults.append(("/ended", Msg(N_("a battle lost or tied ends the Encounter phase's threats: it is told "
                                            "in the Encounter phase, with no battle or test under way"))))
        else:
            position["ended"] = ended
    if confronted is not False:
        seat = position["players"].get(position["turn"]) if isinstance(position["turn"], str) else None
        if confronted is not True:
            faults.append(("/confronted", Msg(N_("true or false"))))
        elif position["phase"] != "encounter" or not (seat and seat.get("at_scenario")):
            faults.append(("/confronted", Msg(N_("the active player resolves the Confrontation on the scenario "
                                                 "space, in the Encounter phase ('at scenario')"))))
        else:
            position["confronted"] = True


def _seat(pid: str, raw: dict[str, Any], where: str, table: _Table, faults: Faults) -> dict[str, Any]:
    sheet = raw.get("character")
    if isinstance(sheet, dict):
        ch = read_character(sheet, f"{where}/character", faults)
    else:
        sheets = card_names(table.pool.characters, table.pool.names, "characters")
        code, fault = sheets.code(sheet) if isinstance(sheet, str) and sheet.strip() else (None, None)
        if code is None:
            faults.append((f"{where}/character", fault or Msg(N_("a character sheet's name (the project's: {known})"),
                                                              known=", ".join(c.name for c in
                                                                              table.pool.characters.values()))))
            ch = Character("", 1, 1, 1, 1)
        else:
            ch = table.pool.characters[code]
    seat: dict[str, Any] = {"name": str(raw.get("name") or ""), "character": ch.to_json()}
    for key in ("strength", "willpower", "cunning", "life"):  # relic.base.levels: up to 12; 0 life: relic.base.life
        seat[key] = _int(raw, key, where, faults, 1, 12, getattr(ch, key), "relic.base.levels")
    seat["influence"] = _int(raw, "influence", where, faults, 0, MAX_VALUE, 3, "relic.base.setup")
    seat["assets"], seat["hand"], spent = [], [], []
    for key in ("assets", "hand"):
        for i, entry in enumerate(_list(raw, key, where, faults, MAX_HELD)):
            at = f"{where}/{key}/{i}"
            obj = entry if isinstance(entry, dict) else {"card": entry}
            card = table.card(obj.get("card"), f"{at}/card" if isinstance(entry, dict) else at, faults)
            if card is None:
                continue
            if card.power != (key == "hand") or card.enemy:
                faults.append((at, Msg(N_("{card} is a Power card: it is held in hand (relic.base.power)")
                                       if card.power else
                                       N_("{card} is not a Power card: a hand holds Power cards (relic.base.power)")
                                       if key == "hand" else
                                       N_("{card} is an enemy, not an asset (relic.base.assets)"), card=card.name)))
                continue
            ref = table.hold(pid, card.code)
            seat[key].append({"ref": ref, "code": card.code,
                              "charges": _int(obj, "charges", at, faults, 0, MAX_VALUE, card.charges,
                                              "relic.charges.initial")})
            if obj.get("spent", False) is not False:
                if obj["spent"] is not True:
                    faults.append((f"{at}/spent", Msg(N_("true or false"))))
                spent.append(ref)
    for key in ("discard", "trophies"):
        seat[key] = []
        for i, name in enumerate(_list(raw, key, where, faults, MAX_PILE)):
            card = table.card(name, f"{where}/{key}/{i}", faults)
            if card is not None and key == "trophies" and not card.enemy:
                faults.append((f"{where}/{key}/{i}", Msg(N_("{card} is not an enemy"), card=card.name)))
            elif card is not None:
                seat[key].append(card.code)
    table.discard[pid] = seat["discard"]
    seat["spent"] = spent
    at_scenario = raw.get("at_scenario", False)
    if not isinstance(at_scenario, bool):
        faults.append((f"{where}/at_scenario", Msg(N_("true or false"))))
    elif at_scenario:
        seat["at_scenario"] = True
    return seat


# the effects that changed a contest's scores when it began (relic.timing.start): kind -> its key
_START_SCORES: Final = {"score": "score", "enemy-score": "enemy_score", "difficulty": "enemy_score"}


def _contest(raw: Any, pid: str, position: dict[str, Any], table: _Table, faults: Faults,
             ) -> dict[str, Any] | None:
    at = "/contest"
    kinds = [k for k in ("battle", "test", "confrontation") if isinstance(raw, dict) and k in raw]
    if len(kinds) != 1:
        faults.append((at, Msg(N_("a contest is one of {\"battle\": [enemies]}, {\"test\": skill, \"target\": n} "
                                  "or {\"confrontation\": true}"))))
        return None
    if position["phase"] != "encounter":
        faults.append(("/phase", Msg(N_("a battle or a skill test takes place in the Encounter phase "
                                        "(relic.base.turn)"))))
    kind = kinds[0]
    enemies: list[Card] = []
    out: dict[str, Any] = {"kind": "battle", "confrontation": False}
    if kind == "battle":
        for i, name in enumerate(_list(raw, "battle", at, faults, MAX_LIST) or [None]):
            card = table.card(name, f"{at}/battle/{i}", faults)
            if card is not None and card.battle is None:
                faults.append((f"{at}/battle/{i}", Msg(N_("{card} is not an enemy"), card=card.name)))
            elif card is not None:
                enemies.append(card)
        colors = {e.battle[0] for e in enemies if e.battle}
        if len(colors) > 1:
            faults.append((f"{at}/battle", Msg(N_("enemies of different colours are separate battles "
                                                  "(relic.base.threats)"))))
        out.update(color=enemies[0].battle[0] if enemies and enemies[0].battle else "red",
                   value=sum(e.battle[1] for e in enemies if e.battle), enemies=[e.code for e in enemies])
    elif kind == "test":
        skill = raw["test"]
        if skill not in SKILLS:
            faults.append((f"{at}/test", Msg(N_("'skill' is one of {known}"), known=", ".join(SKILLS))))
            skill = SKILLS[0]
        out.update(kind="test", color=COLOR_OF[skill], value=_int(raw, "target", at, faults, 0, MAX_VALUE, 0))
    else:
        scenario = position["scenario"]
        if raw["confrontation"] is not True or scenario is None:
            faults.append((f"{at}/confrontation", Msg(N_("the Confrontation is the scenario's: name the 'scenario' "
                                                         "(relic.scenario.confrontation)"))))
            return None
        if not position["players"][pid].get("at_scenario"):
            faults.append((f"{at}/confrontation", Msg(N_("{player} is not on the scenario space"), player=pid)))
        conf = scenario["confrontation"]
        color = conf["color"] if conf["kind"] == "battle" else COLOR_OF[conf["skill"]]
        out.update(kind=conf["kind"], color=color, confrontation=True,
                   value=conf["value"] if conf["kind"] == "battle" else conf["target"])
    started = {"score": 0, "enemy_score": 0}
    for card in (*enemies, *(table.pool.cards[a["code"]] for a in position["players"][pid]["assets"])):
        eff = card.effect
        if eff is not None and eff.timing == "start" and eff.window == out["kind"] and eff.kind in _START_SCORES:
            started[_START_SCORES[eff.kind]] += eff.value
    for key in ("score", "enemy_score"):
        out[key] = _int(raw, key, at, faults, -MAX_VALUE, MAX_VALUE, started[key], "relic.dice.modify")
    out["declared"] = [d for i, entry in enumerate(_list(raw, "declared", at, faults, MAX_LIST))
                       if (d := _declared(entry, f"{at}/declared/{i}", pid, out, table, faults)) is not None]
    used = [r for i, entry in enumerate(_list(raw, "used", at, faults, MAX_LIST))
            if (r := _used(entry, f"{at}/used/{i}", pid, out, table, faults)) is not None]
    if used:
        out["used"] = used
    out["dice"] = _dice(_list(raw, "dice", at, faults, 2 * MAX_DICE), out["kind"], faults)
    out["stage"] = "rolled" if out["dice"] else "prepare"
    roots = sum(1 for d in out["dice"] if d["side"] == "player" and "parent" not in d)
    out["extra"] = _int(raw, "extra", at, faults, 0, MAX_EXTRA, max(roots - 1, 0), "relic.dice.additional-simultaneous")
    if out["dice"] and roots != 1 + out["extra"]:
        faults.append((f"{at}/dice", Msg(N_("the player rolled {n} dice together: 1 and each extra die "
                                            "(relic.dice.additional-simultaneous)"), n=1 + out["extra"])))
    if raw.get("power") is not None:
        out["power"] = _int(raw, "power", at, faults, 1, 6, 1, "relic.base.power")
    if not out["confrontation"]:
        del out["confrontation"]
    if not out.get("enemies"):
        out.pop("enemies", None)
    return out


def _declared(entry: Any, where: str, pid: str, contest: dict[str, Any], table: _Table, faults: Faults,
              ) -> dict[str, Any] | None:
    """A bonus declared: on an asset ``pid`` holds, or on one its last charge discarded
    (relic.project.bonus-outlives-card); of the contest's kind and colour."""
    obj = entry if isinstance(entry, dict) else {"card": entry}
    name = obj.get("card")
    ref = table.ref(pid, name, f"{where}/card" if isinstance(entry, dict) else where, faults) \
        if isinstance(name, str) and name.strip() else None
    if ref is None:
        if not (isinstance(name, str) and name.strip()):
            faults.append((where, Msg(N_("a card's name or code"))))
        return None
    code = ref.split(".", 1)[1].split("#")[0]
    held = any(r == ref for _, r in table.held.get(pid, []))
    card = table.pool.cards[code]
    if not held and code not in table.discard.get(pid, []):
        faults.append((where, Msg(N_("{player} has no asset {card} in their play area"), player=pid, card=card.name)))
        return None
    index = _int(obj, "bonus", where, faults, 0, MAX_LIST, 0, "relic.cards.anatomy")
    if index >= len(card.bonuses):
        faults.append((where, Msg(N_("{card} has {n_bonuses} bonus(es); there is no bonus {bonus}"), card=card.name,
                                  n_bonuses=len(card.bonuses), bonus=index)))
        return None
    bonus = card.bonuses[index]
    kind = "battle" if contest["kind"] == "battle" else "skill"
    if bonus.kind != kind or bonus.color not in (contest["color"], "gray" if kind == "battle" else ""):
        faults.append((where, Msg(N_("{card}'s bonus ({kind}, {color}) does not count in a {contest} of {skill} "
                                     "(relic.bonuses.skill, relic.bonuses.battle-colors)"), card=card.name,
                                  kind=bonus.kind, color=bonus.color, contest=contest["kind"],
                                  skill=CHARACTERISTIC[contest["color"]])))
        return None
    return {"card": ref, "code": code, "bonus": index, "kind": bonus.kind, "color": bonus.color, "value": bonus.value}


def _used(entry: Any, where: str, pid: str, contest: dict[str, Any], table: _Table, faults: Faults) -> str | None:
    """A weapon or armour whose effect ``pid`` used in the battle (relic.project.effect-uses-card): held,
    or discarded by its last charge since."""
    ref = table.ref(pid, entry, where, faults) if isinstance(entry, str) and entry.strip() else None
    if ref is None:
        if not (isinstance(entry, str) and entry.strip()):
            faults.append((where, Msg(N_("a card's name or code"))))
        return None
    code = ref.split(".", 1)[1].split("#")[0]
    card = table.pool.cards[code]
    if not any(r == ref for _, r in table.held.get(pid, [])) and code not in table.discard.get(pid, []):
        faults.append((where, Msg(N_("{player} has no asset {card} in their play area"), player=pid, card=card.name)))
        return None
    if contest["kind"] != "battle" or card.type.lower() not in ("weapon", "armour", "armor"):
        faults.append((where, Msg(N_("'used' lists the weapons and armour whose effect was used in this battle "
                                     "(relic.project.effect-uses-card)"))))
        return None
    return ref


def _dice(raw: list[Any], kind: str, faults: Faults) -> list[dict[str, Any]]:
    """The dice rolled, as the position writes them; numbered by side in the order rolled
    (relic.project.roll-order), each 6 with its explosion (relic.dice.exploding)."""
    at = "/contest/dice"
    dice: list[dict[str, Any]] = []
    for i, d in enumerate(raw):
        where = f"{at}/{i}"
        m = _DIE_ID.match(d["id"]) if isinstance(d, dict) and isinstance(d.get("id"), str) else None
        rolls = d.get("rolls") if isinstance(d, dict) else None
        if m is None or not isinstance(rolls, list) or not 1 <= len(rolls) <= MAX_ROLLS \
                or not all(type(r) is int and 1 <= r <= 6 for r in rolls):
            faults.append((where, Msg(N_("a die is {{\"id\": \"d1\" or \"e1\", \"rolls\": [1 to 6, ...]}}, at most "
                                         "{n} rolls"), n=MAX_ROLLS)))
            continue
        mods = d.get("modifiers", [])
        if not isinstance(mods, list) or len(mods) > MAX_ROLLS \
                or not all(type(v) is int and -MAX_VALUE <= v <= MAX_VALUE for v in mods):
            faults.append((f"{where}/modifiers", Msg(N_("'{key}': a list of at most {n}"), key="modifiers",
                                                     n=MAX_ROLLS)))
            continue
        if not isinstance(d.get("void", False), bool) or not isinstance(d.get("parent", ""), str):
            faults.append((where, Msg(N_("'parent' is a die's ID and 'void' true or false"))))
            continue
        die: dict[str, Any] = {"id": d["id"], "side": "player" if d["id"][0] == "d" else "enemy", "rolls": rolls}
        if mods:
            die["modifiers"] = mods
        if d.get("parent") is not None:
            die["parent"] = d["parent"]
        if d.get("void"):
            die["void"] = True
        dice.append(die)
    if len(dice) != len(raw):
        return dice
    by_id = {d["id"]: d for d in dice}
    for side, prefix in (("player", "d"), ("enemy", "e")):
        numbers = sorted(int(d["id"][1:]) for d in dice if d["side"] == side)
        if numbers != list(range(1, len(numbers) + 1)):
            faults.append((at, Msg(N_("the {side}'s dice are {prefix}1, {prefix}2... numbered in the order rolled, "
                                      "each once (relic.project.roll-order)"), side=side, prefix=prefix)))
            return dice
    enemy_roots = sum(1 for d in dice if d["side"] == "enemy" and "parent" not in d)
    if dice and enemy_roots != (1 if kind == "battle" else 0):
        faults.append((at, Msg(N_("a battle's roll has one enemy die, e1 (relic.base.battle)") if kind == "battle" else
                               N_("a skill test has no enemy die (relic.base.skill)"))))
    for i, d in enumerate(dice):
        parent = by_id.get(d.get("parent", ""))
        if "parent" in d and (parent is None or parent["side"] != d["side"]
                              or int(parent["id"][1:]) >= int(d["id"][1:])):
            faults.append((f"{at}/{i}/parent", Msg(N_("a die explodes from a die of its side rolled before it "
                                                      "(relic.dice.exploding)"))))
        elif d.get("void") and (parent is None or not (parent.get("void") or len(parent["rolls"]) > 1)):
            faults.append((f"{at}/{i}/void", Msg(N_("only an explosion of a die rerolled since is void "
                                                    "(relic.project.reroll-voids-explosions)"))))
        elif not d.get("void") and parent is not None and (parent.get("void") or parent["rolls"][-1] != 6):
            faults.append((f"{at}/{i}/parent", Msg(N_("{die} explodes from {parent}, which does not show 6 now: it is "
                                                      "void (relic.dice.reroll)"), die=d["id"], parent=parent["id"])))
        elif not d.get("void") and d["rolls"][-1] == 6 and \
                sum(1 for e in dice if e.get("parent") == d["id"] and not e.get("void")) != 1:
            faults.append((f"{at}/{i}", Msg(N_("{die} shows 6: it exploded once, into one more die of its side "
                                               "(relic.dice.exploding), e.g. 'from {die}'"), die=d["id"])))
    return dice


def _choices(spec: dict[str, Any], pid: str, table: _Table, faults: Faults) -> list[dict[str, Any]]:
    """The answers to the decisions the asked step raises, the active player's (names to
    references of their cards, or to codes)."""
    out = []
    for i, ch in enumerate(_list(spec, "choices", "", faults, MAX_LIST)):
        where = f"/choices/{i}"
        answer = ch.get("answer") if isinstance(ch, dict) else None
        items = answer if isinstance(answer, list) else [answer]
        if not isinstance(ch, dict) or not isinstance(ch.get("kind"), str) or len(items) > MAX_LIST \
                or not all(isinstance(a, str) and a.strip() for a in items):
            faults.append((where, Msg(N_("a choice is {\"kind\": \"order\", \"discard\" or \"card\", \"answer\": "
                                         "[names]}"))))
            continue
        named = []
        for k, item in enumerate(items):
            if item.startswith("scenario:"):  # a scenario's special rule, in an order
                named.append(item)
                continue
            card = table.card(item, f"{where}/answer/{k}" if isinstance(answer, list) else f"{where}/answer", faults)
            if card is not None:
                held = [ref for code, ref in table.held.get(pid, []) if code == card.code]
                named.append(held[0] if len(held) == 1 else card.code)
        out.append({"by": pid, "kind": ch["kind"],
                    "answer": named[0] if ch["kind"] == "card" and len(named) == 1 else named})
    return out


def _ask(ask: str, ids: list[str], table: _Table, faults: Faults) -> dict[str, Any] | None:
    head = ask_words(ask, ids, faults)
    if head is None:
        return None
    by, verb, rest = head
    if verb not in VERBS:
        faults.append(("/ask", Msg(N_("'do' must be one of {known}{near}"), known=", ".join(VERBS),
                                   near=nearest(verb, VERBS))))
        return None
    step: dict[str, Any] = {"by": by, "do": verb}
    if verb == "roll":
        rest, rolling = "", rest
    else:
        parts = _ROLLING.split(f" {rest} ", maxsplit=1)
        rest, rolling = parts[0].strip(), (parts[1] if len(parts) > 1 else "")
    faces = rolling.split()
    if faces:
        if len(faces) > 2 * MAX_DICE or not all(f in _FACES for f in faces):
            faults.append(("/ask", Msg(N_("the dice the step rolls: faces 1 to 6, at most {n} (relic.dice.exploding)"),
                                      n=2 * MAX_DICE)))
            return None
        step["roll"] = faces
    if verb in ("battle", "discard"):
        cards = _names(rest)
        if not 1 <= len(cards) <= MAX_LIST:
            faults.append(("/ask", Msg(N_("'P {verb} CARD, CARD', at most {n}"), verb=verb, n=MAX_LIST)))
            return None
        if verb == "battle":
            named = [table.card(c, "/ask", faults) for c in cards]
            step["enemies"] = [c.code for c in named if c is not None]
        else:
            step["cards"] = [table.ref(by, c, "/ask", faults) for c in cards]
    elif verb == "test":
        skill, _, target = rest.partition(" ")
        if skill not in SKILLS or not target.strip().isdigit() or int(target) > MAX_VALUE:
            faults.append(("/ask", Msg(N_("'P test SKILL TARGET': a skill of {known}, a target from 0 to {n}"),
                                      known=", ".join(SKILLS), n=MAX_VALUE)))
            return None
        step.update(skill=skill, target=int(target))
    elif verb in ("declare", "use", "power", "buy"):
        name, bonus, die = rest, "", ""
        if verb in ("declare", "use"):
            name, sep, tail = rest.rpartition(" bonus " if verb == "declare" else " on ")
            name, tail = (name, tail) if sep else (rest, "")
            bonus, die = (tail, "") if verb == "declare" else ("", tail)
        if not name.strip():
            faults.append(("/ask", Msg(N_("a '{verb}' step names its 'card'"), verb=verb)))
            return None
        if verb == "buy":
            card = table.card(name, "/ask", faults)
            step["card"] = card.code if card else None
        else:
            step["card"] = table.ref(by, name, "/ask", faults)
        if bonus.strip():
            if not bonus.strip().isdigit() or int(bonus) > MAX_VALUE:
                faults.append(("/ask", Msg(N_("'{key}' is a whole number from 0 to 99"), key="bonus")))
                return None
            step["bonus"] = int(bonus)
        if die.strip():
            if not DIE.match(die.strip()):
                faults.append(("/ask", Msg(N_("'die' is a die's ID: d1, d2... (the player's) or e1... (the enemy's)"))))
                return None
            step["die"] = die.strip()
    elif rest:
        faults.append(("/ask", Msg(N_("cannot read {words}: a '{verb}' step names nothing more"), words=repr(rest),
                                  verb=verb)))
        return None
    return None if any(p == "/ask" for p, _ in faults) else step
