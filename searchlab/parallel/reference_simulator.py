"""The parallel simulator written to be read: the specification of _sim_kernel.py (natural order).

Same rules (docs/parallel.md), same event order, same numbers: tests/parallel compares every
field of every result with the compiled simulator's. It walks the tree through the Game protocol
(``tree.play``, ``hash_key``, ``utility``/``evaluate``), so it is slow: use it on small trees.

Vocabulary: a *processor* runs a *job* (sequential fail-soft alpha-beta of one subtree, one
*frame* per ply on its stack); a *step* finishes what the previous visit started (values
travelling up, table stores, split-point reports, splits) and then visits one node; steps run in
(time, processor id) order on a heap.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, field
from typing import Any

from searchlab.hashing import mix64

INF = math.inf
EXACT, LOWER, UPPER = 0, 1, 2
RUNNING, IDLE, WAITING = "running", "idle", "waiting"
COUNTERS = ("nodes", "leaves", "tt_probes", "tt_hits", "tt_cutoffs", "deferred", "splits",
            "jobs", "messages", "aborts", "cutoffs")


@dataclass
class Frame:
    """An interior node on a processor's stack, with its alpha-beta state."""

    state: tuple
    ply: int
    alpha: float
    beta: float
    alpha0: float              # the window it was entered with (for the table's bound type)
    beta0: float
    value: float
    children: list             # child states in natural order
    order: list[int]           # search order (natural indices)
    pv: bool
    pos: int = 0               # children taken in the current pass
    cur: int = -1              # the child this processor is searching
    best: int = -1
    second_pass: bool = False  # ABDADA: searching the deferred children
    deferred: set = field(default_factory=set)
    split: bool = False        # an active split point
    held_slot: int = -1        # ABDADA: the table slot whose in-progress count it holds


@dataclass
class Entry:
    key: int
    depth: int                 # remaining depth; -1: an in-progress marker without a value
    value: float = 0.0
    bound: int = EXACT
    searching: int = 0         # ABDADA: processors searching this node


@dataclass
class Processor:
    id: int
    frames: list               # frames[ply]; a job's frames start at ``base``
    state: str = RUNNING
    top: int = 0
    base: int = 0
    result: float | None = None    # the value the node at ``top`` returned, not yet passed up
    on_eval: bool = False          # ... ABDADA's "on evaluation" answer
    works_for: tuple | None = None  # (owner id, ply) of a helper's split point
    job_move: int = -1
    aborted: bool = False
    pending: str | None = None     # "root" or "job": a visit due at the next step
    idle_since: float = 0.0
    idle: float = 0.0
    count: dict = field(default_factory=lambda: dict.fromkeys(COUNTERS, 0))


class Simulation:
    """One simulated parallel search (``run()`` returns the raw outcome; simulate.py's
    ``simulate(..., engine="reference")`` wraps it in a SimResult)."""

    def __init__(self, tree: Any, algorithm: str, p: int, depth: int, costs: Any, min_split: int,
                 tt_bits: int, seed_salt: int, max_nodes: int) -> None:
        self.tree, self.alg, self.p, self.depth = tree, algorithm, p, depth
        self.costs, self.min_split, self.max_nodes = costs, min_split, max_nodes
        self.seed_salt = seed_salt
        self.use_tt = algorithm in ("abdada", "lazy-smp")
        self.tt: list[Entry | None] = [None] * ((1 << tt_bits) if self.use_tt else 1)
        self.procs = [Processor(q, [None] * (depth + 1)) for q in range(p)]
        self.heap: list[tuple[float, int]] = []
        self.splits: list[tuple[int, int]] = []        # active split points (owner id, ply)
        self.helpers: dict[tuple[int, int], int] = {}  # split point -> jobs working for it

    # --- the tree --------------------------------------------------------------------------
    def expand(self, q: Processor, state: tuple, ply: int, alpha: float, beta: float,
               pv: bool) -> Frame:
        tree = self.tree
        children = [tree.play(state, m) for m in tree.legal_moves(state)]
        order = list(range(len(children)))
        if self.alg == "lazy-smp" and q.id > 0 and len(children) > 2:
            # a helper keeps the first move first, the rest in the order of its own hash
            salt = mix64(self.seed_salt ^ q.id)
            rest = sorted(range(1, len(children)),
                          key=lambda j: (mix64(tree.hash_key(children[j]) ^ salt), j))
            order = [0] + rest
        return Frame(state, ply, alpha, beta, alpha, beta, -INF if ply % 2 == 0 else INF,
                     children, order, pv)

    def leaf_value(self, state: tuple) -> float:
        tree = self.tree
        return tree.utility(state) if tree.is_terminal(state) else tree.evaluate(state)

    # --- the shared table -------------------------------------------------------------------
    def slot(self, key: int) -> int:
        return key & (len(self.tt) - 1)

    def store(self, frame: Frame, cost: float) -> float:
        key = self.tree.hash_key(frame.state)
        i = self.slot(key)
        e = self.tt[i]
        same = e is not None and e.key == key
        if frame.held_slot == i and same:
            e.searching -= 1
        if same or e is None or e.searching == 0:
            v = frame.value
            bound = UPPER if v <= frame.alpha0 else LOWER if v >= frame.beta0 else EXACT
            self.tt[i] = Entry(key, self.depth - frame.ply, v, bound, e.searching if same else 0)
        return cost + self.costs.tt

    # --- split points -----------------------------------------------------------------------
    def abort_helpers(self, sp: tuple[int, int], now: float) -> None:
        """Abort every job working for split point sp and, recursively, the split points
        inside them; an aborted processor notices at its next event (a waiting one now)."""
        todo = [h for h in self.procs if h.works_for == sp]
        self.helpers[sp] = 0
        while todo:
            h = todo.pop()
            for t in range(h.base, h.top + 1):
                f = h.frames[t]
                if f is not None and f.split:
                    f.split = False
                    self.splits.remove((h.id, t))
                    self.helpers[(h.id, t)] = 0
                    todo += [h2 for h2 in self.procs if h2.works_for == (h.id, t)]
            h.works_for, h.aborted, h.pending = None, True, None
            h.count["aborts"] += 1
            if h.state == WAITING:
                h.state = RUNNING
                h.idle += now - h.idle_since
                heapq.heappush(self.heap, (now, h.id))

    def close_split(self, o: Processor, t: int, now: float, wake_at: float) -> None:
        """Split point (o, t) is finished (a cutoff, or its last job reported): its owner
        returns the frame's value, dropping whatever it still searches above t."""
        self.abort_helpers((o.id, t), now)
        o.frames[t].split = False
        self.splits.remove((o.id, t))
        if o.state == WAITING:
            o.state = RUNNING
            o.idle += wake_at - o.idle_since
            heapq.heappush(self.heap, (wake_at, o.id))
        for u in range(t + 1, o.top + 1):
            f = o.frames[u]
            if f is not None and f.split:
                self.abort_helpers((o.id, u), now)
                f.split = False
                self.splits.remove((o.id, u))
        o.top, o.result, o.on_eval = t, o.frames[t].value, False

    def start_job(self, r: Processor, o: Processor, t: int, at: float) -> None:
        """Idle processor r takes the next child of split point (o, t); it visits it at its
        next step, after a message."""
        f = o.frames[t]
        r.job_move = f.order[f.pos]
        f.pos += 1
        r.idle += at - r.idle_since
        r.state, r.works_for, r.base, r.aborted, r.pending = RUNNING, (o.id, t), t + 1, False, "job"
        self.helpers[(o.id, t)] += 1
        r.count["jobs"] += 1
        r.count["messages"] += 1
        heapq.heappush(self.heap, (at + self.costs.message, r.id))

    # --- alpha-beta on a frame ------------------------------------------------------------
    @staticmethod
    def fold(f: Frame, c: float, move: int) -> bool:
        """Fold a child's value into the frame (fail-soft alpha-beta); True on a cutoff."""
        if f.ply % 2 == 0:
            if c > f.value:
                f.value, f.best = c, move
            if f.value >= f.beta:
                return True
            f.alpha = max(f.alpha, f.value)
        else:
            if c < f.value:
                f.value, f.best = c, move
            if f.value <= f.alpha:
                return True
            f.beta = min(f.beta, f.value)
        return False

    def next_child(self, f: Frame) -> tuple[int, bool]:
        """(natural index, exclusive) of the frame's next child, or (-1, False). ABDADA
        searches all but the first exclusively, then the deferred ones in a second pass."""
        while True:
            if f.pos < len(f.order):
                j = f.order[f.pos]
                f.pos += 1
                if f.second_pass:
                    if j not in f.deferred:
                        continue
                    f.deferred.discard(j)
                    return j, False
                return j, self.alg == "abdada" and f.pos > 1
            if self.alg == "abdada" and not f.second_pass and f.deferred:
                f.second_pass, f.pos = True, 0
                continue
            return -1, False

    # --- one step -------------------------------------------------------------------------
    def step(self, q: Processor, now: float) -> tuple[float, str]:
        """Processor q's step at ``now``: (cost, "continue" | "parked" | "done")."""
        cost = 0.0
        visit = None                       # (source processor, parent ply, child) or "root"
        ex = False
        pv = False
        if q.pending == "root":
            q.pending, visit = None, "root"
        elif q.pending == "job":
            q.pending = None
            o, t = q.works_for
            visit = (self.procs[o], t, q.job_move)
        elif q.aborted:
            q.aborted, q.result = False, None
        else:
            fresh = q.result is None and not q.on_eval
            c, on_eval = q.result, q.on_eval
            t = q.top + 1 if fresh else q.top
            while True:
                if not fresh and t == q.base:
                    if q.works_for is None:              # the root of the search
                        self.value = c
                        return cost, "done"
                    # a helper's job is done: report to its split point, then find work
                    o, ts = self.procs[q.works_for[0]], q.works_for[1]
                    sp = q.works_for
                    cost += self.costs.message
                    q.count["messages"] += 1
                    self.helpers[sp] -= 1
                    q.works_for = None
                    f = o.frames[ts]
                    if self.fold(f, c, q.job_move):
                        if f.pos < len(f.order):
                            q.count["cutoffs"] += 1
                        self.close_split(o, ts, now, now + cost)
                    elif f.pos >= len(f.order) and self.helpers[sp] == 0 and o.state == WAITING \
                            and o.top == ts:
                        self.close_split(o, ts, now, now + cost)
                    break
                pt = t - 1
                f = q.frames[pt]
                cut = False
                if fresh:
                    fresh = False
                elif on_eval:
                    f.deferred.add(f.cur)
                    on_eval = False
                else:
                    cut = self.fold(f, c, f.cur)
                    if cut and f.pos < len(f.order):
                        q.count["cutoffs"] += 1
                if not cut:
                    i, ex = self.next_child(f)
                    if i >= 0:
                        visit = (q, pt, i)
                        pv = f.pv if f.pos == 1 else False
                        if not f.split and self.alg in ("ybwc", "pv-split") and f.pos == 2 \
                                and any(r.state == IDLE for r in self.procs) \
                                and self.depth - pt >= self.min_split \
                                and (self.alg == "ybwc" or f.pv):
                            # a split point: the owner has taken the second child, idle
                            # processors take the rest (lowest id first)
                            f.split = True
                            self.splits.append((q.id, pt))
                            self.helpers[(q.id, pt)] = 0
                            cost += self.costs.split
                            q.count["splits"] += 1
                            for r in self.procs:
                                if f.pos >= len(f.order):
                                    break
                                if r.state == IDLE:
                                    self.start_job(r, q, pt, now + cost)
                        break
                    if f.split and self.helpers[(q.id, pt)] > 0:   # wait for the helpers
                        q.top, q.state, q.idle_since = pt, WAITING, now + cost
                        return cost, "parked"
                if f.split:
                    if cut:
                        self.abort_helpers((q.id, pt), now)
                    f.split = False
                    self.splits.remove((q.id, pt))
                # frame pt is finished: store it in the table, return its value
                if self.use_tt and pt > 0:
                    cost = self.store(f, cost)
                t, c = pt, f.value
        if visit is not None:
            return self.visit(q, visit, ex, pv, cost), "continue"
        # q's job is over (done, or aborted): a child of the split point nearest the root
        avail = [(t, o) for (o, t) in self.splits
                 if self.procs[o].frames[t].pos < len(self.procs[o].frames[t].order)]
        q.state, q.idle_since = IDLE, now + cost
        if avail:
            t, o = min(avail)
            self.start_job(q, self.procs[o], t, now + cost)
        return cost, "parked"

    def visit(self, q: Processor, visit, ex: bool, pv: bool, cost: float) -> float:
        """Visit one node as q's new top: count it; a leaf, a table cutoff or ABDADA's "on
        evaluation" leaves a value pending; an interior node gets its frame."""
        if visit == "root":
            state, t, alpha, beta, pv = self.tree.initial_state(), 0, -INF, INF, True
        else:
            src, pf, i = visit
            f = src.frames[pf]
            state, t, alpha, beta = f.children[i], pf + 1, f.alpha, f.beta
            if src is q:
                f.cur = i
            else:
                pv = False
        cost += self.costs.node
        q.top = t
        q.count["nodes"] += 1
        self.total += 1
        q.result, q.on_eval = None, False
        if t >= self.depth or self.tree.is_terminal(state):
            q.count["leaves"] += 1
            q.result = self.leaf_value(state)
            return cost
        held = -1
        if self.use_tt and t > 0:
            cost += self.costs.tt
            q.count["tt_probes"] += 1
            key = self.tree.hash_key(state)
            i = self.slot(key)
            e = self.tt[i]
            same = e is not None and e.key == key
            if same:
                q.count["tt_hits"] += 1
                if e.depth >= self.depth - t and (
                        e.bound == EXACT or (e.bound == LOWER and e.value >= beta)
                        or (e.bound == UPPER and e.value <= alpha)):
                    q.count["tt_cutoffs"] += 1
                    q.result = e.value
                    return cost
            if self.alg == "abdada":
                if same and ex and e.searching > 0:
                    q.count["deferred"] += 1
                    q.on_eval = True
                    return cost
                if same:
                    e.searching += 1
                    held = i
                elif e is None or e.searching == 0:
                    self.tt[i] = Entry(key, -1, searching=1)
                    held = i
        q.frames[t] = self.expand(q, state, t, alpha, beta, pv)
        q.frames[t].held_slot = held
        return cost

    # --- the run ----------------------------------------------------------------------------
    def run(self) -> tuple[str, float | None, int, float, int]:
        """(status, value, best move, time, winner): status "ok", "aborted" (node budget)."""
        self.total, self.value = 0, None
        starters = self.p if self.use_tt else 1
        for q in self.procs:
            if q.id < starters:
                q.pending = "root"
                heapq.heappush(self.heap, (0.0, q.id))
            else:
                q.state = IDLE
        now, status, winner = 0.0, "empty", -1
        while self.heap:
            now, qid = heapq.heappop(self.heap)
            q = self.procs[qid]
            cost, outcome = self.step(q, now)
            if outcome == "done":
                status, winner = "ok", qid
                break
            if outcome == "continue":
                heapq.heappush(self.heap, (now + cost, qid))
            if self.total > self.max_nodes:
                status = "aborted"
                break
        for q in self.procs:
            if q.state != RUNNING:
                q.idle += max(0.0, now - q.idle_since)
        best = self.procs[winner].frames[0].best if winner >= 0 else -1
        return status, self.value if status == "ok" else None, best, now, winner

