"""Every game with a quick position has its page: the form (Destiny's fields, or the compact text
alone), its example ruled through POST /position, and the chooser linking every such game."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

from api.pages import quick_games
from judge.games import registry


def test_every_written_game_has_a_quick_position() -> None:
    assert sorted(quick_games()) == sorted(registry.written())


@pytest.mark.parametrize("game", ["destiny", "swtcg", "relic"])
def test_the_page_of_each_game_shows_its_example_and_links_the_others(client: FlaskClient, game: str) -> None:
    page = client.get(f"/position?game={game}")
    assert page.status_code == 200, page.get_data(as_text=True)[:500]
    html = page.get_data(as_text=True)
    example = registry.get(game).quick_example()
    first = next(line for line in example.splitlines() if line.strip() and not line.startswith("#"))
    assert first in html
    for other in quick_games():
        if other != game:
            assert re.search(rf'href="[^"]*position\?game={other}"', html), other


@pytest.mark.parametrize("game", ["destiny", "swtcg", "relic"])
def test_the_example_of_each_game_is_ruled(client: FlaskClient, game: str) -> None:
    reply = client.post("/position", json={"game": game, "text": registry.get(game).quick_example()})
    assert reply.status_code == 200, reply.get_json()
    body = reply.get_json()
    assert body["log"]["game"] == game and body["ruling"]["legal"] is True  # (each example is a legal step)
    assert body["words"]
