"""Stable IDs for every tournament rule Arbiter applies, with a one-line summary.

Code cites these IDs in comments, in :class:`Violation` values and in API error
bodies, so a ruling can always be traced to the rule that produced it.
"""

from __future__ import annotations

RULES: dict[str, str] = {
    # configuration
    "tournament.config.name": "A tournament has a non-empty name of at most 200 characters.",
    "tournament.config.profile": "The tie-breaker profile is 'destiny' or 'mtg'.",
    "tournament.config.rounds": "Swiss rounds are between 1 and 30; 0 means the recommended number.",
    "tournament.config.cut": "A top cut has 0 (none), 2, 4, 8, 16 or 32 players.",
    "tournament.config.best-of": "Matches are best-of-one or best-of-three.",
    "tournament.rounds.recommended": "Recommended Swiss rounds = ceil(log2(players)), at least 3.",
    "tournament.event.created-once": "A tournament is created once, before any other action.",
    # Project rules for running an event (Arbiter's own; why: an organizer posts and prints them).
    "tournament.config.game":
        "The game played is a label of 1 to 40 lower-case letters, digits or hyphens (shown in lists).",
    "tournament.event.visibility":
        "A public event is read by anyone (API and pages); a private one only with the organizer token.",
    "tournament.event.archived": "An archived event is read-only: every change is refused.",
    # players
    "tournament.player.unknown": "A player referred to must be registered in this tournament.",
    "tournament.player.id-unique": "Each player id is used by one player of a tournament only.",
    "tournament.player.name": "A player has a non-empty name of at most 200 characters.",
    "tournament.player.dropped": "A dropped player is never paired again and stays in the standings.",
    "tournament.player.late-entry": "A late entry may take a loss for each Swiss round already paired.",
    "tournament.player.after-swiss": "Players cannot enter or drop once the top cut has started.",
    # why: pairings are posted and called by name, so two names must never read alike
    "tournament.player.name-unique":
        "Player names are unique within an event, compared without case and extra spaces.",
    "tournament.player.rename":
        "A player may be renamed at any time; the id, record and pairings are unchanged.",
    # why: the opponent's match stands, as at a real table; pairings already posted stay true
    "tournament.player.drop-mid-round":
        "A drop during a round keeps that round's match and its result; the player is not paired from "
        "the next round on.",
    # why: a re-entry must not gain on the players who played the rounds it missed
    "tournament.player.undrop":
        "A dropped player may re-enter before the cut, paired from the next round; Swiss rounds missed "
        "while out count as losses.",
    # why: pairings already posted stay valid; a missed round is no free win
    "tournament.player.late-entry-round-in-progress":
        "An entry during a round sits it out (a missed round, never a bye) unless the round is re-paired "
        "before any result.",
    # rounds
    "tournament.round.results-missing":
        "The next round is paired only when every result of the current one is in.",
    "tournament.round.not-current":
        "Pairings are changed only for the current round; results only for rounds already paired.",
    "tournament.round.repair-after-results":
        "A round is re-paired or overridden only before any result is in.",
    "tournament.round.min-players": "Pairing a Swiss round needs at least two active players.",
    "tournament.swiss.rounds-complete": "No Swiss round is paired after the planned number of rounds.",
    # swiss pairing
    "tournament.swiss.objective":
        "Pairings maximise one documented lexicographic objective (docs/tournaments.md).",
    "tournament.swiss.all-paired": "Every active player is paired exactly once per round (or gets the bye).",
    "tournament.swiss.no-rematch":
        "Nobody meets the same opponent twice while a pairing without rematches exists.",
    "tournament.swiss.pair-down":
        "Players meet their own score group; pair-downs are as few and as small as possible.",
    "tournament.swiss.random-within-group": "Within a score group, pairing order is a seeded random draw.",
    "tournament.swiss.restricted-graph":
        "Only pairs that can occur in an optimal pairing are given to the matcher.",
    "tournament.swiss.tables": "Table 1 goes to the pair with the best records, and so on down.",
    "tournament.bye.lowest-unbyed": "The bye goes to the lowest-ranked player who has not had one.",
    "tournament.bye.once": "Nobody receives a second bye while that is avoidable.",
    "tournament.bye.counts-as-win":
        "A bye counts as a match win (and, for game figures, the needed game wins).",
    # manual pairings
    "tournament.pairing.duplicate-player": "A manual pairing names each player at most once.",
    "tournament.pairing.incomplete":
        "A manual pairing pairs every active player exactly once (one bye at most).",
    "tournament.pairing.self": "A player cannot be paired against themself.",
    # results
    "tournament.result.games": (
        "Game counts fit the best-of: wins at most those needed, games won at most best-of; drawn games "
        "don't count toward it (MTR 2.1), at most best-of."
    ),
    "tournament.result.table-unknown": "A result names a table of the round.",
    "tournament.result.conflict": "A different result for a reported match is only accepted as a correction.",
    # why: a wrong result found after the next round is paired is put right in the standings, as at a
    # real event; re-pairing the rounds since would unseat players already playing (the seeds are
    # silent; the project's own rule)
    "tournament.result.past-round":
        "An earlier Swiss round's result may be corrected until the cut starts (later pairings stand); a cut "
        "round's until its winners are paired on, the final's always.",
    "tournament.result.cut-no-draw": "A top-cut match has a winner.",
    # tie-breakers
    "tournament.tiebreak.points": "Match points: 3 per win (a bye is a win), 1 per draw, 0 per loss.",
    "tournament.tiebreak.no-bye-figures": "Byes never count in an opponent's figures.",
    "tournament.tiebreak.destiny.sos": "Destiny: strength of schedule = mean of opponents' win ratios.",
    "tournament.tiebreak.destiny.esos": "Destiny: extended strength of schedule = mean of opponents' SoS.",
    "tournament.tiebreak.destiny.draw": "Destiny: remaining ties are broken by a seeded random draw.",
    "tournament.tiebreak.mtg.omw": "MTG: opponents' match-win %, each opponent floored at 1/3.",
    "tournament.tiebreak.mtg.gw": "MTG: the player's game-win %.",
    "tournament.tiebreak.mtg.ogw": "MTG: opponents' game-win %, each opponent floored at 1/3.",
    "tournament.tiebreak.mtg.draw": "MTG: remaining ties are broken by a seeded random draw.",
    # top cut
    "tournament.cut.size": "The cut size is 2, 4, 8, 16 or 32 and no larger than the active players.",
    "tournament.cut.swiss-unfinished": "The top cut starts only after every Swiss round is complete.",
    "tournament.cut.seeding": "The cut is single elimination, seeded 1 against N by the Swiss standings.",
    "tournament.cut.started": "The top cut is started once.",
    "tournament.cut.finished": "No round is paired after the top cut has a champion.",
    # why: posted final standings rank the cut by how far each player went, not by Swiss points
    "tournament.cut.placings":
        "After a cut, places follow the cut round reached (champion 1, finalist 2, semi-finalists 3-4, "
        "...), then Swiss rank.",
}


def rule(rule_id: str) -> str:
    """Return ``rule_id`` after checking it is in the index (typos fail loudly)."""
    if rule_id not in RULES:
        raise KeyError(f"unknown tournament rule id {rule_id!r}")
    return rule_id
