// The page: a game against bots or people at one screen, through the server's JSON API.
// The server keeps no game: the page holds the record and sends it with every request.

import { initAdvisor, showAdvisor } from "./advisor.js";

// A bot's move shows for the pace chosen (?delay=MS in the address sets it, 0 to 10000: tests).
const asked = new URLSearchParams(window.location.search).get("delay");
const DELAY_MS = asked !== null && /^\d+$/.test(asked) && Number(asked) <= 10000 ? Number(asked) : null;

const $ = (selector) => document.querySelector(selector);
let setup = null; // the variants and bots the server offers
let game = null; // {record, view, sealed}: the game as the server last answered it
let busy = false;
let pending = Promise.resolve(); // the request under way, if any
let paused = false; // the bots wait for "Next bot move"
let botTimer = null;
let hinting = 0; // the newest hint asked for
const SCREENS = ["#setup", "#game", "#advisor", "#analysis"];

async function api(path, body, signal) {
  const init = body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
    signal,
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

function element(tag, properties = {}, ...children) {
  const made = Object.assign(document.createElement(tag), properties);
  made.append(...children);
  return made;
}

function option(value, text) {
  return element("option", { value, textContent: text });
}

// Show one screen; only the person does this (a bot's move never changes the screen).
function show(screen) {
  for (const id of SCREENS) $(id).hidden = id !== screen;
  $("#to-game").disabled = !game || screen === "#game";
  if (screen === "#game" && followLog) $("#log").scrollTop = $("#log").scrollHeight; // shown now
  schedule(); // the bots play only while their game is shown
}

function variantNamed(name) {
  return setup.variants.find((variant) => variant.name === name);
}

// The name a seat gets unless the person types one: "you", another person's seat, a bot's.
function defaultName(seat, bot, seats) {
  if (bot) return `${bot} #${seat}`;
  const people = seats.map((value, index) => [value, index]).filter(([value]) => !value);
  return people.length === 1 || people[0][1] === seat ? "you" : `player ${seat}`;
}

function drawSetup() {
  const variant = variantNamed($("#variant").value);
  const players = $("#players");
  [players.min, players.max] = variant.players;
  const count = Math.min(Math.max(Number(players.value) || 2, variant.players[0]), variant.players[1]);
  players.value = count;

  const options = $("#options");
  options.replaceChildren(element("legend", { textContent: "Options" }));
  for (const entry of variant.options) {
    const label = document.createElement("label");
    const name = `${entry.name.replaceAll("_", " ")} (${entry.rule})`;
    if (typeof entry.default === "boolean") {
      const box = element("input", { type: "checkbox", name: entry.name });
      box.checked = entry.default;
      label.append(box, ` ${name}`);
    } else { // any other value as typed, e.g. the golden die's faces: the library checks it
      const input = element("input", { name: entry.name, className: "json" });
      input.value = typeof entry.default === "string" ? entry.default : JSON.stringify(entry.default);
      input.dataset.text = typeof entry.default === "string" ? "1" : ""; // text, unless a list
      input.dataset.json = "";
      label.append(`${name} `, input);
    }
    label.title = entry.about;
    options.append(label);
  }

  const seats = $("#seats");
  const kept = [...seats.querySelectorAll("select")].map((select) => select.value);
  const typed = [...seats.querySelectorAll("input.name")].map((input) => (input.dataset.typed ? input.value : null));
  seats.replaceChildren(element("legend", { textContent: "Seats" }));
  for (let seat = 0; seat < count; seat += 1) {
    const select = element("select", { name: `seat-${seat}` });
    select.setAttribute("aria-label", `Seat ${seat}: who plays`);
    select.append(option("", "a person"));
    for (const bot of setup.bots) {
      if ((bot.plays[variant.name] || []).includes(count)) select.append(option(bot.name, `bot: ${bot.name}`));
    }
    const wanted = kept[seat] ?? (seat === 0 ? "" : "greedy");
    select.value = [...select.options].some((entry) => entry.value === wanted) ? wanted : "greedy";
    const name = element("input", { name: `name-${seat}`, className: "name", autocomplete: "off", maxLength: 40 });
    name.setAttribute("aria-label", `Seat ${seat}: name`);
    if (typed[seat]) { name.value = typed[seat]; name.dataset.typed = "1"; }
    name.addEventListener("input", () => { name.dataset.typed = name.value.trim() ? "1" : ""; });
    select.addEventListener("change", nameSeats);
    seats.append(element("div", { className: "seat" }, element("span", { textContent: `Seat ${seat}` }), select, name));
  }
  nameSeats();
}

function nameSeats() {
  const selects = [...$("#seats").querySelectorAll("select")];
  const values = selects.map((select) => select.value);
  selects.forEach((select, seat) => {
    const input = $(`#seats input[name=name-${seat}]`);
    if (!input.dataset.typed) input.value = defaultName(seat, select.value, values);
  });
}

const possessive = (name) => (name === "you" ? "your" : `${name}'s`);

function describe(view) {
  const names = view.names;
  if (view.over) {
    const winners = view.winners.map((seat) => names[seat]).join(" and ");
    const many = view.winners.length > 1 || winners === "you";
    return `Game over: ${winners} ${view.winners.length > 1 ? "share the win" : many ? "win" : "wins"}.`;
  }
  const who = names[view.player];
  const bot = view.bots[view.player];
  const what = view.phase === "choose" ? "set dice aside" : view.phase === "roll" ? "roll the dice" : "roll again or stop";
  const turn = possessive(who);
  const whose = `${turn.charAt(0).toUpperCase()}${turn.slice(1)} turn`;
  const readOnly = game.sealed === false ? " (a record saved elsewhere: read only here; analyse it, or play it on at the terminal)" : "";
  return `${whose}${bot && !who.includes(bot) ? ` (bot: ${bot})` : ""}: ${what}.${readOnly}`;
}

const botToMove = () => game && !game.view.over && game.sealed !== false && game.view.bots[game.view.player] !== null;
const personToMove = () => game && !game.view.over && game.sealed !== false && game.view.bots[game.view.player] === null;

function pace() {
  return DELAY_MS ?? Number($("#pace").value);
}

// The next bot move, when a bot is to move, the game is shown and the bots are not paused.
function schedule() {
  clearTimeout(botTimer);
  botTimer = null;
  $("#bot-step").disabled = !botToMove() || busy || !paused;
  if (!botToMove() || busy || paused || $("#game").hidden) return;
  botTimer = setTimeout(() => { botTimer = null; if (!$("#game").hidden && !paused) botMove(); }, pace());
}

function rulesText(rules) {
  return rules.length ? ` (${rules.join(", ")})` : "";
}

function render() {
  const view = game.view;
  $("#status").textContent = describe(view);
  $("#table").innerHTML = view.svg; // the library's own picture of the table
  $("#table").setAttribute("aria-label", view.text);
  const moves = $("#moves");
  moves.replaceChildren();
  const person = personToMove();
  view.moves.forEach((entry, index) => {
    const button = element("button", { type: "button", className: "move" });
    button.dataset.move = entry.move;
    button.disabled = !person || busy;
    const does = entry.does ? element("small", { className: "does", textContent: `${entry.does}${rulesText(entry.rules)}` }) : "";
    button.append(element("span", { className: "what", textContent: entry.move }), " ");
    if (index < 9) button.append(element("kbd", { textContent: String(index + 1) }));
    if (does) button.append(does);
    button.setAttribute("aria-label", `${entry.move}${entry.does ? `: ${entry.does}` : ""}${rulesText(entry.rules)}`);
    button.setAttribute("aria-keyshortcuts", index < 9 ? String(index + 1) : "");
    button.addEventListener("click", () => play(entry.move));
    moves.append(button);
  });
  drawScores(view);
  drawParts(view.parts);
  drawLog(view.log, view.names);
  $("#undo").disabled = busy || game.sealed === false;
  $("#hint").disabled = busy || !person;
  $("#save").disabled = false;
  $("#analyse").disabled = busy;
  $("#to-game").disabled = !$("#game").hidden;
  $("#hints").hidden = true;
  schedule();
}

function drawScores(view) {
  const body = $("#scores tbody");
  body.replaceChildren(...view.names.map((name, seat) => {
    const row = element("tr");
    const bot = view.bots[seat];
    const label = element("th", { scope: "row", textContent: name + (bot && !name.includes(bot) ? ` (${bot})` : "") });
    if (!view.over && seat === view.player) { row.className = "to-move"; label.append(element("span", { className: "sr", textContent: " (to move)" })); }
    if (view.winners.includes(seat)) { row.className = "winner"; label.append(" ", element("strong", { textContent: "wins" })); }
    row.append(label, element("td", { textContent: String(view.scores[seat]) }));
    return row;
  }));
}

function drawParts(parts) {
  $("#parts").replaceChildren(...parts.map((part) => element(
    "li", {}, element("strong", { textContent: `${part.name}: ` }),
    ...part.items.flatMap((item, index) => [
      index ? ", " : "",
      element("span", { title: item.about, textContent: `${item.text}${rulesText(item.rules)}` }),
    ]),
  )));
  $("#parts").hidden = parts.length === 0;
}

let followLog = true; // the log shows its newest turn unless the person scrolled back

function drawLog(log) {
  const list = $("#log");
  list.replaceChildren(...log.map((entry) => {
    const item = element("li", { className: [...entry.events.map((kind) => kind.replace(" ", "-")), entry.done ? "" : "current"].join(" ").trim() });
    item.value = entry.turn;
    item.append(element("span", { className: "text", textContent: entry.text }));
    if (entry.rules.length) item.append(" ", element("span", { className: "rules", textContent: `(${entry.rules.join(", ")})` }));
    return item;
  }));
  if (followLog) list.scrollTop = list.scrollHeight;
}

function logScrolled() {
  const list = $("#log");
  followLog = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
}

async function run(path, body) {
  if (busy) return; // one request at a time: a second click must not send the old game again
  busy = true;
  clearTimeout(botTimer);
  for (const button of document.querySelectorAll("#moves button, #undo, #hint, #bot-step")) button.disabled = true;
  showError(null);
  let answered = false;
  const asking = (async () => {
    try {
      game = await api(path, body);
      answered = true;
    } catch (error) {
      showError(error);
    } finally {
      busy = false;
    }
  })();
  pending = asking;
  await asking;
  if (game) render();
  return answered;
}

const play = (move) => run("/api/move", { record: game.record, move });
const botMove = () => run("/api/bot", { record: game.record });

function togglePause() {
  paused = !paused;
  $("#pause").setAttribute("aria-pressed", String(paused));
  $("#pause").firstChild.textContent = paused ? "Play bots " : "Pause bots ";
  schedule();
}

function stepBot() {
  if (botToMove() && !busy) botMove();
}

// The hints say they are on their way (aria-busy); an answer about a game a move has changed
// since is dropped (it would show the moves of a table gone).
async function hint() {
  if (!game || busy) return;
  showError(null);
  const about = game;
  const asked = ++hinting;
  $("#hints").setAttribute("aria-busy", "true");
  try {
    const answer = await api("/api/hint", { position: game.view.position });
    if (game === about) fillHints(answer.moves);
  } catch (error) {
    if (game === about) showError(error);
  } finally {
    if (asked === hinting) $("#hints").setAttribute("aria-busy", "false");
  }
}

// Every move with both values, each objective's best marked (as `pickomino play`'s hint does).
function fillHints(moves) {
  const body = $("#hints tbody");
  body.replaceChildren(...moves.map((entry) => {
    const marks = [entry.best ? "best this turn" : "", entry.best_for_game ? "best for the game" : ""].filter(Boolean);
    const row = element("tr", { className: marks.map((mark) => mark.replaceAll(" ", "-")).join(" ") });
    row.dataset.move = entry.move;
    const win = entry.win === null ? "" : `${(100 * entry.win).toFixed(1)}%`;
    for (const text of [entry.move, entry.worms.toFixed(3), win, marks.join(", ")]) row.append(element("td", { textContent: text }));
    return row;
  }));
  $("#hints").hidden = false;
}

const COLOURS = ["#8a3b12", "#1f5fa8", "#2e7d32", "#6a1b9a", "#7a5c00", "#00695c", "#ad1457"];
const SVG = "http://www.w3.org/2000/svg";
let analysis = null; // the server's answers for the game analysed, stitched window after window
let analysing = null; // the analysis under way: {record, control (to abort it)}
let step = 0;

function svgElement(tag, attributes, text) {
  const made = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) made.setAttribute(key, value);
  if (text !== undefined) made.textContent = text;
  return made;
}

// The chances by turn: the turns on the horizontal axis, 0-100% on the vertical one.
// ``done``: the game's end is in (else the chart stops at the last turn analysed so far).
function drawChart(chances, names, done = true) {
  const chart = $("#chart");
  chart.replaceChildren();
  const legend = $("#legend");
  legend.replaceChildren();
  if (chances.length < 2) return;
  // drawn at the size it is shown (its text stays 11-12 pixels high on a phone too)
  const width = Math.max(280, Math.round(chart.getBoundingClientRect().width) || 600);
  chart.setAttribute("viewBox", `0 0 ${width} 230`);
  const [left, right, top, bottom] = [40, width - 12, 10, 185];
  const x = (index) => left + ((right - left) * index) / (chances.length - 1);
  const y = (chance) => bottom - (bottom - top) * chance;
  for (const level of [0, 0.5, 1]) {
    chart.append(
      svgElement("line", { x1: left, x2: right, y1: y(level), y2: y(level), stroke: "#bbb", "stroke-dasharray": level === 0.5 ? "4 4" : "" }),
      svgElement("text", { x: 0, y: y(level) + 4, "font-size": 11 }, `${100 * level}%`),
    );
  }
  const turns = chances.at(-1).turn;
  const room = Math.max(2, Math.floor((right - left) / 45)); // ticks at least 45 pixels apart
  const every = [1, 2, 5, 10, 20, 50, 100].find((gap) => turns / gap <= room) || 200;
  chances.forEach((point, index) => {
    const last = index === chances.length - 1;
    if (!last && point.turn % every !== 0 && point.turn !== 1) return;
    const at = x(index);
    if (!last && x(chances.length - 1) - at < 30) return; // leave room for the last
    chart.append(
      svgElement("line", { x1: at, x2: at, y1: bottom, y2: bottom + 5, stroke: "#555" }),
      svgElement("text", { x: at, y: bottom + 18, "font-size": 11, "text-anchor": "middle" }, last && done ? "end" : String(point.turn)),
    );
  });
  chart.append(
    svgElement("line", { x1: left, x2: right, y1: bottom, y2: bottom, stroke: "#555" }),
    svgElement("text", { x: (left + right) / 2, y: bottom + 38, "font-size": 12, "text-anchor": "middle" }, "turn"),
  );
  names.forEach((name, player) => {
    const colour = COLOURS[player % COLOURS.length];
    const points = chances.map((point, index) => `${x(index).toFixed(1)},${y(point.chances[player]).toFixed(1)}`).join(" ");
    const line = svgElement("polyline", { points, fill: "none", stroke: colour, "stroke-width": 2 });
    line.append(svgElement("title", {}, name));
    chart.append(line);
    const when = done ? "at the end" : `at turn ${chances.at(-1).turn}`;
    const item = element("li", { textContent: `${name}: ${(100 * chances.at(-1).chances[player]).toFixed(0)}% ${when}` });
    item.style.color = colour;
    legend.append(item);
  });
}

const isMistake = (decision) => decision.mistake || decision.game_mistake;

function verdict(decision) {
  const turn = decision.mistake
    ? `This turn: a mistake, best was ${decision.best}; it cost ${decision.cost.toFixed(3)} expected worms.`
    : `This turn: ${decision.played === decision.best ? "the best move" : `as good as ${decision.best}`}.`;
  if (decision.best_for_game === null) return turn;
  const win = `${(100 * decision.win).toFixed(1)}% to win`;
  const game = decision.game_mistake
    ? `For the game: a mistake, best was ${decision.best_for_game}; it gave away ${(100 * decision.chance_cost).toFixed(1)} points of the chance to win (${win}).`
    : `For the game: ${decision.played === decision.best_for_game ? "the best move" : `as good as ${decision.best_for_game}`} (${win}).`;
  return `${turn} ${game}`;
}

async function showStep(index) {
  if (!analysis || analysis.decisions.length === 0) return;
  step = Math.max(0, Math.min(index, analysis.decisions.length - 1));
  $("#step").value = step;
  const decision = analysis.decisions[step];
  const name = analysis.names[decision.player];
  $("#decision").textContent = `Decision ${step + 1} of ${analysis.decisions.length}, turn ${decision.turn}: ${name} played ${decision.played}. ${verdict(decision)}`;
  try {
    const picture = await api("/api/draw", { position: decision.line, names: analysis.names });
    if (analysis.decisions[step] === decision) $("#analysis-table").innerHTML = picture.svg;
  } catch (error) {
    showError(error);
  }
}

function summarise() {
  const game = analysis.decisions.some((d) => d.best_for_game !== null);
  const rows = analysis.names.map((name, player) => {
    const mine = analysis.decisions.filter((d) => d.player === player);
    const sum = (key) => mine.reduce((total, d) => total + d[key], 0);
    const cells = [
      name,
      String(mine.length),
      String(mine.filter((d) => d.mistake).length),
      sum("cost").toFixed(2),
      game ? String(mine.filter((d) => d.game_mistake).length) : "-",
      game ? `${(100 * sum("chance_cost")).toFixed(1)}` : "-",
    ];
    const row = element("tr");
    cells.forEach((text, index) => row.append(element(index ? "td" : "th", { textContent: text, scope: index ? "" : "row" })));
    return row;
  });
  $("#mistakes tbody").replaceChildren(...rows);
  const turns = analysis.decisions.length ? analysis.decisions.at(-1).turn : 0;
  $("#summary").textContent = `${analysis.decisions.length} decisions in ${turns} turns. A move is a mistake against one objective at a time: `
    + "a turn mistake gives away expected worms this turn (more than 0.005, by the solver), a game mistake the chance to win the game "
    + "(more than 1 point of %, by the champion's model)"
    + (game ? "." : "; no win model ships for this game, so only turn mistakes are counted.");
}

// The server analyses a long game in windows of whole turns (each answer says where the next
// starts): the page asks one after the other, showing what is done so far, and stays usable.
async function analyse() {
  if (!game) return;
  clearTimeout(botTimer); // the bots wait while the person reads the analysis
  await pending; // a move under way finishes first
  const record = game.record;
  show("#analysis");
  if (analysing && analysing.record === record) return; // already under way
  if (analysing) analysing.control.abort(); // an older game's: nobody reads it now
  const mine = { record, control: new AbortController() };
  analysing = mine;
  showError(null);
  analysis = null;
  drawAnalysis(0, record.moves.length);
  try {
    for (let start = 0; start !== null;) {
      const body = start ? { record, start } : { record };
      const part = await api("/api/analyse", body, mine.control.signal);
      if (analysing !== mine) return;
      analysis = analysis
        ? { ...analysis, decisions: analysis.decisions.concat(part.decisions), chances: analysis.chances.concat(part.chances) }
        : part;
      start = part.next;
      drawAnalysis(start, record.moves.length);
    }
  } catch (error) {
    if (analysing === mine) showError(error);
    if (analysing === mine && !analysis) $("#summary").textContent = "";
  } finally {
    if (analysing === mine) analysing = null;
  }
}

// The analysis so far: ``start`` the move it has reached (null: all), of ``moves``.
function drawAnalysis(start, moves) {
  const done = start === null;
  if (!done) $("#summary").textContent = `Analysing the game: every turn is solved… ${Math.floor((100 * start) / Math.max(1, moves))}%`;
  if (!analysis) {
    $("#mistakes tbody").replaceChildren();
    $("#chart").replaceChildren();
    $("#legend").replaceChildren();
    $("#decision").textContent = "";
    $("#analysis-table").replaceChildren();
    $("#step").max = 0;
    return;
  }
  drawChart(analysis.chances, analysis.names, done);
  $("#step").max = Math.max(0, analysis.decisions.length - 1);
  if (done) summarise(); // the counts once they are whole
  if (!$("#decision").textContent) showStep(0);
}

function nextMistake() {
  if (!analysis) return;
  const found = analysis.decisions.findIndex((d, index) => index > step && isMistake(d));
  if (found >= 0) showStep(found);
}

function advisor() {
  show("#advisor");
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
  clearTimeout(botTimer);
  await pending; // a bot's move under way lands first (run takes one request at a time)
  if (await run("/api/view", { record })) show("#game");
}

// An option's value as typed: a list or object (or number, true, false, null where the option
// is not text) as JSON, else the text itself, one pair of quotes around it dropped, so that
// both of the golden die's examples, 111www and [1, 1, 1, 6, 6, 6], are taken as they are
// typed. What the library refuses, it says why (the page never words it).
function optionValue(typed, text) {
  const value = typed.trim();
  const quoted = value.match(/^(['"])(.*)\1$/);
  if (quoted) return quoted[2];
  if (!text || /^[[{]/.test(value)) {
    try {
      return JSON.parse(value);
    } catch {
      return value; // the library's sentence says what it takes
    }
  }
  return value;
}

async function start(event) {
  event.preventDefault();
  const options = {};
  for (const input of $("#options").querySelectorAll("input")) {
    if (input.type === "checkbox") options[input.name] = input.checked;
    else options[input.name] = optionValue(input.value, input.dataset.text === "1");
  }
  const seats = [...$("#seats").querySelectorAll("select")].map((select) => select.value || null);
  const names = [...$("#seats").querySelectorAll("input.name")].map((input, seat) => input.value.trim() || defaultName(seat, seats[seat], seats));
  const body = { variant: $("#variant").value, players: Number($("#players").value), options, seats, names };
  clearTimeout(botTimer);
  await pending; // the old game's move under way is dropped with it
  if (await run("/api/new", body)) show("#game");
}

function keys(event) {
  if (event.target.closest("input, select, textarea") || event.ctrlKey || event.metaKey || event.altKey) return;
  const playing = !$("#game").hidden;
  if (playing && /^[1-9]$/.test(event.key)) {
    const button = $("#moves").children[Number(event.key) - 1];
    if (button && !button.disabled) button.click();
  } else if (playing && event.key === "u" && !$("#undo").disabled) {
    $("#undo").click();
  } else if (playing && event.key === "h" && !$("#hint").disabled) {
    hint();
  } else if (playing && event.key === "p") {
    togglePause();
  } else if (playing && event.key === "n" && !$("#bot-step").disabled) {
    stepBot();
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
  if (DELAY_MS !== null) $("#pace").append(option(String(DELAY_MS), `${DELAY_MS} ms (from the address)`));
  if (DELAY_MS !== null) $("#pace").value = String(DELAY_MS);
  $("#variant").addEventListener("change", drawSetup);
  $("#players").addEventListener("change", drawSetup);
  $("#setup").addEventListener("submit", start);
  $("#new-game").addEventListener("click", () => show("#setup"));
  $("#to-game").addEventListener("click", () => game && show("#game"));
  $("#undo").addEventListener("click", () => game && run("/api/undo", { record: game.record }));
  $("#hint").addEventListener("click", hint);
  $("#save").addEventListener("click", save);
  $("#load").addEventListener("change", load);
  $("#advise").addEventListener("click", advisor);
  $("#analyse").addEventListener("click", analyse);
  $("#pause").addEventListener("click", togglePause);
  $("#bot-step").addEventListener("click", stepBot);
  $("#pace").addEventListener("change", schedule);
  $("#log").addEventListener("scroll", logScrolled);
  $("#previous").addEventListener("click", () => showStep(step - 1));
  $("#next").addEventListener("click", () => showStep(step + 1));
  $("#next-mistake").addEventListener("click", nextMistake);
  $("#step").addEventListener("input", (event) => showStep(Number(event.target.value)));
  initAdvisor(api, setup);
  $("#from-game").addEventListener("click", () => game && showAdvisor(game.view.line));
  document.addEventListener("keydown", keys);
}

main();
