// searchlab lab page: the tree form and the game view; every figure comes from the JSON API.
"use strict";
(() => {
  const $ = id => document.getElementById(id);
  async function api(path, body) {
    const r = await fetch(path, body === undefined ? {} : {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
    const data = await r.json();
    if (!r.ok) throw new Error(data.error || r.statusText);
    return data;
  }
  let META = null;
  // values as search() returned them, shown to 4 significant digits where they are long
  const num = v => typeof v === "number" && !Number.isInteger(v) ? String(+v.toPrecision(4)) : String(v);
  // ---------------------------------------------------------------- trace view
  const player = new SearchlabTrace.Player($("player"));
  function treeSpec() {
    const kind = $("tree-kind").value;
    if (kind === "preset") return {kind, name: $("preset").value};
    if (kind === "random") return {kind, b: +$("rb").value, d: +$("rd").value, lo: +$("rlo").value, hi: +$("rhi").value, seed: +$("rseed").value};
    if (kind === "nested") return {kind, text: $("nested").value};
    return {kind, b: +$("mb").value, d: +$("md").value, branches: $("mbr").value, values: $("mv").value};
  }
  function traceBody() {
    const algorithms = [...document.querySelectorAll(".alg:checked")].map(x => x.value);
    return {tree: treeSpec(), algorithms: algorithms.length ? algorithms : ["alphabeta"], ordering: $("ordering").value, seed: 0};
  }
  async function loadTree() {
    $("tree-error").textContent = "";
    try { const d = await api("/api/trace", traceBody()); player.load(d.traces); window.SEARCHLAB_TRACE = d; }
    catch (e) { $("tree-error").textContent = e.message; }
  }
  $("tree-kind").addEventListener("change", () => {
    document.querySelectorAll("#tree-form [data-kind]").forEach(s => s.hidden = s.dataset.kind !== $("tree-kind").value);
  });
  $("load-tree").addEventListener("click", loadTree);
  $("ordering").addEventListener("change", loadTree);
  document.querySelectorAll(".alg").forEach(c => c.addEventListener("change", loadTree));
  $("preset").addEventListener("change", loadTree);
  $("export-html").addEventListener("click", async () => {
    const r = await fetch("/api/export", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(traceBody())});
    if (!r.ok) { $("tree-error").textContent = (await r.json()).error; return; }
    const a = document.createElement("a"); a.href = URL.createObjectURL(await r.blob()); a.download = "searchlab-trace.html"; a.click();
  });
  // ---------------------------------------------------------------- game view
  const G = {desc: null, history: [], at: -1, pv: []};
  const COLORS = {1: "#d62828", 2: "#f6c90e"};
  function colours(game) { return game === "connect4" ? COLORS : game === "othello" ? {1: "#111", 2: "#fff"} : {1: "#1d3557", 2: "#d62828"}; }
  function svg(tag, attrs, parent) { const e = document.createElementNS("http://www.w3.org/2000/svg", tag); for (const k in attrs) e.setAttribute(k, attrs[k]); if (parent) parent.appendChild(e); return e; }
  function drawBoard() {
    const d = G.desc, b = d.board, host = $("board"); host.innerHTML = "";
    const col = colours(d.game), legal = new Map(d.legal.map(m => [m.cell ? m.cell.join(",") : "c" + m.move, m]));
    let s, cellXY;
    const pvNum = new Map();
    if (d.game === "hex") {
      const r = 26, w = Math.sqrt(3) * r, n = b.rows;
      s = svg("svg", {width: w * n * 1.5 + 2 * w, height: 1.5 * r * n + 2 * r + 12}, host);
      cellXY = (i, j) => [w + j * w + i * w / 2, r + 14 + i * 1.5 * r];
      // each player's two edges drawn along the rhombus itself: X top and bottom, O left and right
      const edge = (pts, colour) => svg("polyline", {points: pts.map(p => p.join(",")).join(" "), fill: "none", stroke: colour,
                                                      "stroke-width": 8, "stroke-linecap": "round"}, s);
      const at = (i, j, dx, dy) => { const [x, y] = cellXY(i, j); return [x + dx, y + dy]; };
      edge([at(0, 0, -w / 2, -r), at(0, n - 1, w / 2, -r)], col[1]);
      edge([at(n - 1, 0, -w / 2, r), at(n - 1, n - 1, w / 2, r)], col[1]);
      edge([at(0, 0, -w * 0.75, -r / 2), at(n - 1, 0, -w * 0.25, r)], col[2]);
      edge([at(0, n - 1, w * 0.25, -r), at(n - 1, n - 1, w * 0.75, r / 2)], col[2]);
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
        const [x, y] = cellXY(i, j), pts = [...Array(6)].map((_, k) => { const a = Math.PI / 3 * k + Math.PI / 6; return `${x + r * Math.cos(a)},${y + r * Math.sin(a)}`; }).join(" ");
        const v = b.cells[i][j], m = legal.get(`${i},${j}`);
        const h = svg("polygon", {points: pts, fill: v ? col[v] : "#eee", stroke: "#666", class: "cell", "data-cell": `${i},${j}`}, s);
        if (m) h.addEventListener("click", () => human(m));
      }
    } else if (d.game === "connect4") {
      const c = 52; s = svg("svg", {width: 7 * c + 8, height: 6 * c + 8}, host);
      svg("rect", {x: 0, y: 0, width: 7 * c + 8, height: 6 * c + 8, fill: "#1d4e89", rx: 8}, s);
      cellXY = (i, j) => [4 + j * c + c / 2, 4 + i * c + c / 2];
      for (let i = 0; i < 6; i++) for (let j = 0; j < 7; j++) {
        const [x, y] = cellXY(i, j), v = b.cells[i][j];
        const e = svg("circle", {cx: x, cy: y, r: c / 2 - 5, fill: v ? col[v] : "#fff", class: "cell", "data-col": j}, s);
        const m = legal.get("c" + j); if (m) e.addEventListener("click", () => human(m));
      }
    } else {
      const n = b.rows, c = d.game === "othello" ? 46 : 80;
      s = svg("svg", {width: n * c + 4, height: n * c + 4}, host);
      cellXY = (i, j) => [2 + j * c + c / 2, 2 + i * c + c / 2];
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
        const [x, y] = cellXY(i, j), v = b.cells[i][j], m = legal.get(`${i},${j}`);
        const sq = svg("rect", {x: x - c / 2, y: y - c / 2, width: c, height: c, fill: d.game === "othello" ? "#2e7d32" : "#fff", stroke: "#333", class: "cell", "data-cell": `${i},${j}`}, s);
        if (d.game === "othello" && v) svg("circle", {cx: x, cy: y, r: c / 2 - 5, fill: col[v], stroke: "#000"}, s);
        if (d.game === "othello" && m) svg("circle", {cx: x, cy: y, r: 4, fill: "#9ccc65"}, s);
        if (d.game === "tictactoe" && v) { const t = svg("text", {x, y: y + 18, "text-anchor": "middle", "font-size": 54, fill: col[v]}, s); t.textContent = v === 1 ? "X" : "O"; }
        if (m) [sq].forEach(e => e.addEventListener("click", () => human(m)));
      }
    }
    // the engine's principal variation, numbered on the board (Connect Four: the landing cell)
    const heights = d.game === "connect4" ? [...Array(7)].map((_, j) => b.cells.filter(r => r[j]).length) : null;
    G.pv.forEach((m, k) => {
      let cell = m.cell;
      if (d.game === "connect4") { cell = [5 - heights[m.move], m.move]; heights[m.move]++; }
      if (!cell) return;
      const [x, y] = cellXY(cell[0], cell[1]);
      svg("circle", {cx: x, cy: y, r: 12, fill: k % 2 ? "#fff" : "#0072B2", stroke: "#0072B2", "stroke-width": 2, opacity: .9, class: "pv-mark"}, s);
      const t = svg("text", {x, y: y + 5, "text-anchor": "middle", "font-size": 13, "font-weight": "bold", fill: k % 2 ? "#0072B2" : "#fff"}, s); t.textContent = k + 1;
    });
    $("position").value = d.position;
    $("status").textContent = d.terminal ? `Game over: ${d.outcome}.` : `${d.to_move} to move.`;
  }
  function show(desc, push = true) {
    if (push) { G.history = G.history.slice(0, G.at + 1); G.history.push(desc.position); G.at = G.history.length - 1; }
    G.desc = desc; drawBoard();
  }
  function engineBody() {
    const body = {game: G.desc.game, position: G.desc.position, algorithm: $("algorithm").value, ordering: $("game-ordering").value, depth: +$("depth").value};
    if ($("budget").value) body.max_nodes = +$("budget").value;
    return body;
  }
  function engineTurn() {
    const side = $("engine-side").value;
    return !G.desc.terminal && side !== "none" && (side === "first") === G.desc.first_to_move;
  }
  async function engineMove() {
    $("game-error").textContent = ""; $("engine-info").textContent = "engine thinking…";
    try {
      const r = await api("/api/search", engineBody());
      const v = r.value === null ? "" : `value ${num(r.value)} for ${G.desc.to_move}, `;
      const info = r.status === "ok" ?
        `engine (${r.algorithm}, ${r.ordering}, depth ${r.depth}, ${r.engine}): move <b id="engine-move-name">${r.best_move_name}</b>, ${v}` +
        `nodes <b>${r.nodes.toLocaleString()}</b>, leaves ${r.leaves.toLocaleString()}, ${(r.wall_time * 1000).toFixed(1)} ms; PV ${r.pv.map(m => m.name).join(" ")}` :
        `the search ran out of its node budget (${r.nodes.toLocaleString()} nodes): no move; raise the budget or lower the depth`;
      if (r.status === "ok") {
        show(await api("/api/move", {game: G.desc.game, position: G.desc.position, move: r.best_move}));
        G.pv = r.pv.slice(1); drawBoard();
      }
      $("engine-info").innerHTML = info;      // after the move: the page is settled when it shows
    } catch (e) { $("game-error").textContent = e.message; $("engine-info").textContent = ""; }
  }
  async function human(m) {
    if (G.busy) return;
    $("game-error").textContent = ""; G.pv = [];
    G.busy = true;
    try { show(await api("/api/move", {game: G.desc.game, position: G.desc.position, move: m.move})); if (engineTurn()) await engineMove(); }
    catch (e) { $("game-error").textContent = e.message; }
    G.busy = false;
  }
  async function load(position) {
    $("game-error").textContent = ""; G.pv = []; $("compare-out").innerHTML = ""; compareToken++; $("engine-info").textContent = "";
    try { const d = await api("/api/position", {game: $("game").value, position}); show(d); return d; }
    catch (e) { $("game-error").textContent = e.message; }
  }
  async function newGame() {
    const g = $("game").value; $("hex-n-label").hidden = g !== "hex";
    $("depth").value = META.games[g].default_depth;
    G.history = []; G.at = -1;
    await load(g === "hex" ? $("hex-n").value : "");
    if (engineTurn()) await engineMove();
  }
  // "Compare": /api/compare answers at once; the perfect-ordering row (the position's minimal
  // tree, which can take seconds) follows from /api/minimal and is drawn when it arrives
  let compareToken = 0;
  function rowHtml(r, k) {
    return `<tr data-row="${k}" data-status="${r.status}"><td>${r.algorithm}</td><td>${r.ordering}</td>` + (r.status === "ok" ?
      `<td class="c-move">${r.best_move_name}</td><td class="c-value">${num(r.value)}</td><td class="c-nodes">${r.nodes.toLocaleString("en")}</td><td class="c-leaves">${r.leaves.toLocaleString("en")}</td>` +
      `<td>${(r.wall_time * 1000).toFixed(1)}</td><td>${r.ebf == null ? "" : r.ebf.toFixed(2)}</td><td>${r.engine}</td>` :
      `<td colspan="7" class="note">${r.status}: ${r.note}</td>`) + "</tr>";
  }
  function agreement(c) {
    const moves = c.moves.map(m => `${m.name} (value ${num(m.value)})`).join(", ");
    return !c.agree_value ? "The searches DISAGREE on the value: " + c.values.map(num).join(", ") :
      c.agree_move ? `Every finished search chose the same move ${c.moves[0].name} with the same value ${num(c.values[0])} (for ${G.desc.to_move}).` :
      `Every finished search found the value ${num(c.values[0])} (for ${G.desc.to_move}); they chose different moves, ${moves}: ` +
      (c.moves.every(m => m.value === c.values[0]) ? "each of equal value (checked by a search of the position after it), so all are best moves." : "not all checked to be of equal value.");
  }
  function drawCompare(c, pending) {
    const rows = c.rows.map(rowHtml).join("") + (pending ? `<tr data-row="${c.rows.length}" data-status="pending"><td>alphabeta</td><td>perfect</td>` +
      `<td colspan="7" class="note">computing the position's minimal tree (the perfect ordering's count)…</td></tr>` : "");
    // log scale with its decades drawn and labelled, so that a bar's length can be read
    const ok = c.rows.filter(r => r.status === "ok"), decades = Math.max(1, Math.ceil(Math.log10(Math.max(...ok.map(r => r.nodes), 10))));
    const W = 560, X0 = 250, H = ok.length * 30, xs = n => X0 + W * Math.log10(Math.max(n, 1)) / decades;
    const grid = [...Array(decades + 1)].map((_, k) => `<line x1="${xs(10 ** k)}" y1="0" x2="${xs(10 ** k)}" y2="${H + 4}" stroke="#ccc"/>` +
      `<text x="${xs(10 ** k)}" y="${H + 22}" font-size="14" text-anchor="middle">${(10 ** k).toLocaleString("en")}</text>`).join("");
    const bar = grid + ok.map((r, k) => { const w = Math.max(2, xs(r.nodes) - X0);
      return `<text x="0" y="${k * 30 + 20}" font-size="16">${r.algorithm === "minimax" ? "minimax" : "αβ " + r.ordering}</text>` +
        `<rect x="${X0}" y="${k * 30 + 5}" width="${w}" height="22" fill="${r.algorithm === "minimax" ? "#D55E00" : "#0072B2"}"/>` +
        `<text x="${X0 + 6 + w}" y="${k * 30 + 21}" font-size="15">${r.nodes.toLocaleString("en")}</text>`; }).join("");
    $("compare-out").innerHTML = `<h3>Compare at depth ${c.depth}: ${G.desc.label}, position “${c.position || "start"}”</h3>
      <p class="agree" id="agree">${agreement(c)}</p>
      <table class="cmp" id="compare-table" data-done="${pending ? 0 : 1}"><tr><th>algorithm</th><th>ordering</th><th>move</th><th>value</th><th>nodes</th><th>leaves</th><th>ms</th><th>EBF</th><th>engine</th></tr>${rows}</table>
      <p class="note">nodes searched, log scale (alpha-beta “αβ” under each ordering):</p><svg id="compare-chart" width="${X0 + W + 130}" height="${H + 30}">${bar}</svg>
      <p class="note">Values are for the side to move. EBF: R&amp;N's b*, nodes = b* + b*² + … + b*^d. Worst order is an exact-value oracle of the reference engine, run only where minimax finished and its oracle stays small; perfect order is the position's minimal tree (every node's children searched best first by their exact values, computed by the compiled engine).</p>`;
  }
  async function compare() {
    const token = ++compareToken;
    $("compare-out").innerHTML = "<p>comparing…</p>"; $("game-error").textContent = "";
    const body = {game: G.desc.game, position: G.desc.position, depth: +$("depth").value};
    let c;
    try { c = await api("/api/compare", body); }
    catch (e) { $("compare-out").innerHTML = ""; $("game-error").textContent = e.message; return; }
    window.SEARCHLAB_COMPARE = c;
    drawCompare(c, true);
    let row;
    try { row = await api("/api/minimal", body); }
    catch (e) { row = {algorithm: "alphabeta", ordering: "perfect", status: "not run", note: e.message}; }
    if (token !== compareToken) return;              // the position or the request changed meanwhile
    c.rows.push(row);
    if (row.status === "ok") {
      c.agree_value = c.agree_value && c.values.length === 1 && row.value === c.values[0];
      if (!c.values.includes(row.value)) c.values.push(row.value);
      if (!c.moves.some(m => m.move === row.best_move)) {
        c.moves.push({move: row.best_move, name: row.best_move_name, value: row.move_value});
        c.agree_move = false;
      }
    }
    drawCompare(c, false);
  }
  $("new-game").addEventListener("click", newGame);
  $("game").addEventListener("change", newGame);
  $("hex-n").addEventListener("change", newGame);
  $("engine-move").addEventListener("click", engineMove);
  $("compare").addEventListener("click", compare);
  $("undo").addEventListener("click", async () => { if (G.at > 0) { G.at--; G.pv = []; show(await api("/api/position", {game: G.desc.game, position: G.history[G.at]}), false); } });
  $("redo").addEventListener("click", async () => { if (G.at < G.history.length - 1) { G.at++; G.pv = []; show(await api("/api/position", {game: G.desc.game, position: G.history[G.at]}), false); } });
  $("load-position").addEventListener("click", () => load($("position").value));
  const tabs = on => { $("trace-view").hidden = on !== "trace"; $("play-view").hidden = on !== "play";
    $("tab-trace").className = on === "trace" ? "on" : ""; $("tab-play").className = on === "play" ? "on" : ""; };
  $("tab-trace").addEventListener("click", () => tabs("trace"));
  $("tab-play").addEventListener("click", () => tabs("play"));
  (async () => {
    META = await api("/api/meta");
    $("preset").innerHTML = Object.entries(META.presets).map(([k, v]) => `<option value="${k}">${v}</option>`).join("");
    $("algorithm").innerHTML = META.algorithms.map(a => `<option>${a}</option>`).join("");
    $("game-ordering").innerHTML = META.orderings.map(o => `<option${o === "id+tt+killer+history" ? " selected" : ""}>${o}</option>`).join("");
    $("hex-n").innerHTML = [...Array(11)].map((_, k) => `<option${k + 1 === 7 ? " selected" : ""}>${k + 1}</option>`).join("");
    await loadTree();
    await newGame();
    document.body.dataset.ready = "1";
  })();
})();
