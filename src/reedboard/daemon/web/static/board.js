// The board drawn in SVG as the server describes it (layout message's `drawing`, from
// reedboard/wiring/layouts/*.toml and the game's own lines: daemon/web/drawing.py), with its
// pieces (coloured by side), each LED's colour, the dice, and the signals as shapes (daemon/web/
// shapes.py): dots for landings, a ring for the lifted piece's hole, arrows for the hint and the
// computer's move, a last-move mark, a cross for "take this off". Shared by the live page and
// the history page.
"use strict";
const Board = (() => {
  const NS = "http://www.w3.org/2000/svg";
  const PITCH = 32, HOLE = 7.5, LED = 15, PIECE = 10.5, MIN_TAP = 44;
  // Okabe and Ito's colour-blind-safe palette: the LEDs use the same (hardware/lights.py)
  const OKABE = {
    landing: "#009e73", hint: "#e69f00", computer: "#0072b2", take: "#d55e00",
    last: "#f0e442", lifted: "#1a1a1a", sky: "#56b4e9", purple: "#cc79a7",
  };
  const DIE = ["", "\u2680", "\u2681", "\u2682", "\u2683", "\u2684", "\u2685"];

  function el(name, attrs, parent) {
    const e = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (parent) parent.appendChild(e);
    return e;
  }

  // The drawing the server sent, or one made from the layout alone (grid neighbours joined).
  function drawingOf(layout) {
    if (layout.drawing) return layout.drawing;
    const at = new Map(Object.entries(layout.points).map(([id, p]) => [p[0] + "," + p[1], id]));
    const lines = [];
    for (const [id, p] of Object.entries(layout.points)) {
      for (const [dx, dy] of [[1, 0], [0, 1]]) {
        const other = at.get((p[0] + dx) + "," + (p[1] + dy));
        if (other) lines.push([id, other]);
      }
    }
    return { style: "holes", size: layout.size, points: layout.points, lines, cells: {}, regions: [],
      edges: [], labels: Object.fromEntries(Object.keys(layout.points).map((id) => [id, id])), pieces: {} };
  }

  function draw(svg, layout) {
    svg.textContent = "";
    const d = drawingOf(layout);
    const squares = d.style === "squares";
    const margin = (d.edges.length ? 0.9 : squares ? 0.6 : 0.55) * PITCH;
    const [cols, rows] = d.size;
    const at = (id) => { const p = d.points[id]; return [margin + p[0] * PITCH, margin + p[1] * PITCH]; };
    const width = 2 * margin + (cols - 1) * PITCH, height = 2 * margin + (rows - 1) * PITCH;
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    svg.dataset.board = layout.board;
    svg.dataset.style = d.style;
    svg._board = { at, drawing: d, width, height, margin };
    const back = el("g", { class: "background" }, svg);
    for (const r of d.regions) {  // a nest, the home, the men waiting: a part of the board round its place
      const w = r.w * PITCH, h = (r.h || r.w) * PITCH;
      const x = margin + r.x * PITCH - w / 2, y = margin + r.y * PITCH - h / 2;
      el("rect", { class: `region ${r.kind} ${r.side || ""}`, x, y, width: w, height: h, rx: 6,
        "data-region": r.kind }, back);
    }
    for (const [a, b] of d.lines) {
      const [x1, y1] = at(a), [x2, y2] = at(b);
      el("line", { class: "line", x1, y1, x2, y2, "data-line": `${a}-${b}` }, back);
    }
    el("g", { class: "last-move" }, svg);
    const points = el("g", { class: "points" }, svg);
    for (const id of Object.keys(d.points)) {
      const [cx, cy] = at(id);
      const g = el("g", { class: "point", "data-point": id }, points);
      const cell = d.cells[id];
      if (squares) {
        const s = cell && cell.startsWith("nest") ? PITCH * 2.2 : PITCH;
        el("rect", { class: `square ${cell || ""}`, x: cx - s / 2, y: cy - s / 2, width: s, height: s }, g);
        el("rect", { class: "led", x: cx - s / 2 + 2, y: cy - s / 2 + 2, width: s - 4, height: s - 4, rx: 4 }, g);
        if (cell && cell.includes("safe")) el("circle", { class: "safe", cx, cy, r: PITCH * 0.4 }, g);
        el("rect", { class: "hit", x: cx - s / 2, y: cy - s / 2, width: s, height: s, fill: "transparent" }, g);
      } else {
        el("circle", { class: "led", cx, cy, r: LED }, g);
        el("circle", { class: "hole", cx, cy, r: HOLE }, g);
        el("circle", { class: "hit", cx, cy, r: PITCH / 2, fill: "transparent" }, g);
      }
      const label = d.labels[id];
      if (label !== undefined) {  // its own name inside it: in a square's corner, in a hole
        const t = squares
          ? el("text", { class: "label", x: cx - PITCH / 2 + 3, y: cy - PITCH / 2 + 9 }, g)
          : el("text", { class: "label in-hole", x: cx, y: cy, "text-anchor": "middle", "dominant-baseline": "central" }, g);
        t.textContent = label;
      }
    }
    for (const [name, value] of Object.entries(layout.marks || {})) {  // the Brier Patch &c.
      if (!Array.isArray(value) || squares) continue;
      for (const id of value) {
        if (!(id in d.points)) continue;
        const [cx, cy] = at(id);
        el("circle", { class: `mark ${name}`, cx, cy, r: LED + 0.5, "data-mark": name }, points);
      }
    }
    const edges = el("g", { class: "edges" }, svg);
    for (const e of d.edges) {  // coordinates at the edge, as on a chess board
      const t = el("text", { class: "edge", x: margin + e.x * PITCH, y: margin + e.y * PITCH,
        "text-anchor": "middle", "dominant-baseline": "central" }, edges);
      t.textContent = e.text;
    }
    el("g", { class: "pieces" }, svg);
    const shapes = el("g", { class: "shapes" }, svg);
    const defs = el("defs", {}, svg);
    for (const [name, colour] of [["hint", OKABE.hint], ["computer", OKABE.computer], ["candidate", OKABE.hint], ["last", "#6b5a10"]]) {
      const m = el("marker", { id: `arrow-${name}`, viewBox: "0 0 10 10", refX: 5, refY: 5,
        markerWidth: 3.2, markerHeight: 3.2, orient: "auto-start-reverse" }, defs);
      el("path", { d: "M 0 0 L 10 5 L 0 10 z", fill: colour }, m);
    }
    shapes.style.pointerEvents = "none";
    fit(svg);
  }

  // The board's size on the page: as large as its area and the window allow, and never so
  // small that a point is under 44 CSS px (its area then scrolls, and panning is let through).
  function fit(svg) {
    const b = svg._board;
    if (!b) return;
    const area = svg.parentElement;
    const avail = Math.max(200, area.clientWidth);
    const high = window.innerWidth > 700 ? (window.innerHeight - 70) / b.height : Infinity;
    const scale = Math.max(MIN_TAP / PITCH, Math.min(avail / b.width, high, 3.2));
    svg.style.width = `${Math.floor(b.width * scale)}px`;
    svg.style.height = `${Math.floor(b.height * scale)}px`;
    svg.classList.toggle("scrolls", b.width * scale > avail + 1);
    svg.dataset.pitch = (PITCH * scale).toFixed(1);
  }
  window.addEventListener("resize", () => document.querySelectorAll("svg[data-board]").forEach(fit));

  function centre(svg, id) {
    return svg._board && id in svg._board.drawing.points ? svg._board.at(id) : null;
  }

  function pieces(svg, shown, expected) {
    const layer = svg.querySelector("g.pieces");
    if (!layer) return;
    layer.textContent = "";
    const styles = svg._board.drawing.pieces || {};
    for (const g of svg.querySelectorAll("g.point")) g.classList.remove("occupied");
    for (const [id, letters] of Object.entries(shown)) {
      const c = centre(svg, id);
      const g = svg.querySelector(`g.point[data-point="${CSS.escape(id)}"]`);
      if (!c || !g) continue;
      g.classList.add("occupied");
      // men on one point, by side: one piece a side, with the count when more than one
      const groups = [];
      for (const ch of letters) {
        const last = groups.find((x) => x.letter === ch);
        if (last) last.n += 1; else groups.push({ letter: ch, n: 1 });
      }
      const piece = el("g", { class: "piece-at", "data-piece": id, "data-letters": letters }, layer);
      groups.forEach((grp, i) => {
        const style = styles[grp.letter] || { fill: "#888", ink: "#fff", side: "?", name: "unexpected" };
        const off = groups.length > 1 ? (i - (groups.length - 1) / 2) * 9 : 0;
        const r = groups.length > 1 ? PIECE * 0.75 : PIECE;
        const x = c[0] + off, y = c[1];
        el("circle", { class: "piece", cx: x, cy: y, r, fill: style.fill, "data-side": style.side }, piece);
        const t = el("text", { class: "piece-text", x, y, fill: style.ink, "font-size": grp.n > 1 ? 10 : 9 }, piece);
        t.textContent = grp.n > 1 ? String(grp.n) : (grp.letter === "?" ? "?" : grp.letter.toUpperCase());
        const title = el("title", {}, piece);
        title.textContent = `${style.name}${grp.n > 1 ? ` \u00d7${grp.n}` : ""} on ${id}`;
      });
    }
    for (const id of expected || []) {  // the game expects a piece here, but no switch reads one
      if (id in shown) continue;
      const c = centre(svg, id);
      if (!c) continue;
      el("circle", { class: "ghost", cx: c[0], cy: c[1], r: PIECE, "data-ghost": id }, layer);
    }
    layer.style.pointerEvents = "none";
  }

  // The men off the board waiting to come on (Messenger Boy's boys before their Start square),
  // in their region beside the board: one piece a side, with how many wait in all.
  function waiting(svg, counts) {
    const b = svg._board;
    const area = b && b.drawing.regions.find((r) => r.kind === "waiting");
    let layer = svg.querySelector("g.waiting");
    if (layer) layer.remove();
    if (!area) return;
    layer = el("g", { class: "waiting" }, svg);
    const styles = b.drawing.pieces || {};
    const entries = Object.entries(counts || {});
    const total = entries.reduce((n, [, k]) => n + k, 0);
    const left = b.margin + (area.x - area.w / 2) * PITCH, mid = b.margin + area.y * PITCH;
    const label = el("text", { class: "waiting-label", x: left + 6, y: mid, "dominant-baseline": "central" }, layer);
    label.textContent = total ? `to start: ${total}` : "none to start";
    layer.dataset.waiting = String(total);
    entries.forEach(([letter, n], i) => {
      const style = styles[letter] || { fill: "#888", ink: "#fff", side: "?", name: "a man" };
      const x = left + 78 + i * (PIECE * 2 + 4);
      const piece = el("g", { class: "piece-waiting", "data-waiting-side": style.side }, layer);
      el("circle", { class: "piece", cx: x, cy: mid, r: PIECE, fill: style.fill, "data-side": style.side }, piece);
      const t = el("text", { class: "piece-text", x, y: mid, fill: style.ink, "font-size": 9 }, piece);
      t.textContent = n > 1 ? String(n) : letter.toUpperCase();
      const title = el("title", {}, piece);
      title.textContent = `${style.name}: waiting to start${n > 1 ? ` (${n})` : ""}`;
    });
    layer.style.pointerEvents = "none";
  }

  function leds(svg, lit) {
    for (const g of svg.querySelectorAll("g.point")) {
      const colour = lit[g.dataset.point];
      const led = g.querySelector(".led");
      if (colour) {
        led.style.fill = colour;
        led.style.fillOpacity = "0.85";
        g.dataset.led = colour;
      } else {
        led.style.fill = "none";
        delete g.dataset.led;
      }
    }
  }

  // -- the signals as shapes ---------------------------------------------------------------

  function arrow(layer, svg, path, kind) {
    const pts = path.map((id) => centre(svg, id)).filter(Boolean);
    const g = el("g", { class: `arrow ${kind}`, "data-arrow": kind, "data-path": path.join(" ") }, layer);
    if (pts.length < 2) {  // a piece coming on: a target where it lands
      if (pts.length) el("circle", { cx: pts[0][0], cy: pts[0][1], r: PITCH * 0.42, class: "target" }, g);
      return g;
    }
    // stop short of the last point's centre, so the head sits on it, not past it
    const [x1, y1] = pts[pts.length - 2], [x2, y2] = pts[pts.length - 1];
    const len = Math.hypot(x2 - x1, y2 - y1) || 1, cut = Math.min(8, len / 3);
    const end = [x2 - (x2 - x1) / len * cut, y2 - (y2 - y1) / len * cut];
    const all = [...pts.slice(0, -1), end];
    el("polyline", { points: all.map((p) => p.join(",")).join(" "), "marker-end": `url(#arrow-${kind})` }, g);
    for (const p of pts.slice(1, -1)) el("circle", { class: "hop", cx: p[0], cy: p[1], r: 3.5 }, g);
    return g;
  }

  function lastMark(svg, last) {
    const layer = svg.querySelector("g.last-move");
    layer.textContent = "";
    if (!last) return;
    for (const path of last.paths) {
      for (const id of [path[0], path[path.length - 1]]) {
        const c = centre(svg, id);
        if (!c) continue;
        el("rect", { class: "last", x: c[0] - PITCH / 2, y: c[1] - PITCH / 2, width: PITCH, height: PITCH,
          rx: svg.dataset.style === "squares" ? 0 : PITCH / 2, "data-last": id }, layer);
      }
    }
  }

  function shapes(svg, marks) {
    const layer = svg.querySelector("g.shapes");
    if (!layer) return;
    layer.textContent = "";
    marks = marks || {};
    lastMark(svg, marks.last);
    const occupied = (id) => svg.querySelector(`g.point[data-point="${CSS.escape(id)}"].occupied`);
    for (const id of marks.landings || []) {  // a dot on an empty landing, a ring round a taken one
      const c = centre(svg, id);
      if (!c) continue;
      if (occupied(id)) el("circle", { class: "landing capture", cx: c[0], cy: c[1], r: PITCH * 0.44, "data-landing": id }, layer);
      else el("circle", { class: "landing", cx: c[0], cy: c[1], r: 5.5, "data-landing": id }, layer);
    }
    if (marks.lifted) {
      const c = centre(svg, marks.lifted);
      if (c) el("circle", { class: "lifted", cx: c[0], cy: c[1], r: PITCH * 0.46, "data-lifted": marks.lifted }, layer);
    }
    for (const kind of ["computer", "candidate", "hint"]) {
      for (const path of (marks[kind] && marks[kind].paths) || []) arrow(layer, svg, path, kind);
    }
    for (const id of marks.take_off || []) {  // a cross: take this piece off
      const c = centre(svg, id);
      if (!c) continue;
      const s = PITCH * 0.3, g = el("g", { class: "take-off", "data-take-off": id }, layer);
      el("line", { x1: c[0] - s, y1: c[1] - s, x2: c[0] + s, y2: c[1] + s }, g);
      el("line", { x1: c[0] - s, y1: c[1] + s, x2: c[0] + s, y2: c[1] - s }, g);
    }
    for (const id of marks.put_on || []) {  // a plus: put a piece here
      const c = centre(svg, id);
      if (!c) continue;
      const s = PITCH * 0.25, g = el("g", { class: "put-on", "data-put-on": id }, layer);
      el("line", { x1: c[0] - s, y1: c[1], x2: c[0] + s, y2: c[1] }, g);
      el("line", { x1: c[0], y1: c[1] - s, x2: c[0], y2: c[1] + s }, g);
    }
  }

  // -- words and sounds beside the board ---------------------------------------------------

  function area(svg, id, make) {
    let node = document.getElementById(id);
    if (!node) {
      node = make();
      node.id = id;
      svg.parentElement.appendChild(node);
    }
    return node;
  }

  const SOUND_KEY = "reedboard-sound";
  let audio = null;
  function soundOn() { try { return localStorage.getItem(SOUND_KEY) === "on"; } catch (e) { return false; } }
  function tone(notes) {  // [[hertz, seconds], ...] one after another, WebAudio
    if (!soundOn()) return;
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    let t = audio.currentTime;
    for (const [hz, secs, type] of notes) {
      const o = audio.createOscillator(), g = audio.createGain();
      o.type = type || "sine";
      o.frequency.value = hz;
      g.gain.setValueAtTime(0.15, t);
      g.gain.exponentialRampToValueAtTime(0.001, t + secs);
      o.connect(g).connect(audio.destination);
      o.start(t);
      o.stop(t + secs);
      t += secs * 0.8;
    }
  }
  const SOUNDS = {
    move: [[520, 0.08]],
    capture: [[420, 0.07], [300, 0.12]],
    mistake: [[180, 0.25, "square"]],
    dice: [[900, 0.04, "triangle"], [700, 0.04, "triangle"], [1000, 0.05, "triangle"]],
    end: [[523, 0.15], [659, 0.15], [784, 0.3]],
  };

  // What changed since the last state, as a sound's name (or null).
  function sound(before, m) {
    if (!before || before.game !== m.game) return null;
    if (m.outcome && !before.outcome) return "end";
    if (m.state === "mismatch" && before.state !== "mismatch") return "mistake";
    if (m.moves.length > before.moves.length) {
      if (m.dice && JSON.stringify(m.dice) !== JSON.stringify(before.dice)) return "dice";
      return m.marks && m.marks.last && m.marks.last.capture ? "capture" : "move";
    }
    return null;
  }

  // The state's signals on the board (shapes), in words beside it, and as a sound if wanted.
  function marks(svg, m) {
    shapes(svg, m.marks);
    const said = area(svg, "said", () => {
      const p = document.createElement("p");
      p.setAttribute("role", "status");
      p.setAttribute("aria-live", "polite");
      return p;
    });
    said.textContent = (m.said || []).join(" \u00b7 ");
    const toggle = area(svg, "sound", () => {
      const b = document.createElement("button");
      b.type = "button";
      b.addEventListener("click", () => {
        try { localStorage.setItem(SOUND_KEY, soundOn() ? "off" : "on"); } catch (e) { /* no storage */ }
        b.textContent = soundOn() ? "sound: on" : "sound: off";
        b.setAttribute("aria-pressed", String(soundOn()));
        if (soundOn()) tone(SOUNDS.move);
      });
      return b;
    });
    toggle.textContent = soundOn() ? "sound: on" : "sound: off";
    toggle.setAttribute("aria-pressed", String(soundOn()));
    const what = sound(svg._state, m);
    svg._state = m;
    document.body.dataset.sound = what || "";
    if (what) tone(SOUNDS[what]);
  }

  function dice(div, values) {
    div.textContent = "";
    for (const v of values || []) {
      const d = document.createElement("span");
      d.className = "die";
      d.dataset.value = v;
      d.textContent = v >= 1 && v <= 6 ? DIE[v] + "\u00a0" + v : String(v);
      div.appendChild(d);
    }
  }

  return { draw, fit, pieces, waiting, leds, shapes, marks, dice, OKABE };
})();
