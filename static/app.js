// rulings: a little progressive enhancement. Every page works without it.
(function () {
  "use strict";
  var isStatic = !!document.querySelector('meta[name="rulings-static"]');
  var rootMeta = document.querySelector('meta[name="rulings-root"]');
  var root = rootMeta ? rootMeta.getAttribute("content") : "/";

  function $(sel, el) { return (el || document).querySelector(sel); }
  function $all(sel, el) { return Array.prototype.slice.call((el || document).querySelectorAll(sel)); }
  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) { node.textContent = text; }
    return node;
  }

  // "/" focuses the search box, unless you are typing somewhere.
  document.addEventListener("keydown", function (event) {
    var tag = (event.target.tagName || "").toLowerCase();
    if (event.key === "/" && tag !== "input" && tag !== "textarea" && tag !== "select" && !event.target.isContentEditable) {
      var box = $("#q");
      if (box) { event.preventDefault(); box.focus(); box.select(); }
    }
  });

  // -- search as you type ---------------------------------------------------
  function staticSearch(query, game) {
    var words = query.toLowerCase().split(/[^a-z0-9+]+/).filter(function (w) { return w.length > 1; });
    if (!words.length || !window.RULINGS_INDEX) { return []; }
    var scored = [];
    window.RULINGS_INDEX.forEach(function (doc) {
      if (game && doc.game !== game) { return; }
      var title = doc.title.toLowerCase(), text = doc.text.toLowerCase(), score = 0, all = true;
      words.forEach(function (w) {
        var stem = w.replace(/(ing|ed|es|s)$/, "");
        var inTitle = title.indexOf(stem) >= 0, inText = text.indexOf(stem) >= 0;
        if (inTitle) { score += 3; }
        if (inText) { score += 1; }
        if (!inTitle && !inText) { all = false; }
      });
      if (title === query.toLowerCase()) { score += 10; }
      if (score > 0) { scored.push({ score: score + (all ? 2 : 0), doc: doc }); }
    });
    scored.sort(function (a, b) { return b.score - a.score; });
    return scored.slice(0, 10).map(function (s) {
      return { title: s.doc.title, url: root + s.doc.path, kind: s.doc.kind, game: s.doc.game,
               snippet: s.doc.text.slice(0, 140) };
    });
  }

  // Text with the query's words in <mark> (marks: [start, end] pairs from the search API).
  function marked(node, text, marks) {
    var at = 0;
    marks.forEach(function (m) {
      if (m[0] >= text.length || m[0] < at) { return; }
      node.appendChild(document.createTextNode(text.slice(at, m[0])));
      node.appendChild(el("mark", {}, text.slice(m[0], Math.min(m[1], text.length))));
      at = Math.min(m[1], text.length);
    });
    node.appendChild(document.createTextNode(text.slice(at)));
  }

  function render(list, hits) {
    list.innerHTML = "";
    hits.forEach(function (hit) {
      var li = el("li"), a = el("a", { href: hit.url });
      a.appendChild(el("span", {}, hit.title));
      var small = el("small", {}, hit.kind + (hit.snippet ? " \u00b7 " : ""));
      marked(small, (hit.snippet || "").slice(0, 160), hit.marks || []);
      a.appendChild(small);
      li.appendChild(a);
      list.appendChild(li);
    });
    list.hidden = hits.length === 0;
  }

  var box = $("#q"), list = $("#instant"), timer = null, seq = 0;
  if (box && list) {
    box.addEventListener("input", function () {
      clearTimeout(timer);
      var query = box.value.trim(), game = box.getAttribute("data-game") || "";
      if (query.length < 2) { render(list, []); return; }
      timer = setTimeout(function () {
        var mine = ++seq;
        if (isStatic) { render(list, staticSearch(query, game)); return; }
        // Term names completing what is typed first, then ranked search results.
        var tail = "q=" + encodeURIComponent(query) + (game ? "&game=" + encodeURIComponent(game) : "");
        function get(url) {
          return fetch(url, { headers: { Accept: "application/json" } })
            .then(function (r) { return r.ok ? r.json() : null; }).catch(function () { return null; });
        }
        Promise.all([get("/api/complete?" + tail), get("/api/search?limit=8&partial=1&" + tail)]).then(function (both) {
          if (mine !== seq) { return; }
          var seen = {}, hits = [];
          (both[0] || []).slice(0, 4).forEach(function (c) {
            seen[c.url] = true;
            hits.push({ title: c.name, url: c.url, kind: c.kind, snippet: game ? "" : c.game_name });
          });
          ((both[1] || {}).hits || []).forEach(function (h) { if (!seen[h.url]) { seen[h.url] = true; hits.push(h); } });
          render(list, hits.slice(0, 10));
        });
      }, 120);
    });
    box.addEventListener("keydown", function (event) {
      if (event.key === "ArrowDown" && !list.hidden) { event.preventDefault(); var a = $("a", list); if (a) { a.focus(); } }
      if (event.key === "Escape") { render(list, []); }
    });
    list.addEventListener("keydown", function (event) {
      var links = $all("a", list), i = links.indexOf(document.activeElement);
      if (event.key === "ArrowDown" && i < links.length - 1) { event.preventDefault(); links[i + 1].focus(); }
      if (event.key === "ArrowUp") { event.preventDefault(); (i > 0 ? links[i - 1] : box).focus(); }
      if (event.key === "Escape") { render(list, []); box.focus(); }
    });
    document.addEventListener("click", function (event) {
      if (!list.contains(event.target) && event.target !== box) { list.hidden = true; }
    });
  }

  // Home page with many games: filter the list as you type (the form works without this).
  var gameFilter = $("#filter"), gameList = $("ul.games");
  if (gameFilter && gameList) {
    gameFilter.addEventListener("input", function () {
      var wanted = gameFilter.value.trim().toLowerCase();
      $all("li", gameList).forEach(function (li) {
        li.hidden = wanted && li.textContent.toLowerCase().indexOf(wanted) < 0;
      });
    });
  }

  // Static export: the search page answers from the bundled index.
  var staticResults = $("#static-results");
  if (isStatic && staticResults) {
    var params = new URLSearchParams(location.search), q = params.get("q") || "";
    if (q) {
      if (box) { box.value = q; }
      var ol = el("ol", { class: "hits" });
      staticSearch(q, params.get("game") || "").forEach(function (hit) {
        var li = el("li");
        li.appendChild(el("a", { href: hit.url }, hit.title));
        li.appendChild(el("p", {}, hit.snippet));
        ol.appendChild(li);
      });
      staticResults.appendChild(el("h2", {}, "Results for \u201c" + q + "\u201d"));
      staticResults.appendChild(ol);
    }
  }

  // -- copy buttons: citations, linked posts, paragraph links -------------------
  function copy(text, output, label) {
    function done() { if (output) { output.textContent = "Copied " + (label || "") + ": " + text; } }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, function () { fallback(text); done(); });
    } else { fallback(text); done(); }
  }
  function fallback(text) {
    var area = el("textarea");
    area.value = text; document.body.appendChild(area); area.select();
    try { document.execCommand("copy"); } catch (e) { /* the text is shown anyway */ }
    document.body.removeChild(area);
  }
  $all("button.copy").forEach(function (button) {
    button.addEventListener("click", function () {
      var from = button.getAttribute("data-copy-from");
      var text = from ? document.getElementById(from).value : button.getAttribute("data-copy");
      var output = button.parentNode.querySelector("output.copied");
      copy(text, output, button.getAttribute("data-label"));
      button.setAttribute("data-copied", text);
    });
  });
  $all(".rule [id]").forEach(function (node) {
    if (!/^(P|LI|DIV)$/.test(node.tagName)) { return; }
    var a = el("a", { href: "#" + node.id, class: "anchor", title: "Copy a link to this paragraph" }, "\u00b6");
    a.addEventListener("click", function (event) {
      event.preventDefault();
      history.replaceState(null, "", "#" + node.id);
      copy(location.href.split("#")[0] + "#" + node.id, $(".cite output.copied"), "link");
    });
    node.insertBefore(a, node.firstChild);
  });
})();
