"""The ``arbiter`` command line.

Commands live in their own modules and are imported only when used (``arbiter replay`` does not
pay for Flask). To add one, write a module with a ``click.Command`` and add a line to
:data:`COMMANDS` -- the one place where commands are registered.

A setting that cannot be used (:class:`arbiter.settings.SettingError`: ``ARBITER_JOB_TIMEOUT=abc``,
a data directory that is a file, a ``REDIS_URL`` that does not answer) ends any command with
click's one-line ``Error: ...`` and exit code 1, never a traceback (:meth:`LazyGroup.invoke`).
"""

from __future__ import annotations

import importlib
from typing import Any

import click

from arbiter.lang import lang_option
from arbiter.settings import SettingError

#: command name -> "module:attribute" of its click.Command
COMMANDS: dict[str, str] = {
    "replay": "arbiter.commands.logs:replay",
    "rule": "arbiter.commands.logs:rule",
    "timeline": "arbiter.commands.logs:timeline",
    "serve": "arbiter.commands.serve:serve",
    "worker": "arbiter.commands.worker:worker",
    "run": "arbiter.commands.run:run",
    "rules": "arbiter.cmd_rules:rules_command",
    "cards": "arbiter.cmd_cards:cards_command",
    "selfplay": "arbiter.cmd_selfplay:selfplay",
    "export-html": "arbiter.commands.export:export_html",
    "position": "arbiter.commands.position:position",
}


class LazyGroup(click.Group):
    """A group whose commands are imported from :data:`COMMANDS` on first use, and whose commands'
    :class:`~arbiter.settings.SettingError` is click's one-line error."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(COMMANDS))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.commands or cmd_name not in COMMANDS:
            return super().get_command(ctx, cmd_name)
        module_name, attr = COMMANDS[cmd_name].split(":")
        command = getattr(importlib.import_module(module_name), attr)
        if not isinstance(command, click.Command):
            raise TypeError(f"{COMMANDS[cmd_name]} is not a click command")
        return command

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except SettingError as exc:
            raise click.ClickException(str(exc)) from exc


@click.group(cls=LazyGroup)
@click.version_option(package_name="arbiter")
@lang_option
def main() -> None:
    """Arbiter: replay, judge and run tournaments of Star Wars Destiny, the Star Wars TCG and Relic."""


if __name__ == "__main__":
    main()
