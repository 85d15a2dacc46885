// searchlab lab page: the tree form and the game view; every figure comes from the JSON API.
"use strict";
(() => {
  const $ = id => document.getElementById(id);
  async function api(path, body, signal) {
    const r = await fetch(path, body === undefined ? {} : {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body), signal});
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
  $("layout").addEventListener("change", () => player.setLayout($("layout").value));
  // the offline export holds the traces of the ordering chosen here: the button says which
  const exportLabel = () => { $("export-html").textContent = `Export offline HTML (${$("ordering").value} order)`; };
  $("ordering").addEventListener("change", exportLabel);
  exportLabel();
  $("export-html").addEventListener("click", async () => {
    const body = traceBody();
    const r = await fetch("/api/export", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
    if (!r.ok) { $("tree-error").textContent = (await r.json()).error; return; }
    const a = document.createElement("a"); a.href = URL.createObjectURL(await r.blob()); a.download = `searchlab-trace-${body.ordering}.html`; a.click();
  });
  // ---------------------------------------------------------------- game view
  const G = {desc: null, history: [], at: -1, pv: [], busy: false};
  const LETTERS = "abcdefghijklmnopqrstuvwxyz";
  function svg(tag, attrs, parent) { const e = document.createElementNS("http://www.w3.org/2000/svg", tag); for (const k in attrs) e.setAttribute(k, attrs[k]); if (parent) parent.appendChild(e); return e; }
  function label(parent, x, y, text, anchor = "middle", size = 14) {
    const t = svg("text", {x, y, "text-anchor": anchor, "font-size": size, fill: "#333", class: "coord"}, parent); t.textContent = text; return t;
  }
  // a legal cell: clickable, and focusable and playable from the keyboard (Enter or Space)
  function playable(e, m, what) {
    e.setAttribute("tabindex", "0"); e.setAttribute("role", "button"); e.setAttribute("focusable", "true");
    e.setAttribute("aria-label", `play ${what}`); e.classList.add("legal");
    e.addEventListener("click", () => human(m));
    e.addEventListener("keydown", ev => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); human(m); } });
  }
  function drawBoard() {
    const d = G.desc, b = d.board, host = $("board"); host.innerHTML = "";
    // a game the page has no drawing for (plug-ins): its text and its moves as buttons
    if (d.view === "generic") { SearchlabGeneric.draw(host, d, human); $("pv-legend").hidden = true; settle(d, null); return; }
    // how to draw it: the game's declaration (LabBoard's drawing facts), sent with the position
    const dr = d.drawing, col = {1: dr.colours[0], 2: dr.colours[1]};
    const legal = new Map(d.legal.map(m => [m.cell ? m.cell.join(",") : "c" + m.move, m]));
    let s, cellXY, W, H;
    const M = 26;                            // the margin that holds the coordinates
    if (dr.layout === "hexagons") {
      const r = 26, w = Math.sqrt(3) * r, n = b.rows;
      W = w * n * 1.5 + 2 * w + M; H = 1.5 * r * n + 2 * r + 12 + M;
      s = svg("svg", {viewBox: `0 0 ${W} ${H}`}, host);
      cellXY = (i, j) => [M + w + j * w + i * w / 2, M + r + 14 + i * 1.5 * r];
      // each player's two edges drawn along the rhombus itself: X top and bottom, O left and right
      const edge = (pts, colour) => svg("polyline", {points: pts.map(p => p.join(",")).join(" "), fill: "none", stroke: colour,
                                                      "stroke-width": 8, "stroke-linecap": "round"}, s);
      const at = (i, j, dx, dy) => { const [x, y] = cellXY(i, j); return [x + dx, y + dy]; };
      edge([at(0, 0, -w / 2, -r), at(0, n - 1, w / 2, -r)], col[1]);
      edge([at(n - 1, 0, -w / 2, r), at(n - 1, n - 1, w / 2, r)], col[1]);
      edge([at(0, 0, -w * 0.75, -r / 2), at(n - 1, 0, -w * 0.25, r)], col[2]);
      edge([at(0, n - 1, w * 0.25, -r), at(n - 1, n - 1, w * 0.75, r / 2)], col[2]);
      for (let j = 0; j < n; j++) { const [x, y] = cellXY(0, j); label(s, x, y - r - 10, LETTERS[j]); }
      for (let i = 0; i < n; i++) { const [x, y] = cellXY(i, 0); label(s, x - w * 0.75 - 8, y + 5, String(i + 1), "end"); }
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
        const [x, y] = cellXY(i, j), pts = [...Array(6)].map((_, k) => { const a = Math.PI / 3 * k + Math.PI / 6; return `${x + r * Math.cos(a)},${y + r * Math.sin(a)}`; }).join(" ");
        const v = b.cells[i][j], m = legal.get(`${i},${j}`);
        const h = svg("polygon", {points: pts, fill: v ? col[v] : "#eee", stroke: "#666", class: "cell", "data-cell": `${i},${j}`}, s);
        if (m) playable(h, m, m.name); else h.setAttribute("aria-hidden", "true");
      }
    } else if (dr.layout === "columns") {
      // a rack: a move is a column, its disc lands on the column's lowest empty cell
      const c = 52, n = b.rows, nc = b.cols; W = nc * c + 8; H = n * c + 8 + M;
      s = svg("svg", {viewBox: `0 0 ${W} ${H}`}, host);
      svg("rect", {x: 0, y: M, width: nc * c + 8, height: n * c + 8, fill: "#1d4e89", rx: 8}, s);
      cellXY = (i, j) => [4 + j * c + c / 2, M + 4 + i * c + c / 2];
      for (let j = 0; j < nc; j++) label(s, cellXY(0, j)[0], M - 8, String(j + 1));
      for (let i = 0; i < n; i++) for (let j = 0; j < nc; j++) {
        const [x, y] = cellXY(i, j), v = b.cells[i][j];
        const e = svg("circle", {cx: x, cy: y, r: c / 2 - 5, fill: v ? col[v] : "#fff", class: "cell", "data-col": j}, s);
        const m = legal.get("c" + j);
        // one stop per column for the keyboard: the column's top cell
        if (m && i === 0) playable(e, m, `column ${m.name}`);
        else if (m) e.addEventListener("click", () => human(m));
      }
    } else {
      // any other game whose declaration gives cells: a grid of stones, or of marks (X, O)
      const n = b.rows, nc = b.cols, c = dr.cell_size, coords = dr.coordinates;
      W = nc * c + 4 + (coords ? M : 0); H = n * c + 4 + (coords ? M : 0);
      const o = coords ? M : 0;
      s = svg("svg", {viewBox: `0 0 ${W} ${H}`}, host);
      cellXY = (i, j) => [o + 2 + j * c + c / 2, o + 2 + i * c + c / 2];
      if (coords) {
        for (let j = 0; j < nc; j++) label(s, cellXY(0, j)[0], M - 8, LETTERS[j]);
        for (let i = 0; i < n; i++) label(s, M - 8, cellXY(i, 0)[1] + 5, String(i + 1), "end");
      }
      for (let i = 0; i < n; i++) for (let j = 0; j < nc; j++) {
        const [x, y] = cellXY(i, j), v = b.cells[i][j], m = legal.get(`${i},${j}`);
        const sq = svg("rect", {x: x - c / 2, y: y - c / 2, width: c, height: c, fill: dr.square, stroke: "#333", class: "cell", "data-cell": `${i},${j}`}, s);
        if (!dr.marks && v) svg("circle", {cx: x, cy: y, r: c / 2 - 5, fill: col[v], stroke: "#000"}, s);
        if (dr.hints && m) svg("circle", {cx: x, cy: y, r: 4, fill: "#9ccc65"}, s);
        // moves named by the cell's number (tic-tac-toe): it is written in the corner
        if (dr.numbered) label(s, x - c / 2 + 5, y - c / 2 + 15, String(nc * i + j), "start", 13);
        if (dr.marks && v) { const t = svg("text", {x, y: y + 18, "text-anchor": "middle", "font-size": 54, fill: col[v], class: "mark"}, s); t.textContent = META.games[d.game].sides[v - 1].split(" ")[0]; }
        if (m) playable(sq, m, coords ? m.name : `cell ${m.name}`);
      }
    }
    s.setAttribute("width", W); s.setAttribute("role", "group");
    s.setAttribute("aria-label", `${d.label} board, ${d.terminal ? "game over" : d.to_move + " to move"}`);
    const title = svg("title", {}, s); title.textContent = `${d.label} board`; s.prepend(title);
    // the engine's principal variation, numbered on the board (a rack of columns: the landing cell)
    const racked = dr.layout === "columns", heights = racked ? [...Array(b.cols)].map((_, j) => b.cells.filter(r => r[j]).length) : null;
    G.pv.forEach((m, k) => {
      let cell = m.cell;
      if (racked) { cell = [b.rows - 1 - heights[m.move], m.move]; heights[m.move]++; }
      if (!cell) return;
      const [x, y] = cellXY(cell[0], cell[1]);
      svg("circle", {cx: x, cy: y, r: 12, fill: k % 2 ? "#fff" : "#0072B2", stroke: "#0072B2", "stroke-width": 2, class: "pv-mark"}, s);
      const t = svg("text", {x, y: y + 5, "text-anchor": "middle", "font-size": 13, "font-weight": "bold", fill: k % 2 ? "#0072B2" : "#fff"}, s); t.textContent = k + 1;
    });
    $("pv-legend").hidden = G.pv.length === 0;
    $("pv-legend").innerHTML = G.pv.length === 0 ? "" : `Numbered discs: the line the engine expects from here (its principal variation, ` +
      `${G.pv.map(m => m.name).join(" ")}): <span class="pv-key pv-key-now">1</span> ${d.to_move}'s best reply by its search, ` +
      `<span class="pv-key">2</span> the engine's answer, and so on (filled: ${d.to_move}, white: the engine).`;
    settle(d, dr.passes ? d.legal.find(m => m.cell === null) : undefined);
  }
  // below the board: the pass button, the position's text field and the status line
  function settle(d, pass) {
    $("pass").hidden = !pass; $("pass").onclick = pass ? () => human(pass) : null;
    $("position").value = d.position;
    $("status").textContent = d.terminal ? `Game over: ${d.outcome}.` : `${d.to_move} to move.` + (pass ? ` ${d.to_move} has no legal move and must pass.` : "");
  }
  function show(desc, push = true) {
    if (push) { G.history = G.history.slice(0, G.at + 1); G.history.push(desc.position); G.at = G.history.length - 1; }
    G.desc = desc; drawBoard();
  }
  // while the engine searches, a move is being played or a game / position is loading, the
  // board and the game's buttons are locked: a click meanwhile would be played on a position
  // that the answer (the engine's move, the loaded game) then replaces. Compare is locked too
  // (it would compare the position being replaced), and stays disabled while a compare runs
  const LOCKED = ["new-game", "undo", "redo", "engine-move", "load-position", "pass", "game", "board-size", "compare"];
  async function locked(work) {
    if (G.busy) return;
    G.busy = true; $("board-wrap").setAttribute("aria-busy", "true"); $("board-wrap").classList.add("locked");
    LOCKED.forEach(id => $(id).disabled = true);
    try { await work(); }
    finally {
      G.busy = false; $("board-wrap").removeAttribute("aria-busy"); $("board-wrap").classList.remove("locked");
      LOCKED.forEach(id => $(id).disabled = false); $("compare").disabled = compareCtl !== null;
    }
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
  async function engineSearch() {
    $("game-error").textContent = ""; $("engine-info").textContent = "engine thinking… (the board is locked)";
    try {
      const body = engineBody(), r = await api("/api/search", body);
      const v = r.value === null ? "" : `value ${num(r.value)} for ${G.desc.to_move}, `;
      const info = r.status === "ok" ?
        `engine (${r.algorithm}, ${r.ordering}, depth ${r.depth}, ${r.engine}): move <b id="engine-move-name">${r.best_move_name}</b>, ${v}` +
        `nodes <b>${r.nodes.toLocaleString()}</b>, leaves ${r.leaves.toLocaleString()}, ${(r.wall_time * 1000).toFixed(1)} ms; PV ${r.pv.map(m => m.name).join(" ")}` :
        `the search ran out of its node budget (${r.nodes.toLocaleString()} nodes): no move; raise the budget or lower the depth`;
      if (r.status === "ok" && body.position === G.desc.position) {
        show(await api("/api/move", {game: G.desc.game, position: G.desc.position, move: r.best_move}));
        G.pv = r.pv.slice(1); drawBoard();
      }
      $("engine-info").innerHTML = info;      // after the move: the page is settled when it shows
    } catch (e) { $("game-error").textContent = e.message; $("engine-info").textContent = ""; }
  }
  const engineMove = () => locked(engineSearch);
  function human(m) {
    return locked(async () => {
      $("game-error").textContent = ""; G.pv = [];
      try { show(await api("/api/move", {game: G.desc.game, position: G.desc.position, move: m.move})); if (engineTurn()) await engineSearch(); }
      catch (e) { $("game-error").textContent = e.message; }
    });
  }
  async function load(position) {
    $("game-error").textContent = ""; G.pv = []; cancelCompare(); $("compare-out").innerHTML = ""; $("engine-info").textContent = "";
    try { const d = await api("/api/position", {game: $("game").value, position}); show(d); return d; }
    catch (e) { $("game-error").textContent = e.message; }
  }
  const newGame = () => locked(async () => {
    // a game played on several board sizes (its drawing's sizes): the new game is the chosen size
    const g = $("game").value, sizes = META.games[g].drawing ? META.games[g].drawing.sizes : [];
    $("board-size-label").hidden = !sizes.length;
    const options = sizes.map(k => `<option${k === META.games[g].drawing.size ? " selected" : ""}>${k}</option>`).join("");
    if (sizes.length && $("board-size").dataset.game !== g) { $("board-size").innerHTML = options; $("board-size").dataset.game = g; }
    $("depth").value = META.games[g].default_depth;
    G.history = []; G.at = -1;
    await load(sizes.length ? $("board-size").value : "");
    if (engineTurn()) await engineSearch();
  });
  // "Compare": one request per row (/api/compare with "row"), drawn as each finishes, then the
  // perfect-ordering row (the position's minimal tree) from /api/minimal. Cancel aborts the
  // request in flight; the server stops its search when the connection drops.
  const N_ROWS = 7;
  let compareCtl = null;
  function cancelCompare() { if (compareCtl) compareCtl.abort(); }
  const fmtN = n => n.toLocaleString("en");
  const TEXT_WIDTH = document.createElement("canvas");      // measures the chart's labels
  function rowHtml(c, r, k) {
    const head = `<tr role="row" data-row="${k}" data-status="${r.status}"><td role="cell">${r.algorithm}</td><td role="cell">${r.ordering}</td>`;
    const td = (label, v, cls = "") => `<td role="cell" data-label="${label}"${cls ? ` class="${cls}"` : ""}>${v}</td>`;
    const tail = x => td("ms", (r.wall_time * 1000).toFixed(1)) + td("EBF", r.ebf == null ? "" : r.ebf.toFixed(2)) + td("engine", x) + "</tr>";
    if (r.status === "ok") return head + td("move", r.best_move_name, "c-move") + td("value", num(r.value), "c-value") +
      td("nodes", fmtN(r.nodes), "c-nodes") + td("leaves", fmtN(r.leaves), "c-leaves") + tail(r.engine);
    if (r.status === "counted") return head +
      `<td role="cell" colspan="2" class="note">counted, not searched</td>` + td("nodes", fmtN(r.nodes), "c-nodes") + td("leaves", fmtN(r.leaves), "c-leaves") + tail("counted");
    // worst order not run: its count is at most minimax's (all of it unless ties cut)
    const mm = c.rows[0], bound = r.ordering === "worst" && mm && mm.nodes != null && mm.status !== "aborted" ?
      `<td role="cell" data-label="nodes" class="c-bound" title="at most minimax's count">≤ ${fmtN(mm.nodes)}</td>` : "";
    return head + (bound ? `<td role="cell" colspan="2" class="note">${r.status}</td>${bound}<td role="cell" colspan="4" class="note">${r.note}</td></tr>` :
      `<td role="cell" colspan="7" class="note">${r.status}: ${r.note}</td></tr>`);
  }
  function agreement(c) {
    const done = c.rows.filter(r => r.status === "ok"), values = [...new Set(done.map(r => r.value))];
    const moves = [...new Map(done.map(r => [r.best_move, {name: r.best_move_name, value: r.move_value}])).values()];
    if (!done.length) return "";
    if (values.length > 1) return "The searches DISAGREE on the value: " + values.map(num).join(", ");
    if (moves.length === 1) return `Every finished search chose the same move ${moves[0].name} with the same value ${num(values[0])} (for ${G.desc.to_move}).`;
    return `Every finished search found the value ${num(values[0])} (for ${G.desc.to_move}); they chose different moves, ` +
      moves.map(m => `${m.name} (value ${num(m.value)})`).join(", ") + ": " +
      (moves.every(m => m.value === values[0]) ? "each of equal value (checked by a search of the position after it), so all are best moves." : "not all checked to be of equal value.");
  }
  function drawCompare(c, state) {
    const waiting = k => `<tr role="row" data-row="${k}" data-status="pending"><td role="cell" colspan="9" class="note">${k === c.rows.length && state === "running" ? "computing…" : state === "cancelled" ? "cancelled" : "waiting"}</td></tr>`;
    const rows = [...Array(N_ROWS)].map((_, k) => k < c.rows.length ? rowHtml(c, c.rows[k], k) : waiting(k)).join("");
    // log scale with its decades drawn and labelled, so that a bar's length can be read;
    // minimax (searched or counted) is the first bar
    const ok = c.rows.filter(r => r.status === "ok" || r.status === "counted");
    const decades = Math.max(1, Math.ceil(Math.log10(Math.max(...ok.map(r => r.nodes), 10))));
    const labels = ok.map(r => r.algorithm === "minimax" ? "minimax" + (r.status === "counted" ? " (counted)" : "") : "αβ " + r.ordering);
    const ctx = TEXT_WIDTH.getContext("2d"); ctx.font = `16px ${getComputedStyle(document.body).fontFamily}`;
    const lw = Math.ceil(Math.max(60, ...labels.map(l => ctx.measureText(l).width))), avail = $("compare-out").clientWidth || 900;
    const stacked = lw + 14 + 300 + 110 > avail, row = stacked ? 46 : 30, lab = stacked ? 17 : 0;
    const X0 = stacked ? 2 : lw + 14, W = stacked ? avail - 110 : Math.min(560, avail - X0 - 110), CW = X0 + W + 108;
    const H = Math.max(1, ok.length) * row, xs = n => X0 + W * Math.log10(Math.max(n, 1)) / decades;
    const every = Math.max(1, Math.ceil(decades * 48 / W));      // axis labels >= 48 px apart: none overlap
    const grid = [...Array(decades + 1)].map((_, k) => `<line x1="${xs(10 ** k)}" y1="0" x2="${xs(10 ** k)}" y2="${H + 4}" stroke="#767676"/>` +
      (k % every ? "" : `<text class="tick" x="${xs(10 ** k)}" y="${H + 22}" font-size="14" text-anchor="${k ? "middle" : "start"}">${k ? "10^" + k : "1"}</text>`)).join("");
    const bar = grid + ok.map((r, k) => { const w = Math.max(2, xs(r.nodes) - X0), y = k * row + lab;
      return `<text class="bar-label" x="${stacked ? X0 : 0}" y="${stacked ? y - 3 : y + 20}" font-size="16" stroke="#fafafa" stroke-width="4" paint-order="stroke">${labels[k]}</text>` +
        `<rect x="${X0}" y="${y + 5}" width="${w}" height="22" fill="${r.algorithm === "minimax" ? "#D55E00" : "#0072B2"}"/>` +
        `<text x="${Math.min(X0 + 6 + w, X0 + W + 4)}" y="${y + 21}" font-size="15">${fmtN(r.nodes)}</text>`; }).join("");
    $("compare-out").innerHTML = `<h3>Compare at depth ${c.depth}: ${G.desc.label}, position “${c.position || "start"}”</h3>
      <p class="agree" id="agree">${agreement(c)}</p>
      <div class="scroll-x" tabindex="0" role="region" aria-label="the comparison table (scrolls sideways on a narrow screen)"><table class="cmp" id="compare-table" role="table" data-done="${state === "done" ? 1 : 0}"><caption>The algorithms at depth ${c.depth}${state === "cancelled" ? " (cancelled)" : ""}</caption>
      <tr role="row" class="head">${["algorithm", "ordering", "move", "value", "nodes", "leaves", "ms", "EBF", "engine"].map(h => `<th role="columnheader" scope="col">${h}</th>`).join("")}</tr>${rows}</table></div>
      <p class="note">nodes searched, log scale (alpha-beta “αβ” under each ordering; minimax counted where searching it is infeasible):</p>
      <svg id="compare-chart" role="img" aria-labelledby="compare-chart-title" viewBox="0 0 ${CW} ${H + lab + 30}" width="${CW}"><title id="compare-chart-title">Nodes searched per algorithm and ordering, log scale</title>${bar}</svg>
      <p class="note">Values are for the side to move. EBF: R&amp;N's b*, nodes = b* + b*² + … + b*^d. “counted”: minimax's exact node count, the depth-limited tree counted without searching it, where a search would pass ${fmtN(META.caps.minimax_budget)} nodes. Worst order is an exact-value oracle of the reference engine, run only where minimax finished and its oracle stays small (else ≤ minimax's count: it searches every node minimax does unless ties cut); perfect order is the position's minimal tree (every node's children searched best first by their exact values, computed by the compiled engine).</p>`;
  }
  async function compare() {
    if (compareCtl) return;
    const ctl = compareCtl = new AbortController();
    $("compare").disabled = true; $("cancel-compare").hidden = false; $("game-error").textContent = "";
    const body = {game: G.desc.game, position: G.desc.position, depth: +$("depth").value};
    const c = window.SEARCHLAB_COMPARE = {game: body.game, position: body.position, depth: body.depth, rows: []};
    let state = "running";
    drawCompare(c, state);
    try {
      for (let k = 0; k < N_ROWS - 1; k++) { c.rows.push((await api("/api/compare", {...body, row: k}, ctl.signal)).rows[0]); drawCompare(c, state); }
      let row;
      try { row = await api("/api/minimal", body, ctl.signal); }
      catch (e) { if (e.name === "AbortError") throw e; row = {algorithm: "alphabeta", ordering: "perfect", status: "not run", note: e.message}; }
      c.rows.push(row); state = "done";
    } catch (e) {
      state = "cancelled";
      if (e.name !== "AbortError") $("game-error").textContent = e.message;
    } finally {
      compareCtl = null; $("compare").disabled = G.busy; $("cancel-compare").hidden = true;
      if (document.getElementById("compare-table")) drawCompare(c, state);
    }
  }
  $("new-game").addEventListener("click", newGame);
  $("game").addEventListener("change", newGame);
  $("board-size").addEventListener("change", newGame);
  $("engine-move").addEventListener("click", engineMove);
  $("compare").addEventListener("click", compare);
  $("cancel-compare").addEventListener("click", cancelCompare);
  $("undo").addEventListener("click", () => locked(async () => { if (G.at > 0) { G.at--; G.pv = []; show(await api("/api/position", {game: G.desc.game, position: G.history[G.at]}), false); } }));
  $("redo").addEventListener("click", () => locked(async () => { if (G.at < G.history.length - 1) { G.at++; G.pv = []; show(await api("/api/position", {game: G.desc.game, position: G.history[G.at]}), false); } }));
  $("load-position").addEventListener("click", () => locked(() => load($("position").value)));
  const tabs = on => { $("trace-view").hidden = on !== "trace"; $("play-view").hidden = on !== "play";
    $("tab-trace").className = on === "trace" ? "on" : ""; $("tab-play").className = on === "play" ? "on" : "";
    $("tab-trace").setAttribute("aria-pressed", on === "trace"); $("tab-play").setAttribute("aria-pressed", on === "play"); };
  $("tab-trace").addEventListener("click", () => tabs("trace"));
  $("tab-play").addEventListener("click", () => tabs("play"));
  (async () => {
    META = await api("/api/meta");
    $("preset").innerHTML = Object.entries(META.presets).map(([k, v]) => `<option value="${k}">${v}</option>`).join("");
    $("game").innerHTML = Object.entries(META.games).map(([k, g]) => `<option value="${k}">${g.label}</option>`).join("");
    $("algorithm").innerHTML = META.algorithms.map(a => `<option>${a}</option>`).join("");
    $("game-ordering").innerHTML = META.orderings.map(o => `<option${o === "id+tt+killer+history" ? " selected" : ""}>${o}</option>`).join("");
    // a box for each plug-in algorithm the trace player offers, after the built-ins' boxes
    const boxed = new Set([...document.querySelectorAll(".alg")].map(x => x.value));
    for (const a of META.trace_algorithms.filter(a => !boxed.has(a))) {
      const box = document.createElement("input"), label = document.createElement("label");
      Object.assign(box, {type: "checkbox", className: "alg", value: a});
      box.addEventListener("change", loadTree);
      label.append(box, " " + a); $("tree-form").querySelector("fieldset.algs").appendChild(label);
    }
    await loadTree();
    await newGame();
    document.body.dataset.ready = "1";
  })();
})();
