"""The round and victory (destiny.round.*, destiny.victory.*, destiny.multiplayer.*): turns and
passes, the end of the action phase, the upkeep, the end of the round and its delayed effects,
and how a game ends (all characters defeated, decked out, the last player left).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from i18n import N_, Msg
from judge.games.destiny import events as ev
from judge.games.destiny import records as rec
from judge.games.destiny.state import GameState
from judge.kernel.core import IllegalAction

if TYPE_CHECKING:  # pragma: no cover
    from judge.games.destiny.engine import Ctx

UPKEEP_RESOURCES = 2


def chooser(st: GameState) -> tuple[str, str]:
    """Who orders simultaneous abilities of several players, and the rule: the battlefield's
    controller (destiny.timing.simultaneous-battlefield-controller)."""
    return st.controller or st.seats()[0], "destiny.timing.simultaneous-battlefield-controller"


class GameOver(Exception):
    """Raised inside a step when the game ends; the step stops there."""


def advance(ctx: Ctx, after: str, upkeep_next: bool) -> None:
    """Give the turn to the next player; a player who claimed this round passes automatically
    (destiny.actions.claim-battlefield); consecutive passes of all players end the action phase."""
    st = ctx.state
    players = st.players
    # the players still in the game, and the next of them after ``after`` (``next_seat``, read in
    # the same pass: tests/judge/destiny/test_round.py compares the two)
    active = 0
    first: str | None = None
    nxt: str | None = None
    seen = after_in = False  # (after_in: ``after`` is still in the game)
    for q in players:  # (keys, then each value: see next_seat; the field, not its property, on this hot path)
        if players[q]._eliminated:
            if q == after:
                seen = True
            continue
        active += 1
        if q == after:
            seen = after_in = True
        elif seen:
            if nxt is None:
                nxt = q
        elif first is None:
            first = q
    if st.passes >= active:
        end_action_phase(ctx, upkeep_next)
        return
    if not seen:
        raise ValueError(f"{after} is not seated")
    turn = st.turn = nxt if nxt is not None else first if first is not None else after
    while turn == st.claimed_by and st.phase == "action":
        if ctx.recording:
            ctx.records.append(rec.PassRecord(turn, ("destiny.actions.claim-battlefield", "destiny.round.pass"),
                                              True))  # (automatic; positional: see records.py)
        players[turn].passed = True
        st.passes += 1
        if st.passes >= active:
            end_action_phase(ctx, upkeep_next)
            return
        # two players in the game, ``after`` one of them: the seat after the other is ``after`` (next_seat,
        # not asked: tests/judge/destiny/test_round.py compares the two)
        turn = st.turn = after if active == 2 and after_in and turn != after else next_seat(st, turn)


def end_action_phase(ctx: Ctx, upkeep_next: bool) -> None:
    st = ctx.state
    if ctx.recording:
        ctx.records.append(rec.ActionPhaseEndsRecord(st.round, (
            ("destiny.round.end-on-consecutive-passes", "destiny.multiplayer.turn-order") if len(st.players) > 2
            else ("destiny.round.end-on-consecutive-passes",))))
    st.phase = "upkeep"
    st.turn = None
    if not upkeep_next:
        run_upkeep(ctx, None)


def run_upkeep(ctx: Ctx, discards: Mapping[str, Sequence[str]] | None) -> None:
    """The upkeep phase (destiny.round.upkeep), the end of the round and its victory checks."""
    st = ctx.state
    discards = discards or {}
    alive = [pid for pid in st.seats() if not st.players[pid]._eliminated]  # (the field, not its property)
    if ctx.recording:
        ctx.records.append(rec.UpkeepRecord(st.round, ("destiny.round.upkeep", "destiny.round.phases")))
    for pid in alive:
        p = st.players[pid]
        chars, sups, ups = p.characters, p.supports, p.upgrades
        for ref in chars:  # (keys, then each value: see next_seat)
            chars[ref].exhausted = False
        for ref in sups:
            sups[ref].exhausted = False
        for ref in ups:
            ups[ref].exhausted = False
    for pid in alive:
        st.players[pid].pool.clear()
    for pid in alive:
        bonus = int(ctx.query("upkeep_resources", pid, 0))
        ctx.gain("upkeep", pid, UPKEEP_RESOURCES + bonus)
    for pid in alive:
        p = st.players[pid]
        for code in discards.get(pid, []):
            if code not in p.hand:
                if "?" in p.hand:
                    code_in_hand = "?"
                else:
                    raise IllegalAction("destiny.round.upkeep", Msg(
                        N_("{pid} cannot discard {code} in upkeep: it is not in their hand"),
                        pid=pid, code=code,
                    ))
            else:
                code_in_hand = code
            p.hand.remove(code_in_hand)
            p.discard.append(code)
            ctx.records.append(rec.DiscardRecord(ev.DiscardFromHand("upkeep", pid, code),
                                         ("destiny.round.upkeep",)))
        limit = ctx.hand_limit(pid)
        need = limit - len(p.hand)
        if need > 0:
            ctx.draw("upkeep", pid, need)
        elif ctx.recording:
            ctx.records.append(rec.DrawRecord(ev.Draw("upkeep", pid, 0), 0,
                                              ("destiny.round.upkeep-draw-limits", "destiny.zones.hand-limit")))
        p.power_used.clear()
    ctx.drain()
    round_end(ctx)


def round_end(ctx: Ctx) -> None:
    st = ctx.state
    due = [d for d in st.delayed if d.when == "round-end" and d.round <= st.round]
    st.delayed = [d for d in st.delayed if d not in due]
    for d in due:
        ctx.records.append(rec.DelayedResolvesRecord(d.kind, d.target,
                                                     ("destiny.delayed.definition",)))
        if d.kind == "defeat":
            owner = ctx.owner_of(d.target)
            ch = st.players[owner].characters.get(d.target)
            if ch and not ch.defeated:
                ctx.emit(ev.Defeat(d.target, d.source, True))
    ctx.drain()
    alive = [pid for pid in st.seats() if not st.players[pid]._eliminated]  # (the field, not its property)
    out = [pid for pid in alive if not st.players[pid].hand and not st.players[pid].deck]
    if out:
        if len(st.players) == 2:
            if len(out) == 2:
                end_game(ctx, ctx.battlefield_controller(), "deck-out-both",
                          ["destiny.victory.deck-out", "destiny.victory.deck-out-both"])
            winner = next(pid for pid in alive if pid not in out)
            end_game(ctx, winner, "deck-out", ["destiny.victory.deck-out"])
        for pid in out:
            eliminate(ctx, pid, "no cards in hand or deck at the end of the round")
    st.round += 1
    st.phase = "action"
    st.claimed_by = None
    st.passes = 0
    st.extra_action = None
    st.extra_more = 0
    players = st.players
    for pid in players:
        players[pid].passed = False
    st.turn = ctx.battlefield_controller()
    if ctx.recording:
        ctx.records.append(rec.RoundBeginsRecord(st.round, st.turn,
                                                 ("destiny.battlefields.first-action", "destiny.round.action-phase")))


def check_all_defeated(ctx: Ctx) -> None:
    """All of a player's characters defeated: that player loses (destiny.victory.all-defeated),
    or is eliminated in a multiplayer game (destiny.multiplayer.elimination)."""
    st = ctx.state
    out = [pid for pid, p in st.players.items() if not p.eliminated and p.characters and not p.alive()]
    if not out:
        return
    if len(st.players) == 2:
        left = [pid for pid in st.players if pid not in out]
        if left:
            end_game(ctx, left[0], "all-defeated", ["destiny.victory.all-defeated"])
        else:
            # both teams fell at the same moment: the seeds are silent; the battlefield decides, as
            # for a double deck-out (destiny.victory.deck-out-both)
            end_game(ctx, ctx.battlefield_controller(), "all-defeated",
                      ["destiny.victory.all-defeated", "destiny.victory.deck-out-both"])
        return
    for pid in out:
        eliminate(ctx, pid, "all characters defeated")


def eliminate(ctx: Ctx, pid: str, why: str) -> None:
    st = ctx.state
    p = st.players[pid]
    p.eliminated = True
    p.pool.clear()
    ctx.records.append(rec.EliminatedRecord(pid, why, ("destiny.multiplayer.elimination",)))
    if st.controller == pid:
        left = [q for q in st.seats() if not st.players[q].eliminated]
        # the seeds are silent on who takes the battlefield; the next player in turn order does
        if left:
            st.controller = next_seat(st, pid, alive_only=True)
    alive = [q for q in st.seats() if not st.players[q].eliminated]
    if len(alive) == 1:
        end_game(ctx, alive[0], "eliminated", ["destiny.multiplayer.last-player-wins"])


def end_game(ctx: Ctx, winner: str, reason: str, rules: list[str]) -> None:
    st = ctx.state
    st.winner = winner
    st.reason = reason
    st.phase = "over"
    st.turn = None
    st.extra_action = None
    st.extra_more = 0
    ctx.records.append(rec.GameOverRecord(winner, reason, tuple(rules)))
    raise GameOver()


def next_seat(st: GameState, pid: str, alive_only: bool = True) -> str:
    """The next player clockwise (seat order) after ``pid``, skipping eliminated ones."""
    players = st.players
    first: str | None = None  # the first seat before ``pid`` that counts: the answer when none after it does
    seen = False
    # (the keys, each value read by its key: the state's tables are TrackedDicts, and the compiled
    # engine takes a dict subclass's items() or values() by a method call, its keys at once)
    for q in players:
        if q == pid:
            seen = True
        elif not alive_only or not players[q]._eliminated:
            if seen:
                return q
            if first is None:
                first = q
    if not seen:
        raise ValueError(f"{pid} is not seated")
    return first if first is not None else pid
