"""``arbiter rules``: print the rule index, one rule (``arbiter rules show ID``, or ``arbiter rules
ID``), or the test coverage table."""

from __future__ import annotations

import json
from pathlib import Path

import click

from arbiter import lang as cli_lang
from arbiter.coverage import scan_tests
from judge.rules import coverage, index


def _format_rule(rule: index.Rule, lang: str) -> str:
    t = cli_lang.text()
    rows = [
        (t.gettext("game"), rule.game),
        (t.gettext("section"), rule.section or "-"),
        (t.gettext("summary"), rule.summary_in(lang)),
        (t.gettext("source"), rule.source or "-"),
    ]
    rows += [(t.gettext("heading"), f"{h.seed} \u201c{h.heading}\u201d") for h in rule.headings]
    rows.append((t.gettext("status"), t.gettext("applied") if rule.applicable else t.gettext("not applicable")))
    if rule.reason:
        rows.append((t.gettext("reason"), rule.reason))
    width = max(len(label) for label, _ in rows) + 1
    return "\n".join([rule.id, *(f"  {(label + ':').ljust(width)} {value}" for label, value in rows)])


@click.command("rules")
@click.argument("words", nargs=-1, metavar="[show] [RULE_ID]")
@click.option("--game", type=click.Choice([*index.GAMES, "tournament"]), help="Only this game's rules.")
@click.option("--coverage", "show_coverage", is_flag=True, help="Show which tests cover each rule.")
@click.option(
    "--tests",
    "tests_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("tests"),
    show_default=True,
    help="Test directory to scan for @pytest.mark.rules markers.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the rule(s) as JSON.")
@cli_lang.lang_option
def rules_command(words: tuple[str, ...], game: str | None, show_coverage: bool, tests_dir: Path,
                  as_json: bool) -> None:
    """Print the rule index, one rule (`arbiter rules show RULE_ID`, or `arbiter rules RULE_ID`),
    or (--coverage) the test coverage of the rules."""
    if words[:1] == ("show",):
        words = words[1:]
        if not words:
            raise click.UsageError(cli_lang.text().gettext("`arbiter rules show` needs a RULE_ID"))
    if len(words) > 1:
        raise click.UsageError(cli_lang.text().gettext("one RULE_ID at a time, got {n}", n=len(words)))
    rule_id = words[0] if words else None
    if rule_id is not None:
        if not index.is_known(rule_id):
            raise click.ClickException(cli_lang.text().gettext("unknown rule ID {rule}", rule=repr(rule_id)))
        rule = index.get(rule_id)
        lang = cli_lang.current()
        click.echo(json.dumps(rule.to_json(lang), indent=1, ensure_ascii=False) if as_json
                   else _format_rule(rule, lang))
        return
    if as_json and not show_coverage:
        lang = cli_lang.current()
        click.echo(json.dumps([r.to_json(lang) for r in index.rules(game)], indent=1, ensure_ascii=False))
        return
    if show_coverage:
        if not tests_dir.is_dir():
            raise click.ClickException(cli_lang.text().gettext("no test directory at {path}", path=tests_dir))
        scan = scan_tests(tests_dir)
        for err in scan.errors:
            click.echo(f"warning: {err.path}: {err.message}", err=True)
        click.echo(coverage.format_report(coverage.build_report(scan.citations, game)))
        return
    lang = cli_lang.current()
    na = "  [" + cli_lang.text().gettext("not applicable") + "]"
    for rule in index.rules(game):
        click.echo(f"{rule.id}  {rule.summary_in(lang)}{'' if rule.applicable else na}")
