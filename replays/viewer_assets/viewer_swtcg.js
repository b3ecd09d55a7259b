/* Arbiter replay viewer: the Star Wars TCG table (docs/viewer.md, "One page, a renderer per game").
 * Draws the SW TCG state view (docs/replay-format.md, "SW TCG logs"): the three arenas with each
 * side's units (damage, counters, tapped, the pilot and the Equipment on each), the Location in
 * each arena, the build zones with their build counters, Force, build points, hand and deck counts, the discard pile, who has the chance to play
 * and what they may do, the attack and the dice under way.
 */
(function () {
  "use strict";
  var ARENAS = ["space", "ground", "character"];

  function render(kit, state, step) {
    var esc = kit.esc, name = kit.name, w = kit.w;
    var refs = kit.data.refs || {};
    var order = kit.players.map(function (p) { return p.id; }).filter(function (pid) { return state.players && state.players[pid]; });
    Object.keys(state.players || {}).forEach(function (pid) { if (order.indexOf(pid) < 0) order.push(pid); });

    function ownerOf(ref, entry) {
      if (entry && entry.controller) return entry.controller;
      var r = refs[ref];
      if (r && r.player) return r.player;
      return String(ref).split(".")[0];
    }
    function words(text) {  // "play LS-RS" -> "play Rogue Squadron" (the verb in the page's language)
      return String(text).split(" ").map(function (w) { return name(w); }).join(" ");
    }
    function stat(field, label, value) {
      return '<span class="v-stat" data-field="' + esc(field) + '">' + esc(label) + " <b>" + esc(value) + "</b></span>";
    }
    function unitTile(ref, u, pilotOf) {
      var card = kit.cardOf(ref);
      var t = [];
      if (card.power !== undefined) t.push(kit.tag("", w("power") + " " + card.power));
      if (card.health !== undefined) t.push(kit.tag("", w("health") + " " + card.health));
      if (card.speed !== undefined) t.push(kit.tag("", w("speed_stat") + " " + card.speed));
      t.push(kit.tag("v-dmg", w("damage") + " " + (u.damage || 0)));
      if (u.counters) t.push(kit.tag("v-sh", w("counters") + " " + u.counters));
      if (u.tapped) t.push(kit.tag("v-ex", w("tapped")));
      var bar = card.health ? '<div class="v-health" title="' + esc(w("damage_of", { damage: u.damage || 0, health: card.health })) +
        '"><div style="width:' + Math.min(100, Math.round(100 * (u.damage || 0) / card.health)) + '%"></div></div>' : "";
      var pilot = u.pilot || pilotOf[ref];
      var pilotLine = pilot ? '<div class="v-pilot" data-pilot="' + esc(pilot) + '">' + esc(w("piloted_by")) + " <b>" + esc(name(pilot)) + "</b></div>" : "";
      pilotLine += (equipOf[ref] || []).map(function (e) {
        return '<div class="v-pilot" data-equipment="' + esc(e) + '">' + esc(w("equipped_with")) + " <b>" + esc(name(e)) + "</b></div>";
      }).join("");
      // a unit another player controls now (Luke Skywalker N's "gain control"): whose card it is
      var owner = u.controller ? ((refs[ref] && refs[ref].player) || String(ref).split(".")[0]) : null;
      if (owner) pilotLine += '<div class="v-pilot" data-owner="' + esc(owner) + '">' + esc(w("owned_by", { player: name(owner) })) + "</div>";
      var under = (u.under || []).length ? '<div class="v-csub">' + esc(w("stacked", { cards: u.under.map(function (c) { return name(c); }).join(", ") })) + "</div>" : "";
      var text = card.text ? '<div class="v-ctext">' + esc(card.text) + "</div>" : "";
      var side = card.side === "dark" ? "red" : card.side === "light" ? "blue" : "gray";
      return '<div class="v-card c-' + side + (u.tapped ? " v-exhausted" : "") + '" data-ref="' + esc(ref) +
        '" data-damage="' + esc(u.damage || 0) + '" data-tapped="' + (u.tapped ? "true" : "false") +
        '" data-counters="' + esc(u.counters || 0) + '">' +
        '<div class="v-cname">' + esc(name(ref)) + "</div>" +
        (card.subtitle ? '<div class="v-csub">' + esc(card.subtitle) + "</div>" : "") +
        kit.tags(t) + bar + pilotLine + under + text + "</div>";
    }

    var pilotOf = {};
    Object.keys(state.pilots || {}).forEach(function (p) { pilotOf[state.pilots[p]] = p; });
    var equipOf = {};  // a unit's Equipment (state.equipment: Equipment -> unit)
    Object.keys(state.equipment || {}).forEach(function (e) {
      var on = state.equipment[e];
      (equipOf[on] = equipOf[on] || []).push(e);
    });

    var chance = state.chance;
    var top = '<div class="v-battlefield" data-round="' + esc(state.round) + '" data-phase="' + esc(state.phase) + '">' +
      "<span>" + esc(w("turn")) + " <b>" + esc(state.round) + "</b></span>" + kit.phaseSpan(state.phase) +
      (state.step && state.step !== state.phase ? kit.phaseSpan(state.step, "step_word") : "") +
      (state.arena ? "<span>" + esc(w("battle_in")) + " <b>" + esc(w("arena_" + state.arena)) + "</b></span>" : "") +
      (state.turn ? '<span data-chance="' + esc(state.turn) + '">' + esc(w(state.wait === "chance" ? "chance_to_play" : "to_act")) + ": " +
        "<b>" + esc(name(state.turn)) + "</b>" + (chance && chance.passes ? " (" + esc(kit.plural("passes_in_row", chance.passes)) + ")" : "") + "</span>" : "") +
      kit.winsSpan(state) + "</div>";
    var may = (state.may || []).length ? '<div class="v-may" data-may>' + esc(w("may")) + " " + state.may.map(function (m) {
      return kit.chip(words(m));
    }).join("") + "</div>" : "";

    var heads = order.map(function (pid) {
      var p = state.players[pid];
      var visible = kit.handVisible(pid) && Array.isArray(p.hand_cards);
      var hand = visible ? p.hand_cards.map(function (c) { return kit.chip(name(c)); }).join("") :
        new Array((p.hand || 0) + 1).join(kit.chip("?", "v-back"));
      var builds = state.build_zone && state.build_zone[pid] ? state.build_zone[pid] : {};
      var buildTiles = Object.keys(builds).map(function (ref) { return unitTile(ref, builds[ref], pilotOf); }).join("");
      return '<section class="v-player' + (state.turn === pid ? " v-active" : "") + '" data-player="' + esc(pid) +
        '" data-force="' + esc(p.force) + '" data-build="' + esc(p.build) + '" data-hand="' + esc(p.hand) +
        '" data-deck="' + esc(p.deck) + '">' +
        '<div class="v-phead"><span class="v-pname">' + esc(name(pid)) + "</span>" +
        '<span class="v-badge ' + (p.side === "dark" ? "v-dark" : "v-light") + '">' +
        esc(p.side === "dark" ? w("dark_side") : p.side === "light" ? w("light_side") : (p.side || "")) + "</span>" +
        (state.turn === pid ? '<span class="v-badge">' + esc(w(state.wait === "chance" ? "chance_to_play" : "to_act")) + "</span>" : "") +
        (state.winner === pid ? '<span class="v-badge">' + esc(w("winner")) + "</span>" : "") +
        stat("force", w("force"), p.force) + stat("build", w("build_points"), p.build) + stat("hand", w("hand"), p.hand) +
        stat("deck", w("deck"), p.deck) + stat("discard", w("discard"), (p.discard || []).length) + "</div>" +
        kit.zone(w("build_zone"), buildTiles && '<div class="v-row">' + buildTiles + "</div>", ' data-zone="build"') +
        kit.zone(w(visible ? "hand" : "hand_hidden"), hand, ' data-zone="hand" data-visible="' + (visible ? "true" : "false") + '"') +
        kit.zone(w("discard_pile"), (p.discard || []).map(function (c) { return kit.chip(name(c)); }).join(""), ' data-zone="discard"') +
        "</section>";
    });

    var arenas = '<div class="v-arenas">' + ARENAS.map(function (arena) {
      var units = (state.arenas || {})[arena] || {};
      var rows = order.map(function (pid) {
        var mine = Object.keys(units).filter(function (ref) { return ownerOf(ref, units[ref]) === pid; });
        return '<div class="v-side" data-side="' + esc(pid) + '"><div class="v-zlabel">' + esc(name(pid)) + "</div>" +
          (mine.length ? '<div class="v-row">' + mine.map(function (ref) { return unitTile(ref, units[ref], pilotOf); }).join("") + "</div>" :
            '<span class="v-empty">' + esc(w("none")) + "</span>") + "</div>";
      }).join("");
      var here = (state.locations || {})[arena] || {};
      var location = Object.keys(here).map(function (ref) {  // at most one Location in an arena
        return '<span class="v-badge" data-location="' + esc(ref) + '" title="' + esc(kit.cardOf(ref).text || "") + '">' +
          esc(w("location")) + ": " + esc(name(ref)) + " (" + esc(name(ownerOf(ref, here[ref]))) + ")</span>";
      }).join("");
      return '<section class="v-arena' + (state.arena === arena ? " v-active" : "") + '" data-arena="' + esc(arena) + '">' +
        '<div class="v-phead"><span class="v-pname">' + esc(w("arena_" + arena)) + "</span>" + location + "</div>" + rows + "</section>";
    }).join("") + "</div>";

    var moment = {};
    ["attack", "roll", "damage", "held", "later", "mods"].forEach(function (k) {
      var v = state[k];
      if (v !== null && v !== undefined && !(Array.isArray(v) && !v.length)) moment[k] = v;
    });
    var now = Object.keys(moment).length ? '<section class="v-player v-shared" data-moment><div class="v-phead">' +
      '<span class="v-pname">' + esc(w("under_way")) + "</span></div>" + kit.genericFields(moment, 1) + "</section>" : "";
    return top + may + now + arenas + heads.join("");
  }

  window.ArbiterRenderers = window.ArbiterRenderers || {};
  window.ArbiterRenderers.swtcg = render;
})();
