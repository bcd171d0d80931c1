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
      li.textContent = s.move;
      li.addEventListener("click", () => show(i + 1));
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
    // the move just made is lit, as the board's hint would be
    const lit = {};
    if (step.move) for (const id of step.move.match(/[A-Za-z]*\d+/g) || []) if (id in game.layout.points) lit[id] = "#ffa000";
    Board.leds(svg, lit);
    $("ply").textContent = `${ply} / ${game.steps.length - 1}`;
    document.body.dataset.ply = ply;
    $("moves").querySelectorAll("li").forEach((li, i) => li.style.fontWeight = i + 1 === ply ? "bold" : "");
  }

  $("first").addEventListener("click", () => show(0));
  $("prev").addEventListener("click", () => show(ply - 1));
  $("next").addEventListener("click", () => show(ply + 1));
  $("last").addEventListener("click", () => show(game.steps.length - 1));
  list();
})();
