// The simulated board's pieces under the pointer: a piece pressed is picked up at once (the
// board lights its landings) and follows the pointer; let go on another point, the move it
// means is made by the board's hand (captures, jumped pieces, entries and all); let go where
// it came from, it is put back; off the board, it stays off. A click picks a piece up and a
// second click puts it down (elsewhere: the move; on itself: back). A click on an empty
// point with nothing held puts a piece there. (reedboard/daemon/virtual_board.py)
// `new` asks first when it would leave a game with moves unfinished (`undo` brings it back).
"use strict";
const VirtualBoard = (() => {
  const NS = "http://www.w3.org/2000/svg";
  const MOVED = 6;  // pixels the pointer must travel for a press to be a drag, not a click

  function attach(svg, page) {
    // page.send(action), page.state(): the latest state message
    let press = null;  // {point, picked, x, y, start, path, ghost, dragging}
    let held = null;   // a piece picked up by a click, waiting for the second click

    const pointAt = (x, y) => {
      const hit = document.elementFromPoint(x, y);
      const g = hit && hit.closest && hit.closest("g.point");
      return g && svg.contains(g) ? g.dataset.point : null;
    };
    const inSvg = (e) => new DOMPoint(e.clientX, e.clientY).matrixTransform(svg.getScreenCTM().inverse());
    const live = () => { const s = page.state(); return s && s.simulated ? s : null; };

    function hold(point) {
      held = point;
      for (const g of svg.querySelectorAll("g.point.held")) g.classList.remove("held");
      if (point !== null) {
        const g = svg.querySelector(`g.point[data-point="${CSS.escape(point)}"]`);
        if (g) g.classList.add("held");
        document.body.dataset.held = point;
      } else {
        delete document.body.dataset.held;
      }
    }

    function ghostOf(point) {  // a copy of the piece drawn on top, to follow the pointer
      const piece = svg.querySelector(`.piece-at[data-piece="${CSS.escape(point)}"]`);
      if (!piece) return null;
      const g = document.createElementNS(NS, "g");
      g.setAttribute("class", "drag-ghost");
      g.style.pointerEvents = "none";
      g.appendChild(piece.cloneNode(true));
      svg.appendChild(g);
      return g;
    }

    function drop(from, to, path) {
      page.send({ do: "drop", from, to, path });
    }

    svg.addEventListener("pointerdown", (e) => {
      const state = live();
      if (!state || e.button > 0) return;
      const point = pointAt(e.clientX, e.clientY);
      if (point === null) return;
      e.preventDefault();
      const piece = point in state.pieces;
      const picked = held === null && piece;
      if (picked) page.send({ do: "pick", point });
      press = { point, picked, x: e.clientX, y: e.clientY, start: inSvg(e), path: [point], ghost: null, dragging: false };
      if (picked) {
        press.ghost = ghostOf(point);
        try { svg.setPointerCapture(e.pointerId); } catch (_) { /* (a synthetic pointer) */ }
      }
    });

    svg.addEventListener("pointermove", (e) => {
      if (!press || !press.picked) return;
      if (!press.dragging && Math.hypot(e.clientX - press.x, e.clientY - press.y) < MOVED) return;
      press.dragging = true;
      document.body.dataset.dragging = press.point;
      if (press.ghost) {
        const p = inSvg(e);
        press.ghost.setAttribute("transform", `translate(${p.x - press.start.x} ${p.y - press.start.y})`);
      }
      const over = pointAt(e.clientX, e.clientY);
      if (over !== null && over !== press.path[press.path.length - 1]) press.path.push(over);
    });

    function end(e, cancelled) {
      const p = press;
      press = null;
      delete document.body.dataset.dragging;
      if (!p) return;
      if (p.ghost) p.ghost.remove();
      if (!live()) return;
      const to = cancelled ? p.point : pointAt(e.clientX, e.clientY);
      const far = Math.hypot(e.clientX - p.x, e.clientY - p.y) >= MOVED;
      if (p.picked && (p.dragging || far)) {  // a drag: the move, back, or off the board
        if (to !== null && to !== p.path[p.path.length - 1]) p.path.push(to);
        drop(p.point, to, p.path);
        hold(null);
      } else if (p.picked) {  // a click on a piece: it stays up until the second click
        hold(p.point);
      } else if (held !== null) {  // the second click: down there (or back where it was)
        const from = held;
        hold(null);
        if (to !== null) drop(from, to, [from, to]);
      } else if (to !== null && to === p.point) {  // an empty point clicked: a piece put there
        page.send({ do: "place", point: to });
      }
    }
    // On a touch screen a board wider than the screen scrolls (style.css: #board.scrolls):
    // a swipe that starts on a piece carries the piece and must not pan the board; a swipe
    // anywhere else pans it. (Only a touchstart's preventDefault stops
    // the browser's pan; a pointer event's cannot.)
    svg.addEventListener("touchstart", (e) => {
      const state = live();
      if (!state || e.touches.length !== 1) return;
      const t = e.touches[0];
      const point = pointAt(t.clientX, t.clientY);
      if (point !== null && point in state.pieces) e.preventDefault();
    }, { passive: false });
    svg.addEventListener("pointerup", (e) => end(e, false));
    svg.addEventListener("pointercancel", (e) => end(e, true));
    document.addEventListener("keydown", (e) => {  // Escape: the piece held goes back
      if (e.key === "Escape" && held !== null && live()) {
        const from = held;
        hold(null);
        drop(from, from, [from]);
      }
    });
    // A point chosen without a pointer (the keyboard's Enter): as a click on it.
    function activate(point) {
      const state = live();
      if (!state) return;
      if (held !== null) {
        const from = held;
        hold(null);
        drop(from, point, [from, point]);
      } else if (point in state.pieces) {
        page.send({ do: "pick", point });
        hold(point);
      } else {
        page.send({ do: "place", point });
      }
    }
    return { held: () => held, activate };
  }

  // `new` asks before it leaves a game with moves unfinished: a listener that runs before the
  // button's own (capture, on the button) and stops it when the answer is no
  function askBeforeNew(page) {
    const button = document.querySelector('#buttons button[data-button="new"]');
    if (!button) return;
    button.addEventListener("click", (e) => {
      const state = page.state();
      const moves = state && state.moves ? state.moves.length : 0;
      if (!moves || (state && state.outcome)) return;
      const plies = moves === 1 ? "1 move" : `${moves} moves`;
      if (!window.confirm(`Start a new game? This one (${plies}) is left unfinished; undo brings it back.`)) {
        e.stopImmediatePropagation();
        e.preventDefault();
      }
    }, true);
  }

  return { attach, askBeforeNew };
})();
