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
let table = null; // {position, kinds, tiles, guides, turnDice}: the table as set up
let place = "grill"; // where a tile clicked goes: "grill", "face_down" or a player's index
let asking = 0; // the newest request about the table (the answers to older ones are dropped)
let lineAsked = ""; // the position line as it was when the newest request went out
let drawOut = false; // the newest request about the table is not answered yet
let handAsked = 0; // the newest request for the dice in hand (the answers to older ones are dropped)
let handOut = false; // it is not answered yet (the table is drawn after it)
let drawing = Promise.resolve(); // the newest table set up or changed, until its answer is shown

// A tile's worms: one ~ each, or past four one and their number (as the pictures draw them).
const wormsText = (worms) => (worms > 4 ? `~\u00d7${worms}` : "~".repeat(worms));

// A request about the table is out: the table says so (aria-busy) until the newest one is
// answered, and the newest request for the dice in hand too.
function showBusy() {
  $("#advice-table").setAttribute("aria-busy", String(drawOut || handOut));
}

function ask() {
  drawOut = true;
  showBusy();
  lineAsked = $("#line").value;
  return ++asking;
}

// The answer's position line, unless the line was typed in while the request was out: what the
// user types is never overwritten by an answer to an earlier question.
function showLine(line) {
  if ($("#line").value === lineAsked) $("#line").value = line;
}

function answered(asked) {
  if (asked !== asking) return;
  drawOut = false;
  showBusy();
}

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
  changed(fillTiles, fillParts);
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
    button.append(element("span", { textContent: String(tile) }), element("small", { textContent: wormsText(table.tiles[tile]) }));
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

// The dice in hand follow the dice set aside: the dice the player to move starts a turn with
// (the golden die's owner's too), less those set aside, white ones first. The server works
// them out (the library knows who rolls which dice); a hand typed in stays until the dice set
// aside change, or the player or a specialist does while the hand followed them. Only the
// newest answer counts (an older one, for the player before, may land last); false: another
// table was set up meanwhile, and this one is not to be drawn.
async function followHand() {
  const asked = ++handAsked;
  const about = table;
  handOut = true;
  showBusy();
  try {
    const answer = await api("/api/hand", { position: table.position });
    if (asked === handAsked && table === about) {
      state().in_hand = answer.in_hand;
      table.turnDice = answer.turn_dice;
    }
  } catch {
    // the table is wrong elsewhere: drawing it says where
  } finally {
    if (asked === handAsked) {
      handOut = false;
      showBusy();
    }
  }
  if (table !== about) return false;
  showHand();
  return true;
}

const following = () => sameDice(state().in_hand, handFollowing());

function handFollowing(turnDice = table.turnDice) {
  let left = state().set_aside.reduce((sum, count) => sum + count, 0);
  return turnDice.map((count) => {
    const kept = Math.min(count, left);
    left -= kept;
    return count - kept;
  });
}

const sameDice = (one, other) => one.length === other.length && one.every((count, kind) => count === other[kind]);

function fillDice() {
  const s = state();
  $("#ed-set-aside").replaceChildren(element("span", { textContent: "Set aside:" }), ...s.set_aside.map((count, face) => counter(
    FACE_NAMES[face], count, (value) => {
      s.set_aside[face] = value;
      followHand().then((same) => same && changed());
    },
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

// A part of the variant (grilled worms, specialists, ...) is the library's JSON of it. Each
// shape the variants' parts use gets its own inputs, read off the JSON, never off the names
// of the specialists: things placed on a tile or with a player (``specs`` and their
// ``places``) are placed by choosing one, then where it is; a list of counts with one per
// player is a counter per player; a seat (``owner``, ``chooser``, ``player``) is chosen among
// the players, ``victims`` ticked among them, a ``tile`` chosen among the tiles. Any other
// value (a part of a user's own variant) gets a generic input of its kind.
const SEATS = new Set(["owner", "chooser", "player"]);
const SEAT_LISTS = new Set(["victims"]);
const spaced = (name) => String(name).replaceAll("_", " ");
const players = () => state().stacks.length;
const isCount = (value) => Number.isInteger(value);
let chosen = {}; // per part, the index of the thing chosen to be placed next

function leaf(name, value, set) {
  if (typeof value === "boolean") {
    const box = element("input", { type: "checkbox", checked: value });
    box.addEventListener("change", () => set(box.checked));
    return element("label", { className: "choice" }, box, ` ${name}`);
  }
  if (typeof value === "number") return counter(name, value, set);
  if (typeof value === "string") {
    const input = element("input", { value });
    input.addEventListener("change", () => set(input.value));
    return labelled(name, input);
  }
  // null, or a list not of a known shape: written as JSON (empty for null)
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

function seatChoice(name, value, set) {
  const select = element("select", {}, element("option", { value: "", textContent: "nobody" }),
    ...Array.from({ length: players() }, (_, p) => element("option", { value: String(p), textContent: playerName(p) })));
  select.value = value === null ? "" : String(value);
  select.addEventListener("change", () => set(select.value === "" ? null : Number(select.value)));
  return labelled(name, select);
}

function tileChoice(name, value, set) {
  const select = element("select", {}, element("option", { value: "", textContent: "none" }),
    ...Object.keys(table.tiles).map((tile) => element("option", { value: tile, textContent: tile })));
  select.value = value === null ? "" : String(value);
  select.addEventListener("change", () => set(select.value === "" ? null : Number(select.value)));
  return labelled(name, select);
}

function seatTicks(name, value, set) {
  const group = element("div", { className: "row item" }, element("span", { textContent: `${name}:` }));
  group.setAttribute("role", "group");
  group.setAttribute("aria-label", name);
  for (let p = 0; p < players(); p += 1) {
    const box = element("input", { type: "checkbox", checked: value.includes(p) });
    box.addEventListener("change", () => set(Array.from({ length: players() }, (_, q) => q).filter((q) => (q === p ? box.checked : value.includes(q)))));
    group.append(element("label", { className: "choice" }, box, ` ${playerName(p)}`));
  }
  return group;
}

function perPlayer(name, value, set) {
  const group = element("div", { className: "row item" }, element("span", { textContent: `${name}:` }));
  group.setAttribute("role", "group");
  group.setAttribute("aria-label", name);
  group.append(...value.map((count, p) => counter(playerName(p), count, (changedCount) => {
    value[p] = changedCount;
    set(value);
  })));
  return group;
}

const isPlace = (item) => item !== null && typeof item === "object" && "tile" in item && "owner" in item;
const isPlacement = (value) => Array.isArray(value.specs) && Array.isArray(value.places) && value.specs.length === value.places.length
  && value.specs.every((spec) => spec && typeof spec.name === "string") && value.places.every(isPlace);

function whereText(place) {
  if (place.tile !== null) return `on ${place.tile}`;
  return place.owner === null ? "out of the game" : `with ${playerName(place.owner)}`;
}

// Things with a place (the specialists): choose one, then the tile or player that holds it.
function placement(part, value, set) {
  const index = Math.min(chosen[part] ?? 0, value.specs.length - 1);
  const pick = element("div", { className: "row", id: `ed-pick-${part}` });
  pick.setAttribute("role", "radiogroup");
  pick.setAttribute("aria-label", `Choose one of the ${spaced(part)}`);
  value.specs.forEach((spec, at) => {
    const button = element("button", { type: "button", className: "piece" },
      element("span", { textContent: spaced(spec.name) }), element("small", { textContent: whereText(value.places[at]) }));
    button.setAttribute("role", "radio");
    button.setAttribute("aria-checked", String(at === index));
    button.setAttribute("aria-label", `${spaced(spec.name)}, ${whereText(value.places[at])}`);
    if (table.guides[spec.name]) button.title = table.guides[spec.name];
    button.addEventListener("click", () => { chosen[part] = at; refilled(fillParts); });
    pick.append(button);
  });
  const guide = element("p", { className: "guide", textContent: table.guides[value.specs[index].name] || "" });
  const name = spaced(value.specs[index].name);
  const place = async (where) => {
    const followed = following();
    value.places[index] = where;
    if (followed && !(await followHand())) return; // the golden die: its owner rolls it
    set(value);
    refilled(fillParts); // where each one is, shown anew
  };
  const targets = element("div", { className: "row", id: `ed-where-${part}` }, element("span", { textContent: `The ${name} is:` }));
  targets.setAttribute("role", "group");
  targets.setAttribute("aria-label", `Where the ${name} is`);
  const target = (text, label, where) => {
    const button = element("button", { type: "button", className: "target", textContent: text });
    const here = value.places[index].tile === where.tile && value.places[index].owner === where.owner;
    button.setAttribute("aria-pressed", String(here));
    button.setAttribute("aria-label", `the ${name} ${label}`);
    button.addEventListener("click", () => place(where));
    return button;
  };
  targets.append(
    ...state().grill.map((tile) => target(String(tile), `on ${tile}`, { tile, owner: null })),
    ...Array.from({ length: players() }, (_, p) => target(playerName(p), `with ${playerName(p)}`, { tile: null, owner: p })),
    target("out of the game", "out of the game", { tile: null, owner: null }),
  );
  return [pick, guide, targets];
}

function partInputs(part, value, set) {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return [leaf(spaced(part), value, set)];
  const inputs = isPlacement(value) ? placement(part, value, set) : [];
  for (const [key, item] of Object.entries(value)) {
    if (inputs.length && (key === "specs" || key === "places")) continue;
    const name = spaced(key);
    const setItem = (changedValue) => { value[key] = changedValue; set(value); };
    if (SEATS.has(key) && (item === null || isCount(item))) inputs.push(seatChoice(name, item, setItem));
    else if (key === "tile" && (item === null || isCount(item))) inputs.push(tileChoice(name, item, setItem));
    else if (SEAT_LISTS.has(key) && Array.isArray(item) && item.every(isCount)) inputs.push(seatTicks(name, item, setItem));
    else if (Array.isArray(item) && item.length === players() && item.every(isCount)) inputs.push(perPlayer(name, item, setItem));
    else if (item !== null && typeof item === "object") inputs.push(...genericInputs([key], item, setItem));
    else inputs.push(leaf(name, item, setItem));
  }
  return inputs;
}

// A value of no known shape: an input per leaf, named by where it lies in the part.
function genericInputs(path, value, set) {
  const isList = Array.isArray(value);
  if (value === null || typeof value !== "object" || (isList && value.length === 0)) return [leaf(path.map(spaced).join(" "), value, set)];
  const entries = isList ? value.map((item, index) => [index, item]) : Object.entries(value);
  const inputs = entries.flatMap(([key, item]) => genericInputs([...path, String(key)], item, (changedValue) => { value[key] = changedValue; set(value); }));
  const group = element("div", { className: "row item" }, ...inputs); // one entry of the part, one row
  group.setAttribute("role", "group");
  group.setAttribute("aria-label", path.map(spaced).join(" "));
  return [group];
}

function fillParts() {
  const parts = state().parts;
  $("#ed-parts").replaceChildren(...Object.keys(parts).map((name) => {
    const field = element("fieldset", { id: `field-part:${name}`, className: "part" });
    const problem = element("p", { className: "problem", id: `problem-part:${name}` });
    field.setAttribute("aria-describedby", problem.id);
    const about = table.guides[name] && !isPlacement(parts[name]) // a placement tells each one's
      ? [element("p", { className: "guide", textContent: table.guides[name] })] : [];
    field.append(
      element("legend", { textContent: spaced(name) }),
      ...about,
      ...partInputs(name, parts[name], (value) => { parts[name] = value; changed(); }),
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

// Redraw the form's inputs, the focus kept where it was (a keyboard user tabs on unhindered).
function refilled(...fills) {
  const focusable = () => [...document.querySelectorAll("#advisor fieldset :is(input, select, button)")];
  const at = focusable().indexOf(document.activeElement);
  for (const fillIn of fills) fillIn();
  if (at >= 0 && !document.activeElement?.closest("#advisor fieldset")) focusable()[Math.min(at, focusable().length - 1)]?.focus();
}

// A marker of a picture (a specialist, the grilled worms) tells its rule when tapped, or on
// Enter, anywhere on the page: the game's table, the analysis' and the advisor's. The text is
// the library's, which the picture carries (the rule module's guide, its hover title).
function explain(marker) {
  let box = $("#explain");
  if (!box) {
    box = element("div", { id: "explain", role: "status" });
    box.setAttribute("aria-live", "polite");
    const close = element("button", { type: "button", textContent: "Close" });
    close.addEventListener("click", () => { box.hidden = true; });
    box.append(element("p", {}, element("strong"), element("span")), close);
    document.body.append(box);
  }
  box.querySelector("strong").textContent = `${spaced(marker.dataset.topic)}: `;
  box.querySelector("span").textContent = marker.querySelector("title")?.textContent || "";
  box.hidden = false;
}

function explainOnTap() {
  document.addEventListener("click", (event) => {
    const marker = event.target.closest?.("svg .marker[data-topic]");
    if (marker) explain(marker);
    else if ($("#explain") && !event.target.closest?.("#explain")) $("#explain").hidden = true;
  });
  document.addEventListener("keydown", (event) => {
    if ((event.key === "Enter" || event.key === " ") && event.target.matches?.("svg .marker[data-topic]")) {
      event.preventDefault();
      event.stopPropagation();
      explain(event.target);
    } else if (event.key === "Escape" && $("#explain")) $("#explain").hidden = true;
  });
}

function showProblems(problems) {
  for (const slot of document.querySelectorAll("#advisor .problem")) slot.textContent = "";
  for (const field of document.querySelectorAll("#advisor fieldset")) field.removeAttribute("aria-invalid");
  for (const { field, message: said } of problems) {
    const slot = document.getElementById(`problem-${field}`) || $("#problem-position");
    const message = slot.id === "problem-position" ? said : said.replace(/^part '[^']*': /, ""); // shown at its part
    slot.textContent = slot.textContent ? `${slot.textContent}; ${message}` : message;
    document.getElementById(`field-${field}`)?.setAttribute("aria-invalid", "true");
  }
}

// Draw the table as it now is; the library's problems, if any, go to their fields.
// The dice in hand shown as the table has them (the inputs stay: one may be being typed in).
function showHand() {
  $("#ed-in-hand").querySelectorAll("input").forEach((input, kind) => { input.value = String(state().in_hand[kind]); });
}

// ``fills``: the parts of the form to redraw, those the change moves (a tile moved: the tiles
// and the places on the grill); the inputs typed in stay as they are.
function changed(...fills) {
  drawing = draw(...fills);
  return drawing;
}

async function draw(...fills) {
  refilled(...fills);
  const asked = ask();
  $("#advice").hidden = true;
  try {
    const answer = await api("/api/draw", { position: table.position });
    if (asked !== asking) return;
    showProblems([]);
    $("#advice-table").innerHTML = answer.svg;
    showLine(answer.line);
  } catch (error) {
    if (asked !== asking) return;
    showProblems(error.problems || [{ field: "position", message: error.message }]);
  } finally {
    answered(asked);
  }
}

function setUp(path, body) {
  drawing = setUpTable(path, body);
  return drawing;
}

async function setUpTable(path, body) {
  $("#advice-error").textContent = "";
  const asked = ask();
  for (const field of document.querySelectorAll("#advisor fieldset")) field.disabled = true; // no change to the old table meanwhile
  try {
    const answer = await api(path, body);
    if (asked !== asking) return;
    table = { position: answer.position, kinds: answer.kinds, tiles: answer.tiles, guides: answer.guides, turnDice: answer.turn_dice };
    place = "grill";
    chosen = {};
    $("#ed-variant").value = table.position.variant;
    $("#ed-players").value = state().stacks.length;
    $("#dice").value = "";
    fill();
    showProblems([]);
    $("#advice-table").innerHTML = answer.svg;
    showLine(answer.line);
    $("#advice").hidden = true;
  } catch (error) {
    if (asked === asking) showProblems(error.problems || [{ field: "position", message: error.message }]);
  } finally {
    if (asked === asking) for (const field of document.querySelectorAll("#advisor fieldset")) field.disabled = false;
    answered(asked);
  }
}

async function rank(event) {
  event.preventDefault();
  $("#advice-error").textContent = "";
  $("#advice").hidden = true;
  // The table being set up or changed is drawn first (Enter in Players sets one up, then
  // submits): the moves are ranked for it, and its answer is not dropped for this one's.
  for (let waited = null; waited !== drawing;) {
    waited = drawing;
    await waited;
  }
  if (!table) return;
  const dice = $("#dice").value.trim();
  const roll = state().phase === "roll" && dice ? dice : null;
  const asked = ask();
  try {
    const answer = await api("/api/hint", { position: table.position, roll });
    if (asked !== asking) return;
    showProblems([]);
    $("#advice-table").innerHTML = answer.svg;
    fillMoves($("#advice"), answer.moves);
  } catch (error) {
    if (asked !== asking) return;
    showProblems(error.problems || []);
    $("#advice-error").textContent = error.problems // the library says what is wrong, and where
      ? "This table cannot be: see the parts marked in red."
      : error.message;
  } finally {
    answered(asked);
  }
}

// Every move with both values, each objective's best marked (as the play screen's hint does).
export function fillMoves(tableElement, moves) {
  const body = tableElement.querySelector("tbody");
  body.replaceChildren();
  for (const entry of moves) {
    const marks = [entry.best ? "best this turn" : "", entry.best_for_game ? "best for the game" : ""].filter(Boolean);
    const row = document.createElement("tr");
    row.className = marks.map((mark) => mark.replaceAll(" ", "-")).join(" ");
    row.dataset.move = entry.move;
    const win = entry.win === null ? "" : `${(100 * entry.win).toFixed(1)}%`;
    for (const text of [entry.move, entry.worms.toFixed(3), win, marks.join(", ")]) {
      row.append(Object.assign(document.createElement("td"), { textContent: text }));
    }
    body.append(row);
  }
  tableElement.hidden = false;
}

// Show the advisor; ``line``: a position line to set up (this game's table), if any.
export async function showAdvisor(line) {
  $("#ed-variant").focus(); // at once: when the table lands, the user may be typing elsewhere
  if (line) await setUp("/api/draw", { position: line });
  else if (!table) await fresh();
}

function fresh() {
  return setUp("/api/start", { variant: $("#ed-variant").value, players: Number($("#ed-players").value) });
}

export function initAdvisor(call, setup) {
  api = call;
  explainOnTap();
  for (const variant of setup.variants) $("#ed-variant").append(element("option", { value: variant.name, textContent: variant.name }));
  $("#ed-fresh").addEventListener("click", fresh);
  $("#ed-variant").addEventListener("change", fresh); // another game: its table at the start
  $("#ed-players").addEventListener("change", fresh);
  $("#ed-read").addEventListener("click", () => setUp("/api/draw", { position: $("#line").value.trim() }));
  $("#ed-player").addEventListener("change", async () => {
    const followed = following();
    state().player = Number($("#ed-player").value);
    if (followed && !(await followHand())) return; // another player, another turn's dice (the golden die)
    changed();
  });
  $("#ed-phase").addEventListener("change", () => {
    const s = state();
    s.phase = $("#ed-phase").value;
    s.roll = s.phase === "choose" ? ($("#dice").value.trim() || null) : null;
    changed();
  });
  $("#dice").addEventListener("change", diceTyped);
  $("#advisor").addEventListener("submit", rank);
}
