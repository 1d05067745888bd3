"""The card table's server under load (run by hand: python benchmarks/server_load.py [--seconds 60]).

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
import http.client
import json
import multiprocessing
import socket
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--clients", type=int, default=40)
    parser.add_argument("--slow", type=int, default=50)
    args = parser.parse_args()
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
