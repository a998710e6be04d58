// rulings: the linkify tool of a static export, run in the browser. It answers as the server's
// rulings/graph/linkify.py does, from the game's names exported beside the page (<game>/link/names.js,
// rulings/export.py link_names): keep the two in step (tests/test_browser.py compares them).
// Output goes into the page as text only (textContent, value), never as HTML.
(function () {
  "use strict";
  var data = window.RULINGS_LINK_NAMES, ownSlugs = {};
  if (data) { data.terms.forEach(function (term, i) { ownSlugs[term[1]] = i; }); }
  var MENTION = /\[\[([^\[\]|@\n]{1,80})(?:@([^\[\]|\n]{1,20}))?(?:\|([^\[\]\n]{1,80}))?\]\]/gu;
  var FORMATS = ["markdown", "bbcode", "html"];
  var NEAR = 0.85, CLEAR = 0.05;  // graph/answers.py: how close a typo is to the one name it misses
  // Python's str.strip() strips Python's whitespace, which is not JavaScript's trim().
  var SPACE = "\t\n\x0b\x0c\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000";
  var EDGES = new RegExp("^[" + SPACE + "]+|[" + SPACE + "]+$", "g");

  function has(object, key) { return Object.prototype.hasOwnProperty.call(object, key); }
  function strip(text) { return text.replace(EDGES, ""); }
  function escapeHtml(text) {  // Python's html.escape
    return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;").replace(/'/g, "&#x27;");
  }
  function markdownLabel(text) {  // rulings/markup.py markdown_label
    return text.replace(/([\[\]\\])/g, "\\$1");
  }
  function bbcodeText(text) {  // rulings/markup.py bbcode_text: no "[" a forum reads as a tag
    return text.split("[").join("[\u200b");
  }
  function translate(text, table) {
    return Array.from(text).map(function (c) { return has(table, c) ? table[c] : c; }).join("");
  }
  // A mark with a non-zero combining class (what Python's unicodedata.combining tells) is one that
  // canonical ordering moves past U+0345 (class 240) or past U+0334 (class 1).
  function combining(c) {
    return ("\u0345" + c).normalize("NFD") !== "\u0345" + c || (c + "\u0334").normalize("NFD") !== c + "\u0334";
  }

  // -- names, as rulings/text.py compares them ------------------------------------------
  function fold(text) {
    text = translate(text, data.fold.quotes);
    if (/^[\x00-\x7f]*$/.test(text)) { return text; }
    text = translate(text, data.fold.letters).normalize("NFKD");
    return Array.from(text).filter(function (c) { return !combining(c); }).join("");
  }
  function singular(word) {
    if (word.length > 4 && /ies$/.test(word)) { return word.slice(0, -3) + "y"; }
    if (word.length > 3 && /s$/.test(word) && !/(ss|us|is)$/.test(word)) { return word.slice(0, -1); }
    return word;
  }
  function nameKey(name) {
    return (fold(name).toLowerCase().split("'s").join("").match(/[a-z0-9]+/g) || []).map(singular).join(" ");
  }
  function headingKey(name) {  // text.heading_key: plurals count ("Player Decks" is not "Player Deck")
    return (fold(name).toLowerCase().match(/[a-z0-9]+/g) || []).join(" ");
  }
  function slugify(text) {
    text = fold(text).toLowerCase()
      .replace(/(?<![a-z0-9])\+(?=\p{Nd})/gu, "plus").replace(/(?<![a-z0-9])-(?=\p{Nd})/gu, "minus")
      .replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
    return text || "untitled";
  }

  // -- the term a name means: Store.find_term, then answers.near_miss -------------------------
  function findTerm(name) {
    var key = nameKey(name), printed = headingKey(name), slug;
    if (!key) { return null; }
    if (has(data.printed, printed) || has(data.names, key)) {
      var found = has(data.printed, printed) ? data.printed[printed] : data.names[key];
      return Array.isArray(found) ? { term: found[0], anchor: found[1] } : { term: found, anchor: null };
    }
    slug = slugify(name);  // Store.term_by_slug: a term's own slug, then the others that lead to one
    if (has(ownSlugs, slug)) { return { term: ownSlugs[slug], anchor: null }; }
    return has(data.slugs, slug) ? { term: data.slugs[slug], anchor: null } : null;
  }

  // difflib.SequenceMatcher(a=other, b=key, autojunk=False): quick_ratio and ratio (no junk, so the
  // longest match of a range is already maximal and difflib's extensions of it add nothing).
  function quickRatio(a, b) {
    var full = {}, avail = {}, hits = 0;
    Array.from(b).forEach(function (c) { full[c] = (has(full, c) ? full[c] : 0) + 1; });
    Array.from(a).forEach(function (c) {
      var left = has(avail, c) ? avail[c] : (has(full, c) ? full[c] : 0);
      avail[c] = left - 1;
      if (left > 0) { hits += 1; }
    });
    return 2.0 * hits / (a.length + b.length);
  }
  function longestMatch(a, b2j, alo, ahi, blo, bhi) {
    var besti = alo, bestj = blo, bestsize = 0, j2len = {};
    for (var i = alo; i < ahi; i++) {
      var next = {}, js = has(b2j, a[i]) ? b2j[a[i]] : [];
      for (var n = 0; n < js.length; n++) {
        var j = js[n];
        if (j < blo) { continue; }
        if (j >= bhi) { break; }
        var k = next[j] = (has(j2len, j - 1) ? j2len[j - 1] : 0) + 1;
        if (k > bestsize) { besti = i - k + 1; bestj = j - k + 1; bestsize = k; }
      }
      j2len = next;
    }
    return [besti, bestj, bestsize];
  }
  function ratio(a, b) {
    var b2j = {}, queue = [[0, a.length, 0, b.length]], matched = 0;
    for (var j = 0; j < b.length; j++) { (has(b2j, b[j]) ? b2j[b[j]] : (b2j[b[j]] = [])).push(j); }
    while (queue.length) {
      var span = queue.pop(), m = longestMatch(a, b2j, span[0], span[1], span[2], span[3]);
      if (!m[2]) { continue; }
      matched += m[2];
      if (span[0] < m[0] && span[2] < m[1]) { queue.push([span[0], m[0], span[2], m[1]]); }
      if (m[0] + m[2] < span[1] && m[1] + m[2] < span[3]) { queue.push([m[0] + m[2], span[1], m[1] + m[2], span[3]]); }
    }
    return a.length + b.length ? 2.0 * matched / (a.length + b.length) : 1.0;
  }
  function nearMiss(name) {
    var key = nameKey(name), scored = new Map();
    if (key.length < 5) { return null; }
    data.typos.forEach(function (pair) {
      var other = pair[0];
      if (2.0 * Math.min(other.length, key.length) / (other.length + key.length) >= NEAR && quickRatio(other, key) >= NEAR) {
        scored.set(pair[1], Math.max(scored.has(pair[1]) ? scored.get(pair[1]) : 0.0, ratio(other, key)));
      }
    });
    var ranked = Array.from(scored).sort(function (x, y) { return y[1] - x[1]; });
    if (!ranked.length || ranked[0][1] < NEAR || (ranked.length > 1 && ranked[1][1] > ranked[0][1] - CLEAR)) { return null; }
    return ranked[0][0];
  }

  // answers.version_by_label: [label, URL] of the version a label names ("1.4", "v1.4", "1.4.0", "latest").
  function versionByLabel(label) {
    var versions = data.versions, wanted = strip(label).toLowerCase().replace(/^v+/, "");
    function bare(text) { return text.replace(/(\.0)+$/, ""); }
    if (wanted === "latest" || wanted === "current") { return versions[versions.length - 1]; }
    return versions.filter(function (v) { return v[0].toLowerCase() === wanted; })[0] ||
      versions.filter(function (v) { return bare(v[0].toLowerCase()) === bare(wanted); })[0] || null;
  }

  // -- linkify: graph/linkify.py --------------------------------------------------------
  function linkify(text, fmt, base) {
    if (FORMATS.indexOf(fmt) < 0) { throw new Error("format must be one of " + FORMATS.join(", ")); }
    base = base.replace(/\/+$/, "");
    var unresolved = [], links = [], out = "", last = 0;
    var outside = fmt === "html" ? escapeHtml : function (t) { return t; };

    function replace(match) {
      var name = strip(match[1]), version = match[2], label = match[3];
      var found = findTerm(name), near = null, pinned = null;
      if (!found) {
        near = nearMiss(name);  // "[[Villanous]]": a typo of one name
        found = near === null ? null : { term: near, anchor: null };
      }
      if (found && version !== undefined) {
        pinned = versionByLabel(strip(version));
        if (!pinned) { found = null; }
      }
      if (!found) { unresolved.push(match[0]); return outside(match[0]); }
      var term = data.terms[found.term];
      var url = base + (pinned ? pinned[1] : data.url).split("{slug}").join(term[1]) + (found.anchor ? "#" + found.anchor : "");
      var shown = label !== undefined ? label : (name.toLowerCase() !== term[0].toLowerCase() && near === null ? name : term[0]);
      if (pinned && label === undefined) { shown += " (v" + pinned[0] + ")"; }
      var link = { mention: match[0], term: term[0], url: url, version: pinned ? pinned[0] : null };
      if (near !== null) {
        link.note = "no term is named \u201c" + name + "\u201d; linked to \u201c" + term[0] + "\u201d, the one name it is close to";
      }
      links.push(link);
      if (fmt === "markdown") { return "[" + markdownLabel(shown) + "](" + url + ")"; }
      if (fmt === "bbcode") { return "[url=" + url + "]" + bbcodeText(shown) + "[/url]"; }
      return '<a href="' + escapeHtml(url) + '">' + escapeHtml(shown) + "</a>";
    }

    for (var match of text.matchAll(MENTION)) {
      out += outside(text.slice(last, match.index)) + replace(match);
      last = match.index + match[0].length;
    }
    out += outside(text.slice(last));
    return { text: out, format: fmt, links: links, unresolved: unresolved };
  }

  // -- the page ---------------------------------------------------------------------------
  var form = document.querySelector("form.linkify[data-base]");
  var result = document.querySelector("section.linked");
  if (!data || !form || !result) { return; }
  var post = form.querySelector("#text"), format = form.querySelector("#format");

  // The server links the first characters of a long post only (web/views.py MAX_LINKIFY_CHARS), counted as Python does.
  function show() {
    var limit = Number(form.getAttribute("data-limit")), points = Array.from(post.value);
    var answer = linkify(points.slice(0, limit).join(""), format.value, form.getAttribute("data-base"));
    result.querySelector("#linked").value = answer.text;
    result.querySelector("output.copied").textContent = "";
    result.querySelector(".truncated").hidden = points.length <= limit;
    result.querySelector(".unresolved").hidden = !answer.unresolved.length;
    result.querySelector(".unresolved").textContent = "Not found: " + answer.unresolved.join(", ");
    result.hidden = false;
  }
  form.addEventListener("submit", function (event) { event.preventDefault(); show(); });
  // The page's address with ?text=… (and &format=…) links that post at once, as the server's does.
  var asked = new URLSearchParams(location.search);
  if (asked.get("text")) {
    post.value = asked.get("text");
    if (FORMATS.indexOf((asked.get("format") || "").toLowerCase()) >= 0) { format.value = asked.get("format").toLowerCase(); }
    show();
  }
  window.rulingsLinkify = { linkify: linkify, nameKey: nameKey, slugify: slugify };
})();
