// rulings: the change report between any two versions in a static export, made in the browser.
//
// The export writes a report page for each pair of consecutive versions only (linear in versions), and a
// snapshot of each version (<game>/v/<version>/edition.js: compare.edition_snapshot). This script, loaded by
// the picker's page (<game>/changes/index.html?from=A&to=B), loads the two snapshots and compares them as
// compare.changes does: glossary terms added, removed, renamed and changed (their texts' digests differ, or a
// text between is not fully known); numbered rules added, removed, changed (their words differ) and
// renumbered (only their number differs). Redlines are word diffs of the two texts, made here.
(function () {
  "use strict";
  var report = document.getElementById("report");
  if (!report) { return; }
  var rootMeta = document.querySelector('meta[name="rulings-root"]');
  var root = rootMeta ? rootMeta.getAttribute("content") : "/";
  var game = report.getAttribute("data-game");
  var labels = JSON.parse(report.getAttribute("data-versions"));
  var params = new URLSearchParams(location.search);
  var start = params.get("from") || labels[labels.length - 2], end = params.get("to") || labels[labels.length - 1];

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) { node.textContent = text; }
    return node;
  }
  function page(path) { return root + game + "/" + path + "/index.html"; }
  function pinned(version, kind, key) { return page("v/" + encodeURIComponent(version) + "/" + kind + "/" + key); }
  function say(text) { report.innerHTML = ""; report.appendChild(el("p", { "class": "muted" }, text)); }

  var a = labels.indexOf(start), b = labels.indexOf(end);
  if (a < 0 || b < 0) { say("No version " + (a < 0 ? start : end) + " here."); return; }
  if (a > b) { say("The range " + start + ".." + end + " runs backwards; ask for " + end + ".." + start + "."); return; }
  document.getElementById("span").textContent = start + " \u2192 " + end;
  document.title = document.title.replace("between two versions", start + " \u2192 " + end);
  ["from", "to"].forEach(function (id, i) { document.getElementById(id).value = i ? end : start; });

  function load(label, done) {
    var loaded = (window.RULINGS_EDITIONS || {})[label];
    if (loaded) { done(loaded); return; }
    var script = el("script", { src: root + game + "/v/" + encodeURIComponent(label) + "/edition.js" });
    script.onload = function () { done(window.RULINGS_EDITIONS[label]); };
    script.onerror = function () { say("The texts of " + label + " could not be loaded."); };
    document.head.appendChild(script);
  }
  say("Comparing " + start + " with " + end + "\u2026");
  load(start, function (old) { load(end, function (now) { show(compare(old, now, a)); }); });

  // -- comparing two snapshots, as compare.changes does ------------------------------------------
  function keyed(list) { var out = {}; list.forEach(function (item) { out[item[0]] = item; }); return out; }
  function keys(x, y) { return Object.keys(Object.assign({}, x, y)); }
  function byName(x, y) { return x.name.toLowerCase() < y.name.toLowerCase() ? -1 : x.name.toLowerCase() > y.name.toLowerCase() ? 1 : 0; }

  function terms(oldList, newList, from) {
    var old = keyed(oldList), now = keyed(newList), out = { added: [], removed: [], changed: [], renamed: [] };
    keys(old, now).forEach(function (slug) {
      var o = old[slug], n = now[slug];
      if (!o) { out.added.push({ slug: slug, name: n[1] }); return; }
      if (!n) { out.removed.push({ slug: slug, name: o[1] }); return; }
      if (o[2] === n[2]) { return; }  // the same revision in force at both
      if (o[3] !== n[3]) { out.renamed.push({ slug: slug, name: n[1], was: o[1] }); }
      if (o[4] !== n[4] || n[6] > from) {
        out.changed.push({ slug: slug, name: n[1], was: o[3] !== n[3] ? o[1] : null, version: n[2], old: o[5], now: n[5] });
      }
    });
    Object.keys(out).forEach(function (kind) { out[kind].sort(byName); });
    return out;
  }

  function numberKey(number) {
    return (number.match(/\d+|[a-z]+/g) || []).map(function (p) { return /\d/.test(p) ? [parseInt(p, 10), ""] : [0, p]; });
  }
  function compareKeys(x, y) {
    for (var i = 0; i < Math.min(x.length, y.length); i++) {
      if (x[i][0] !== y[i][0]) { return x[i][0] - y[i][0]; }
      if (x[i][1] !== y[i][1]) { return x[i][1] < y[i][1] ? -1 : 1; }
    }
    return x.length - y.length;
  }
  var RANK = { chapter: 0, section: 1, rule: 2 };
  function byNumber(x, y) { return (RANK[x.kind] - RANK[y.kind]) || compareKeys(numberKey(x.number), numberKey(y.number)); }

  function rules(oldList, newList) {
    var old = keyed(oldList), now = keyed(newList), out = { changed: [], moved: [], added: [], removed: [] };
    keys(old, now).forEach(function (slug) {
      var o = old[slug], n = now[slug], item = n || o;
      var shown = { slug: slug, kind: item[1], number: item[2], title: item[3], version: item[4] };
      if (!o) { shown.text = n[6]; out.added.push(shown); return; }
      if (!n) { shown.text = o[6]; out.removed.push(shown); return; }
      if (o[4] === n[4]) { return; }
      if (o[5] === n[5]) {
        if (o[2] !== n[2]) { shown.was = o[2]; out.moved.push(shown); }
        return;
      }
      shown.was = o[2] !== n[2] ? o[2] : null;
      shown.wasTitle = o[3] !== n[3] ? o[3] : null;
      shown.old = o[6]; shown.now = n[6];
      out.changed.push(shown);
    });
    Object.keys(out).forEach(function (kind) { out[kind].sort(byNumber); });
    return out;
  }

  function compare(old, now, from) {
    var out = { glossary: terms(old.terms, now.terms, from), matter: terms(old.matter, now.matter, from) };
    if (old.rules.length || now.rules.length) { out.rules = rules(old.rules, now.rules); }
    return out;
  }

  // -- a word diff, as compare.word_diff: paragraphs aligned first, then words --------------------------
  function fold(token) {
    return token.replace(/[\u2018\u2019\u201b\u2032]/g, "'").replace(/[\u201c\u201d\u201f\u2033]/g, '"')
      .replace(/[\u2010-\u2015\u2212]/g, "-").trim();
  }
  function lcs(x, y) {  // the pairs (i, j) of a longest common subsequence of two lists of keys
    var n = x.length, m = y.length, i, j, width = m + 1;
    if (n * m > 4000000) { return []; }  // too long to align word by word: shown deleted and inserted whole
    var table = new Uint32Array((n + 1) * width);
    for (i = n - 1; i >= 0; i--) {
      for (j = m - 1; j >= 0; j--) {
        table[i * width + j] = x[i] === y[j] ? table[(i + 1) * width + j + 1] + 1
          : Math.max(table[(i + 1) * width + j], table[i * width + j + 1]);
      }
    }
    var pairs = [];
    for (i = 0, j = 0; i < n && j < m;) {
      if (x[i] === y[j]) { pairs.push([i, j]); i++; j++; }
      else if (table[(i + 1) * width + j] >= table[i * width + j + 1]) { i++; } else { j++; }
    }
    return pairs;
  }
  function diff(oldText, newText) {
    var ops = [];
    function add(op, text) {
      if (!text) { return; }
      if (ops.length && ops[ops.length - 1].op === op) { ops[ops.length - 1].text += text; } else { ops.push({ op: op, text: text }); }
    }
    function align(x, y, keyOf, same, differ) {  // walks two lists, matched items to same(), the runs between to differ()
      var at = [0, 0];
      lcs(x.map(keyOf), y.map(keyOf)).concat([[x.length, y.length]]).forEach(function (pair) {
        if (pair[0] > at[0] || pair[1] > at[1]) { differ(x.slice(at[0], pair[0]), y.slice(at[1], pair[1])); }
        if (pair[0] < x.length) { same(y[pair[1]]); }
        at = [pair[0] + 1, pair[1] + 1];
      });
    }
    function words(x, y) {
      align(x.match(/\s*\S+\s*/g) || [], y.match(/\s*\S+\s*/g) || [], fold, function (t) { add("equal", t); },
        function (gone, come) { add("delete", gone.join("")); add("insert", come.join("")); });
    }
    var x = oldText.split("\n"), y = newText.split("\n");
    align(x.map(function (p, i) { return i < x.length - 1 ? p + "\n" : p; }),
      y.map(function (p, i) { return i < y.length - 1 ? p + "\n" : p; }), fold,
      function (p) { add("equal", p); },
      function (gone, come) {
        if (gone.length && come.length) { words(gone.join(""), come.join("")); }
        else { add("delete", gone.join("")); add("insert", come.join("")); }
      });
    return ops;
  }
  // As views.diff_html: line ends stay newlines (.diff keeps them), never doubled by a <br>, and the
  // spaces and line ends a mark starts or ends with are left outside it.
  var EDGES = /^(\s*)([\s\S]*?)(\s*)$/;
  function redline(oldText, newText) {
    var box = el("div", { "class": "diff" });
    diff(oldText, newText).forEach(function (op) {
      if (op.op === "equal") { box.appendChild(document.createTextNode(op.text)); return; }
      var parts = EDGES.exec(op.text);
      if (!parts[2]) {  // only spaces or line ends: an insertion shown, a deletion not
        if (op.op === "insert") { box.appendChild(document.createTextNode(parts[1])); }
        return;
      }
      box.appendChild(document.createTextNode(parts[1]));
      box.appendChild(el(op.op === "insert" ? "ins" : "del", {}, parts[2]));
      box.appendChild(document.createTextNode(parts[3]));
    });
    return box;
  }

  // -- the report, as templates/changes.html shows it ---------------------------------------------
  function counts(label, found, order, words, prefix) {
    var p = el("p", { "class": "counts" }, label);
    order.forEach(function (kind, i) {
      var link = p.appendChild(el("a", { href: "#" + prefix + kind }));
      link.appendChild(el("strong", {}, String(found[kind].filter(function (x) { return !x.kind || x.kind === "rule"; }).length)));
      link.appendChild(document.createTextNode(" " + (words[kind] || kind)));
      if (i < order.length - 1) { p.appendChild(document.createTextNode(" \u00b7 ")); }
    });
    return p;
  }
  function section(id, title, items, fill, level) {
    var box = el("section", { id: id });
    box.appendChild(el(level || "h2", {}, title + " (" + items.length + ")"));
    if (!items.length) { box.appendChild(el("p", { "class": "muted" }, "None.")); }
    items.forEach(function (item) { box.appendChild(fill(item)); });
    return box;
  }
  function heading(item) { return item.title ? item.number + ". " + item.title : item.number; }
  function line(link, href, note) {
    var li = el("li");
    li.appendChild(el("a", { href: href }, link));
    if (note) { li.appendChild(document.createTextNode(" ")); li.appendChild(el("small", { "class": "muted" }, note)); }
    return li;
  }
  function change(href, name, note, body) {  // a summary holds no link (a control inside a control)
    var details = el("details", { "class": "change" }), summary = details.appendChild(el("summary"));
    summary.appendChild(el("span", { "class": "name" }, name));
    if (note) { summary.appendChild(document.createTextNode(" ")); summary.appendChild(el("small", { "class": "muted" }, note)); }
    details.appendChild(body);
    details.appendChild(el("p", { "class": "open" })).appendChild(el("a", { href: href }, name + " \u2192"));
    return details;
  }
  function list(id, title, items, fill) {
    var box = el("section", { id: id }), ul = el("ul", { "class": "columns" });
    box.appendChild(el("h2", {}, title + " (" + items.length + ")"));
    items.forEach(function (item) { ul.appendChild(fill(item)); });
    if (!items.length) { ul.appendChild(el("li", { "class": "muted" }, "None.")); }
    box.appendChild(ul);
    return box;
  }

  function show(found) {
    report.innerHTML = "";
    var g = found.glossary, r = found.rules;
    report.appendChild(counts(r ? "Glossary: " : "", g, ["changed", "renamed", "added", "removed"], {}, ""));
    if (r) { report.appendChild(counts("Rules: ", r, ["changed", "moved", "added", "removed"], { moved: "renumbered" }, "rules-")); }
    report.appendChild(section("changed", "Changed", g.changed, function (t) {
      return change(pinned(end, "terms", t.slug), t.name, (t.was ? "was " + t.was + " \u00b7 " : "") + "in " + t.version, redline(t.old, t.now));
    }));
    report.appendChild(list("renamed", "Renamed", g.renamed, function (t) { return line(t.name, pinned(end, "terms", t.slug), "was " + t.was); }));
    report.appendChild(list("added", "Added", g.added, function (t) { return line(t.name, pinned(end, "terms", t.slug)); }));
    report.appendChild(list("removed", "Removed", g.removed, function (t) { return line(t.name, pinned(start, "terms", t.slug)); }));
    if (r) {
      var box = report.appendChild(el("section", { id: "rules" }));
      box.appendChild(el("h2", {}, "Numbered rules"));
      box.appendChild(section("rules-changed", "Changed", r.changed, function (x) {
        var note = (x.was ? "was " + x.was + " \u00b7 " : "") + (x.wasTitle ? "was " + x.wasTitle + " \u00b7 " : "") + "in " + x.version;
        return change(pinned(end, "rules", x.number), heading(x), note, redline(x.old, x.now));
      }, "h3"));
      var moved = box.appendChild(el("section", { id: "rules-moved" })), ul = el("ul", { "class": "columns" });
      moved.appendChild(el("h3", {}, "Renumbered, words unchanged (" + r.moved.length + ")"));
      r.moved.forEach(function (x) {
        var li = line(heading(x), pinned(end, "rules", x.number));
        li.insertBefore(document.createTextNode(x.was + " \u2192 "), li.firstChild);
        ul.appendChild(li);
      });
      moved.appendChild(ul);
      [["added", end], ["removed", start]].forEach(function (pair) {
        box.appendChild(section("rules-" + pair[0], pair[0].charAt(0).toUpperCase() + pair[0].slice(1), r[pair[0]], function (x) {
          return change(pinned(pair[1], "rules", x.number), heading(x), x.kind, el("blockquote", { "class": "text" }, x.text));
        }, "h3"));
      });
    }
    var matter = found.matter, names = [];
    ["changed", "added", "removed"].forEach(function (kind) {
      if (matter[kind].length) { names.push(kind + ": " + matter[kind].map(function (t) { return t.name; }).join(", ")); }
    });
    if (names.length) {
      var apart = report.appendChild(el("section", { id: "matter" }));
      apart.appendChild(el("h2", {}, "Front and back matter"));
      apart.appendChild(el("p", { "class": "muted" }, "Not rules nor glossary terms: " + names.join("; ") + "."));
    }
  }
})();
