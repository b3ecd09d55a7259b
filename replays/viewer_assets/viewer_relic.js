/* Arbiter replay viewer: a Relic encounter (docs/viewer.md, "One page, a renderer per game").
 * Draws the Relic state view (docs/replay-format.md, "Relic logs"): each character with its
 * characteristics, life and Influence, assets with their charges, trophies; the skill test or battle
 * under way (the enemies or the test, the declared bonuses, every die with each roll it took, its
 * explosions and rerolls, the scores); the scenario and its special rules.
 */
(function () {
  "use strict";
  var TRAITS = ["strength", "willpower", "cunning"];

  function render(kit, state, step) {
    var esc = kit.esc, name = kit.name, w = kit.w;
    var order = kit.players.map(function (p) { return p.id; }).filter(function (pid) { return state.players && state.players[pid]; });
    Object.keys(state.players || {}).forEach(function (pid) { if (order.indexOf(pid) < 0) order.push(pid); });

    function stat(field, label, value) {
      return '<span class="v-stat" data-field="' + esc(field) + '">' + esc(label) + " <b>" + esc(value) + "</b></span>";
    }
    function effectText(e) {
      if (!e) return "";
      var parts = [e.timing, e.window, e.kind].filter(Boolean).map(kit.value).join(" ");
      if (e.value !== undefined) parts += " " + e.value;
      return parts;
    }
    function assetTile(a) {
      var t = [];
      if (a.type) t.push(kit.tag("", a.type));
      if (a.charge_value) t.push(kit.tag("v-sh", w("charges") + " " + w("n_of", { n: a.charges, max: a.charge_value })));
      else if (a.charges) t.push(kit.tag("v-sh", w("charges") + " " + a.charges));
      (a.bonuses || []).forEach(function (b) {
        t.push(kit.tag("", (b.kind ? kit.value(b.kind) : w("bonus")) + " " + (b.color ? kit.value(b.color) : "") +
          (b.value !== undefined ? " +" + b.value : "")));
      });
      return '<div class="v-card c-gray" data-ref="' + esc(a.ref || a.code) + '" data-charges="' + esc(a.charges || 0) + '">' +
        '<div class="v-cname">' + esc(a.name || name(a.code)) + "</div>" + kit.tags(t) +
        (a.effect ? '<div class="v-ctext">' + esc(effectText(a.effect)) + "</div>" : "") + "</div>";
    }
    function die(d) {
      var rolls = (d.rolls || []).map(function (r, i) {
        return '<span class="v-roll' + (i < d.rolls.length - 1 ? " v-old" : "") + (r === 6 ? " v-six" : "") + '">' + esc(r) + "</span>";
      }).join("");
      var mod = d.result !== undefined && d.base !== undefined && d.result !== d.base ? " \u2192 " + esc(d.result) : "";
      return '<span class="v-rdie ' + (d.side === "enemy" ? "v-enemy" : "v-mine") + (d.exploded ? " v-exploded" : "") +
        '" data-die="' + esc(d.id) + '" data-result="' + esc(d.result) + '" data-exploded="' + (d.exploded ? "true" : "false") +
        '" title="' + esc(w(d.side === "enemy" ? "enemy_die" : "player_die", { id: d.id }) +
        (d.parent ? ", " + w("from_explosion", { die: d.parent }) : "") +
        (d.rolls && d.rolls.length > 1 ? ", " + w("rerolled") : "")) + '">' + '<span class="v-did">' + esc(d.id) + "</span>" +
        rolls + mod + (d.exploded ? '<span class="v-boom">' + esc(w("explodes")) + "</span>" : "") + "</span>";
    }
    function contest(c) {
      if (!c) return "";
      var what = c.kind === "battle" ? w("battle") : w("skill_test");
      var against = (c.enemies || []).map(function (e) {
        return kit.chip(e.name + " (" + (e.color ? kit.value(e.color) : "") + " " + e.value + ")");
      }).join("");
      var declared = (c.declared || []).map(function (b) {
        return kit.chip(typeof b === "string" ? name(b) : (b.name || name(b.card || b.ref || "")) +
          (b.value !== undefined ? " +" + b.value : ""));
      }).join("");
      var dice = (c.dice || []).map(die).join("");
      return '<section class="v-player v-shared v-contest" data-contest="' + esc(c.kind) + '" data-stage="' + esc(c.stage) + '">' +
        '<div class="v-phead"><span class="v-pname">' + esc(what) + "</span>" +
        (c.characteristic ? stat("characteristic", w("with"), TRAITS.indexOf(c.characteristic) >= 0 ? w(c.characteristic) : c.characteristic) : "") +
        (c.color ? stat("color", w("colour"), kit.value(c.color)) : "") + (c.value !== undefined ? stat("value", w("value"), c.value) : "") +
        stat("stage", w("stage"), kit.value(c.stage)) + "</div>" +
        (against ? kit.zone(w("against"), against, ' data-zone="enemies"') : "") +
        kit.zone(w("declared_bonuses"), declared, ' data-zone="declared"') +
        kit.zone(w("dice"), dice && '<div class="v-row">' + dice + "</div>", ' data-zone="dice"') +
        '<div class="v-scores">' + stat("player_score", w("score"), c.player_score) +
        stat("against", w("against"), c.against) + (c.extra ? stat("extra", w("extra_dice"), c.extra) : "") + "</div></section>";
    }

    var scen = state.scenario;
    var top = '<div class="v-battlefield" data-round="' + esc(state.round) + '" data-phase="' + esc(state.phase) + '">' +
      "<span>" + esc(w("round")) + " <b>" + esc(state.round) + "</b></span>" + kit.phaseSpan(state.phase) +
      (state.turn ? "<span>" + esc(w("active_player")) + " <b>" + esc(name(state.turn)) + "</b></span>" : "") +
      (scen ? "<span data-scenario>" + esc(w("scenario")) + " <b>" + esc(scen.name || "") + "</b></span>" : "") +
      kit.winsSpan(state) + "</div>";
    var special = scen && (scen.special || []).length ? '<div class="v-may">' + esc(w("special_rules")) + " " +
      scen.special.map(function (e) { return kit.chip(effectText(e)); }).join("") + "</div>" : "";
    var last = state.last ? '<div class="v-may" data-last>' + esc(w("last_contest")) + " " + kit.chip(kit.value(state.last.kind || "") + " " +
      kit.value(state.last.outcome || "") + " " + (state.last.score !== undefined ? w("score_vs", { score: state.last.score, against: state.last.against }) : "")) + "</div>" : "";

    var panels = order.map(function (pid) {
      var p = state.players[pid];
      var ch = p.character || {};
      var visible = kit.handVisible(pid) && Array.isArray(p.hand_cards);
      // (a Relic card in hand is an object, {ref, code, charges}, as the position holds it)
      var hand = visible ? p.hand_cards.map(function (c) {
        return kit.chip(name(typeof c === "string" ? c : (c.ref || c.code)));
      }).join("") :
        new Array((typeof p.hand === "number" ? p.hand : 0) + 1).join(kit.chip("?", "v-back"));
      var traits = TRAITS.map(function (t) {
        var base = ch[t], now = p[t];
        return stat(t, w(t), now + (base !== undefined && base !== now ? " (" + w("printed", { n: base }) + ")" : ""));
      }).join("");
      return '<section class="v-player' + (state.turn === pid ? " v-active" : "") + '" data-player="' + esc(pid) +
        '" data-life="' + esc(p.life) + '" data-influence="' + esc(p.influence) + '">' +
        '<div class="v-phead"><span class="v-pname">' + esc(name(pid)) + "</span>" +
        (ch.name ? '<span class="v-csub">' + esc(ch.name) + "</span>" : "") +
        (state.turn === pid ? '<span class="v-badge">' + esc(w("active")) + "</span>" : "") +
        (state.winner === pid ? '<span class="v-badge">' + esc(w("winner")) + "</span>" : "") + "</div>" +
        '<div class="v-ctags">' + traits + stat("life", w("life"), ch.life !== undefined ? w("n_of", { n: p.life, max: ch.life }) : p.life) +
        stat("influence", w("influence"), p.influence) + "</div>" +
        kit.zone(w("assets"), (p.assets || []).length && '<div class="v-row">' + p.assets.map(assetTile).join("") + "</div>", ' data-zone="assets"') +
        kit.zone(w(visible ? "hand" : "hand_hidden"), hand, ' data-zone="hand" data-visible="' + (visible ? "true" : "false") + '"') +
        ((p.trophies || []).length ? kit.zone(w("trophies"), p.trophies.map(function (c) { return kit.chip(name(c)); }).join(""), ' data-zone="trophies"') : "") +
        ((p.spent || []).length ? kit.zone(w("spent"), p.spent.map(function (c) { return kit.chip(name(c)); }).join(""), ' data-zone="spent"') : "") +
        kit.zone(w("discard_pile"), (p.discard || []).map(function (c) { return kit.chip(name(c)); }).join(""), ' data-zone="discard"') +
        "</section>";
    });
    return top + special + last + contest(state.contest) + panels.join("");
  }

  window.ArbiterRenderers = window.ArbiterRenderers || {};
  window.ArbiterRenderers.relic = render;
})();
