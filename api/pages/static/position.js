/* The quick position form: builds the quick position (judge.games.quick) from the fields, posts it
   to /position and shows the ruling in words. Plain JS; talks only to this server. */
(function () {
  "use strict";
  // the form with fields (a game with ``quick_form``), or the compact text alone (#compact)
  var form = document.getElementById("qp");
  var playersBox = document.getElementById("players");
  var game = (form || document.getElementById("compact")).getAttribute("data-game");
  // the page's words in its language (the template's #words); English when missing
  var words = {};
  try { words = JSON.parse(document.getElementById("words").textContent); } catch (e) { words = {}; }
  function t(s) { return words[s] || s; }

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") node.textContent = attrs[k]; else node.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) { node.appendChild(c); });
    return node;
  }
  function field(label, attrs) {
    return el("label", {}, [document.createTextNode(label + " "), el("input", attrs)]);
  }

  function exhaustedBox(word, checked) {
    var box = el("input", {name: "exhausted", type: "checkbox"});
    box.checked = !!checked;
    return el("label", {}, [box, document.createTextNode(" " + t(word))]);
  }
  // an upgrade or a support in play: its name (a card name, or {card, exhausted}) and whether it is exhausted
  function cardRow(list, kind, value) {
    value = typeof value === "string" ? {card: value} : (value || {});
    var labels = {upgrade: ["Upgrade", "exhausted_upgrade"], support: ["Support", "exhausted_support"]}[kind];
    var row = el("div", {"class": "row " + kind}, [
      field(t(labels[0]), {name: "card", list: "card-titles", value: value.card || "", placeholder: t("name"), "class": "name"}),
      exhaustedBox(labels[1], value.exhausted),
      el("button", {type: "button", "class": "remove", title: t("remove"), text: "×"})
    ]);
    row.querySelector(".remove").onclick = function () { row.remove(); };
    list.appendChild(row);
  }
  // a character: its row of fields, then its upgrades (each a row, added with "+ upgrade")
  function characterRow(list, value) {
    value = value || {};
    var upgrades = el("div", {"class": "list upgrades"});
    var row = el("div", {"class": "row character"}, [
      field(t("Character"), {name: "card", list: "card-titles", value: value.card || "", placeholder: t("name"), "class": "name"}),
      field(t("dice"), {name: "dice", type: "number", min: "1", max: "2", value: value.dice || 1}),
      field(t("damage"), {name: "damage", type: "number", min: "0", value: value.damage || 0}),
      field(t("shields"), {name: "shields", type: "number", min: "0", max: "3", value: value.shields || 0}),
      exhaustedBox("exhausted", value.exhausted),
      el("button", {type: "button", "class": "add-upgrade", text: t("+ upgrade")}),
      el("button", {type: "button", "class": "remove", title: t("remove"), text: "×"})
    ]);
    var box = el("div", {"class": "character-box"}, [row, upgrades]);
    row.querySelector(".remove").onclick = function () { box.remove(); };
    row.querySelector(".add-upgrade").onclick = function () { cardRow(upgrades, "upgrade"); };
    (value.upgrades || []).forEach(function (u) { cardRow(upgrades, "upgrade", u); });
    list.appendChild(box);
  }
  function dieRow(list, value) {
    value = value || {};
    var row = el("div", {"class": "row die"}, [
      field(t("Die of"), {name: "card", list: "card-titles", value: value.card || "", placeholder: t("name"), "class": "name"}),
      field(t("number"), {name: "die", type: "number", min: "1", max: "2", value: value.die || 1}),
      field(t("showing"), {name: "face", value: value.face || "", placeholder: "2RD", size: "5"}),
      el("button", {type: "button", "class": "remove", title: t("remove"), text: "×"})
    ]);
    row.querySelector(".remove").onclick = function () { row.remove(); };
    list.appendChild(row);
  }

  function addPlayer(value) {
    var n = playersBox.children.length + 1;
    if (n > 4) return;
    value = value || {};
    var pid = value.id || "p" + n;
    var chars = el("div", {"class": "list characters"});
    var supports = el("div", {"class": "list supports"});
    var dice = el("div", {"class": "list dice"});
    var box = el("fieldset", {"class": "player", "data-id": pid}, [
      el("legend", {text: pid}),
      el("div", {"class": "row"}, [
        field(t("Name"), {name: "name", value: value.name || "", placeholder: pid}),
        field(t("resources"), {name: "resources", type: "number", min: "0", value: value.resources || 0}),
        field(t("hand"), {name: "hand", value: value.hand === undefined ? 0 : value.hand, size: "16",
                       title: t("hand_title"), placeholder: t("hand_placeholder")}),
        field(t("deck"), {name: "deck", type: "number", min: "0", value: value.deck === undefined ? 10 : value.deck})
      ]),
      chars,
      el("button", {type: "button", "class": "add-character", text: t("+ character")}),
      el("div", {"class": "zlabel supports-label", text: t("Supports")}),
      supports,
      el("button", {type: "button", "class": "add-support", text: t("+ support")}),
      el("div", {"class": "zlabel dice-label", text: t("Dice in the pool")}),
      dice,
      el("button", {type: "button", "class": "add-die", text: t("+ die")})
    ]);
    box.querySelector(".add-character").onclick = function () { characterRow(chars); };
    box.querySelector(".add-die").onclick = function () { dieRow(dice); };
    box.querySelector(".add-support").onclick = function () { cardRow(supports, "support"); };
    (value.characters || [{}]).forEach(function (c) { characterRow(chars, c); });
    (value.supports || []).forEach(function (s) { cardRow(supports, "support", s); });
    (value.dice || []).forEach(function (d) { dieRow(dice, d); });
    playersBox.appendChild(box);
    seats();
  }

  function seats() {
    var ids = Array.prototype.map.call(playersBox.children, function (p) { return p.getAttribute("data-id"); });
    ["turn", "controller"].forEach(function (name) {
      var select = form.elements[name];
      var was = select.value;
      select.innerHTML = "";
      ids.forEach(function (id) { select.appendChild(el("option", {value: id, text: id})); });
      if (ids.indexOf(was) >= 0) select.value = was;
    });
  }

  function num(input) { return parseInt(input.value, 10) || 0; }

  // where each part of the quick position last built from the fields is on the form: its JSON Pointer
  // in the body (as a fault names it) -> {node: a field, a row or a list, label: how a judge names it}
  var places = {};
  function place(pointer, node, label) { places[pointer] = {node: node, label: label}; }
  // a field's label as the form shows it ("dice", "Step"), the card's name field being the "card"
  function labelOf(input) {
    if (input.name === "card") return t("card");
    var label = input.closest("label");
    if (!label) return input.name;
    var first = label.firstChild;
    return (first && first.nodeType === 3 && first.nodeValue.trim()) || label.textContent.trim();
  }
  function nth(node) { return Array.prototype.indexOf.call(node.parentNode.children, node) + 1; }

  function spec() {
    var out = {game: game, round: num(form.elements.round), turn: form.elements.turn.value, players: [],
               ask: form.elements.ask.value, dispute: form.elements.dispute.value};
    places = {};
    ["round", "turn", "battlefield", "controller", "ask", "dispute"].forEach(function (name) {
      var input = form.elements[name];
      place(name === "controller" ? "/battlefield/controller" : "/" + name, input, labelOf(input));
    });
    place("/battlefield/card", form.elements.battlefield, labelOf(form.elements.battlefield));
    if (form.elements.battlefield.value.trim()) {
      out.battlefield = {card: form.elements.battlefield.value, controller: form.elements.controller.value};
    }
    Array.prototype.forEach.call(playersBox.children, function (box) {
      var get = function (name) { return box.querySelector("[name=" + name + "]"); };
      var at = "/players/" + out.players.length, pid = box.getAttribute("data-id");
      place(at, box.querySelector(".row"), pid);
      place(at + "/characters", box.querySelector(".characters"), pid + ": " + t("characters"));
      place(at + "/supports", box.querySelector(".supports"), pid + ": " + t("Supports"));
      place(at + "/dice", box.querySelector(".dice"), pid + ": " + t("Dice in the pool"));
      var hand = get("hand").value.trim();
      var p = {id: box.getAttribute("data-id"), name: get("name").value || box.getAttribute("data-id"),
               resources: num(get("resources")), deck: num(get("deck")),
               hand: /^\d*$/.test(hand) ? (parseInt(hand, 10) || 0)
                                        : hand.split(";").map(function (s) { return s.trim(); }).filter(Boolean),
               characters: [], supports: [], dice: []};
      // an upgrade's or a support's row: {card, exhausted}, or null when its name is empty
      function inPlay(row) {
        var name = row.querySelector("[name=card]").value.trim();
        return name ? {card: name, exhausted: row.querySelector("[name=exhausted]").checked} : null;
      }
      box.querySelectorAll(".character-box").forEach(function (cbox) {
        var row = cbox.querySelector(".character");
        var q = function (n) { return row.querySelector("[name=" + n + "]"); };
        if (!q("card").value.trim()) return;
        var cat = at + "/characters/" + p.characters.length, clabel = pid + " " + t("character") + " " + nth(cbox);
        place(cat, row, clabel);
        place(cat + "/upgrades", cbox.querySelector(".upgrades"), clabel + ": " + t("upgrades"));
        var upgrades = [];
        cbox.querySelectorAll(".upgrade").forEach(function (urow) {
          var u = inPlay(urow);
          if (!u) return;
          place(cat + "/upgrades/" + upgrades.length, urow, clabel + " " + t("upgrade") + " " + nth(urow));
          upgrades.push(u);
        });
        p.characters.push({card: q("card").value, dice: num(q("dice")), damage: num(q("damage")),
                           shields: num(q("shields")), exhausted: q("exhausted").checked, upgrades: upgrades});
      });
      box.querySelectorAll(".support").forEach(function (row) {
        var s = inPlay(row);
        if (!s) return;
        place(at + "/supports/" + p.supports.length, row, pid + " " + t("support") + " " + nth(row));
        p.supports.push(s);
      });
      box.querySelectorAll(".die").forEach(function (row) {
        var q = function (n) { return row.querySelector("[name=" + n + "]"); };
        if (!q("card").value.trim()) return;
        place(at + "/dice/" + p.dice.length, row, pid + " " + t("die") + " " + nth(row));
        p.dice.push({card: q("card").value, die: num(q("die")), face: q("face").value.trim()});
      });
      out.players.push(p);
    });
    return out;
  }

  // a fault's pointer into the fields' body -> {label, input} (the field it names, or the first field of
  // the row or list it names), by the deepest part of the pointer the form has a place for; null if none
  function resolve(pointer) {
    var parts = pointer.split("/"), rest = [];
    while (parts.length > 1) {
      var at = places[parts.join("/")];
      if (at) {
        var node = at.node, own = node.matches("input, select, textarea");
        var named = !own && rest.length ? node.querySelector("[name=" + rest[0] + "]") : null;
        var input = own ? node : named || node.querySelector("input, select") || null;
        var label = own || !rest.length ? at.label : at.label + ": " + (named ? labelOf(named) : rest.join("/"));
        return {label: label, input: !own && rest.length && !named ? null : input};
      }
      rest.unshift(parts.pop());
    }
    return null;
  }
  var faultsBox = document.getElementById("faults");
  // the faults on screen and the fields they marked: gone when a new question starts or is blocked
  function clearFaults() {
    faultsBox.hidden = true;
    faultsBox.innerHTML = "";
    document.querySelectorAll("[aria-invalid]").forEach(unmark);
  }
  function unmark(input) {
    input.removeAttribute("aria-invalid");
    input.removeAttribute("aria-describedby");
    input.classList.remove("invalid");
  }
  function showFaults(errors, fromForm) {
    clearFaults();
    faultsBox.appendChild(el("h2", {text: t("cannot")}));
    var list = el("ul"), first = null;
    errors.forEach(function (e, n) {
      var pointer = e.pointer || "";
      // a line of the compact text as the judge counts it ("line 8"), a field of the form by its label;
      // the pointer beside it on hover
      var line = /^\/text\/lines\/(\d+)$/.exec(pointer);
      var at = fromForm && !line ? resolve(pointer) : null;
      var item = el("li", {id: "fault-" + (n + 1)});
      if (line) {
        item.appendChild(el("code", {text: t("line") + " " + line[1], title: pointer}));
      } else if (at) {
        var where = el("a", {href: "#", "class": "where"}, [el("code", {text: at.label, title: pointer})]);
        item.appendChild(where);
        if (at.input) {
          var input = at.input;
          input.setAttribute("aria-invalid", "true");
          input.setAttribute("aria-describedby", item.id);
          input.classList.add("invalid");
          where.onclick = function (event) { event.preventDefault(); input.focus(); };
          first = first || input;
        }
      } else if (pointer !== "/text") {
        item.appendChild(el("code", {text: pointer || "/"}));
      }
      item.appendChild(document.createTextNode((item.firstChild ? " " : "") + e.detail));
      list.appendChild(item);
    });
    faultsBox.appendChild(list);
    faultsBox.hidden = false;
    faultsBox.scrollIntoView();
  }

  var shareButton = document.getElementById("share"), shareOut = document.getElementById("share-out");
  var shareLink = document.getElementById("share-link"), shareFault = document.getElementById("share-fault");
  var copyButton = document.getElementById("share-copy"), copyWord = copyButton.textContent;
  var lastLog = null;

  function show(answer, fromForm) {
    var result = document.getElementById("result");
    result.hidden = true;
    if (answer.errors || answer.status >= 400) {
      showFaults(answer.errors || [{pointer: "", detail: answer.detail}], fromForm);
      return;
    }
    clearFaults();
    lastLog = answer.log;
    shareOut.hidden = true;
    shareFault.hidden = true;
    shareButton.disabled = false;
    var w = answer.words, r = answer.ruling, box = document.getElementById("ruling");
    box.innerHTML = "";
    var cls = r.legal === true ? "legal" : r.legal === false ? "illegal" : "none";
    box.appendChild(el("section", {"class": "asked"}, [el("h2", {text: t("Asked")}),
      el("p", {"class": "step", text: t("Step 1") + ": " + w.step})].concat(w.asked ? [el("p", {"class": "question", text: w.asked})] : [])));
    box.appendChild(el("section", {"class": "answer " + cls}, [el("h2", {text: t("Answer")}),
      el("p", {"class": "answer-text", text: w.answer})]));
    function list(title, items, empty, ordered) {
      var l = el(ordered ? "ol" : "ul");
      items.forEach(function (t) { l.appendChild(el("li", {text: t})); });
      return el("section", {}, [el("h2", {text: title}), items.length ? l : el("p", {"class": "muted", text: empty})]);
    }
    box.appendChild(list(t("What happened"), w.events, t("Nothing."), true));
    box.appendChild(list(t("What changed on the table"), w.changes, t("Nothing.")));
    var dl = el("dl");
    w.rules.forEach(function (rule) {
      dl.appendChild(el("dt", {}, [el("a", {href: "/rules/" + rule.id.split(".")[0] + "#" + rule.id, text: rule.id})]));
      dl.appendChild(el("dd", {text: rule.summary}));
    });
    box.appendChild(el("section", {"class": "rules-applied"}, [el("h2", {text: t("Rules applied")}), dl]));
    var json = JSON.stringify(answer.log, null, 1);
    document.getElementById("log-json").textContent = json;
    document.getElementById("log-download").href = "data:application/json," + encodeURIComponent(json);
    result.hidden = false;
    result.scrollIntoView();
  }

  var asked = 0;  // the last question asked: only its answer is shown
  function ask(body, fromForm) {
    var n = ++asked;
    clearFaults();
    fetch("/position", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)})
      .then(function (resp) { return resp.json(); })
      .then(function (answer) { if (n === asked) show(answer, fromForm); })
      .catch(function (err) { if (n === asked) show({status: 500, detail: String(err)}, fromForm); });
  }

  // the stored ruling of the answer shown (POST /v1/rulings: its log, step 1 asked): a link to its page
  shareButton.onclick = function () {
    shareButton.disabled = true;
    shareFault.hidden = true;
    fetch("/v1/rulings", {method: "POST", headers: {"Content-Type": "application/json"},
                          body: JSON.stringify({log: lastLog, at: 1})})
      .then(function (resp) { return resp.json().then(function (body) { return {ok: resp.ok, body: body}; }); })
      .then(function (r) {
        if (!r.ok || !r.body.id) throw new Error(r.body.detail || r.body.title || "?");
        var url = location.origin + "/rulings/" + encodeURIComponent(r.body.id);
        shareLink.href = url;
        shareLink.textContent = url;
        copyButton.textContent = copyWord;
        shareOut.hidden = false;
      })
      .catch(function (err) {
        shareFault.textContent = t("share_failed") + " " + err.message;
        shareFault.hidden = false;
        shareButton.disabled = false;
      });
  };
  copyButton.onclick = function () {
    var url = shareLink.href;
    function copied() { copyButton.textContent = t("Copied"); }
    function byHand() {  // (no clipboard API outside a secure context: the old way)
      var area = el("textarea", {readonly: "", "class": "offscreen"});
      area.value = url;
      document.body.appendChild(area);
      area.select();
      try { if (document.execCommand("copy")) copied(); } catch (e) { /* the link stays to copy by hand */ }
      area.remove();
    }
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(url).then(copied, byHand);
    else byHand();
  };
  document.getElementById("print").onclick = function () { window.print(); };

  var compactText = document.getElementById("compact-text");
  function ruleText() {
    // blank, or only # comments: nothing to send (the server would say the same, in the API's words)
    var lines = compactText.value.split(/\r\n|\r|\n/).map(function (l) { return l.trim(); });
    if (!lines.some(function (l) { return l && l.charAt(0) !== "#"; })) {
      asked++;
      document.getElementById("result").hidden = true;
      clearFaults();
      faultsBox.appendChild(el("p", {"class": "nothing", text: t("nothing")}));
      faultsBox.hidden = false;
      faultsBox.scrollIntoView();
      compactText.focus();
      return;
    }
    ask({game: game, text: compactText.value}, false);
  }
  // Ctrl+Enter (Cmd+Enter on a Mac) asks, from the compact text or from any field of the form
  function onCtrlEnter(node, go) {
    node.addEventListener("keydown", function (event) {
      if (event.key === "Enter" && (event.ctrlKey || event.metaKey) && !event.isComposing) {
        event.preventDefault();
        go();
      }
    });
  }
  document.getElementById("rule-text").onclick = ruleText;
  onCtrlEnter(compactText, ruleText);
  if (!form) {  // the compact text alone: the example is loaded into it again
    document.getElementById("load-example").onclick = function () {
      // (JSON: a text in a script element is not unescaped, and an example has "->" in it)
      compactText.value = JSON.parse(document.getElementById("example-text").textContent);
    };
    return;
  }
  form.addEventListener("submit", function (event) { event.preventDefault(); ask(spec(), true); });
  // a submit the browser blocks (a number past its min or max, the step left empty) fires "invalid"
  // on each such field, and no "submit": the faults of the last answer go all the same
  form.addEventListener("invalid", clearFaults, true);
  form.addEventListener("input", function (event) {
    if (event.target.getAttribute("aria-invalid")) unmark(event.target);
  });
  onCtrlEnter(form, function () {
    var rule = document.getElementById("rule");
    if (form.requestSubmit) form.requestSubmit(rule); else rule.click();
  });
  document.getElementById("add-player").onclick = function () { addPlayer(); };
  document.getElementById("load-example").onclick = function () {
    playersBox.innerHTML = "";
    addPlayer({id: "p1", name: "Ana", resources: 2, hand: 0, deck: 10,
               characters: [{card: "Luke Skywalker - Unlikely Hero", dice: 2, shields: 2, exhausted: true}],
               dice: [{card: "Luke Skywalker", die: 1, face: "1Sh"}, {card: "Luke Skywalker", die: 2, face: "1Sh"}]});
    addPlayer({id: "p2", name: "Ben", resources: 2, hand: 3, deck: 12, characters: [{card: "Boba Fett", dice: 2}]});
    form.elements.round.value = 5;
    form.elements.turn.value = "p1";
    form.elements.battlefield.value = "Outer Rim Outpost";
    form.elements.controller.value = "p1";
    form.elements.ask.value = "p1 resolve Luke Skywalker/1 -> Luke Skywalker, Luke Skywalker/2 -> Luke Skywalker";
    form.elements.dispute.value = "Luke has 2 shields. Does the second die give him a fourth?";
  };
  addPlayer();
  addPlayer();
})();
