// What a person at 360 px would notice on one page, measured in the page itself.
// Returns {pageScroll, frames, brokenWords, smallTargets, asciiMinus}, each a list of short
// descriptions.
() => {
  const MIN = 44;            // WCAG 2.5.5 target size, in CSS px
  const TOLERANCE = 0.5;     // sub-pixel rounding
  const out = { pageScroll: [], frames: [], brokenWords: [], smallTargets: [], asciiMinus: [] };

  const describe = (el) => {
    if (!el || el.nodeType !== 1) return "?";
    let s = el.tagName.toLowerCase();
    if (el.id) s += "#" + el.id;
    if (el.classList.length) s += "." + Array.from(el.classList).slice(0, 3).join(".");
    const text = (el.innerText || el.value || el.getAttribute("aria-label") || "").trim();
    if (text) s += ' "' + text.replace(/\s+/g, " ").slice(0, 40) + '"';
    return s;
  };
  const visible = (el) => {
    // checkVisibility() also knows content the browser skips rendering, such as what a
    // closed <details> holds, which still has boxes when asked for them.
    if (el.checkVisibility && !el.checkVisibility({ visibilityProperty: true })) return false;
    for (let e = el; e && e.nodeType === 1; e = e.parentElement) {
      const cs = getComputedStyle(e);
      if (cs.display === "none" || cs.visibility === "hidden") return false;
    }
    const r = el.getBoundingClientRect();
    return r.width > 1 && r.height > 1;
  };
  const visuallyHidden = (el) => {
    const r = el.getBoundingClientRect();
    return r.width <= 1 || r.height <= 1;
  };

  // 1. The page itself scrolls sideways. Compared with the layout viewport (the root's
  // clientWidth), not window.innerWidth: on a phone (is_mobile) a page wider than the screen
  // zooms out and innerWidth grows to the page's width, hiding the very scroll measured here.
  const doc = document.documentElement;
  const screenWidth = doc.clientWidth || window.innerWidth;
  if (doc.scrollWidth > screenWidth + TOLERANCE) {
    out.pageScroll.push(`page is ${doc.scrollWidth}px wide in a ${screenWidth}px window`);
  }

  // 2. A frame (an element that clips or scrolls) whose content is wider than itself.
  for (const el of document.querySelectorAll("body *")) {
    const cs = getComputedStyle(el);
    if (!["auto", "scroll", "hidden"].includes(cs.overflowX)) continue;
    if (!visible(el) || visuallyHidden(el)) continue;
    if (el.scrollWidth > el.clientWidth + 1) {
      out.frames.push(`${describe(el)}: content ${el.scrollWidth}px in ${el.clientWidth}px`);
    }
  }

  // 3. A word whose letters render on two lines (the browser broke it in the middle).
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || ["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE"].includes(parent.tagName)) continue;
    if (!node.data.trim() || !visible(parent)) continue;
    const re = /\S+/g;
    let m;
    while ((m = re.exec(node.data)) !== null) {
      if (m[0].length < 2) continue;
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const tops = [];
      for (const r of range.getClientRects()) {
        if (r.width < 0.5) continue;
        if (!tops.some((t) => Math.abs(t - r.top) < 2)) tops.push(r.top);
      }
      if (tops.length > 1) out.brokenWords.push(`"${m[0]}" in ${describe(parent)}`);
    }
    // A negative number written with the hyphen-minus: the site prints one minus sign, U+2212.
    const minus = /(^|[\s(\[\/:=])-\d/.exec(node.data);
    if (minus) out.asciiMinus.push(`"${node.data.trim().slice(0, 40)}" in ${describe(parent)}`);
  }

  // 4. Tap targets under 44 x 44 px. A link inside a sentence is exempt (WCAG 2.5.5 "inline").
  const inSentence = (a) => {
    if (getComputedStyle(a).display !== "inline") return false;
    const block = a.parentElement;
    if (!block) return false;
    return Array.from(block.childNodes).some(
      (n) => n !== a && n.nodeType === 3 && n.data.trim().length > 0
    );
  };
  const targets = document.querySelectorAll(
    "a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [tabindex]:not([tabindex='-1'])"
  );
  const seen = new Set();
  for (const el of targets) {
    let box = el;
    // Radio and checkbox inputs drawn as big labelled buttons: the label is the target.
    if (el.matches("input[type=radio], input[type=checkbox]")) {
      const cs = getComputedStyle(el);
      if (cs.opacity === "0" || visuallyHidden(el)) box = el.closest("label") || el;
    }
    if (seen.has(box) || !visible(box)) continue;
    seen.add(box);
    if (el.tagName === "A" && inSentence(el)) continue;
    const r = box.getBoundingClientRect();
    if (r.width + TOLERANCE < MIN || r.height + TOLERANCE < MIN) {
      out.smallTargets.push(`${describe(box)}: ${Math.round(r.width)}x${Math.round(r.height)}`);
    }
  }
  return out;
}
