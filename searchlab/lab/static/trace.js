// searchlab trace player: draws the events of searchlab's traced search (no search here).
"use strict";
const SearchlabTrace = (() => {
  const SVGNS = "http://www.w3.org/2000/svg";
  // sized for a projector: the drawing scales to the panel's width, text stays >= 15 px there
  // every rule scoped to the tree's own <svg class="tree">: a <style> inside an inline SVG
  // applies to the whole page, and must not restyle the boards, the chart or the page's text.
  // Colours: text >= 4.5:1 and the lines that carry meaning >= 3:1 against white
  const SVG_CSS = [`text{font:16px sans-serif}`, `.edge{stroke:#222;stroke-width:2}`,
    `.edge.unseen{stroke:#8a8a8a;stroke-width:1.4}`, `.edge.pruned{stroke:#767676;stroke-dasharray:6 4;stroke-width:1.6}`,
    `.edge.pv{stroke:#0072B2;stroke-width:5}`, `.node{fill:#fff;stroke:#222;stroke-width:2}`,
    `.node.visited{fill:#cfe3f3}`, `.node.unseen{stroke:#8a8a8a}`, `.node.pruned{fill:#e2e2e2;stroke:#767676;stroke-dasharray:5 3}`,
    `.node.active{stroke:#E69F00;stroke-width:5}`, `.node.pv{stroke:#0072B2;stroke-width:4}`,
    `.val{text-anchor:middle;dominant-baseline:central;font-weight:bold;font-size:18px}`,
    `.val.pruned{fill:#595959;text-decoration:line-through}`, `.val.bound{fill:#7a3d00}`,
    `.lab{text-anchor:middle;font-size:15px;fill:#333}`, `.lab.side{text-anchor:end}`,
    `.win,.cut,.lab{paint-order:stroke;stroke:#fff;stroke-width:4px;stroke-linejoin:round}`,
    `.win{text-anchor:start;font-size:14px;fill:#4a4a4a}`, `.win.now{font-size:17px;font-weight:bold;fill:#8a4b00}`,
    `.cut{fill:#a63f00;font-size:15px;text-anchor:middle;font-weight:bold}`,
    `.slide-title{font-size:20px;font-weight:bold}`, `&.squeezed text{display:none}`,
    `&.squeezed .edge,&.squeezed .node{vector-effect:non-scaling-stroke;stroke-width:1px}`,
    `.marker{display:none}`, `&.squeezed .marker{display:inline;stroke:#b36b00;stroke-width:4px;vector-effect:non-scaling-stroke}`, `.slide-info{font-size:18px}`, `.slide-counts{font-size:17px;fill:#333}`]
    .map(rule => "svg.tree " + rule.split(",").join(",svg.tree ")).join("\n").replace(/svg\.tree &/g, "svg.tree");
  const fmt = v => v === "inf" ? "+∞" : v === "-inf" ? "−∞" : v == null ? "" : String(v);
  // PVS's null windows are (v − ε, v) or (v, v + ε): two adjacent doubles, printed as such
  const F64 = new Float64Array(1), I64 = new BigInt64Array(F64.buffer);
  function adjacent(a, b) {
    if (typeof a !== "number" || typeof b !== "number" || !(a < b)) return false;
    if (a === 0) return b === Number.MIN_VALUE;
    F64[0] = a; I64[0] += a > 0 ? 1n : -1n;
    return F64[0] === b;
  }
  const short = v => String(v).length;
  // {a, b, null}: the window's ends as text, and the value v of a null window (else null)
  function windowText(w) {
    if (!adjacent(w[0], w[1])) return {a: fmt(w[0]), b: fmt(w[1]), at: null};
    return short(w[1]) <= short(w[0]) ? {a: `${w[1]} − ε`, b: String(w[1]), at: String(w[1])}
      : {a: String(w[0]), b: `${w[0]} + ε`, at: String(w[0])};
  }
  const windowPhrase = w => { const t = windowText(w);
    return t.at === null ? `(α = ${t.a}, β = ${t.b})` : `(α = ${t.a}, β = ${t.b}), a null window at ${t.at}`; };
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
      if (node.leaf) { node.x = node.lo = node.hi = x++; }
      else {
        const kids = sub.map((c, m) => m).sort((a, b) => {
          const fa = first.get(key([...path, a])), fb = first.get(key([...path, b]));
          return (fa ?? 1e12 + a) - (fb ?? 1e12 + b);
        });
        const cs = kids.map(m => { const c = walk(sub[m], [...path, m]); edges.push([node, c]); return c; });
        node.x = (cs[0].x + cs[cs.length - 1].x) / 2;
        node.lo = cs[0].x; node.hi = cs[cs.length - 1].x;     // its children's span
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
            best: new Map(), window: new Map(), cut: new Map(), stack: [], kids: new Map(),
            researches: 0, research: new Set()};
  }
  function apply(s, e) {
    const k = key(e.p);
    if (e.k === "enter") {
      // a re-search: a child entered a second time within one visit of its parent (PVS, after
      // its null-window search failed high)
      const again = e.p.length > 0 && s.kids.get(key(e.p.slice(0, -1))).has(e.p[e.p.length - 1]);
      if (again) { s.researches++; s.research.add(k); } else s.research.delete(k);
      if (e.p.length) s.kids.get(key(e.p.slice(0, -1))).add(e.p[e.p.length - 1]);
      s.kids.set(k, new Set());
      s.entered.add(k); s.window.set(k, e.w); s.best.delete(k); s.stack.push(e.p);
    }
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
  // a node's window now: its entry window narrowed by the best value its children returned so
  // far (MAX raises α, MIN lowers β), as the search's own α and β are
  function current(s, k, maxNode) {
    const w = s.window.get(k);
    if (!w) return null;
    const best = s.best.get(k);
    if (best === undefined) return w;
    return maxNode ? [num(best) > num(w[0]) ? best : w[0], w[1]] : [w[0], num(best) < num(w[1]) ? best : w[1]];
  }
  function stateAt(trace, i, from) {
    const s = from && from.i <= i ? from : fresh();
    while (s.i < i) apply(s, trace.events[s.i]);
    return s;
  }
  function describe(trace, i, s) {
    if (i === 0) return "Press Step (or →, PageDown) to start: the search enters the root (MAX) with the window (−∞, +∞).";
    const e = trace.events[i - 1], side = e.p.length % 2 === 0 ? "MAX" : "MIN", n = name(e.p);
    const w = e.w ? ` with window ${windowPhrase(e.w)}` : "";
    if (e.k === "enter") return (s && s.research.has(key(e.p)) ? `re-search ${n} (${side}): its null-window search failed high; again` : `enter ${n} (${side})`) + w;
    if (e.k === "leaf") return `leaf ${n} = ${fmt(e.v)}${w}`;
    if (e.k === "return") return `${n} returns ${fmt(e.v)}` + (e.b === "exact" ? " (exact)" :
      e.b === "upper" ? `: an upper bound, true value ≤ ${fmt(e.v)}` : `: a lower bound, true value ≥ ${fmt(e.v)}`);
    // a long list of pruned children is cut short (the drawing shows them all): the step's
    // text keeps a few lines, so that its box leaves the tree its room
    const pr = e.pr.slice(0, 3).map(([p, v]) => `${name(p)} = ${fmt(v)}`).join(", ");
    return `cutoff at ${n} (${side}): α = ${fmt(e.ab[0])} ≥ β = ${fmt(e.ab[1])}; pruned ` +
      (e.pr.length > 4 ? `${e.pr.length}: ${pr} and ${e.pr.length - 3} more` : e.pr.map(([p, v]) => `${name(p)} = ${fmt(v)}`).join(", "));
  }
  // pseudo-code beside each tree; the line of the current event is highlighted
  const CODE = {
    minimax: ["minimax(node):", "  if node is a leaf: return its value", "  for each child of node:",
              "    v = minimax(child)", "    best = max(best, v)", "  return best"],
    alphabeta: ["alphabeta(node, α, β):", "  if node is a leaf: return its value", "  v = −∞",
                "  for each child of node:", "    v = max(v, alphabeta(child, α, β))",
                "    if v ≥ β: return v   ← cutoff", "    α = max(α, v)", "  return v"],
    pvs: ["pvs(node, α, β):", "  if node is a leaf: return its value", "  first child: v = pvs(child, α, β)",
          "  each later child: v = pvs(child, α, α+ε)", "    if α < v < β: re-search it, (v, β)",
          "  if v ≥ β: return v   ← cutoff", "  α = max(α, v)", "  return v"],
  };
  // a MIN node's lines, under the code (kept out of the lines, which then fit a narrow panel)
  const MIN_NOTE = {minimax: "MIN node: best = min(best, v)",
                    alphabeta: "MIN node: v = +∞, min, cutoff if v ≤ α, β = min(β, v)",
                    pvs: "MIN node: α and β swapped (null window β−ε, β)"};
  // the highlighted line (-1: none, for a plug-in algorithm, which has no pseudo-code here)
  function codeLine(alg, trace, i, s) {
    if (!CODE[alg]) return -1;
    if (i === 0) return 0;
    const e = trace.events[i - 1], leafNode = !Array.isArray(nodeAt(trace.tree, e.p));
    if (e.k === "leaf" || (e.k === "enter" && leafNode)) return 1;
    if (e.k === "cutoff") return alg === "pvs" ? 5 : 5;
    if (e.k === "return") return CODE[alg].length - 1;
    if (e.p.length === 0) return 0;
    if (alg === "minimax") return 2;
    if (alg === "alphabeta") return 3;
    return s.research.has(key(e.p)) ? 4 : e.w && adjacent(e.w[0], e.w[1]) ? 3 : 2;
  }
  const nodeAt = (tree, p) => p.reduce((t, m) => t[m], tree);
  let panelIds = 0;
  const MIN_SCALE = 0.75;         // the smallest drawing scale of the tree's text (16 px -> 12 px)
  class Panel {
    constructor(parent, trace) {
      this.trace = trace; this.lay = layout(trace); this.i = 0; this.id = ++panelIds;
      this.box = document.createElement("div"); this.box.className = "panel";
      this.box.dataset.algorithm = trace.algorithm;
      parent.appendChild(this.box);
      const h = document.createElement("h3"); h.textContent = `${trace.algorithm}, ${trace.ordering} order`; h.title = h.textContent;
      // the title and the zoom buttons on one line above the drawing (never over the tree)
      const head = document.createElement("div"); head.className = "panel-head"; head.appendChild(h); this.box.appendChild(head);
      const body = document.createElement("div"); body.className = "panel-body"; this.box.appendChild(body);
      this.view = document.createElement("div"); this.view.className = "view"; body.appendChild(this.view);
      const sx = 66, sy = 92, W = Math.max(4, this.lay.width) * sx + 140, H = (this.lay.depth + 1) * sy + 34;
      this.W = W; this.H = H;
      this.svg = el("svg", {xmlns: SVGNS, viewBox: `0 0 ${W} ${H}`, class: "tree", role: "img",
                            "aria-labelledby": `tree-title-${this.id}`, preserveAspectRatio: "xMidYMid meet"}, this.view);
      el("title", {id: `tree-title-${this.id}`}, this.svg).textContent =
        `${trace.algorithm} search tree, ${trace.ordering} order: ${trace.n_leaves} leaves, depth ${trace.depth}`;
      el("style", {}, this.svg).textContent = SVG_CSS;
      el("rect", {x: 0, y: 0, width: W, height: H, fill: "#fff"}, this.svg);
      const X = n => 40 + n.x * sx + sx / 2, Y = n => 42 + n.y * sy;
      this.X = X; this.Y = Y;
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
        win.dataset.x = x + r + 6; win.dataset.y = y + (n.leaf ? -r - 6 : 5);
        const cut = el("text", {x, y: y + r + 26, class: "cut"}, g);
        shape.dataset.path = n.key;
        this.els.set(n.key, {n, shape, val, win, cut});
      }
      // the active node in the squeezed overview of a large tree (where nodes are too small to
      // see): a line from the top of the drawing down to it, drawn only when squeezed
      this.marker = el("line", {class: "marker", x1: 0, y1: 0, x2: 0, y2: 0}, this.svg);
      // zoom and pan: the view box moves over the whole drawing; the overview shows where
      const tools = document.createElement("div"); tools.className = "zoom";
      tools.innerHTML = `<button data-z="in" aria-label="zoom in">+</button><button data-z="out" aria-label="zoom out">−</button>` +
        `<button data-z="fit" aria-label="whole tree">fit</button><label><input type="checkbox" data-z="follow" checked> follow</label>`;
      head.appendChild(tools);
      tools.addEventListener("click", ev => { const z = ev.target.dataset.z;
        if (z === "in") this.zoom(1 / 1.5); else if (z === "out") this.zoom(1.5); else if (z === "fit") this.fit(); });
      this.follow = tools.querySelector("input");
      this.overview = el("svg", {class: "overview", viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: "none", "aria-hidden": "true"}, this.view);
      el("use", {href: `#tree-body-${this.id}`}, this.overview);
      this.frame = el("rect", {class: "frame", x: 0, y: 0, width: W, height: H}, this.overview);
      this.overview.addEventListener("click", ev => { const r = this.overview.getBoundingClientRect(), b = this.vb;
        this.setBox((ev.clientX - r.left) / r.width * W - b.w / 2, (ev.clientY - r.top) / r.height * H - b.h / 2, b.w, b.h); });
      const bodyG = el("g", {id: `tree-body-${this.id}`}, this.svg);
      [...this.svg.childNodes].filter(c => c !== bodyG && !["title", "style"].includes(c.nodeName)).forEach(c => bodyG.appendChild(c));
      this.pan();
      this.code = document.createElement("ol"); this.code.className = "code"; this.code.setAttribute("aria-label", `${trace.algorithm} pseudo-code`);
      const esc = l => l.replace(/&/g, "&amp;").replace(/</g, "&lt;");
      // a plug-in algorithm: its own one-line description in the code's place
      this.code.innerHTML = CODE[trace.algorithm]
        ? CODE[trace.algorithm].map(l => `<li>${esc(l)}</li>`).join("") + `<li class="min-note">${MIN_NOTE[trace.algorithm]}</li>`
        : `<li class="min-note">a plug-in algorithm${trace.description ? ": " + esc(trace.description) : ""} (no pseudo-code here)</li>`;
      body.appendChild(this.code);
      this.info = document.createElement("p"); this.info.className = "info"; this.box.appendChild(this.info);
      this.counts = document.createElement("p"); this.counts.className = "counts"; this.box.appendChild(this.counts);
      // fixed-size boxes that scroll when their text is long: reachable from the keyboard
      for (const e of [this.code, this.info, this.counts]) e.tabIndex = 0;
      this.vb = {x: 0, y: 0, w: W, h: H};
      this.show(0);
    }
    // the view box; large trees start zoomed in (about 20 leaves across) around the active node
    setBox(x, y, w, h) {
      w = Math.min(w, this.W); h = Math.min(h, this.H);
      x = Math.max(0, Math.min(x, this.W - w)); y = Math.max(0, Math.min(y, this.H - h));
      this.vb = {x, y, w, h};
      this.svg.setAttribute("preserveAspectRatio", "xMidYMid meet"); this.svg.classList.remove("squeezed");
      this.svg.setAttribute("viewBox", `${x} ${y} ${w} ${h}`);
      for (const [k, v] of Object.entries({x, y, width: w, height: h})) this.frame.setAttribute(k, v);
      this.view.classList.toggle("zoomed", w < this.W - 1 || h < this.H - 1);
    }
    // the whole tree; one too wide to draw at a readable scale (thousands of leaves) is
    // squeezed into the view instead (its labels hidden, strokes one pixel): an overview of
    // what is searched, pruned and still to come
    fit() {
      this.setBox(0, 0, this.W, this.H);
      const r = this.svg.getBoundingClientRect(), k = Math.min(r.width / this.W, r.height / this.H);
      const squeeze = r.width > 0 && k < MIN_SCALE / 2;
      this.svg.setAttribute("preserveAspectRatio", squeeze ? "none" : "xMidYMid meet");
      this.svg.classList.toggle("squeezed", squeeze);
    }
    // the whole tree if its text is then at least MIN_SCALE of its size, else zoomed in to that
    // scale around the active node (the root at first): never the 2-px drawing of a large tree
    readable() {
      this.view.classList.remove("zoomed");
      let r = this.svg.getBoundingClientRect();
      if (!r.width || !r.height) return;
      const k = Math.min(r.width / this.W, r.height / this.H);
      if (k >= MIN_SCALE) { this.fit(); return; }
      this.view.classList.add("zoomed");          // the overview strip takes its height first
      r = this.svg.getBoundingClientRect();
      // the whole depth where it fits at a readable scale (pan sideways only), else zoomed
      const k2 = Math.max(MIN_SCALE, Math.min(1.25, r.height / this.H)), w = r.width / k2, h = Math.min(this.H, r.height / k2);
      const a = this.i > 0 ? key(this.trace.events[this.i - 1].p) : "";
      const o = this.els.get(a);
      this.setBox(this.X(o.n) - w / 2, this.Y(o.n) - h / 3, w, h);
      this.centre(a);
    }
    zoom(f, cx, cy) {
      const b = this.vb, w = Math.max(300, Math.min(this.W, b.w * f)), h = Math.max(200, Math.min(this.H, b.h * f));
      cx = cx ?? b.x + b.w / 2; cy = cy ?? b.y + b.h / 2;
      this.setBox(cx - w / 2, cy - h / 2, w, h);
    }
    // follow the search: the active node's parent, all of the parent's subtree and the active
    // node's window text inside the view box where they fit, else the active node and its text
    centre(k) {
      const o = this.els.get(k); if (!o) return;
      const b = this.vb;
      if (b.w >= this.W - 1 && b.h >= this.H - 1) return;
      const box = e => { try { return e.getBBox(); } catch (err) { return null; } };
      const grow = (r, q) => q && q.width ? {x0: Math.min(r.x0, q.x), x1: Math.max(r.x1, q.x + q.width),
                                                y0: Math.min(r.y0, q.y), y1: Math.max(r.y1, q.y + q.height)} : r;
      const x = this.X(o.n), y = this.Y(o.n), pad = 30;
      let need = grow({x0: x - pad, x1: x + pad, y0: y - pad, y1: y + pad + 20}, box(o.win));
      const parent = o.n.path.length ? this.els.get(key(o.n.path.slice(0, -1))) : null;
      if (parent) {       // the largest of: + the parent and its window, + the siblings, nothing more
        const sibs = {...need, x0: Math.min(need.x0, this.X({x: parent.n.lo}) - pad), x1: Math.max(need.x1, this.X({x: parent.n.hi}) + pad)};
        const all = grow({...sibs, y0: Math.min(sibs.y0, this.Y(parent.n) - pad - 20)}, box(parent.win));
        need = [all, sibs].find(q => q.x1 - q.x0 <= b.w && q.y1 - q.y0 <= b.h) || need;
      }
      const nx = need.x1 - need.x0 > b.w ? (need.x0 + need.x1 - b.w) / 2 : Math.min(Math.max(b.x, need.x1 - b.w), need.x0);
      const ny = need.y1 - need.y0 > b.h ? (need.y0 + need.y1 - b.h) / 2 : Math.min(Math.max(b.y, need.y1 - b.h), need.y0);
      if (nx !== b.x || ny !== b.y) this.setBox(nx, ny, b.w, b.h);
    }
    pan() {
      let drag = null;
      this.svg.addEventListener("pointerdown", ev => { drag = {x: ev.clientX, y: ev.clientY, b: {...this.vb}}; this.svg.setPointerCapture(ev.pointerId); });
      this.svg.addEventListener("pointermove", ev => { if (!drag) return;
        const r = this.svg.getBoundingClientRect(), k = Math.max(drag.b.w / r.width, drag.b.h / r.height);
        this.setBox(drag.b.x - (ev.clientX - drag.x) * k, drag.b.y - (ev.clientY - drag.y) * k, drag.b.w, drag.b.h); });
      this.svg.addEventListener("pointerup", () => { drag = null; });
      this.svg.addEventListener("wheel", ev => { ev.preventDefault(); this.zoom(ev.deltaY > 0 ? 1.25 : 0.8); }, {passive: false});
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
        // the (alpha, beta) window of every node on the search path, as it is now (narrowed
        // by the values its children returned); the active node's spelt out in bold
        const w = (onStack.has(k) || k === active) ? current(s, k, o.n.path.length % 2 === 0) : null;
        let wt = "";
        if (w) { const x = windowText(w);
          wt = x.at !== null ? (k === active ? `null window at ${x.at}` : `null at ${x.at}`)
            : k === active ? `α = ${x.a}, β = ${x.b}` : `(${x.a}, ${x.b})`; }
        set(o, "win", "text", wt);
        set(o, "win", "class", k === active ? "win now" : "win");
        const c = s.cut.get(k);
        set(o, "cut", "text", c ? `cut: ${fmt(c[0])} ≥ ${fmt(c[1])}` : "");
      }
      this.placeWindow(active);
      if (active) { const o = this.els.get(active), x = this.X(o.n);
        for (const [a, v] of Object.entries({x1: x, x2: x, y1: 0, y2: this.Y(o.n)})) this.marker.setAttribute(a, v); }
      for (const edge of this.edges) {
        const k = edge.b.key, cls =  "edge" + (pv.has(k) ? " pv" : s.entered.has(k) ? "" : s.pruned.has(k) ? " pruned" : " unseen");
        if (edge.cls !== cls) { edge.cls = cls; edge.e.setAttribute("class", cls); }
      }
      this.info.textContent = `step ${this.i} of ${this.length}: ` + describe(t, this.i, s);
      this.counts.innerHTML = this.countsHtml(this.i, s.researches);
      this.info.dataset.step = this.i;
      const line = codeLine(t.algorithm, t, this.i, s);
      [...this.code.children].forEach((li, k) => { if (li.className !== "min-note") li.className = k === line ? "now" : ""; });
      const li = this.code.children[line];
      if (li && this.code.scrollHeight > this.code.clientHeight)      // the list scrolls, never the page
        this.code.scrollTop = Math.max(0, li.offsetTop - this.code.offsetTop - this.code.clientHeight / 3);
      if (active && this.follow && this.follow.checked) this.centre(active);
    }
    countsHtml(i, researches) {
      const t = this.trace, last = i ? t.events[i - 1] : {n: 0, l: 0, pl: 0, c: 0};
      return `nodes <b class="c-nodes">${last.n}</b> · leaves evaluated <b class="c-leaves">${last.l}</b>` +
        ` · leaves pruned <b class="c-pruned">${last.pl}</b> · cutoffs <b class="c-cutoffs">${last.c}</b>` +
        (t.algorithm === "pvs" ? ` · re-searches <b class="c-researches">${researches}</b>` : "") + ` (of ${t.n_leaves} leaves)` +
        (i === this.length ? `<br>done: value <b class="c-value">${fmt(t.result.value)}</b>, move ${name([t.result.best_move])}; ` +
          `search() reports nodes ${t.result.nodes}, leaves ${t.result.leaves}, cutoffs ${t.result.cutoffs}; ` +
          `PV ${t.pv.slice(1).map(name).join(" → ")} (blue)` : "");
    }
    // the step text's and the counts' boxes get the height of their longest text (the longest
    // descriptions measured, and the last step's counts), fixed while stepping: nothing is cut
    // off and nothing moves. Called on load and when the panel's width or type size changes
    fitText() {
      const t = this.trace, research = {research: {has: () => t.algorithm === "pvs"}}, n = this.length;   // only PVS re-searches
      const texts = t.events.map((e, k) => `step ${n} of ${n}: ` + describe(t, k + 1, research))
        .sort((a, b) => b.length - a.length).slice(0, 6);
      texts.push(describe(t, 0));
      const measure = (e, set) => { e.style.height = "auto"; let hmax = 0;
        for (const x of set) { x(e); hmax = Math.max(hmax, e.scrollHeight); } e.style.height = `${Math.ceil(hmax) + 2}px`; };
      measure(this.info, texts.map(x => e => { e.textContent = x; }));
      const many = "9".repeat(String(n).length);
      measure(this.counts, [n, Math.max(0, n - 1)].map(i => e => { e.innerHTML = this.countsHtml(i, many); }));
      const keep = this.i; this.i = -1; this.show(keep);
    }
    // the active node's window text: beside the node, or to its left (above it) where it would
    // pass the drawing's right edge (the last leaf's "null window at 3" was cut off)
    placeWindow(active) {
      if (this.winAt && this.winAt !== active) { const w = this.els.get(this.winAt).win;
        w.setAttribute("x", w.dataset.x); w.setAttribute("y", w.dataset.y); w.style.textAnchor = ""; }
      this.winAt = active;
      if (!active) return;
      const o = this.els.get(active), w = o.win, len = w.getComputedTextLength ? w.getComputedTextLength() : 0;
      if (+w.dataset.x + len > this.W - 4) {
        w.setAttribute("x", this.X(o.n) - 26); w.setAttribute("y", this.Y(o.n) - 26); w.style.textAnchor = "end";
      } else { w.setAttribute("x", w.dataset.x); w.setAttribute("y", w.dataset.y); w.style.textAnchor = ""; }
    }
    svgText() { return new XMLSerializer().serializeToString(this.svg); }
    // the current step as a stand-alone SVG for a slide: the tree, the title, and under it the
    // step's description and the running counts (what the page shows beside the drawing)
    slideSvg() {
      const c = this.svg.cloneNode(true), vb = {width: this.W, height: this.H}, extra = 96;   // the whole tree, whatever the zoom
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
      this.root = root; this.panels = []; this.timer = null; this.layout = "side";
      // the stepping buttons in their own bar, which stays on the screen (sticky) while the page
      // scrolls (a phone: the panels are stacked, one screen each)
      root.innerHTML = `<div class="player-bar"><div class="controls player-controls step-controls">
        <button data-act="reset" aria-keyshortcuts="Home">Reset</button><button data-act="back" aria-keyshortcuts="ArrowLeft PageUp">&lt; Back</button>
        <button data-act="step" aria-keyshortcuts="ArrowRight PageDown">Step &gt;</button><button data-act="play">Play</button>
        <button data-act="prevcut" aria-keyshortcuts="P">&lt; cutoff</button><button data-act="nextcut" aria-keyshortcuts="N">cutoff &gt;</button></div>
        <div class="controls player-controls"><label>speed <select data-act="speed"><option value="700">slow</option><option value="300" selected>normal</option><option value="60">fast</option></select></label>
        <button data-act="presenter" aria-pressed="false">Presenter mode</button>
        <button data-act="svg">Export SVG</button><button data-act="png">Export PNG</button>
        <button data-act="frames">Frames for slides (.zip)</button></div></div>
        <div class="panels side"></div>
        <p class="sr-only" aria-live="polite" data-live></p>
        <p class="legend"><span class="keys">Keys: → / PageDown step, ← / PageUp back, Home, End, N / P next / previous cutoff.</span> ▲ MAX, ▽ MIN, ■ leaf · <b class="k-active">orange</b>: the active node, with its window α, β now ·
        (α, β): the window of each node on the search path as it is now (its entry window narrowed by its children's values so far) ·
        “null window at v”: PVS's (v − ε, v) or (v, v + ε) ·
        <b class="k-bound">≤ v / ≥ v</b>: a bound, not an exact value ·
        grey, dashed, struck through: pruned (never searched) · thin grey: not searched yet · <b class="k-cut">red</b>: a cutoff and its reason α ≥ β ·
        <b class="k-pv">blue</b>: the principal variation · children are drawn in the order the search took them (pruned ones last) ·
        drag to pan, wheel or +/− to zoom.</p>`;
      this.host = root.querySelector(".panels");
      this.live = root.querySelector("[data-live]");
      const onClick = ev => {
        const act = ev.target.dataset && ev.target.dataset.act;
        if (act === "reset") { this.stop(); this.go(0); }
        else if (act === "back") { this.stop(); this.go(this.step - 1); }
        else if (act === "step") { this.stop(); this.go(this.step + 1); }
        else if (act === "play") this.timer ? this.stop() : this.play();
        else if (act === "nextcut") this.cutoff(+1);
        else if (act === "prevcut") this.cutoff(-1);
        else if (act === "presenter") this.presenter();
        else if (act === "svg") this.panels.forEach(p => download(`trace-${p.trace.algorithm}-step${p.i}.svg`, new Blob([p.slideSvg()], {type: "image/svg+xml"})));
        else if (act === "png") this.panels.forEach(p => this.png(p));
        else if (act === "frames") this.frames();
      };
      root.querySelectorAll(".player-controls").forEach(c => c.addEventListener("click", onClick));
      window.addEventListener("resize", () => this.size());
      // a presenter's clicker sends PageDown / PageUp (or the arrow keys)
      document.addEventListener("keydown", ev => {
        if (!this.root.offsetParent || ev.altKey || ev.ctrlKey || ev.metaKey) return;
        const tag = (ev.target.tagName || "").toLowerCase(), type = (ev.target.type || "").toLowerCase();
        const typing = tag === "select" || tag === "textarea" || (tag === "input" && !["checkbox", "radio", "button"].includes(type));
        if (typing && !["PageDown", "PageUp"].includes(ev.key)) return;
        const act = {ArrowRight: () => this.go(this.step + 1), PageDown: () => this.go(this.step + 1),
                     ArrowLeft: () => this.go(this.step - 1), PageUp: () => this.go(this.step - 1),
                     Home: () => this.go(0), End: () => this.go(this.maxStep),
                     n: () => this.cutoff(+1), N: () => this.cutoff(+1), p: () => this.cutoff(-1), P: () => this.cutoff(-1)}[ev.key];
        if (!act) return;
        ev.preventDefault(); this.stop(); act();
      });
    }
    setLayout(layout) {
      this.layout = layout === "stacked" ? "stacked" : "side"; this.host.className = `panels ${this.layout} n${this.panels.length}`;
      requestAnimationFrame(() => this.size());
    }
    load(traces) {
      this.stop(); this.host.innerHTML = "";
      this.panels = traces.map(t => new Panel(this.host, t)); this.step = 0;
      this.setLayout(this.layout);
    }
    readable() { this.panels.forEach(p => p.readable()); }
    // the boxes' sizes, fixed while stepping: the text boxes fit their longest text, and the
    // tree's view takes the height that is left, so that the tree, the step's text and the
    // counts are on one screen (side by side: below the form; stacked or on a phone: each panel
    // one screen under the sticky step buttons)
    size() {
      if (!this.panels.length || !this.root.offsetParent) return;
      this.panels.forEach(p => { p.view.style.height = ""; p.fitText(); });
      const phone = window.innerWidth <= 700, oneRow = !phone && (this.layout === "side" || this.panels.length === 1);
      const nonView = Math.max(...this.panels.map(p => p.box.offsetHeight - p.view.offsetHeight));
      const h = oneRow ? window.innerHeight - (this.host.getBoundingClientRect().top + window.scrollY) - nonView - 8
        : window.innerHeight - this.root.querySelector(".step-controls").offsetHeight - nonView - 16;
      this.panels.forEach(p => { p.view.style.height = `${Math.max(170, Math.floor(h))}px`; });
      this.readable();
    }
    get maxStep() { return Math.max(...this.panels.map(p => p.length)); }
    go(i) {
      this.step = Math.max(0, Math.min(i, this.maxStep)); this.panels.forEach(p => p.show(this.step));
      if (this.live) this.live.textContent = this.panels.map(p => (this.panels.length > 1 ? p.trace.algorithm + ": " : "") + p.info.textContent).join(" ");
    }
    // the next (+1) or previous (-1) step at which any panel's event is a cutoff
    cutoff(dir) {
      this.stop();
      for (let i = this.step + dir; i >= 1 && i <= this.maxStep; i += dir)
        if (this.panels.some(p => i <= p.length && p.trace.events[i - 1].k === "cutoff")) { this.go(i); return; }
    }
    presenter() {
      const on = !document.body.classList.contains("presenter");
      document.body.classList.toggle("presenter", on);
      requestAnimationFrame(() => this.size());
      this.root.querySelector('[data-act="presenter"]').setAttribute("aria-pressed", on);
      try { if (on && document.documentElement.requestFullscreen) document.documentElement.requestFullscreen().catch(() => {});
            else if (!on && document.fullscreenElement) document.exitFullscreen().catch(() => {}); } catch (e) { /* no full screen here */ }
    }
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
    // a page export holds one ordering's traces (the one chosen there): named as such
    const byOrdering = data.by_ordering || {[data.traces[0].ordering]: data.traces};
    const orderings = Object.keys(byOrdering);
    bar.innerHTML = `<b>${data.label}</b> <label>ordering <select>${orderings.map(o => `<option>${o}</option>`).join("")}</select></label>`;
    root.appendChild(bar);
    const host = document.createElement("div"); root.appendChild(host);
    const player = new Player(host);
    const sel = bar.querySelector("select");
    const show = () => player.load(byOrdering[sel.value]);
    sel.addEventListener("change", show); show();
    return player;
  }
  return {Player, Panel, standalone, stateAt, layout, name, fmt, zip};
})();
