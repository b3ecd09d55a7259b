"""A Relic log's players and setup, from the beginning or from a position.

From the beginning (relic.base.setup): each player entry names a ``character`` (a code of the pool
or a sheet written in the log), and may list ``assets`` and ``power`` cards (codes) and their
``influence`` (default 3). ``setup`` may hold ``cards`` (the log's own card definitions, which the
steps may use beside the project's), ``scenario`` (a code or a sheet) and ``first`` (the first
player; default the first listed). Charge tokens are placed on the starting cards
(relic.charges.initial).

A position (``setup.position``) is a state's ``position()``; it is read back to the same state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from i18n import N_, Msg
from judge.games.relic.cards import (
    COLORS,
    Card,
    Character,
    Pool,
    Scenario,
    _int,
    _keys,
    read_cards,
    read_character,
    read_scenario,
)
from judge.games.relic.state import SIDES, Contest, Die, Held, Player, RelicState

PLAYER_KEYS = ("id", "name", "character", "assets", "power", "influence")
SETUP_KEYS = ("cards", "scenario", "first", "choices", "roll", "random")
PHASES = ("movement", "exploration", "encounter", "experience", "over")
POSITION_KEYS = ("round", "phase", "turn", "order", "players", "scenario", "contest", "winner", "reason", "cards",
                 "last", "ended", "confronted")
Faults = list[tuple[str, str]]


def _character(raw: Any, path: str, pool: Pool, faults: Faults) -> Character:
    if isinstance(raw, str):
        if raw not in pool.characters:
            faults.append((path, Msg(N_("no character sheet {name} (the project's: {known})"), name=repr(raw),
                                      known=", ".join(sorted(pool.characters)))))
            return Character("", 1, 1, 1, 1)
        return pool.characters[raw]
    return read_character(raw, path, faults)


def _scenario(raw: Any, path: str, pool: Pool, faults: Faults) -> Scenario | None:
    if raw is None:
        return None
    if isinstance(raw, str):
        if raw not in pool.scenarios:
            faults.append((path, Msg(N_("no scenario sheet {name} (the project's: {known})"), name=repr(raw),
                                      known=", ".join(sorted(pool.scenarios)))))
            return None
        return pool.scenarios[raw]
    return read_scenario(raw, path, faults)


def read_setup(players: Sequence[Any], setup: Mapping[str, Any], pool: Pool,
               ) -> tuple[RelicState | None, list[tuple[str, list[str], list[str]]], Faults]:
    """The state before setup's effects, the cards each player starts with, and the faults."""
    faults: Faults = []
    _keys(setup, SETUP_KEYS, "/setup", "a Relic setup", faults)
    own = read_cards(setup.get("cards", {}), "/setup/cards", faults)
    pool = pool.with_cards(own)
    scenario = _scenario(setup.get("scenario"), "/setup/scenario", pool, faults)
    out: dict[str, Player] = {}
    starting: list[tuple[str, list[str], list[str]]] = []
    for i, entry in enumerate(players):
        at = f"/players/{i}"
        if not isinstance(entry, dict) or not isinstance(entry.get("id"), str):
            continue
        _keys(entry, PLAYER_KEYS, at, "a Relic player", faults)
        if "character" not in entry:
            faults.append((f"{at}", Msg(N_("a Relic player names their 'character' (a sheet's code or the sheet)"))))
        ch = _character(entry.get("character"), f"{at}/character", pool, faults)
        influence = _int(entry.get("influence", 3), f"{at}/influence", faults)  # relic.base.setup: 3
        lists: dict[str, list[str]] = {}
        for key in ("assets", "power"):
            raw = entry.get(key, [])
            if not isinstance(raw, list) or not all(isinstance(c, str) for c in raw):
                faults.append((f"{at}/{key}", Msg(N_("'{key}' lists card codes"), key=key)))
                raw = []
            for j, code in enumerate(raw):
                card = pool.get(code)
                if card is None:
                    faults.append((f"{at}/{key}/{j}",
                                   Msg(N_("card {code} is not defined (setup.cards or the project's)"),
                                       code=repr(code))))
                elif (key == "power") != card.power:
                    faults.append((f"{at}/{key}/{j}", Msg(N_("{card} is a Power card") if card.power else
                                                           N_("{card} is not a Power card"), card=card.name)))
            lists[key] = list(raw)
        pid = entry["id"]
        out[pid] = Player(id=pid, name=str(entry.get("name", "")), character=ch, strength=ch.strength,
                          willpower=ch.willpower, cunning=ch.cunning, life=ch.life, influence=influence)
        starting.append((pid, lists["assets"], lists["power"]))
    order = [p for p in out]
    first = setup.get("first", order[0] if order else None)
    if not isinstance(first, str) or first not in out:
        faults.append(("/setup/first", Msg(N_("'first' names a player of this log ({players})"),
                                          players=", ".join(order))))
        first = order[0] if order else None
    if faults:
        return None, starting, faults
    state = RelicState(players=out, order=order, pool=pool, cards=own, scenario=scenario, turn=first)
    return state, starting, faults


# -- positions --------------------------------------------------------------------------------
def _held(raw: Any, path: str, pool: Pool, faults: Faults) -> list[Held]:
    if not isinstance(raw, list):
        faults.append((path, Msg(N_("a list of {\"ref\", \"code\", \"charges\"}"))))
        return []
    out = []
    for i, h in enumerate(raw):
        if not isinstance(h, dict) or not isinstance(h.get("ref"), str) or not isinstance(h.get("code"), str):
            faults.append((f"{path}/{i}", Msg(N_("a card held is {\"ref\", \"code\", \"charges\"}"))))
            continue
        if pool.get(h["code"]) is None:
            faults.append((f"{path}/{i}/code", Msg(N_("card {code} is not defined"), code=repr(h["code"]))))
        out.append(Held(h["ref"], h["code"], _int(h.get("charges", 0), f"{path}/{i}/charges", faults)))
    return out


def _codes(raw: Any, path: str, faults: Faults) -> list[str]:
    if not isinstance(raw, list) or not all(isinstance(c, str) for c in raw):
        faults.append((path, Msg(N_("a list of card codes"))))
        return []
    return list(raw)


def _contest(raw: Any, path: str, faults: Faults) -> Contest | None:
    if raw is None:
        return None
    try:
        dice = [Die(id=str(d["id"]), side=str(d["side"]), rolls=[int(r) for r in d["rolls"]],
                    modifiers=[int(m) for m in d.get("modifiers", [])], parent=d.get("parent"),
                    void=bool(d.get("void", False))) for d in raw.get("dice", [])]
        c = Contest(kind=str(raw["kind"]), color=str(raw["color"]), enemies=[str(e) for e in raw.get("enemies", [])],
                    value=int(raw["value"]), confrontation=bool(raw.get("confrontation", False)),
                    stage=str(raw.get("stage", "prepare")), declared=[dict(d) for d in raw.get("declared", [])],
                    extra=int(raw.get("extra", 0)), dice=dice, score=int(raw.get("score", 0)),
                    enemy_score=int(raw.get("enemy_score", 0)),
                    power=int(raw["power"]) if raw.get("power") is not None else None,
                    used=list(raw.get("used", [])))
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        faults.append((path, Msg(N_("a contest as a state's position writes it ({error})"),
                                  error=f"{type(exc).__name__}: {exc}")))
        return None
    declared_ok = all(isinstance(d.get("card"), str) and type(d.get("bonus")) is int and type(d.get("value")) is int
                      and d.get("kind") in ("skill", "battle") and d.get("color") in COLORS for d in c.declared)
    dice_ok = all(d.side in SIDES and d.rolls and all(1 <= r <= 6 for r in d.rolls)
                  and (d.parent is None or isinstance(d.parent, str)) for d in dice)
    declared_ok = declared_ok and all(isinstance(u, str) for u in c.used)
    if not declared_ok or not dice_ok or c.kind not in ("battle", "test") or c.color not in COLORS[:3] \
            or c.stage not in ("prepare", "rolled"):
        faults.append((path, Msg(N_("a contest: kind battle|test, colour red|blue|yellow, stage prepare|rolled, "
                                    "dice 1-6"))))
        return None
    return c


def from_position(position: Any, players: Sequence[Mapping[str, Any]], pool: Pool,
                  ) -> tuple[RelicState | None, Faults]:
    faults: Faults = []
    if not isinstance(position, dict):
        return None, [("/setup/position", Msg(N_("a position is an object (a state's position)")))]
    at = "/setup/position"
    _keys(position, POSITION_KEYS, at, "a Relic position", faults)
    own = read_cards(position.get("cards", {}), f"{at}/cards", faults)
    pool = pool.with_cards(own)
    ids = [p["id"] for p in players]
    raw_players = position.get("players")
    if not isinstance(raw_players, dict) or sorted(raw_players) != sorted(ids):
        return None, [*faults, (f"{at}/players", Msg(N_("the position's players are the log's ({players})"),
                                                        players=", ".join(ids)))]
    out: dict[str, Player] = {}
    for pid in ids:
        raw, pat = raw_players[pid], f"{at}/players/{pid}"
        if not isinstance(raw, dict):
            faults.append((pat, Msg(N_("a player's position is an object"))))
            continue
        ch = read_character(raw.get("character"), f"{pat}/character", faults)
        vals = {k: _int(raw.get(k, getattr(ch, k)), f"{pat}/{k}", faults, 0 if k == "life" else 1, 12)
                for k in ("strength", "willpower", "cunning", "life")}
        out[pid] = Player(id=pid, name=str(raw.get("name", "")), character=ch, influence=_int(
            raw.get("influence", 0), f"{pat}/influence", faults), assets=_held(raw.get("assets", []), f"{pat}/assets",
                                                                              pool, faults),
            hand=_held(raw.get("hand", []), f"{pat}/hand", pool, faults),
            discard=_codes(raw.get("discard", []), f"{pat}/discard", faults),
            trophies=_codes(raw.get("trophies", []), f"{pat}/trophies", faults),
            at_scenario=raw.get("at_scenario", False) is True,
            spent=_codes(raw.get("spent", []), f"{pat}/spent", faults), **vals)
    order = position.get("order", ids)
    if not isinstance(order, list) or not all(isinstance(o, str) for o in order) or sorted(order) != sorted(ids):
        faults.append((f"{at}/order", Msg(N_("'order' lists the log's players in turn order"))))
        order = ids
    phase = position.get("phase", "encounter")
    if phase not in PHASES:
        faults.append((f"{at}/phase", Msg(N_("'phase' is one of {known}"), known=", ".join(PHASES))))
    turn = position.get("turn", order[0] if order else None)
    if not isinstance(turn, str) or turn not in ids:
        faults.append((f"{at}/turn", Msg(N_("'turn' names the active player"))))
    scenario = read_scenario(position["scenario"], f"{at}/scenario", faults) if position.get("scenario") else None
    contest = _contest(position.get("contest"), f"{at}/contest", faults)
    last = position.get("last")
    if last is not None and not (isinstance(last, dict) and set(last) == {"kind", "score", "against", "outcome"}
                                 and all(type(last[k]) is int for k in ("score", "against"))
                                 and all(isinstance(last[k], str) for k in ("kind", "outcome"))):
        faults.append((f"{at}/last", Msg(N_("'last' is {\"kind\", \"score\", \"against\", \"outcome\"}"))))
    ended, confronted = position.get("ended"), position.get("confronted", False)
    if ended is not None and (ended not in ("lost", "tied") or phase != "encounter" or contest is not None):
        faults.append((f"{at}/ended", Msg(N_("'ended' is \"lost\" or \"tied\": a battle lost or tied this Encounter "
                                             "phase, with no battle or test under way (relic.base.threats)"))))
    if confronted is not False and (confronted is not True or phase != "encounter"
                                    or not (isinstance(turn, str) and turn in out and out[turn].at_scenario)):
        faults.append((f"{at}/confronted", Msg(N_("'confronted' is true when the active player, on the scenario "
                                                  "space, resolved the Confrontation this Encounter phase"))))
    if faults:
        return None, faults
    state = RelicState(players=out, order=list(order), pool=pool, cards=own, scenario=scenario,
                       round=_int(position.get("round", 1), f"{at}/round", faults, 1, 10_000), phase=str(phase),
                       turn=str(turn), contest=contest, last=dict(last) if isinstance(last, dict) else None,
                       winner=position.get("winner") if isinstance(position.get("winner"), str) else None,
                       reason=position.get("reason") if isinstance(position.get("reason"), str) else None,
                       ended=ended, confronted=confronted is True)
    return (state, []) if not faults else (None, faults)


def starting_cards(state: RelicState, starting: list[tuple[str, list[str], list[str]]]) -> list[tuple[str, Held, Card]]:
    from judge.games.relic.engine import new_held

    out = []
    for pid, assets, power in starting:
        for code in (*assets, *power):
            card = state.card(code)
            assert card is not None
            out.append((pid, new_held(state.players[pid], card), card))
    return out
