// The live page: one websocket; the server pushes the board's drawing, the referee's state
// and the LEDs; a click, a drag or a button is sent back with the state's tokens.
"use strict";
(() => {
  const svg = document.getElementById("board");
  const $ = (id) => document.getElementById(id);
  let ws = null, layout = null, state = null, retry = 250, dragFrom = null;
  // the token this page was served with: every action carries it (a page of another site
  // cannot read it, so it cannot act)
  const csrf = document.querySelector('meta[name="reedboard-csrf"]').content;

  function connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    ws = new WebSocket(`${scheme}//${location.host}/ws`);
    ws.onopen = () => { retry = 250; $("link").textContent = "live"; $("link").className = "link"; };
    ws.onmessage = (e) => receive(JSON.parse(e.data));
    ws.onclose = () => {  // the daemon restarted or the network dropped: connect again
      $("link").textContent = "reconnecting…";
      $("link").className = "link down";
      document.body.dataset.live = "no";
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 3000);
    };
  }

  function receive(m) {
    if (m.type === "layout") {
      layout = m;
      Board.draw(svg, m);
      $("title").textContent = `reedboard: ${m.title}`;
      const pick = $("game");
      pick.textContent = "";
      for (const g of m.games) {
        const o = document.createElement("option");
        o.value = g.id;
        o.textContent = g.title;
        o.selected = g.id === m.game;
        pick.appendChild(o);
      }
      sides();
      document.body.dataset.game = m.game;
    } else if (m.type === "state") {
      state = m;
      Board.pieces(svg, m.pieces, m.expected);
      Board.dice($("dice"), m.dice);
      $("turn").textContent = m.outcome ? "" : (m.throw ? `${m.turn} to throw` : `${m.turn} to move`);
      $("guidance").textContent = m.guidance;
      $("outcome").textContent = m.outcome ? `game over: ${m.outcome}` : "";
      const moves = $("moves");
      moves.textContent = "";
      for (const mv of m.moves) {
        const li = document.createElement("li");
        li.textContent = mv;
        moves.appendChild(li);
      }
      moves.scrollTop = moves.scrollHeight;
      const alerts = $("alerts");
      alerts.textContent = "";
      for (const a of m.alerts.slice().reverse()) {
        const li = document.createElement("li");
        li.textContent = `${a.kind}: ${a.text}`;
        alerts.appendChild(li);
      }
      for (const g of svg.querySelectorAll("g.point")) g.classList.toggle("clickable", m.simulated);
      Object.assign(document.body.dataset, {
        version: m.version, boardSeq: m.board_seq, state: m.state, plies: m.moves.length, live: "yes",
      });
    } else if (m.type === "leds") {
      Board.leds(svg, m.points);
      document.body.dataset.lit = Object.keys(m.points).length;
    } else if (m.type === "refused") {
      $("refused").textContent = m.text;
      document.body.dataset.refused = m.text;
    }
  }

  function send(action) {
    if (!ws || ws.readyState !== WebSocket.OPEN || !state) return;
    $("refused").textContent = "";
    ws.send(JSON.stringify(Object.assign({ version: state.version, board_seq: state.board_seq, csrf }, action)));
  }

  const pointAt = (e) => {
    const hit = document.elementFromPoint(e.clientX, e.clientY);
    const g = hit && hit.closest && hit.closest("g.point");
    return g ? g.dataset.point : null;
  };
  svg.addEventListener("pointerdown", (e) => {
    if (!state || !state.simulated) return;
    dragFrom = pointAt(e);
    e.preventDefault();
  });
  svg.addEventListener("pointerup", (e) => {
    if (!state || !state.simulated || dragFrom === null) return;
    const to = pointAt(e), from = dragFrom;
    dragFrom = null;
    if (to === null) return;
    if (to === from) {  // a click (or tap) lifts a piece or places one
      send({ do: from in state.pieces ? "lift" : "place", point: from });
    } else if (from in state.pieces && !(to in state.pieces)) {  // a drag moves one
      send({ do: "move", from, to });
    }
  });
  for (const b of document.querySelectorAll("#buttons button")) {
    b.addEventListener("click", () => send({ do: "press", button: b.dataset.button }));
  }
  function sides() {
    // the computer's choice of side: the sides of the game picked
    const game = layout && layout.games.find((g) => g.id === $("game").value);
    const select = $("computer");
    select.textContent = "";
    for (const side of ["", ...(game ? game.sides : [])]) {
      const o = document.createElement("option");
      o.value = side;
      o.textContent = side ? `computer plays ${side}` : "computer: nobody";
      select.appendChild(o);
    }
  }
  $("game").addEventListener("change", sides);
  $("picker").addEventListener("submit", (e) => {
    e.preventDefault();
    const side = $("computer").value;
    send({
      do: "new-game",
      game: $("game").value,
      computer: side ? [side] : [],
      level: Number($("level").value),
    });
  });
  connect();
})();
