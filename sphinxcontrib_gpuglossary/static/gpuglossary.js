/* sphinxcontrib-gpuglossary: a term's definition on hover, focus and tap; classic
   script, no network. WCAG 1.4.13: dismissible (Escape), hoverable, persistent. */
(function (d, w) {
  "use strict";
  var DELAY = 200, GRACE = 300, GAP = 6, EDGE = 8;
  var tip, cur = null, pend = null, dismissed = null, timer = 0, touch = false, tapOpen = false;
  var py = -1;

  function termOf(n) {
    return n && n.closest ? n.closest(".gpu-term[aria-describedby]") : null;
  }
  function inTip(n) { return !!(tip && n && tip.contains(n)); }
  function shown() { return !!(cur && !tip.hidden); }
  function later(fn, ms) { clearTimeout(timer); timer = setTimeout(fn, ms); }
  function soon(t) {
    pend = t;
    later(function () { show(t); }, DELAY);
  }

  function show(t) {
    var def = d.getElementById(t.getAttribute("aria-describedby")), head, c;
    clearTimeout(timer);
    pend = dismissed = null;
    if (!def) return;
    if (!tip) {
      tip = d.createElement("div");
      tip.id = "gpu-tooltip";
      tip.className = "gpu-tooltip";
      tip.setAttribute("role", "tooltip");
      d.body.appendChild(tip);
    }
    if (cur !== t || tip.hidden) {
      tip.textContent = "";
      tip.lang = def.lang;
      tip.dir = def.dir;
      head = d.createElement(t.href ? "a" : "b");
      if (t.href) { head.href = t.href; head.tabIndex = -1; }
      head.className = "gpu-tooltip-name";
      head.textContent = def.getAttribute("data-gpu-name");
      c = def.cloneNode(true);
      c.removeAttribute("id");
      c.hidden = false;
      c.className = def.className.replace("gpu-definition ", "");
      tip.appendChild(head);
      tip.appendChild(c);
      if (tip.dir === "rtl") latin(tip);
    }
    cur = t;
    tip.hidden = false;
    place();
  }

  function hide() {
    clearTimeout(timer);
    pend = cur = null;
    if (tip) tip.hidden = true;
  }

  /* below the term (above if more room there), at the start edge of the line under
     the pointer, EDGE px inside the viewport; never over the term, however it wraps:
     the tooltip scrolls when neither side holds it */
  function place() {
    if (!shown()) return;
    var de = d.documentElement, vw = de.clientWidth, vh = de.clientHeight;
    var rects = cur.getClientRects(), b = cur.getBoundingClientRect(), r = rects[0];
    var i, x, y, tw, th, below, above;
    for (i = 1; i < rects.length; i++) {
      if (py >= rects[i].top && py <= rects[i].bottom) r = rects[i];
    }
    if (!r || b.bottom < 0 || b.top > vh) return hide();
    tip.style.left = tip.style.top = "0";
    tip.style.maxHeight = "";
    tw = tip.offsetWidth;
    th = tip.offsetHeight;
    below = vh - EDGE - GAP - b.bottom;
    above = b.top - GAP - EDGE;
    x = tip.dir === "rtl" ? r.right - tw : r.left;
    x = Math.max(EDGE, Math.min(x, vw - EDGE - tw));
    if (th > below && above > below) {
      th = Math.min(th, above);
      y = b.top - GAP - th;
    } else {
      th = Math.min(th, below);
      y = Math.max(EDGE, b.bottom + GAP);
    }
    tip.style.maxHeight = th + "px";
    tip.style.left = x + "px";
    tip.style.top = y + "px";
  }

  d.addEventListener("pointerover", function (e) {
    var t = termOf(e.target);
    touch = e.pointerType === "touch";
    if (touch) return;
    py = e.clientY;
    if (inTip(e.target) || (t && t === cur && shown())) {
      if (pend === null) clearTimeout(timer);
    } else if (t && t !== dismissed && t !== pend) {
      soon(t);
    }
  });

  d.addEventListener("pointerout", function (e) {
    var from = termOf(e.target) || (inTip(e.target) ? tip : null), to = e.relatedTarget;
    if (!from || e.pointerType === "touch" || (to && from.contains(to))) return;
    if (from === dismissed) dismissed = null;
    if (from === pend) { pend = null; clearTimeout(timer); }
    /* between a term and its tooltip, or off a focused term: keep it */
    if (inTip(to) || (cur && (termOf(to) === cur || d.activeElement === cur))) return;
    later(hide, GRACE);
  });

  d.addEventListener("focusin", function (e) {
    var t = termOf(e.target);
    if (t && !touch) {
      py = -1;
      soon(t);
    }
  });

  d.addEventListener("focusout", function (e) {
    var t = termOf(e.target);
    if (t && (t === cur || t === pend) && !inTip(e.relatedTarget)) hide();
  });

  d.addEventListener("keydown", function (e) {
    touch = false;
    if ((e.key === "Escape" || e.key === "Esc") && (shown() || pend)) {
      dismissed = cur || pend;
      hide();
    }
  });

  /* touch: a first tap shows the definition, a second follows the link */
  d.addEventListener("pointerdown", function (e) {
    var t = termOf(e.target);
    touch = e.pointerType === "touch";
    tapOpen = !!t && t === cur && shown();
    if (!t && !inTip(e.target)) hide();
  }, true);

  d.addEventListener("click", function (e) {
    var t = termOf(e.target);
    if (t && touch && !tapOpen) {
      e.preventDefault();
      py = -1;
      show(t);
    }
    touch = false; /* a click without touch (keyboard, screen reader) just follows */
  });

  /* right to left: each Latin name joined by hyphens whole, left to right (as the
     glossary's HTML has it, .gpu-latin) */
  var LATIN = /[0-9A-Za-z\u00c0-\u024f]+(?:[-\u2010][0-9A-Za-z\u00c0-\u024f]+)+/g;
  function latin(root) {
    var w = d.createTreeWalker(root, 4), a = [], n, t, m, f, s, last, i;
    while ((n = w.nextNode())) a.push(n);
    for (i = 0; i < a.length; i++) {
      n = a[i];
      t = n.data;
      f = null;
      last = LATIN.lastIndex = 0;
      if (n.parentNode.closest("[dir]").dir !== "rtl") continue;
      while ((m = LATIN.exec(t))) {
        f = f || d.createDocumentFragment();
        f.append(t.slice(last, m.index), s = span("gpu-latin", m[0]));
        s.dir = "ltr";
        last = LATIN.lastIndex;
      }
      if (f) {
        f.append(t.slice(last));
        n.replaceWith(f);
      }
    }
  }

  function span(cls, text) {
    var e = d.createElement("span");
    e.className = cls;
    e.textContent = text;
    return e;
  }

  /* A page's first use of a term carries its definition: title, lang and dir, on
     a span.gpu-title around it for a fallback language, with the words that say so
     in the page's language. Every use gets a hidden copy. */
  function setup() {
    var a = d.querySelectorAll(".gpu-term[data-gpu-term]"), i, t, id, s, f, c;
    for (i = 0; i < a.length; i++) {
      t = a[i];
      id = "gpu-def-" + t.getAttribute("data-gpu-term");
      s = t.title ? t : t.closest(".gpu-title[title]");
      if (s && !d.getElementById(id)) {
        f = d.createElement("div");
        f.id = id;
        f.hidden = true;
        f.lang = t.lang;
        f.dir = t.dir;
        if (s === t) {
          f.className = "gpu-definition gpu-text";
          f.textContent = s.title;
        } else { /* the text isolated in its own language, then the notice */
          f.className = "gpu-definition gpu-fallback";
          c = f.appendChild(span("gpu-text", s.title));
          c.lang = s.lang;
          c.dir = s.dir;
          f.appendChild(span("gpu-fallback-note", " " + s.getAttribute("data-gpu-fallback")));
        }
        f.setAttribute("data-gpu-name", t.getAttribute("data-gpu-name") || t.textContent);
        d.body.appendChild(f);
        s.removeAttribute("title");
      }
      if (d.getElementById(id)) t.setAttribute("aria-describedby", id);
    }
  }
  /* arriving at a glossary entry (a link to #gpu-term-…): keyboard focus goes to its
     row, which the stylesheet marks (:target) */
  function arrive() {
    var t = location.hash && d.getElementById(decodeURIComponent(location.hash.slice(1)));
    var row = t && t.closest(".gpu-glossary tr");
    if (row) {
      row.tabIndex = -1;
      row.focus({preventScroll: true});
    }
  }
  if (d.readyState === "loading") d.addEventListener("DOMContentLoaded", setup);
  else setup();
  /* after the browser's own scroll to the fragment, which leaves focus on the body
     (and once more in case that scroll came late, unless the reader moved on) */
  function again() { if (d.activeElement === d.body) arrive(); }
  function landed() { arrive(); setTimeout(again, 150); setTimeout(again, 600); }
  if (d.readyState === "complete") landed();
  else w.addEventListener("load", function () { setTimeout(landed); });
  w.addEventListener("hashchange", arrive);

  function replace() { if (cur) place(); }
  w.addEventListener("scroll", replace, true);
  w.addEventListener("resize", replace);
})(document, window);
