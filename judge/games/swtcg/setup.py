"""SW TCG setup: from the beginning (decks, opening hands, the 30-build-point deployment) or from a
position (any moment of a game, written by hand or by ``GameState.position``).

From the beginning (base.setup, swtcg.setup.*): each player's ``deck`` (60 codes) is shuffled by
the log's ``rng`` unless ``setup.decks`` gives its order (top first); each draws 7
(swtcg.project.opening-hand). Then, the Dark Side first, players deploy units from hand with 30
build points, drawing a card for each (swtcg.setup.draw-per-deploy); the player with fewer build
points deployed deploys next (the Dark Side on a tie); a player who passes deploys no more
(swtcg.setup.out-of-units). Last, each (Dark Side first) may partially build one unit with what is
left, and draws a card for it (swtcg.setup.units-only). Turn 1 begins.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from i18n import N_, Msg
from judge.games.base import Faults, Policy
from judge.games.inputs import NO_INPUTS
from judge.games.swtcg import engine as en
from judge.games.swtcg.engine import Ctx
from judge.games.swtcg.model import SIDES, CardPool
from judge.games.swtcg.procedure import advance
from judge.games.swtcg.shape import shapes
from judge.games.swtcg.state import ARENAS, UNKNOWN, ZONES, AttackState, Card, Chance, GameState, Player, RollState
from judge.games.swtcg.steps import REF
from judge.kernel.core import MissingOutcome
from judge.kernel.rng import Rng

MAX_DECK = 200
WAITS = ("deploy", "partial", "build", "retreat", "act", "chance")


def side_of(deck: Sequence[str], cards: CardPool) -> str | None:
    """The one side (dark, light) of the deck's cards the pool knows, neutral ones aside; None for none
    or both."""
    pool = cards.cards
    side: str | None = None
    last = ""
    for code in deck:
        if code == last:
            continue  # (the code before it again: a decklist's copies of a card come together)
        last = code
        d = pool.get(code)
        if d is None or d.side == "neutral" or d.side == side:
            continue
        if side is not None:
            return None  # (two sides)
        side = d.side
    return side


def check_players(players: Sequence[Any], cards: CardPool) -> Faults:
    faults: Faults = []
    sides = []
    for i, p in enumerate(players):
        if not isinstance(p, dict):
            continue
        deck = p.get("deck")
        at = f"/players/{i}/deck"
        if not isinstance(deck, list) or not deck or len(deck) > MAX_DECK:
            faults.append((at, Msg(N_("'deck' lists the codes of the player's cards (1 to {n})"), n=MAX_DECK)))
            continue
        for j, code in enumerate(deck):
            if code not in cards:
                faults.append((f"{at}/{j}", Msg(N_("{code} is not a card code of the pool"), code=repr(code))))
        if faults:
            continue
        side = side_of(deck, cards)
        if side is None:
            faults.append((at, Msg(N_("a deck is Dark Side or Light Side, with neutral cards (base.cards.stats)"))))
        sides.append(side)
    if len(sides) == 2 and sides[0] == sides[1] and sides[0] is not None:
        faults.append(("/players", Msg(N_("one player is the Dark Side, the other the Light Side"))))
    return faults


def check_beginning(setup: Mapping[str, Any], players: Sequence[Any], cards: CardPool) -> Faults:
    faults: Faults = []
    for key in setup:
        if key not in ("decks", "choices", "roll"):
            faults.append((f"/setup/{key}", Msg(N_("unknown key '{key}' in setup; the known keys are choices, decks, "
                                                   "position, roll"), key=key)))
    decks = setup.get("decks")
    if decks is not None:
        if not isinstance(decks, dict):
            return [*faults, ("/setup/decks", Msg(N_("'decks' maps each player to their deck's order, top first")))]
        by_id = {p.get("id"): p for p in players if isinstance(p, dict)}
        for pid, order in decks.items():
            if pid not in by_id:
                faults.append((f"/setup/decks/{pid}", Msg(N_("{pid} is not a player of this log"), pid=pid)))
            elif not isinstance(order, list) or sorted(map(str, order)) != sorted(map(str, by_id[pid].get("deck", []))):
                faults.append((f"/setup/decks/{pid}", Msg(N_("the order lists the player's deck, each card once"))))
    return faults


def from_beginning(players: list[dict[str, Any]], setup: dict[str, Any], cards: CardPool, rng: Rng | None,
                   policy: Policy | None) -> tuple[GameState, Ctx]:
    from judge.games.inputs import parse_inputs

    st = GameState()
    faults: list[tuple[str, str]] = []
    inputs = parse_inputs(setup, "/setup", [p["id"] for p in players], faults) if ("choices" in setup or
                                                                                  "roll" in setup) else NO_INPUTS
    ctx = Ctx(st, cards, inputs, rng, policy)
    for p in players:
        listed = p["deck"]
        deck = list(listed)
        order = (setup.get("decks") or {}).get(p["id"])
        if order is not None:
            deck = listed = list(order)
        elif rng is not None:
            rng.shuffle(deck)
        else:
            raise MissingOutcome(Msg(
                N_("the order of {p}'s deck: give setup.decks or an rng"),
                p=p['id'],
            ), "swtcg.base.setup")
        # (the side of the cards as listed, the same cards as the deck: side_of passes over a decklist's
        # copies of a card, which come together there, not once shuffled)
        st.players[p["id"]] = Player(id=p["id"], name=p.get("name", ""), side=side_of(listed, cards) or "dark",
                                     deck=deck)
    for player in st.players.values():
        if en.reads_last_attack(cards, player.deck):
            st.last_hits = {}  # a deck has a card that reads units' last attacks (swtcg.project.last-attack)
            break
    st.phase, st.step = "setup", "setup"
    for pid in st.side_order():
        en.draw(ctx, pid, en.OPENING_HAND, ("swtcg.project.opening-hand",))
    st.wait = "deploy"
    st.turn = st.dark()
    advance(ctx)
    return st, ctx


# ====================================================================== from a position
def from_position(position: Any, players: list[dict[str, Any]], cards: CardPool) -> tuple[GameState | None, Faults]:
    """A state from ``setup.position`` (docs/replay-format.md, "SW TCG logs"), or its faults."""
    faults: Faults = []
    at = "/setup/position"
    if not isinstance(position, dict):
        return None, [(at, Msg(N_("a position is an object")))]
    position = copy.deepcopy(position)  # the state owns what it reads: the log is never changed
    ids = [p["id"] for p in players]
    if len(ids) != 2:
        return None, [("/players", Msg(N_("SW TCG is played by two players")))]
    sh = shapes(ids, cards)
    st = GameState()
    st.round = _int(position, "round", 1, at, faults)
    st.phase = str(position.get("phase", "battle"))
    if st.phase not in ("setup", "ready", "command", "battle", "over"):
        faults.append((f"{at}/phase", Msg(N_("'phase' is setup, command, battle or over"))))
    st.step = str(position.get("step", {"battle": "battle", "command": "build"}.get(st.phase, st.phase)))
    # the values are checked as read, and the state gets them only as its fields' types (a string or
    # None: the compiled engine refuses another type), the faults saying what was wrong
    arena = position.get("arena")
    if arena is not None and arena not in ARENAS:
        faults.append((f"{at}/arena", Msg(N_("'arena' is space, ground or character"))))
    st.arena = _str_or_none(arena)
    active = position.get("active")
    if active is not None and active not in ids:
        faults.append((f"{at}/active", Msg(N_("'active' is the player whose build or retreat step it is"))))
    st.active = _str_or_none(active)
    raw_players = position.get("players")
    if not isinstance(raw_players, dict) or sorted(raw_players) != sorted(ids):
        return None, [*faults, (f"{at}/players", Msg(N_("'players' has an entry for each of {players}"),
                                                        players=", ".join(ids)))]
    for pid in ids:
        raw = raw_players[pid]
        pat = f"{at}/players/{pid}"
        if not isinstance(raw, dict):
            faults.append((pat, Msg(N_("a player's entry is an object"))))
            continue
        side = raw.get("side")
        if side not in SIDES[:2]:
            faults.append((f"{pat}/side", Msg(N_("'side' is dark or light"))))
            side = "dark"
        name = raw.get("name", next((q.get("name", "") for q in players if q["id"] == pid), ""))
        p = Player(id=pid, name=name if isinstance(name, str) else "",
                   side=side, force=_int(raw, "force", 0, pat, faults), build=_int(raw, "build", 0, pat, faults))
        p.hand = _cards(raw.get("hand", []), f"{pat}/hand", cards, faults)
        p.deck = _cards(raw.get("deck", []), f"{pat}/deck", cards, faults)
        p.discard = _cards(raw.get("discard", []), f"{pat}/discard", cards, faults)
        p.deployed = _int(raw, "deployed", 0, pat, faults)
        p.done = bool(raw.get("done", False))
        for key in ("bounties", "once"):
            value = raw.get(key, [])
            if not sh[key](value):
                faults.append((f"{pat}/{key}", Msg(N_("'{key}' is not what a position writes there"), key=key)))
            else:
                setattr(p, key, value)
        st.players[pid] = p
    if len({p.side for p in st.players.values()}) != 2:
        faults.append((f"{at}/players", Msg(N_("one player is the Dark Side, the other the Light Side"))))
    raw_cards = position.get("cards", {})
    if not isinstance(raw_cards, dict):
        faults.append((f"{at}/cards", Msg(N_("'cards' maps references (p1.CODE) to cards in play"))))
        raw_cards = {}
    for ref, raw in raw_cards.items():
        cat = f"{at}/cards/{ref}"
        owner = ref.split(".", 1)[0]
        if not isinstance(ref, str) or not REF.match(ref) or owner not in ids:
            faults.append((cat, Msg(N_("a reference is <owner>.<code>, such as p1.SW001"))))
            continue
        if not isinstance(raw, dict) or raw.get("code") not in cards:
            faults.append((f"{cat}/code", Msg(N_("'code' is a card code of the pool"))))
            continue
        zone = raw.get("zone")
        if zone not in ZONES:
            faults.append((f"{cat}/zone", Msg(N_("'zone' is one of {known}"), known=", ".join(ZONES))))
            continue
        controller = raw.get("controller", owner)
        if controller not in ids:
            faults.append((f"{cat}/controller", Msg(N_("'controller' is a player of this log"))))
            continue
        d = cards.cards[raw["code"]]
        if not sh["under"](raw.get("under", [])):
            faults.append((f"{cat}/under", Msg(N_("'under' lists the codes stacked under the card (at most 3)"))))
            continue
        if zone in ARENAS and zone != d.type:
            faults.append((f"{cat}/zone",
                           Msg(N_("{card} is a {type} card: it goes to the {type} arena"), card=d.display,
                               type=d.type)))
        at_ = raw.get("at")
        if (zone == "location") != (d.type == "location" and zone != "build") or \
                (zone == "equipped") != (d.type == "equipment" and zone != "build"):
            faults.append((f"{cat}/zone", Msg(N_("a Location is in the build zone or 'location' (with 'at'), "
                                                 "Equipment in the build zone or 'equipped' (with 'on')"))))
            continue
        if zone == "location" and (at_ not in en.arenas_named(d.subtypes[0] if d.subtypes else "")
                                   or en.location_in(st, at_) is not None):
            faults.append((f"{cat}/at", Msg(N_("'at' is an arena the Location names, with no other Location "
                                               "(swtcg.project.location-per-arena)"))))
            continue
        st.cards[ref] = Card(ref=ref, code=raw["code"], owner=owner, controller=controller, zone=zone,
                             tapped=bool(raw.get("tapped", False)), damage=_int(raw, "damage", 0, cat, faults),
                             counters=_int(raw, "counters", 0, cat, faults), built=bool(raw.get("built", True)),
                             under=[str(u) for u in raw.get("under", [])], moved=bool(raw.get("moved", False)),
                             deployed_at=_int(raw, "deployed_at", 0, cat, faults),
                             at=at_ if zone == "location" else None)
        st.moved()
    for ref, raw in raw_cards.items():
        c = st.cards.get(ref)
        if c is None:
            continue
        on = raw.get("on")
        if c.zone == "pilot":
            u = st.cards.get(on) if isinstance(on, str) else None
            d = cards.cards[c.code]
            if u is None or d.pilot is None or u.zone == "pilot":
                faults.append((f"{at}/cards/{ref}/on",
                               Msg(N_("a pilot names its unit ('on') and has a Pilot ability"))))
            elif u.pilot is not None:
                faults.append((f"{at}/cards/{ref}/on",
                               Msg(N_("{on} has a pilot already (swtcg.pilots.one-per-unit)"), on=on)))
            else:
                c.on = on
                u.pilot = ref
                st.moved()
        elif c.zone == "equipped":
            u = st.cards.get(on) if isinstance(on, str) else None
            if u is None or u.zone not in ARENAS or u.controller != c.controller:
                faults.append((f"{at}/cards/{ref}/on", Msg(
                    N_("Equipment names the unit it is on ('on'), one of its controller's in an arena"))))
            else:
                c.on = on
                en.set_gear(st, on, ref, True)
    st.deploys = _int(position, "deploys", max([c.deployed_at for c in st.cards.values()] or [0]), at, faults)
    for key in ("chance", "attack", "roll", "damage", "later", "held", "mods", "frames", "build_started", "acting",
                "may"):
        value = position.get(key, None if key in ("chance", "attack", "roll") else [])
        if not sh[key](value):
            faults.append((f"{at}/{key}", Msg(N_("'{key}' is not what a position writes there (GameState.position)"),
                                               key=key)))
        elif key == "chance":
            st.chance = Chance.from_json(value) if value is not None else None
        elif key == "roll":
            st.roll = RollState.from_json(value) if value is not None else None
        elif key == "attack":
            st.attack = AttackState.from_json(value) if value is not None else None
        else:
            setattr(st, key, value)
    last = position.get("last_hits")
    if last is not None:
        if not (isinstance(last, dict) and all(isinstance(r, str) and r in st.cards and type(n) is int
                                               and 0 <= n <= 99 for r, n in last.items())):
            faults.append((f"{at}/last_hits", Msg(N_("'last_hits' gives units in play the hits of their last attack"))))
        else:
            st.last_hits = dict(last)
    elif en.reads_last_attack(cards, [*(c for p in st.players.values() for c in (*p.hand, *p.deck, *p.discard)),
                                      *(c.code for c in st.cards.values()),
                                      *(u for c in st.cards.values() for u in c.under)]):
        st.last_hits = {}  # a card that reads them is known: attacks from here on are remembered
    if any(ref not in st.cards for ref in st.acting):
        faults.append((f"{at}/acting", Msg(N_("'acting' names units in play"))))
    turn, wait = position.get("turn"), position.get("wait")
    winner, reason = position.get("winner"), position.get("reason")
    st.turn, st.wait = _str_or_none(turn), _str_or_none(wait)
    st.winner, st.reason = _str_or_none(winner), _str_or_none(reason)
    if winner is not None and winner not in ids:
        faults.append((f"{at}/winner", Msg(N_("'winner' is a player of this log"))))
    if reason is not None and not isinstance(reason, str):
        faults.append((f"{at}/reason", Msg(N_("'reason' is a string"))))
    if (wait == "chance") != (st.chance is not None):
        faults.append((f"{at}/chance", Msg(N_("a chance is open exactly when the player to act waits in it"))))
    if wait is not None and turn not in ids:
        faults.append((f"{at}/turn", Msg(N_("'turn' names the player to act"))))
    if wait == "act" and not st.acting:
        faults.append((f"{at}/acting", Msg(N_("a unit's turn in a battle step names the units that may act"))))
    if faults:
        return None, faults
    if "frames" not in position:
        _frames_from(st, faults, at)
    if wait is not None and wait not in WAITS:
        faults.append((f"{at}/wait", Msg(N_("'wait' is one of {known}"), known=", ".join(WAITS))))
    if turn is not None and turn not in ids:
        faults.append((f"{at}/turn", Msg(N_("'turn' is the player to act"))))
    if faults:
        return None, faults
    ctx = Ctx(st, cards)
    for ref, c in st.cards.items():
        if not c.damage:
            continue
        if c.zone == "pilot":  # a pilot keeps its own health: discarded with more counters (swtcg.pilots.health)
            health = cards.cards[c.code].health
            if c.damage > health:
                faults.append((f"{at}/cards/{ref}/damage", Msg(N_(
                    "{card} has {health} health: a pilot with {damage} damage counters is discarded "
                    "(swtcg.pilots.health)"), card=cards.cards[c.code].display, health=health, damage=c.damage)))
        elif c.zone in ARENAS:
            health = en.stat(ctx, ref, "health")  # (its health now: pilot, Equipment, mods)
            if c.damage >= health:
                faults.append((f"{at}/cards/{ref}/damage", Msg(N_(
                    "{card} has {health} health: a unit with {damage} damage counters is discarded "
                    "(swtcg.base.attack)"), card=cards.cards[c.code].display, health=health, damage=c.damage)))
    if faults:
        return None, faults
    if st.wait is None and st.phase != "over":
        try:
            advance(ctx)
        except Exception as exc:  # a position whose procedure stops at once is a fault of the position
            return None, [(at, Msg(N_("the position cannot be played from: {error}"),
                                      error=str(getattr(exc, "message", exc))))]
    return st, faults


def _str_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _frames_from(st: GameState, faults: Faults, at: str) -> None:
    """The rest of the turn after the step a hand-written position stands at (``step``, ``active``,
    ``arena``): a build or retreat step in progress, or a battle step where units act next."""
    dark, light = st.dark(), st.light()
    rest = [{"f": "build-start", "p": light}, {"f": "build", "p": light},
            {"f": "retreat", "p": dark}, {"f": "retreat", "p": light},
            {"f": "battle-start"}, {"f": "arena", "a": "space"}, {"f": "arena", "a": "ground"},
            {"f": "arena", "a": "character"}, {"f": "battle-end"}, {"f": "turn-end"}]
    if st.phase == "setup" or st.phase == "over":
        st.frames = []
        return
    if st.step == "build":
        active = st.active or dark
        st.build_started = [dark] if active == dark else [dark, light]
        start = 2 if active == dark else 2
        program = ([{"f": "build", "p": dark}] + rest) if active == dark else rest[1:]
        del start
    elif st.step == "retreat":
        active = st.active or dark
        program = rest[2:] if active == dark else rest[3:]
        st.build_started = [dark, light]
    elif st.step == "battle" and st.arena is not None:
        i = ARENAS.index(st.arena)
        program = [{"f": "arena-loop", "a": st.arena}] + [{"f": "arena", "a": a} for a in ARENAS[i + 1:]] + \
            [{"f": "battle-end"}, {"f": "turn-end"}]
        st.build_started = [dark, light]
    elif st.step == "battle":
        program = rest[4:]
        st.build_started = [dark, light]
    else:
        faults.append((f"{at}/step",
                       Msg(N_("'step' is build, retreat or battle (with 'arena' for a battle step under way)"))))
        return
    st.frames = list(reversed(program))
    if st.wait is None and program and program[0]["f"] in ("build", "retreat"):
        st.wait = None  # the procedure sets it


def _int(raw: Mapping[str, Any], key: str, default: int, at: str, faults: Faults) -> int:
    value = raw.get(key, default)
    if type(value) is not int or not 0 <= value <= 999:
        faults.append((f"{at}/{key}", Msg(N_("'{key}' is a whole number from 0 to 999"), key=key)))
        return default
    return value


def _cards(value: Any, at: str, cards: CardPool, faults: Faults) -> list[str]:
    if isinstance(value, dict) and set(value) == {"unknown"} and type(value["unknown"]) is int:
        return [UNKNOWN] * max(0, min(value["unknown"], MAX_DECK))
    if not isinstance(value, list) or len(value) > MAX_DECK:
        faults.append((at, Msg(N_("a list of card codes (or {\"unknown\": n})"))))
        return []
    out = []
    for i, code in enumerate(value):
        if code != UNKNOWN and (not isinstance(code, str) or code not in cards):
            faults.append((f"{at}/{i}", Msg(N_("{code} is not a card code of the pool"), code=repr(code))))
        else:
            out.append(code)
    return out
