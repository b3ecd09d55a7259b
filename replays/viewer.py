"""The replay viewer's data: one JSON object from which the viewer page (replays/viewer_assets/)
draws every step of a game, offline (docs/viewer.md describes its shape).

A visitor of the replayer (STYLE.md section 8) keeps, per step, what the timeline keeps (who did
what, the events, the rules applied, note, dispute, error) in plain words with card names, the
table after the step, and what changed from the step before. The table is stored in full at
keyframes (step 0 and every ``KEYFRAME_EVERY`` steps) and as a patch against the step before
otherwise; ``state_at`` is the one rebuild rule, which the page follows too.

Nothing here names a game: card names, die faces and which strings of a replay are card
references come from the game (``Game.viewer_cards``); events are worded by their kind
(docs/events.md), with a plain fallback for a kind this module has no words for.
"""

from __future__ import annotations

import copy
import html
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from importlib import resources
from typing import Any

import i18n
from i18n import N_, NN_, NP_, Text, text
from judge.limits import MAX_ITEMS, MAX_STRING
from judge.rules import index
from replays.format import Log, parse_log
from replays.replayer import ReplayResult, StepRecord, replay
from replays.viewer_words import ui_words

FORMAT = "arbiter.viewer/1"
#: a full table every this many steps (step 0 always); patches in between
KEYFRAME_EVERY = 25
#: annotations kept for one replay, and characters of one annotation's note (judge.limits)
MAX_ANNOTATIONS = MAX_ITEMS
MAX_NOTE = MAX_STRING

# -------------------------------------------------------------------------------- event words
# One template per event kind (docs/events.md). ``{key}`` is the event's value, named (player and
# card names); ``{key|noun}`` writes "1 noun" or "N nouns"; ``{key|poss}`` the possessive
# ("Boba Fett's", "Frozen Wastes'"); ``{key|flag}`` nothing (it only keeps or drops its part), and
# ``{key|not}`` nothing either, its part kept only when the value is missing or false. A
# ``[...]`` part is left out when a value in it is missing, null, false, 0 or empty, or is a
# ``source`` that is the event's own ``player`` or ``card``.
EVENT_WORDS: dict[str, str] = {
    "replaced": N_("{by} replaces {instead_of}: it does not happen"),
    "triggered": N_("{ability} triggers before {on}"),
    "queued": N_("{ability} waits in the queue after {on}"),
    "resolving": N_("{ability} resolves"),
    "declined": N_("{ability}: declined"),
    "position": N_("the game starts from a given position"),
    "activate": N_("{player} activates {card}[, rolling {rolled}]"),
    "play": N_("{player} plays {code}[ on {on}][, replacing {replaces}][ for {cost|resource}]"),
    "damage": N_("{source} deals {amount} damage to {target}[ ({symbol})][, {blocked} blocked by shields]"
              "[, unblockable{unblockable|flag}]"),
    "defeat": N_("{target} is defeated[ by {source}][; dice removed: {dice_removed}]"
              "[; upgrades discarded: {upgrades_discarded}]"),
    "shields": N_("{source} gives {target} {given|shield}[ ({ignored} over the cap)]"),
    "remove-shields": N_("{source} removes {removed|shield} from {target}"),
    "heal": N_("{source} heals {healed} damage from {target}"),
    "gain-resources": N_("{player} gains {amount|resource}[ ({source})]"),
    "lose-resources": N_("{player} loses {lost|resource}[ ({source})]"),
    "draw": N_("{player} draws {drawn}[ ({source})]"),
    "discard": N_("{player} discards {card}[ at random{random|flag}][ ({source})]"),
    "reroll": N_("{source} rerolls {rolled}"),
    "turn": N_("{source} turns {die} to {face}"),
    "remove-die": N_("{source} removes {die} from the pool"),
    "claim": N_("{player} claims {battlefield}[ (from {from})]"),
    "setup": N_("setup"),
    "mulligan": N_("{player} mulligans {returned}"),
    "resources": N_("each player takes {amount|resource}"),
    "battlefield-roll": N_("battlefield roll {try}: {rolled} (totals {totals})"),
    "battlefield-chosen": N_("{by} chooses {battlefield}; {controller} controls it"),
    "battlefield-unused": N_("{player|poss} battlefield {battlefield} is not used"),
    "compensation": N_("{player} places shields for the battlefield not chosen: {shields}"),
    "dice-return": N_("the dice return to their cards"),
    "round-begins": N_("round {round} begins; {first} acts first"),
    "pass": N_("{player} passes[ automatically{automatic|flag}]"),
    "decline-extra-action": N_("{player} declines the extra action[, passed automatically: they claimed the "
                               "battlefield{automatic|flag}]"),
    "extra-action": N_("{player} takes an extra action"),
    "action-phase-ends": N_("the action phase of round {round} ends"),
    "upkeep": N_("upkeep of round {round}"),
    "delayed": N_("{kind} on {target}, waiting for {when}"),
    "delayed-resolves": N_("{kind} on {target} resolves"),
    "eliminated": N_("{player} is eliminated ({why})"),
    "game-over": N_("game over: {winner} wins ({reason})"),
    "reroll-action": N_("{player} discards a card to reroll"),
    "use": N_("{player} uses {card}[: {ability}]"),
    "claim-ability": N_("{card|poss} claim ability: {text}"),
    "resolve": N_("{player} resolves {dice}: {value} {symbol}[ via {via}]"),
    "late-joiners": N_("{dice} join in, showing {symbol}"),
    "free": N_("{die} costs nothing (instead of {cost})"),
    "indirect": N_("{player} takes {amount} indirect damage: {split}"),
    "special": N_("{die} resolves the special ability of {card}"),
    "x-value": N_("X on {die} is {value}"),
    "spend": N_("{player} spends {amount|resource}[ for {for}]"),
    "limbo": N_("{card} resolves (in limbo)"),
    "discarded": N_("{card} goes to the discard pile"),
    "enters-play": N_("{card} enters play[ on {on}]"),
    "replaced-upgrade": N_("{upgrade} is replaced"),
    "discard-upgrade": N_("{upgrade} is discarded"),
    "die-set-aside": N_("the die of {upgrade} showing {showing} is set aside"),
    "redeploy": N_("{upgrade} redeploys from {from} to {to}"),
    "exhaust": N_("{card} is exhausted[ by {source}]"),
    "battlefield-control": N_("control of the battlefield passes from {from} to {to}[ ({source})]"),
    "discarded-from-play": N_("{card} is discarded from play[ ({source})]"),
    "into-pool": N_("{die} goes into {player|poss} pool showing {face}[ ({source})]"),
    "move-damage": N_("{source} moves {amount} damage from {from} to {to}"),
    "move-card": N_("{player} moves {card} from {from} to {to}[ ({source})]"),
    "becomes-support": N_("{card} becomes a support (from {from})[ ({source})]"),
    "look-at": N_("{player} looks at {cards}[ ({source})]"),
    "reveal": N_("{player} reveals {card}"),
    "cannot-pay": N_("{player} cannot pay {amount|resource}[ ({source})]"),
    "cost-reduced": N_("the cost is reduced by {by}[ ({source})]"),
    "then-not-resolved": N_("{source}: the part after 'then' does not resolve[ (discarded: {discarded})]"),
    "no-effect": N_("{source} has no effect: {why}"),
    "not-implemented": N_("{card}: not implemented by the engine ({message})"),
    # -- SW TCG and Relic (the same template serves any game whose event has the fields)
    "attack": N_("{attacker} attacks {defender}[ ({arena})]"),
    "await": N_("{player} is to act ({wait})"),
    "build": N_("{player} builds {card}: {counters} of {cost}[, {total} in all]"),
    "chance": N_("{player} has a chance to play[ ({kind})]"),
    "chance-end": N_("the chance to play ends[ ({kind})]"),
    "deflect": N_("{ability} deflects {amount} damage to {to}"),
    "doubled": N_("{source} doubles the damage {by} would do to {target}: {was} → {amount}"),
    "deploy": N_("{player} deploys {card}[ to {arena}]"),
    "disrupted": N_("{by} disrupts {ability}"),
    "force": N_("{player}: Force {force} (change {change})"),
    "held": N_("{ability} is held ({window})"),
    "hits": N_("{target}: {hits} hits (needs {need})[, {damage} damage]"),
    "intercept": N_("[{defender} intercepts the attack ({ability}){changed|flag}][{ability} cannot take the attack: "
                    "it stays on {defender}{changed|not}]"),
    "pending": N_("{amount} damage[ from {source}] waits to be dealt to {target}"),
    "pilot": N_("{player} moves the pilot {pilot} off its unit to {onto|place}"),
    "prevent": N_("{ability} prevents {prevented} damage to {target}[ ({wasted} wasted)]"),
    "ready": N_("ready phase: build die {roll}[; untapped: {untapped}]"),
    "roll": N_("{player} rolls {dice}[ for {purpose}][ ({source})]"),
    "victory": N_("{winner} wins the game (arenas: {arenas})"),
    "phase": N_("phase: {phase}[, step {step}][, arena {arena}][ ({player})]"),
    "effect": N_("{effect}[: {player}][ → {target}][, change {change}][, now {now}][ ({card})][ ({source})]"),
    "charge-spent": N_("{card}: a charge is spent ({left} left)"),
    "contest-begins": N_("{player} begins a {contest} of {characteristic} against {enemies} ({value})"),
    "contest-resolved": N_("{player}, {contest}: {score} against {against}, {outcome}"),
    "declared": N_("{player} declares the bonus of {card}: {bonus}"),
    "die-rolled": N_("die {die} ({side}): {result}, total {score}"),
    "die-exploded": N_("die {die} explodes from {parent}: {result}, total {score}"),
    "die-modified": N_("{card} changes die {die} by {by}: {base} → {result}, total {score}"),
    "die-rerolled": N_("{card} rerolls die {die}: {was} → {result}, total {score}"),
    "encounter-ended": N_("{player|poss} Encounter phase is over ({outcome}): the threats left stay "
                          "unresolved, only ending the phase remains"),
    "scenario-reached": N_("{player} reaches the goal of the scenario"),
    "trophy": N_("{player} takes {enemy} as a trophy"),
    "turn-begins": N_("{player|poss} turn begins[ (round {round})]"),
}

#: the words of an event whose kind another game writes with other fields (EVENT_WORDS' template
#: does not fit it): tried in order after it, before the plain form
MORE_EVENT_WORDS: dict[str, tuple[str, ...]] = {
    "attack": (N_("{attacker} goes through its turn without attacking{skip|flag}[ ({arena})]"),),
    "draw": (N_("{player} draws {count|card}[ (of {asked} asked)]"),),
    "use": (N_("{player} uses {ability}[, paying {cost} Force]"),),
    "damage": (N_("{target} takes {counters|damage}[ from {source}], {total} in all"),),
    "discard": (N_("{card} goes to {owner|poss} discard pile ({why})"),),
    "reroll": (N_("{player} rerolls dice {which} with {ability}: now {dice}"),),
    "resolve": (N_("{ability} resolves ({player})"),),
    "complete": (N_("{player} completes {card}[ (cost {cost})][ → {target}]"),),
    "equip": (N_("{player} equips {onto} with {card}[ ({paid} paid)]"),),
    # (``onto`` a unit, not a place of the game's table, Game.viewer_cards' ``places``)
    "pilot": (N_("{player} moves the pilot {pilot} onto {onto}"),),
    "charges-placed": (N_("{player} places {charges} charges on {card}"),),
    "contest-begins": (N_("{player} begins a {contest} of {characteristic}[ in the scenario's "
                          "Confrontation{confrontation|flag}], target {value}"),),
}

_OPTIONAL = re.compile(r"\[([^\[\]]*)\]")
_PAREN_REF = re.compile(r" \(([^()\s]+)\)")
_FIELD = re.compile(r"\{([A-Za-z_]+)(?:\|([a-z]+))?\}")


class Names:
    """Player and card names for the strings of one replay (refs, codes, player IDs)."""

    def __init__(self, players: Iterable[Mapping[str, Any]], info: Mapping[str, Any], t: Text | None = None) -> None:
        self.t = t or text()  # the language of the words (i18n); names stay as the card data gives them
        self.players = {str(p["id"]): str(p.get("name") or p["id"]) for p in players}
        self.refs: dict[str, dict[str, Any]] = dict(info.get("refs") or {})
        self.cards: dict[str, dict[str, Any]] = dict(info.get("cards") or {})
        self.symbols: dict[str, str] = dict(info.get("symbols") or {})
        self.table: dict[str, Any] = dict(info.get("table") or {})  # how the game's table reads (Game.viewer_cards)
        known = sorted({*self.refs, *self.players}, key=len, reverse=True)
        # a known name inside free text (a summary, "the face of p1.01022/1"), whole words only
        self._in_text = re.compile(r"(?<![\w.#/])(" + "|".join(map(re.escape, known)) + r")(?![\w#/])") \
            if known else None

    def card(self, text: str) -> str | None:
        entry = self.refs.get(text)
        if entry is None:
            return None
        card = self.cards.get(entry["code"], {})
        name = str(card.get("name") or entry["code"])
        serial = re.search(r"#(\d+)", text)
        if serial and int(serial.group(1)) > 1:
            name += f" #{serial.group(1)}"
        die = entry.get("die")
        if die is not None:
            n = f" {die}" if die > 1 else ""
            if self.t.lang != "en":
                return self.t.gettext("the die{n} of {card}", n=n, card=name)
            return f"{possessive(name)} die{n}"
        return name

    def name(self, value: Any) -> str:
        t = self.t
        if isinstance(value, bool):
            return t.gettext("yes") if value else t.gettext("no")
        if value is None:
            return t.gettext("none")
        if isinstance(value, str):
            if value in self.players:
                return self.players[value]
            card = self.card(value)
            if card is not None:
                return card
            if t.lang != "en" and value in VALUE_WORDS:
                return t.pgettext("value", value)
            head, sep, tail = value.partition(":")  # an ability's ID: "<card ref>:<keyword or n>"
            if sep and head in self.refs:
                if t.lang != "en" and tail in VALUE_WORDS:
                    tail = t.pgettext("value", tail)
                return f"{self.card(head)} ({tail})"
            return self.text(value)
        if isinstance(value, list):
            return ", ".join(self.name(v) for v in value) if value else t.gettext("nothing")
        if isinstance(value, dict):
            return (", ".join(f"{self.key(k)}: {self.name(v)}" for k, v in value.items()) if value
                    else t.gettext("nothing"))
        return str(value)

    def key(self, key: Any) -> str:
        """A key of an object in a value: a field's words in other languages, else as a name."""
        if self.t.lang != "en" and isinstance(key, str) and key in KEY_WORDS:
            return key_word(self.t, key)
        return self.name(key)

    def text(self, text: str) -> str:
        """``text`` with every player ID and card reference in it replaced by its name."""
        if self._in_text is None:
            return text
        return self._in_text.sub(lambda m: self.name(m.group(1)), text)

    def summary(self, text: str) -> str:
        """A game's one-line summary named (``text``): a reference in parentheses right after its
        own card's name ("deploy Droid Tank (p1.DS-DT)") says nothing more once named, and goes."""
        def drop(m: re.Match[str]) -> str:
            name = self.card(m.group(1)) if m.group(1) in self.refs else None
            return "" if name is not None and m.string[:m.start()].endswith(name) else m.group(0)

        return self.text(_PAREN_REF.sub(drop, text))

    def item(self, value: Any) -> str:
        """An item of a list of the table: an object that stands for a card (``card``, ``ref``) by
        that card's name, anything else as ``name`` words it."""
        if isinstance(value, dict):
            for key in ("card", "ref"):
                ref = value.get(key)
                if isinstance(ref, str) and ref in self.refs:
                    return self.name(ref)
        return self.name(value)


def possessive(name: str) -> str:
    """English possessive: "Boba Fett's", "Frozen Wastes'" (other languages word it in the template)."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def count(t: Text, noun: str, n: int) -> str:
    """``n`` and a noun of the event words (``{key|noun}``), in the plural form of ``t``'s language."""
    if noun == "resource":
        return t.ngettext("{n} resource", "{n} resources", n)
    if noun == "shield":
        return t.ngettext("{n} shield", "{n} shields", n)
    if noun == "card":
        return t.ngettext("{n} card", "{n} cards", n)
    if noun == "damage":
        return t.ngettext("{n} damage", "{n} damage", n)
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _present(value: Any) -> bool:
    return value not in (None, False, 0, "") and value != [] and value != {}


def _fill(template: str, event: Mapping[str, Any], names: Names) -> str:
    def field(m: re.Match[str]) -> str:
        noun = m.group(2)
        if noun == "not":  # (its part is kept only when the value is missing or false)
            return ""
        if m.group(1) not in event:  # another game's event of the same kind: its plain form (describe_event)
            raise KeyError(m.group(1))
        value = event[m.group(1)]
        if noun == "flag":
            return ""
        if noun == "place":  # a place of the game's table, in the game's words (Game.viewer_cards)
            place = names.table.get("places", {}).get(value)
            if place is None:
                raise ValueError(value)
            return names.t.gettext(place)
        if noun == "poss":
            name = names.name(value)
            return possessive(name) if names.t.lang == "en" else name
        if noun and isinstance(value, int) and not isinstance(value, bool):
            return count(names.t, noun, value)
        if m.group(1) == "symbol" and isinstance(value, str):
            return names.t.pgettext("die symbol", names.symbols.get(value, value))
        if m.group(1) == "drawn" and isinstance(value, int) and not isinstance(value, bool):
            return count(names.t, "card", value)
        if m.group(1) == "drawn" and isinstance(value, list):
            return count(names.t, "card", len(value)) + (f" ({names.name(value)})" if value else "")
        return names.name(value)

    def optional(m: re.Match[str]) -> str:
        fields = [(f.group(1), f.group(2)) for f in _FIELD.finditer(m.group(1))]
        keys = [k for k, _ in fields]
        if not all(_present(event.get(k)) != (noun == "not") for k, noun in fields):
            return ""
        if "source" in keys and event["source"] in (event.get("player"), event.get("card")):
            return ""
        return _FIELD.sub(field, m.group(1))

    return _FIELD.sub(field, _OPTIONAL.sub(optional, template))


def describe_event(event: Mapping[str, Any], names: Names) -> str:
    """One event (docs/events.md) in plain words, with player and card names, in the language of
    ``names`` (the template's translation; the English one when a catalog lacks it)."""
    kind = str(event.get("event", "?"))
    first = EVENT_WORDS.get(kind)
    for template in ((first,) if first is not None else ()) + MORE_EVENT_WORDS.get(kind, ()):
        try:
            return _fill(names.t.gettext(template), event, names)
        except (KeyError, TypeError, ValueError):  # a shape these words do not expect: the next, or the plain form
            pass
    rest = "; ".join(f"{names.key(k)} {names.name(v)}" for k, v in event.items() if k not in ("event", "rules"))
    return f"{kind}: {rest}" if rest else kind


#: words of the values the games write in their events and tables (phases, contests, sides,
#: outcomes); shown translated in other languages (``pgettext("value", ...)``), as written in English
VALUE_WORDS = frozenset({
    NP_("value", "setup"), NP_("value", "action"), NP_("value", "upkeep"), NP_("value", "ready"),
    NP_("value", "command"), NP_("value", "battle"), NP_("value", "build"), NP_("value", "retreat"),
    NP_("value", "attack"), NP_("value", "reroll"), NP_("value", "space"), NP_("value", "ground"),
    NP_("value", "character"), NP_("value", "exploration"), NP_("value", "encounter"), NP_("value", "experience"),
    NP_("value", "test"), NP_("value", "strength"), NP_("value", "willpower"), NP_("value", "cunning"),
    NP_("value", "win"), NP_("value", "lose"), NP_("value", "tie"), NP_("value", "player"), NP_("value", "enemy"),
    NP_("value", "prepare"), NP_("value", "rolled"), NP_("value", "over"), NP_("value", "movement"),
    NP_("value", "lost"), NP_("value", "tied"),
    # why a SW TCG card went to a discard pile
    NP_("value", "damage"), NP_("value", "unique"), NP_("value", "pilot"), NP_("value", "effect"),
    NP_("value", "equipment"), NP_("value", "location"), NP_("value", "completed"), NP_("value", "hand"),
    # the kinds of a SW TCG chance to play (``attack`` and ``reroll`` above)
    NP_("value", "general"), NP_("value", "prevent"), NP_("value", "disrupt"),
    # what a SW TCG ``effect`` event does (``damage``, ``reroll``, ``retreat`` above)
    NP_("value", "gain-force"), NP_("value", "lose-force"), NP_("value", "draw"), NP_("value", "power"),
    NP_("value", "speed"), NP_("value", "stun"), NP_("value", "accuracy"), NP_("value", "critical-hit"),
    NP_("value", "untap"), NP_("value", "return-self"), NP_("value", "no-combat"),
    NP_("value", "return-with-stack"), NP_("value", "discard-if-missed"), NP_("value", "gain-control"),
    NP_("value", "control-ends"),
    # what a SW TCG player is asked (``wait``) and how long a lasting effect lasts (``until``)
    NP_("value", "act"), NP_("value", "chance"), NP_("value", "deploy"), NP_("value", "partial"),
    NP_("value", "turn"), NP_("value", "character-step"),
    # what a SW TCG player may do now (the verbs of the table's ``may``) and abilities' keywords
    NP_("value", "use"), NP_("value", "play"), NP_("value", "lucky"), NP_("value", "evade"),
    # colours of Relic's bonuses and enemies
    NP_("value", "red"), NP_("value", "blue"), NP_("value", "yellow"), NP_("value", "gray"),
    # why a Destiny card has no effect (``no-effect``'s ``why``)
    NP_("value", "you have no dice in your pool"), NP_("value", "none of your dice can be resolved"),
    NP_("value", "no weapon in hand can be played"), NP_("value", "no blue character to spot"),
})


#: what a step does, by its ``do`` (docs/replay-format.md); another verb is shown as written
ACTION_WORDS = {
    "play": N_("plays a card"), "activate": N_("activates"), "resolve": N_("resolves dice"),
    "reroll": N_("discards a card to reroll"), "use": N_("uses an ability"), "claim": N_("claims the battlefield"),
    "pass": N_("passes"), "discard": N_("discards"), "end-phase": N_("ends the phase"), "battle": N_("starts a battle"),
    "confront": N_("confronts"), "test": N_("takes a test"), "declare": N_("declares"), "roll": N_("rolls"),
    "reach": N_("reaches"), "prevent": N_("prevents damage"), "pilot": N_("pilots a unit"), "build": N_("builds"),
    "deploy": N_("deploys"), "attack": N_("attacks"), "power": N_("uses a power"), "buy": N_("buys"),
    "answer": N_("answers"), "choose": N_("chooses"), "mulligan": N_("mulligans"), "setup": N_("setup"),
}
#: a step's keys that say nothing to a reader (how the log checks and annotates itself)
_STEP_QUIET = frozenset({"by", "do", "expect", "note", "dispute", "roll", "rolls", "random", "hash", "choices"})


def do_words(do: Any, t: Text) -> str:
    """A step's verb (``do``) in words, in ``t``'s language ("plays a card"); another verb as written."""
    verb = ACTION_WORDS.get(do) if isinstance(do, str) else None
    return t.gettext(verb) if verb is not None else str(do or "")


def step_words(step: Mapping[str, Any], names: Names) -> str:
    """What a logged step does, from the step itself, in ``names``' language: "Ana: resolves dice
    (dice: Luke Skywalker's die, ...)". The games' own summaries are English; other languages
    read this."""
    t = names.t
    said = do_words(step.get("do"), t) or "?"
    rest = "; ".join(f"{key_word(t, str(k))}: {names.name(v)}" for k, v in step.items() if k not in _STEP_QUIET)
    who = step.get("by")
    head = f"{names.name(who)}: {said}" if who is not None else said
    return f"{head} ({rest})" if rest else head


def describe_decision(decision: Mapping[str, Any], names: Names) -> str:
    t = names.t
    who = names.name(decision.get("by"))
    prompt = names.text(t.words(decision.get("prompt") or decision.get("kind") or t.gettext("a decision")))
    return t.gettext("{who} chose {answer} ({prompt})", who=who, answer=names.name(decision.get("answer")),
                     prompt=prompt)


# -------------------------------------------------------------------------------- what changed
_COUNTERS = {"damage": "damage", "shields": "shields", "resources": "resources", "dice": "dice"}
#: a flag of the table turned on / off, said of its player or card (``{who}``)
_FLAGS = {"exhausted": (N_("{who} is exhausted"), N_("{who} is readied")),
          "defeated": (N_("{who} is defeated"), N_("{who} is no longer defeated")),
          "passed": (N_("{who} has passed"), N_("{who} may act again")),
          "eliminated": (N_("{who} is eliminated"), N_("{who} is back")),
          "tapped": (N_("{who} is tapped"), N_("{who} is untapped"))}
#: the words of the state view's keys (docs/viewer.md); a key not here is shown as it is written
#: (underscores as spaces), in every language
KEY_WORDS = {k: v for k, v in (
    ("round", N_("round")), ("phase", N_("phase")), ("turn", N_("turn")), ("step", N_("step")),
    ("claimed_by", N_("claimed by")), ("winner", N_("winner")), ("outcome", N_("outcome")),
    ("result", N_("result")), ("hand", N_("hand")), ("deck", N_("deck")), ("discard", N_("discard")),
    ("damage", N_("damage")), ("shields", N_("shields")), ("resources", N_("resources")), ("dice", N_("dice")),
    ("characters", N_("characters")), ("character", N_("character")), ("upgrades", N_("upgrades")),
    ("supports", N_("supports")), ("passes", N_("passes in a row")), ("active", N_("active")), ("chance", N_("chance")),
    ("arenas", N_("arenas")), ("arena", N_("arena")), ("space", N_("Space")), ("ground", N_("Ground")),
    ("build_zone", N_("build zone")), ("tapped", N_("tapped")), ("attack", N_("attack")), ("roll", N_("roll")),
    ("rolled", N_("rolled")), ("rolls", N_("rolls")), ("counters", N_("counters")), ("pilot", N_("pilot")),
    ("pilots", N_("pilots")), ("pilot_cards", N_("pilot cards")), ("used", N_("used")), ("once", N_("once")),
    ("moved", N_("moved")), ("kind", N_("kind")), ("contest", N_("contest")), ("stage", N_("stage")),
    ("declared", N_("declared")), ("against", N_("against")), ("last", N_("last")), ("base", N_("base")),
    ("modifiers", N_("modifiers")), ("mods", N_("modifiers")), ("exploded", N_("exploded")),
    ("player_score", N_("score")), ("score", N_("score")), ("assets", N_("assets")),
    ("spent", N_("charges spent this turn")), ("charges", N_("charges")), ("trophies", N_("trophies")),
    ("ended", N_("Encounter phase ended")), ("confronted", N_("Confrontation taken this phase")),
    # a step's own fields (step_words)
    ("card", N_("card")), ("cards", N_("cards")), ("target", N_("target")), ("ability", N_("ability")),
    ("die", N_("die")), ("onto", N_("onto")), ("on", N_("on")), ("for", N_("for")), ("to", N_("to")),
    ("enemies", N_("enemies")), ("claim_ability", N_("claim ability")), ("skill", N_("skill")), ("pay", N_("pay")),
    ("amount", N_("amount")), ("option", N_("option")), ("controller", N_("controller")), ("owner", N_("owner")),
    ("until", N_("until")), ("source", N_("source")), ("stat", N_("stat")),
    # the fields of what is under way on a table (an attack, a roll, damage waiting), drawn by the page
    ("attacker", N_("attacker")), ("defender", N_("defender")), ("boosts", N_("boosts")), ("purpose", N_("purpose")),
    ("lucky", N_("lucky")), ("retaliations", N_("retaliations")), ("player", N_("player")),
    ("prevented", N_("prevented")), ("stun", N_("stun")), ("held", N_("held")), ("later", N_("later")),
    ("color", N_("colour")), ("value", N_("value")), ("bonus", N_("bonus")),
)}


def key_word(t: Text, key: str) -> str:
    """A state key in words, in ``t``'s language."""
    word = KEY_WORDS.get(key)
    return t.gettext(word) if word is not None else key.replace("_", " ")


def _fields(old: Mapping[str, Any], new: Mapping[str, Any]) -> Iterator[tuple[str, Any]]:
    """``new``'s fields, then those only ``old`` has, as gone: a state view leaves out a flag or a
    record that is not set (false for a flag, an empty list, none otherwise)."""
    yield from new.items()
    for key, was in old.items():
        if key not in new:
            yield key, False if isinstance(was, bool) else [] if isinstance(was, list) else None


def _of(t: Text, who: str, what: str) -> str:
    """A field of someone (``Ana's hand``; other languages: their own order, no possessive)."""
    return t.gettext("{who}'s {what}", who=who, what=what)


def changes(before: Mapping[str, Any] | None, after: Mapping[str, Any], names: Names) -> list[str]:
    """What changed on the table from ``before`` to ``after`` (state views), in words."""
    if before is None:
        return []
    t = names.t
    out: list[str] = []
    for key in ("round", "phase", "turn", "claimed_by", "winner"):
        if before.get(key) != after.get(key) and key in after:
            out.append(f"{key_word(t, key)}: {names.name(before.get(key))} → {names.name(after.get(key))}")
    bf0, bf1 = before.get("battlefield") or {}, after.get("battlefield") or {}
    if bf0.get("controller") != bf1.get("controller") and bf1:
        out.append(t.gettext("{card} is now controlled by {player}", card=names.name(bf1.get("card")),
                             player=names.name(bf1.get("controller"))))
    p0, p1 = before.get("players") or {}, after.get("players") or {}
    for pid, now in p1.items():
        was = p0.get(pid) or {}
        who = names.name(pid)
        for key, value in _fields(was, now):
            old = was.get(key)
            if old == value or key in ("hand_cards", "power_used", "serials"):
                continue
            if key in ("hand", "deck") and isinstance(value, int):
                out.append(t.ngettext("{field}: {old} → {n} card", "{field}: {old} → {n} cards", value,
                                      field=_of(t, who, key_word(t, key)), old=old))
            elif key in _COUNTERS and isinstance(value, int):
                out.append(f"{_of(t, who, key_word(t, key))}: {old} → {value}")
            elif key in _FLAGS and isinstance(value, bool):
                out.append(t.gettext(_FLAGS[key][0 if value else 1], who=who))
            elif isinstance(value, list):
                _list_change(out, _of(t, who, key_word(t, key)), old if isinstance(old, list) else [], value, names)
            elif key == "pool" and isinstance(value, dict):
                _pool_change(out, old if isinstance(old, dict) else {}, value, names)
            elif isinstance(value, dict):
                _cards_change(out, key, old if isinstance(old, dict) else {}, value, names)
    _table_change(out, before, after, names)
    return out


#: top-level keys told above, or never (the rng's position; who may do what now)
_TOLD = frozenset({"round", "phase", "turn", "claimed_by", "winner", "reason", "battlefield", "players", "rng_drawn",
                   "may", "acting", "wait"})  # the last three: who may do what now (the step panel says)


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))


def _keyed(items: list[Any]) -> dict[str, Any] | None:
    """A list of objects that each name themselves (``ref`` or ``id``) as ``{name: object}``."""
    out: dict[str, Any] = {}
    for item in items:
        if not isinstance(item, dict):
            return None
        key = item.get("ref", item.get("id"))
        if not isinstance(key, str) or key in out:
            return None
        out[key] = item
    return out


def _is_card(key: Any, value: Any, names: Names) -> bool:
    """A card of the table: an object under its reference (one the game names, or holding a code)."""
    return isinstance(value, dict) and (key in names.refs or "code" in value)


def _places(state: Mapping[str, Any], names: Names) -> dict[str, tuple[str, str, dict[str, Any]]]:
    """Where each card of the table's zones lies: ``{ref: (zone key, place in words, card)}``. A
    zone is a key of the table holding ``{ref: card}``, or ``{part: {ref: card}}`` with a part per
    arena (the place: the part's words) or per player (that player's zone)."""
    t = names.t
    out: dict[str, tuple[str, str, dict[str, Any]]] = {}
    for key, value in state.items():
        if key in _TOLD or not isinstance(value, dict) or not value:
            continue
        if all(_is_card(ref, card, names) for ref, card in value.items()):
            for ref, card in value.items():
                out[ref] = (key, key_word(t, key), card)
        elif all(isinstance(cards, dict) and not _is_card(part, cards, names)
                 and all(_is_card(ref, card, names) for ref, card in cards.items()) for part, cards in value.items()):
            for part, cards in value.items():
                place = (_of(t, names.name(part), key_word(t, key)) if part in names.players
                         else key_word(t, str(part)))
                for ref, card in cards.items():
                    out[ref] = (key, place, card)
    return out


def _links(names: Names) -> dict[str, Mapping[str, Any]]:
    links = names.table.get("links")
    return {k: v for k, v in links.items() if isinstance(v, Mapping)} if isinstance(links, Mapping) else {}


def _zone_moves(out: list[str], before: Mapping[str, Any], after: Mapping[str, Any], names: Names) -> set[str]:
    """The cards of the table's zones (``_places``) that entered, moved from one zone to another,
    left, or changed; and the game's links (``Game.viewer_cards``' ``table``: ``{card: card}`` maps,
    "X pilots Y") that were made or undone. Returns the table's keys told here."""
    t = names.t
    was, now = _places(before, names), _places(after, names)
    play = names.table.get("play")
    links = _links(names)
    linked = {str(spec["zone"]) for spec in links.values() if spec.get("zone")}  # its cards: told by the link
    quiet = frozenset(str(spec["field"]) for spec in links.values() if spec.get("field"))

    def in_play(zone: str) -> bool:
        return play is None or zone in play

    for ref, (zone, place, card) in now.items():
        name = names.name(ref)
        if ref not in was:
            if zone in linked:
                continue
            on = card.get("on")
            out.append(t.gettext("{card} goes to {place}", card=name, place=place) if not in_play(zone) else
                       t.gettext("{card} enters play on {on}", card=name, on=names.name(on)) if on else
                       t.gettext("{card} enters play", card=name))
            continue
        zone0, place0, card0 = was[ref]
        if place0 != place:
            if zone in linked or zone0 in linked:
                continue
            out.append(t.gettext("{card} moves from {old} into play ({new})", card=name, old=place0, new=place)
                       if in_play(zone) and not in_play(zone0) else
                       t.gettext("{card} moves from {old} to {new}", card=name, old=place0, new=place))
            continue
        _card_fields(out, name, card0, card, names, quiet | ({"on"} if zone in linked else set()))
    for ref, (zone, place, _card) in was.items():
        if ref in now or zone in linked:
            continue
        out.append(t.gettext("{card} leaves play ({zone})", card=names.name(ref), zone=place) if in_play(zone) else
                   t.gettext("{card} leaves {place}", card=names.name(ref), place=place))
    for key, spec in links.items():
        old, new = before.get(key), after.get(key)
        old, new = old if isinstance(old, dict) else {}, new if isinstance(new, dict) else {}
        words = spec.get("words")
        if old == new or not (isinstance(words, (list, tuple)) and len(words) == 2):
            continue
        for ref, other in new.items():
            if old.get(ref) != other and other is not None:
                out.append(t.gettext(str(words[0]), card=names.name(ref), other=names.name(other)))
        for ref, other in old.items():
            if new.get(ref) is None and other is not None:
                out.append(t.gettext(str(words[1]), card=names.name(ref), other=names.name(other)))
    return {zone for zone, _, _ in (*was.values(), *now.values())} | set(links)


def _table_change(out: list[str], before: Mapping[str, Any], after: Mapping[str, Any], names: Names) -> None:
    """The rest of a game's table, read by shape (another game's arenas, zones, contest, ...)."""
    t = names.t
    told = _zone_moves(out, before, after, names)
    for key, value in _fields(before, after):
        old = before.get(key)
        if key in _TOLD or key in told or old == value:
            continue
        label = key_word(t, key)
        if _scalar(value) and _scalar(old):
            out.append(f"{label}: {names.name(old)} → {names.name(value)}")
        elif isinstance(value, dict) and value and all(isinstance(v, dict) for v in value.values()):
            zones = all(all(isinstance(c, dict) for c in v.values()) for v in value.values())
            if zones and any(value.values()):  # {zone: {ref: card}}
                prev = old if isinstance(old, dict) else {}
                for zone, cards in value.items():
                    was = prev.get(zone)
                    _cards_change(out, zone, was if isinstance(was, dict) else {}, cards, names)
            else:
                _cards_change(out, key, old if isinstance(old, dict) else {}, value, names)
        elif isinstance(value, dict) and not isinstance(old, dict):
            kind = value.get("kind")
            out.append(t.gettext("{what} begins: {kind}", what=label, kind=names.name(kind)) if isinstance(kind, str)
                       else t.gettext("{what} begins", what=label))
        elif value is None and isinstance(old, dict):
            out.append(t.gettext("{what} ends", what=label))
        elif isinstance(value, dict) and isinstance(old, dict):
            _record_change(out, label, old, value, names)
        elif isinstance(value, list):
            _list_change(out, label, old if isinstance(old, list) else [], value, names)


def _record_change(out: list[str], label: str, old: Mapping[str, Any], new: Mapping[str, Any], names: Names) -> None:
    """One object of the table (a contest, an attack): each field that moved."""
    t = names.t
    for key, value in _fields(old, new):
        prev = old.get(key)
        if prev == value:
            continue
        field = _of(t, label, key_word(t, key))
        if _scalar(value) and _scalar(prev):
            out.append(f"{field}: {names.name(prev)} → {names.name(value)}")
        elif isinstance(value, list):
            _list_change(out, field, prev if isinstance(prev, list) else [], value, names)


def _list_change(out: list[str], label: str, old: list[Any], new: list[Any], names: Names) -> None:
    keyed_new, keyed_old = _keyed(new), _keyed(old)
    if keyed_new is not None and keyed_old is not None and (keyed_new or keyed_old):
        _cards_change(out, label, keyed_old, keyed_new, names, items=True)  # objects that name themselves
        return
    added, removed = list(new), []
    for item in old:
        if item in added:
            added.remove(item)
        else:
            removed.append(item)
    if added:
        out.append(f"{label} + {', '.join(names.item(v) for v in added)}")
    if removed:
        out.append(f"{label} − {', '.join(names.item(v) for v in removed)}")


def _pool_change(out: list[str], old: Mapping[str, Any], new: Mapping[str, Any], names: Names) -> None:
    t = names.t
    for die, face in new.items():
        if die not in old:
            out.append(t.gettext("{die} into the pool showing {face}", die=names.name(die), face=face))
        elif old[die] != face:
            out.append(t.gettext("{die} turned {old} → {new}", die=names.name(die), old=old[die], new=face))
    for die, face in old.items():
        if die not in new:
            out.append(t.gettext("{die} ({face}) leaves the pool", die=names.name(die), face=face))


#: a card's counter that went up (True) or down: its words, singular and plural
_COUNTER_MOVES = {
    ("damage", True): NN_("{card} takes {n} damage ({old} → {new})", "{card} takes {n} damage ({old} → {new})"),
    ("damage", False): NN_("{card} loses {n} damage ({old} → {new})", "{card} loses {n} damage ({old} → {new})"),
    ("shields", True): NN_("{card} gains {n} shield ({old} → {new})", "{card} gains {n} shields ({old} → {new})"),
    ("shields", False): NN_("{card} loses {n} shield ({old} → {new})", "{card} loses {n} shields ({old} → {new})"),
}


def _cards_change(out: list[str], zone: str, old: Mapping[str, Any], new: Mapping[str, Any], names: Names,
                  items: bool = False) -> None:
    """Cards in play (``{ref: {field: value}}``): entered, left, and each field that moved.
    ``zone``: the state key of the zone (``items``: not cards in play but objects of a list, and
    ``zone`` the list's words), added and removed."""
    t = names.t
    for ref, card in new.items():
        name = names.name(ref)
        if ref not in old:
            on = card.get("on") if isinstance(card, dict) else None
            out.append(f"{zone} + {name}" if items else
                       t.gettext("{card} enters play on {on}", card=name, on=names.name(on)) if on else
                       t.gettext("{card} enters play", card=name))
            continue
        was = old[ref]
        if not isinstance(card, dict) or not isinstance(was, dict):
            continue
        _card_fields(out, name, was, card, names)
    for ref in old:
        if ref not in new:
            out.append(f"{zone} − {names.name(ref)}" if items else
                       t.gettext("{card} leaves play ({zone})", card=names.name(ref), zone=key_word(t, zone))
                       if zone != "upgrades" else t.gettext("{card} leaves play", card=names.name(ref)))


def _card_fields(out: list[str], name: str, was: Mapping[str, Any], card: Mapping[str, Any], names: Names,
                 quiet: Iterable[str] = ()) -> None:
    """Each field of one card (``name``) that moved from ``was`` to ``card``; ``quiet``: fields told elsewhere."""
    t = names.t
    for key, value in _fields(was, card):
        prev = was.get(key)
        if prev == value or key in quiet:
            continue
        if key in _FLAGS and isinstance(value, bool):
            out.append(t.gettext(_FLAGS[key][0 if value else 1], who=name))
        elif (key, True) in _COUNTER_MOVES and isinstance(value, int) and isinstance(prev, int):
            one, many = _COUNTER_MOVES[key, value > prev]
            out.append(t.ngettext(one, many, abs(value - prev), card=name, old=prev, new=value))
        elif key == "on":
            out.append(t.gettext("{card} moves from {old} to {new}", card=name, old=names.name(prev),
                                 new=names.name(value)))
        elif isinstance(value, list):
            if key == "upgrades":
                continue  # told by the upgrades zone (enters play on ..., moves, leaves play)
            _list_change(out, _of(t, name, key_word(t, key)), prev if isinstance(prev, list) else [], value, names)
        else:
            out.append(f"{_of(t, name, key_word(t, key))}: {names.name(prev)} → {names.name(value)}")


# -------------------------------------------------------------------------------- keyframes + patches
def diff(old: Any, new: Any, path: tuple[str, ...] = ()) -> list[list[Any]]:
    """Operations that turn ``old`` into ``new`` (both JSON objects): ``[path, value]`` sets the
    value at ``path`` (a list of keys), ``[path]`` deletes it. Lists and scalars are replaced whole.
    Keys are visited in sorted order, so the operations do not depend on the order of an object's
    keys (a log read back from the store has its keys sorted)."""
    ops: list[list[Any]] = []
    for key in sorted(new):
        value = new[key]
        if key not in old:
            ops.append([[*path, key], value])
        elif isinstance(value, dict) and isinstance(old[key], dict):
            ops.extend(diff(old[key], value, (*path, key)))
        elif value != old[key] or type(value) is not type(old[key]):
            ops.append([[*path, key], value])
    for key in sorted(old):
        if key not in new:
            ops.append([[*path, key]])
    return ops


def patch(state: dict[str, Any], ops: list[list[Any]]) -> dict[str, Any]:
    """Apply ``diff``'s operations to ``state`` in place (and return it)."""
    for op in ops:
        keys = op[0]
        node = state
        for key in keys[:-1]:
            node = node[key]
        if len(op) == 2:
            node[keys[-1]] = copy.deepcopy(op[1])
        else:
            del node[keys[-1]]
    return state


def state_at(data: Mapping[str, Any], at: int) -> dict[str, Any]:
    """The table after step ``at``: the keyframe at or before it, then each step's patch after it
    in order (docs/viewer.md, "Rebuilding a step")."""
    steps = data["steps"]
    start = at
    while "state" not in steps[start]:
        start -= 1
    state: dict[str, Any] = copy.deepcopy(steps[start]["state"])
    for i in range(start + 1, at + 1):
        patch(state, steps[i]["patch"])
    return state


# -------------------------------------------------------------------------------- the visitor
def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


class ViewerBuilder:
    """A visitor of ``replay``: the steps of the viewer's data (``viewer_data`` puts them together)."""

    def __init__(self, cards: Any) -> None:
        self.cards = cards
        self.log: Log | None = None
        self.raw: list[dict[str, Any]] = []  # per step: the timeline's fields, the state view, raw events
        self.result: ReplayResult | None = None

    def begin(self, log: Log, setup: StepRecord) -> None:
        self.log = log
        self._add(setup, "setup")

    def visit_step(self, record: StepRecord) -> None:
        self._add(record, None)

    def end(self, result: ReplayResult) -> None:
        self.result = result

    def _add(self, rec: StepRecord, label: str | None) -> None:
        assert self.log is not None
        st = rec.state
        view = st.view()
        position = st.position()
        for pid, player in view.get("players", {}).items():
            hand = position.get("players", {}).get(pid, {}).get("hand")
            if isinstance(hand, list):
                player["hand_cards"] = hand  # the perspective switch hides it; the view counts it
        self.raw.append({
            "at": rec.at, "by": rec.step.get("by"), "do": label or rec.step.get("do"),
            "round": st.round, "phase": st.phase, "turn": st.turn,
            "summary": self.log.rules.summarize(rec.action, rec.events, self.cards),
            "step": None if label else rec.step,
            "events": rec.events, "decisions": [d for d in rec.decisions if "answer" in d],
            "note": rec.step.get("note"), "dispute": rec.step.get("dispute"),
            "error": rec.error.to_json() if rec.error else None,
            "rejected_as_expected": rec.rejected_as_expected,
            "state": view,
        })


def _rules_of(raw: Mapping[str, Any]) -> list[str]:
    rules: list[str] = []
    for item in list(raw["events"]) + list(raw["decisions"]):
        for r in item.get("rules", []):
            if r not in rules:
                rules.append(r)
    err = raw["error"]
    if err and err.get("rule") and err["rule"] not in rules:
        rules.append(err["rule"])
    return rules


def _ruling(raw: Mapping[str, Any]) -> dict[str, Any]:
    """The ruling on a disputed step, as replays.ruling gives it (legal, violation, pending)."""
    err = raw["error"]
    if err is None:
        return {"legal": True}
    if err["kind"] == "illegal-action":
        return {"legal": False, "violation": {"rule": err["rule"], "message": err["message"]}}
    if err["kind"] == "pending-decision":
        return {"legal": True, "pending": err.get("pending"), "message": err["message"]}
    return {"legal": None, "error": err}


def viewer_data(log: Log, cards: Any = None, lang: str = "en") -> dict[str, Any]:
    """Everything the viewer page draws for ``log`` (already parsed), JSON-ready (docs/viewer.md);
    its human text (events, decisions, changes, outcome, the page's words) in ``lang`` (one of
    ``i18n.LANGS``)."""
    return viewer_data_langs(log, cards, (lang,))[lang]


def viewer_data_langs(log: Log, cards: Any = None, langs: Iterable[str] = i18n.LANGS) -> dict[str, dict[str, Any]]:
    """``viewer_data`` in each of ``langs``, the log replayed once: ``{lang: data}``."""
    game = log.rules
    if cards is None:
        cards = game.default_cards()
    builder = ViewerBuilder(cards)
    result = replay(log, cards, visitors=(builder,))
    strings: set[str] = set()
    for raw in builder.raw:
        strings.update(_strings(raw["state"]))
        strings.update(_strings(raw["events"]))
        strings.update(_strings(raw["decisions"]))
        strings.update(_strings(raw["step"]))
        if raw["by"]:
            strings.add(raw["by"])
    info = game.viewer_cards(sorted(strings), cards)
    return {lang: _worded(log, builder, result, info, lang) for lang in langs}


def _worded(log: Log, builder: ViewerBuilder, result: ReplayResult, info: Mapping[str, Any],
            lang: str) -> dict[str, Any]:
    """The viewer data of a replayed log (``builder``'s steps), worded in ``lang``."""
    names = Names(log.players, info, text(lang))
    rule_table: dict[str, str] = {}
    steps: list[dict[str, Any]] = []
    before: dict[str, Any] | None = None
    for i, raw in enumerate(builder.raw):
        rules = _rules_of(raw)
        for r in rules:
            if r not in rule_table:
                rule_table[r] = index.summary(r, lang) if index.is_known(r) else ""
        step: dict[str, Any] = {
            "at": raw["at"], "by": raw["by"], "do": raw["do"], "round": raw["round"], "phase": raw["phase"],
            "turn": raw["turn"], "do_words": do_words(raw["do"], names.t),
            "summary": (names.summary(raw["summary"]) if names.t.lang == "en" else
                        step_words(raw["step"], names) if raw["step"] is not None else names.t.gettext("the setup")),
            "events": [{"kind": e.get("event"), "text": describe_event(e, names), "rules": e.get("rules", [])}
                       for e in raw["events"]],
            "decisions": [{"text": describe_decision(d, names), "rules": d.get("rules", [])}
                          for d in raw["decisions"]],
            "rules": rules,
            "changes": changes(before, raw["state"], names),
        }
        for key in ("note", "dispute"):
            if raw[key] is not None:
                step[key] = raw[key]
        if raw["dispute"] is not None:
            step["ruling"] = _ruling(raw)
        if raw["error"]:
            step["error"] = {**raw["error"], "text": names.text(names.t.words(raw["error"].get("message", "")))}
            if raw["rejected_as_expected"]:
                step["rejected_as_expected"] = True
        if i % KEYFRAME_EVERY == 0:
            step["state"] = raw["state"]
        else:
            step["patch"] = diff(before or {}, raw["state"])
        steps.append(step)
        before = raw["state"]
    outcome = result.outcome()
    players = [{"id": p["id"], "name": p.get("name") or p["id"]} for p in log.players]
    return {
        "format": FORMAT,
        "game": log.game,
        "lang": lang,
        "ui": ui_words(lang),
        "words": table_words(names.t),
        "title": str(log.meta.get("title") or ""),
        "meta": log.meta,
        "players": players,
        "valid": result.valid,
        "outcome": {**outcome, "text": outcome_words(outcome, names)} if outcome else None,
        "error": result.error.to_json() if result.error else None,
        "keyframe_every": KEYFRAME_EVERY,
        "cards": info.get("cards", {}),
        "refs": info.get("refs", {}),
        "symbols": info.get("symbols", {}),
        "rules": rule_table,
        "steps": steps,
        "annotations": [],
    }


#: the words of an outcome's ``reason`` (the games' reason codes, docs/replay-format.md); another
#: code is shown as written, hyphens as spaces
REASON_WORDS = {
    "all-defeated": N_("all opposing characters defeated"), "deck-out": N_("a deck ran out"),
    "deck-out-both": N_("both decks ran out"), "eliminated": N_("every other player eliminated"),
    "confrontation": N_("confrontation won"), "arenas": N_("arenas won"),
}


def table_words(t: Text) -> dict[str, dict[str, str]]:
    """The words the page draws a table with, in ``t``'s language: ``keys``, the state view's keys
    (``KEY_WORDS``); ``values``, the values the games write (``VALUE_WORDS``; other languages only)."""
    return {"keys": {key: t.gettext(word) for key, word in sorted(KEY_WORDS.items())},
            "values": {} if t.lang == "en" else {v: t.pgettext("value", v) for v in sorted(VALUE_WORDS)}}


def outcome_words(outcome: Mapping[str, Any], names: Names) -> str:
    """Who won and how: "Ana wins (all opposing characters defeated)", in ``names``' language."""
    reason = outcome.get("reason")
    why = REASON_WORDS.get(reason) if isinstance(reason, str) else None
    return names.t.gettext("{winner} wins ({reason})", winner=names.name(outcome.get("winner")),
                           reason=names.t.gettext(why) if why else str(reason).replace("-", " "))


def check_annotations(value: Any, steps: int) -> list[dict[str, Any]]:
    """Creator annotations (``[{at, note, highlight?}]``) checked: ``at`` a step of the replay
    (0..steps), ``note`` a string of at most MAX_NOTE characters, ``highlight`` a boolean or a short
    string (a colour name). Raises ValueError naming the JSON Pointer of the first fault."""
    if not isinstance(value, list):
        raise ValueError("/: annotations are a JSON list of {at, note, highlight?}")
    if len(value) > MAX_ANNOTATIONS:
        raise ValueError(f"/: at most {MAX_ANNOTATIONS} annotations, got {len(value)}")
    out: list[dict[str, Any]] = []
    for i, item in enumerate(value):
        where = f"/{i}"
        if not isinstance(item, dict):
            raise ValueError(f"{where}: an annotation is an object {{at, note, highlight?}}")
        unknown = sorted(set(item) - {"at", "note", "highlight"})
        if unknown:
            raise ValueError(f"{where}/{unknown[0]}: unknown key (an annotation has at, note, highlight)")
        at = item.get("at")
        if type(at) is not int or not 0 <= at <= steps:
            raise ValueError(f"{where}/at: a step number from 0 to {steps}, got {at!r}")
        note = item.get("note")
        if not isinstance(note, str) or len(note) > MAX_NOTE:
            raise ValueError(f"{where}/note: a string of at most {MAX_NOTE} characters")
        entry: dict[str, Any] = {"at": at, "note": note}
        if "highlight" in item:
            hl = item["highlight"]
            if not isinstance(hl, bool) and not (isinstance(hl, str) and re.fullmatch(r"[a-z]{1,20}", hl)):
                raise ValueError(f"{where}/highlight: true, false or a colour name (a-z, at most 20 letters)")
            entry["highlight"] = hl
        out.append(entry)
    return sorted(out, key=lambda a: a["at"])


# -------------------------------------------------------------------------------- the page
# The page's assets are package data (replays/viewer_assets/), read like the rule index reads its
# data (judge/rules/index.py): fixed at install, never chosen by a caller, never user input.
#: each game's own table renderer (``viewer_<game>.js``: registers ``window.ArbiterRenderers[game]``);
#: a game without one is drawn from its state view generically
RENDERERS: tuple[str, ...] = ("viewer_swtcg.js", "viewer_relic.js")
ASSETS = ("viewer.html", "viewer.css", "viewer.js", *RENDERERS)
_SLOT = re.compile(r"@@(LANG|TITLE|STYLE|DATA_SRC|SWITCH|WORDS|DATA|SCRIPT)@@")


def asset(name: str) -> str:
    """The text of one of the page's assets (``ASSETS``)."""
    if name not in ASSETS:
        raise ValueError(f"no viewer asset {name!r}")
    return (resources.files("replays") / "viewer_assets" / name).read_text(encoding="utf-8")


def script_json(value: Any) -> str:
    """``value`` as JSON that is safe inside a ``<script>`` element: ``<``, ``>`` and ``&`` (so no
    ``</script>`` or ``<!--``) and the JavaScript line separators are written as escapes, which
    JSON reads back as the same characters."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    for char, escape in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"), ("\u2028", "\\u2028"),
                         ("\u2029", "\\u2029")):
        text = text.replace(char, escape)
    return text


def page(data: Mapping[str, Any] | None = None, data_src: str | None = None, asset_url: str | None = None,
         title: str | None = None, lang: str | None = None, switch: Mapping[str, str] | None = None) -> str:
    """The viewer page. With ``data``: one standalone file (assets and data inlined; works from
    file:// with no network). With ``data_src`` instead: the page fetches the viewer data from that
    URL; with ``asset_url`` (a folder URL ending in ``/``) it links viewer.css and viewer.js from
    there instead of inlining them. ``title``: the page's title (default: the data's title).
    ``lang``: the page's language (default: the data's ``lang``, else English): ``<html lang>`` and
    the words the page shows until its data (which carries its own, ``ui``) is read. ``switch``:
    the language switch, ``{lang: URL of this page in it}`` (served pages)."""
    if (data is None) == (data_src is None):
        raise ValueError("give the viewer data or the URL to fetch it from, not both")
    css = asset("viewer.css")
    scripts = [*RENDERERS, "viewer.js"]  # the renderers register themselves before the viewer starts
    texts = {name: asset(name) for name in scripts}
    for name, body, end in (("viewer.css", css, "</style"), *((n, t, "</script") for n, t in texts.items())):
        if end in body.lower() or "<!--" in body:
            raise ValueError(f"{name} must not contain {end!r} or '<!--' (it is inlined in the page)")
    lang = i18n.normalize(lang) or (i18n.normalize(data.get("lang")) if data is not None else None) or i18n.DEFAULT
    words = ui_words(lang)
    if title is None:
        title = str(data.get("title") or "") if data is not None else ""
        title = title or words["replay"]
    if asset_url is not None:
        style = f'<link rel="stylesheet" href="{html.escape(asset_url)}viewer.css">'
        script = "\n".join(f'<script src="{html.escape(asset_url)}{name}"></script>' for name in scripts)
    else:
        style = f"<style>\n{css}</style>"
        script = "\n".join(f"<script>\n{texts[name]}</script>" for name in scripts)
    slots = {
        "LANG": lang,
        "TITLE": html.escape(words["page_title"].format(title=title)),
        "SWITCH": " \u00b7 ".join(
            f'<a href="{html.escape(url)}" hreflang="{code}" lang="{code}"'
            + (' aria-current="true"' if code == lang else "") + f'>{html.escape(i18n.NAMES.get(code, code))}</a>'
            for code, url in (switch or {}).items()),
        "WORDS": f'<script type="application/json" id="arbiter-viewer-words">{script_json(words)}</script>',
        "STYLE": style,
        "DATA_SRC": html.escape(data_src or ""),
        "DATA": (f'<script type="application/json" id="arbiter-viewer-data">{script_json(data)}</script>'
                 if data is not None else ""),
        "SCRIPT": script,
    }
    return _SLOT.sub(lambda m: slots[m.group(1)], asset("viewer.html"))


def viewer_json(log: Any, cards: Any = None, annotations: Any = None, start: int | None = None,
                lang: str = "en") -> dict[str, Any]:
    """The viewer data of a log given as decoded JSON (raises ``MalformedLog``, as the facade
    replays.service does), with creator annotations (checked: ``check_annotations``, ValueError)
    and the step the page opens at (``start``: 0..steps, ValueError beyond)."""
    data = viewer_data(parse_log(log, cards), cards, lang)
    last = len(data["steps"]) - 1
    if annotations is not None:
        data["annotations"] = check_annotations(annotations, last)
    if start is not None:
        if type(start) is not int or not 0 <= start <= last:
            raise ValueError(f"start: a step number from 0 to {last}, got {start!r}")
        data["start"] = start
    return data


def viewer_json_langs(log: Any, cards: Any = None, langs: Iterable[str] = i18n.LANGS) -> dict[str, dict[str, Any]]:
    """The viewer data of a log given as decoded JSON in each of ``langs`` (``{lang: data}``),
    replayed once (the timeline job stores one record per language)."""
    return viewer_data_langs(parse_log(log, cards), cards, langs)
