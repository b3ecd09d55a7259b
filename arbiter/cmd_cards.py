"""``arbiter cards``: import a user's card data, show a card, check a decklist -- for any game of the
registry that has card-data tools (``judge.games.carddata``). This module reads and writes the
files; the game parses and checks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from arbiter import render
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
    if not result.cards:  # (nothing read: the card file there, if any, is left as it was)
        raise click.ClickException(f"no card read ({len(result.problems)} errors): nothing written to {out}")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(result.data, indent=1) + "\n", encoding="utf-8")
    except OSError as exc:
        raise click.ClickException(f"cannot write {out}: {exc}") from None
    click.echo(
        f"{result.cards} cards from {result.sets} sets written to {out} "
        f"({result.applied} fully applied by the engine, {len(result.problems)} errors)"
    )


def _load(tools: Any, cards: Path) -> Any:
    if not cards.exists():
        raise click.ClickException(f"no card file at {cards}; run `arbiter cards import DIR` first")
    text = _read_text(cards)
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise click.ClickException(f"{cards}: not JSON ({exc})") from None
    not_written = f"{cards}: not a card file `arbiter cards import` wrote"
    if not isinstance(data, dict):
        raise click.ClickException(f"{not_written} (a JSON {_json_kind(data)}, not an object)")
    try:
        return tools.load_cards(data)
    except KeyError as exc:
        raise click.ClickException(f"{not_written} (a card or set without {exc})") from None
    except ValueError as exc:
        raise click.ClickException(f"{not_written} ({exc})") from None
    except (TypeError, AttributeError):  # (a number where a card, or the list of cards, should be)
        raise click.ClickException(f"{not_written} (its cards or sets are not the JSON objects and lists "
                                   "it writes)") from None


def _json_kind(value: Any) -> str:
    """What JSON calls ``value``'s type: object, array, string, number, true/false or null."""
    for kind, types in (("array", list), ("string", str), ("true/false", bool), ("number", (int, float))):
        if isinstance(value, types):
            return kind
    return "object" if isinstance(value, dict) else "null"


def _read_text(path: Path) -> str:
    """The text of the file at ``path`` (UTF-8), or a click error saying why not."""
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise click.ClickException(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise click.ClickException(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None


lookup_cards_option = click.option(
    "--cards", type=click.Path(dir_okay=False, path_type=Path), default=None,
    help="A card file `arbiter cards import` wrote; default: the game's own cards.",
)


def lookup_tools(game_id: str) -> Any:
    """The game, with its card lookup members (``carddata.LOOKUP_MEMBERS``)."""
    game = registry.get(game_id)
    if not all(hasattr(game, member) for member in carddata.LOOKUP_MEMBERS):
        raise click.ClickException(f"{game.name} cannot look its cards up")
    return game


def _lookup_cards(game: Any, cards: Path | None) -> Any:
    return game.default_cards() if cards is None else _load(card_tools(game.id), cards)


def resolve_card(game: Any, pool: Any, text: str) -> str:
    """The code ``text`` names (a code or an unambiguous name), or a click error saying why not."""
    match: carddata.CardMatch = game.card_code(pool, text)
    if match.code is not None:
        return match.code
    titles = "; ".join(f"{c} {game.card_info(pool, c)['title']}" for c in match.candidates[:10])
    raise click.ClickException(match.why(text) + (f": {titles}" if titles else ""))


@cards_command.command("show")
@click.argument("card", metavar="ID|NAME")
@lookup_cards_option
@game_option
@click.option("--json", "as_json", is_flag=True, help="Print the card as JSON.")
def show_command(card: str, cards: Path | None, game_id: str, as_json: bool) -> None:
    """Print one card, by its code (05031) or its name (Luke Skywalker, Han Solo - Savvy Smuggler):
    name, type, cost, health, die faces, text and whether the engine applies all of it."""
    game = lookup_tools(game_id)
    pool = _lookup_cards(game, cards)
    info = game.card_info(pool, resolve_card(game, pool, card))
    if as_json:
        click.echo(json.dumps(info, indent=1, ensure_ascii=False))
    else:
        click.echo("\n".join(render.card_lines(info)))


@cards_command.command("search")
@click.argument("text", default="")
@lookup_cards_option
@game_option
@click.option("--json", "as_json", is_flag=True, help="Print the cards as a JSON list.")
def search_command(text: str, cards: Path | None, game_id: str, as_json: bool) -> None:
    """List the cards whose name, code or text hold every word of TEXT (all cards without TEXT)."""
    game = lookup_tools(game_id)
    pool = _lookup_cards(game, cards)
    found = [game.card_info(pool, code) for code in game.find_cards(pool, text)]
    if as_json:
        click.echo(json.dumps(found, indent=1, ensure_ascii=False))
        return
    if not found:
        click.echo(f"no card matches {text!r}")
        raise SystemExit(1)
    for info in found:
        click.echo(render.card_line(info))


@cards_command.command("check")
@click.argument("decklist", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--format", "fmt", default=None,
              help="One of the game's deck formats (Destiny: standard, starter, sandbox; SW TCG: standard, "
                   "sandbox); default: the game's usual one (Destiny and SW TCG: standard).")
@cards_option
@game_option
def check_command(decklist: Path, fmt: str | None, cards: Path, game_id: str) -> None:
    """Read DECKLIST (for Destiny: SWDestinyDB JSON or text export; for SW TCG: lines '<count> <code>'),
    print the player entry and any violations."""
    tools = card_tools(game_id)
    formats = registry.get(game_id).deck_formats
    if fmt is not None and fmt not in formats:
        raise click.BadParameter(f"{fmt!r} is not one of {', '.join(formats)}", param_hint="'--format'")
    library = _load(tools, cards)
    result: carddata.DeckCheck = tools.check_decklist(_read_text(decklist), library, fmt)
    for problem in result.problems:
        click.echo(f"decklist: {problem}", err=True)
    click.echo(json.dumps(result.entry, indent=1))
    for v in result.violations:
        click.echo(f"{v['rule']}: {v['message']}")
    if not result.legal:
        raise SystemExit(1)
    click.echo(f"legal for {result.deck_format}")
