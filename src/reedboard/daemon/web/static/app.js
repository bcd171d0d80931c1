// The live page: one websocket; the server pushes the board's drawing, the referee's state
// and the LEDs; a click, a drag or a button is sent back with the state's tokens.
"use strict";
(() => {
  const svg = document.getElementById("board");
  const $ = (id) => document.getElementById(id);
  let ws = null, layout = null, state = null, retry = 250;
  let hand = null;  // the simulated board's pieces under the pointer and the keyboard (virtual-board.js)
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
      live(false);
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 3000);
    };
  }

  // While the daemon cannot be reached: a banner, the board greyed, every control disabled
  // (nothing would be sent); all of it comes back with the first state after reconnecting.
  function live(up) {
    document.body.dataset.live = up ? "yes" : "no";
    $("banner").hidden = up;
    svg.setAttribute("aria-disabled", String(!up));
    for (const c of document.querySelectorAll("main button, main select, main input")) c.disabled = !up;
    if (up) buttonsUsed();
  }

  const text = (id, words) => { $(id).textContent = words || ""; };

  function receive(m) {
    if (m.type === "layout") {
      layout = m;
      Board.draw(svg, m);
      reachable();
      $("title").textContent = `reedboard: ${m.title}`;
      document.title = `reedboard: ${m.title}`;
      svg.setAttribute("aria-label", `the board: ${m.title}, ${Object.keys(m.points).length} points`);
      const pick = $("game");
      pick.textContent = "";
      for (const g of m.picker || m.games) {
        const o = document.createElement("option");
        o.value = g.id;
        o.textContent = g.title;
        o.selected = g.id === m.game;
        pick.appendChild(o);
      }
      pickerDue = true;  // filled from the game's own choices with the next state
      document.body.dataset.game = m.game;
    } else if (m.type === "state") {
      const before = state;
      state = m;
      const panel = m.panel || {};
      Board.pieces(svg, m.pieces, m.expected);
      Board.waiting(svg, m.waiting);
      if (Board.marks) Board.marks(svg, m);  // the signals as shapes, their words, a sound (board.js)
      Board.dice($("dice"), panel.dice || m.dice);
      const thrown = panel.dice || m.dice;
      // dice still showing an earlier throw (the next side is to throw): said whose they are
      const by = thrown ? panel.dice_by : null;
      $("dice").setAttribute("aria-label", thrown ? `dice: ${thrown.join(" and ")}${by ? ` (${by})` : ""}` : "no dice thrown");
      $("dice").hidden = !layout || !layout.dice;
      $("dice").classList.toggle("earlier", Boolean(by));
      text("dice-by", by);
      text("versus", panel.versus);
      sidesShown(panel.sides || []);
      text("turn", m.outcome ? "" : panel.turn_text);
      text("why", panel.why);
      text("guidance", m.guidance);
      text("notice", panel.notice);
      text("outcome", m.outcome ? panel.turn_text : "");
      const moves = $("moves");
      moves.textContent = "";
      for (const mv of panel.move_words || m.moves) {
        const li = document.createElement("li");
        li.textContent = mv;
        moves.appendChild(li);
      }
      moves.scrollTop = moves.scrollHeight;
      const alerts = $("alerts");
      alerts.textContent = "";
      for (const a of m.alerts.slice().reverse()) {
        const li = document.createElement("li");
        li.textContent = a.words || `${a.kind}: ${a.text}`;
        alerts.appendChild(li);
      }
      $("move-example").textContent = panel.example || "";
      for (const g of svg.querySelectorAll("g.point")) g.classList.toggle("clickable", m.simulated);
      Object.assign(document.body.dataset, {
        version: m.version, boardSeq: m.board_seq, state: m.state, plies: m.moves.length,
        buttons: (panel.buttons || []).join(" "),
      });
      if (document.body.dataset.live !== "yes") live(true);
      buttonsUsed();
      pointNames();
      if (pickerDue) fillPicker(panel);
      announce(before, m);
    } else if (m.type === "leds") {
      Board.leds(svg, m.points);
      document.body.dataset.lit = Object.keys(m.points).length;
      pointNames();
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

  // -- the player panel --------------------------------------------------------------------

  function sidesShown(sides) {
    const list = $("sides");
    list.textContent = "";
    for (const s of sides) {
      const li = document.createElement("li");
      li.dataset.side = s.side;
      const swatch = document.createElement("span");
      swatch.className = "swatch";
      swatch.style.background = s.colour;
      swatch.setAttribute("aria-hidden", "true");
      li.appendChild(swatch);
      li.appendChild(document.createTextNode(s.name + (s.computer ? " (the computer)" : "")));
      if (s.turn) li.setAttribute("aria-current", "step");
      list.appendChild(li);
    }
  }

  // Only the buttons that mean something in this game now (roll with dice, confirm while a
  // move waits on it).
  function buttonsUsed() {
    const used = state && state.panel ? state.panel.buttons : null;
    for (const b of document.querySelectorAll("#buttons button")) {
      b.hidden = used !== null && !used.includes(b.dataset.button);
    }
  }

  // Moves and turns said aloud (aria-live polite): the newest event when the game moved on,
  // then whose turn it is; a rule broken, a notice.
  let lastSaid = "";
  function announce(before, m) {
    const panel = m.panel || {};
    const was = (before && before.panel) || {};
    const newest = m.alerts.length ? m.alerts[m.alerts.length - 1] : null;
    const moved = !before || before.moves.length !== m.moves.length || before.game !== m.game;
    const parts = [];
    if (moved && newest && newest.words) parts.push(newest.words);
    if (moved || was.turn_text !== panel.turn_text) parts.push(panel.turn_text);
    if (panel.why && was.why !== panel.why) parts.push(panel.why);
    if (panel.notice && was.notice !== panel.notice) parts.push(panel.notice);
    const said = parts.filter(Boolean).join(". ");
    if (said && said !== lastSaid) {
      lastSaid = said;
      $("announce").textContent = said;
    }
  }

  // -- the board by keyboard: one tab stop, arrows between the points ----------------------

  let focused = null;  // the point that holds the tab stop (roving tabindex)
  function reachable() {
    const ids = Object.keys(layout.points);
    if (!ids.includes(focused)) focused = ids[0] || null;
    for (const g of svg.querySelectorAll("g.point")) {
      g.setAttribute("role", "button");
      g.setAttribute("tabindex", g.dataset.point === focused ? "0" : "-1");
    }
    pointNames();
  }

  // Each point's name: "point 9, a goose", "point 10, empty, lit". The drawing's own text
  // (labels, letters) is hidden from screen readers: the names say it.
  function pointNames() {
    for (const t of svg.querySelectorAll("text")) t.setAttribute("aria-hidden", "true");
    if (!state || !layout) return;
    const words = (state.panel && state.panel.pieces) || {};
    for (const g of svg.querySelectorAll("g.point")) {
      const id = g.dataset.point;
      const letter = state.pieces[id];
      const what = letter === undefined ? "empty"
        : letter === "?" ? "a piece the game does not expect here" : (words[id] || "a piece");
      const lit = g.dataset.led ? ", lit" : "";
      const up = hand && hand.held() === id ? ", picked up" : "";
      g.setAttribute("aria-label", `point ${id}, ${what}${up}${lit}`);
    }
  }

  const pointEl = (id) => (id === null ? null : svg.querySelector(`g.point[data-point="${CSS.escape(id)}"]`));

  function holdStop(id) {
    const old = pointEl(focused);
    if (old) old.setAttribute("tabindex", "-1");
    focused = id;
    const g = pointEl(id);
    if (g) g.setAttribute("tabindex", "0");
    document.body.dataset.focused = id;
    return g;
  }

  // The nearest point in an arrow's direction, by the board's geometry: along the arrow
  // first, then least off its line.
  function neighbour(id, dx, dy) {
    const [x, y] = layout.points[id];
    let best = null, score = Infinity;
    for (const [other, [ox, oy]] of Object.entries(layout.points)) {
      const along = (ox - x) * dx + (oy - y) * dy;
      if (other === id || along <= 0) continue;
      const off = Math.abs((ox - x) * dy) + Math.abs((oy - y) * dx);
      const s = along + 2 * off;
      if (s < score) { score = s; best = other; }
    }
    return best;
  }

  const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  svg.addEventListener("keydown", (e) => {
    const g = e.target.closest && e.target.closest("g.point");
    if (!g || !layout || !state || document.body.dataset.live !== "yes") return;
    const id = g.dataset.point;
    let to = null;
    if (e.key in ARROWS) to = neighbour(id, ...ARROWS[e.key]);
    else if (e.key === "Home") to = Object.keys(layout.points)[0];
    else if (e.key === "End") to = Object.keys(layout.points).slice(-1)[0];
    else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      if (!state.simulated) {
        $("refused").textContent = "pieces are moved on the board itself: type the move below instead";
        return;
      }
      // as a click: Enter on a piece picks it up, Enter on another point is the whole move
      // (captures and all), Enter on it again puts it back; Escape puts it back too
      const before = hand.held();
      hand.activate(id);
      const now = hand.held();
      if (now !== null && now !== before) {
        $("announce").textContent = `picked up the piece on ${now}: Enter on another point moves it there, Escape puts it back`;
      }
      pointNames();
      return;
    } else return;
    e.preventDefault();
    if (to) holdStop(to).focus();
  });
  svg.addEventListener("focusin", (e) => {
    const g = e.target.closest && e.target.closest("g.point");
    if (g && g.dataset.point !== focused) holdStop(g.dataset.point);
  });

  // (a click, a tap or a drag on the simulated board: virtual-board.js, attached below)
  for (const b of document.querySelectorAll("#buttons button")) {
    b.addEventListener("click", () => send({ do: "press", button: b.dataset.button }));
  }

  // A move typed in the game's notation (the simulated board makes it as a hand would).
  $("move-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const move = $("move-text").value.trim();
    if (!move) {
      $("refused").textContent = "type a move in the game's notation first";
      return;
    }
    send({ do: "type", move });
    $("move-text").value = "";
  });

  // -- the picker: the game, its player count, its options, the computer's seats ------------

  let pickerDue = true;
  const choices = () => layout && (layout.picker || []).find((g) => g.id === $("game").value);

  function fillPicker(panel) {
    pickerDue = false;
    const game = choices();
    if (!game) return;
    const seated = panel.sides ? panel.sides.map((s) => s.side) : null;
    const count = seated && game.players.includes(seated.length) ? seated.length : game.default_players;
    pickerFor(game, count, panel.options || {}, panel.computer || [], panel.level);
  }

  function pickerFor(game, count, options, computer, level) {
    const players = $("players");
    players.textContent = "";
    for (const n of game.players) {
      const o = document.createElement("option");
      o.value = n;
      o.textContent = n;
      o.selected = n === count;
      players.appendChild(o);
    }
    $("players-label").hidden = !game.players.length;
    const box = $("options");
    for (const c of [...box.children]) if (c.tagName !== "LEGEND") c.remove();
    for (const opt of game.options) {  // each in words (engine/data/options.toml), its key kept
      const label = document.createElement("label");
      label.dataset.key = opt.key;
      label.append(`${opt.label || opt.key.replace(/_/g, " ")} `);
      const now = opt.key in options ? options[opt.key] : opt.default;
      let input;
      if (opt.kind === "bool") {
        input = document.createElement("input");
        input.type = "checkbox";
        input.checked = Boolean(now);
      } else if (opt.kind === "choice") {
        input = document.createElement("select");
        opt.choices.forEach((v, i) => {
          const o = document.createElement("option");
          o.value = v;
          o.textContent = (opt.choice_labels && opt.choice_labels[i]) || v;
          o.selected = v === now;
          input.appendChild(o);
        });
      } else {
        input = document.createElement("input");
        input.value = Array.isArray(now) ? now.join(",") : (now === null ? "" : String(now));
        input.size = 8;
      }
      if (opt.help) {  // one line more, said with the field too
        const help = document.createElement("small");
        help.className = "help option-help";
        help.id = `option-help-${opt.key}`;
        help.textContent = opt.help;
        input.setAttribute("aria-describedby", help.id);
        label.appendChild(input);
        label.appendChild(help);
      }
      input.dataset.option = opt.key;
      input.dataset.kind = opt.kind;
      input.dataset.default = String(opt.default);
      if (!opt.help) label.appendChild(input);
      box.appendChild(label);
    }
    box.hidden = !game.options.length;
    seats(game, computer);
    if (level) $("level").value = String(level);
  }

  // The computer's seats: one box for each side seated with this player count.
  function seats(game, computer) {
    const box = $("seats");
    for (const c of [...box.children]) if (c.tagName !== "LEGEND") c.remove();
    const count = $("players").value;
    const seated = game.seated[count] || game.seated[""] || Object.values(game.seated)[0];
    for (const side of seated) {
      const named = game.sides.find((s) => s.side === side);
      const label = document.createElement("label");
      const input = document.createElement("input");
      input.type = "checkbox";
      input.value = side;
      input.checked = computer.includes(side);
      label.appendChild(input);
      label.append(` ${named ? named.name : side}`);
      box.appendChild(label);
    }
  }

  $("game").addEventListener("change", () => {
    const game = choices();
    if (game) pickerFor(game, game.default_players, {}, [], Number($("level").value));
  });
  $("players").addEventListener("change", () => {
    const game = choices();
    const computer = [...$("seats").querySelectorAll("input:checked")].map((i) => i.value);
    if (game) seats(game, computer);
  });
  $("picker").addEventListener("submit", (e) => {
    e.preventDefault();
    const options = {};
    for (const input of $("options").querySelectorAll("[data-option]")) {
      const value = input.dataset.kind === "bool" ? String(input.checked) : input.value.trim();
      if (value !== input.dataset.default) options[input.dataset.option] = value;
    }
    const action = {
      do: "new-game",
      game: $("game").value,
      options,
      computer: [...$("seats").querySelectorAll("input:checked")].map((i) => i.value),
      level: Number($("level").value),
      fresh: true,
    };
    if (!$("players-label").hidden) action.players = Number($("players").value);
    send(action);
  });
  // the simulated board's pieces under the pointer, and `new` asking first (virtual-board.js)
  hand = VirtualBoard.attach(svg, { send, state: () => state });
  VirtualBoard.askBeforeNew({ state: () => state });
  connect();
})();
