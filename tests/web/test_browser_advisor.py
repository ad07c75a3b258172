"""The advisor, the specialists' explanations and the narrow screen, in a real browser.

Headless Chromium (Debian's) driven by Playwright, as ``test_browser.py`` does (its browser
fixture and checks are reused): a table is set up by clicks only, each specialist of a
picture tells its rule (the library's guide, never the page's own words), the dice in hand
follow the dice set aside, and no screen is wider than a 360-pixel phone.
"""

from __future__ import annotations

import importlib
import re
from typing import TYPE_CHECKING

import attrs
import pytest

# The page's own browser test: its skips (no Chromium, no Playwright) first, then its browser
# fixture and its contrast check, reused (imported by name: mypy reads that file once).
_PAGE_TEST = importlib.import_module("web.test_browser")
browser = _PAGE_TEST.browser
assert_readable: Callable[[Page], None] = _PAGE_TEST.assert_readable
hold: Callable[[Page, str, int | None], list[Route]] = _PAGE_TEST.hold
wait_held: Callable[[Page, list[Route]], None] = _PAGE_TEST.wait_held

from playwright.sync_api import expect  # noqa: E402 (after the skips)

from pickomino_rules import get_rules  # noqa: E402
from pickomino_rules.plugin import PartKey, RuleModule, Variant  # noqa: E402
from pickomino_rules.records import GameRecord, save_record  # noqa: E402
from pickomino_rules.registry import get_variant, register_variant, unregister_variant  # noqa: E402

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path

    from playwright.sync_api import Browser, Page, Route

    from pickomino_rules.plugin import GameState, Rules, StateFn

NARROW, WIDE = 360, 1280
GUIDES = {module.name: module.guide for module in get_rules("extended").modules if module.guide}
SPECIALISTS = ("can", "hen", "crow", "weasel", "golden_die", "apple")

# Whether the page is wider than its window (it would scroll sideways), and what sticks out.
OVERFLOW = """() => [
  document.documentElement.scrollWidth - window.innerWidth,
  [...document.querySelectorAll("body *")]
    .filter((e) => e.checkVisibility() && e.getBoundingClientRect().right > window.innerWidth + 0.5)
    .map((e) => e.tagName + "#" + e.id).slice(0, 5),
]"""


@pytest.fixture
def opened(browser: Browser, server: str) -> Iterator[Callable[[int], Page]]:
    """Opens the page at a width: ``opened(360)``; no script error on the way."""
    pages: list[tuple[Page, list[str]]] = []

    def open_at(width: int) -> Page:
        page = browser.new_page(viewport={"width": width, "height": 800})
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(server + "/?delay=0")
        expect(page.locator("#ed-variant option[value=extended]")).to_have_count(1, timeout=30_000)
        pages.append((page, errors))
        return page

    yield open_at
    for page, errors in pages:
        assert not errors
        page.close()


def advisor(page: Page, variant: str = "extended") -> None:
    page.click("#advise")
    page.select_option("#ed-variant", variant)
    page.click("#ed-fresh")
    # the newest table is in: the earlier requests' answers (the screen, the variant) came first
    expect(page.locator("#advice-table")).to_have_attribute("aria-busy", "false", timeout=30_000)
    expect(page.locator("#advice-table svg")).to_be_visible()


def assert_fits(page: Page, screen: str) -> None:
    """Nothing sticks out of the window: the page never scrolls sideways."""
    wider, out = page.evaluate(OVERFLOW)
    assert wider <= 0, f"{screen}: {wider} pixels too wide: {out}"


def assert_markers_visible(page: Page, picture: str) -> None:
    """Every marker of the picture (specialists, tokens) lies inside the window and its box."""
    frame = page.locator(picture).bounding_box()
    markers = page.locator(f"{picture} svg .marker")
    assert frame is not None
    assert markers.count()
    for index in range(markers.count()):
        box = markers.nth(index).bounding_box()
        assert box is not None
        assert box["x"] >= frame["x"] - 0.5
        assert box["x"] + box["width"] <= min(frame["x"] + frame["width"], NARROW) + 0.5


def test_each_specialist_of_the_table_tells_its_rule_when_tapped(
    opened: Callable[[int], Page],
) -> None:
    page = opened(NARROW)
    advisor(page)
    told = page.locator("#explain")
    for name in (*SPECIALISTS, "grilled_worms"):
        marker = page.locator(f"#advice-table svg .marker[data-topic={name}]")
        expect(marker.locator("title")).to_have_text(GUIDES[name])  # hovered: its title
        marker.click()  # tapped: the rule in the page, the library's words
        expect(told).to_be_visible()
        expect(told).to_contain_text(GUIDES[name])
    page.keyboard.press("Escape")
    expect(told).to_be_hidden()
    page.locator("#advice-table svg .marker[data-topic=hen]").focus()  # and by the keyboard
    page.keyboard.press("Enter")
    expect(told).to_contain_text(GUIDES["hen"])
    page.click("#advisor-title")  # a tap elsewhere closes it
    expect(told).to_be_hidden()
    # the same in a game, where specialists change hands
    page.click("#new-game")
    page.select_option("#variant", "extended")
    page.click("#setup button[type=submit]")
    expect(page.locator("#table svg")).to_be_visible(timeout=30_000)
    page.locator("#table svg .marker[data-topic=apple]").click()
    expect(told).to_contain_text(GUIDES["apple"])
    assert_readable(page)


def test_the_specialists_and_tokens_are_set_up_by_clicks_without_json(
    opened: Callable[[int], Page],
) -> None:
    page = opened(NARROW)
    advisor(page)
    page.check("#ed-place input[value='1']")  # a tile clicked goes to player 1's stack
    page.click("#ed-tiles button[aria-label^='tile 21,']")
    specialists = page.locator("[id='field-part:specialists']")
    expect(specialists).to_have_attribute("aria-invalid", "true")  # the hen sat on 21
    expect(page.locator("[id='problem-part:specialists']")).to_contain_text("face-up grill tiles")
    hen = specialists.get_by_role("radio", name="hen, on 21")
    hen.click()  # choose the hen, then where she is
    expect(hen).to_have_attribute("aria-checked", "true")
    expect(specialists.locator(".guide")).to_have_text(GUIDES["hen"])  # what she does
    specialists.get_by_role("button", name="the hen on 22").click()
    # the library's verdict on her move is in (her inputs are redrawn unmarked before it)
    expect(page.locator("#advice-table")).to_have_attribute("aria-busy", "false")
    expect(specialists).not_to_have_attribute("aria-invalid", "true")
    expect(specialists.get_by_role("radio", name="hen, on 22")).to_be_visible()
    specialists.get_by_role("radio", name="apple, on 29").click()
    specialists.get_by_role("button", name="the apple with player 0").click()
    expect(specialists.get_by_role("radio", name="apple, with player 0")).to_be_visible()
    picture = page.locator("#advice-table")
    expect(picture.locator("svg .marker[data-topic=apple]")).to_have_count(1)
    tokens = page.locator("[id='field-part:grilled_worms']")
    tokens.get_by_label("supply").fill("5")  # two tokens: player 1 holds them
    tokens.get_by_role("group", name="held").get_by_label("player 1").fill("2")
    tokens.get_by_role("group", name="held").get_by_label("player 1").press("Tab")
    expect(picture).to_contain_text("grilled worm \u00d72")
    expect(picture).to_contain_text("grilled worm \u00d75")
    expect(page.locator("#line")).to_have_value(re.compile(r"grilled_worms=\[5,\[0,2\]"))
    expect(page.locator("#line")).to_have_value(
        re.compile(r'\["hen",21\].*\[22,null\].*\[null,0\]')
    )
    expect(page.locator("#advisor .problem:visible")).to_have_count(0)
    # no field of the parts shows JSON or a position in a list
    fields = page.locator("#ed-parts input:not([type=number]):not([type=checkbox])")
    expect(fields).to_have_count(0)
    for label in page.locator("#ed-parts label, #ed-parts [aria-label]").all():
        text = (label.get_attribute("aria-label") or "") + (label.text_content() or "")
        assert not re.search(r"\b(specs|places)\b|\[|\{|\"", text), text
    assert_fits(page, "advisor")
    assert_readable(page)


def test_the_dice_in_hand_follow_the_dice_set_aside_and_errors_are_sentences(
    opened: Callable[[int], Page],
) -> None:
    page = opened(NARROW)
    advisor(page)
    in_hand = page.locator("#ed-in-hand input")
    expect(in_hand.first).to_have_value("8")
    set_aside = page.locator("#ed-set-aside")
    set_aside.get_by_label("4s").fill("2")
    set_aside.get_by_label("4s").press("Tab")
    expect(in_hand.first).to_have_value("6")
    set_aside.get_by_label("5s").fill("3")
    set_aside.get_by_label("5s").press("Tab")
    expect(in_hand.first).to_have_value("3")  # eight dice, five of them set aside
    page.select_option("#ed-phase", "choose")
    page.fill("#dice", "3444")  # one die too many
    page.press("#dice", "Tab")
    problem = page.locator("#problem-dice")
    expect(problem).to_contain_text("3444 is 4 white dice and no golden die")
    expect(problem).to_contain_text("the dice in hand are 3 white dice")
    assert not re.search(r"\(\d+,", problem.text_content() or "")  # never a Python tuple
    for face in ("clear", "add a rolled 3", "add a rolled 4", "add a rolled 4"):
        name = "clear the dice rolled" if face == "clear" else face
        page.click(f"#ed-roll button[aria-label='{name}']")
    # the answer about the dice as last clicked is in (an earlier click's may be blank too)
    expect(page.locator("#advice-table")).to_have_attribute("aria-busy", "false")
    expect(problem).to_have_text("")
    page.click("#advisor button[type=submit]")
    expect(page.locator("#advice tbody tr").first).to_be_visible(timeout=30_000)
    expect(page.locator("#advice-error")).to_have_text("")
    table = [row.split("\t") for row in page.locator("#advice tbody tr").all_inner_texts()]
    worms = [float(row[1]) for row in table]  # each objective's best marked, as in play
    wins = [float(row[2].rstrip("%")) for row in table]
    assert worms == sorted(worms, reverse=True)  # ordered by expected worms
    for row, worm, win in zip(table, worms, wins, strict=True):
        mark = row[3] if len(row) > 3 else ""
        assert ("best this turn" in mark) == (worm == max(worms))
        assert ("best for the game" in mark) == (win >= max(wins) - 0.05)
    assert any(len(row) > 3 and "best for the game" in row[3] for row in table)
    # the golden die's owner starts a turn with it: in hand follows who plays
    specialists = page.locator("[id='field-part:specialists']")
    specialists.get_by_role("radio", name="golden die, on 27").click()
    specialists.get_by_role("button", name="the golden die with player 1").click()
    page.select_option("#ed-phase", "roll")
    page.select_option("#ed-player", "1")
    expect(in_hand.nth(1)).to_have_value("1", timeout=30_000)
    expect(in_hand.first).to_have_value("3")


def test_an_older_hand_answered_last_does_not_undo_a_newer_one(
    opened: Callable[[int], Page],
) -> None:
    page = opened(WIDE)
    advisor(page)
    in_hand = page.locator("#ed-in-hand input")
    specialists = page.locator("[id='field-part:specialists']")
    specialists.get_by_role("radio", name="golden die, on 27").click()
    held = hold(page, "**/api/hand", 1)  # player 0's hand (the golden die is player 1's now)
    specialists.get_by_role("button", name="the golden die with player 1").click()
    wait_held(page, held)
    page.select_option("#ed-player", "1")  # player 1's hand, with the golden die
    expect(in_hand.nth(1)).to_have_value("1")
    held[0].continue_()  # the older answer lands last
    expect(page.locator("#advice-table")).to_have_attribute("aria-busy", "false")
    expect(in_hand.nth(1)).to_have_value("1")
    expect(in_hand.first).to_have_value("8")


def test_enter_in_players_sets_up_the_table_before_its_moves_are_ranked(
    opened: Callable[[int], Page],
) -> None:
    page = opened(WIDE)
    advisor(page, "classic")
    held = hold(page, "**/api/start", 1)  # the table of three waits until the form is sent
    page.fill("#ed-players", "3")
    page.press("#ed-players", "Enter")  # a change (a fresh table), then the form sent (rank)
    wait_held(page, held)
    held[0].continue_()
    expect(page.locator("#advice-table")).to_have_attribute("aria-busy", "false")
    expect(page.locator("#ed-stacks li")).to_have_count(3)  # the table of three is set up
    expect(page.locator("#ed-player")).to_be_enabled()  # and can be changed on
    expect(page.locator("#advice-error")).to_contain_text("dice are to be rolled")  # its ranking


def test_every_screen_fits_a_narrow_phone(opened: Callable[[int], Page], tmp_path: Path) -> None:
    page = opened(NARROW)
    assert_fits(page, "start")
    page.select_option("#variant", "extended")
    assert_fits(page, "start, extended")
    page.click("#setup button[type=submit]")
    expect(page.locator("#table svg")).to_be_visible(timeout=30_000)
    assert_fits(page, "game")
    assert_markers_visible(page, "#table")  # the tokens and specialists, all in sight
    grill = page.locator("#table svg g[aria-label^='tile 36']").bounding_box()
    assert grill is not None
    assert grill["x"] + grill["width"] <= NARROW  # the grill wraps: its last tile is in sight
    advisor(page)
    assert_fits(page, "advisor")
    assert_markers_visible(page, "#advice-table")
    saved = tmp_path / "game.json"
    save_record(GameRecord.play("classic", 2, seed=4).seated(bots=[None, "greedy"]), saved)
    page.set_input_files("#load", saved)
    expect(page.locator("#status")).to_contain_text("Game over", timeout=30_000)
    assert_fits(page, "game over")
    page.click("#analyse")
    expect(page.locator("#summary")).to_contain_text("decisions", timeout=120_000)
    expect(page.locator("#analysis-table svg")).to_be_visible()
    assert_fits(page, "analysis")


@attrs.frozen
class Lantern:
    """A part of a user's own variant, of no shape the page knows."""

    lit: bool
    fuel: int
    colour: str
    marks: tuple[int, ...]


LANTERN = PartKey("lantern", Lantern)


def _lantern(inner: StateFn, rules: Rules, state: GameState) -> GameState:
    return LANTERN.set(
        rules, inner(rules, state), Lantern(lit=False, fuel=3, colour="red", marks=(1, 2, 3))
    )


@pytest.fixture
def own_variant() -> Iterator[str]:
    from pickomino_rules.variants.classic import classic_modules  # noqa: PLC0415

    module = RuleModule(name="lantern", part=LANTERN, setup=_lantern, guide="A lantern to light.")
    register_variant(
        Variant(
            name="lantern",
            doc="Classic with a lantern.",
            options=get_variant("classic").options,
            build=lambda options: [*classic_modules(options), module],
        )
    )
    yield "lantern"
    unregister_variant("lantern")


def test_a_part_of_a_users_own_variant_gets_generic_inputs(
    own_variant: str, opened: Callable[[int], Page]
) -> None:
    page = opened(WIDE)
    advisor(page, own_variant)
    lantern = page.locator("[id='field-part:lantern']")
    expect(lantern.locator(".guide")).to_have_text("A lantern to light.")  # its module's guide
    lantern.get_by_label("lit", exact=True).check()
    lantern.get_by_label("fuel", exact=True).fill("5")
    lantern.get_by_label("colour", exact=True).fill("blue")
    lantern.get_by_label("marks 1", exact=True).fill("7")
    lantern.get_by_label("marks 1", exact=True).press("Tab")
    expect(page.locator("#line")).to_have_value(re.compile(r'lantern=\[true,5,"blue",\[1,7,3\]\]'))
    expect(page.locator("#advisor .problem:visible")).to_have_count(0)
