"""The web page's screenshots in the docs (docs/images/web-*.png), taken in a real browser.

Serves the app in a thread, drives Debian's Chromium through Playwright (the test extra),
and writes each picture at a desktop width and at 360 pixels::

    python benchmarks/web_screenshots.py            # writes docs/images/web-*.png
    python benchmarks/web_screenshots.py --out /tmp  # somewhere else, to look first
    python benchmarks/web_screenshots.py --only web-advisor  # the advisor's pictures only

The games are seeded by their records (a saved game for the analysis); the dice of a game
played in the page are the server's, so the play screenshots differ from run to run.
"""

from __future__ import annotations

import argparse
import shutil
import socket
import tempfile
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

import uvicorn
from playwright.sync_api import Locator, Page, expect, sync_playwright

from pickomino_rules.records import GameRecord, save_record
from pickomino_rules.web import create_app

if TYPE_CHECKING:
    from collections.abc import Callable

IMAGES = Path(__file__).resolve().parents[1] / "docs" / "images"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"]
WIDE, NARROW = 1280, 360  # a laptop's width, a phone's
DESKTOP = WIDE  # the advisor's wide pictures (below it, the advisor lays out as on a phone)


def serve() -> str:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(create_app(), log_level="warning"))
    threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True).start()
    while not server.started:
        time.sleep(0.01)
    return f"http://127.0.0.1:{sock.getsockname()[1]}"


def opened(page: Page, address: str) -> None:
    page.goto(address + "/?delay=0")
    expect(page.locator("#variant option")).to_have_count(3, timeout=30_000)


def play(page: Page, address: str) -> None:
    """A 3-player extended game, played on until a stop or a steal is offered, the hint open."""
    opened(page, address)
    page.select_option("#variant", "extended")
    page.fill("#players", "3")
    page.dispatch_event("#players", "change")
    page.select_option("#seats select[name=seat-1]", "champion")
    page.select_option("#seats select[name=seat-2]", "greedy")
    page.click("#setup button[type=submit]")
    offered = page.locator(
        "#moves button:enabled[data-move^=stop], #moves button:enabled[data-move^=steal]"
    )
    for _ in range(300):  # the first move each time, until the choice is worth showing
        mine = page.locator("#moves button:enabled").first
        mine.wait_for(timeout=60_000)
        if offered.count():
            break
        button = mine.element_handle()
        button.click()
        page.wait_for_function("(button) => !button.isConnected", arg=button)  # drawn anew
    page.keyboard.press("h")
    expect(page.locator("#hints tbody tr").first).to_be_visible(timeout=30_000)


def advisor(page: Page, address: str, *, wrong: bool) -> Locator | None:
    """An extended table set up by clicks: ranked, or with the specialists' problem shown."""
    opened(page, address)
    page.click("#advise")
    page.select_option("#ed-variant", "extended")
    page.click("#ed-fresh")
    page.check("#ed-place input[value='1']")
    page.click("#ed-tiles button[aria-label^='tile 21,']")
    page.click("#ed-tiles button[aria-label^='tile 23,']")
    specialists = page.locator("[id='field-part:specialists']")
    expect(specialists).to_have_attribute("aria-invalid", "true")
    if not wrong:
        for name, tile in (("crow", 24), ("hen", 22)):  # choose one, then where it is
            specialists.get_by_role("radio", name=f"{name}, on").click()
            specialists.get_by_role("button", name=f"the {name} on {tile}").click()
        expect(specialists).not_to_have_attribute("aria-invalid", "true")
        for face in ("1", "1", "3", "4", "4", "5", "5", "worm"):
            page.click(f"#ed-roll button[aria-label='add a rolled {face}']")
        page.press("#dice", "Enter")
        expect(page.locator("#advice tbody tr").first).to_be_visible(timeout=30_000)
        if page.viewport_size and page.viewport_size["width"] < DESKTOP:  # a phone: she is tapped
            page.locator("#advice-table svg .marker[data-topic=hen]").click()
            expect(page.locator("#explain")).to_be_visible()
            page.locator("#advice-table").evaluate("(table) => table.scrollIntoView()")
        else:
            page.locator("#advice").scroll_into_view_if_needed()
        return None
    return specialists  # the problem, at the field at fault


def advisor_parts(page: Page, address: str) -> Locator:
    """The advisor's parts of an extended table: the hen chosen, her rule, where she can go."""
    opened(page, address)
    page.click("#advise")
    page.select_option("#ed-variant", "extended")
    page.click("#ed-fresh")
    specialists = page.locator("[id='field-part:specialists']")
    specialists.get_by_role("radio", name="hen, on 21").click()
    return page.locator("#ed-parts")


def analysis(page: Page, address: str, saved: Path) -> None:
    """A saved extended game, analysed, at its first mistake."""
    opened(page, address)
    page.set_input_files("#load", saved)
    expect(page.locator("#status")).to_contain_text("Game over", timeout=30_000)
    page.click("#analyse")
    expect(page.locator("#summary")).to_contain_text("decisions", timeout=120_000)
    page.keyboard.press("m")
    expect(page.locator("#analysis-table svg")).to_be_visible()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--out", type=Path, default=IMAGES, help="where the pictures go")
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    parser.add_argument("--only", default="", help="only the pictures named so (web-advisor)")
    args = parser.parse_args()
    address = serve()
    with tempfile.TemporaryDirectory() as folder:
        saved = Path(folder) / "game.json"
        record = GameRecord.play("extended", 2, seed=2).seated(
            ["you", "greedy #1"], [None, "greedy"]
        )
        save_record(record, saved)
        shots: dict[str, tuple[Callable[[Page], Locator | None], tuple[int, ...]]] = {
            # each picture the docs show, at the widths they show it
            "web-play": (lambda page: play(page, address), (WIDE, NARROW)),
            "web-advisor": (lambda page: advisor(page, address, wrong=False), (DESKTOP, NARROW)),
            "web-advisor-parts": (lambda page: advisor_parts(page, address), (NARROW,)),
            "web-advisor-problem": (lambda page: advisor(page, address, wrong=True), (NARROW,)),
            "web-analysis": (lambda page: analysis(page, address, saved), (WIDE, NARROW)),
        }
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=args.chromium, args=FLAGS)
            for name, (take, widths) in shots.items():
                if not name.startswith(args.only):
                    continue
                for width in widths:
                    suffix = "-narrow" if width == NARROW else ""
                    page = browser.new_page(viewport={"width": width, "height": 800})
                    part = take(page)
                    path = args.out / f"{name}{suffix}.png"
                    if part is not None:
                        part.screenshot(path=path)
                    else:  # the analysis, wide: the chart and the table at the decision both
                        whole = name == "web-analysis" and width == WIDE
                        page.screenshot(path=path, full_page=whole)
                    page.close()
                    print(f"{name}{suffix}.png")
            browser.close()


if __name__ == "__main__":
    main()
