"""``arbiter cards``: import a user's SWDestinyDB data, show a card, check a decklist."""

from __future__ import annotations

import json
from pathlib import Path

import click

from arbiter.card_files import read_card_data
from judge.games.destiny import importer
from judge.games.destiny.deckcheck import FORMATS, check_deck
from judge.games.destiny.decklists import parse_json, parse_text
from judge.games.destiny.model import CardDef

DEFAULT_OUT = Path("var/cards/imported.json")


@click.group("cards")
def cards_command() -> None:
    """Card data: import SWDestinyDB JSON, show cards, check decks."""


@cards_command.command("import")
@click.argument("directory", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option(
    "--out", type=click.Path(dir_okay=False, path_type=Path), default=DEFAULT_OUT, show_default=True
)
def import_command(directory: Path, out: Path) -> None:
    """Import DIRECTORY (sets.json + set/*.json) into the project's card JSON."""
    try:
        files = read_card_data(directory, importer.FILES)
    except OSError as exc:
        raise click.ClickException(f"cannot read {directory}: {exc}") from None
    result = importer.import_files(files)
    for problem in result.errors:
        click.echo(f"error: {problem}", err=True)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(importer.dump(result.cards, result.sets), indent=1) + "\n", encoding="utf-8")
    implemented = sum(1 for c in result.cards if c.implemented)
    click.echo(
        f"{len(result.cards)} cards from {len(result.sets)} sets written to {out} "
        f"({implemented} fully applied by the engine, {len(result.errors)} errors)"
    )


def _load(cards: Path) -> tuple[importer.CardPool, list[importer.SetInfo]]:
    if not cards.exists():
        raise click.ClickException(f"no card file at {cards}; run `arbiter cards import DIR` first")
    try:
        return importer.load(json.loads(cards.read_text(encoding="utf-8")))
    except (ValueError, KeyError) as exc:
        raise click.ClickException(f"{cards}: {exc}") from None


def format_card(card: CardDef) -> str:
    title = f"{card.name} - {card.subtitle}" if card.subtitle else card.name
    lines = [f"{card.code}  {'* ' if card.unique else ''}{title}"]
    lines.append(
        f"  {card.affiliation} {card.color} {card.type.value}"
        + (f" ({', '.join(card.subtypes)})" if card.subtypes else "")
    )
    if card.points:
        lines.append(f"  points: {'/'.join(str(p) for p in card.points)}   health: {card.health}")
    if card.cost is not None:
        lines.append(f"  cost: {card.cost}")
    if card.faces:
        lines.append(f"  die: {' '.join(f.notation() for f in card.faces)}")
    if card.keywords:
        lines.append(f"  keywords: {', '.join(sorted(card.keywords))}")
    if not card.implemented:
        lines.append("  not applied by the engine: " + card.unimplemented.replace("\n", "\n    "))
    return "\n".join(lines)


@cards_command.command("show")
@click.argument("code")
@click.option(
    "--cards", type=click.Path(dir_okay=False, path_type=Path), default=DEFAULT_OUT, show_default=True
)
def show_command(code: str, cards: Path) -> None:
    """Print card CODE from the imported card file."""
    pool, _ = _load(cards)
    card = pool.get(code)
    if card is None:
        raise click.ClickException(f"no card {code} in {cards}")
    click.echo(format_card(card))


@cards_command.command("check")
@click.argument("decklist", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="standard", show_default=True)
@click.option(
    "--cards", type=click.Path(dir_okay=False, path_type=Path), default=DEFAULT_OUT, show_default=True
)
def check_command(decklist: Path, fmt: str, cards: Path) -> None:
    """Read DECKLIST (SWDestinyDB JSON or text export), print the player entry and any violations."""
    pool, sets = _load(cards)
    text = decklist.read_text(encoding="utf-8")
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        data = None
    result = parse_json(data, pool) if isinstance(data, dict) else parse_text(text, pool, sets)
    for problem in result.errors:
        click.echo(f"decklist: {problem}", err=True)
    click.echo(json.dumps(result.entry, indent=1))
    violations = check_deck(result.entry, pool, fmt)
    for v in violations:
        click.echo(f"{v.rule}: {v.message}")
    if violations or result.errors:
        raise SystemExit(1)
    click.echo(f"legal for {fmt}")
