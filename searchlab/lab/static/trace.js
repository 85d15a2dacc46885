// searchlab trace player: draws the events of searchlab's traced search (no search here).
"use strict";
const SearchlabTrace = (() => {
  const SVGNS = "http://www.w3.org/2000/svg";
  // sized for a projector: the drawing scales to the panel's width, text stays >= 15 px there
  const SVG_CSS = `text{font:16px sans-serif} .edge{stroke:#222;stroke-width:2}
.edge.unseen{stroke:#c8c8c8;stroke-width:1.4}.edge.pruned{stroke:#999;stroke-dasharray:6 4;stroke-width:1.6}
.edge.pv{stroke:#0072B2;stroke-width:5}.node{fill:#fff;stroke:#222;stroke-width:2}
.node.visited{fill:#cfe3f3}.node.unseen{stroke:#aaa}.node.pruned{fill:#e2e2e2;stroke:#999;stroke-dasharray:5 3}
.node.active{stroke:#E69F00;stroke-width:5}.node.pv{stroke:#0072B2;stroke-width:4}
.val{text-anchor:middle;dominant-baseline:central;font-weight:bold;font-size:18px}
.val.pruned{fill:#999;text-decoration:line-through}.val.bound{fill:#7a3d00}
.lab{text-anchor:middle;font-size:15px;fill:#333}.lab.side{text-anchor:end}
.win,.cut,.lab{paint-order:stroke;stroke:#fff;stroke-width:4px;stroke-linejoin:round}
.win{text-anchor:start;font-size:14px;fill:#555}.win.now{font-size:17px;font-weight:bold;fill:#8a4b00}
.cut{fill:#D55E00;font-size:15px;text-anchor:middle;font-weight:bold}
.slide-title{font-size:20px;font-weight:bold}.slide-info{font-size:18px}.slide-counts{font-size:17px;fill:#333}`;
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
      const sx = 66, sy = 112, W = Math.max(4, this.lay.width) * sx + 140, H = (this.lay.depth + 1) * sy + 34;
      this.svg = el("svg", {xmlns: SVGNS, viewBox: `0 0 ${W} ${H}`, class: "tree",
                            style: `width:100%;max-width:${Math.round(W * 1.6)}px`}, this.box);
      el("style", {}, this.svg).textContent = SVG_CSS;
      el("rect", {x: 0, y: 0, width: W, height: H, fill: "#fff"}, this.svg);
      const X = n => 40 + n.x * sx + sx / 2, Y = n => 42 + n.y * sy;
      this.edges = this.lay.edges.map(([a, b]) => ({b, e: el("line", {x1: X(a), y1: Y(a), x2: X(b), y2: Y(b), class: "edge"}, this.svg)}));
      this.els = new Map();
      for (const n of this.lay.nodes) {
        const g = el("g", {}, this.svg), x = X(n), y = Y(n), r = 20;
        const shape = n.leaf ? el("rect", {x: x - r, y: y - r, width: 2 * r, height: 2 * r, class: "node"}, g)
          : el("polygon", {points: n.path.length % 2 === 0 ? `${x},${y - r - 3} ${x - r - 3},${y + r - 2} ${x + r + 3},${y + r - 2}`
                                                             : `${x},${y + r + 3} ${x - r - 3},${y - r + 2} ${x + r + 3},${y - r + 2}`, class: "node"}, g);
        const val = el("text", {x, y, class: "val"}, g);
        if (n.leaf) val.textContent = fmt(n.value);
        // interior nodes are named to their left, clear of the edges that meet above them
        const lab = n.leaf ? el("text", {x, y: y + r + 17, class: "lab"}, g)
          : n.path.length === 0 ? el("text", {x, y: y - r - 10, class: "lab"}, g)
          : el("text", {x: x - r - 8, y: y + 5, class: "lab side"}, g);
        lab.textContent = name(n.path);
        const win = el("text", {x: x + r + 6, y: y + (n.leaf ? -r - 6 : 5), class: "win"}, g);
        const cut = el("text", {x, y: y + r + 26, class: "cut"}, g);
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
          // a bound is drawn as a bound (≤ v / ≥ v, brown), an exact value plainly
          const v = s.value.get(k), b = s.bound.get(k);
          let t = "", bound = false;
          if (v !== undefined && !onStack.has(k)) { bound = b === "upper" || b === "lower"; t = (b === "upper" ? "≤" : b === "lower" ? "≥" : "") + fmt(v); }
          else if (onStack.has(k) && s.best.has(k)) { bound = true; t = (o.n.path.length % 2 === 0 ? "≥" : "≤") + fmt(s.best.get(k)); }
          set(o, "val", "text", t);
          set(o, "val", "class", "val" + (bound ? " bound" : ""));
        }
        // the (alpha, beta) window of the nodes being searched (the active path); the active
        // node's spelt out in bold
        const w = s.window.get(k);
        set(o, "win", "text", !(onStack.has(k) || k === active) || !w ? "" :
          k === active ? `α = ${fmt(w[0])}, β = ${fmt(w[1])}` : `(${fmt(w[0])}, ${fmt(w[1])})`);
        set(o, "win", "class", k === active ? "win now" : "win");
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
    // the current step as a stand-alone SVG for a slide: the tree, the title, and under it the
    // step's description and the running counts (what the page shows beside the drawing)
    slideSvg() {
      const c = this.svg.cloneNode(true), vb = this.svg.viewBox.baseVal, extra = 96;
      c.setAttribute("viewBox", `0 0 ${vb.width} ${vb.height + extra}`);
      c.setAttribute("width", vb.width); c.setAttribute("height", vb.height + extra);
      c.querySelector("rect").setAttribute("height", vb.height + extra);
      const lines = [[`${this.trace.algorithm}, ${this.trace.ordering} order`, "slide-title"],
                     [this.info.textContent, "slide-info"], [this.counts.textContent.split("done:")[0].trim(), "slide-counts"]];
      if (this.counts.textContent.includes("done:")) lines.push(["done:" + this.counts.textContent.split("done:")[1], "slide-counts"]);
      lines.forEach(([t, cls], k) => { const e = el("text", {x: 12, y: vb.height + 4 + k * 22, class: cls}, c); e.textContent = t; });
      return new XMLSerializer().serializeToString(c);
    }
  }
  // a .zip of stored (uncompressed) files: local headers, the central directory, CRC-32
  const CRC = (() => { const t = new Uint32Array(256); for (let n = 0; n < 256; n++) { let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320 ^ (c >>> 1) : c >>> 1; t[n] = c >>> 0; } return t; })();
  function crc32(bytes) { let c = 0xFFFFFFFF; for (const b of bytes) c = CRC[(c ^ b) & 255] ^ (c >>> 8); return (c ^ 0xFFFFFFFF) >>> 0; }
  function zip(files) {
    const enc = new TextEncoder(), parts = [], dir = [];
    let offset = 0;
    for (const [name, text] of files) {
      const n = enc.encode(name), d = enc.encode(text), crc = crc32(d);
      const head = new DataView(new ArrayBuffer(30));
      [[0, 0x04034b50, 4], [4, 20, 2], [6, 0x0800, 2], [8, 0, 2], [10, 0, 2], [12, 0x21, 2], [14, crc, 4],
       [18, d.length, 4], [22, d.length, 4], [26, n.length, 2], [28, 0, 2]].forEach(([o, v, w]) => w === 4 ? head.setUint32(o, v, true) : head.setUint16(o, v, true));
      const cen = new DataView(new ArrayBuffer(46));
      [[0, 0x02014b50, 4], [4, 20, 2], [6, 20, 2], [8, 0x0800, 2], [10, 0, 2], [12, 0, 2], [14, 0x21, 2], [16, crc, 4],
       [20, d.length, 4], [24, d.length, 4], [28, n.length, 2], [30, 0, 2], [32, 0, 2], [34, 0, 2], [36, 0, 2], [38, 0, 4],
       [42, offset, 4]].forEach(([o, v, w]) => w === 4 ? cen.setUint32(o, v, true) : cen.setUint16(o, v, true));
      parts.push(head, n, d); dir.push(cen, n); offset += 30 + n.length + d.length;
    }
    const size = dir.reduce((a, x) => a + x.byteLength, 0), end = new DataView(new ArrayBuffer(22));
    [[0, 0x06054b50, 4], [8, files.length, 2], [10, files.length, 2], [12, size, 4], [16, offset, 4]]
      .forEach(([o, v, w]) => w === 4 ? end.setUint32(o, v, true) : end.setUint16(o, v, true));
    return new Blob([...parts, ...dir, end], {type: "application/zip"});
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
        <button data-act="frames">Frames for slides (.zip)</button></div>
        <div class="panels"></div>
        <p class="legend">▲ MAX, ▽ MIN, ■ leaf · <b style="color:#b36b00">orange</b>: the active node, with its window α, β ·
        (α, β): the window of each node still being searched · <b style="color:#7a3d00">≤ v / ≥ v</b>: a bound, not an exact value ·
        grey, dashed, struck through: pruned (never searched) · thin grey: not searched yet · <b style="color:#D55E00">red</b>: a cutoff and its reason α ≥ β ·
        <b style="color:#0072B2">blue</b>: the principal variation · children are drawn in the order the search took them (pruned ones last).</p>`;
      this.host = root.querySelector(".panels");
      root.querySelector(".controls").addEventListener("click", ev => {
        const act = ev.target.dataset && ev.target.dataset.act;
        if (act === "reset") { this.stop(); this.go(0); }
        else if (act === "back") { this.stop(); this.go(this.step - 1); }
        else if (act === "step") { this.stop(); this.go(this.step + 1); }
        else if (act === "play") this.timer ? this.stop() : this.play();
        else if (act === "svg") this.panels.forEach(p => download(`trace-${p.trace.algorithm}-step${p.i}.svg`, new Blob([p.slideSvg()], {type: "image/svg+xml"})));
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
      // drawn from the step's SVG on a canvas at twice its size: no server round trip
      const img = new Image(), text = p.slideSvg(), m = text.match(/viewBox="0 0 ([\d.]+) ([\d.]+)"/);
      img.onload = () => {
        const c = document.createElement("canvas"); c.width = +m[1] * 2; c.height = +m[2] * 2;
        const g = c.getContext("2d"); g.scale(2, 2); g.drawImage(img, 0, 0);
        c.toBlob(b => download(`trace-${p.trace.algorithm}-step${p.i}.png`, b));
      };
      img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(text);
    }
    frames() {
      // every step of every panel as a numbered slide: <algorithm>-<ordering>/frame_001.svg is
      // the tree after step 1, ..., frame_N.svg after the last step N (N = the trace's events)
      const keep = this.step, files = [];
      for (const p of this.panels) {
        const width = Math.max(3, String(p.length).length), dir = `${p.trace.algorithm}-${p.trace.ordering}`;
        for (let i = 1; i <= p.length; i++) { p.show(i); files.push([`${dir}/frame_${String(i).padStart(width, "0")}.svg`, p.slideSvg()]); }
      }
      this.go(keep);
      download("trace-frames.zip", zip(files));
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
  return {Player, Panel, standalone, stateAt, layout, name, fmt, zip};
})();
