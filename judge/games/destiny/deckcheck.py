"""Deck legality for a replay-log player entry (destiny.deckbuilding.*).

``check_deck(entry, pool, fmt)`` returns every violation at once, each naming its rule ID, in a
fixed order (cards, team, battlefield and plot, deck). Checking never raises for bad decks: a
card the pool does not know is a violation of its own (destiny.cards.identifier).

Formats: ``standard`` (30-card deck), ``starter`` (the same checks with the 20-card starter deck,
destiny.setup.starter-sets), ``sandbox`` (no checks).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from judge.games.destiny.model import CardDef, CardPool, CardType

TEAM_POINTS = 30
DECK_SIZES = {"standard": 30, "starter": 20}
FORMATS = (*DECK_SIZES, "sandbox")
COPY_LIMIT = 2
DECK_TYPES = (CardType.EVENT, CardType.UPGRADE, CardType.SUPPORT)
OPPOSITE = {"hero": "villain", "villain": "hero"}


@dataclass(frozen=True)
class Violation:
    rule: str
    message: str
    card: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"rule": self.rule, "message": self.message}
        if self.card is not None:
            out["card"] = self.card
        return out


def _label(card: CardDef) -> str:
    return f"{card.name} - {card.subtitle} ({card.code})" if card.subtitle else f"{card.name} ({card.code})"


def character_points(card: CardDef, dice: int) -> int | None:
    """Points for fielding ``card`` with ``dice`` dice (destiny.characters.point-value)."""
    if 1 <= dice <= len(card.points):
        return card.points[dice - 1]
    return None


# the most deck checks kept per card pool; past it they are made again
MAX_KEPT_CHECKS = 1024


def check_deck(entry: Mapping[str, Any], pool: CardPool, fmt: str = "standard") -> list[Violation]:
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")
    if fmt == "sandbox":
        return []
    # a deck is checked once per pool: the answer depends only on these four entries (JSON values,
    # whose repr tells them apart) and the format; a batch of one event's logs meets the same decks
    key = (fmt, repr([entry.get("characters"), entry.get("battlefield"), entry.get("plot"), entry.get("deck")]))
    kept = pool.deck_checks
    got = kept.get(key)
    if got is None:
        got = _check_deck(entry, pool, fmt)
        if len(kept) >= MAX_KEPT_CHECKS:
            kept.clear()
        kept[key] = got
    return list(got)


def _check_deck(entry: Mapping[str, Any], pool: CardPool, fmt: str) -> tuple[Violation, ...]:
    out: list[Violation] = []

    def known(code: Any, where: str) -> CardDef | None:
        card = pool.get(code) if isinstance(code, str) else None
        if card is None:
            out.append(Violation("destiny.cards.identifier", f"unknown card {code!r} in {where}", str(code)))
        return card

    # characters
    team: list[tuple[CardDef, int]] = []
    for i, raw in enumerate(entry.get("characters") or []):
        code = raw.get("card") if isinstance(raw, Mapping) else raw
        dice = raw.get("dice", 1) if isinstance(raw, Mapping) else 1
        card = known(code, f"characters[{i}]")
        if card is None:
            continue
        if card.type is not CardType.CHARACTER:
            out.append(
                Violation(
                    "destiny.cards.types",
                    f"{_label(card)} is a {card.type.value}, not a character",
                    card.code,
                )
            )
            continue
        if not isinstance(dice, int) or isinstance(dice, bool):
            dice = 0
        team.append((card, dice))
    battlefield = known(entry["battlefield"], "battlefield") if entry.get("battlefield") else None
    plot = known(entry["plot"], "plot") if entry.get("plot") else None
    deck: list[CardDef] = []
    for i, code in enumerate(entry.get("deck") or []):
        card = known(code, f"deck[{i}]")
        if card is not None:
            deck.append(card)

    # team
    if not team and not any(v.rule == "destiny.cards.identifier" for v in out):
        out.append(Violation("destiny.deckbuilding.min-one-character", "the team has no characters"))
    elif not team:
        out.append(Violation("destiny.deckbuilding.min-one-character", "the team has no known characters"))
    total = 0
    for card, dice in team:
        if not card.unique and dice != 1:
            out.append(
                Violation(
                    "destiny.characters.non-unique-one-die",
                    f"{_label(card)} is not unique and must have exactly 1 die, not {dice}",
                    card.code,
                )
            )
            total += card.points[0] if card.points else 0
            continue
        points = character_points(card, dice)
        if points is None:
            out.append(
                Violation(
                    "destiny.characters.point-value",
                    f"{_label(card)} has no point value for {dice} dice (points {card.points})",
                    card.code,
                )
            )
            points = card.points[-1] if card.points else 0
        total += points
    seen_unique: dict[str, CardDef] = {}
    for card, _ in team:
        if not card.unique:
            continue
        first = seen_unique.get(card.name)
        if first is None:
            seen_unique[card.name] = card
        elif first.code == card.code:
            out.append(
                Violation(
                    "destiny.deckbuilding.unique-characters",
                    f"unique character {card.name} is on the team more than once",
                    card.code,
                )
            )
        else:
            out.append(
                Violation(
                    "destiny.uniqueness.subtitle-irrelevant",
                    f"{_label(first)} and {_label(card)} are the same unique character",
                    card.code,
                )
            )
    if plot is not None and plot.type is CardType.PLOT and plot.points:
        total += plot.points[0]
    if total > TEAM_POINTS:
        with_plot = " (with the plot)" if plot is not None else ""
        out.append(
            Violation(
                "destiny.deckbuilding.team-points",
                f"the team costs {total} points{with_plot}, more than {TEAM_POINTS}",
            )
        )
    sides = {card.affiliation for card, _ in team} - {"neutral"}
    if len(sides) > 1:
        out.append(
            Violation("destiny.deckbuilding.hero-or-villain", "the team mixes hero and villain characters")
        )
    side = sides.pop() if len(sides) == 1 else None
    colors = {card.color for card, _ in team}
    team_cards = [card for card, _ in team]

    # battlefield and plot
    if battlefield is None and not entry.get("battlefield"):
        out.append(Violation("destiny.deckbuilding.battlefield", "no battlefield chosen"))
    elif battlefield is not None and battlefield.type is not CardType.BATTLEFIELD:
        out.append(
            Violation(
                "destiny.deckbuilding.battlefield",
                f"{_label(battlefield)} is a {battlefield.type.value}, not a battlefield",
                battlefield.code,
            )
        )
    if plot is not None:
        if plot.type is not CardType.PLOT:
            out.append(Violation("destiny.deckbuilding.plot", f"{_label(plot)} is not a plot", plot.code))
        elif side is not None and plot.affiliation == OPPOSITE[side]:
            out.append(
                Violation(
                    "destiny.deckbuilding.plot",
                    f"{_label(plot)} is a {plot.affiliation} plot on a {side} team",
                    plot.code,
                )
            )
        elif plot.color != "gray" and plot.color not in colors:
            out.append(
                Violation(
                    "destiny.deckbuilding.plot",
                    f"{_label(plot)} is {plot.color} but no character is {plot.color}",
                    plot.code,
                )
            )

    # deck
    size = DECK_SIZES[fmt]
    if len(entry.get("deck") or []) != size:
        rule = "destiny.deckbuilding.deck-size" if fmt == "standard" else "destiny.setup.starter-sets"
        out.append(Violation(rule, f"the deck has {len(entry.get('deck') or [])} cards, not {size}"))
    for card in _distinct(deck):
        if card.type is CardType.BATTLEFIELD:
            out.append(
                Violation(
                    "destiny.deckbuilding.battlefield",
                    f"{_label(card)}: only one battlefield is allowed and it is not part of the deck",
                    card.code,
                )
            )
        elif card.type is CardType.PLOT:
            out.append(
                Violation(
                    "destiny.deckbuilding.plot",
                    f"{_label(card)}: at most one plot, and never in the deck",
                    card.code,
                )
            )
        elif card.type not in DECK_TYPES:
            out.append(
                Violation(
                    "destiny.deckbuilding.deck-card-types",
                    f"{_label(card)} is a {card.type.value}; decks hold only events, upgrades and supports",
                    card.code,
                )
            )
    by_title = Counter(card.name for card in deck)
    for title, count in by_title.items():
        if count > COPY_LIMIT:
            out.append(
                Violation(
                    "destiny.deckbuilding.copy-limit",
                    f"{count} copies of {title} (at most {COPY_LIMIT} by title)",
                )
            )
    allowers = _allowers(team_cards)
    allowed = {card.code for card in _distinct(deck) if allowers and _allowed(allowers, card)}
    deck_sides = {card.affiliation for card in deck if card.code not in allowed} - {"neutral"}
    for card in _distinct(deck):
        if card.code in allowed:
            continue  # a character's text lets the team include it (destiny.general.golden-rule)
        if side is not None and card.affiliation == OPPOSITE[side]:
            out.append(
                Violation(
                    "destiny.deckbuilding.affiliation-match",
                    f"{_label(card)} is a {card.affiliation} card in a {side} deck",
                    card.code,
                )
            )
    if side is None and len(deck_sides) > 1:
        out.append(
            Violation("destiny.deckbuilding.affiliation-match", "the deck mixes hero and villain cards")
        )
    for card in _distinct(deck):
        if card.color != "gray" and card.color not in colors and card.code not in allowed:
            out.append(
                Violation(
                    "destiny.deckbuilding.color-match",
                    f"{_label(card)} is {card.color} but no character on the team is",
                    card.code,
                )
            )
    return tuple(out)


def _allowers(team: list[CardDef]) -> list[tuple[CardDef, Any]]:
    """The team's deck-building texts: constant abilities answering ``deck_allows``."""
    return [(member, ab.modify) for member in team for ab in member.abilities
            if ab.timing == "constant" and ab.query == "deck_allows" and ab.modify is not None]


def _allowed(allowers: list[tuple[CardDef, Any]], card: CardDef) -> bool:
    """Whether a team card's deck-building text lets the deck include ``card`` despite its
    affiliation or color."""
    return any(modify(None, member.code, card, False) for member, modify in allowers)


def _distinct(cards: list[CardDef]) -> list[CardDef]:
    seen: dict[str, CardDef] = {}
    for card in cards:
        seen.setdefault(card.code, card)
    return list(seen.values())
