"""The page in a real browser: headless Chromium (Debian's) driven by Playwright.

CI installs both and requires this test (``PICKOMINO_BROWSER_TEST=required``); elsewhere it
is skipped where either is missing. The pure engine's run skips it: the page is the same page
whichever engine answers it, and that run tests the engine.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import attrs
import pytest

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from playwright.sync_api import Browser, Page, Route

    from pickomino_rules.rules import Rules
    from pickomino_rules.state import GameState

REQUIRED = os.environ.get("PICKOMINO_BROWSER_TEST") == "required"
if os.environ.get("PICKOMINO_PURE", "") not in {"", "0"}:
    pytest.skip("the page's test runs once, on the compiled engine", allow_module_level=True)
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
if not REQUIRED:
    pytest.importorskip("playwright", reason="the browser test needs playwright")
    if not Path(CHROMIUM).exists():
        pytest.skip("the browser test needs chromium", allow_module_level=True)

from playwright.sync_api import expect, sync_playwright  # noqa: E402 (after the skip)

from pickomino_rules.actions import Steal, Stop  # noqa: E402
from pickomino_rules.bots import get_bot  # noqa: E402
from pickomino_rules.game import apply, legal_actions, parse_move  # noqa: E402
from pickomino_rules.records import GameRecord, load_record, save_record  # noqa: E402
from pickomino_rules.result import scores  # noqa: E402
from pickomino_rules.state import Phase  # noqa: E402
from pickomino_rules.story import turns  # noqa: E402

T = TypeVar("T")

# The flags a sandboxed machine needs: no GPU, no calls home (refused here, many at a time).
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
EXTENDED_WAITING_FOR_DICE = (
    "extended 11,13,22,24,26-36 21,23,25 -/- 1r 8,0 - - grilled_worms=[5,[1,1],null,[]] "
    'weasel=[false] specialists=[[["can",11],["hen",21],["crow",23],["weasel",25],'
    '["golden_die",27],["apple",29]],[[11,null],[22,null],[24,null],[26,null],[27,null],'
    "[29,null]],null]"
)


# The contrast of each visible text of the page with the first opaque background under it
# (WCAG's formula); disabled controls are exempt, as WCAG has it, but ours pass anyway.
CONTRASTS = """() => {
  const rgb = (text) => text.match(/[\\d.]+/g).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map((v) => v / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4))
    .reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i], 0);
  const found = [];
  for (const el of document.querySelectorAll("body *:not(svg *)")) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || !el.checkVisibility()) continue;
    let under = el;
    const clear = (node) => rgb(getComputedStyle(node).backgroundColor)[3] === 0;
    while (under && clear(under)) under = under.parentElement;
    const back = under ? rgb(getComputedStyle(under).backgroundColor) : [255, 255, 255];
    const [a, b] = [lum(rgb(getComputedStyle(el).color)), lum(back)].sort((x, y) => y - x);
    const what = el.tagName + "#" + el.id + " " + el.textContent.trim().slice(0, 30);
    found.push([what, (a + 0.05) / (b + 0.05)]);
  }
  return found;
}"""


def hold(page: Page, url: str, times: int | None = None) -> list[Route]:
    """The requests to ``url`` (the first ``times`` of them) held: each waits in the list."""
    held: list[Route] = []
    page.route(url, lambda route: held.append(route), times=times)  # noqa: PLW0108 (playwright wants a function)
    return held


def wait_held(page: Page, held: list[Route]) -> None:
    """Until a request is held (the page's events are handled meanwhile)."""
    while not held:
        page.wait_for_timeout(50)


def assert_readable(page: Page) -> None:
    """Every text shown keeps a contrast of at least 4.5:1 (WCAG AA)."""
    contrasts = page.evaluate(CONTRASTS)
    assert contrasts  # the check saw the page
    low = [(text, round(ratio, 2)) for text, ratio in contrasts if ratio < 4.5]
    assert not low


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Browser, server: str) -> Iterator[Page]:
    opened = browser.new_page(viewport={"width": 360, "height": 780})
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    opened.goto(server + "/?delay=0")  # bots move at once (a person sees them move after a pause)
    expect(opened.locator("#variant option")).to_have_count(3, timeout=30_000)
    yield opened
    assert not errors  # no script error on the way
    opened.close()


def test_a_whole_game_against_a_bot_by_clicks_and_keys(page: Page) -> None:
    page.select_option("#seats select[name=seat-1]", "greedy")
    page.click("#setup button[type=submit]")
    moves = page.locator("#moves button")
    expect(moves.first).to_be_enabled(timeout=30_000)
    page.keyboard.press("h")  # the hint, by its key
    expect(page.locator("#hints tbody tr").first).to_be_visible(timeout=30_000)
    status = page.locator("#status")
    over = page.locator("#status", has_text="Game over")
    for _ in range(600):  # the person's decisions; the bot plays by itself meanwhile
        mine = page.locator("#moves button:enabled").first
        mine.or_(over).first.wait_for(timeout=60_000)
        if over.count():
            break
        mine.click()
    expect(status).to_contain_text("Game over")
    expect(page.locator("#scores tbody tr")).to_have_count(2)  # each player's worms by name
    expect(page.locator("#scores tbody th").first).to_contain_text("you")


def test_the_advisor_ranks_the_moves_of_an_extended_table_set_up_by_clicks(page: Page) -> None:
    page.click("#advise")
    page.select_option("#ed-variant", "extended")
    page.click("#ed-fresh")
    hen_tile = page.locator("#ed-tiles button[aria-label^='tile 21,']")
    expect(hen_tile).to_have_attribute("aria-label", "tile 21, 1 worm, on the grill")
    page.check("#ed-place input[value='1']")  # a tile clicked goes to player 1's stack
    hen_tile.click()
    expect(hen_tile).to_have_attribute("aria-label", "tile 21, 1 worm, in player 1's stack")
    specialists = page.locator("[id='field-part:specialists']")
    expect(specialists).to_have_attribute("aria-invalid", "true")  # the hen sat on 21
    expect(page.locator("[id='problem-part:specialists']")).to_contain_text("face-up grill tiles")
    expect(page.locator("#problem-tiles")).to_have_text("")
    specialists.get_by_role("radio", name="hen, on 21").click()  # the hen moves on, as the
    specialists.get_by_role("button", name="the hen on 22").click()  # rules have it
    # the library's verdict on her move is in (her inputs are redrawn unmarked before it)
    expect(page.locator("#advice-table")).to_have_attribute("aria-busy", "false")
    expect(specialists).not_to_have_attribute("aria-invalid", "true")
    tokens = page.locator("[id='field-part:grilled_worms']")
    tokens.get_by_label("supply").fill("6")  # player 0 holds a grilled worm
    tokens.get_by_role("group", name="held").get_by_label("player 0").fill("1")
    tokens.get_by_role("group", name="held").get_by_label("player 0").press("Tab")
    expect(page.locator("#line")).to_have_value(re.compile(r"grilled_worms=\[6,\[1,0\]"))
    expect(page.locator("#advice-table")).to_contain_text("grilled worm")
    for face in ("1", "1", "3", "4", "4", "5", "5", "worm"):  # the dice just rolled, by clicks
        page.click(f"#ed-roll button[aria-label='add a rolled {face}']")
    expect(page.locator("#dice")).to_have_value("1134455w")
    page.press("#dice", "Enter")  # from the dice field: the form is sent
    rows = page.locator("#advice tbody tr")
    expect(rows).to_have_count(5, timeout=30_000)  # take 1, 3, 4, 5 or w
    expect(page.locator("#advice-error")).to_have_text("")
    assert "%" in (rows.first.text_content() or "")  # the champion's chance: a model ships
    assert page.locator("#advice-table g[role=img][aria-label='rolled die showing a worm']").count()
    assert_readable(page)


def test_the_advisor_reads_a_line_and_says_which_dice_are_wrong(page: Page) -> None:
    page.click("#advise")
    page.click("#advisor summary")
    page.fill("#line", EXTENDED_WAITING_FOR_DICE)
    page.click("#ed-read")
    # the server's answer sets the table up: its first extended table may take seconds on a
    # loaded machine (CI's ran past the default 5 s once), so the wait is a server's
    expect(page.locator("#ed-variant")).to_have_value("extended", timeout=30_000)
    page.fill("#dice", "11x")
    page.click("#advisor button[type=submit]")
    expect(page.locator("#problem-dice")).to_contain_text("'x' is not a face", timeout=30_000)
    expect(page.locator("#advice-error")).to_contain_text("marked in red")
    page.fill("#dice", "1134455w")
    page.click("#advisor button[type=submit]")
    expect(page.locator("#advice tbody tr")).to_have_count(5, timeout=30_000)
    expect(page.locator("#problem-dice")).to_have_text("")


def test_a_line_typed_while_a_table_is_on_its_way_is_not_overwritten(page: Page) -> None:
    held = hold(page, "**/api/start")  # the fresh table's answer waits until a line has been typed
    page.click("#advise")
    page.click("#advisor summary")
    page.fill("#line", EXTENDED_WAITING_FOR_DICE)
    wait_held(page, held)
    held[0].continue_()
    expect(page.locator("#advice-table")).to_have_attribute("aria-busy", "false")
    expect(page.locator("#ed-variant")).to_have_value("classic")  # the fresh table is set up
    expect(page.locator("#line")).to_have_value(EXTENDED_WAITING_FOR_DICE)  # the typed line kept
    expect(page.locator("#line")).to_be_focused()  # and the focus, where the user left it
    page.click("#ed-read")
    expect(page.locator("#ed-variant")).to_have_value("extended", timeout=30_000)


def test_any_option_of_a_variant_is_set_and_a_bad_one_refused(page: Page) -> None:
    page.select_option("#variant", "extended")
    faces = page.locator("#options input[name=golden_die_faces]")
    expect(faces).to_have_value("111www")  # the default, as the option's example writes it
    for typed, said in (("[7]", "7 is not a die face in a list"), ("1x", "'x' is not a die face")):
        faces.fill(typed)
        page.click("#setup button[type=submit]")
        expect(page.locator("#error")).to_contain_text(said)  # the library's own sentence
        expect(page.locator("#error")).to_contain_text("golden_die_faces")
        expect(page.locator("#error")).not_to_contain_text("JSON")
        expect(page.locator("#game")).to_be_hidden()  # nothing started
    for typed in ("11wwww", "'111www'"):  # the option's text example, as typed or quoted
        faces.fill(typed)
        page.click("#setup button[type=submit]")
        expect(page.locator("#table svg")).to_be_visible(timeout=30_000)
        assert page.locator("#error").inner_text() == ""
        page.click("#new-game")
    page.fill("#options input[name=low_tile_worms]", "[2, 2]")
    page.fill("#options input[name=golden_die_faces]", "[1, 1, 1, 6, 6, 6]")
    page.click("#setup button[type=submit]")
    expect(page.locator("#table svg")).to_be_visible(timeout=30_000)
    expect(page.locator("#table g[aria-label='tile 11, 2 worms']")).to_have_count(1)


def tab_to(page: Page, selector: str) -> None:
    """Move the focus to ``selector`` with the Tab key alone, as a keyboard user does."""
    for _ in range(60):
        if page.evaluate("(s) => document.activeElement.matches(s)", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reaches {selector}")


def test_a_game_by_the_keyboard_alone_saved_and_finished_at_the_terminal(
    page: Page, tmp_path: Path
) -> None:
    tab_to(page, "#setup button[type=submit]")
    page.keyboard.press("Enter")
    moves = page.locator("#moves button:enabled")
    for _ in range(6):  # a few decisions by their keys (the bot plays in between)
        moves.first.wait_for(timeout=30_000)
        page.keyboard.press("1")
    moves.first.wait_for(timeout=30_000)
    tab_to(page, "#save")
    with page.expect_download() as download:
        page.keyboard.press("Enter")
    saved = tmp_path / "game.json"
    download.value.save_as(saved)
    record = load_record(saved)
    assert record.bots == (None, "greedy")
    assert len(record.moves) >= 6
    done = subprocess.run(  # noqa: S603 (our own interpreter and entry point)
        [sys.executable, "-m", "pickomino_rules", "play", "--resume", str(saved)],
        input="1\n" * 4000, capture_output=True, text=True, timeout=180, check=False,
        env=os.environ | {"NO_COLOR": "1"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert f"resumed after {len(record.moves)} moves" in done.stdout
    assert load_record(saved).final_state().grill == ()  # finished where the page left it


def test_a_bad_file_loaded_says_so_and_the_page_goes_on(page: Page, tmp_path: Path) -> None:
    notes, record = tmp_path / "notes.json", tmp_path / "game.json"
    notes.write_text("{")
    record.write_text('{"variant": 1}')
    page.set_input_files("#load", notes)
    expect(page.locator("#error")).to_contain_text("notes.json is not a JSON file")
    page.set_input_files("#load", record)
    expect(page.locator("#error")).to_contain_text("This file is not a Pickomino game record: ")
    page.click("#setup button[type=submit]")  # a new game still starts
    expect(page.locator("#moves button").first).to_be_visible(timeout=30_000)


def test_a_saved_game_is_loaded_analysed_and_stepped_through(page: Page, tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    save_record(GameRecord.play("classic", 2, seed=4).seated(bots=[None, "greedy"]), saved)
    page.set_input_files("#load", saved)
    expect(page.locator("#status")).to_contain_text("Game over", timeout=30_000)
    page.click("#analyse")
    expect(page.locator("#summary")).to_contain_text("decisions", timeout=60_000)
    expect(page.locator("#chart polyline")).to_have_count(2)
    decision = page.locator("#decision")
    expect(decision).to_contain_text("Decision 1 of")
    page.keyboard.press("ArrowRight")
    expect(decision).to_contain_text("Decision 2 of")
    expect(page.locator("#analysis-table svg")).to_be_visible()
    assert_readable(page)
    for part in ("main", "#analysis-table", "#chart"):  # nothing wider than a 360-pixel screen
        box = page.locator(part).bounding_box()
        assert box is not None
        assert box["x"] + box["width"] <= 360, part


def test_a_game_longer_than_a_window_is_analysed_whole_in_the_page(
    page: Page, tmp_path: Path
) -> None:
    from pickomino_rules.analysis import analyse_record  # noqa: PLC0415 (numpy)
    from pickomino_rules.web._api import MAX_ANALYSED_MOVES  # noqa: PLC0415

    whole = GameRecord.play("extended", 2, seed=40)  # greedy bots, 2,557 moves: 4 windows
    record = attrs.evolve(whole, moves=whole.moves[:2500])
    assert len(record.moves) > 2 * MAX_ANALYSED_MOVES
    load(page, tmp_path, record)
    page.click("#analyse")
    expect(page.locator("#analysis")).to_be_visible()
    expect(page.locator("#summary")).to_contain_text("Analysing the game")  # its progress
    expect(page.locator("#decision")).to_contain_text("Decision 1 of", timeout=60_000)
    page.keyboard.press("ArrowRight")  # usable while the rest is analysed
    expect(page.locator("#decision")).to_contain_text("Decision 2 of")
    valued = [d for d in analyse_record(record).decisions if d.valued]
    expect(page.locator("#summary")).to_contain_text(
        f"{len(valued)} decisions in {valued[-1].turn} turns", timeout=120_000
    )
    expect(page.locator("#step")).to_have_attribute("max", str(len(valued) - 1))
    page.locator("#step").fill(str(len(valued) - 1))
    expect(page.locator("#decision")).to_contain_text(
        f"Decision {len(valued)} of {len(valued)}, turn {valued[-1].turn}: "
    )
    ticks = [int(t) for t in page.locator("#chart text").all_text_contents() if t.isdigit()]
    assert ticks == sorted(ticks)
    assert ticks[-1] > 0.6 * valued[-1].turn  # the chart runs on past the first window (40%)


# --- the play screen: the bots' pace, the log, the moves in words, both objectives, names ---

# The page says when it has read a file (window.fileRead): what it does with it is then under way.
FILE_READ = """() => {
  const text = File.prototype.text;
  File.prototype.text = function () {
    return text.call(this).finally(() => { window.fileRead = true; });
  };
}"""


def load(page: Page, tmp_path: Path, record: GameRecord) -> None:
    """Load ``record`` as a person does, through the page's Load button.

    From the setup screen: the game screen shows again only once this file's game is in (were
    it shown already, the game before would pass for it while the file is still being read).
    """
    path = tmp_path / "loaded.json"
    save_record(record, path)
    page.click("#new-game")
    page.set_input_files("#load", path)
    expect(page.locator("#game")).to_be_visible(timeout=30_000)


def test_a_game_loaded_while_a_bot_moves_is_loaded_once_the_move_is_in(
    page: Page, tmp_path: Path
) -> None:
    page.evaluate(FILE_READ)
    held = hold(page, "**/api/bot", times=1)  # the bots' first move waits until the file is read
    page.select_option("#seats select[name=seat-0]", "greedy")  # an all-bot game
    page.click("#setup button[type=submit]")
    wait_held(page, held)
    path = tmp_path / "loaded.json"
    save_record(GameRecord.play("classic", 2, seed=4).seated(["Ann", "Bob"]), path)
    page.set_input_files("#load", path)
    page.wait_for_function("window.fileRead === true")
    held[0].continue_()
    expect(page.locator("#scores tbody th").first).to_contain_text("Ann", timeout=30_000)
    expect(page.locator("#status")).to_contain_text("Game over")


def test_bots_never_take_you_off_a_screen_and_are_paused_and_stepped(page: Page) -> None:
    page.select_option("#seats select[name=seat-0]", "greedy")  # an all-bot game
    page.click("#setup button[type=submit]")
    expect(page.locator("#table svg")).to_be_visible(timeout=30_000)
    page.wait_for_timeout(300)  # the bots play (at once: ?delay=0)
    for leave, screen in (
        ("#new-game", "#setup"),
        ("#advise", "#advisor"),
        ("#analyse", "#analysis"),
    ):
        page.click(leave)
        expect(page.locator(screen)).to_be_visible(timeout=30_000)
        page.wait_for_timeout(600)  # a bot's pace is 0 here: many moves would have come back
        expect(page.locator(screen)).to_be_visible()
        expect(page.locator("#game")).to_be_hidden()
        page.click("#to-game")  # back to the game, which goes on
        expect(page.locator("#game")).to_be_visible()
    page.keyboard.press("p")  # pause
    expect(page.locator("#pause")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#bot-step")).to_be_enabled(timeout=30_000)  # a move under way landed
    before = page.locator("#log").inner_text()
    page.wait_for_timeout(500)
    assert page.locator("#log").inner_text() == before  # nothing moves while paused
    page.click("#bot-step")  # one bot move, then the bots wait again
    # (the log's rendered text, as read above: expect's text is its textContent, which never
    # equals an innerText of several entries, so it would not wait for the move)
    page.wait_for_function(
        "before => document.querySelector('#log').innerText !== before", arg=before, timeout=30_000
    )
    expect(page.locator("#bot-step")).to_be_enabled(timeout=30_000)  # the move has landed
    stepped = page.locator("#log").inner_text()
    page.wait_for_timeout(500)
    assert page.locator("#log").inner_text() == stepped


def test_the_log_tells_every_turn_in_the_librarys_words_with_its_rules(
    page: Page, tmp_path: Path
) -> None:
    record = GameRecord.play("extended", 3, seed=5).seated(["you", "Ann", "Bob"])
    load(page, tmp_path, record)
    rules, start = record.initial()
    names = ["you", "Ann", "Bob"]
    told = [
        turn.describe(names=names.__getitem__, rules=rules)
        for turn in turns(rules, start, [parse_move(rules, m) for m in record.moves])
    ]
    entries = page.locator("#log li .text")
    expect(entries).to_have_count(len(told))
    assert entries.all_inner_texts() == told  # every turn, the story's own line
    scrolled = (
        "(l) => [l.scrollHeight > l.clientHeight, l.scrollHeight - l.scrollTop - l.clientHeight]"
    )
    longer, below = page.locator("#log").evaluate(scrolled)
    assert longer  # the log scrolls in its box
    assert below < 2  # and shows the newest turn
    rules_of = page.locator("#log li .rules")
    steals = page.locator("#log li.steal")
    busts = page.locator("#log li.bust")
    assert steals.count()
    assert busts.count()
    assert all("steals" in t or "robs" in t for t in steals.all_inner_texts())
    assert all("bust" in t and "C10" in t for t in busts.all_inner_texts())
    down = page.locator("#log li.face-down").first
    expect(down).to_contain_text("turned face down")
    texts = page.locator("#log li").all_inner_texts()
    for specialist, rule in (("hen", "E11"), ("apple", "E7"), ("weasel", "E10"), ("crow", "E12")):
        moved = [t for t in texts if f"the {specialist}" in t.split(" -> ")[1]]
        assert moved, specialist
        assert all(rule in t.rsplit("(", 1)[1] for t in moved), specialist
    assert rules_of.count()
    parts = page.locator("#parts")  # who holds each specialist now, with its rule
    expect(parts).to_contain_text("specialists")
    expect(parts).to_contain_text("(E7)")
    assert_readable(page)  # the log's busts and steals, the rules, the scores: all legible


def test_the_log_survives_undo(page: Page) -> None:
    page.click("#setup button[type=submit]")
    done = page.locator("#log li:not(.current)")
    current = page.locator("#log li.current")
    for _ in range(300):  # your moves until your turn, after turns told, has a decision in it
        page.locator("#moves button:enabled").first.wait_for(timeout=30_000)
        if done.count() >= 2 and " take " in (current.first.text_content() or ""):
            break
        page.keyboard.press("1")
    told = done.all_inner_texts()
    assert len(told) >= 2
    page.keyboard.press("u")  # take back your last decision
    page.locator("#moves button:enabled").first.wait_for(timeout=30_000)
    expect(current).to_have_count(1)
    assert done.all_inner_texts() == told  # the turns before stay told


def _first_state(
    records: list[GameRecord], wanted: Callable[[Rules, GameState], T | None]
) -> tuple[GameRecord, T]:
    """The first record cut at a decision where ``wanted(rules, state)`` finds something."""
    for record in records:
        rules = record.rules
        for index, state in enumerate(record.states()):
            found = wanted(rules, state) if state.phase is not Phase.ROLL else None
            if found is not None:
                return attrs.evolve(record, moves=record.moves[:index]), found
    raise AssertionError("no such state in these games")


def _bust_losing(rules: Rules, state: GameState) -> int | None:
    """The tile a stop here returns, if it busts with a tile to return (found by playing it)."""
    stop = next((a for a in legal_actions(rules, state) if isinstance(a, Stop)), None)
    if stop is None:
        return None
    mine = state.stacks[state.player]
    after = apply(rules, state, stop)
    return mine[-1] if len(after.stacks[state.player]) < len(mine) else None


def _stolen(rules: Rules, state: GameState) -> tuple[str, int, int] | None:
    """A steal legal here: its text, the tile it takes and from whom."""
    for action in legal_actions(rules, state):
        if isinstance(action, Steal):
            tile = apply(rules, state, action).stacks[state.player][-1]
            return str(action), tile, action.victim
    return None


def test_each_move_says_what_it_does(page: Page, tmp_path: Path) -> None:
    games = [GameRecord.play("classic", 2, seed=seed) for seed in range(30)]
    cut, tile = _first_state(games, _bust_losing)
    load(page, tmp_path, cut.seated(["you", "Bob"]))
    stop = page.locator("#moves button[data-move='stop']")
    expect(stop).to_contain_text(f"bust: returns {tile}")
    expect(stop).to_contain_text("C10")
    cut, (text, stolen, victim) = _first_state(games, _stolen)
    load(page, tmp_path, cut.seated(["you", "Bob"]))
    steal = page.locator(f"#moves button[data-move='{text}']")
    expect(steal).to_contain_text(f"steals {stolen} from {['you', 'Bob'][victim]}")


def test_a_hint_answered_after_a_move_is_dropped(page: Page) -> None:
    page.click("#setup button[type=submit]")
    moves = page.locator("#moves button:enabled")
    moves.first.wait_for(timeout=30_000)
    held = hold(page, "**/api/hint", times=1)  # the hint's answer waits until a move is made
    page.keyboard.press("h")
    wait_held(page, held)
    hints = page.locator("#hints")
    expect(hints).to_have_attribute("aria-busy", "true")
    moves.first.click()
    moves.first.wait_for(timeout=30_000)  # the move is in (and the bot's, if the turn ended)
    held[0].continue_()
    expect(hints).to_have_attribute("aria-busy", "false")
    expect(hints).to_be_hidden()  # the moves of a table gone are never shown
    expect(page.locator("#error")).to_have_text("")
    page.keyboard.press("h")  # the table's own hint
    expect(hints.locator("tbody tr").first).to_be_visible(timeout=30_000)


def test_the_hint_marks_the_best_move_for_the_turn_and_for_the_game(page: Page) -> None:
    page.click("#setup button[type=submit]")
    page.locator("#moves button:enabled").first.wait_for(timeout=30_000)
    page.keyboard.press("h")
    rows = page.locator("#hints tbody tr")
    expect(rows.first).to_be_visible(timeout=30_000)
    table = [row.split("\t") for row in rows.all_inner_texts()]
    worms = [float(row[1]) for row in table]
    wins = [float(row[2].rstrip("%")) for row in table]
    for row, worm, win in zip(table, worms, wins, strict=True):
        mark = row[3] if len(row) > 3 else ""
        assert ("best this turn" in mark) == (worm == max(worms))
        assert ("best for the game" in mark) == (win >= max(wins) - 0.05)


def test_the_analysis_counts_each_objectives_mistakes_against_its_own_best(
    page: Page, tmp_path: Path
) -> None:
    bots = [get_bot("champion"), get_bot("optimal")]  # each plays one objective perfectly
    record = GameRecord.play("classic", 2, bots=bots, seed=1).seated(["you", "Opt"])
    load(page, tmp_path, record)
    page.click("#analyse")
    rows = page.locator("#mistakes tbody tr")
    expect(rows).to_have_count(2, timeout=60_000)
    you, opt = (row.split("\t") for row in rows.all_inner_texts())
    assert you[0] == "you"
    assert you[4] == "0"  # the champion's moves: no mistake for the game
    assert int(you[2]) > 0  # though some cost worms this turn
    assert opt[2] == "0"  # the solver's moves: no mistake this turn
    assert opt[3] == "0.00"
    for _ in range(40):  # each mistake shown costs something by the objective it names
        page.keyboard.press("m")
        said = page.locator("#decision").inner_text()
        assert "cost 0.000" not in said
        assert "away 0.0 points" not in said


def test_you_are_you_everywhere(page: Page, tmp_path: Path) -> None:
    page.click("#setup button[type=submit]")  # seat 0: a person, "you" unless named
    page.locator("#moves button:enabled").first.wait_for(timeout=30_000)
    expect(page.locator("#status")).to_contain_text("Your turn")
    expect(page.locator("#scores tbody th").first).to_contain_text("you")
    expect(page.locator("#table svg")).to_contain_text("you")
    assert "player 0" not in page.locator("#game").inner_text()
    with page.expect_download() as download:
        page.click("#save")
    saved = tmp_path / "game.json"
    download.value.save_as(saved)
    assert load_record(saved).seat_names()[0] == "you"
    cli_game = GameRecord.play("classic", 2, seed=4).seated(["you", "greedy #1"], [None, "greedy"])
    load(page, tmp_path, cli_game)  # a game saved by pickomino play names you "you" too
    page.click("#analyse")
    expect(page.locator("#legend li").first).to_contain_text("you", timeout=60_000)
    expect(page.locator("#analysis-table svg")).to_contain_text("you")
    assert "player 0" not in page.locator("#analysis").inner_text()
    page.click("#new-game")
    page.fill("#seats input[name=name-0]", "Ann")
    page.click("#setup button[type=submit]")
    expect(page.locator("#status")).to_contain_text("Ann's turn", timeout=30_000)
    expect(page.locator("#table svg")).to_contain_text("Ann")


def test_the_chart_has_turns_on_its_axis_and_scores_read_by_name(
    page: Page, tmp_path: Path
) -> None:
    many = GameRecord.play("classic", 7, seed=2)
    load(page, tmp_path, many)
    rules, final = many.rules, many.final_state()
    rows = page.locator("#scores tbody tr")
    expect(rows).to_have_count(7)
    shown = [row.split("\t") for row in rows.all_inner_texts()]
    assert [int(row[-1]) for row in shown] == list(scores(rules, final))
    assert [row[0].split(" wins")[0] for row in shown] == many.seat_names()
    load(page, tmp_path, GameRecord.play("classic", 3, seed=2))
    page.click("#analyse")
    axis = page.locator("#chart text")
    expect(axis.filter(has_text=re.compile(r"^turn$"))).to_have_count(1, timeout=60_000)
    ticks = [int(t) for t in axis.all_text_contents() if t.isdigit()]
    assert len(ticks) >= 3
    assert ticks == sorted(ticks)
    assert ticks[0] == 1
    expect(page.locator("#legend li")).to_have_count(3)
