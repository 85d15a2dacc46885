// searchlab lab: the generic view of a game the page has no drawing for (any registered game
// without a board, plug-ins included): the position as text (the game's own str, else its
// state's repr, from /api/position's "text") and each legal move as a button named as the
// game's declaration names it. Buttons are keyboard-usable as they are (Tab, Enter, Space).
"use strict";
window.SearchlabGeneric = (() => {
  function el(tag, attrs, parent, text) {
    const e = document.createElement(tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }
  // d: /api/position's answer; play(m): plays legal move m (the page's own handler)
  function draw(host, d, play) {
    host.innerHTML = "";
    const box = el("div", {class: "generic", id: "generic-view"}, host);
    el("h3", {class: "generic-title", id: "generic-title"}, box, `${d.label}: position`);
    // a region that can scroll: focusable, so the keyboard can scroll it too
    el("pre", {class: "generic-text", id: "generic-text", tabindex: "0", role: "region", "aria-labelledby": "generic-title"}, box, d.text);
    const n = d.legal.length;
    el("p", {class: "generic-moves-head", id: "generic-moves-head"}, box,
      d.terminal ? "No legal move: the game is over." : `Legal moves (${n}): a button plays one`);
    const moves = el("div", {class: "generic-moves", role: "group", "aria-labelledby": "generic-moves-head"}, box);
    for (const m of d.legal) {
      const b = el("button", {type: "button", class: "move", "data-move": m.name, "aria-label": `play ${m.name}`}, moves, m.name);
      b.addEventListener("click", () => play(m));
    }
  }
  return {draw};
})();
