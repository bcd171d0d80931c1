// The board drawn in SVG from its layout (reedboard/wiring/layouts/*.toml: each point's drawing grid
// place), with pieces, each LED's colour, and the dice. Shared by the live page and history.
"use strict";
const Board = (() => {
  const NS = "http://www.w3.org/2000/svg";
  const PITCH = 32, MARGIN = 22, HOLE = 6, LED = 13, PIECE = 10;
  const MARK_COLOURS = { brier_patch: "#c0282d" };
  const PIECE_COLOURS = {
    F: "#c0282d", G: "#f5f5f0", o: "#6b3f1f", W: "#f5f5f0", R: "#c0282d", B: "#7a4a25",
    r: "#c0282d", b: "#222", Y: "#e8c020", "?": "#888",
  };
  const DIE = ["", "\u2680", "\u2681", "\u2682", "\u2683", "\u2684", "\u2685"];

  function el(name, attrs, parent) {
    const e = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (parent) parent.appendChild(e);
    return e;
  }
  const at = (p) => [MARGIN + p[0] * PITCH, MARGIN + p[1] * PITCH];

  function draw(svg, layout) {
    svg.textContent = "";
    const [cols, rows] = layout.size;
    svg.setAttribute("viewBox", `0 0 ${2 * MARGIN + (cols - 1) * PITCH} ${2 * MARGIN + (rows - 1) * PITCH}`);
    svg.dataset.board = layout.board;
    const byPlace = new Map();
    for (const [id, p] of Object.entries(layout.points)) byPlace.set(p[0] + "," + p[1], id);
    const lines = el("g", {}, svg);
    for (const p of Object.values(layout.points)) {  // neighbours on the grid are joined
      for (const [dx, dy] of [[1, 0], [0, 1]]) {
        if (byPlace.has((p[0] + dx) + "," + (p[1] + dy))) {
          const [x1, y1] = at(p), [x2, y2] = at([p[0] + dx, p[1] + dy]);
          el("line", { class: "line", x1, y1, x2, y2 }, lines);
        }
      }
    }
    const points = el("g", {}, svg);
    for (const [id, p] of Object.entries(layout.points)) {
      const [cx, cy] = at(p);
      const g = el("g", { class: "point", "data-point": id }, points);
      el("circle", { class: "led", cx, cy, r: LED }, g);
      el("circle", { class: "hole", cx, cy, r: HOLE }, g);
      el("circle", { class: "hit", cx, cy, r: PITCH / 2, fill: "transparent" }, g);
      const label = el("text", { class: "label", x: cx - PITCH / 2 + 2, y: cy - PITCH / 2 + 8 }, g);
      label.textContent = id;
    }
    for (const [name, value] of Object.entries(layout.marks || {})) {
      const ids = Array.isArray(value) ? value : [];
      for (const id of ids) {
        const p = layout.points[id];
        if (!p) continue;
        const [cx, cy] = at(p);
        el("circle", { class: "mark", cx, cy, r: LED + 2, stroke: MARK_COLOURS[name] || "#444" }, points);
      }
      if (!Array.isArray(value) && typeof value === "object") {
        for (const [who, id] of Object.entries(value)) {
          const p = layout.points[id];
          if (!p) continue;
          const [cx, cy] = at(p);
          const t = el("text", { class: "mark-label", x: cx, y: cy + 19, "text-anchor": "middle",
            "font-size": 6, fill: "#3b2a1a", "pointer-events": "none" }, points);
          t.textContent = `${who} ${name.replace(/s$/, "")}`;
        }
      }
    }
    el("g", { class: "pieces" }, svg);
  }

  function pieces(svg, shown, expected) {
    const layer = svg.querySelector("g.pieces");
    if (!layer) return;
    layer.textContent = "";
    const points = (id) => svg.querySelector(`g.point[data-point="${CSS.escape(id)}"]`);
    for (const g of svg.querySelectorAll("g.point")) g.classList.remove("occupied");
    for (const [id, letter] of Object.entries(shown)) {
      const g = points(id);
      if (!g) continue;
      g.classList.add("occupied");
      const hole = g.querySelector("circle.hole");
      const cx = hole.getAttribute("cx"), cy = hole.getAttribute("cy");
      const colour = PIECE_COLOURS[letter[0]] || "#345";
      const piece = el("g", { class: "piece-at", "data-piece": id }, layer);
      el("circle", { class: "piece", cx, cy, r: PIECE, fill: colour, stroke: "#222", "stroke-width": 1.5 }, piece);
      const light = ["G", "W", "Y"].includes(letter[0]);
      const t = el("text", { x: cx, y: cy, "text-anchor": "middle", "dominant-baseline": "central",
        "font-size": letter.length > 2 ? 6 : 9, "font-weight": "bold", fill: light ? "#222" : "#fff",
        "pointer-events": "none" }, piece);
      t.textContent = letter;
    }
    for (const id of expected || []) {  // the game expects a piece here, but no switch reads one
      if (id in shown) continue;
      const g = points(id);
      if (!g) continue;
      const hole = g.querySelector("circle.hole");
      el("circle", { class: "ghost", cx: hole.getAttribute("cx"), cy: hole.getAttribute("cy"), r: PIECE,
        fill: "none", stroke: "#fff", "stroke-dasharray": "3 2", "data-ghost": id }, layer);
    }
    for (const piece of layer.querySelectorAll(".piece-at, .ghost")) piece.style.pointerEvents = "none";
  }

  function leds(svg, lit) {
    for (const g of svg.querySelectorAll("g.point")) {
      const colour = lit[g.dataset.point];
      const led = g.querySelector("circle.led");
      if (colour) {
        led.style.fill = colour;
        led.style.fillOpacity = "0.9";
        g.dataset.led = colour;
      } else {
        led.style.fill = "none";
        delete g.dataset.led;
      }
    }
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

  return { draw, pieces, leds, dice };
})();
