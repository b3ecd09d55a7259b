"""The replay viewer page's own words (replays/viewer_assets/): buttons, labels, headings, the
tables' panels, in the viewer data's language.

``viewer_data`` puts :func:`ui_words` of its language in the data as ``"ui"``; the page takes every
word it writes from there (viewer.js ``w(key, params)``; ``{name}`` params as ``str.format``). A
counted word has one key per CLDR plural category (``steps_one``, ``steps_few``, ``steps_many``,
``steps_other``) and the page picks one with ``Intl.PluralRules(lang)``: the forms come from the
catalog's ``ngettext`` at a number of each category (1, 2, 5; "other" is never a whole count in
Polish and Russian, so it is the plural of 5).

The messages are in the ``messages`` domain (``N_`` and ``NN_`` marks: ``make catalogs`` extracts
them); a word missing from a catalog is the English.
"""

from __future__ import annotations

from i18n import DEFAULT, N_, NN_, normalize, text, translations

#: the page's words by key (params in braces)
UI: dict[str, str] = {
    # the page's frame (viewer.html)
    "replay": N_("Replay"),
    "page_title": N_("{title} \u2014 Arbiter replay"),
    "controls": N_("Replay controls"),
    "first": N_("First step (Home)"),
    "prev": N_("Previous step (Left arrow)"),
    "play_title": N_("Play / pause (Space)"),
    "play": N_("play"),
    "pause": N_("pause"),
    "next": N_("Next step (Right arrow)"),
    "last": N_("Last step (End)"),
    "speed": N_("speed"),
    "view": N_("view"),
    "step": N_("Step"),
    "the_table": N_("The table"),
    "this_step": N_("This step"),
    "all_steps": N_("All steps"),
    "footer": N_("Arbiter replay viewer \u00b7 keys: \u2190 \u2192 Home End Space"),
    "language": N_("Language"),
    # perspective
    "persp_all": N_("everything (all hands)"),
    "persp_spectator": N_("spectator (no hands)"),
    "persp_as": N_("as {player}"),
    # where we are, the header
    "where": N_("step {at} / {last} \u00b7 round {round} \u00b7 {phase}"),
    "versus": N_("{left} vs {right}"),
    "stops_at": N_("stops at step {at}: {kind}"),
    # the step's panel
    "setup": N_("Setup"),
    "step_n": N_("Step {at}"),
    "round_n": N_("round {round}"),
    "round_short": N_("R{round}"),
    "by": N_("by {player}"),
    "rejected_expected": N_("Rejected, as the log expects"),
    "illegal_step": N_("Illegal step"),
    "illegal_step_n": N_("illegal step {at}"),
    "waiting": N_("Waiting for a decision"),
    "stops_here": N_("The replay stops here ({kind})"),
    "breaks": N_("breaks"),
    "legal": N_("legal"),
    "legal_waiting": N_("legal, waiting for a decision"),
    "illegal_verdict": N_("illegal: {why}"),
    "no_ruling": N_("no ruling"),
    "ruling": N_("Ruling"),
    "what_happened": N_("What happened"),
    "decisions": N_("Decisions"),
    "what_changed": N_("What changed"),
    "rules_applied": N_("Rules applied ({n})"),
    "outcome": N_("Outcome"),
    "creators_note": N_("Creator's note"),
    "notes_title": N_("Notes: {title}"),
    "notes_missing": N_("The notes of this link could not be found (deleted, or a wrong link): the game is shown "
                        "without them."),
    "rules_page": N_("rules page"),
    "not_in_index": N_("(not in the rule index)"),
    # loading and errors
    "cannot_show": N_("This replay cannot be shown: {message}"),
    "preparing": N_("Preparing this replay ({status})\u2026 {message}"),
    "status_queued": N_("queued"),
    "status_started": N_("started"),
    "still_computing": N_("the replay's data is still being computed; reload later"),
    "no_data": N_("no replay data in the page"),
    # the table (every game)
    "round": N_("round"),
    "phase": N_("phase"),
    "turn": N_("turn"),
    "step_word": N_("step"),
    "battlefield": N_("battlefield"),
    "controlled_by": N_("controlled by"),
    "claimed_by": N_("claimed by"),
    "wins": N_("{player} wins"),
    "winner": N_("winner"),
    "to_act": N_("to act"),
    "passed": N_("passed"),
    "eliminated": N_("eliminated"),
    "none": N_("none"),
    "yes": N_("yes"),
    "no": N_("no"),
    "unknown_card": N_("unknown card"),
    "table": N_("table"),
    "die_of": N_("the die{n} of {card}"),
    "faces": N_("the die's faces"),
    "modifier": N_("modifier"),
    "costs": N_("costs {n}"),
    "blank": N_("blank"),
    "health": N_("health"),
    "damage": N_("damage"),
    "shields": N_("shields"),
    "exhausted": N_("exhausted"),
    "defeated": N_("defeated"),
    "damage_of": N_("damage {damage} of {health}"),
    "resources": N_("resources"),
    "hand": N_("hand"),
    "hand_hidden": N_("hand (hidden)"),
    "deck": N_("deck"),
    "discard": N_("discard"),
    "discard_pile": N_("discard pile"),
    "characters": N_("characters"),
    "supports": N_("supports"),
    "dice_pool": N_("dice pool"),
    # Star Wars TCG
    "power": N_("power"),
    "speed_stat": N_("Speed"),
    "counters": N_("counters"),
    "tapped": N_("tapped"),
    "piloted_by": N_("piloted by"),
    "equipped_with": N_("equipped with"),
    "owned_by": N_("{player}'s card, controlled for now"),
    "location": N_("Location"),
    "stacked": N_("stacked: {cards}"),
    "battle_in": N_("battle in"),
    "chance_to_play": N_("chance to play"),
    "may": N_("may:"),
    "dark_side": N_("Dark Side"),
    "light_side": N_("Light Side"),
    "force": N_("Force"),
    "build_points": N_("build points"),
    "build_zone": N_("build zone"),
    "arena_space": N_("Space arena"),
    "arena_ground": N_("Ground arena"),
    "arena_character": N_("Character arena"),
    "under_way": N_("under way"),
    # Relic
    "charges": N_("charges"),
    "n_of": N_("{n} of {max}"),
    "bonus": N_("bonus"),
    "explodes": N_("explodes"),
    "enemy_die": N_("enemy die {id}"),
    "player_die": N_("player's die {id}"),
    "from_explosion": N_("from the explosion of {die}"),
    "rerolled": N_("rerolled"),
    "battle": N_("Battle"),
    "skill_test": N_("Skill test"),
    "with": N_("with"),
    "colour": N_("colour"),
    "value": N_("value"),
    "stage": N_("stage"),
    "against": N_("against"),
    "declared_bonuses": N_("declared bonuses"),
    "dice": N_("dice"),
    "score": N_("score"),
    "extra_dice": N_("extra dice"),
    "active_player": N_("active player"),
    "active": N_("active"),
    "scenario": N_("scenario"),
    "special_rules": N_("special rules:"),
    "last_contest": N_("last:"),
    "score_vs": N_("{score} vs {against}"),
    "printed": N_("printed {n}"),
    "strength": N_("Strength"),
    "willpower": N_("Willpower"),
    "cunning": N_("Cunning"),
    "life": N_("life"),
    "influence": N_("Influence"),
    "assets": N_("assets"),
    "trophies": N_("trophies"),
    "spent": N_("charges spent this turn"),
    # phases and steps of the games' state views (a phase not here is shown as written)
    "phase_setup": N_("setup"),
    "phase_action": N_("action phase"),
    "phase_upkeep": N_("upkeep phase"),
    "phase_over": N_("game over"),
    "phase_ready": N_("ready phase"),
    "phase_command": N_("command phase"),
    "phase_battle": N_("battle phase"),
    "phase_movement": N_("movement phase"),
    "phase_exploration": N_("exploration phase"),
    "phase_encounter": N_("encounter phase"),
    "phase_experience": N_("experience phase"),
    "phase_build": N_("build step"),
    "phase_retreat": N_("retreat step"),
}

#: counted words: one key per plural category (``<key>_one`` ...), forms by ``ngettext``
PLURALS: dict[str, tuple[str, str]] = {
    "steps": NN_("{n} step", "{n} steps"),
    "dice_n": NN_("{n} die", "{n} dice"),
    "passes_in_row": NN_("{n} pass in a row", "{n} passes in a row"),
}

#: a whole number of each CLDR plural category (Polish and Russian: one 1, few 2, many 5)
CATEGORIES = {"one": 1, "few": 2, "many": 5, "other": 5}
#: the gettext form (msgstr[i]) of each category in Polish and Russian
FORM_INDEX = {"one": 0, "few": 1, "many": 2, "other": 2}


def ui_words(lang: str) -> dict[str, str]:
    """The page's words in ``lang`` (one of ``i18n.LANGS``; anything else: English)."""
    lang = normalize(lang) or DEFAULT
    t = text(lang)
    out = {key: t.gettext(msgid) for key, msgid in UI.items()}
    for key, (one, many) in PLURALS.items():
        for category, n in CATEGORIES.items():
            out[f"{key}_{category}"] = translations(lang).ngettext(one, many, n)  # {n} left for the page
    return out
