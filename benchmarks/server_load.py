"""The card table's server under load (run by hand: python benchmarks/server_load.py [--seconds 60]; the
fairness load with ``--fair``, described at ``fair``; the club's questions beside the table and the sheet with
``--questions``, described at ``questions``).

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
import contextlib
import http.client
import json
import multiprocessing
import os
import shutil
import signal
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


def _started(*args: str, daemon: bool) -> tuple[Any, int]:
    """``_serve`` on a free port in a process of its own (``args``: the club file and the sheet), once it takes
    connections (at most 30 s)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = multiprocessing.get_context("spawn").Process(target=_serve, args=(port, *args), daemon=daemon)
    server.start()
    for _ in range(300):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.1)
    return server, port


def _serve(port: int, club: str | None = None, sheet: str | None = None) -> None:
    import uvicorn

    if club is not None:
        os.setpgrp()  # the server and the processes it starts (checks, questions) go together at the end

    from regelmotor.web.app import create_app
    from regelmotor.web.guard import LOCAL_HOSTS
    from regelmotor.web.server import MAX_CONNECTIONS, TimedH11Protocol

    app = create_app(
        LOCAL_HOSTS | {"127.0.0.1"},
        store=Path(tempfile.mkdtemp(prefix="regelmotor-borde-")),
        club=None if club is None else (club, []),
        club_admin=None if club is None else "benchmark-admin-secret",
        sheet=None if sheet is None else Path(sheet),
    )
    uvicorn.run(
        app, host="127.0.0.1", port=port, log_level="error", http=TimedH11Protocol, limit_concurrency=MAX_CONNECTIONS
    )


def _rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return -1


class Client:
    def __init__(self, port: int, source: str = "127.0.0.1") -> None:
        self.port, self.source = port, source
        self.connection = self._connect()
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.refused: dict[int, int] = {}
        """Answers other than 200 a caller expects (a question's 429), by status: not errors."""

    def _connect(self) -> http.client.HTTPConnection:
        """A connection from ``source``: another loopback network (``127.0.N.1``) is another client to the server."""
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=30, source_address=(self.source, 0))

    def call(
        self, method: str, path: str, body: dict[str, Any] | None = None, expected: tuple[int, ...] = ()
    ) -> dict[str, Any] | None:
        headers = {"Content-Type": "application/json", "Origin": f"http://127.0.0.1:{self.port}"}
        start = time.perf_counter()
        try:
            self.connection.request(method, path, body=json.dumps(body or {}), headers=headers)
            response = self.connection.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException) as exc:
            self.errors.append(f"{path}: {exc}")
            self.connection.close()
            self.connection = self._connect()
            return None
        self.latencies.append(time.perf_counter() - start)
        if response.status in expected:
            self.refused[response.status] = self.refused.get(response.status, 0) + 1
            return None
        if response.status != 200:
            self.errors.append(f"{path}: {response.status} {data[:100]!r}")
            return None
        result: dict[str, Any] = json.loads(data)
        return result

    def play(self, until: float, seed: int, pause: float = 0.0) -> int:
        """Whole deals until ``until``, ``pause`` seconds between requests (a person's); the deals finished."""
        state = self.call("POST", "/api/games", {"seed": seed})
        deals = 0
        while state is not None and time.monotonic() < until:
            time.sleep(pause)
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


CLUB = (
    "kind: ruleset\nextends: standard\nname: vores-klub\ntitle: Vores klub\nauction:\n  gaa_med:\n    sol_bids: true\n"
)
"""The club's file the page asks about: standard with "gå med" in sol."""
DEAL = {"contract": "8", "declarer": "Anna", "partner": "Carl", "tricks": 9}
"""A deal entered at the sheet: Anna's 8 with Carl, nine tricks."""


def _pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return round(1000 * ordered[min(len(ordered) - 1, int(p * len(ordered)))], 1) if ordered else float("nan")


def _figures(latencies: list[float]) -> dict[str, Any]:
    return {
        "n": len(latencies),
        "ms p50/p99/max": [_pct(latencies, 0.5), _pct(latencies, 0.99), _pct(latencies, 1.0)],
    }


def _follow(client: Client, key: str) -> str:
    """The question's events followed, as its page follows them, until it ends; its last state."""
    connection = client._connect()
    connection.timeout = 600
    state = "?"
    try:
        connection.request("GET", f"/api/club/questions/{key}/events", headers={"Accept": "text/event-stream"})
        response = connection.getresponse()
        if response.status != 200:
            return f"events {response.status}"
        while True:
            line = response.readline()
            if not line:
                return state
            if line.startswith(b"data:"):
                state = str(json.loads(line[5:])["state"])
                if state in ("done", "failed", "cancelled"):
                    return state
    except (OSError, http.client.HTTPException) as exc:
        return f"events {type(exc).__name__}"
    finally:
        connection.close()


def questions(seconds: float, tables: int, pause: float, askers: int, deals: int) -> dict[str, Any]:
    """The club's page answering questions beside the table and the sheet, in one run (``--questions``).

    ``regelmotor serve klub.yaml --sheet aften.json`` as a process of its own. For ``seconds`` without questions,
    then ``seconds`` with them: ``tables`` people play whole deals against heuristic bots (``pause`` seconds
    between their requests), and a sheet page asks for the evening's sheet every 0.25 s, entering a deal every
    2 s (the sheet's requests). In the second part, ``askers`` pages from as many networks (``127.0.N.1``) each
    ask "Hvad ændrer det?" of the club's file against standard (``compare``, heuristic bots, ``deals`` deals a
    ruleset, a new seed each time, so no answer is kept from before), follow its progress to the end and ask
    again (a page told 429 tries again a second later): with five pages, the line of questions (one played at
    once, three waiting) stays full. Reported: the table's and the
    sheet's requests (n, p50/p99/max) without and with the questions, the questions answered and refused, and
    the server's CPU time and memory."""
    from regelmotor.cli import main as cli

    folder = Path(tempfile.mkdtemp(prefix="regelmotor-questions-"))
    club, sheet = folder / "klub.yaml", folder / "aften.json"
    club.write_text(CLUB, encoding="utf-8")
    assert cli(["session", "new", str(sheet), "standard", "--players", "Anna,Bo,Carl,Dorte", "--rate", "0.25"]) == 0
    # not a daemon: the server starts processes of its own (the checks, the questions), as ``serve`` does
    server, port = _started(str(club), str(sheet), daemon=False)
    assert server.pid is not None
    pid = server.pid
    warm = Client(port)
    for path in ("/api/rulesets", "/api/club", "/api/sheet"):
        warm.call("GET", path)
    assert not warm.errors, warm.errors

    def part(asking: bool) -> dict[str, Any]:
        until = time.monotonic() + seconds
        players = [Client(port) for _ in range(tables)]
        sheet_page = Client(port, "127.0.9.1")
        pages = [Client(port, f"127.0.{10 + n}.1") for n in range(askers if asking else 0)]
        ended: dict[str, int] = {}
        seeds = iter(range(1_000_000))
        lock = threading.Lock()

        def keep_sheet() -> None:
            n = 0
            while time.monotonic() < until:
                n += 1
                if n % 8 == 0:
                    sheet_page.call("POST", "/api/sheet", DEAL)
                else:
                    sheet_page.call("GET", "/api/sheet")
                time.sleep(0.25)

        def ask(page: Client) -> None:
            while time.monotonic() < until:
                with lock:
                    seed = 1000 * page.port + next(seeds)
                question = {"kind": "compare", "deals": deals, "bots": "heuristic", "seed": seed}
                page.connection.close()  # kept alive while the page followed its question, the server closed it
                page.connection = page._connect()
                asked = page.call(
                    "POST", "/api/club/questions", {"yaml": CLUB, "against": "standard", "question": question}, (429,)
                )
                if asked is None:
                    time.sleep(1.0)  # the line is full: the page tries again (its Retry-After is 5 s)
                    continue
                state = _follow(page, asked["id"]) if asked["state"] != "done" else "done"
                with lock:
                    ended[state] = ended.get(state, 0) + 1

        cpu_before, load_before = _cpu_seconds(pid), os.getloadavg()[0]
        threads = [threading.Thread(target=players[i].play, args=(until, i, pause)) for i in range(tables)]
        threads += [threading.Thread(target=keep_sheet)]
        threads += [threading.Thread(target=ask, args=(page,), daemon=True) for page in pages]
        started = time.monotonic()
        for thread in threads:
            thread.start()
        for thread in threads[: tables + 1]:
            thread.join()
        elapsed = time.monotonic() - started
        table = [x for c in players for x in c.latencies]
        errors = [e for c in [*players, sheet_page] for e in c.errors]
        told = {
            "seconds": round(elapsed, 1),
            "table's requests": _figures(table),
            "sheet's requests": _figures(sheet_page.latencies),
            "errors": len(errors),
            "first errors": errors[:3],
            "server CPU s (its own process)": round(_cpu_seconds(pid) - cpu_before, 1),
            "machine's load average (1 min) before/after": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        }
        if asking:
            questions = [x for page in pages for x in page.latencies]
            told["questions ended"] = dict(ended)
            told["questions told 429"] = sum(page.refused.get(429, 0) for page in pages)
            told["question requests (ask and refusal)"] = _figures(questions)
            told["question errors"] = [e for page in pages for e in page.errors][:3]
        return told

    try:
        without = part(asking=False)
        memory = _rss_kb(server.pid)
        with_questions = part(asking=True)
        return {
            "load": f"{tables} players (pause {pause:g} s), a sheet page; {askers} pages asking compare of "
            f"{deals} deals a ruleset",
            "without questions": without,
            "with questions": with_questions,
            "server memory MB before/after the questions": [
                round(memory / 1024, 1),
                round(_rss_kb(server.pid) / 1024, 1),
            ],
        }
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pid, signal.SIGKILL)
        server.join(10)
        shutil.rmtree(folder, ignore_errors=True)


def _cpu_seconds(pid: int) -> float:
    """The process's CPU time (user and system), from ``/proc``."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--clients", type=int, default=40)
    parser.add_argument("--slow", type=int, default=50)
    parser.add_argument("--fair", action="store_true", help="the fairness load (in this process) instead")
    parser.add_argument(
        "--questions", action="store_true", help="the table and the sheet without and with the club's questions"
    )
    parser.add_argument("--tables", type=int, default=8, help="with --questions: people playing")
    parser.add_argument(
        "--pause", type=float, default=0.2, help="with --questions: a player's seconds between requests"
    )
    parser.add_argument("--askers", type=int, default=5, help="with --questions: pages asking, each from its network")
    parser.add_argument("--deals", type=int, default=20, help="with --questions: deals a ruleset in each question")
    parser.add_argument("--crowd", type=int, default=600, help="with --fair: games started, each from its own network")
    parser.add_argument(
        "--uploads",
        type=int,
        default=45,
        help="with --fair: uploads from one address (and as many from as many networks)",
    )
    args = parser.parse_args()
    if args.questions:
        report = questions(args.seconds, args.tables, args.pause, args.askers, args.deals)
        print(json.dumps(report, indent=1, ensure_ascii=False))
        return
    if args.fair:
        print(json.dumps(fair(args.crowd, args.uploads, max(args.seconds, 120)), indent=1))
        return
    server, port = _started(daemon=True)
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
