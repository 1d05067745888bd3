"""The card table's server under load (run by hand: python benchmarks/server_load.py [--seconds 60]; the
fairness load with ``--fair``, described at ``fair``).

The server issue's target: 40 clients playing whole deals for 60 s on the loopback, p99 under 500 ms,
no error, memory bounded; and normal requests answered at once while 50 slow clients hold connections
(half a request head each, never finished). The server runs as ``regelmotor serve`` does (the same
protocol with its head deadline, the same connection limit, every game kept in a store folder) in a
process of its own; the clients are threads here, each on one kept-alive connection, choosing the
first legal action (heuristic bots at the other seats). Reported: requests, their latency
percentiles, errors, the server's memory before and after, and the latency of plain requests made
while the slow clients are connected. Nothing here is a test: the figures depend on the machine and
are reported, not asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import multiprocessing
import shutil
import socket
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the tests' request helper
from tests.asgi_call import call


def _serve(port: int) -> None:
    import uvicorn

    from regelmotor.web.app import create_app
    from regelmotor.web.guard import LOCAL_HOSTS
    from regelmotor.web.server import MAX_CONNECTIONS, TimedH11Protocol

    app = create_app(LOCAL_HOSTS | {"127.0.0.1"}, store=Path(tempfile.mkdtemp(prefix="regelmotor-borde-")))
    uvicorn.run(
        app, host="127.0.0.1", port=port, log_level="error", http=TimedH11Protocol, limit_concurrency=MAX_CONNECTIONS
    )


def _rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return -1


class Client:
    def __init__(self, port: int) -> None:
        self.port = port
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.latencies: list[float] = []
        self.errors: list[str] = []

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any] | None:
        headers = {"Content-Type": "application/json", "Origin": f"http://127.0.0.1:{self.port}"}
        start = time.perf_counter()
        try:
            self.connection.request(method, path, body=json.dumps(body or {}), headers=headers)
            response = self.connection.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException) as exc:
            self.errors.append(f"{path}: {exc}")
            self.connection.close()
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            return None
        self.latencies.append(time.perf_counter() - start)
        if response.status != 200:
            self.errors.append(f"{path}: {response.status} {data[:100]!r}")
            return None
        result: dict[str, Any] = json.loads(data)
        return result

    def play(self, until: float, seed: int) -> int:
        """Whole deals until ``until``; the number of deals finished."""
        state = self.call("POST", "/api/games", {"seed": seed})
        deals = 0
        while state is not None and time.monotonic() < until:
            view = state["view"]
            if view["legal_actions"] and view["to_act"] == state["you"]:
                state = self.call("POST", f"/api/games/{state['id']}/actions", {"action": view["legal_actions"][0]})
            else:
                deals += 1
                state = self.call("POST", f"/api/games/{state['id']}/next")
        return deals


async def _asgi(app: Any, method: str, path: str, client: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
    """One request from the address ``client``, as the tests' ``asgi_call`` makes it; its status and JSON."""
    answer = await call(app, method, path, client, body)
    return answer["status"], answer["json"]


UPLOAD = "extends: standard\nname: klub\ntitle: Klubbens regler\ndescription: K\nsource: K\n"


def fair(crowd: int, uploads: int, limit_seconds: float) -> dict[str, Any]:
    """The server's fairness under load, in this process: the app driven as uvicorn drives it, each request
    from an address of its own (``scope["client"]``; no network is used, nothing leaves this machine).

    An evening's table of two people is opened and both seat links are used. Then at once: ``crowd``
    clients, each from a network of its own (half IPv4 /24s, half IPv6 /64s: more games than the server
    keeps), start a game each, 32 at a time; ``uploads`` ruleset files are uploaded at once from one address
    and as many again from as many networks (the checks are real: a process each); and the table's two
    people ask for their state every 50 ms. Reported: the latency of the table's requests (p50/p99/max), the
    uploads' answers by status, whether the table and its stored file are kept, the crowd's answers. It
    stops by itself after the load, or after ``limit_seconds``."""
    from regelmotor.web.app import create_app
    from regelmotor.web.store import GameStore
    from regelmotor.web.tables import IDLE_SECONDS, Games

    folder = Path(tempfile.mkdtemp(prefix="regelmotor-fair-"))
    games = Games(store=GameStore(folder, IDLE_SECONDS))
    app = create_app(games=games)

    async def run() -> dict[str, Any]:
        status, table = await _asgi(
            app, "POST", "/api/games", "192.0.2.10", {"seed": 1, "people": ["Anna", "Bo", None, None]}
        )
        assert status == 200, table
        links = [seat["link"] for seat in table["seats"] if seat["link"]]
        key = links[0][:16]
        latencies: list[float] = []
        table_errors: list[str] = []
        done = asyncio.Event()

        async def follow(link: str, address: str) -> None:
            while not done.is_set():
                start = time.perf_counter()
                answer, body = await _asgi(app, "GET", f"/api/games/{link}", address)
                latencies.append(time.perf_counter() - start)
                if answer != 200:
                    table_errors.append(f"{answer} {body}")
                await asyncio.sleep(0.05)

        followers = [
            asyncio.create_task(follow(link, address))
            for link, address in zip(links, ["192.0.2.10", "198.51.100.20"], strict=True)
        ]
        await asyncio.sleep(0.5)
        gate = asyncio.Semaphore(32)
        crowd_status: dict[int, int] = {}
        upload_status: dict[str, dict[int, int]] = {"one address": {}, "many networks": {}}
        upload_seconds: list[float] = []

        def address(n: int) -> str:
            return f"10.{n // 256}.{n % 256}.7" if n % 2 else f"2001:db8:{n:x}::{n:x}"

        async def start_game(n: int) -> None:
            async with gate:
                answer, _ = await _asgi(app, "POST", "/api/games", address(n), {"seed": n})
            crowd_status[answer] = crowd_status.get(answer, 0) + 1

        async def upload(kind: str, client: str) -> None:
            start = time.perf_counter()
            answer, _ = await _asgi(
                app, "POST", "/api/games", client, {"ruleset_file": UPLOAD, "filename": "klub.yaml"}
            )
            upload_seconds.append(time.perf_counter() - start)
            counts = upload_status[kind]
            counts[answer] = counts.get(answer, 0) + 1

        load: list[Coroutine[Any, Any, None]] = [start_game(n) for n in range(crowd)]
        load += [upload("one address", "203.0.113.9") for _ in range(uploads)]
        load += [upload("many networks", f"172.16.{n}.9") for n in range(uploads)]
        started = time.perf_counter()
        try:
            await asyncio.wait_for(asyncio.gather(*load), limit_seconds)
            stopped = "the load ended"
        except TimeoutError:
            stopped = f"stopped after {limit_seconds:g} s"
        seconds = time.perf_counter() - started
        await asyncio.sleep(0.5)
        done.set()
        await asyncio.gather(*followers)
        ordered = sorted(latencies)

        def pct(p: float) -> float:
            return round(1000 * ordered[min(len(ordered) - 1, int(p * len(ordered)))], 1)

        kept = key in games.games and (folder / f"{key}.json").is_file()
        return {
            "load": f"{crowd} games from as many networks, {uploads} uploads from one address, {uploads} from networks",
            "load seconds": round(seconds, 1),
            "load end": stopped,
            "table's requests": len(ordered),
            "table's latency ms p50/p99/max": [pct(0.5), pct(0.99), pct(1.0)],
            "table's errors": table_errors[:3],
            "tables with a used link lost": 0 if kept else 1,
            "crowd's answers by status": crowd_status,
            "uploads' answers by status": upload_status,
            "slowest upload answer s": round(max(upload_seconds, default=0.0), 1),
            "games kept": len(games.games),
        }

    try:
        return asyncio.run(run())
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--clients", type=int, default=40)
    parser.add_argument("--slow", type=int, default=50)
    parser.add_argument("--fair", action="store_true", help="the fairness load (in this process) instead")
    parser.add_argument("--crowd", type=int, default=600, help="with --fair: games started, each from its own network")
    parser.add_argument(
        "--uploads",
        type=int,
        default=45,
        help="with --fair: uploads from one address (and as many from as many networks)",
    )
    args = parser.parse_args()
    if args.fair:
        print(json.dumps(fair(args.crowd, args.uploads, max(args.seconds, 120)), indent=1))
        return
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = multiprocessing.get_context("spawn").Process(target=_serve, args=(port,), daemon=True)
    server.start()
    for _ in range(300):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.1)
    assert server.pid is not None
    Client(port).call("GET", "/api/rulesets")
    memory_before = _rss_kb(server.pid)

    slow = []
    for _ in range(args.slow):
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        slow.append(s)
    probe_client = Client(port)
    for _ in range(20):
        probe_client.call("GET", "/api/rulesets")
    for s in slow:
        s.close()

    until = time.monotonic() + args.seconds
    clients = [Client(port) for _ in range(args.clients)]
    deals = [0] * len(clients)

    def run(index: int) -> None:
        deals[index] = clients[index].play(until, index)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(clients))]
    start = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - start
    memory_after = _rss_kb(server.pid)
    server.kill()
    latencies = sorted(x for c in clients for x in c.latencies)
    errors = [e for c in clients for e in c.errors]

    def pct(values: list[float], p: float) -> float:
        return 1000 * values[min(len(values) - 1, int(p * len(values)))] if values else float("nan")

    slow_latencies = sorted(probe_client.latencies)
    report = {
        "clients": args.clients,
        "seconds": round(elapsed, 1),
        "requests": len(latencies),
        "requests per second": round(len(latencies) / elapsed, 1),
        "deals finished": sum(deals),
        "latency ms p50/p90/p99/max": [round(pct(latencies, p), 1) for p in (0.5, 0.9, 0.99, 1.0)],
        "errors": len(errors),
        "first errors": errors[:5],
        "server memory MB before/after": [round(memory_before / 1024, 1), round(memory_after / 1024, 1)],
        f"plain requests beside {args.slow} slow clients, ms median/max": [
            round(1000 * statistics.median(slow_latencies), 1) if slow_latencies else None,
            round(pct(slow_latencies, 1.0), 1),
        ],
        "slow-client errors": probe_client.errors[:3],
    }
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
