#!/usr/bin/env python3
"""A distributed flood of failed sign-ins against `pushline serve`, with legitimate first sign-ins during it.

Attackers: one thread per loopback address (127.0.1.1, 127.0.1.2, …; Linux routes all of 127/8 to lo), each sending
HTTP Basic sign-ins with a new user name and a wrong password, as fast as the server answers, for the flood's length.
Each stays under the per-address and per-name limits' intent: no name is tried twice.

Legitimate users: each signs in once, for the first time (nothing remembered), from an address of its own
(127.0.2.N), at evenly spaced moments of the flood. A sign-in counts as served when it is answered with anything but
401, 429 or 503 within the deadline. `/healthz` is asked every 0.25 s from 127.0.3.1 and its latency kept.

Prints one JSON object: the legitimate sign-ins, how many were served within the deadline and the share, their
latencies, the attackers' requests by status, and /healthz latencies. Standard library only.

    signin_flood.py --base http://127.0.0.1:8088/ --users users.txt [--attackers 40] [--seconds 30] [--deadline 2]
        [--request-timeout 10]

users.txt holds `name:password` lines of users the server knows.
"""
import argparse
import base64
import http.client
import json
import threading
import time
import urllib.parse

ROUTE = "/v1/runs/flood-probe"  # needs a signed-in caller (users get 403: signed in, not an admin); never the hub


def basic(name, password):
    return "Basic " + base64.b64encode(f"{name}:{password}".encode()).decode()


def ask(host, port, source, headers, timeout, path=ROUTE):
    """One GET on a new connection from `source`: (status or None, seconds)."""
    started = time.monotonic()
    try:
        connection = http.client.HTTPConnection(host, port, timeout=timeout, source_address=(source, 0))
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        response.read()
        connection.close()
        return response.status, time.monotonic() - started
    except OSError:
        return None, time.monotonic() - started


def percentile(values, fraction):
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", required=True)
    parser.add_argument("--users", required=True)
    parser.add_argument("--attackers", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--deadline", type=float, default=2.0)
    # How long a flooding or /healthz request may wait for its answer before it counts as failed.
    parser.add_argument("--request-timeout", type=float, default=10.0)
    args = parser.parse_args()
    url = urllib.parse.urlparse(args.base)
    host, port = url.hostname, url.port
    users = [line.strip().split(":", 1) for line in open(args.users) if ":" in line]

    stop = threading.Event()
    lock = threading.Lock()
    attacker_statuses = {}
    legit = []
    healthz = []

    def attacker(index):
        source = f"127.0.1.{index + 1}"
        count = 0
        while not stop.is_set():
            count += 1
            status, _ = ask(host, port, source, {"Authorization": basic(f"flood-{index}-{count}", "wrong-password")}, args.request_timeout)
            with lock:
                attacker_statuses[str(status)] = attacker_statuses.get(str(status), 0) + 1
            if status in (429, 503):
                time.sleep(0.05)

    def user(index, name, password):
        status, seconds = ask(host, port, f"127.0.2.{index + 1}", {"Authorization": basic(name, password)}, 30)
        with lock:
            legit.append({"user": name, "status": status, "seconds": round(seconds, 3),
                          "served": status not in (None, 401, 429, 503) and seconds <= args.deadline})

    def health():
        while not stop.is_set():
            status, seconds = ask(host, port, "127.0.3.1", {}, args.request_timeout, path="/healthz")
            with lock:
                healthz.append(seconds if status == 200 else float("inf"))
            time.sleep(0.25)

    threads = [threading.Thread(target=attacker, args=(i,), daemon=True) for i in range(args.attackers)]
    threads.append(threading.Thread(target=health, daemon=True))
    for thread in threads:
        thread.start()
    # The flood builds up for a fifth of its length; then the users arrive, evenly spaced, until a tenth before the end.
    begin = time.monotonic()
    users_threads = []
    spread = args.seconds * 0.7
    for index, (name, password) in enumerate(users):
        at = begin + args.seconds * 0.2 + spread * index / max(1, len(users))
        time.sleep(max(0, at - time.monotonic()))
        thread = threading.Thread(target=user, args=(index, name, password), daemon=True)
        thread.start()
        users_threads.append(thread)
    time.sleep(max(0, begin + args.seconds - time.monotonic()))
    for thread in users_threads:
        thread.join()
    stop.set()
    for thread in threads:
        thread.join(timeout=args.request_timeout + 5)

    served = sum(1 for entry in legit if entry["served"])
    latencies = [entry["seconds"] for entry in legit]
    finite = [value for value in healthz if value != float("inf")]
    print(json.dumps({
        "attackers": args.attackers,
        "seconds": args.seconds,
        "deadline_s": args.deadline,
        "legit": len(legit),
        "legit_served": served,
        "legit_share": round(served / len(legit), 3) if legit else None,
        "legit_p50_s": percentile(latencies, 0.5),
        "legit_max_s": max(latencies) if latencies else None,
        "legit_statuses": sorted({str(entry["status"]) for entry in legit}),
        "attacker_requests": sum(attacker_statuses.values()),
        "attacker_statuses": attacker_statuses,
        "healthz_requests": len(healthz),
        "healthz_failed": len(healthz) - len(finite),
        "healthz_p50_ms": round(percentile(finite, 0.5) * 1000, 1) if finite else None,
        "healthz_max_ms": round(max(finite) * 1000, 1) if finite else None,
    }, indent=2))


if __name__ == "__main__":
    main()
