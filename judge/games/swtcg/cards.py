"""The project's own SW TCG cards: the cards the seeds name in their examples (their text as far as
the engine's vocabulary reaches: what it leaves out is in ``unparsed`` and makes the card not
implemented), and two 60-card decks of opposing sides for self-play (``DARK-60``, ``LIGHT-60``).

Written in our own words from the rules' examples; stats of the seed-named cards follow the
printed cards. Codes are the project's own (``DS-*``, ``LS-*``, ``NS-*``).
"""

from __future__ import annotations

from functools import lru_cache

from judge.games.swtcg.model import CardDef, CardPool, Effect, Keyword, PilotDef, Play, Static, Trigger, X


def k(name: str, value: int = 0, cost: int = 0, extra: int = 0, options: tuple[tuple[str, int], ...] = ()) -> Keyword:
    return Keyword(name=name, value=value, cost=cost, extra=extra, options=options)


def unit(code: str, name: str, side: str, type_: str, subtypes: str, cost: int, speed: int, power: int, health: int,
         **kw: object) -> CardDef:
    return CardDef(code=code, name=name, side=side, type=type_, subtypes=tuple(subtypes.split(" - ")), cost=cost,
                   speed=speed, power=power, health=health, **kw)  # type: ignore[arg-type]


def battle(code: str, name: str, side: str, play: Play, text: str) -> CardDef:
    return CardDef(code=code, name=name, side=side, type="battle", plays=(play,), text=text)


CARDS: tuple[CardDef, ...] = (
    # ------------------------------------------------------------------ Dark Side
    unit("DS-TIE", "TIE Fighter", "dark", "space", "Imperial Starfighter", 2, 50, 2, 2),
    unit("DS-TIEB", "TIE Bomber", "dark", "space", "Imperial Starfighter", 3, 30, 3, 3,
         keywords=(k("accuracy", 1),), text="Accuracy 1"),
    unit("DS-ISD", "Imperial Star Destroyer", "dark", "space", "Imperial Capital Ship", 7, 20, 6, 7,
         keywords=(k("armor"),), text="Armor"),
    unit("DS-DEV", "Devastator", "dark", "space", "Imperial Capital Ship", 8, 20, 6, 8,
         keywords=(k("bombard", 3),), text="Bombard 3 (this unit may attack a unit in the Ground arena instead, "
                                            "rolling 3 dice instead of its power)"),
    unit("DS-DCS", "Droid Control Ship", "dark", "space", "Trade Federation Capital Ship", 9, 10, 9, 9,
         statics=(Static(kind="boost", amount=10, scope="Droid", stat="speed"),),
         triggers=(Trigger(on="discarded", where="space", effects=(Effect("damage-each", 1, "your-droids"),)),),
         text="As long as this unit is in the Space arena, each of your Droids gets +10 speed. | When this unit is "
              "discarded from the Space arena, it does 1 damage to each of your Droids."),
    unit("DS-VTF", "Vader's TIE Fighter", "dark", "space", "Imperial Dark Jedi Sith Starfighter", 5, 50, 3, 2,
         version="A", keywords=(k("evade", 2, cost=2),),
         triggers=(Trigger(on="discarded", where="space", optional=True, cost=2,
                           effects=(Effect("return-with-stack"),)),),
         text="Pay 2 Force -> Evade 2 | When Vader's TIE Fighter is discarded from the Space arena, you may pay 2 "
              "Force; if you do, return it, its stack and its pilot from your discard pile to your hand."),
    unit("DS-TIEI", "TIE Interceptor", "dark", "space", "Imperial Starfighter", 3, 60, 3, 2,
         keywords=(k("evade", 1, cost=1),), text="Pay 1 Force -> Evade 1"),
    unit("DS-ATAT", "AT-AT Walker", "dark", "ground", "Imperial Walker", 6, 10, 5, 6,
         keywords=(k("armor"),), text="Armor"),
    unit("DS-SPB", "Speeder Bike Scout", "dark", "ground", "Imperial Speeder", 2, 60, 2, 2),
    unit("DS-BDD", "Battle Droid Division", "dark", "ground", "Trade Federation Droid", 10, 30, 8, 7,
         keywords=(k("overkill"),), text="Overkill"),
    unit("DS-DT", "Droid Tank", "dark", "ground", "Trade Federation Droid", 4, 30, 4, 4,
         keywords=(k("shields", 1),), text="Shields 1"),
    unit("DS-ST", "Stormtrooper Squad", "dark", "character", "Imperial Trooper", 2, 30, 3, 2,
         keywords=(k("stun", 1),), text="Stun 1"),
    unit("DS-BH", "Bounty Hunter", "dark", "character", "Bounty Hunter", 3, 40, 3, 3,
         keywords=(k("upkeep", options=(("build", 1), ("tap", 0))), k("bounty", options=(("force", 1),))),
         text="Upkeep: Pay 1 build point or tap this unit. | Bounty: 1 Force"),
    unit("DS-VK", "Darth Vader", "dark", "character", "Imperial Dark Jedi Knight - Sith Lord", 10, 50, 6, 6,
         version="K", keywords=(k("armor"), k("evade", X, cost=X)),
         plays=(Play(cost=2, options=((Effect("power", 2, "self"), Effect("stun", 2, "self")),), windows=("attack",)),),
         text="Armor | Pay 2 Force -> Vader gets +2 power and Stun 2 for this attack. | Pay X Force -> Evade X"),
    unit("DS-VS", "Darth Vader", "dark", "character", "Dark Jedi Knight - Sith Lord", 11, 50, 7, 7,
         version="S", keywords=(k("armor"), k("evade", 2, cost=2)),
         plays=(Play(cost=3, options=((Effect("damage", 3, "character-unit"),),), windows=("would-attack",),
                     once=True),),
         text="Pay 3 Force -> Put 3 damage counters on any Character unit. Play only when Vader would attack, and "
              "only once per turn. | Armor | Pay 2 Force -> Evade 2"),
    unit("DS-SID", "Darth Sidious", "dark", "character", "Sith Lord", 8, 40, 5, 6, version="D",
         keywords=(k("evade", 2, cost=3),), statics=(Static(kind="cost", amount=2, scope="ability", whose="opponent"),),
         text="Each of your opponent's activated abilities costs 2 more Force to play. | Pay 3 Force -> Evade 2"),
    unit("DS-TP", "TIE Pilot", "dark", "character", "Imperial Pilot", 2, 50, 1, 2,
         pilot=PilotDef(kind="Starfighter", speed=10, power=1),
         text="[Pilot] Starfighter Pilot. The Starfighter gets +10 speed and +1 power."),
    unit("DS-SES", "Stormtrooper Elite Squad", "dark", "character", "Imperial Trooper", 4, 40, 4, 4,
         statics=(Static(kind="retreat-instead", scope="Darth Vader"),),
         text="While Darth Vader is in your Character arena, if this unit would be discarded, retreat it instead."),
    unit("LS-YE", "Yoda", "light", "character", "Jedi Master", 5, 40, 4, 4, version="E",
         keywords=(k("evade", 2, cost=2),),
         plays=(Play(tap=True, options=((Effect("prevent", 2, "your-unit"),),), windows=("prevent",),
                     reserves=True),),
         text="Pay 2 Force -> Evade 2 | Reserves: tap -> prevent up to 2 damage to one of your units."),
    unit("LS-YC", "Yoda", "light", "character", "Jedi Master", 8, 40, 7, 6, version="C",
         plays=(Play(cost=2, tap=True, options=((Effect("unevadable-damage", 4, "enemy-character-unit"),),)),),
         text="Tap, pay 2 Force -> Yoda does 4 damage to an enemy unit in the Character arena; Evade cannot "
              "prevent it."),
    unit("LS-LN", "Luke Skywalker", "light", "character", "Rebel Jedi Knight", 9, 40, 6, 6, version="N",
         keywords=(k("evade", 2, cost=5),),
         plays=(Play(cost=X, tap=True, options=((Effect("gain-control", X, "dark-character-unit"),),)),),
         text="Pay 5 Force -> Evade 2 | Tap, pay X Force -> gain control of a Dark Side Character of build cost X "
              "or less until the end of the Character battle step."),
    unit("LS-OWS", "Obi-Wan's Spirit", "light", "character", "Jedi Spirit", 5, 40, 0, 2, version="A",
         statics=(Static(kind="no-arena-control"), Static(kind="prevent-all"),
                  Static(kind="cost", amount=-1, scope="ability", whose="you", of="character:Jedi")),
         text="Does not count for controlling the Character arena. | Prevent all damage to and from it. | Your "
              "Jedi Characters' activated abilities cost 1 less Force."),
    CardDef(code="NS-CCB", name="Cloud City Battleground", side="neutral", type="location", subtypes=("Ground",),
            cost=1, statics=(Static(kind="cost", amount=-2, scope="battle", whose="you"),),
            text="Each of your battle cards costs 2 less Force to play."),
    CardDef(code="DS-HBP", name="Hoth Battle Plains", side="dark", type="location", subtypes=("Ground",), cost=1,
            statics=(Static(kind="double-damage", scope="ground", whose="all"),),
            text="Double all damage that would be done by units in the Ground arena (before damage prevention)."),
    CardDef(code="NS-HE", name="Han Enchained", side="neutral", type="mission", cost=2,
            plays=(Play(options=((Effect("no-combat", 0, "your-unit"),),), windows=("build",)),),
            text="One of your units can't attack or be attacked this turn."),
    CardDef(code="DS-DOH", name="Destruction of Hope", side="dark", type="mission", cost=2,
            plays=(Play(options=((Effect("opponent-discards", 2), Effect("gain-force", 1)),), windows=("build",)),),
            text="Your opponent chooses and discards 2 cards from his or her hand. You gain +1 Force."),
    CardDef(code="NS-BR", name="Blaster Rifle", side="neutral", type="equipment", subtypes=("Character",), cost=1,
            keywords=(k("equip", options=(("build", 1),)),),
            statics=(Static(kind="equip", amount=1, scope="Character", stat="power"),
                     Static(kind="equip", scope="Character", keyword=k("critical-hit", 1))),
            text="Pay 1 build point -> Equip. | Equipped Character unit gets +1 power and Critical Hit 1."),
    battle("DS-RSUR", "Rebel Surrender", "dark",
           Play(cost=4, options=((Effect("discard-if-missed", 0, "enemy-ground-or-character-unit"),),)),
           "Pay 4 Force -> Choose an enemy unit in the Ground or Character arena; if its last attack rolled no "
           "hits, discard it."),
    unit("DS-AMB", "Ambush Squad", "dark", "character", "Imperial Trooper", 4, 40, 3, 3,
         keywords=(k("hidden-cost", 2),), text="Hidden Cost 2"),
    unit("DS-LO", "Imperial Logistics Officer", "dark", "character", "Imperial Officer", 3, 20, 2, 3,
         statics=(Static(kind="cost", amount=-1, scope="battle", whose="you"),),
         text="Your battle cards cost 1 less Force to play."),
    battle("DS-VV", "Vader's Vengeance", "dark",
           Play(any_amount=True, options=((Effect("power", X, "your-unit"),),), windows=("attack",)),
           "Pay X Force -> One of your units in any arena gets +X power for this attack."),
    battle("DS-FC", "Force Choke", "dark", Play(cost=2, options=((Effect("damage", 2, "character"),),)),
           "Pay 2 Force -> Put 2 damage counters on a Character (a pilot too)."),
    battle("DS-FL", "Force Lightning", "dark", Play(cost=2, options=((Effect("dice", 2, "enemy-unit"),),)),
           "Pay 2 Force -> Deal 2 dice of damage to an enemy unit."),
    battle("DS-DC", "Dark Side's Command", "dark", Play(cost=2, options=((Effect("disrupt"),),), windows=("disrupt",)),
           "Pay 2 Force -> Disrupt a battle card."),
    battle("DS-DEF", "Deflector Screen", "dark",
           Play(cost=1, options=((Effect("prevent", 2, "your-unit"),),), windows=("prevent",)),
           "Pay 1 Force -> Prevent 2 damage to one of your units."),
    unit("DS-ENG", "Imperial Engineer", "dark", "character", "Imperial Technician", 2, 20, 1, 2,
         plays=(Play(cost=1, options=((Effect("draw", 1),),), windows=("build",), once=True),),
         text="Pay 1 Force -> Draw a card. Play only during your build step."),
    battle("DS-TW", "Tactical Withdrawal", "dark", Play(cost=0, options=((Effect("retreat", 0, "your-unit"),),)),
           "Retreat one of your units."),
    battle("DS-SAB", "Sabotage", "dark",
           Play(cost=1, options=((Effect("damage", 1, "enemy-unit"), Effect("gain-force", 1)),)),
           "Pay 1 Force -> Deal 1 damage to an enemy unit, then gain 1 Force."),
    battle("DS-DRAIN", "Drain the Force", "dark",
           Play(cost=1, options=((Effect("lose-force", 3),), (Effect("gain-force", 1), Effect("draw", 1))),
                windows=("any", "any")),
           "Pay 1 Force -> Choose one: your opponent loses 3 Force; or you gain 1 Force and draw a card."),
    # ------------------------------------------------------------------ Light Side
    unit("LS-XW", "X-wing", "light", "space", "Rebel Starfighter", 3, 50, 3, 3,
         keywords=(k("evade", 1, cost=1),), text="Pay 1 Force -> Evade 1"),
    unit("LS-YW", "Y-wing", "light", "space", "Rebel Starfighter", 3, 30, 3, 4,
         keywords=(k("shields", 1),), text="Shields 1"),
    unit("LS-MC", "Mon Calamari Cruiser", "light", "space", "Rebel Capital Ship", 7, 20, 6, 7,
         keywords=(k("armor"),), text="Armor"),
    unit("LS-AW", "A-wing", "light", "space", "Rebel Starfighter", 2, 70, 2, 2),
    unit("LS-MF", "Millennium Falcon", "light", "space", "Rebel Transport", 6, 60, 5, 5, version="A",
         keywords=(k("lucky", 1),), text="Lucky 1"),
    unit("LS-SS", "Snowspeeder", "light", "ground", "Rebel Speeder", 3, 60, 3, 3,
         keywords=(k("critical-hit", 1),), text="Critical Hit 1"),
    unit("LS-ANP", "Anakin's Podracer", "light", "ground", "Speeder", 3, 80, 2, 4, version="A",
         keywords=(k("evade", 1, cost=1), k("lucky", 1)), text="Pay 1 Force -> Evade 1 | Lucky 1"),
    unit("LS-RT", "Rebel Troopers", "light", "ground", "Rebel Trooper", 2, 30, 2, 3,
         keywords=(k("intercept"),), text="Intercept"),
    unit("LS-ECB", "Echo Base Cannon", "light", "ground", "Rebel Artillery", 5, 20, 5, 6,
         keywords=(k("armor"),), text="Armor"),
    unit("LS-LF", "Luke Skywalker", "light", "character", "Rebel Jedi Padawan", 4, 50, 4, 3, version="F",
         keywords=(k("evade", 1, cost=1), k("retaliate", 2, cost=1)),
         text="Pay 1 Force -> Evade 1 | Pay 1 Force -> Retaliate 2"),
    unit("LS-AJ", "Anakin Skywalker", "light", "character", "Jedi Padawan", 3, 30, 1, 1, version="J",
         keywords=(k("evade", 1, cost=1),),
         pilot=PilotDef(kind="Speeder/Starfighter", speed=20, keywords=(k("lucky", 2),)),
         text="Pay 1 Force -> Evade 1 | [Pilot] Speeder and Starfighter Pilot. The Speeder or Starfighter gets "
              "+20 speed and Lucky 2."),
    unit("LS-YK", "Yoda", "light", "character", "Jedi Master", 11, 60, 7, 7, version="K",
         keywords=(k("deflect", 2, cost=2), k("evade", 1, cost=1)),
         triggers=(Trigger(on="discarded", effects=(Effect("gain-force", 4), Effect("return-self"))),),
         text="When Yoda is discarded from play, gain 4 Force and put Yoda into your hand. | Pay 2 Force -> "
              "Deflect 2 | Pay 1 Force -> Evade 1"),
    unit("LS-SP", "Starfighter Pilot", "light", "character", "Rebel Pilot", 2, 40, 1, 2,
         pilot=PilotDef(kind="Starfighter", speed=20, keywords=(k("evade", 2, cost=1),)),
         text="[Pilot] Starfighter Pilot. The Starfighter gets +20 speed and Pay 1 Force -> Evade 2."),
    unit("LS-RC", "Rebel Commando", "light", "character", "Rebel Trooper", 3, 40, 3, 3,
         keywords=(k("power-boost", 2, extra=1),),
         text="When this unit attacks, you may give it +2 power for that attack. If you do, when the attack ends, "
              "it does 1 damage to itself."),
    unit("LS-JK", "Jedi Knight", "light", "character", "Jedi Knight", 5, 50, 4, 5,
         keywords=(k("deflect", 2, cost=2),), text="Pay 2 Force -> Deflect 2"),
    unit("LS-JH", "Jabba the Hutt", "neutral", "character", "Hutt Crime Lord", 5, 10, 4, 6, version="C",
         keywords=(k("hidden-cost", 2),), statics=(Static(kind="grant", scope="character", keyword=k("intercept")),),
         text="Hidden Cost 2 | Each of your other units in the Character arena gets \"Pay 0 Force -> Intercept\"."),
    unit("LS-MED", "Rebel Medic", "light", "character", "Rebel Trooper", 2, 20, 1, 3,
         triggers=(Trigger(on="damaged", effects=(Effect("prevent", 1, "self"),)),),
         text="When this unit would be dealt damage, prevent 1 of that damage."),
    unit("LS-SG", "Shield Generator Crew", "light", "character", "Rebel Technician", 3, 20, 1, 3,
         keywords=(k("prevent", 1, cost=1),), text="Pay 1 Force -> Prevent 1 damage to one of your units."),
    unit("LS-TG", "Jedi Temple Guard", "light", "ground", "Jedi Guard", 4, 30, 3, 4),
    unit("DS-JHD", "Jedi Hunter Droid", "dark", "ground", "Separatist Droid", 4, 40, 4, 4,
         statics=(Static(kind="attack-only", scope="Jedi"),), text="This unit can attack only Jedi units."),
    unit("DS-SEN", "Imperial Sentry", "dark", "character", "Imperial Trooper", 1, 10, 1, 3),
    unit("LS-SEN", "Rebel Sentry", "light", "character", "Rebel Trooper", 1, 10, 1, 3),
    battle("LS-LS", "Lucky Shot", "light", Play(cost=1, options=((Effect("reroll", 2),),), windows=("reroll",)),
           "Pay 1 Force -> Reroll up to 2 dice."),
    battle("LS-EM", "Evasive Maneuver", "light",
           Play(cost=1, options=((Effect("power", 2, "your-unit"),), (Effect("prevent", 2, "your-unit"),)),
                windows=("attack", "prevent")),
           "Pay 1 Force -> Choose one: one of your units gets +2 power for this attack; or prevent 2 damage to one of "
           "your units."),
    battle("LS-RS", "Rebel Strike", "light", Play(cost=3, options=((Effect("dice", 3, "enemy-unit"),),)),
           "Pay 3 Force -> Deal 3 dice of damage to an enemy unit."),
    battle("LS-NSF", "Not So Fast", "light", Play(cost=2, options=((Effect("disrupt"),),), windows=("disrupt",)),
           "Pay 2 Force -> Disrupt a battle card."),
    battle("LS-SEC", "Second Wind", "light", Play(cost=1, options=((Effect("untap", 0, "your-unit"),),),
                                                   windows=("no-attack",), once=True),
           "Pay 1 Force -> Untap one of your units. Play only if no units are attacking, and only once per turn."),
)

DARK_60 = (["DS-TIE"] * 4 + ["DS-TIEB"] * 4 + ["DS-ISD"] * 4 + ["DS-TIEI"] * 2 + ["DS-ATAT"] * 4 + ["DS-SPB"] * 4
           + ["DS-BDD"] * 2 + ["DS-DT"] * 4 + ["DS-ST"] * 4 + ["DS-BH"] * 4 + ["DS-VK"] * 2 + ["DS-SID"] * 2
           + ["DS-TP"] * 4 + ["DS-ENG"] * 2 + ["DS-VV"] * 2 + ["DS-FL"] * 4 + ["DS-DC"] * 2 + ["DS-DEF"] * 4
           + ["DS-DRAIN"] * 2)
LIGHT_60 = (["LS-XW"] * 4 + ["LS-YW"] * 4 + ["LS-MC"] * 4 + ["LS-AW"] * 2 + ["LS-MF"] * 2 + ["LS-SS"] * 4
            + ["LS-ANP"] * 2 + ["LS-RT"] * 4 + ["LS-ECB"] * 2 + ["LS-LF"] * 2 + ["LS-AJ"] * 2 + ["LS-YK"] * 2
            + ["LS-SP"] * 4 + ["LS-RC"] * 4 + ["LS-JK"] * 2 + ["LS-LS"] * 4 + ["LS-EM"] * 4 + ["LS-RS"] * 4
            + ["LS-NSF"] * 2 + ["LS-SEC"] * 2)


@lru_cache(maxsize=1)
def default_pool() -> CardPool:
    pool = CardPool()
    for card in CARDS:
        pool.add(card)
    pool.decks = {"DARK-60": tuple(DARK_60), "LIGHT-60": tuple(LIGHT_60)}
    return pool
