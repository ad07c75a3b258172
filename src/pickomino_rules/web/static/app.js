// The page: a game against bots or people at one screen, through the server's JSON API.
// The server keeps no game: the page holds the record and sends it with every request.

import { fillMoves, initAdvisor, showAdvisor } from "./advisor.js";

// A bot's move shows for this long before the next one (?delay=MS in the address changes it).
const asked = Number(new URLSearchParams(window.location.search).get("delay"));
const BOT_DELAY_MS = Number.isFinite(asked) && asked >= 0 && asked <= 10000 && window.location.search.includes("delay") ? asked : 700;

const $ = (selector) => document.querySelector(selector);
let setup = null; // the variants and bots the server offers
let game = null; // {record, view}: the game as the server last answered it
let busy = false;

async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  const response = await fetch(path, init);
  const answer = await response.json().catch(() => ({ error: `the server answered ${response.status}` }));
  if (!response.ok) {
    const error = new Error(answer.error || `the server answered ${response.status}`);
    error.problems = answer.problems; // a position's problems, each with the field it is about
    throw error;
  }
  return answer;
}

function showError(error) {
  $("#error").textContent = error ? String(error.message || error) : "";
}

function option(value, text) {
  const element = document.createElement("option");
  element.value = value;
  element.textContent = text;
  return element;
}

function variantNamed(name) {
  return setup.variants.find((variant) => variant.name === name);
}

function drawSetup() {
  const variant = variantNamed($("#variant").value);
  const players = $("#players");
  [players.min, players.max] = variant.players;
  const count = Math.min(Math.max(Number(players.value) || 2, variant.players[0]), variant.players[1]);
  players.value = count;

  const options = $("#options");
  options.replaceChildren(Object.assign(document.createElement("legend"), { textContent: "Options" }));
  for (const entry of variant.options) {
    const label = document.createElement("label");
    const name = `${entry.name.replaceAll("_", " ")} (${entry.rule})`;
    if (typeof entry.default === "boolean") {
      const box = Object.assign(document.createElement("input"), { type: "checkbox", name: entry.name });
      box.checked = entry.default;
      label.append(box, ` ${name}`);
    } else { // any other value as JSON, e.g. the golden die's faces: the library checks it
      const input = Object.assign(document.createElement("input"), { name: entry.name, className: "json" });
      input.value = JSON.stringify(entry.default);
      input.dataset.json = "";
      label.append(`${name} `, input);
    }
    label.title = entry.about;
    options.append(label);
  }

  const seats = $("#seats");
  const kept = [...seats.querySelectorAll("select")].map((select) => select.value);
  seats.replaceChildren(Object.assign(document.createElement("legend"), { textContent: "Seats" }));
  for (let seat = 0; seat < count; seat += 1) {
    const label = document.createElement("label");
    const select = document.createElement("select");
    select.name = `seat-${seat}`;
    select.append(option("", "a person"));
    for (const bot of setup.bots) {
      if ((bot.plays[variant.name] || []).includes(count)) select.append(option(bot.name, `bot: ${bot.name}`));
    }
    const wanted = kept[seat] ?? (seat === 0 ? "" : "greedy");
    select.value = [...select.options].some((entry) => entry.value === wanted) ? wanted : "greedy";
    label.append(`Player ${seat} `, select);
    seats.append(label);
  }
}

function describe(view) {
  const names = view.names;
  if (view.over) {
    const winners = view.winners.map((seat) => names[seat]).join(" and ");
    return `Game over: ${winners} ${view.winners.length > 1 ? "share the win" : "wins"}. Worms: ${view.scores.join(" : ")}`;
  }
  const who = names[view.player];
  const bot = view.bots[view.player];
  const what = view.phase === "choose" ? "to set dice aside" : "to roll again or stop";
  return `${who}${bot ? " (bot)" : ""} ${what}. Worms: ${view.scores.join(" : ")}`;
}

function render() {
  const view = game.view;
  $("#setup").hidden = true;
  $("#advisor").hidden = true;
  $("#analysis").hidden = true;
  $("#game").hidden = false;
  $("#status").textContent = describe(view);
  $("#table").innerHTML = view.svg; // the library's own picture of the table
  $("#table").setAttribute("aria-label", view.text);
  const moves = $("#moves");
  moves.replaceChildren();
  const person = !view.over && view.bots[view.player] === null;
  view.legal.forEach((move, index) => {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.move = move;
    button.disabled = !person || busy;
    button.append(move, " ");
    if (index < 9) button.append(Object.assign(document.createElement("kbd"), { textContent: String(index + 1) }));
    button.setAttribute("aria-keyshortcuts", index < 9 ? String(index + 1) : "");
    button.addEventListener("click", () => play(move));
    moves.append(button);
  });
  $("#undo").disabled = busy;
  $("#hint").disabled = busy || !person;
  $("#save").disabled = false;
  $("#analyse").disabled = busy;
  $("#hints").hidden = true;
  if (!view.over && !person && !busy) setTimeout(botMove, BOT_DELAY_MS);
}

async function run(path, body) {
  if (busy) return; // one request at a time: a second click must not send the old game again
  busy = true;
  for (const button of document.querySelectorAll("#moves button, #undo, #hint")) button.disabled = true;
  showError(null);
  try {
    game = await api(path, body);
  } catch (error) {
    showError(error);
  } finally {
    busy = false;
  }
  if (game) render();
}

const play = (move) => run("/api/move", { record: game.record, move });
const botMove = () => run("/api/bot", { record: game.record });

async function hint() {
  if (!game || busy) return;
  showError(null);
  try {
    const answer = await api("/api/hint", { position: game.view.position });
    fillMoves($("#hints"), answer.moves);
  } catch (error) {
    showError(error);
  }
}

const COLOURS = ["#8a3b12", "#1f5fa8", "#2e7d32", "#6a1b9a", "#7a5c00", "#00695c", "#ad1457"];
const SVG = "http://www.w3.org/2000/svg";
let analysis = null; // the server's answer for the game analysed
let step = 0;

function drawChart(chances, names) {
  const chart = $("#chart");
  chart.replaceChildren();
  const legend = $("#legend");
  legend.replaceChildren();
  if (chances.length < 2) return;
  const x = (index) => 30 + (560 * index) / (chances.length - 1);
  const y = (chance) => 185 - 170 * chance;
  for (const level of [0, 0.5, 1]) {
    const line = document.createElementNS(SVG, "line");
    Object.entries({ x1: 30, x2: 590, y1: y(level), y2: y(level), stroke: "#bbb", "stroke-dasharray": level === 0.5 ? "4 4" : "" })
      .forEach(([key, value]) => line.setAttribute(key, value));
    const label = document.createElementNS(SVG, "text");
    Object.entries({ x: 0, y: y(level) + 4, "font-size": 11 }).forEach(([key, value]) => label.setAttribute(key, value));
    label.textContent = `${100 * level}%`;
    chart.append(line, label);
  }
  names.forEach((name, player) => {
    const path = document.createElementNS(SVG, "polyline");
    path.setAttribute("points", chances.map((point, index) => `${x(index).toFixed(1)},${y(point.chances[player]).toFixed(1)}`).join(" "));
    Object.entries({ fill: "none", stroke: COLOURS[player % COLOURS.length], "stroke-width": 2 })
      .forEach(([key, value]) => path.setAttribute(key, value));
    chart.append(path);
    const item = document.createElement("li");
    item.style.color = COLOURS[player % COLOURS.length];
    item.textContent = `${name}: ${(100 * chances.at(-1).chances[player]).toFixed(0)}% at the end`;
    legend.append(item);
  });
}

async function showStep(index) {
  if (!analysis || analysis.decisions.length === 0) return;
  step = Math.max(0, Math.min(index, analysis.decisions.length - 1));
  $("#step").value = step;
  const decision = analysis.decisions[step];
  const name = analysis.names[decision.player];
  const verdict = decision.played === decision.best
    ? "the best move"
    : `best was ${decision.best}; it cost ${decision.cost.toFixed(3)} expected worms`;
  $("#decision").textContent = `Decision ${step + 1} of ${analysis.decisions.length}, turn ${decision.turn}: ${name} played ${decision.played}, ${verdict}.`;
  try {
    const picture = await api("/api/draw", { position: decision.line });
    if (analysis.decisions[step] === decision) $("#analysis-table").innerHTML = picture.svg;
  } catch (error) {
    showError(error);
  }
}

async function analyse() {
  if (!game || busy) return;
  busy = true;
  showError(null);
  $("#analyse").disabled = true;
  $("#status").textContent = "Analysing the game: every turn is solved…";
  try {
    analysis = await api("/api/analyse", { record: game.record });
  } catch (error) {
    showError(error);
    analysis = null;
  } finally {
    busy = false;
    $("#analyse").disabled = false;
  }
  if (!analysis) { render(); return; }
  for (const id of ["#setup", "#game", "#advisor"]) $(id).hidden = true;
  $("#analysis").hidden = false;
  drawChart(analysis.chances, analysis.names);
  const mistakes = analysis.decisions.filter((d) => d.cost > 0.005);
  const lost = analysis.names.map((name, player) => {
    const cost = analysis.decisions.filter((d) => d.player === player).reduce((sum, d) => sum + d.cost, 0);
    return `${name} ${cost.toFixed(2)}`;
  });
  $("#summary").textContent = `${analysis.decisions.length} decisions, ${mistakes.length} mistakes. Expected worms given away: ${lost.join(", ")}.`;
  $("#step").max = Math.max(0, analysis.decisions.length - 1);
  await showStep(0);
}

function nextMistake() {
  if (!analysis) return;
  const found = analysis.decisions.findIndex((d, index) => index > step && d.cost > 0.005);
  if (found >= 0) showStep(found);
}

function advisor() {
  $("#advisor").hidden = false;
  $("#setup").hidden = true;
  $("#game").hidden = true;
  $("#analysis").hidden = true;
  $("#from-game").disabled = !game;
  showAdvisor();
}

function save() {
  const blob = new Blob([JSON.stringify(game.record, null, 2)], { type: "application/json" });
  const link = Object.assign(document.createElement("a"), { href: URL.createObjectURL(blob), download: "pickomino-game.json" });
  link.click();
  URL.revokeObjectURL(link.href);
}

async function load(event) {
  const [file] = event.target.files;
  event.target.value = "";
  if (!file) return;
  let record;
  try {
    record = JSON.parse(await file.text());
  } catch {
    showError(`${file.name} is not a JSON file`);
    return;
  }
  await run("/api/view", { record });
}

async function start(event) {
  event.preventDefault();
  const options = {};
  for (const input of $("#options").querySelectorAll("input")) {
    if (input.type === "checkbox") options[input.name] = input.checked;
    else {
      try {
        options[input.name] = JSON.parse(input.value);
      } catch {
        showError(`${input.name}: ${input.value} is not a JSON value (e.g. [1, 1, 1, 6, 6, 6])`);
        return;
      }
    }
  }
  const seats = [...$("#seats").querySelectorAll("select")].map((select) => select.value || null);
  await run("/api/new", { variant: $("#variant").value, players: Number($("#players").value), options, seats });
}

function keys(event) {
  if (event.target.closest("input, select, textarea") || event.ctrlKey || event.metaKey || event.altKey) return;
  if (/^[1-9]$/.test(event.key)) {
    const button = $("#moves").children[Number(event.key) - 1];
    if (button && !button.disabled) button.click();
  } else if (event.key === "u" && !$("#undo").disabled) {
    $("#undo").click();
  } else if (event.key === "h" && !$("#hint").disabled) {
    hint();
  } else if (!$("#analysis").hidden && event.key === "ArrowLeft") {
    showStep(step - 1);
  } else if (!$("#analysis").hidden && event.key === "ArrowRight") {
    showStep(step + 1);
  } else if (!$("#analysis").hidden && event.key === "m") {
    nextMistake();
  }
}

async function main() {
  try {
    setup = await api("/api/setup");
  } catch (error) {
    showError(error);
    return;
  }
  for (const variant of setup.variants) $("#variant").append(option(variant.name, `${variant.name}: ${variant.about}`));
  drawSetup();
  $("#variant").addEventListener("change", drawSetup);
  $("#players").addEventListener("change", drawSetup);
  $("#setup").addEventListener("submit", start);
  $("#new-game").addEventListener("click", () => {
    $("#setup").hidden = false;
    $("#game").hidden = true;
    $("#advisor").hidden = true;
    $("#analysis").hidden = true;
  });
  $("#undo").addEventListener("click", () => game && run("/api/undo", { record: game.record }));
  $("#hint").addEventListener("click", hint);
  $("#save").addEventListener("click", save);
  $("#load").addEventListener("change", load);
  $("#advise").addEventListener("click", advisor);
  $("#analyse").addEventListener("click", analyse);
  $("#previous").addEventListener("click", () => showStep(step - 1));
  $("#next").addEventListener("click", () => showStep(step + 1));
  $("#next-mistake").addEventListener("click", nextMistake);
  $("#step").addEventListener("input", (event) => showStep(Number(event.target.value)));
  initAdvisor(api, setup);
  $("#from-game").addEventListener("click", () => game && showAdvisor(game.view.line));
  document.addEventListener("keydown", keys);
}

main();
