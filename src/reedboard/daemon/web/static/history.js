// The history page: the stored games, one replayed move by move on the drawn board.
"use strict";
(() => {
  const svg = document.getElementById("board");
  const $ = (id) => document.getElementById(id);
  let game = null, ply = 0;

  async function list() {
    const games = await (await fetch("/api/games")).json();
    const body = $("games").querySelector("tbody");
    body.textContent = "";
    for (const g of games.slice().reverse()) {
      const tr = document.createElement("tr");
      tr.dataset.game = g.id;
      for (const v of [g.id, g.game, g.moves, g.status]) {
        const td = document.createElement("td");
        td.textContent = v;
        tr.appendChild(td);
      }
      // the row's own button: reached with Tab, opened with Enter or Space
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = `game ${g.id}`;
      button.setAttribute("aria-label", `replay game ${g.id}: ${g.game}, ${g.moves} moves, ${g.status}`);
      tr.firstChild.textContent = "";
      tr.firstChild.appendChild(button);
      tr.addEventListener("click", () => open(g.id));
      body.appendChild(tr);
    }
    document.body.dataset.games = games.length;
  }

  async function open(id) {
    game = await (await fetch(`/api/games/${id}`)).json();
    for (const tr of $("games").querySelectorAll("tbody tr")) tr.classList.toggle("chosen", tr.dataset.game == id);
    Board.draw(svg, game.layout);
    $("game-title").textContent = `game ${game.id}: ${game.layout.title} (${game.status})`;
    $("export").href = `/api/games/${id}/text`;
    $("export").setAttribute("download", `game-${id}.txt`);
    const moves = $("moves");
    moves.textContent = "";
    game.steps.slice(1).forEach((s, i) => {
      const li = document.createElement("li");
      const b = document.createElement("button");
      b.type = "button";
      b.className = "step";
      b.textContent = s.move;
      b.addEventListener("click", () => show(i + 1));
      li.appendChild(b);
      moves.appendChild(li);
    });
    $("replay-controls").hidden = false;
    show(0);
  }

  function show(n) {
    ply = Math.max(0, Math.min(n, game.steps.length - 1));
    const step = game.steps[ply];
    Board.pieces(svg, step.pieces, []);
    let dice = null;
    for (let i = ply; i > 0 && dice === null; i--) dice = game.steps[i].dice;
    Board.dice($("dice"), dice);
    $("dice").setAttribute("aria-label", dice ? `dice: ${dice.join(" and ")}` : "no dice thrown");
    // the move just made is lit, as the board's hint would be
    const lit = {};
    if (step.move) for (const id of step.move.match(/[A-Za-z]*\d+/g) || []) if (id in game.layout.points) lit[id] = "#ffa000";
    Board.leds(svg, lit);
    $("ply").textContent = `${ply} / ${game.steps.length - 1}`;
    $("ply").setAttribute("aria-label", step.move ? `move ${ply} of ${game.steps.length - 1}: ${step.move}` : `the start, ${game.steps.length - 1} moves`);
    svg.setAttribute("aria-label", step.move ? `the board after move ${ply}, ${step.move}` : "the board at the start");
    for (const t of svg.querySelectorAll("text")) t.setAttribute("aria-hidden", "true");
    document.body.dataset.ply = ply;
    $("moves").querySelectorAll("li").forEach((li, i) => {
      li.style.fontWeight = i + 1 === ply ? "bold" : "";
      const b = li.querySelector("button");
      if (b) b.setAttribute("aria-current", String(i + 1 === ply));
    });
  }

  $("first").addEventListener("click", () => show(0));
  $("prev").addEventListener("click", () => show(ply - 1));
  $("next").addEventListener("click", () => show(ply + 1));
  $("last").addEventListener("click", () => show(game.steps.length - 1));
  // the arrows step the replay (not while typing, nor in a list that takes arrows itself)
  document.addEventListener("keydown", (e) => {
    if (!game || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.target.closest && e.target.closest("input, select, textarea")) return;
    const to = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: game.steps.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    show(to);
  });
  list();
})();
