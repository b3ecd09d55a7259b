/* Arbiter replay viewer: draws one replay's table step by step from one JSON object
 * (docs/viewer.md): embedded in the page (<script type="application/json" id="arbiter-viewer-data">)
 * or fetched from the URL in #viewer's data-src. Plain JavaScript, no network beyond that fetch.
 *
 * URL options (query or hash): #step-N (deep link, kept up to date), start=N, embed=1, controls=0,
 * autoplay=1, speed=0.5|1|2|4, perspective=all|spectator|<player id>.
 */
(function () {
  "use strict";

  var root = document.getElementById("viewer");
  var FACE = /^(\+)?(\d+|X)?(MD|RD|ID|Sh|Sp|Dr|Dc|R|F|\*|-)(\d+)?$/;
  var SPEEDS = ["0.5", "1", "2", "4"];

  function esc(value) {
    return String(value).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }

  // ---------------------------------------------------------------- words (docs/viewer.md, "Languages")
  // The page's words: the data's "ui" (its language) over the page's own (the language the page was
  // written in, replays/viewer_words.py), over the English ones below for a key neither has.
  var EN = { play: "play", pause: "pause", none: "none", replay: "Replay", page_title: "{title} \u2014 Arbiter replay",
    cannot_show: "This replay cannot be shown: {message}", preparing: "Preparing this replay ({status})\u2026 {message}",
    still_computing: "the replay's data is still being computed; reload later", no_data: "no replay data in the page" };
  var WORDS = Object.assign({}, EN, readJson("arbiter-viewer-words") || {});
  var LANG = document.documentElement.lang || "en";
  function readJson(id) {
    var node = document.getElementById(id);
    if (!node) return null;
    try { return JSON.parse(node.textContent); } catch (e) { return null; }
  }
  function w(key, params) {
    var text = WORDS[key];
    if (text === undefined) text = key.replace(/_/g, " ");
    return String(text).replace(/\{(\w+)\}/g, function (m, k) {
      return params && params[k] !== undefined && params[k] !== null ? String(params[k]) : m;
    });
  }
  var pluralRules = null;
  function plural(key, n) {  // a counted word: <key>_one/_few/_many/_other by the language's plural rules
    var cat = "other";
    try {
      if (!pluralRules || pluralRules.lang !== LANG) pluralRules = { lang: LANG, rules: new Intl.PluralRules(LANG) };
      cat = pluralRules.rules.select(Number(n));
    } catch (e) { cat = Number(n) === 1 ? "one" : "other"; }
    var text = WORDS[key + "_" + cat] || WORDS[key + "_other"] || WORDS[key + "_many"] || ("{n} " + key);
    return text.replace(/\{n\}/g, String(n));
  }
  function phaseWord(phase) {  // "action" -> "action phase" in the page's language; unknown: as written
    var key = "phase_" + phase;
    return WORDS[key] !== undefined ? WORDS[key] : String(phase);
  }
  // the table's phase (or step): its word says "phase" itself ("action phase", "faza akcji"); one the
  // page has no word for is shown as written, after the label ("phase foo")
  function phaseSpan(phase, label) {
    var known = WORDS["phase_" + phase] !== undefined;
    return '<span data-phase-word="' + esc(phase) + '">' + (known ? "" : esc(w(label || "phase")) + " ") + "<b>" +
      esc(phaseWord(phase)) + "</b></span>";
  }
  // the page's static words (viewer.html: data-ui, data-ui-title, data-ui-aria-label)
  function fillStatic() {
    document.documentElement.lang = LANG;
    Array.prototype.forEach.call(document.querySelectorAll("[data-ui]"), function (node) {
      node.textContent = w(node.getAttribute("data-ui"));
    });
    Array.prototype.forEach.call(document.querySelectorAll("[data-ui-title]"), function (node) {
      node.setAttribute("title", w(node.getAttribute("data-ui-title")));
    });
    Array.prototype.forEach.call(document.querySelectorAll("[data-ui-aria-label]"), function (node) {
      node.setAttribute("aria-label", w(node.getAttribute("data-ui-aria-label")));
    });
  }
  function useLanguage(data) {
    if (data && typeof data.ui === "object" && data.ui) WORDS = Object.assign({}, EN, WORDS, data.ui);
    if (data && typeof data.lang === "string" && /^[a-z]{2,3}$/.test(data.lang)) LANG = data.lang;
    fillStatic();
  }

  function clone(value) {
    return typeof structuredClone === "function" ? structuredClone(value) : JSON.parse(JSON.stringify(value));
  }

  // ---------------------------------------------------------------- options from the URL
  function readOptions() {
    var out = {};
    new URLSearchParams(location.search).forEach(function (v, k) { out[k] = v; });
    location.hash.replace(/^#/, "").split("&").forEach(function (part) {
      if (!part) return;
      var m = /^step-(\d+)$/.exec(part);
      if (m) { out.step = m[1]; return; }
      var kv = part.split("=");
      try { out[decodeURIComponent(kv[0])] = decodeURIComponent(kv.slice(1).join("=")); } catch (e) { /* ignore */ }
    });
    return out;
  }

  function hashFor(at) {
    var rest = location.hash.replace(/^#/, "").split("&").filter(function (p) {
      return p && !/^step-\d+$/.test(p);
    });
    return "#" + ["step-" + at].concat(rest).join("&");
  }

  // ---------------------------------------------------------------- the viewer
  function start(data) {
    useLanguage(data);
    var steps = data.steps || [];
    var last = Math.max(steps.length - 1, 0);
    var opts = readOptions();
    var players = data.players || [];
    var playerNames = {};
    players.forEach(function (p) { playerNames[p.id] = p.name || p.id; });
    var refs = data.refs || {}, cards = data.cards || {}, symbols = data.symbols || {};
    var rules = data.rules || {};
    var annotations = (data.annotations || []).filter(function (a) { return a && typeof a.at === "number"; });
    // the words of the state view's keys and of the values the games write, in the data's language
    var tableWords = data.words && typeof data.words === "object" ? data.words : {};
    var KEYS = tableWords.keys || {}, VALUES = tableWords.values || {};
    function valueWord(v) { return typeof v === "string" && VALUES[v] !== undefined ? VALUES[v] : v; }
    var cache = new Map();
    var cur = -1, timer = null, hashBusy = false;
    var perspective = "all";

    var el = {
      title: document.getElementById("v-title"), sub: document.getElementById("v-sub"),
      table: document.getElementById("v-table"), step: document.getElementById("v-step"),
      scrub: document.getElementById("v-scrubber"), markers: document.getElementById("v-markers"),
      where: document.getElementById("v-where"), play: document.getElementById("v-play"),
      speed: document.getElementById("v-speed"), persp: document.getElementById("v-perspective"),
      list: document.getElementById("v-list"), notes: document.getElementById("v-notes")
    };

    // -- names --------------------------------------------------------------------------
    function cardOf(ref) {
      var entry = refs[ref];
      return entry ? (cards[entry.code] || {}) : {};
    }
    function cardName(ref) {
      var entry = refs[ref];
      if (!entry) return null;
      var card = cards[entry.code] || {};
      var name = card.name || entry.code;
      var serial = /#(\d+)/.exec(ref);
      if (serial && Number(serial[1]) > 1) name += " #" + serial[1];
      if (entry.die !== undefined && entry.die !== null) {
        var n = entry.die > 1 ? " " + entry.die : "";
        if (LANG !== "en") return w("die_of", { n: n, card: name });
        return name + (/s$/.test(name) ? "'" : "'s") + " die" + n;
      }
      return name;
    }
    function cardTitle(ref) {  // a die's card: its name without "'s die"
      var entry = refs[ref];
      if (!entry) return name(ref);
      var card = cards[entry.code] || {};
      return card.name || entry.code;
    }
    function name(value) {
      if (value === null || value === undefined) return w("none");
      if (typeof value !== "string") return String(value);
      if (playerNames[value] !== undefined) return playerNames[value];
      var card = cardName(value);
      if (card !== null) return card;
      var colon = value.indexOf(":");
      if (colon > 0 && refs[value.slice(0, colon)]) return cardName(value.slice(0, colon)) + " (" + valueWord(value.slice(colon + 1)) + ")";
      return value === "?" ? w("unknown_card") : valueWord(value);
    }

    // -- the table after a step: keyframe + patches (docs/viewer.md, "Rebuilding a step") --
    function applyPatch(state, ops) {
      (ops || []).forEach(function (op) {
        var keys = op[0], node = state;
        for (var i = 0; i < keys.length - 1; i++) node = node[keys[i]];
        if (op.length === 2) node[keys[keys.length - 1]] = clone(op[1]);
        else delete node[keys[keys.length - 1]];
      });
      return state;
    }
    function stateAt(at) {
      if (cache.has(at)) return cache.get(at);
      var k = at;
      while (k > 0 && !steps[k].state && !cache.has(k)) k--;
      var state = cache.has(k) ? cache.get(k) : clone(steps[k].state);
      cache.set(k, state);
      for (var i = k + 1; i <= at; i++) {
        state = steps[i].state ? clone(steps[i].state) : applyPatch(clone(state), steps[i].patch);
        cache.set(i, state);
      }
      return state;
    }

    // -- drawing ------------------------------------------------------------------------
    function dieTile(face, color, extra) {
      var m = FACE.exec(face || "");
      var cls = "v-die c-" + esc(color || "gray") + (extra ? " " + extra : "");
      if (!m) return '<span class="' + cls + '" data-face="' + esc(face) + '">' + esc(face) + "</span>";
      var symbol = m[3], value = m[2] || "";
      var title = (m[1] ? w("modifier") + " " : "") + (value ? value + " " : "") + (symbols[symbol] || symbol) +
        (m[4] ? " (" + w("costs", { n: m[4] }) + ")" : "");
      if (symbol === "-") {
        return '<span class="' + cls + ' s-blank" data-face="-" title="' + esc(w("blank")) + '">&#x2013;</span>';
      }
      return '<span class="' + cls + " s-" + (symbol === "*" ? "any" : symbol) + '" data-face="' + esc(face) +
        '" title="' + esc(title) + '">' + (m[1] ? '<span class="v-mod">+</span>' : "") + esc(value) +
        '<span class="v-sym">' + esc(symbol) + "</span>" + (m[4] ? '<span class="v-cost">' + esc(m[4]) + "</span>" : "") +
        "</span>";
    }
    function facesRow(card) {
      if (!card.faces || !card.faces.length) return "";
      return '<div class="v-faces" title="' + esc(w("faces")) + '">' + card.faces.map(function (f) {
        return dieTile(f, card.color);
      }).join("") + "</div>";
    }
    function chip(text, extra) {
      return '<span class="v-chip' + (extra ? " " + extra : "") + '">' + esc(text) + "</span>";
    }
    function tags(list) {
      return '<div class="v-ctags">' + list.join("") + "</div>";
    }
    function tag(cls, text) { return '<span class="v-tag ' + cls + '">' + esc(text) + "</span>"; }

    function characterTile(ref, ch, upgrades) {
      var card = cardOf(ref);
      var cls = "v-card c-" + esc(card.color || "gray") + (ch.exhausted ? " v-exhausted" : "") + (ch.defeated ? " v-defeated" : "");
      var health = card.health;
      var t = [];
      if (health !== undefined) t.push(tag("", w("health") + " " + health));
      if (ch.dice > 1) t.push(tag("", plural("dice_n", ch.dice)));
      t.push(tag("v-dmg", w("damage") + " " + (ch.damage || 0)));
      if (ch.shields) t.push(tag("v-sh", w("shields") + " " + ch.shields));
      if (ch.exhausted) t.push(tag("v-ex", w("exhausted")));
      if (ch.defeated) t.push(tag("v-def", w("defeated")));
      var bar = health ? '<div class="v-health" title="' + esc(w("damage_of", { damage: ch.damage || 0, health: health })) +
        '"><div style="width:' + Math.min(100, Math.round(100 * (ch.damage || 0) / health)) + '%"></div></div>' : "";
      var ups = (ch.upgrades || []).map(function (u) {
        var info = upgrades[u] || {};
        var ucard = cardOf(u);
        return '<li class="' + (info.exhausted ? "v-exhausted" : "") + '" data-upgrade="' + esc(u) + '">' +
          esc(name(u)) + (info.exhausted ? " (" + esc(w("exhausted")) + ")" : "") + facesRow(ucard) + "</li>";
      }).join("");
      return '<div class="' + cls + '" data-ref="' + esc(ref) + '" data-damage="' + esc(ch.damage || 0) +
        '" data-shields="' + esc(ch.shields || 0) + '" data-exhausted="' + (ch.exhausted ? "true" : "false") +
        '" data-defeated="' + (ch.defeated ? "true" : "false") + '">' +
        '<div class="v-cname">' + esc(name(ref)) + "</div>" +
        (card.subtitle ? '<div class="v-csub">' + esc(card.subtitle) + "</div>" : "") +
        tags(t) + bar + facesRow(card) + (ups ? '<ul class="v-upgrades">' + ups + "</ul>" : "") + "</div>";
    }
    function supportTile(ref, s) {
      var card = cardOf(ref);
      return '<div class="v-card c-' + esc(card.color || "gray") + (s.exhausted ? " v-exhausted" : "") +
        '" data-ref="' + esc(ref) + '" data-exhausted="' + (s.exhausted ? "true" : "false") + '">' +
        '<div class="v-cname">' + esc(name(ref)) + "</div>" +
        tags(s.exhausted ? [tag("v-ex", w("exhausted"))] : []) + facesRow(card) + "</div>";
    }
    function zone(label, inner, attrs) {
      return '<div class="v-zone"' + (attrs || "") + '><div class="v-zlabel">' + esc(label) + "</div>" +
        (inner || '<span class="v-empty">' + esc(w("none")) + "</span>") + "</div>";
    }
    function handVisible(pid) { return perspective === "all" || perspective === pid; }

    function playerPanel(pid, p, state) {
      var active = state.turn === pid && state.phase !== "over";
      var badges = (active ? '<span class="v-badge">' + esc(w("to_act")) + "</span>" : "") +
        (p.passed ? '<span class="v-badge v-passed">' + esc(w("passed")) + "</span>" : "") +
        (p.eliminated ? '<span class="v-badge v-passed">' + esc(w("eliminated")) + "</span>" : "") +
        (state.winner === pid ? '<span class="v-badge">' + esc(w("winner")) + "</span>" : "");
      var handCount = Array.isArray(p.hand) ? p.hand.length : p.hand;
      var deckCount = Array.isArray(p.deck) ? p.deck.length : p.deck;
      var discard = p.discard || [];
      var head = '<div class="v-phead"><span class="v-pname">' + esc(name(pid)) + "</span>" + badges +
        '<span class="v-stat" data-field="resources">' + esc(w("resources")) + " <b>" + esc(p.resources) + "</b></span>" +
        '<span class="v-stat" data-field="hand">' + esc(w("hand")) + " <b>" + esc(handCount) + "</b></span>" +
        '<span class="v-stat" data-field="deck">' + esc(w("deck")) + " <b>" + esc(deckCount) + "</b></span>" +
        '<span class="v-stat" data-field="discard">' + esc(w("discard")) + " <b>" + esc(discard.length) + "</b></span></div>";
      var upgrades = p.upgrades || {};
      var chars = Object.keys(p.characters || {}).map(function (ref) {
        return characterTile(ref, p.characters[ref], upgrades);
      }).join("");
      var sups = Object.keys(p.supports || {}).map(function (ref) { return supportTile(ref, p.supports[ref]); }).join("");
      var pool = Object.keys(p.pool || {}).map(function (die) {
        var card = cardOf(die);
        return '<span class="v-pooldie" data-die="' + esc(die) + '">' + dieTile(p.pool[die], card.color) +
          "<span>" + esc(cardTitle(die)) + "</span></span>";
      }).join("");
      var hand;
      var visible = handVisible(pid) && Array.isArray(p.hand_cards);
      if (visible) {
        hand = p.hand_cards.map(function (c) { return chip(name(c)); }).join("");
      } else {
        hand = "";
        for (var i = 0; i < handCount; i++) hand += chip("?", "v-back");
      }
      var disc = discard.map(function (c) { return chip(name(c)); }).join("");
      return '<section class="v-player' + (active ? " v-active" : "") + (p.eliminated ? " v-out" : "") +
        '" data-player="' + esc(pid) + '" data-resources="' + esc(p.resources) + '" data-hand="' + esc(handCount) +
        '" data-deck="' + esc(deckCount) + '">' + head +
        zone(w("characters"), chars && '<div class="v-row">' + chars + "</div>") +
        (sups ? zone(w("supports"), '<div class="v-row">' + sups + "</div>") : "") +
        zone(w("dice_pool"), pool && '<div class="v-row">' + pool + "</div>", ' data-zone="pool"') +
        zone(w(visible ? "hand" : "hand_hidden"), hand, ' data-zone="hand" data-visible="' + (visible ? "true" : "false") + '"') +
        zone(w("discard_pile"), disc, ' data-zone="discard"') +
        "</section>";
    }

    // -- a game without a table of its own: its state view drawn generically ------------
    var SKIP = { round: 1, phase: 1, turn: 1, winner: 1, reason: 1, rng_drawn: 1, players: 1 };
    function label(key) { return KEYS[key] !== undefined ? KEYS[key] : String(key).replace(/_/g, " "); }
    function scalar(v) { return v === null || v === undefined || typeof v !== "object"; }
    function valueText(key, v) {
      if (v === true) return w("yes");
      if (v === false) return w("no");
      if (v === null || v === undefined) return w("none");
      return typeof v === "string" ? name(v) : String(v);
    }
    function genericThing(key, v, depth) {
      if (scalar(v)) return '<span class="v-stat" data-field="' + esc(key) + '">' + esc(label(key)) + " <b>" + esc(valueText(key, v)) + "</b></span>";
      if (Array.isArray(v)) {
        if (v.every(scalar)) return zone(label(key), v.map(function (x) { return chip(valueText(key, x)); }).join(""), ' data-zone="' + esc(key) + '"');
        return zone(label(key), '<div class="v-row">' + v.map(function (x, i) { return genericCard(String(i + 1), x, depth + 1); }).join("") + "</div>", ' data-zone="' + esc(key) + '"');
      }
      var keys = Object.keys(v);
      if (keys.length && keys.every(function (k) { return v[k] && typeof v[k] === "object" && !Array.isArray(v[k]); })) {
        return zone(label(key), '<div class="v-row">' + keys.map(function (k) { return genericCard(k, v[k], depth + 1); }).join("") + "</div>", ' data-zone="' + esc(key) + '"');
      }
      return zone(label(key), genericFields(v, depth + 1), ' data-zone="' + esc(key) + '"');
    }
    function genericFields(obj, depth) {
      if (depth > 4) return '<pre class="v-json">' + esc(JSON.stringify(obj)) + "</pre>";
      var keys = Object.keys(obj);
      var flat = keys.filter(function (k) { return scalar(obj[k]); });
      var rest = keys.filter(function (k) { return !scalar(obj[k]); });
      return (flat.length ? '<div class="v-ctags">' + flat.map(function (k) { return genericThing(k, obj[k], depth); }).join("") + "</div>" : "") +
        rest.map(function (k) { return genericThing(k, obj[k], depth); }).join("");
    }
    function genericCard(key, v, depth) {
      var title = v && typeof v === "object" && typeof v.name === "string" ? v.name : name(key);
      var body = v && typeof v === "object" ? genericFields(v, depth) : esc(valueText(key, v));
      return '<div class="v-card c-gray" data-ref="' + esc(key) + '"><div class="v-cname">' + esc(title) + "</div>" + body + "</div>";
    }
    function genericTable(state) {
      var top = '<div class="v-battlefield" data-round="' + esc(state.round) + '" data-phase="' + esc(state.phase) + '">' +
        (state.round !== undefined ? "<span>" + esc(w("round")) + " <b>" + esc(state.round) + "</b></span>" : "") +
        (state.phase ? phaseSpan(state.phase) : "") +
        (state.turn ? "<span>" + esc(w("turn")) + " <b>" + esc(name(state.turn)) + "</b></span>" : "") +
        winsSpan(state) + "</div>";
      var others = Object.keys(state).filter(function (k) { return !SKIP[k] && state[k] !== null && state[k] !== undefined; });
      var shared = others.length ? '<section class="v-player v-shared" data-player="">' +
        '<div class="v-phead"><span class="v-pname">' + esc(w("table")) + "</span></div>" + genericFields(pick(state, others), 1) + "</section>" : "";
      var ps = state.players && typeof state.players === "object" ? state.players : {};
      var order = players.map(function (p) { return p.id; }).filter(function (pid) { return ps[pid]; });
      Object.keys(ps).forEach(function (pid) { if (order.indexOf(pid) < 0) order.push(pid); });
      return top + shared + order.map(function (pid) {
        var active = state.turn === pid;
        return '<section class="v-player' + (active ? " v-active" : "") + '" data-player="' + esc(pid) + '">' +
          '<div class="v-phead"><span class="v-pname">' + esc(name(pid)) + "</span>" +
          (active ? '<span class="v-badge">' + esc(w("to_act")) + "</span>" : "") + "</div>" + genericFields(ps[pid] || {}, 1) + "</section>";
      }).join("");
    }
    function winsSpan(state) {  // "<b>Ana wins</b> (reason)" on the table's top bar
      return state.winner ? "<span><b>" + esc(w("wins", { player: name(state.winner) })) + "</b> (" + esc(state.reason) + ")</span>" : "";
    }
    function pick(obj, keys) { var out = {}; keys.forEach(function (k) { out[k] = obj[k]; }); return out; }

    // the helpers a game's own renderer (viewer_<game>.js) draws with
    var kit = { esc: esc, name: name, cardName: cardName, cardOf: cardOf, chip: chip, tag: tag, tags: tags,
                zone: zone, dieTile: dieTile, facesRow: facesRow, handVisible: handVisible,
                genericFields: genericFields, players: players, data: data,
                w: w, plural: plural, phaseWord: phaseWord, phaseSpan: phaseSpan, winsSpan: winsSpan, lang: LANG,
                value: valueWord, label: label };

    function drawTable(state, step) {
      var own = (window.ArbiterRenderers || {})[data.game];
      if (own && state) {
        el.table.innerHTML = own(kit, state, step);
        return;
      }
      if (!state || !state.players || !Object.keys(state.players).some(function (pid) {
        return state.players[pid] && typeof state.players[pid] === "object" && "characters" in state.players[pid];
      })) {  // a game this page has no table for: its state view, drawn generically
        el.table.innerHTML = state && typeof state === "object" ? genericTable(state) :
          '<pre class="v-json">' + esc(JSON.stringify(state, null, 1)) + "</pre>";
        return;
      }
      var bf = state.battlefield;
      var top = '<div class="v-battlefield" data-round="' + esc(state.round) + '" data-phase="' + esc(state.phase) + '">' +
        "<span>" + esc(w("round")) + " <b>" + esc(state.round) + "</b></span>" + phaseSpan(state.phase) +
        (state.turn ? "<span>" + esc(w("turn")) + " <b>" + esc(name(state.turn)) + "</b></span>" : "") +
        (bf ? '<span data-battlefield="' + esc(bf.card) + '">' + esc(w("battlefield")) + " <b>" + esc(name(bf.card)) + "</b>, " +
          esc(w("controlled_by")) + " <b>" + esc(name(bf.controller)) + "</b></span>" : "") +
        (state.claimed_by ? "<span>" + esc(w("claimed_by")) + " <b>" + esc(name(state.claimed_by)) + "</b></span>" : "") +
        winsSpan(state) + "</div>";
      var order = players.map(function (p) { return p.id; }).filter(function (pid) { return state.players[pid]; });
      Object.keys(state.players).forEach(function (pid) { if (order.indexOf(pid) < 0) order.push(pid); });
      el.table.innerHTML = top + order.map(function (pid) { return playerPanel(pid, state.players[pid], state); }).join("");
    }

    // served by the API, each rule links to its place on the rules page (/rules/<game>#<rule id>)
    var served = /^https?:$/.test(location.protocol) && root.getAttribute("data-src");
    function ruleItem(id) {
      var summary = rules[id] || "";
      var link = served ? ' <a class="v-rulelink" href="/rules/' + encodeURIComponent(id.split(".")[0]) + "#" +
        encodeURIComponent(id) + '">' + esc(w("rules_page")) + "</a>" : "";
      return '<details data-rule="' + esc(id) + '"><summary title="' + esc(summary) + '">' + esc(id) +
        "</summary><p>" + esc(summary || w("not_in_index")) + link + "</p></details>";
    }

    function drawStep(step) {
      var anns = annotations.filter(function (a) { return a.at === step.at; });
      var hl = anns.filter(function (a) { return a.highlight; }).map(function (a) { return a.highlight; })[0];
      el.step.className = "v-step" + (hl ? " v-hl" + (typeof hl === "string" ? " v-hl-" + hl : "") : "");
      var html = "<h2>" + esc(step.at === 0 ? w("setup") : w("step_n", { at: step.at })) + " &#xB7; " + esc(step.summary) + "</h2>";
      html += '<div class="v-meta">' + esc(w("round_n", { round: step.round })) + " &#xB7; " + esc(phaseWord(step.phase)) +
        (step.by ? " &#xB7; " + esc(w("by", { player: name(step.by) })) : "") + (step.do && step.at ? " &#xB7; " + esc(step.do_words || step.do) : "") + "</div>";
      anns.forEach(function (a) {
        html += '<div class="v-annbox"><div class="v-annlabel">' + esc(w("creators_note")) + "</div>" +
          '<div class="v-annotation" data-annotation="' + esc(a.at) + '">' + esc(a.note) + "</div></div>";
      });
      if (step.error) {
        var err = step.error, summary = err.rule ? (rules[err.rule] || "") : "";
        var head = step.rejected_as_expected ? w("rejected_expected") :
          (err.kind === "illegal-action" ? w("illegal_step") : err.kind === "pending-decision" ? w("waiting") :
            w("stops_here", { kind: err.kind }));
        html += '<div class="v-illegal" data-error-rule="' + esc(err.rule || "") + '"><b>' + esc(head) + "</b>" +
          (err.rule ? ": " + esc(w("breaks")) + " <code>" + esc(err.rule) + "</code>" + (summary ? " &#x2014; " + esc(summary) : "") : "") +
          "<br>" + esc(err.text || err.message || "") + "</div>";
      }
      if (step.note) html += '<div class="v-lognote">' + esc(step.note) + "</div>";
      if (step.dispute) {
        var r = step.ruling || {};
        var verdict = r.legal === true ? w(r.pending ? "legal_waiting" : "legal") :
          r.legal === false ? w("illegal_verdict", { why: r.violation ? r.violation.rule + " (" + r.violation.message + ")" : "" }) :
            w("no_ruling");
        html += '<div class="v-dispute"><div class="v-q">&#x201C;' + esc(step.dispute) + "&#x201D;</div>" +
          "<div>" + esc(w("ruling")) + ": <b>" + esc(verdict) + "</b></div></div>";
      }
      if (step.events && step.events.length) {
        html += "<h3>" + esc(w("what_happened")) + "</h3><ol class=\"v-events\">" + step.events.map(function (e) {
          return '<li data-kind="' + esc(e.kind) + '" title="' + esc((e.rules || []).join(", ")) + '">' + esc(e.text) + "</li>";
        }).join("") + "</ol>";
      }
      if (step.decisions && step.decisions.length) {
        html += "<h3>" + esc(w("decisions")) + "</h3><ul>" + step.decisions.map(function (d) { return "<li>" + esc(d.text) + "</li>"; }).join("") + "</ul>";
      }
      if (step.changes && step.changes.length) {
        html += "<h3>" + esc(w("what_changed")) + '</h3><ul class="v-changes">' + step.changes.map(function (c) {
          return "<li>" + esc(c) + "</li>";
        }).join("") + "</ul>";
      }
      if (step.rules && step.rules.length) {
        html += "<h3>" + esc(w("rules_applied", { n: step.rules.length })) + '</h3><div class="v-rules">' + step.rules.map(ruleItem).join("") + "</div>";
      }
      if (step.at === last && data.outcome) html += "<h3>" + esc(w("outcome")) + "</h3><p>" + esc(data.outcome.text) + "</p>";
      el.step.innerHTML = html;
    }

    // a link to a step (#step-N, start=N): its note, else the step's panel, scrolled into view when it
    // lies out of sight (a phone draws the step's panel under the table)
    function showLinkedStep() {
      var target = el.step.querySelector(".v-annbox") || el.step;
      var bar = document.getElementById("v-controls");
      var style = bar ? window.getComputedStyle(bar) : null;
      // (the controls stick to the top of the screen: the note goes under them, not behind them)
      var pad = (style && style.position === "sticky" && style.display !== "none" ? bar.offsetHeight : 0) + 8;
      var box = target.getBoundingClientRect();
      if (box.top >= pad && box.top < window.innerHeight - 48) return;
      window.scrollTo(0, Math.max(0, box.top + window.scrollY - pad));
    }

    function drawHeader() {
      var title = data.title || w("replay");
      el.title.textContent = title;
      // an annotation set (served with ?notes=): its title under the log's, or that it was not found
      var notes = data.notes && typeof data.notes === "object" ? data.notes : null;
      var notesTitle = notes && !notes.missing && typeof notes.title === "string" ? notes.title : "";
      el.notes.hidden = !(notesTitle || (notes && notes.missing));
      el.notes.className = "v-notes" + (notes && notes.missing ? " v-notes-missing" : "");
      el.notes.textContent = notes && notes.missing ? w("notes_missing") : notesTitle ? w("notes_title", { title: notesTitle }) : "";
      document.title = w("page_title", { title: notesTitle ? title + " \u00b7 " + notesTitle : title });
      var who = players.map(function (p) { return p.name || p.id; }).reduce(function (left, right) {
        return left === null ? right : w("versus", { left: left, right: right });
      }, null) || "";
      var html = esc(who) + " &#xB7; " + esc(data.game) + " &#xB7; " + esc(plural("steps", last));
      if (data.outcome) html += ' &#xB7; <span class="v-outcome">' + esc(data.outcome.text) + "</span>";
      if (!data.valid && data.error) html += ' &#xB7; <span class="v-invalid">' +
        esc(w("stops_at", { at: data.error.at, kind: data.error.kind })) + "</span>";
      el.sub.innerHTML = html;
    }

    function drawMarkers() {
      var html = "", span = Math.max(last, 1);
      steps.forEach(function (s, i) {
        if (i === 0) return;
        var left = (100 * i / span).toFixed(3) + "%";
        var prev = steps[i - 1];
        if (s.round !== prev.round) {
          html += '<div class="v-mark v-round" data-at="' + i + '" style="left:' + left + '" title="' + esc(w("round_n", { round: s.round })) +
            '"><span>' + esc(w("round_short", { round: s.round })) + "</span></div>";
        } else if (s.by && s.by !== prev.by) {
          html += '<div class="v-mark v-turn" data-at="' + i + '" style="left:' + left + '" title="' + esc(name(s.by)) + '"></div>';
        }
        if (s.error && !s.rejected_as_expected) html += '<div class="v-mark v-bad" style="left:' + left + '" title="' + esc(w("illegal_step_n", { at: i })) + '"></div>';
      });
      annotations.forEach(function (a) {
        if (a.at > last) return;  // (a note past the last step drawn: an illegal step ended the replay first)
        html += '<div class="v-mark v-ann" style="left:' + (100 * a.at / span).toFixed(3) + '%" title="' + esc(a.note) + '"></div>';
      });
      el.markers.innerHTML = html;
    }

    function drawList() {
      el.list.innerHTML = steps.map(function (s, i) {
        return '<li data-at="' + i + '" class="' + (s.error ? "v-bad" : "") + '">' + esc(s.summary) + "</li>";
      }).join("");
      el.list.addEventListener("click", function (e) {
        var li = e.target.closest("li[data-at]");
        if (li) go(Number(li.getAttribute("data-at")));
      });
    }

    function go(at, fromHash) {
      at = Math.max(0, Math.min(last, Math.floor(Number(at) || 0)));
      if (at === cur) return;
      var old = el.list.querySelector("li.v-cur");
      if (old) old.classList.remove("v-cur");
      cur = at;
      var step = steps[at];
      drawTable(stateAt(at), step);
      drawStep(step);
      el.scrub.value = String(at);
      el.where.textContent = w("where", { at: at, last: last, round: step.round, phase: phaseWord(step.phase) });
      var li = el.list.children[at];
      if (li) li.classList.add("v-cur");
      root.setAttribute("data-step", String(at));
      if (!fromHash) setUrl();
    }

    // The URL follows the step, at most every URL_EVERY ms (browsers throttle history updates,
    // and a step drawn while scrubbing must not wait for one): a move right after another only
    // schedules the update, and the last step wins.
    var URL_EVERY = 250, urlAt = -Infinity, urlTimer = null;
    function setUrl() {
      var now = performance.now();
      if (urlTimer) return;
      if (now - urlAt >= URL_EVERY) { writeUrl(); return; }
      urlTimer = setTimeout(function () { urlTimer = null; writeUrl(); }, URL_EVERY - (now - urlAt));
    }
    function writeUrl() {
      urlAt = performance.now();
      var url = hashFor(cur);
      try { history.replaceState(null, "", url); } catch (e) { hashBusy = true; location.hash = url; }
    }

    function play() {
      if (timer) return;
      if (cur >= last) go(0);
      el.play.classList.add("v-on");
      el.play.textContent = w("pause");
      root.setAttribute("data-playing", "true");
      timer = setInterval(function () {
        if (cur >= last) pause(); else go(cur + 1);
      }, 1000 / Number(el.speed.value || 1));
    }
    function pause() {
      if (timer) clearInterval(timer);
      timer = null;
      el.play.classList.remove("v-on");
      el.play.textContent = w("play");
      root.setAttribute("data-playing", "false");
    }
    function toggle() { if (timer) pause(); else play(); }

    // -- wiring -------------------------------------------------------------------------
    el.persp.innerHTML = '<option value="all">' + esc(w("persp_all")) + '</option><option value="spectator">' +
      esc(w("persp_spectator")) + "</option>" + players.map(function (p) {
        return '<option value="' + esc(p.id) + '">' + esc(w("persp_as", { player: p.name || p.id })) + "</option>";
      }).join("");
    if (opts.perspective && (opts.perspective === "all" || opts.perspective === "spectator" || playerNames[opts.perspective] !== undefined)) {
      perspective = opts.perspective;
    }
    el.persp.value = perspective;
    el.persp.addEventListener("change", function () {
      perspective = el.persp.value;
      drawTable(stateAt(cur), steps[cur]);
    });
    if (opts.speed && SPEEDS.indexOf(opts.speed) >= 0) el.speed.value = opts.speed;
    el.speed.addEventListener("change", function () { if (timer) { pause(); play(); } });
    el.scrub.max = String(last);
    el.scrub.addEventListener("input", function () { go(Number(el.scrub.value)); });
    document.getElementById("v-first").addEventListener("click", function () { go(0); });
    document.getElementById("v-prev").addEventListener("click", function () { go(cur - 1); });
    document.getElementById("v-next").addEventListener("click", function () { go(cur + 1); });
    document.getElementById("v-last").addEventListener("click", function () { go(last); });
    el.play.addEventListener("click", toggle);
    document.addEventListener("keydown", function (e) {
      var t = e.target;
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      if (t && (t.tagName === "SELECT" || t.tagName === "TEXTAREA" || (t.tagName === "INPUT" && t.type !== "range"))) return;
      if (t && (e.key === " " || e.key === "Enter") && /^(BUTTON|SUMMARY|A)$/.test(t.tagName)) return;  // their own
      var moves = { ArrowLeft: function () { go(cur - 1); }, ArrowRight: function () { go(cur + 1); },
        Home: function () { go(0); }, End: function () { go(last); }, " ": toggle };
      if (moves[e.key]) { e.preventDefault(); moves[e.key](); }
    });
    window.addEventListener("hashchange", function () {
      if (hashBusy) { hashBusy = false; return; }
      var o = readOptions();
      if (o.step === undefined) return;
      go(Number(o.step), true);
      if (String(cur) !== String(o.step)) setUrl();  // (a step past the end, say: the URL names the one shown)
    });

    if (opts.embed === "1") document.documentElement.classList.add("v-embed");
    if (opts.controls === "0") document.documentElement.classList.add("v-nocontrols");
    drawHeader();
    drawMarkers();
    drawList();
    var first = opts.step !== undefined ? opts.step : opts.start !== undefined ? opts.start : (data.start || 0);
    go(Number(first));
    // (notes that could not be found: the line saying so, at the top, stays in sight)
    if ((opts.step !== undefined || opts.start !== undefined) && !(data.notes && data.notes.missing)) showLinkedStep();
    root.setAttribute("data-ready", "true");
    root.setAttribute("data-ready-ms", String(Math.round(performance.now())));  // bench/bench_viewer.py reads it
    if (opts.autoplay === "1") play();

    window.arbiterViewer = {
      data: data, go: go, play: play, pause: pause, stateAt: stateAt,
      get step() { return cur; }, get perspective() { return perspective; }
    };
  }

  function fail(message) {
    root.setAttribute("data-ready", "error");
    document.getElementById("v-table").textContent = w("cannot_show", { message: message });
  }

  // Served mode: the API answers 202 (with Retry-After) while a worker computes the data; ask
  // again then, saying so on the page, up to MAX_TRIES times.
  var MAX_TRIES = 60;
  function load(url, tries) {
    fetch(url, { headers: { Accept: "application/json" } })
      .then(function (r) {
        if (r.status === 202) {
          return r.json().then(function (body) {
            if (tries >= MAX_TRIES) throw new Error(w("still_computing"));
            var wait = Math.min(Math.max(parseInt(r.headers.get("Retry-After") || "1", 10) || 1, 1), 10);
            root.setAttribute("data-ready", "waiting");
            var status = body.status || "queued";
            document.getElementById("v-table").textContent = w("preparing", {
              status: WORDS["status_" + status] !== undefined ? w("status_" + status) : status, message: body.message || "" });
            setTimeout(function () { load(url, tries + 1); }, wait * 1000);
            return null;
          });
        }
        if (!r.ok) {
          return r.json().then(function (p) { throw new Error(p.detail || ("HTTP " + r.status)); },
                               function () { throw new Error("HTTP " + r.status); });
        }
        return r.json().then(start);
      })
      .catch(function (e) { fail(e.message); });
  }

  // the language switch (served pages: links with ?lang=) keeps the step the page shows
  document.addEventListener("click", function (e) {
    var a = e.target && e.target.closest ? e.target.closest(".v-langs a[href]") : null;
    if (a && location.hash) a.setAttribute("href", a.getAttribute("href").split("#")[0] + location.hash);
  });
  fillStatic();
  var embedded = document.getElementById("arbiter-viewer-data");
  try {
    if (embedded) {
      start(JSON.parse(embedded.textContent));
    } else if (root.getAttribute("data-src")) {
      load(root.getAttribute("data-src"), 0);
    } else {
      fail(w("no_data"));
    }
  } catch (e) {
    fail(e && e.message ? e.message : String(e));
  }
})();
