"""``arbiter cards``: import a user's card data, show a card, check a decklist -- for any game of the
registry that has card-data tools (``judge.games.carddata``). This module reads and writes the
files; the game parses and checks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from arbiter.card_files import read_card_data
from judge.games import carddata, registry

DEFAULT_GAME = "destiny"
DEFAULT_OUT = Path("var/cards/imported.json")

game_option = click.option(
    "--game", "game_id", type=click.Choice(registry.written()), default=DEFAULT_GAME, show_default=True,
    help="The game whose cards these are.",
)
cards_option = click.option(
    "--cards", type=click.Path(dir_okay=False, path_type=Path), default=DEFAULT_OUT, show_default=True,
    help="The card file `arbiter cards import` wrote.",
)


def card_tools(game_id: str) -> Any:
    """The game's card-data members (``carddata.MEMBERS``), on its ``Game`` object."""
    game = registry.get(game_id)
    if not all(hasattr(game, member) for member in carddata.MEMBERS):
        raise click.ClickException(f"{game.name} has no card-data tools")
    return game


@click.group("cards")
def cards_command() -> None:
    """Card data: import a user's card data (SWDestinyDB JSON for Destiny), show cards, check decks."""


@cards_command.command("import")
@click.argument("directory", type=click.Path(exists=True, path_type=Path))
@click.option(
    "--out", type=click.Path(dir_okay=False, path_type=Path), default=DEFAULT_OUT, show_default=True
)
@game_option
def import_command(directory: Path, out: Path, game_id: str) -> None:
    """Import DIRECTORY (for Destiny: sets.json + set/*.json) or one FILE (for SW TCG: the community
    catalog's JSON) into the project's card JSON."""
    tools = card_tools(game_id)
    try:
        if directory.is_file():
            files = {directory.name: directory.read_bytes()}
        else:
            files = read_card_data(directory, tools.card_data_files)
    except OSError as exc:
        raise click.ClickException(f"cannot read {directory}: {exc}") from None
    result: carddata.CardImport = tools.import_cards(files)
    for problem in result.problems:
        click.echo(f"error: {problem}", err=True)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result.data, indent=1) + "\n", encoding="utf-8")
    click.echo(
        f"{result.cards} cards from {result.sets} sets written to {out} "
        f"({result.applied} fully applied by the engine, {len(result.problems)} errors)"
    )


def _load(tools: Any, cards: Path) -> Any:
    if not cards.exists():
        raise click.ClickException(f"no card file at {cards}; run `arbiter cards import DIR` first")
    try:
        return tools.load_cards(json.loads(cards.read_text(encoding="utf-8")))
    except (ValueError, KeyError) as exc:
        raise click.ClickException(f"{cards}: {exc}") from None


@cards_command.command("show")
@click.argument("code")
@cards_option
@game_option
def show_command(code: str, cards: Path, game_id: str) -> None:
    """Print card CODE from the imported card file."""
    tools = card_tools(game_id)
    text = tools.describe_card(_load(tools, cards), code)
    if text is None:
        raise click.ClickException(f"no card {code} in {cards}")
    click.echo(text)


@cards_command.command("check")
@click.argument("decklist", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--format", "fmt", default=None,
              help="One of the game's deck formats (Destiny: standard, starter, sandbox); default: the "
                   "game's usual one (Destiny: standard).")
@cards_option
@game_option
def check_command(decklist: Path, fmt: str | None, cards: Path, game_id: str) -> None:
    """Read DECKLIST (for Destiny: SWDestinyDB JSON or text export), print the player entry and any
    violations."""
    tools = card_tools(game_id)
    formats = registry.get(game_id).deck_formats
    if fmt is not None and fmt not in formats:
        raise click.BadParameter(f"{fmt!r} is not one of {', '.join(formats)}", param_hint="'--format'")
    library = _load(tools, cards)
    result: carddata.DeckCheck = tools.check_decklist(decklist.read_text(encoding="utf-8"), library, fmt)
    for problem in result.problems:
        click.echo(f"decklist: {problem}", err=True)
    click.echo(json.dumps(result.entry, indent=1))
    for v in result.violations:
        click.echo(f"{v['rule']}: {v['message']}")
    if not result.legal:
        raise SystemExit(1)
    click.echo(f"legal for {result.deck_format}")
