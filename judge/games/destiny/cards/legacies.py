"""Legacies (set 05): cards of the Luke Skywalker (LEG-H) and Boba Fett (LEG-V) starter sets.

Stats, dice and abilities written by the project; ability texts are the project's own wording.
"""

from __future__ import annotations

from typing import Any

from judge.games.destiny.cards.common import (
    ability,
    after_you_activate_this,
    after_you_play_this,
    die_belongs_to,
    entry_or_choose,
    living_characters,
    pool_dice,
)
from judge.games.destiny.engine import Ctx
from judge.games.destiny.model import CardDef, CardType, faces

C, U, S, E, B = CardType.CHARACTER, CardType.UPGRADE, CardType.SUPPORT, CardType.EVENT, CardType.BATTLEFIELD


# ---------------------------------------------------------------------- Luke Skywalker (05031)
def _luke_power(ctx: Ctx, src: str, step: Any) -> None:
    pid = ctx.owner_of(src)
    ctx.spend(pid, 2, "destiny.actions.card-action", "Luke Skywalker's power action")
    ctx.resolve_dice(
        pid,
        step.get("dice"),
        source=src,
        bonus=2,
        only=die_belongs_to(ctx, src),
        max_dice=1,
        rule="destiny.dice.resolve-via-card",
    )


# ---------------------------------------------------------------------- Han Solo (05046)
def _reroll_any_die(ctx: Ctx, src: str, _e: Any) -> None:
    pid = ctx.owner_of(src)
    dice = pool_dice(ctx)
    if dice:
        die = ctx.choose(pid, "die", dice, ("destiny.terms.choose-target",), "which die to reroll", src)
        ctx.reroll(src, [die])


# ---------------------------------------------------------------------- Boba Fett (05019)
def _boba_special(ctx: Ctx, src: str, entry: Any) -> None:
    pid = ctx.owner_of(src)
    dice = pool_dice(ctx)
    value = 0
    if dice:
        die = entry_or_choose(
            ctx,
            entry,
            "die_value",
            pid,
            "die",
            dice,
            ("destiny.terms.choose-target",),
            "the die whose value is dealt as damage",
            src,
        )
        value = ctx.pool_face(die).numeric
    target = entry_or_choose(
        ctx,
        entry,
        "target",
        pid,
        "target",
        living_characters(ctx),
        ("destiny.terms.choose-target",),
        "the character dealt the damage",
        src,
    )
    ctx.deal_damage(src, target, value)


# ---------------------------------------------------------------------- Hidden Blaster (05072)
def _remove_a_shield(ctx: Ctx, src: str, _e: Any) -> None:
    pid = ctx.owner_of(src)
    shielded = [c for c in living_characters(ctx) if ctx.character(c).shields > 0]
    if shielded:
        target = ctx.choose(
            pid,
            "target",
            shielded,
            ("destiny.terms.choose-target",),
            "remove 1 shield from which character",
            src,
        )
        ctx.remove_shields(src, target, 1)


# ---------------------------------------------------------------------- Heirloom Lightsaber (05058)
def _redeploy_on_blue(ctx: Ctx, src: str, subject: Any, value: Any) -> Any:
    if subject == src:
        host = ctx.upgrade_host(src)
        if host and ctx.card(ctx.code_of(host)).color == "blue":
            return set(value) | {"redeploy"}
    return value


# ---------------------------------------------------------------------- battlefields
def _outer_rim_outpost(ctx: Ctx, src: str, _step: Any) -> None:
    pid = ctx.owner_of(src)
    ctx.gain(src, pid, 1)
    ctx.draw(src, pid, 1)


def _arid_wasteland(ctx: Ctx, src: str, _step: Any) -> None:
    pid = ctx.owner_of(src)
    ctx.lose(src, ctx.opponent(pid, src, "which opponent loses 1 resource"), 1)


CARDS: list[CardDef] = [
    CardDef(
        "05031",
        "Luke Skywalker",
        C,
        "hero",
        "blue",
        subtitle="Unlikely Hero",
        unique=True,
        points=(11, 14),
        health=11,
        faces=faces("1RD", "2RD", "1MD", "1Sh", "1R", "-"),
        subtypes=("apprentice",),
        abilities=(
            ability(
                "power",
                "Pay 2 resources: resolve one of this character's own or upgrade dice, "
                "its value raised by 2.",
                _luke_power,
                rules=("destiny.actions.power-action", "destiny.dice.resolve-via-card"),
            ),
        ),
    ),
    CardDef(
        "05046",
        "Han Solo",
        C,
        "hero",
        "yellow",
        subtitle="Savvy Smuggler",
        unique=True,
        points=(11, 14),
        health=10,
        faces=faces("2RD", "2RD1", "1Dc", "1R", "+1R", "-"),
        subtypes=("scoundrel",),
        abilities=(
            ability(
                "after",
                "After you activate him, you may reroll any one die in play.",
                _reroll_any_die,
                after_you_activate_this,
                optional=True,
            ),
        ),
    ),
    CardDef(
        "05019",
        "Boba Fett",
        C,
        "villain",
        "yellow",
        subtitle="Deadly Mercenary",
        unique=True,
        points=(12, 16),
        health=11,
        faces=faces("2RD", "2MD", "1Dr", "1R", "Sp", "-"),
        subtypes=("bounty-hunter",),
        abilities=(
            ability(
                "special",
                "Deal a character damage equal to the value a die in play shows.",
                _boba_special,
                rules=("destiny.symbols.special",),
            ),
        ),
    ),
    CardDef(
        "05013",
        "Veteran Stormtrooper",
        C,
        "villain",
        "red",
        points=(9,),
        health=9,
        faces=faces("1RD", "2RD", "3ID", "1R", "-", "-"),
        subtypes=("trooper",),
    ),
    CardDef(
        "05058",
        "Heirloom Lightsaber",
        U,
        "neutral",
        "blue",
        cost=3,
        faces=faces("1MD", "2MD", "3MD", "1Sh", "1R", "-"),
        subtypes=("weapon",),
        abilities=(
            ability(
                "constant",
                "Has Redeploy while on a blue character.",
                query="keywords",
                modify=_redeploy_on_blue,
                rules=("destiny.keywords.redeploy",),
            ),
        ),
    ),
    CardDef(
        "05072",
        "Hidden Blaster",
        U,
        "neutral",
        "gray",
        cost=2,
        faces=faces("1RD", "+2RD", "+2RD", "1Dr", "1R", "-"),
        subtypes=("weapon",),
        keywords=frozenset({"ambush"}),
        abilities=(
            ability(
                "after",
                "After you play it, you may remove 1 shield from a character.",
                _remove_a_shield,
                after_you_play_this,
                optional=True,
            ),
        ),
    ),
    CardDef(
        "05073",
        "Hunting Rifle",
        U,
        "neutral",
        "gray",
        cost=1,
        faces=faces("1RD", "2RD1", "1Dr", "1R", "-", "-"),
        subtypes=("weapon",),
    ),
    CardDef(
        "05174",
        "Arid Wasteland",
        B,
        "neutral",
        "gray",
        subtitle="Geonosis",
        abilities=(
            ability(
                "claim",
                "Claim: an opponent loses 1 resource.",
                _arid_wasteland,
                rules=("destiny.abilities.claim",),
            ),
        ),
    ),
    CardDef(
        "05178",
        "Outer Rim Outpost",
        B,
        "neutral",
        "gray",
        subtitle="Nal Hutta",
        abilities=(
            ability(
                "claim",
                "Claim: gain 1 resource and draw 1 card.",
                _outer_rim_outpost,
                rules=("destiny.abilities.claim",),
            ),
        ),
    ),
    # stats and dice only so far: abilities still to be written (implemented=False)
    CardDef(
        "05025",
        "Slave I",
        S,
        "villain",
        "yellow",
        unique=True,
        cost=3,
        faces=faces("2RD", "2ID", "3ID1", "1Sh", "1R", "-"),
        subtypes=("vehicle",),
        implemented=False,
        unimplemented="ability not yet written by the project",
    ),
    CardDef(
        "05026",
        "Hunter Instinct",
        U,
        "villain",
        "yellow",
        cost=2,
        faces=faces("1F", "1Dr", "1R", "Sp", "Sp", "-"),
        subtypes=("ability",),
        implemented=False,
        unimplemented="ability not yet written by the project",
    ),
    CardDef(
        "05027",
        "Wrist Rockets",
        U,
        "villain",
        "yellow",
        cost=3,
        faces=faces("2RD", "4ID1", "1Dc", "1R", "Sp", "-"),
        subtypes=("weapon",),
        implemented=False,
        unimplemented="ability not yet written by the project",
    ),
    CardDef(
        "05035",
        "R2-D2",
        S,
        "hero",
        "blue",
        unique=True,
        cost=1,
        faces=faces("1MD", "1Dr", "1Sh", "1R", "Sp", "Sp"),
        subtypes=("droid",),
        implemented=False,
        unimplemented="ability not yet written by the project",
    ),
    CardDef(
        "05052",
        "Millennium Falcon",
        S,
        "hero",
        "yellow",
        unique=True,
        cost=4,
        faces=faces("2RD", "3RD", "4ID1", "2Sh", "2R", "-"),
        subtypes=("vehicle",),
        implemented=False,
        unimplemented="ability not yet written by the project",
    ),
    CardDef(
        "05056",
        "Force Focus",
        U,
        "neutral",
        "blue",
        cost=2,
        faces=faces("1Sh", "1R", "1R", "Sp", "Sp", "-"),
        subtypes=("ability",),
        implemented=False,
        unimplemented="ability not yet written by the project",
    ),
    CardDef(
        "05064",
        "74-Z Speeder Bike",
        U,
        "neutral",
        "red",
        cost=2,
        faces=faces("2RD1", "1F", "1F", "1Sh", "1R", "-"),
        subtypes=("vehicle",),
        implemented=False,
        unimplemented="ability not yet written by the project",
    ),
    CardDef(
        "05084",
        "Battle Fatigue",
        E,
        "villain",
        "red",
        cost=1,
        implemented=False,
        unimplemented="ability not yet written by the project",
    ),
    CardDef(
        "05086",
        "Imperial Might",
        E,
        "villain",
        "red",
        cost=2,
        implemented=False,
        unimplemented="ability not yet written by the project",
    ),
    CardDef(
        "05096",
        "Rumors",
        E,
        "villain",
        "yellow",
        cost=1,
        implemented=False,
        unimplemented="ability not yet written by the project",
    ),
    CardDef(
        "05097",
        "Subdue",
        E,
        "villain",
        "yellow",
        cost=1,
        implemented=False,
        unimplemented="ability not yet written by the project",
    ),
    CardDef(
        "05098",
        "Take Flight",
        E,
        "villain",
        "yellow",
        cost=0,
        keywords=frozenset({"ambush"}),
        implemented=False,
        unimplemented="ability not yet written by the project",
    ),
    CardDef(
        "05102",
        "Heightened Awareness",
        E,
        "hero",
        "blue",
        cost=2,
        keywords=frozenset({"ambush"}),
        implemented=False,
        unimplemented="ability not yet written by the project",
    ),
    CardDef(
        "05116",
        "Bravado",
        E,
        "hero",
        "yellow",
        cost=3,
        implemented=False,
        unimplemented="ability not yet written by the project",
    ),
    CardDef(
        "05119",
        "Impulsive",
        E,
        "hero",
        "yellow",
        cost=0,
        keywords=frozenset({"ambush"}),
        implemented=False,
        unimplemented="ability not yet written by the project",
    ),
    CardDef(
        "05121",
        "Smuggler's Run",
        E,
        "hero",
        "yellow",
        cost=0,
        implemented=False,
        unimplemented="ability not yet written by the project",
    ),
    CardDef(
        "05122",
        "Maz's Vault",
        S,
        "hero",
        "yellow",
        unique=True,
        cost=0,
        subtypes=("location",),
        implemented=False,
        unimplemented="ability not yet written by the project",
    ),
    CardDef(
        "05125",
        "Alter",
        E,
        "neutral",
        "blue",
        cost=2,
        implemented=False,
        unimplemented="ability not yet written by the project",
    ),
    CardDef(
        "05128",
        "Invigorate",
        E,
        "neutral",
        "blue",
        cost=1,
        implemented=False,
        unimplemented="ability not yet written by the project",
    ),
    CardDef(
        "05130",
        "Mislead",
        E,
        "neutral",
        "blue",
        cost=1,
        implemented=False,
        unimplemented="ability not yet written by the project",
    ),
    CardDef(
        "05133",
        "The Force Is With Me",
        E,
        "neutral",
        "blue",
        cost=1,
        implemented=False,
        unimplemented="ability not yet written by the project",
    ),
    CardDef(
        "05134",
        "Perseverance",
        S,
        "neutral",
        "blue",
        cost=1,
        implemented=False,
        unimplemented="ability not yet written by the project",
    ),
    CardDef(
        "05136",
        "Crackdown",
        E,
        "neutral",
        "red",
        cost=0,
        implemented=False,
        unimplemented="ability not yet written by the project",
    ),
    CardDef(
        "05137",
        "Crash Landing",
        E,
        "neutral",
        "red",
        cost=0,
        implemented=False,
        unimplemented="ability not yet written by the project",
    ),
    CardDef(
        "05139",
        "Locked and Loaded",
        E,
        "neutral",
        "red",
        cost=1,
        implemented=False,
        unimplemented="ability not yet written by the project",
    ),
    CardDef(
        "05143",
        "Superior Position",
        E,
        "neutral",
        "red",
        cost=1,
        implemented=False,
        unimplemented="ability not yet written by the project",
    ),
    CardDef(
        "05147",
        "Bamboozle",
        E,
        "neutral",
        "yellow",
        cost=0,
        implemented=False,
        unimplemented="ability not yet written by the project",
    ),
    CardDef(
        "05150",
        "Dangerous Maneuver",
        E,
        "neutral",
        "yellow",
        cost=0,
        implemented=False,
        unimplemented="ability not yet written by the project",
    ),
    CardDef(
        "05151",
        "Entangle",
        E,
        "neutral",
        "yellow",
        cost=2,
        implemented=False,
        unimplemented="ability not yet written by the project",
    ),
    CardDef(
        "05152",
        "Face-Off",
        E,
        "neutral",
        "yellow",
        cost=1,
        implemented=False,
        unimplemented="ability not yet written by the project",
    ),
    CardDef(
        "05153",
        "Hasty Exit",
        E,
        "neutral",
        "yellow",
        cost=0,
        implemented=False,
        unimplemented="ability not yet written by the project",
    ),
    CardDef(
        "05155",
        "Quick Draw",
        E,
        "neutral",
        "yellow",
        cost=0,
        implemented=False,
        unimplemented="ability not yet written by the project",
    ),
    CardDef(
        "05160",
        "Ice Storm",
        E,
        "neutral",
        "gray",
        cost=0,
        implemented=False,
        unimplemented="ability not yet written by the project",
    ),
    CardDef(
        "05163",
        "Backup Specialist",
        S,
        "neutral",
        "gray",
        cost=1,
        implemented=False,
        unimplemented="ability not yet written by the project",
    ),
    CardDef(
        "05167",
        "Quickdraw Holster",
        U,
        "neutral",
        "gray",
        cost=0,
        subtypes=("equipment",),
        implemented=False,
        unimplemented="ability not yet written by the project",
    ),
]
