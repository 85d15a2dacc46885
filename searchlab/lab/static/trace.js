// searchlab trace player: draws the events of searchlab's traced search (no search here).
"use strict";
const SearchlabTrace = (() => {
  const SVGNS = "http://www.w3.org/2000/svg";
  const SVG_CSS = `text{font:13px sans-serif} .edge{stroke:#222;stroke-width:1.6}
.edge.unseen{stroke:#bbb;stroke-dasharray:4 3;stroke-width:1}.edge.pruned{stroke:#bbb;stroke-dasharray:4 3}
.edge.pv{stroke:#0072B2;stroke-width:4}.node{fill:#fff;stroke:#222;stroke-width:1.5}
.node.visited{fill:#cfe3f3}.node.unseen{stroke:#999}.node.pruned{fill:#eee;stroke:#bbb}
.node.active{stroke:#E69F00;stroke-width:4}.node.pv{stroke:#0072B2;stroke-width:3}
.val{text-anchor:middle;dominant-baseline:central;font-weight:bold}.val.pruned{fill:#aaa}
.lab{text-anchor:middle;font-size:12px;fill:#333}.win{text-anchor:start;font-size:11px;fill:#555}
.cut{fill:#D55E00;font-size:12px;text-anchor:middle;font-weight:bold}`;
  const fmt = v => v === "inf" ? "+∞" : v === "-inf" ? "−∞" : v == null ? "" : String(v);
  const key = p => p.join(".");
  const name = p => p.length === 0 ? "root" :
    String.fromCharCode(65 + p[0]) + (p.length > 1 ? (p[1] + 1) + p.slice(2).map(x => "." + (x + 1)).join("") : "");
  function el(tag, attrs, parent) {
    const e = document.createElementNS(SVGNS, tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  // layout in search order: each node's children in the order the search first entered them,
  // the never-searched (pruned) ones after, in natural order
  function layout(trace) {
    const first = new Map();
    trace.events.forEach((e, i) => { if (e.k === "enter" && !first.has(key(e.p))) first.set(key(e.p), i); });
    const nodes = [], edges = [];
    let x = 0;
    function walk(sub, path) {
      const node = {path, key: key(path), leaf: !Array.isArray(sub), value: Array.isArray(sub) ? null : sub};
      nodes.push(node);
      if (node.leaf) { node.x = x++; }
      else {
        const kids = sub.map((c, m) => m).sort((a, b) => {
          const fa = first.get(key([...path, a])), fb = first.get(key([...path, b]));
          return (fa ?? 1e12 + a) - (fb ?? 1e12 + b);
        });
        const xs = kids.map(m => { const c = walk(sub[m], [...path, m]); edges.push([node, c]); return c.x; });
        node.x = (xs[0] + xs[xs.length - 1]) / 2;
      }
      node.y = path.length;
      return node;
    }
    walk(trace.tree, []);
    return {nodes, edges, width: x, depth: trace.depth};
  }
  // the state after the first i events (apply() adds one event: forward steps are incremental)
  const num = v => v === "inf" ? Infinity : v === "-inf" ? -Infinity : v;
  function fresh() {
    return {i: 0, entered: new Set(), value: new Map(), bound: new Map(), pruned: new Set(),
            best: new Map(), window: new Map(), cut: new Map(), stack: []};
  }
  function apply(s, e) {
    const k = key(e.p);
    if (e.k === "enter") { s.entered.add(k); s.window.set(k, e.w); s.best.delete(k); s.stack.push(e.p); }
    else if (e.k === "leaf" || e.k === "return") {
      s.value.set(k, e.v); s.bound.set(k, e.b); s.stack.pop();
      if (e.p.length) {
        const pk = key(e.p.slice(0, -1)), max = (e.p.length - 1) % 2 === 0, old = s.best.get(pk);
        s.best.set(pk, old === undefined ? e.v : ((max ? num(e.v) > num(old) : num(e.v) < num(old)) ? e.v : old));
      }
    } else if (e.k === "cutoff") {
      s.cut.set(k, e.ab);
      for (const [p] of e.pr) for (let d = e.p.length + 1; d <= p.length; d++) s.pruned.add(key(p.slice(0, d)));
    }
    s.i++;
  }
  function stateAt(trace, i, from) {
    const s = from && from.i <= i ? from : fresh();
    while (s.i < i) apply(s, trace.events[s.i]);
    return s;
  }
  function describe(trace, i) {
    if (i === 0) return "Press Step to start: the search enters the root (MAX) with the window (−∞, +∞).";
    const e = trace.events[i - 1], side = e.p.length % 2 === 0 ? "MAX" : "MIN", n = name(e.p);
    const w = e.w ? ` with window (α = ${fmt(e.w[0])}, β = ${fmt(e.w[1])})` : "";
    if (e.k === "enter") return `enter ${n} (${side})${w}`;
    if (e.k === "leaf") return `leaf ${n} = ${fmt(e.v)}${w}`;
    if (e.k === "return") return `${n} returns ${fmt(e.v)}` + (e.b === "exact" ? " (exact)" :
      e.b === "upper" ? `: an upper bound, true value ≤ ${fmt(e.v)}` : `: a lower bound, true value ≥ ${fmt(e.v)}`);
    return `cutoff at ${n} (${side}): α = ${fmt(e.ab[0])} ≥ β = ${fmt(e.ab[1])}; pruned ` +
      e.pr.map(([p, v]) => `${name(p)} = ${fmt(v)}`).join(", ");
  }
  class Panel {
    constructor(parent, trace) {
      this.trace = trace; this.lay = layout(trace); this.i = 0;
      this.box = document.createElement("div"); this.box.className = "panel";
      this.box.dataset.algorithm = trace.algorithm;
      parent.appendChild(this.box);
      const h = document.createElement("h3"); h.textContent = `${trace.algorithm}, ${trace.ordering} order`;
      this.box.appendChild(h);
      const sx = 56, sy = 92, W = Math.max(4, this.lay.width) * sx + 60, H = (this.lay.depth + 1) * sy + 30;
      this.svg = el("svg", {xmlns: SVGNS, viewBox: `0 0 ${W} ${H}`, width: Math.min(W, 1300), class: "tree"}, this.box);
      el("style", {}, this.svg).textContent = SVG_CSS;
      el("rect", {x: 0, y: 0, width: W, height: H, fill: "#fff"}, this.svg);
      const X = n => 30 + n.x * sx + sx / 2, Y = n => 40 + n.y * sy;
      this.edges = this.lay.edges.map(([a, b]) => ({b, e: el("line", {x1: X(a), y1: Y(a), x2: X(b), y2: Y(b), class: "edge"}, this.svg)}));
      this.els = new Map();
      for (const n of this.lay.nodes) {
        const g = el("g", {}, this.svg), x = X(n), y = Y(n), r = 17;
        const shape = n.leaf ? el("rect", {x: x - r, y: y - r, width: 2 * r, height: 2 * r, class: "node"}, g)
          : el("polygon", {points: n.path.length % 2 === 0 ? `${x},${y - r - 3} ${x - r - 3},${y + r - 2} ${x + r + 3},${y + r - 2}`
                                                             : `${x},${y + r + 3} ${x - r - 3},${y - r + 2} ${x + r + 3},${y - r + 2}`, class: "node"}, g);
        const val = el("text", {x, y, class: "val"}, g);
        if (n.leaf) val.textContent = fmt(n.value);
        const lab = el("text", {x, y: n.leaf ? y + r + 14 : y - r - 8, class: "lab"}, g);
        lab.textContent = name(n.path);
        const win = el("text", {x: x + r + 4, y: y + (n.leaf ? -r - 4 : 4), class: "win"}, g);
        const cut = el("text", {x, y: y + r + 30, class: "cut"}, g);
        shape.dataset.path = n.key;
        this.els.set(n.key, {n, shape, val, win, cut});
      }
      this.info = document.createElement("p"); this.info.className = "info"; this.box.appendChild(this.info);
      this.counts = document.createElement("p"); this.counts.className = "counts"; this.box.appendChild(this.counts);
      this.show(0);
    }
    get length() { return this.trace.events.length; }
    show(i) {
      this.i = Math.max(0, Math.min(i, this.length));
      const t = this.trace, done = this.i === this.length;
      const s = this.state = stateAt(t, this.i, this.state);
      const pv = new Set(done ? t.pv.map(key) : []);
      const active = this.i > 0 ? key(t.events[this.i - 1].p) : null;
      const onStack = new Set(s.stack.map(key));
      const set = (o, node, attr, v) => { const c = o.cache || (o.cache = {}), id = node + attr;
        if (c[id] !== v) { c[id] = v; attr === "text" ? (o[node].textContent = v) : o[node].setAttribute(attr, v); } };
      for (const [k, o] of this.els) {
        const seen = s.entered.has(k), pr = s.pruned.has(k);
        set(o, "shape", "class", "node" + (seen ? " visited" : pr ? " pruned" : " unseen") +
          (k === active ? " active" : "") + (pv.has(k) ? " pv" : ""));
        if (o.n.leaf) set(o, "val", "class", "val" + (pr ? " pruned" : ""));
        else {
          const v = s.value.get(k), b = s.bound.get(k);
          if (v !== undefined && !onStack.has(k)) set(o, "val", "text", (b === "upper" ? "≤" : b === "lower" ? "≥" : "") + fmt(v));
          else if (onStack.has(k) && s.best.has(k)) set(o, "val", "text", (o.n.path.length % 2 === 0 ? "≥" : "≤") + fmt(s.best.get(k)));
          else set(o, "val", "text", "");
        }
        // the (alpha, beta) window of the nodes being searched (the active path)
        const w = s.window.get(k);
        set(o, "win", "text", onStack.has(k) && w ? `(${fmt(w[0])}, ${fmt(w[1])})` : "");
        const c = s.cut.get(k);
        set(o, "cut", "text", c ? `cut: ${fmt(c[0])} ≥ ${fmt(c[1])}` : "");
      }
      for (const edge of this.edges) {
        const k = edge.b.key, cls =  "edge" + (pv.has(k) ? " pv" : s.entered.has(k) ? "" : s.pruned.has(k) ? " pruned" : " unseen");
        if (edge.cls !== cls) { edge.cls = cls; edge.e.setAttribute("class", cls); }
      }
      this.info.textContent = `step ${this.i} of ${this.length}: ` + describe(t, this.i);
      const last = this.i ? t.events[this.i - 1] : {n: 0, l: 0, pl: 0, c: 0};
      this.counts.innerHTML = `nodes <b class="c-nodes">${last.n}</b> · leaves evaluated <b class="c-leaves">${last.l}</b>` +
        ` · leaves pruned <b class="c-pruned">${last.pl}</b> · cutoffs <b class="c-cutoffs">${last.c}</b> (of ${t.n_leaves} leaves)` +
        (done ? `<br>done: value <b class="c-value">${fmt(t.result.value)}</b>, best move ${name([t.result.best_move])}; ` +
          `search() reports nodes ${t.result.nodes}, leaves ${t.result.leaves}, cutoffs ${t.result.cutoffs}; ` +
          `principal variation ${t.pv.slice(1).map(name).join(" → ")} (blue)` : "");
      this.info.dataset.step = this.i;
    }
    svgText() { return new XMLSerializer().serializeToString(this.svg); }
  }
  function download(name, blob) {
    const a = document.createElement("a"); a.href = URL.createObjectURL(blob); a.download = name;
    document.body.appendChild(a); a.click(); a.remove();
  }
  class Player {
    constructor(root) {
      this.root = root; this.panels = []; this.timer = null;
      root.innerHTML = `<div class="controls">
        <button data-act="reset">Reset</button><button data-act="back">&lt; Back</button>
        <button data-act="step">Step &gt;</button><button data-act="play">Play</button>
        <label>speed <select data-act="speed"><option value="700">slow</option><option value="300" selected>normal</option><option value="60">fast</option></select></label>
        <button data-act="svg">Export SVG</button><button data-act="png">Export PNG</button>
        <button data-act="frames">Frames (SVG, one file)</button></div>
        <div class="panels"></div>
        <p class="legend">▲ MAX, ▽ MIN, ■ leaf · orange: the active node · (α, β): the window of each node being searched ·
        ≤ v / ≥ v: a bound, not an exact value · grey dashed: pruned or not yet searched · red: a cutoff and its reason α ≥ β ·
        blue: the principal variation · children are drawn in the order the search took them (pruned ones last).</p>`;
      this.host = root.querySelector(".panels");
      root.querySelector(".controls").addEventListener("click", ev => {
        const act = ev.target.dataset && ev.target.dataset.act;
        if (act === "reset") { this.stop(); this.go(0); }
        else if (act === "back") { this.stop(); this.go(this.step - 1); }
        else if (act === "step") { this.stop(); this.go(this.step + 1); }
        else if (act === "play") this.timer ? this.stop() : this.play();
        else if (act === "svg") this.panels.forEach(p => download(`trace-${p.trace.algorithm}-step${p.i}.svg`, new Blob([p.svgText()], {type: "image/svg+xml"})));
        else if (act === "png") this.panels.forEach(p => this.png(p));
        else if (act === "frames") this.frames();
      });
    }
    load(traces) {
      this.stop(); this.host.innerHTML = "";
      this.panels = traces.map(t => new Panel(this.host, t)); this.step = 0;
    }
    get maxStep() { return Math.max(...this.panels.map(p => p.length)); }
    go(i) { this.step = Math.max(0, Math.min(i, this.maxStep)); this.panels.forEach(p => p.show(this.step)); }
    play() {
      const ms = +this.root.querySelector('[data-act="speed"]').value;
      if (this.step >= this.maxStep) this.go(0);
      this.timer = setInterval(() => { this.go(this.step + 1); if (this.step >= this.maxStep) this.stop(); }, ms);
    }
    stop() { if (this.timer) clearInterval(this.timer); this.timer = null; }
    png(p) {
      const img = new Image(), vb = p.svg.viewBox.baseVal;
      img.onload = () => {
        const c = document.createElement("canvas"); c.width = vb.width * 1.5; c.height = vb.height * 1.5;
        const g = c.getContext("2d"); g.scale(1.5, 1.5); g.drawImage(img, 0, 0);
        c.toBlob(b => download(`trace-${p.trace.algorithm}-step${p.i}.png`, b));
      };
      img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(p.svgText());
    }
    frames() {
      // every step of every panel as a numbered slide, in one HTML file of inline SVGs
      const keep = this.step, parts = [];
      for (const p of this.panels) for (let i = 0; i <= p.length; i++) {
        p.show(i);
        parts.push(`<section><h2>${p.trace.algorithm}, ${p.trace.ordering}: frame ${String(i).padStart(4, "0")}</h2>` +
          `<p>${p.info.textContent}</p>${p.svgText()}<p>${p.counts.textContent}</p></section>`);
      }
      this.go(keep);
      download("trace-frames.html", new Blob([`<!DOCTYPE html><meta charset="utf-8"><style>section{page-break-after:always}svg{max-width:100%}</style>${parts.join("\n")}`], {type: "text/html"}));
    }
  }
  // the offline page: the ordering chooser switches among the inlined traces
  function standalone(root, data) {
    const bar = document.createElement("div"); bar.className = "controls";
    const orderings = Object.keys(data.by_ordering || {natural: data.traces});
    bar.innerHTML = `<b>${data.label}</b> <label>ordering <select>${orderings.map(o => `<option>${o}</option>`).join("")}</select></label>`;
    root.appendChild(bar);
    const host = document.createElement("div"); root.appendChild(host);
    const player = new Player(host);
    const sel = bar.querySelector("select");
    const show = () => player.load((data.by_ordering || {natural: data.traces})[sel.value]);
    sel.addEventListener("change", show); show();
    return player;
  }
  return {Player, Panel, standalone, stateAt, layout, name, fmt};
})();
