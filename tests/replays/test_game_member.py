"""The log reader's look-up of a game's optional members (replays.format.game_member): a static
method as its function, which a compiled game's class gives as its ``staticmethod`` object."""

from __future__ import annotations

from judge.games import registry
from replays.format import game_member


class _Game:
    pass


def test_a_static_method_is_given_as_its_function() -> None:
    game = _Game()
    game.__dict__["quick_step"] = staticmethod(len)  # (what getattr gives of a compiled class's member)
    assert game_member(game, "quick_step") is len
    assert game_member(game, "plain_setup") is None


def test_every_game_s_members_are_callable_functions() -> None:
    for game_id in registry.written():
        game = registry.get(game_id)
        for name in ("parse_step", "quick_step", "plain_setup", "plain_answers"):
            member = game_member(game, name)
            assert member is None or (callable(member) and not isinstance(member, staticmethod)), (game_id, name)
        assert game_member(game, "parse_step") is not None
