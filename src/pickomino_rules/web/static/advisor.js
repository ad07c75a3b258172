// The advisor: a real table set up by clicking (or from a position line), checked by the
// library at every change, and every move ranked for it.
//
// The table is one position (the library's position JSON); the form shows it and edits it.
// Each change is sent to the server to be drawn: the library validates it, and each problem
// it finds is shown at the part of the form it is about (tiles, turn, dice, a part).

const $ = (selector) => document.querySelector(selector);
const FACES = ["1", "2", "3", "4", "5", "w"];
const FACE_NAMES = ["1s", "2s", "3s", "4s", "5s", "worms"];

let api = null; // the page's call to the server
let table = null; // {position, kinds, tiles}: the table as set up
let place = "grill"; // where a tile clicked goes: "grill", "face_down" or a player's index
let asking = 0; // the newest request about the table (the answers to older ones are dropped)

function element(tag, properties = {}, ...children) {
  const made = Object.assign(document.createElement(tag), properties);
  made.append(...children);
  return made;
}

function labelled(text, input) {
  return element("label", {}, `${text} `, input);
}

const state = () => table.position.state;
const playerName = (player) => `player ${player}`;

function whereIs(tile) {
  const s = state();
  if (s.grill.includes(tile)) return "on the grill";
  if (s.face_down.includes(tile)) return "face down";
  const owner = s.stacks.findIndex((stack) => stack.includes(tile));
  return owner >= 0 ? `in ${playerName(owner)}'s stack` : "nowhere";
}

function moveTile(tile) {
  const s = state();
  s.grill = s.grill.filter((t) => t !== tile);
  s.face_down = s.face_down.filter((t) => t !== tile);
  s.stacks = s.stacks.map((stack) => stack.filter((t) => t !== tile));
  if (place === "grill") s.grill = [...s.grill, tile].sort((a, b) => a - b);
  else if (place === "face_down") s.face_down = [...s.face_down, tile].sort((a, b) => a - b);
  else s.stacks[place].push(tile); // onto the top of the stack
  changed();
}

function fillTiles() {
  const s = state();
  const places = [["grill", "the grill"], ["face_down", "face down"], ...s.stacks.map((_, p) => [p, `${playerName(p)}'s stack`])];
  $("#ed-place").replaceChildren(...places.map(([value, text]) => {
    const radio = element("input", { type: "radio", name: "ed-place", value: String(value), checked: String(value) === String(place) });
    radio.addEventListener("change", () => { place = value; });
    return element("label", { className: "choice" }, radio, ` ${text}`);
  }));
  const tiles = Object.keys(table.tiles).map(Number).sort((a, b) => a - b);
  $("#ed-tiles").replaceChildren(...tiles.map((tile) => {
    const where = whereIs(tile);
    const button = element("button", { type: "button", className: `tile ${where.split(" ")[0]}` });
    button.append(element("span", { textContent: String(tile) }), element("small", { textContent: "~".repeat(table.tiles[tile]) }));
    const holder = s.stacks.findIndex((stack) => stack.includes(tile));
    if (holder >= 0) button.append(element("small", { textContent: `P${holder}` }));
    if (s.face_down.includes(tile)) button.append(element("small", { textContent: "down" }));
    button.setAttribute("aria-label", `tile ${tile}, ${table.tiles[tile]} worm${table.tiles[tile] === 1 ? "" : "s"}, ${where}`);
    button.addEventListener("click", () => moveTile(tile));
    return button;
  }));
  $("#ed-stacks").replaceChildren(...s.stacks.map((stack, player) => element(
    "li", { textContent: `${playerName(player)}'s stack, bottom to top: ${stack.length ? stack.join(", ") : "none"}` },
  )));
}

function fillTurn() {
  const s = state();
  $("#ed-player").replaceChildren(...s.stacks.map((_, p) => element("option", { value: String(p), textContent: playerName(p) })));
  $("#ed-player").value = String(s.player);
  $("#ed-phase").value = s.phase;
}

function counter(text, value, onChange) {
  const input = element("input", { type: "number", min: "0", max: "20", value: String(value), className: "count" });
  input.addEventListener("change", () => onChange(Math.max(0, Math.trunc(Number(input.value) || 0))));
  return labelled(text, input);
}

function fillDice() {
  const s = state();
  $("#ed-set-aside").replaceChildren(element("span", { textContent: "Set aside:" }), ...s.set_aside.map((count, face) => counter(
    FACE_NAMES[face], count, (value) => { s.set_aside[face] = value; changed(); },
  )));
  $("#ed-in-hand").replaceChildren(element("span", { textContent: "In hand:" }), ...s.in_hand.map((count, kind) => counter(
    `${table.kinds[kind]} dice`, count, (value) => { s.in_hand[kind] = value; changed(); },
  )));
  $("#dice").value = s.phase === "choose" && s.roll ? s.roll : $("#dice").value;
  $("#ed-roll").replaceChildren(
    element("span", { textContent: "Add a die:" }),
    ...FACES.map((face, index) => {
      const button = element("button", { type: "button", className: "die", textContent: face === "w" ? "worm" : face });
      button.setAttribute("aria-label", `add a rolled ${FACE_NAMES[index].replace(/s$/, "")}`);
      button.addEventListener("click", () => { $("#dice").value += face; diceTyped(); });
      return button;
    }),
    (() => {
      const clear = element("button", { type: "button", textContent: "clear" });
      clear.setAttribute("aria-label", "clear the dice rolled");
      clear.addEventListener("click", () => { $("#dice").value = ""; diceTyped(); });
      return clear;
    })(),
  );
}

function diceTyped() {
  if (state().phase === "choose") { // the roll is on the table: part of the position
    state().roll = $("#dice").value.trim() || null;
    changed();
  }
}

// A part of the variant (grilled worms, specialists, ...) is JSON: each value gets an input
// of its kind, named by where it lies in the part.
function leaf(path, value, set) {
  const name = path.join(" ").replaceAll("_", " ");
  if (typeof value === "boolean") {
    const box = element("input", { type: "checkbox", checked: value });
    box.addEventListener("change", () => set(box.checked));
    return element("label", { className: "choice" }, box, ` ${name}`);
  }
  if (typeof value === "number") {
    const input = element("input", { type: "number", value: String(value), className: "count" });
    input.addEventListener("change", () => set(Number(input.value)));
    return labelled(name, input);
  }
  // null, text, or an empty list: written as JSON (empty for null)
  const input = element("input", { value: value === null ? "" : JSON.stringify(value), className: "json" });
  input.addEventListener("change", () => {
    const text = input.value.trim();
    try {
      set(text === "" ? null : JSON.parse(text));
    } catch {
      set(text); // not JSON: the library says what it expected
    }
  });
  return labelled(name, input);
}

function partInputs(path, value, set) {
  const isList = Array.isArray(value);
  if (value === null || typeof value !== "object" || (isList && value.length === 0)) return [leaf(path, value, set)];
  const entries = isList ? value.map((item, index) => [index, item]) : Object.entries(value);
  const inputs = entries.flatMap(([key, item]) => partInputs([...path, String(key)], item, (changedValue) => { value[key] = changedValue; set(value); }));
  if (path.length === 0) return inputs;
  const group = element("div", { className: "row item" }, ...inputs); // one entry of the part, one row
  group.setAttribute("role", "group");
  group.setAttribute("aria-label", path.join(" ").replaceAll("_", " "));
  return [group];
}

function fillParts() {
  const parts = state().parts;
  $("#ed-parts").replaceChildren(...Object.keys(parts).map((name) => {
    const field = element("fieldset", { id: `field-part:${name}`, className: "part" });
    const problem = element("p", { className: "problem", id: `problem-part:${name}` });
    field.setAttribute("aria-describedby", problem.id);
    field.append(
      element("legend", { textContent: name.replaceAll("_", " ") }),
      ...partInputs([], parts[name], (value) => { parts[name] = value; changed(); }),
      problem,
    );
    return field;
  }));
}

function fill() {
  fillTiles();
  fillTurn();
  fillDice();
  fillParts();
}

function showProblems(problems) {
  for (const slot of document.querySelectorAll("#advisor .problem")) slot.textContent = "";
  for (const field of document.querySelectorAll("#advisor fieldset")) field.removeAttribute("aria-invalid");
  for (const { field, message } of problems) {
    const slot = document.getElementById(`problem-${field}`) || $("#problem-position");
    slot.textContent = slot.textContent ? `${slot.textContent}; ${message}` : message;
    document.getElementById(`field-${field}`)?.setAttribute("aria-invalid", "true");
  }
}

// Draw the table as it now is; the library's problems, if any, go to their fields.
async function changed() {
  fillTiles();
  fillDice();
  const asked = ++asking;
  $("#advice").hidden = true;
  try {
    const answer = await api("/api/draw", { position: table.position });
    if (asked !== asking) return;
    showProblems([]);
    $("#advice-table").innerHTML = answer.svg;
    $("#line").value = answer.line;
  } catch (error) {
    if (asked !== asking) return;
    showProblems(error.problems || [{ field: "position", message: error.message }]);
  }
}

async function setUp(path, body) {
  $("#advice-error").textContent = "";
  const asked = ++asking;
  for (const field of document.querySelectorAll("#advisor fieldset")) field.disabled = true; // no change to the old table meanwhile
  try {
    const answer = await api(path, body);
    if (asked !== asking) return;
    table = { position: answer.position, kinds: answer.kinds, tiles: answer.tiles };
    place = "grill";
    $("#ed-variant").value = table.position.variant;
    $("#ed-players").value = state().stacks.length;
    $("#dice").value = "";
    fill();
    showProblems([]);
    $("#advice-table").innerHTML = answer.svg;
    $("#line").value = answer.line;
    $("#advice").hidden = true;
  } catch (error) {
    if (asked === asking) showProblems(error.problems || [{ field: "position", message: error.message }]);
  } finally {
    if (asked === asking) for (const field of document.querySelectorAll("#advisor fieldset")) field.disabled = false;
  }
}

async function rank(event) {
  event.preventDefault();
  $("#advice-error").textContent = "";
  $("#advice").hidden = true;
  if (!table) return;
  const dice = $("#dice").value.trim();
  const roll = state().phase === "roll" && dice ? dice : null;
  try {
    const answer = await api("/api/hint", { position: table.position, roll });
    showProblems([]);
    $("#advice-table").innerHTML = answer.svg;
    fillMoves($("#advice"), answer.moves);
  } catch (error) {
    showProblems(error.problems || []);
    $("#advice-error").textContent = error.problems // the library says what is wrong, and where
      ? "This table cannot be: see the parts marked in red."
      : error.message;
  }
}

export function fillMoves(tableElement, moves) {
  const body = tableElement.querySelector("tbody");
  body.replaceChildren();
  for (const entry of moves) {
    const row = document.createElement("tr");
    const win = entry.win === null ? "" : `${(100 * entry.win).toFixed(1)}%`;
    for (const text of [entry.move, entry.worms.toFixed(3), win]) {
      row.append(Object.assign(document.createElement("td"), { textContent: text }));
    }
    body.append(row);
  }
  tableElement.hidden = false;
}

// Show the advisor; ``line``: a position line to set up (this game's table), if any.
export async function showAdvisor(line) {
  if (line) await setUp("/api/draw", { position: line });
  else if (!table) await fresh();
  $("#ed-variant").focus();
}

function fresh() {
  return setUp("/api/start", { variant: $("#ed-variant").value, players: Number($("#ed-players").value) });
}

export function initAdvisor(call, setup) {
  api = call;
  for (const variant of setup.variants) $("#ed-variant").append(element("option", { value: variant.name, textContent: variant.name }));
  $("#ed-fresh").addEventListener("click", fresh);
  $("#ed-variant").addEventListener("change", fresh); // another game: its table at the start
  $("#ed-players").addEventListener("change", fresh);
  $("#ed-read").addEventListener("click", () => setUp("/api/draw", { position: $("#line").value.trim() }));
  $("#ed-player").addEventListener("change", () => { state().player = Number($("#ed-player").value); changed(); });
  $("#ed-phase").addEventListener("change", () => {
    const s = state();
    s.phase = $("#ed-phase").value;
    s.roll = s.phase === "choose" ? ($("#dice").value.trim() || null) : null;
    changed();
  });
  $("#dice").addEventListener("change", diceTyped);
  $("#advisor").addEventListener("submit", rank);
}
