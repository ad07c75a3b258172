"""How fast the web app answers under many clients at once, on loopback.

Starts ``pickomino serve`` in a process of its own and lets ``--clients`` clients (threads,
each with its own connection) play games against bots through the JSON API for ``--seconds``:
each asks for a hint at each of its decisions, then lets the bot of the seat to move play.
Prints the median, 99th percentile and slowest answer of each kind of request.

Run: ``python benchmarks/bench_web.py [--clients 20] [--seconds 60] [--variant classic]``.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import threading
import time
from collections import defaultdict
from typing import Any

import httpx2


def _client(base: str, variant: str, until: float, times: dict[str, list[float]]) -> None:
    def ask(http: httpx2.Client, path: str, body: dict[str, Any]) -> dict[str, Any]:
        began = time.perf_counter()
        answer = http.post(path, json=body)
        times[path].append(time.perf_counter() - began)
        answer.raise_for_status()
        result: dict[str, Any] = answer.json()
        return result

    with httpx2.Client(base_url=base, timeout=120) as http:
        while time.perf_counter() < until:
            game = ask(
                http,
                "/api/new",
                {"variant": variant, "players": 2, "seats": ["greedy", "champion"]},
            )
            while not game["view"]["over"] and time.perf_counter() < until:
                ask(http, "/api/hint", {"position": game["view"]["position"]})
                game = ask(http, "/api/bot", {"record": game["record"]})


def main() -> None:
    """Serve, load, report."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--variant", default="classic")
    args = parser.parse_args()
    server = subprocess.Popen(
        [sys.executable, "-m", "pickomino_rules", "serve", "--no-browser"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None  # noqa: S101 (piped above)
        base = server.stdout.readline().split()[3].rstrip("/")
        times: dict[str, list[float]] = defaultdict(list)
        until = time.perf_counter() + args.seconds
        clients = [
            threading.Thread(target=_client, args=(base, args.variant, until, times))
            for _ in range(args.clients)
        ]
        for client in clients:
            client.start()
        for client in clients:
            client.join()
    finally:
        server.terminate()
        server.wait(30)
    print(f"{args.clients} clients, {args.seconds:g} s, {args.variant}, one server process")
    print("| request | answers | median ms | 99% ms | slowest ms |")
    print("|---|---:|---:|---:|---:|")
    for path, seen in sorted(times.items()):
        cut = statistics.quantiles(seen, n=100) if len(seen) > 1 else seen * 99
        print(
            f"| `{path}` | {len(seen):,} | {statistics.median(seen) * 1e3:.0f} "
            f"| {cut[98] * 1e3:.0f} | {max(seen) * 1e3:.0f} |"
        )


if __name__ == "__main__":
    main()
