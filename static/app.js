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
  // The fragment of the address, decoded; "" when it is no valid percent-encoding ("#%E0").
  function hashId() {
    try { return decodeURIComponent(location.hash.slice(1)); } catch (e) { return ""; }
  }

  // "/" focuses the search box, unless you are typing somewhere.
  document.addEventListener("keydown", function (event) {
    var tag = (event.target.tagName || "").toLowerCase();
    if (event.key === "/" && tag !== "input" && tag !== "textarea" && tag !== "select" && !event.target.isContentEditable) {
      var box = $("#q");
      if (box) { event.preventDefault(); box.focus(); box.select(); }
    }
  });

  // A long version picker is one scrolling row: it opens at the version shown, else at the latest.
  $all(".pins.many ol").forEach(function (row) {
    var shown = $('[aria-current="page"]', row) || row.lastElementChild;
    if (shown) { row.scrollLeft = shown.offsetLeft + shown.offsetWidth / 2 - row.clientWidth / 2; }
  });

  // -- search as you type ---------------------------------------------------
  // A static export searches its exported index with static/search.js, fetched once a box is typed in.
  function staticSearch(query, game, done) {
    if (window.rulingsSearch) { window.rulingsSearch.search(query, { game: game, limit: 10 }, done); return; }
    var loader = el("script", { src: root + "static/search.js" });
    loader.onload = function () { staticSearch(query, game, done); };
    document.head.appendChild(loader);
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
        if (isStatic) {
          staticSearch(query, game, function (answer) { if (mine === seq) { render(list, answer.hits); } });
          return;
        }
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

  // Game home: a jump to a collapsed group opens it; on a wide screen the glossary's letters start open.
  function reveal(id) {
    var node = id && document.getElementById(id);
    var group = node && (node.tagName === "DETAILS" ? node : $("details", node));
    if (group) { group.open = true; }
  }
  $all(".jumps a, .actions a[href^='#']").forEach(function (a) {
    a.addEventListener("click", function () { reveal(a.getAttribute("href").slice(1)); });
  });
  reveal(hashId());
  // A jump bar wider than the screen says so: its far end fades while there is more to scroll to.
  $all("nav.jumps").forEach(function (bar) {
    function hint() {
      bar.classList.toggle("more", bar.scrollLeft + bar.clientWidth < bar.scrollWidth - 2);
    }
    // and the sticky header it sits in (two rows high on some screens) never hides where a jump lands
    var header = bar.closest("header");
    function fit() {
      hint();
      if (header) { document.documentElement.style.scrollPaddingTop = (header.offsetHeight + 8) + "px"; }
    }
    bar.addEventListener("scroll", hint, { passive: true });
    window.addEventListener("resize", fit);
    fit();
  });
  if (window.matchMedia("(min-width: 60rem)").matches) {
    $all("details.group[id^='letter-']").forEach(function (d) { d.open = true; });
  }

  // Static export: the rules in force on a date, from the versions listed on the page.
  var onDate = $("form.on-date");
  if (isStatic && onDate) {
    onDate.addEventListener("submit", function (event) {
      event.preventDefault();
      var day = $("input", onDate).value, found = null;
      $all(".timeline li[data-date]").forEach(function (li) {
        var date = li.getAttribute("data-date");
        if (date && date <= day && (!found || date > found.getAttribute("data-date"))) { found = li; }
      });
      if (found) { location.href = $("a", found).href; return; }
      $("output", onDate).textContent = "No version was in force on " + day + ": the first is dated " +
        $all(".timeline li[data-date]").map(function (li) { return li.getAttribute("data-date"); }).filter(Boolean).sort()[0] + ".";
    });
  }

  // A long version's contents page: a link to an anchor of the whole text ("…/v/2023-04-14/#702.19b", from
  // when it was one page) goes on to the page holding it; a glossary paragraph ("slug--p-…") to its entry's.
  var pageAnchors = $("#page-anchors");
  if (pageAnchors && hashId() && !document.getElementById(hashId())) {
    var held = JSON.parse(pageAnchors.textContent), wanted = hashId();
    var at = held[wanted] !== undefined ? held[wanted] : held[wanted.split("--")[0]];
    var pageLinks = $all("nav.pages a");
    if (at !== undefined && pageLinks[at]) { location.replace(pageLinks[at].href.split("#")[0] + location.hash); }
  }

  // Static export: the version picker goes straight to the report's file (the server would redirect) when the
  // two versions are consecutive; any other report is made in the browser (static/changes.js) from their texts.
  var picker = $("form.picker[data-static-path]");
  if (isStatic && picker) {
    picker.addEventListener("submit", function (event) {
      event.preventDefault();
      var from = $("#from", picker), to = $("#to", picker);
      var pair = from.selectedIndex <= to.selectedIndex ? [from.value, to.value] : [to.value, from.value];
      var path = picker.getAttribute("data-static-path").replace(/^\//, "");
      if (Math.abs(from.selectedIndex - to.selectedIndex) === 1) {
        location.href = root + path.replace("FROM..TO", pair.map(encodeURIComponent).join("..")) + "/index.html";
      } else {
        location.href = root + path.replace("/FROM..TO", "") + "/index.html?from=" + encodeURIComponent(pair[0]) +
          "&to=" + encodeURIComponent(pair[1]);
      }
    });
  }

  // -- copying: citations, linked posts, paragraph links and quotes ----------------------
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

  // A quotable text ([data-cite-url]: the page's version-pinned URL) is made of blocks with lasting ids.
  var BLOCK = /^(P|LI|DIV)$/;
  function blockOf(node) {
    for (var n = node && node.nodeType === 1 ? node : node && node.parentElement; n; n = n.parentElement) {
      if (n.id && BLOCK.test(n.tagName) && n.parentElement && n.parentElement.closest("[data-cite-url]")) { return n; }
    }
    return null;
  }
  function blockText(node) {
    var clone = node.cloneNode(true);
    $all(".pilcrow", clone).forEach(function (b) { b.parentNode.removeChild(b); });
    $all("br", clone).forEach(function (br) { br.parentNode.replaceChild(document.createTextNode("\n"), br); });
    var parts = node.tagName === "DIV" ? $all("p", clone) : [clone];
    return parts.map(function (p) { return p.textContent.replace(/[ \t]+/g, " ").trim(); }).join("\n\n");
  }
  function citeOf(block) {
    var root = block.closest("[data-cite-url]"), titled = block.closest("[data-cite-title]");
    return { url: root.getAttribute("data-cite-url") + "#" + block.id,
             label: titled.getAttribute("data-cite-title") + ", " + root.getAttribute("data-cite-source") };
  }
  function markdownLabel(text) {  // rulings/markup.py markdown_label
    return text.replace(/([\[\]\\])/g, "\\$1");
  }
  function bbcodeText(text) {  // rulings/markup.py bbcode_text: no "[" a forum reads as a tag
    return text.split("[").join("[\u200b");
  }
  function quote(format, text, cite) {
    if (format === "bbcode") { return "[quote]" + bbcodeText(text) + "[/quote]\n\u2014 [url=" + cite.url + "]" + bbcodeText(cite.label) + "[/url]"; }
    var lines = text.split("\n").map(function (line) { return line ? "> " + line : ">"; });
    return lines.join("\n") + "\n>\n> \u2014 [" + markdownLabel(cite.label) + "](" + cite.url + ")";
  }

  // Text selected inside a quotable text, remembered for a moment: a tap on a copy button clears it.
  var picked = null;
  document.addEventListener("selectionchange", function () {
    var sel = window.getSelection();
    if (sel && !sel.isCollapsed && sel.rangeCount) {
      var block = blockOf(sel.getRangeAt(0).startContainer), text = sel.toString().trim();
      picked = block && text ? { block: block, text: text, at: 0 } : null;
    } else if (picked && !picked.at) { picked.at = Date.now(); }
  });
  function selection() { return picked && (!picked.at || Date.now() - picked.at < 2000) ? picked : null; }

  $all("button.copy").forEach(function (button) {
    button.addEventListener("click", function () {
      var from = button.getAttribute("data-copy-from"), format = button.getAttribute("data-quote");
      var text = from ? document.getElementById(from).value : button.getAttribute("data-copy");
      var chosen = format && selection(), label = button.getAttribute("data-label");
      if (chosen) { text = quote(format, chosen.text, citeOf(chosen.block)); label += " quote"; }
      copy(text, button.parentNode.querySelector("output.copied"), label);
      button.setAttribute("data-copied", text);
    });
  });

  // -- small pop-ups (paragraph menu, definition preview): one open at a time, placed under what opened them
  function place(popup, anchor) {
    var box = anchor.getBoundingClientRect(), width = popup.offsetWidth, room = document.documentElement.clientWidth;
    popup.style.top = (box.bottom + window.scrollY + 6) + "px";
    popup.style.left = Math.max(8, Math.min(box.left + window.scrollX, room - width - 8 + window.scrollX)) + "px";
  }
  var open = null;  // {popup, opener, close}
  function closePopup(focusBack) {
    if (!open) { return; }
    var was = open; open = null;
    was.popup.parentNode.removeChild(was.popup);
    was.close();
    if (focusBack) { was.opener.focus(); }
  }
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && open) {
      var inside = open.popup.contains(document.activeElement) || document.activeElement === open.opener;
      closePopup(inside);
    }
  });
  document.addEventListener("click", function (event) {
    if (open && !open.popup.contains(event.target) && !open.opener.contains(event.target)) { closePopup(false); }
  });

  // -- paragraph menus: copy a version-pinned link, a Markdown or a BBCode quote --------------
  // One tab stop for all of a page's paragraph controls (arrow keys move between them).
  var pilcrows = [];
  $all("[data-cite-url] [id]").forEach(function (node) {
    if (!BLOCK.test(node.tagName) || blockOf(node) !== node) { return; }
    var button = el("button", { type: "button", class: "pilcrow", tabindex: "-1", "aria-haspopup": "menu",
                                "aria-expanded": "false", "aria-label": "Link or quote this paragraph" });
    // its "¶" is drawn by the style sheet (::before), so a paragraph selected whole quotes without it
    var into = node.tagName === "DIV" ? $all("p", node).pop() || node : node;
    into.appendChild(button);
    pilcrows.push(button);
    button.addEventListener("click", function (event) {
      event.stopPropagation();
      if (open && open.opener === button) { closePopup(true); return; }
      paragraphMenu(button, node);
    });
    button.addEventListener("focus", function () { roving(button); });
    button.addEventListener("keydown", function (event) {
      var i = pilcrows.indexOf(button), next = { ArrowDown: i + 1, ArrowUp: i - 1 }[event.key];
      if (next !== undefined && pilcrows[next]) { event.preventDefault(); pilcrows[next].focus(); }
    });
  });
  function roving(button) {
    pilcrows.forEach(function (b) { b.setAttribute("tabindex", b === button ? "0" : "-1"); });
  }
  if (pilcrows.length) {
    var target = hashId() && document.getElementById(hashId());
    var mine = target && pilcrows.filter(function (b) { return target.contains(b); })[0];
    roving(mine || pilcrows[0]);
  }

  function paragraphMenu(button, block) {
    closePopup(false);
    var menu = el("div", { class: "popup menu", role: "menu", "aria-label": "This paragraph" });
    var output = el("output", { "aria-live": "polite" });
    var cite = citeOf(block);
    [["link", "Copy link"], ["markdown", "Copy quote (Markdown)"], ["bbcode", "Copy quote (BBCode)"]].forEach(function (item) {
      var action = el("button", { type: "button", role: "menuitem", "data-action": item[0] }, item[1]);
      action.addEventListener("click", function () {
        var chosen = selection(), text = chosen && chosen.block === block ? chosen.text : blockText(block);
        copy(item[0] === "link" ? cite.url : quote(item[0], text, cite), output, item[0] === "link" ? "link" : item[0] + " quote");
      });
      menu.appendChild(action);
    });
    menu.appendChild(output);
    menu.addEventListener("keydown", function (event) {
      var items = $all("button", menu), i = items.indexOf(document.activeElement);
      var next = { ArrowDown: i + 1, ArrowUp: i - 1 }[event.key];
      if (next !== undefined && items[next]) { event.preventDefault(); items[next].focus(); }
      if (event.key === "Tab") { closePopup(false); }
    });
    document.body.appendChild(menu);
    place(menu, button);
    button.setAttribute("aria-expanded", "true");
    open = { popup: menu, opener: button, close: function () { button.setAttribute("aria-expanded", "false"); } };
    $("button", menu).focus({ preventScroll: true });
  }

  // -- definition previews: tap (touch), hover (mouse) or focus (keyboard) a term link -------------
  var previews = {};
  $all("template[data-term]").forEach(function (t) { previews[t.getAttribute("data-term")] = t; });
  var pointer = "mouse", hover = null;
  document.addEventListener("pointerdown", function (event) { pointer = event.pointerType || "mouse"; }, true);

  function showPreview(link) {
    if (open && open.opener === link) { return; }
    closePopup(false);
    var card = el("div", { class: "popup preview", role: "tooltip", id: "preview" });
    card.appendChild(document.importNode(previews[link.getAttribute("data-term")].content, true));
    var actions = el("p", { class: "actions" });
    actions.appendChild(el("a", { href: link.getAttribute("href") }, "Open \u2192"));
    var close = el("button", { type: "button", "aria-label": "Close the preview" }, "Close");
    close.addEventListener("click", function () { closePopup(true); });
    actions.appendChild(close);
    card.appendChild(actions);
    card.addEventListener("pointerenter", function () { clearTimeout(hover); });
    card.addEventListener("pointerleave", function (event) { if (event.pointerType === "mouse") { later(); } });
    document.body.appendChild(card);
    place(card, link);
    link.setAttribute("aria-describedby", "preview");
    open = { popup: card, opener: link, close: function () { link.removeAttribute("aria-describedby"); } };
  }
  function later() { clearTimeout(hover); hover = setTimeout(function () { closePopup(false); }, 300); }

  $all("a.term[data-term]").forEach(function (link) {
    if (!previews[link.getAttribute("data-term")]) { return; }  // degrades to a plain link
    link.addEventListener("click", function (event) {
      // A tap opens the preview; a second tap (or "Open") follows the link. Keyboard clicks (detail 0) follow it.
      if (event.detail !== 0 && pointer !== "mouse" && !(open && open.opener === link)) {
        event.preventDefault();
        showPreview(link);
      }
    });
    link.addEventListener("pointerenter", function (event) {
      if (event.pointerType !== "mouse") { return; }
      clearTimeout(hover);
      hover = setTimeout(function () { showPreview(link); }, 350);
    });
    link.addEventListener("pointerleave", function (event) { if (event.pointerType === "mouse") { later(); } });
    link.addEventListener("focus", function () { if (link.matches(":focus-visible")) { showPreview(link); } });
    link.addEventListener("blur", function () {
      setTimeout(function () {
        if (open && open.opener === link && !open.popup.contains(document.activeElement)) { closePopup(false); }
      }, 0);
    });
  });
})();
