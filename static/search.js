// rulings: search in a static export, from the exported index (search/shards/<game>.js, one file a game).
// Loaded by the search page, or by app.js once a search box is typed in: never by every page.
// Ranks as the server does in spirit: words (lightly stemmed) in titles first, then names, then texts
// (BM25), a kind's prior, how much of the query a text covers; a misspelled word is corrected from the
// index's own words when that answers clearly more of the query.
(function () {
  "use strict";
  var rootMeta = document.querySelector('meta[name="rulings-root"]');
  var root = rootMeta ? rootMeta.getAttribute("content") : "";
  var ALL_GAMES_BYTES = 4 << 20;  // every game at once only while their indexes stay this small
  var KINDS = { term: "term", subdefinition: "subdefinition", section: "section", ruling: "ruling",
                keyword: "subdefinition", faq: "ruling", errata: "ruling", clarification: "ruling" };
  var PRIOR = { term: 1.0, subdefinition: 0.85, section: 0.85, ruling: 0.8 };
  var prepared = {};  // game -> its documents, ready to rank

  // -- loading ----------------------------------------------------------------------------------
  function script(path, done) {
    var node = document.createElement("script");
    node.src = root + path;
    node.onload = node.onerror = function () { done(); };
    document.head.appendChild(node);
  }
  function games(done) {
    if (window.RULINGS_GAMES) { done(window.RULINGS_GAMES); return; }
    script("search/games.js", function () { done(window.RULINGS_GAMES || []); });
  }
  function shard(game, done) {
    var shards = window.RULINGS_SHARDS || {};
    if (shards[game.slug]) { done(shards[game.slug]); return; }
    script("search/shards/" + encodeURIComponent(game.slug) + ".js", function () {
      done((window.RULINGS_SHARDS || {})[game.slug] || null);
    });
  }
  // done(collections, note): the prepared documents of one game (or of all, while small enough).
  function load(slug, done) {
    games(function (list) {
      var wanted = slug ? list.filter(function (g) { return g.slug === slug; }) : list;
      var bytes = wanted.reduce(function (sum, g) { return sum + g.bytes; }, 0);
      if (!slug && bytes > ALL_GAMES_BYTES) {
        done([], "Too many games to search at once from files: pick a game.", list);
        return;
      }
      var left = wanted.length, out = [];
      if (!left) { done([], slug ? "No index for this game." : "", list); return; }
      wanted.forEach(function (game) {
        shard(game, function (data) {
          if (data) { out.push(prepared[game.slug] || (prepared[game.slug] = prepare(data))); }
          if (--left === 0) { done(out, "", list); }
        });
      });
    });
  }

  // -- words -------------------------------------------------------------------------------------
  function fold(text) { return text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase(); }
  function words(text) { return fold(text).split(/[^a-z0-9]+/).filter(Boolean); }
  // Inflections only ("stunned" and "stun", "heroes" and "hero", "attacking" and "attack").
  function stem(word) {
    if (word.length <= 3 || !/^[a-z]+$/.test(word)) { return word; }
    if (/ies$/.test(word)) { word = word.slice(0, -3) + "y"; }
    else if (/(ss|x|ch|sh)es$/.test(word)) { word = word.slice(0, -2); }
    else if (/[^su]s$/.test(word)) { word = word.slice(0, -1); }
    var bare = word.replace(/(ing|ed)$/, "");
    if (bare !== word && bare.length >= 3 && /[aeiouy]/.test(bare)) {
      word = /([^aeioulsz])\1$/.test(bare) ? bare.slice(0, -1) : bare;
    }
    return word.length > 3 ? word.replace(/e$/, "") : word;
  }
  function counts(list) {
    var out = {};
    list.forEach(function (w) { var s = stem(w); out[s] = (out[s] || 0) + 1; });
    return out;
  }

  // Each document's stems, and the game's words with how many documents hold them (for spelling).
  function prepare(data) {
    var spelled = {}, total = 0;
    var docs = data.docs.map(function (doc) {
      var text = words(doc.text), titled = words(doc.title), named = words((doc.names || []).join(" "));
      var seen = {};
      titled.concat(named, text).forEach(function (w) {
        if (!seen[w]) { seen[w] = true; spelled[w] = (spelled[w] || 0) + 1; }
      });
      total += text.length;
      return { doc: doc, game: data.name, slug: data.game, title: counts(titled), names: counts(named),
               text: counts(text), length: text.length, key: words(doc.title).join(" ") };
    });
    return { docs: docs, spelled: spelled, average: total / Math.max(1, docs.length) };
  }

  // -- ranking -----------------------------------------------------------------------------------
  function rank(collections, query, kind) {
    var stems = Object.keys(counts(words(query)));
    var all = [], df = {}, n = 0;
    collections.forEach(function (c) { c.docs.forEach(function (d) { if (matchesKind(d.doc, kind)) { all.push([c, d]); } }); });
    all.forEach(function (pair) {
      n += 1;
      stems.forEach(function (s) { if (pair[1].text[s] || pair[1].title[s] || pair[1].names[s]) { df[s] = (df[s] || 0) + 1; } });
    });
    var weight = {}, wanted = 0;
    stems.forEach(function (s) { weight[s] = Math.log(1 + n / (1 + (df[s] || 0))); wanted += weight[s]; });
    var key = words(query).join(" "), scored = [];
    all.forEach(function (pair) {
      var c = pair[0], d = pair[1], score = 0, covered = 0;
      stems.forEach(function (s) {
        var tf = d.text[s] || 0, body = tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * d.length / c.average));
        var found = 3 * (d.title[s] ? 1 : 0) + 1.5 * (d.names[s] ? 1 : 0) + body;
        if (found) { score += weight[s] * found; covered += weight[s]; }
      });
      if (!score) { return; }
      var coverage = wanted ? covered / wanted : 0;
      if (d.key === key) { score *= 2; }
      score *= (PRIOR[d.doc.kind] || 0.8) * (0.1 + 0.9 * coverage * coverage);
      scored.push({ score: score, coverage: coverage, entry: d });
    });
    scored.sort(function (a, b) { return b.score - a.score; });
    return scored;
  }
  function matchesKind(doc, kind) {
    if (!kind) { return true; }
    if (KINDS[kind] !== doc.kind) { return false; }
    return !(kind === "errata" || kind === "faq" || kind === "clarification") || doc.subkind === kind;
  }

  // -- spelling: the server's rule (one edit from five letters, two from eight, same first letter) --
  function edits(a, b) {
    var before = [], row = [], i, j, prev = [];
    for (j = 0; j <= b.length; j++) { prev.push(j); }
    for (i = 1; i <= a.length; i++) {
      row = [i];
      for (j = 1; j <= b.length; j++) {
        var cost = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) { cost = Math.min(cost, before[j - 2] + 1); }
        row.push(cost);
      }
      before = prev; prev = row;
    }
    return prev[b.length];
  }
  function correct(collections, query) {
    var changed = false;
    var fixed = words(query).map(function (w) {
      var known = collections.some(function (c) { return c.spelled[w]; });
      if (known || w.length < 5 || !/^[a-z]+$/.test(w)) { return w; }
      var allowed = w.length >= 8 ? 2 : 1, best = null;
      collections.forEach(function (c) {
        Object.keys(c.spelled).forEach(function (v) {
          if (v[0] !== w[0] || Math.abs(v.length - w.length) > allowed) { return; }
          var d = edits(w, v);
          if (d <= allowed && (!best || d < best.d || (d === best.d && c.spelled[v] > best.df))) {
            best = { d: d, df: c.spelled[v], word: v };
          }
        });
      });
      if (best) { changed = true; return best.word; }
      return w;
    });
    return changed ? fixed.join(" ") : null;
  }

  // -- what a hit shows: the block that answers best, a snippet around the first word found --------
  function hit(found, query) {
    var d = found.entry, doc = d.doc, stems = counts(words(query)), lines = doc.text.split("\n");
    var best = 0, bestCount = -1;
    lines.forEach(function (line, i) {
      var hits = words(line).filter(function (w) { return stems[stem(w)]; }).length;
      if (hits > bestCount) { best = i; bestCount = hits; }
    });
    var url = doc.url;
    if (doc.anchors && bestCount > 0 && url.indexOf("#") < 0) { url += "#" + doc.anchors[best]; }
    var line = lines[best], marks = [], re = /[\p{L}\p{N}]+/gu, m;
    while ((m = re.exec(line))) {
      if (stems[stem(fold(m[0]))]) { marks.push([m.index, m.index + m[0].length]); }
    }
    var start = marks.length ? Math.max(0, marks[0][0] - 60) : 0;
    if (start) { start = line.indexOf(" ", start) + 1 || start; }
    var text = (start ? "\u2026" : "") + line.slice(start, start + 220) + (line.length > start + 220 ? "\u2026" : "");
    var shift = start ? 1 - start : 0;
    return { title: doc.title, url: root + url, kind: doc.kind, game: d.game, snippet: text,
             marks: marks.map(function (r) { return [r[0] + shift, r[1] + shift]; })
                         .filter(function (r) { return r[0] >= 0 && r[1] <= text.length; }) };
  }

  // search(query, {game, kind, limit}, done): done({hits, corrected, note, suggestions}).
  function search(query, options, done) {
    load(options.game || "", function (collections, note, list) {
      var limit = options.limit || 20, kind = KINDS[options.kind] ? options.kind : "";
      var found = rank(collections, query, kind), corrected = null;
      var coverage = found.length ? found[0].coverage : 0;
      if (coverage < 1) {
        var fixed = correct(collections, query), better = fixed ? rank(collections, fixed, kind) : [];
        if (better.length && better[0].coverage >= Math.max(0.5, coverage + 0.25)) { found = better; corrected = fixed; }
      }
      var suggestions = [];
      if (!found.length) {  // the closest names, as the server offers
        var key = words(query).join(" ");
        collections.forEach(function (c) { c.docs.forEach(function (d) {
          var distance = edits(key, d.key);
          if (distance <= Math.max(2, key.length / 3)) { suggestions.push({ d: distance, name: d.doc.title, url: root + d.doc.url }); }
        }); });
        suggestions.sort(function (a, b) { return a.d - b.d; });
        if (!options.game) {
          list.filter(function (g) { return fold(g.name).indexOf(key) >= 0; }).forEach(function (g) {
            suggestions.unshift({ name: g.name, url: root + g.slug + "/index.html" });
          });
        }
      }
      done({ hits: found.slice(0, limit).map(function (f) { return hit(f, corrected || query); }),
             corrected: corrected, note: note, suggestions: suggestions.slice(0, 5) });
    });
  }
  window.rulingsSearch = { search: search };

  // -- the search page: the query and filters from the URL, results as the server's page shows them --
  var results = document.getElementById("static-results");
  if (!results) { return; }
  var params = new URLSearchParams(location.search);
  var query = (params.get("q") || "").trim(), game = params.get("game") || "", kind = params.get("kind") || "";
  [["q", query], ["q2", query], ["game", game], ["kind", kind]].forEach(function (pair) {
    var field = document.getElementById(pair[0]);
    if (field) { field.value = pair[1]; }
  });
  if (!query) { return; }
  document.title = query + " \u00b7 Search \u00b7 rulings";
  function node(tag, attrs, text) {
    var out = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { out.setAttribute(k, attrs[k]); });
    if (text !== undefined) { out.textContent = text; }
    return out;
  }
  function withMarks(into, text, marks) {
    var at = 0;
    marks.forEach(function (m) {
      into.appendChild(document.createTextNode(text.slice(at, m[0])));
      into.appendChild(node("mark", {}, text.slice(m[0], m[1])));
      at = m[1];
    });
    into.appendChild(document.createTextNode(text.slice(at)));
  }
  results.appendChild(node("p", { class: "muted", role: "status" }, "Searching\u2026"));
  search(query, { game: game, kind: kind }, function (answer) {
    results.textContent = "";
    if (answer.note) { results.appendChild(node("p", { class: "banner incomplete" }, answer.note)); }
    if (answer.corrected) {
      var dym = node("p", { class: "dym" }, "Showing results for ");
      var again = new URLSearchParams(location.search);
      again.set("q", answer.corrected);
      dym.appendChild(node("a", { href: "?" + again.toString() }, answer.corrected));
      dym.appendChild(document.createTextNode("?"));
      results.appendChild(dym);
    }
    var list = node("ol", { class: "hits" });
    answer.hits.forEach(function (h) {
      var li = node("li");
      li.appendChild(node("a", { href: h.url }, h.title));
      li.appendChild(document.createTextNode(" "));
      li.appendChild(node("small", { class: "muted" }, h.kind + " \u00b7 " + h.game));
      var p = node("p");
      withMarks(p, h.snippet, h.marks);
      li.appendChild(p);
      list.appendChild(li);
    });
    if (!answer.hits.length && !answer.note) { list.appendChild(node("li", { class: "muted" }, "No matches.")); }
    results.appendChild(list);
    if (answer.suggestions.length) {
      var closest = node("p", { class: "dym" }, "Closest names: ");
      answer.suggestions.forEach(function (s, i) {
        if (i) { closest.appendChild(document.createTextNode(", ")); }
        closest.appendChild(node("a", { href: s.url }, s.name));
      });
      results.appendChild(closest);
    }
  });
})();
