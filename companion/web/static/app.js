// The phone view: listens to the box's event stream and draws each snapshot.
// No framework, no inline script (the page's CSP allows only this file); text is
// always set with textContent, the boards' SVG comes from the box itself.
"use strict";

(function () {
  var COLOUR = { r: "#d62728", b: "#1f5ec8", g: "#22963c", y: "#e1b400" };
  var MARK_INK = { r: "#ffffff", b: "#ffffff", g: "#ffffff", y: "#3a2f00" };
  var MARKS = { r: "dot", b: "diamond", g: "stripe", y: "triangle" };
  var PIPS = { 1: [4], 2: [2, 6], 3: [2, 4, 6], 4: [1, 2, 6, 7], 5: [1, 2, 4, 6, 7],
               6: [1, 2, 3, 5, 6, 7] };
  var SVGNS = "http://www.w3.org/2000/svg";

  var source = null;
  var retryTimer = null;
  var watchdog = null;
  var backoff = 1000;
  var keepaliveMs = 15000;
  var shown = {};

  function $(id) { return document.getElementById(id); }

  function make(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined && text !== null) { e.textContent = String(text); }
    return e;
  }

  function svg(tag, attrs) {
    var e = document.createElementNS(SVGNS, tag);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    return e;
  }

  // A piece of a colour with its mark, as on the board (the colour is never told by hue alone).
  function markIcon(colour) {
    var s = svg("svg", { viewBox: "0 0 30 30", "aria-hidden": "true" });
    var fill = COLOUR[colour] || "#888";
    var ink = MARK_INK[colour] || "#fff";
    s.appendChild(svg("circle", { cx: 15, cy: 15, r: 13, fill: fill, stroke: "#1e1e1e", "stroke-width": 1.8 }));
    var m = MARKS[colour];
    if (m === "dot") { s.appendChild(svg("circle", { cx: 15, cy: 15, r: 5.2, fill: ink })); }
    if (m === "diamond") { s.appendChild(svg("polygon", { points: "15,7 21,15 15,23 9,15", fill: ink })); }
    if (m === "stripe") { s.appendChild(svg("rect", { x: 6.4, y: 12.4, width: 17.2, height: 5.2, rx: 1, fill: ink })); }
    if (m === "triangle") { s.appendChild(svg("polygon", { points: "15,7 22.3,20 7.7,20", fill: ink })); }
    return s;
  }

  function die(value) {
    var d = make("span", "die" + (value === 6 ? " six" : ""));
    d.setAttribute("role", "img");
    d.setAttribute("aria-label", String(value));
    d.dataset.value = String(value);
    (PIPS[value] || []).forEach(function (p) { d.appendChild(make("span", "pip p" + p)); });
    return d;
  }

  function setLink(state, text) {
    var link = $("link");
    link.dataset.state = state;
    $("link-text").textContent = text;
  }

  function changed(key, value) {
    var text = JSON.stringify(value === undefined ? null : value);
    if (shown[key] === text) { return false; }
    shown[key] = text;
    return true;
  }

  function fill(tbody, rows) {
    tbody.textContent = "";
    rows.forEach(function (cells) {
      var tr = make("tr");
      cells.forEach(function (c) {
        var td = make("td", c.cls || "", c.text);
        if (c.node) { td.appendChild(c.node); }
        tr.appendChild(td);
      });
      tbody.appendChild(tr);
    });
  }

  function list(el, items) {
    el.textContent = "";
    items.forEach(function (t) { el.appendChild(make("li", "", t)); });
  }

  function renderBoard(board) {
    if (!board || (!board.base && !board.top)) { $("board").hidden = true; return; }
    $("board").hidden = false;
    var img = $("board-base");
    if (changed("base", board.base)) {
      if (board.base) { img.src = board.base; img.hidden = false; }
      else { img.removeAttribute("src"); img.hidden = true; }
      $("board").classList.toggle("no-base", !board.base);
    }
    if (changed("top", board.top)) {
      var top = $("board-top");
      var doc = new DOMParser().parseFromString(board.top || "<svg xmlns='" + SVGNS + "'/>", "image/svg+xml");
      var root = doc.documentElement;
      top.textContent = "";
      if (root && root.nodeName === "svg" && !doc.getElementsByTagName("parsererror").length) {
        top.appendChild(document.importNode(root, true));
      }
    }
  }

  function who(colour, name) {
    var span = make("span", "who");
    if (colour) { span.appendChild(markIcon(colour)); }
    span.appendChild(make("span", "", name));
    return span;
  }

  function renderTouches(g) {
    $("touches-box").hidden = !g;
    if (!g || !changed("touches", g)) { return; }
    $("ruling-title").textContent = g.provisional ? "Verdikt (chvíle ještě běží)" : "Verdikt";
    list($("ruling"), g.ruling.length ? g.ruling : ["Zatím není co rozsoudit."]);
    list($("why"), g.why);
    var calls = g.calls || [];
    list($("calls"), calls);
    $("calls-title").hidden = !calls.length;
    var precision = $("precision");
    var within = g.uncertainty_ms > 0 ? String(Math.round(g.uncertainty_ms * 10) / 10).replace(".", ",") : "";
    precision.hidden = !within;
    precision.textContent = within ? "Podložky rozliší doteky nejvýš na ±" + within +
      " ms; bližší doteky jsou současné a rozhoduje pořadí podle pravidel." : "";
    fill($("moment").tBodies[0], g.moment.map(function (t) {
      var kind = t.kind + (t.tied ? " (současně)" : "");
      return [{ text: t.n }, { text: "H" + t.seat }, { text: t.target },
              { text: kind, cls: "k-" + t.kind + (t.tied ? " tied" : "") },
              { text: t.after, cls: "num" }];
    }));
    fill($("log").tBodies[0], g.log.slice().reverse().map(function (t) {
      return [{ text: t.n }, { text: "H" + t.seat }, { text: t.target }, { text: t.after, cls: "num" }];
    }));
    $("log").hidden = $("log-title").hidden = !g.log.length;  // the virtual deck keeps no log
  }

  function renderLedger(rows) {
    $("ledger-box").hidden = !rows.length;
    if (!changed("ledger", rows)) { return; }
    fill($("ledger").tBodies[0], rows.map(function (r) {
      var owed = String(r.owed) + "×" + (r.glasses ? " + " + r.glasses + " skl." : "") +
          (r.why ? " (" + r.why + ")" : "");
      var due = r.owed + r.glasses > 0;
      return [{ node: who(r.colour, r.name) },
              { text: due ? owed : "—", cls: "num owed" + (due ? " due" : "") },
              { text: r.drunk, cls: "num" }, { text: r.tonight, cls: "num" }];
    }));
  }

  function renderRules(rules) {
    $("rules-box").hidden = !rules.length;
    if (!changed("rules", rules)) { return; }
    var box = $("rules");
    var open = {};
    Array.prototype.forEach.call(box.querySelectorAll("details[open]"), function (d) {
      open[d.dataset.title] = true;
    });
    box.textContent = "";
    rules.forEach(function (r) {
      var d = make("details");
      d.dataset.title = r.title;
      if (open[r.title]) { d.open = true; }
      d.appendChild(make("summary", "", r.title));
      d.appendChild(make("p", "", r.text));
      box.appendChild(d);
    });
  }

  function render(s) {
    document.body.dataset.seq = String(s.seq || 0);
    if (!s.game) { return; }
    document.body.dataset.game = s.game;
    document.title = s.title + " · Společník u stolu";
    $("title").textContent = s.title;
    var status = $("status");
    if (status.textContent !== s.status) {
      status.textContent = s.status;
      status.classList.remove("fresh");
      void status.offsetWidth; // restart the highlight animation
      status.classList.add("fresh");
    }
    var turn = $("turn");
    turn.hidden = !s.turn;
    if (s.turn && changed("turn", s.turn)) {
      var mark = $("turn-mark");
      mark.textContent = "";
      if (s.turn.colour) { mark.appendChild(markIcon(s.turn.colour)); }
      $("turn-name").textContent = s.turn.name + (s.turn.mark ? " (" + s.turn.mark + ")" : "");
      turn.dataset.colour = s.turn.colour || "";
    }
    $("throws-box").hidden = !s.throws.length;
    if (changed("throws", s.throws)) {
      var throws = $("throws");
      throws.textContent = "";
      s.throws.forEach(function (v) { throws.appendChild(die(v)); });
      throws.dataset.values = s.throws.join(",");
    }
    $("now-row").hidden = turn.hidden && $("throws-box").hidden;
    renderBoard(s.board);
    $("card-box").hidden = !s.card;
    $("card-text").textContent = s.card || "";
    renderTouches(s.touches);
    renderLedger(s.ledger || []);
    $("events-box").hidden = !s.events.length;
    if (changed("events", s.events)) { list($("events"), s.events.slice().reverse()); }
    renderRules(s.rules || []);
  }

  // --- the connection: EventSource reconnects by itself after a dropped stream; the
  // watchdog also catches a stream that went silent (Wi-Fi gone without a goodbye)
  // and a refused one (the box full or restarting), which EventSource gives up on.

  function alive() {
    clearTimeout(watchdog);
    watchdog = setTimeout(function () {
      setLink("lost", "Spojení se odmlčelo, připojuji znovu…");
      retry();
    }, keepaliveMs * 2.5 + 2000);
  }

  function retry() {
    if (source) { source.close(); source = null; }
    clearTimeout(retryTimer);
    retryTimer = setTimeout(connect, backoff);
    backoff = Math.min(backoff * 2, 10000);
  }

  function connect() {
    clearTimeout(retryTimer);
    if (source) { source.close(); }
    setLink("connecting", "Připojuji se…");
    source = new EventSource("events");
    source.addEventListener("hello", function (e) {
      var hello = JSON.parse(e.data);
      if (hello.keepalive) { keepaliveMs = hello.keepalive * 1000; }
      backoff = 1000;
      setLink("live", "Živě");
      alive();
    });
    source.addEventListener("snapshot", function (e) {
      alive();
      render(JSON.parse(e.data));
    });
    source.addEventListener("ping", alive);
    source.onerror = function () {
      setLink("lost", "Spojení ztraceno, zkouším to znovu…");
      if (source && source.readyState === EventSource.CLOSED) { retry(); }
    };
    alive();
  }

  document.addEventListener("visibilitychange", function () {
    if (!document.hidden && (!source || source.readyState === EventSource.CLOSED)) { connect(); }
  });
  window.addEventListener("online", connect);
  connect();
})();
