"""The project's cards whose text goes past the keywords: Jabba the Hutt (C), Yoda (C), Droid Control
Ship, Vader's TIE Fighter (A), Rebel Surrender, Stormtrooper Elite Squad (swtcg.project.*, the digest's
examples that name them)."""

from __future__ import annotations

import pytest

from judge.games.swtcg.cards import default_pool
from judge.games.swtcg.engine import Ctx, keyword_instances
from tests.judge.swtcg.table import Table, error, play

POOL = default_pool()


def attack(attacker: str, target: str, roll: list[str], **kw: object) -> dict[str, object]:
    return {"by": attacker.split(".")[0], "do": "attack", "card": attacker, "target": target, "roll": roll, **kw}


@pytest.mark.rules("swtcg.base.hidden-cost", "swtcg.abilities.partially-built-inactive",
                   "swtcg.abilities.grant-per-source", "swtcg.keywords.intercept")
def test_jabba_completes_by_hidden_cost_then_grants_his_other_characters_intercept_for_0_force() -> None:
    jabba = POOL.cards["LS-JH"]
    assert jabba.implemented and not jabba.unparsed and [k.name for k in jabba.keywords] == ["hidden-cost"]
    t = (Table(arena=None).at(step="battle").unit("p1.DS-ST").unit("p2.LS-JK", tapped=True)
         .set("p2", force=2))
    t.pos["cards"]["p2.LS-JH"] = {"code": "LS-JH", "zone": "build", "built": False, "counters": 3}
    # partially built: only Hidden Cost works, and Jabba grants nothing yet
    st = play(t.log())[0].state
    assert [i for i, k in keyword_instances(Ctx(st, POOL), "p2.LS-SEN") if k.name == "intercept"] == []
    assert [i for i, _ in keyword_instances(Ctx(st, POOL), "p2.LS-JH")] == ["p2.LS-JH:hidden-cost"]
    log = t.log({"by": "p2", "do": "use", "ability": "p2.LS-JH:hidden-cost"},
                attack("p1.DS-ST", "p2.LS-JK", []),
                {"by": "p2", "do": "use", "ability": "p2.LS-SEN:intercept@p2.LS-JH"},
                {"by": "p2", "do": "pass", "roll": ["4", "4", "1"]})  # Jedi Knight could intercept too
    result, seen = play(log)
    assert result.error is None, result.error
    st = result.state
    assert st.cards["p2.LS-JH"].zone == "character" and st.cards["p2.LS-JH"].built
    assert seen.events(1, "use")[0]["cost"] == 2 and st.players["p2"].force == 0  # 2 missing counters
    [use] = [e for e in seen.all("use") if e["ability"] == "p2.LS-SEN:intercept@p2.LS-JH"]
    assert use["cost"] == 0  # "Pay 0 Force -> Intercept"
    assert seen.all("intercept")[0]["defender"] == "p2.LS-SEN"
    assert st.cards["p2.LS-SEN"].damage == 2 and st.cards["p2.LS-JK"].damage == 0
