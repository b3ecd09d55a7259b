"""Importing a user's copy of the community SW TCG catalog (``{"cards": [...]}`` JSON: ``card-id``,
``set-code``, ``number``, ``name``, ``type``, ``side``, ``cost``, ``speed``, ``power``, ``health``,
``subtype``, ``text``) into the project's card JSON (``model.card_json``).

Keyword text becomes engine abilities: "Accuracy 1", "Armor", "Critical Hit 2", "Lucky 1",
"Shields 2", "Stun 1", "Overkill", "Parry 1", "Stealth", "Intercept", "Evade 1", "Deflect 2", "Retaliate 2"
(each with an optional "Pay N Force ->" cost, X allowed for Evade), "Upkeep: Pay 1 build point or
tap this unit.", "Bounty: 1 Force.", "Reserves: <a keyword, or Tap (and/or Pay N Force) -> draw
cards, gain Force, or prevent up to N damage to one of your units>" (parse_reserves), and pilot
text "[Pilot] Starfighter Pilot. The Starfighter gets: * +20 speed. * Lucky 2."; a Mission's "One
of your units can't attack or be attacked this turn.", "Gain N Force." or "Draw N cards."; a
Location's "Each of your Battle cards costs N less Force to play."; an Equipment's "Pay N build
points[, M Force] -> Equip." and "Equipped Character (Space, Space or Ground) unit gets +N power
(speed, health) and <keyword>." Reminder text in parentheses is ignored. Ion Cannon, Switch and
Stack (keywords of unclear origin) are never read. Any other text marks the card not implemented
(``implemented`` false, ``unparsed``: what was not read): such a card stops a replay with a
``not-implemented`` error where it matters
(judge.games.swtcg.engine).

Pure: the caller reads the file (``arbiter cards import --game swtcg FILE``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from judge.games.carddata import CardImport, DeckCheck
from judge.games.swtcg.model import (
    CardDef,
    CardPool,
    Effect,
    Keyword,
    PilotDef,
    Play,
    Static,
    Trigger,
    X,
    card_from,
    card_json,
)

FILES = ("*.json",)
SIDE = {"L": "light", "D": "dark", "N": "neutral"}
TYPES = {"Space": "space", "Ground": "ground", "Character": "character", "Battle": "battle", "Mission": "mission",
         "Location": "location", "Equipment": "equipment"}
VALUED = {"accuracy": "accuracy", "critical hit": "critical-hit", "lucky": "lucky", "shields": "shields",
          "stun": "stun", "evade": "evade", "deflect": "deflect", "retaliate": "retaliate", "bombard": "bombard",
          "hidden cost": "hidden-cost", "parry": "parry"}
BARE = {"armor": "armor", "overkill": "overkill", "intercept": "intercept", "stealth": "stealth"}
COST = re.compile(r"^pay (?P<cost>\d+|x) force\s*(->|:)\s*(?P<rest>.+)$", re.I)
KEYWORD = re.compile(r"^(?P<name>[a-z ]+?)(\s+(?P<value>\d+|x))?\.?$", re.I)
UPKEEP_PART = re.compile(r"^(pay (?P<n>\d+) (?P<what>build points?|force)|(?P<tap>tap this unit))$", re.I)
BOUNTY_PART = re.compile(r"^(?P<n>\d+) (?P<what>build points?|force)$", re.I)
PILOT = re.compile(r"^\[pilot\]\s*(?P<kinds>.+?) pilot\.\s*(?P<rest>.*)$", re.I)
NAME = re.compile(r"^(?P<name>.+?)(\s+\((?P<version>[A-Z])\))?(\s+\((Promo|Preview)\))?$")


FOR_ATTACK = re.compile(r"^pay (?P<cost>\d+) force\s*->\s*(?P<who>this unit|[a-z' -]+?) gets "
                        r"(\+(?P<power>\d+) power|(?P<kw>accuracy|critical hit|stun) (?P<n>\d+)) for this attack\.?$",
                        re.I)
ATTACKS_GAIN = re.compile(r"^when(ever)? this unit attacks, gain (?P<n>\d+) force\.?$", re.I)
# keywords of unclear origin (WotC or the fan committee) whose text the reference lacks, left out
# (swtcg.project.unclear-keywords); Stealth, of unclear origin too, is read (swtcg.project.stealth)
UNCLEAR = re.compile(r"^(?P<name>ion cannon|switch|stack)\b(\s+\d+)?\.?$", re.I)
# "Reserves:" starting a part, or a sentence inside one ("... Evade 1. Reserves: Tap -> ...")
RESERVES_SPLIT = re.compile(r"(?<=[.)])\s+(?=reserves:)", re.I)
RESERVES = re.compile(r"^reserves:\s*(?P<rest>.+)$", re.I)
RESERVES_PLAY = re.compile(r"^(?:(?P<tap>\[tap\]|tap)(?:,\s*|\s+(?=pay)|\s*(?=->)))?(?:pay (?P<cost>\d+) force\s*)?"
                           r"->\s*(?P<effect>.+?)(?P<build>\.?\s*play only during your build step)?\.?$", re.I)
RESERVES_EFFECTS: tuple[tuple[re.Pattern[str], str, str, str], ...] = (
    (re.compile(r"^draw (?P<n>a|\d+) cards?$", re.I), "draw", "", "any"),
    (re.compile(r"^(you )?gain (?P<n>\d+) force$", re.I), "gain-force", "", "any"),
    (re.compile(r"^prevent (up to )?(?P<n>\d+) damage to one of your units$", re.I), "prevent", "your-unit",
     "prevent"),
    # the same in Yoda's word order ("Up to 2 damage to one of your units prevent.")
    (re.compile(r"^(up to )?(?P<n>\d+) damage to one of your units prevent$", re.I), "prevent", "your-unit",
     "prevent"),
)
BOOST = re.compile(r"^when this unit attacks, you may give it \+(?P<x>\d+) power for (this|that) attack\. if you "
                   r"do, when the attack ends, (it|this unit|that unit) does (?P<y>\d+) damage to itself\.?$", re.I)


MISSION = {"one of your units can't attack or be attacked this turn": Effect("no-combat", 0, "your-unit")}
MISSION_N = re.compile(r"^(?:you )?(?P<what>gain|draw) \+?(?P<n>\d+) (?P<unit>force|cards?)$", re.I)
# a discard that names no zone comes from the hand (swtcg.zones.discard-default-hand), so "from your
# hand" changes nothing
DISCARD = re.compile(r"^(?P<who>your opponent chooses and discards|your opponent discards|choose and discard|discard) "
                     r"(?P<n>\d+|a|one) cards?(?: from (?:your|his or her) hand)?$", re.I)
LOCATION_DOUBLE = re.compile(r"^double all damage that would be done by units in the (?P<arena>space|ground|character) "
                             r"arena$", re.I)
LOCATION_COST = re.compile(r"^each of your battle cards costs (?P<n>\d+) (?P<dir>less|more) force to play$", re.I)
EQUIP = re.compile(r"^pay (?P<parts>.+?)\s*->\s*equip$", re.I)
EQUIP_PART = re.compile(r"^(?P<n>\d+) (?P<what>build points?|force)$", re.I)
EQUIPPED = re.compile(r"^equipped (?P<types>space|ground|character|space or ground) unit gets (?P<rest>.+)$", re.I)


def parse_mission(text: str) -> Play | None:
    """A Mission's effect (swtcg.base.mission), completed in its controller's build step: one or
    more sentences, each an instruction carried out in order."""
    effects = []
    for sentence in re.split(r"(?<=\.)\s+", _plain(text)):
        effect = _mission_effect(sentence.rstrip(".").strip())
        if effect is None:
            return None
        effects.append(effect)
    return Play(options=(tuple(effects),), windows=("build",)) if effects else None


def _mission_effect(plain: str) -> Effect | None:
    effect = MISSION.get(plain.lower())
    if effect is not None:
        return effect
    m = MISSION_N.match(plain)
    if m:
        if (m.group("what").lower() == "gain") != (m.group("unit").lower() == "force"):
            return None
        return Effect("gain-force" if m.group("what").lower() == "gain" else "draw", int(m.group("n")))
    d = DISCARD.match(plain)
    if d:
        n = 1 if d.group("n").lower() in ("a", "one") else int(d.group("n"))
        return Effect("opponent-discards" if d.group("who").lower().startswith("your opponent") else "discard", n)
    return None


def parse_location(text: str) -> Static | None:
    """A Location's static ability: its controller's battle cards cost less (or more) Force, or
    the damage units in an arena would do is doubled ("(before damage prevention)" is what the
    engine does anyway: swtcg.keywords.overkill-then-double)."""
    plain = _plain(text).rstrip(".").strip()
    d = LOCATION_DOUBLE.match(plain)
    if d:
        return Static(kind="double-damage", scope=d.group("arena").lower(), whose="all")
    m = LOCATION_COST.match(plain)
    if not m:
        return None
    n = int(m.group("n"))
    return Static(kind="cost", amount=-n if m.group("dir").lower() == "less" else n, scope="battle", whose="you")


def parse_equip(text: str) -> Keyword | None:
    """"Pay 1 build point, 1 Force -> Equip." (swtcg.base.equip)."""
    m = EQUIP.match(_plain(text).rstrip(".").strip())
    if not m:
        return None
    options = []
    for part in re.split(r",\s*|\s+and\s+", m.group("parts")):
        pm = EQUIP_PART.match(part.strip())
        if not pm:
            return None
        options.append(("build" if pm.group("what").lower().startswith("build") else "force", int(pm.group("n"))))
    return Keyword(name="equip", options=tuple(options))


def parse_equipped(text: str) -> tuple[Static, ...] | None:
    """"Equipped Character unit gets +1 power and Critical Hit 1.": what the unit gets while equipped."""
    m = EQUIPPED.match(_plain(text).rstrip(".").strip())
    if not m:
        return None
    scope = "/".join(w.capitalize() for w in re.split(r"\s+or\s+", m.group("types")))
    out = []
    for part in [p.strip() for p in re.split(r",\s*|\s+and\s+", m.group("rest")) if p.strip()]:
        sm = re.match(r"^\+(\d+) (speed|power|health)$", part, re.I)
        if sm:
            out.append(Static(kind="equip", amount=int(sm.group(1)), scope=scope, stat=sm.group(2).lower()))
            continue
        kw = parse_keyword(part)
        if kw is None or kw.name in ("upkeep", "bounty", "hidden-cost"):
            return None
        out.append(Static(kind="equip", scope=scope, keyword=kw))
    return tuple(out) or None


def parse_play(text: str, name: str) -> Play | None:
    """"Pay N Force -> <this unit> gets +N power (Accuracy N, Critical Hit N, Stun N) for this attack."."""
    m = FOR_ATTACK.match(_plain(text))
    if not m:
        return None
    who = m.group("who").lower()
    if who != "this unit" and not name.lower().startswith(who.strip()) and who.strip() not in name.lower():
        return None
    effect = (Effect("power", int(m.group("power")), "self") if m.group("power")
              else Effect(m.group("kw").lower().replace(" ", "-"), int(m.group("n")), "self"))
    return Play(cost=int(m.group("cost")), options=((effect,),), windows=("attack",))


def parse_trigger(text: str) -> Trigger | None:
    """"Whenever this unit attacks, gain N Force."."""
    m = ATTACKS_GAIN.match(_plain(text))
    return Trigger(on="attacks", effects=(Effect("gain-force", int(m.group("n"))),)) if m else None


def _plain(text: str) -> str:
    """Without reminder text in parentheses."""
    return re.sub(r"\s*\([^)]*\)", "", text.strip()).strip()


def parse_keyword(text: str) -> Keyword | None:
    """One ability's text as a keyword ability, or None when it is not one."""
    boost = BOOST.match(_plain(text))
    if boost:
        return Keyword(name="power-boost", value=int(boost.group("x")), extra=int(boost.group("y")))
    text = _plain(text).rstrip(".")
    cost = 0
    m = COST.match(text)
    if m:
        cost = X if m.group("cost").lower() == "x" else int(m.group("cost"))
        text = m.group("rest").strip().rstrip(".")
    m = KEYWORD.match(text)
    if not m:
        return None
    name = m.group("name").strip().lower()
    raw = m.group("value")
    value = (X if raw.lower() == "x" else int(raw)) if raw else 0
    if name in VALUED and raw:
        kw = VALUED[name]
        if cost and kw not in ("evade", "deflect", "retaliate"):
            return None
        if value == X and kw != "evade":
            return None
        return Keyword(name=kw, value=value, cost=cost)
    if name in BARE and not raw:
        if cost and BARE[name] != "intercept":
            return None
        return Keyword(name=BARE[name], cost=cost)
    return None


def parse_reserves(text: str) -> Keyword | Play | None:
    """"Reserves: <ability>" (swtcg.base.reserves): a keyword the importer reads, or an activated
    ability whose cost is tapping the unit and/or Force ("Tap -> Draw a card.", "Tap, Pay 1 Force ->
    You gain 2 Force. Play only during your build step.", "Tap -> Prevent up to 2 damage to one of
    your units."), working only while the card is in the build zone. None: not one of these."""
    m = RESERVES.match(_plain(text))
    if not m:
        return None
    rest = m.group("rest").strip()
    kw = parse_keyword(rest)
    if kw is not None:
        return replace(kw, reserves=True)
    pm = RESERVES_PLAY.match(rest)
    if not pm or not (pm.group("tap") or pm.group("cost")):
        return None
    for pattern, kind, target, window in RESERVES_EFFECTS:
        em = pattern.match(pm.group("effect").strip().rstrip("."))
        if em is None:
            continue
        if pm.group("build"):
            if window == "prevent":
                return None  # a prevention played only in the build step: no such chance there
            window = "build"
        n = 1 if em.group("n").lower() == "a" else int(em.group("n"))
        return Play(cost=int(pm.group("cost") or 0), options=((Effect(kind, n, target),),), windows=(window,),
                    once=window == "build", tap=bool(pm.group("tap")), reserves=True)
    return None


def unclear_keyword(text: str) -> str | None:
    """Why a part of a card's text is left out when it is a keyword of unclear origin whose text the
    reference lacks (Ion Cannon, Switch, Stack: swtcg.project.unclear-keywords), else None."""
    m = UNCLEAR.match(_plain(text).strip())
    if not m:
        return None
    name = " ".join(w.capitalize() for w in m.group("name").split())
    return f"{_plain(text).strip().rstrip('.')} ({name}: a keyword of unclear origin, not implemented)"


def _parts(text: str) -> list[str]:
    """The abilities of a card's text: split at `` | `` and before a "Reserves:" sentence."""
    out = []
    for part in text.split(" | "):
        out += [p.strip() for p in RESERVES_SPLIT.split(part.strip()) if p.strip()]
    return out


def parse_upkeep(text: str) -> Keyword | None:
    m = re.match(r"^upkeep:\s*(?P<rest>.+?)\.?$", text.strip(), re.I)
    if not m:
        return None
    options = []
    for part in re.split(r"\s+or\s+", m.group("rest")):
        pm = UPKEEP_PART.match(part.strip().rstrip("."))
        if not pm:
            return None
        if pm.group("tap"):
            options.append(("tap", 0))
        else:
            options.append(("build" if pm.group("what").lower().startswith("build") else "force", int(pm.group("n"))))
    return Keyword(name="upkeep", options=tuple(options))


def parse_bounty(text: str) -> Keyword | None:
    m = re.match(r"^bounty:\s*(?P<rest>.+?)\.?$", text.strip(), re.I)
    if not m:
        return None
    pm = BOUNTY_PART.match(m.group("rest").strip())
    if not pm:
        return None
    return Keyword(name="bounty", options=(("build" if pm.group("what").lower().startswith("build") else "force",
                                            int(pm.group("n"))),))


def parse_pilot(text: str) -> PilotDef | None:
    m = PILOT.match(text.strip())
    if not m:
        return None
    kinds = "/".join(k.strip() for k in re.split(r"\s+and\s+|\s+or\s+|,\s*", m.group("kinds")) if k.strip())
    rest = m.group("rest")
    rest = re.sub(r"^the .+? gets:?\s*", "", rest, flags=re.I)
    bonus = {"speed": 0, "power": 0, "health": 0}
    keywords = []
    for part in [p.strip().rstrip(".") for p in re.split(r"\*|\band\b", rest) if p.strip().strip(".")]:
        sm = re.match(r"^\+(\d+) (speed|power|health)$", part, re.I)
        if sm:
            bonus[sm.group(2).lower()] += int(sm.group(1))
            continue
        kw = parse_keyword(part)
        if kw is None:
            return None
        keywords.append(kw)
    return PilotDef(kind=kinds, keywords=tuple(keywords), **bonus)


def import_card(raw: Mapping[str, Any]) -> CardDef:
    """One catalog entry as a card (``implemented`` False when any of its text is not read)."""
    set_code = str(raw.get("set-code") or "X")
    number = raw.get("number")
    code = f"{set_code}{int(number):03d}" if isinstance(number, int) else f"P{str(raw.get('card-id', ''))[:10]}"
    m = NAME.match(str(raw.get("name", "")).strip())
    name = m.group("name") if m else str(raw.get("name"))
    version = m.group("version") if m else None
    ctype = TYPES.get(str(raw.get("type")), "")
    if not ctype:
        raise ValueError(f"{code}: unknown type {raw.get('type')!r}")
    keywords: list[Keyword] = []
    plays: list[Play] = []
    triggers: list[Trigger] = []
    pilot: PilotDef | None = None
    statics: list[Static] = []
    unread: list[str] = []
    text = str(raw.get("text") or "").strip()
    for part in _parts(text):
        unclear = unclear_keyword(part)
        if unclear is not None:  # never read as something else (swtcg.project.unclear-keywords)
            unread.append(unclear)
            continue
        if ctype == "mission" and not plays:
            mission = parse_mission(part)
            if mission is not None:
                plays.append(mission)
                continue
        if ctype == "location":
            static = parse_location(part)
            if static is not None:
                statics.append(static)
                continue
        if ctype == "equipment":
            equip = parse_equip(part)
            if equip is not None and not keywords:
                keywords.append(equip)
                continue
            equipped = parse_equipped(part)
            if equipped is not None:
                statics.extend(equipped)
                continue
        kw = parse_keyword(part) or parse_upkeep(part) or parse_bounty(part)
        if kw is not None and ctype in ("space", "ground", "character"):
            keywords.append(kw)
            continue
        reserves = parse_reserves(part) if ctype in ("space", "ground", "character") else None
        if isinstance(reserves, Keyword):
            keywords.append(reserves)
            continue
        if isinstance(reserves, Play):
            plays.append(reserves)
            continue
        play = parse_play(part, name) if ctype in ("space", "ground", "character") else None
        if play is not None:
            plays.append(play)
            continue
        trig = parse_trigger(part) if ctype in ("space", "ground", "character") else None
        if trig is not None:
            triggers.append(trig)
            continue
        pd = parse_pilot(part) if ctype == "character" else None
        if pd is not None and pilot is None:
            pilot = pd
            continue
        unread.append(part)
    unit = ctype in ("space", "ground", "character")
    if unit and any(raw.get(s) is None for s in ("speed", "power", "health")):
        unread.append("variable speed, power or health")
    if not unit and not unread and not (plays if ctype == "mission" else statics if ctype == "location"
                                        else keywords and statics if ctype == "equipment" else ()):
        unread.append(f"a {ctype} card's effect" if not text else text)
    subtype = str(raw.get("subtype") or "")
    return CardDef(code=code, name=name, side=SIDE.get(str(raw.get("side")), "neutral"), type=ctype,
                   subtypes=tuple(s.strip() for s in subtype.split(" - ") if s.strip()),
                   cost=int(raw.get("cost") or 0), speed=int(raw.get("speed") or 0), power=int(raw.get("power") or 0),
                   health=int(raw.get("health") or 0), version=version, keywords=tuple(keywords), pilot=pilot,
                   plays=tuple(plays), triggers=tuple(triggers), statics=tuple(statics),
                   text=text, implemented=not unread, unparsed=" | ".join(unread))


def import_files(files: Mapping[str, bytes]) -> CardImport:
    """The catalog (one JSON file) as the project's card JSON."""
    problems: list[str] = []
    cards: list[CardDef] = []
    if not files:
        problems.append("no catalog file (a JSON file with a 'cards' list)")
    for path, content in files.items():
        try:
            doc = json.loads(content.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            problems.append(f"{path}: not JSON: {exc}")
            continue
        entries = doc.get("cards") if isinstance(doc, dict) else doc
        if not isinstance(entries, list):
            problems.append(f"{path}: no 'cards' list")
            continue
        for i, raw in enumerate(entries):
            if not isinstance(raw, dict):
                problems.append(f"{path}: cards[{i}]: not an object")
                continue
            try:
                cards.append(import_card(raw))
            except (ValueError, TypeError) as exc:
                problems.append(f"{path}: cards[{i}]: {exc}")
    seen: set[str] = set()
    out = []
    for c in cards:
        if c.code in seen:
            problems.append(f"{c.code}: two cards with this code (the first is kept)")
            continue
        seen.add(c.code)
        out.append(card_json(c))
    sets = {c.code.rstrip("0123456789") for c in cards}
    return CardImport(data={"game": "swtcg", "cards": out}, cards=len(out), sets=len(sets),
                      applied=sum(1 for c in out if c.get("implemented", True)), problems=tuple(problems))


def load_cards(data: Mapping[str, Any]) -> CardPool:
    if data.get("game") != "swtcg" or not isinstance(data.get("cards"), list):
        raise ValueError("not a SW TCG card file ({\"game\": \"swtcg\", \"cards\": [...]})")
    pool = CardPool()
    for raw in data["cards"]:
        pool.add(card_from(raw))
    return pool


def describe(cards: CardPool, code: str) -> str | None:
    c = cards.get(code)
    if c is None:
        return None
    lines = [f"{c.code}: {c.display} ({c.side} {c.type}{' - ' + ' - '.join(c.subtypes) if c.subtypes else ''})",
             f"build cost {c.cost}" + (f", speed {c.speed}, power {c.power}, health {c.health}" if c.unit else "")]
    lines += [f"  {k.text()}" for k in c.keywords]
    if c.pilot:
        lines.append(f"  Pilot ({c.pilot.kind}): +{c.pilot.speed} speed, +{c.pilot.power} power, "
                     f"+{c.pilot.health} health" + "".join(f", {k.text()}" for k in c.pilot.keywords))
    for st in c.statics:
        if st.kind == "equip":  # what the equipped unit gets (swtcg.base.equip)
            gets = st.keyword.text() if st.keyword else f"+{st.amount} {st.stat}"
            lines.append(f"  Equipped {st.scope} unit: {gets}")
        elif st.kind == "cost":
            lines.append(f"  Force cost of {st.scope} ({st.whose}): {st.amount:+d}")
    if c.type == "mission" and c.plays:
        lines.append("  Mission: " + ", ".join(f"{e.kind} {e.target}".strip() for o in c.plays[0].options for e in o))
    if not c.implemented:
        lines.append(f"  not implemented: {c.unparsed}")
    return "\n".join(lines)


def check_decklist(text: str, cards: CardPool, deck_format: str | None = None) -> DeckCheck:
    """A decklist of lines ``<count> <code>`` as a player entry, checked against ``deck_format``
    (None: ``standard``; judge.games.swtcg.deckcheck)."""
    from judge.games.swtcg.deckcheck import check_deck

    fmt = deck_format or "standard"
    deck: list[str] = []
    problems = []
    for n, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        m = re.match(r"^(\d+)\s*x?\s+(\S+)$", line)
        if not m:
            problems.append(f"line {n}: expected '<count> <code>'")
        elif m.group(2) not in cards:
            problems.append(f"line {n}: no card {m.group(2)}")
        else:
            deck += [m.group(2)] * int(m.group(1))
    entry = {"id": "p1", "deck": deck}
    return DeckCheck(entry=entry, deck_format=fmt, problems=tuple(problems),
                     violations=tuple(check_deck(entry, cards, fmt)))
