"""bench/journal.sh's fixtures and probes, with Python's standard library only (no httpx).

    journal.py users CONNECTION HUB N        PUT N installations, as hub.py users does (bench-user-I, userId user-I)
    journal.py rows PATH FIXED N BAD         write the for-each rows for those users to FIXED (as hub.py rows does)
                                             and a copy to PATH whose row BAD (1-based) has no userId
    journal.py watch PORT OUT                follow the emulator's deliveries (GET /_emulator/deliveries?since=ID)
                                             until SIGTERM, then write JSON to OUT: the total, how many users got
                                             one, which got more, and whether any were missed
    journal.py checkpoint JOURNAL            PRAGMA wal_checkpoint(TRUNCATE) on a SQLite journal; prints the
                                             -wal file's bytes before it and the main file's bytes after it
    journal.py report RESULTS.txt --quick 0|1 --rows N --out PATH --binary PATH
                                             print the table, write the results JSON
"""
import argparse
import datetime
import http.client
import json
import os
import signal
import sqlite3
import sys
import time
import types

# hub.py's fixtures are plain http.client; it imports httpx at the top for its other commands only. A stand-in
# module lets this script reuse them (the same installations and rows as bench/run.sh) without installing httpx.
sys.dont_write_bytecode = True   # no __pycache__ in bench/tools
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
try:
    import httpx  # noqa: F401
except ImportError:
    sys.modules["httpx"] = types.ModuleType("httpx")
import hub  # noqa: E402
import report as run_report  # noqa: E402  (machine() and commit(), as bench/run.sh's results record them)


def rows(path, fixed, n, bad):
    hub.rows(fixed, n)
    with open(fixed) as source, open(path, "w") as out:
        for number, line in enumerate(source):   # line 0 is the header
            if number == bad:
                line = line[line.index(","):]    # "user-I,..." -> ",...": no userId
            out.write(line)


def watch(port, out):
    """Pages through the deliveries as they come (ids run 1, 2, 3... with no gaps, and the emulator keeps the
    newest 100,000), counting them per installation. A gap in the ids means some were dropped before they
    were read, and the count is then marked incomplete."""
    stopping = False

    def stop(*_):
        nonlocal stopping
        stopping = True
    signal.signal(signal.SIGTERM, stop)
    counts = {}
    last, missed, polls = 0, 0, 0
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    while True:
        final = stopping
        connection.request("GET", f"/_emulator/deliveries?since={last}")
        response = connection.getresponse()
        body = response.read()
        if response.status != 200:
            raise SystemExit(f"watch: GET deliveries: {response.status} {body[:200]!r}")
        polls += 1
        for delivery in json.loads(body):
            missed += delivery["id"] - last - 1
            last = delivery["id"]
            who = delivery["installationId"] or delivery["registrationId"] or delivery["pushChannel"]
            counts[who] = counts.get(who, 0) + 1
        if final:
            break
        for _ in range(10):   # a second between polls, or less once asked to stop
            if stopping:
                break
            time.sleep(0.1)
    more = sorted((who for who, count in counts.items() if count > 1), key=lambda who: -counts[who])
    summary = {"total": sum(counts.values()), "last_id": last, "missed": missed, "users": len(counts),
               "users_more_than_once": len(more), "examples_more_than_once": {who: counts[who] for who in more[:10]},
               "polls": polls}
    with open(out, "w") as file:
        json.dump(summary, file)


def checkpoint(path):
    wal = os.path.getsize(path + "-wal") if os.path.exists(path + "-wal") else 0
    with sqlite3.connect(path) as db:
        busy, _, _ = db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    if busy:
        raise SystemExit(f"checkpoint: {path} is busy (another connection holds it)")
    print(wal, os.path.getsize(path))


def age(path, days):
    """Moves every run and item of the journal at PATH DAYS days into the past, as if they ran then: what a prune of
    a journal that has lived that long finds."""
    seconds = days * 86400
    with sqlite3.connect(path) as db:
        db.execute("UPDATE runs SET started_at = started_at - ?, ended_at = ended_at - ?, resumed_at = resumed_at - ?",
                   (seconds, seconds, seconds))
        db.execute("UPDATE items SET updated_at = updated_at - ?", (seconds,))
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def report(results, quick, n, out, binary):
    figures = {}
    with open(results) as lines:
        for line in lines:
            name, value = line.split()
            figures[name] = float(value)
    bytes_per_item = figures["first.journal_bytes"] / max(figures["first.count.accepted"], 1)
    cpu_per_row = (figures["rerun.cpu_user_s"] + figures["rerun.cpu_system_s"]) / max(n - 1, 1) * 1e6
    growth = (figures["rerun.journal_bytes"] - figures["first.journal_bytes"]) / figures["first.journal_bytes"] * 100
    accepted = max(figures["first.count.accepted"], 1)
    figures.update({"first.journal_bytes_per_accepted": round(bytes_per_item, 1),
                    "first.cpu_us_per_accepted": round((figures["first.cpu_user_s"] + figures["first.cpu_system_s"]) / accepted * 1e6, 1),
                    "first.written_bytes_per_accepted": round(figures["first.written_bytes"] / accepted),
                    "rerun.written_bytes_per_row": round(figures["rerun.written_bytes"] / max(n - 1, 1)),
                    "rerun.cpu_us_per_unchanged_row": round(cpu_per_row, 2),
                    "rerun.journal_growth_percent": round(growth, 2)})
    targets = [
        ("journal bytes per accepted item (first run)", "≤ 120 B", bytes_per_item, bytes_per_item <= 120, "{:,.0f} B"),
        ("CPU per unchanged row (re-run)", "≤ 10 µs", cpu_per_row, cpu_per_row <= 10, "{:,.1f} µs"),
        ("journal growth on the re-run", "≤ 5 %", growth, growth <= 5, "{:.1f} %"),
    ]
    if quick:
        print("(quick run: sizes too small for the figures to mean anything)")
    print(f"{'measure':<46} {'target':<10} {'measured':>12}  met")
    for name, target, value, met, style in targets:
        print(f"{name:<46} {target:<10} {style.format(value):>12}  {'yes' if met else 'NO'}")
    print()
    for run, title in [("first", f"first run, {n:,} rows (1 bad)"), ("rerun", "re-run on the fixed file")]:
        cpu = figures[f"{run}.cpu_user_s"] + figures[f"{run}.cpu_system_s"]
        counts = ", ".join(f"{name.split('.')[-1]} {figures[name]:,.0f}" for name in sorted(figures)
                           if name.startswith(f"{run}.count."))
        print(f"{title}: {figures[f'{run}.seconds']:,.1f} s wall, {cpu:,.1f} s CPU "
              f"(user {figures[f'{run}.cpu_user_s']:,.1f} + system {figures[f'{run}.cpu_system_s']:,.1f}), "
              f"peak RSS {figures[f'{run}.peak_rss_mib']:,.1f} MiB, {figures[f'{run}.written_bytes'] / 2**20:,.0f} MiB written "
              f"(rusage block output); report: {counts}")
        print(f"  journal after it: {figures[f'{run}.journal_bytes']:,.0f} B checkpointed "
              f"(-wal {figures[f'{run}.wal_bytes']:,.0f} B before the checkpoint)")
    print(f"per item: first run {figures['first.cpu_us_per_accepted']:,.0f} µs CPU and "
          f"{figures['first.written_bytes_per_accepted']:,} B written per accepted item; re-run "
          f"{figures['rerun.written_bytes_per_row']:,} B written per row")
    print(f"deliveries in all: {figures['deliveries.total']:,.0f} of {n:,} expected; "
          f"{figures['deliveries.users']:,.0f} users, {figures['deliveries.users_more_than_once']:,.0f} more than once")
    if "prune.seconds" in figures:
        print(f"runs prune --older-than 30d --unfinished of both runs, aged 40 days: {figures['prune.seconds']:,.2f} s wall, "
              f"{figures['prune.cpu_s']:,.2f} s CPU; {figures['prune.runs']:,.0f} runs and {figures['prune.items']:,.0f} items removed; "
              f"journal {figures['prune.bytes_before']:,.0f} B -> {figures['prune.bytes_after']:,.0f} B")
    else:
        print("runs prune: not measured (`pushline runs prune` does not exist in this binary)")

    document = {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "command": "bench/journal.sh" + (" --quick" if quick else ""),
        # BENCH_COMMIT names the commit a given PUSHLINE_BIN was built from, when that is not this work tree.
        "commit": os.environ.get("BENCH_COMMIT") or run_report.commit(),
        "binary": binary,
        "machine": run_report.machine(),
        "sizes": {"rows": n},
        "figures": figures,
        "targets": [{"measure": name, "target": target, "measured": round(value, 3), "met": met}
                    for name, target, value, met, _ in targets],
        # The correctness check bench/journal.sh fails on: each of the N users notified exactly once in all.
        "every_user_exactly_once": figures["deliveries.total"] == n and figures["deliveries.users"] == n
                                   and figures["deliveries.users_more_than_once"] == 0 and figures["deliveries.missed"] == 0,
    }
    with open(out, "w") as file:
        json.dump(document, file, indent=2, sort_keys=True)
        file.write("\n")


def main():
    command, args = sys.argv[1], sys.argv[2:]
    if command == "users":
        hub.users(args[0], args[1], int(args[2]))
    elif command == "rows":
        rows(args[0], args[1], int(args[2]), int(args[3]))
    elif command == "watch":
        watch(int(args[0]), args[1])
    elif command == "checkpoint":
        checkpoint(args[0])
    elif command == "age":
        age(args[0], int(args[1]))
    elif command == "report":
        parser = argparse.ArgumentParser(prog="journal.py report")
        parser.add_argument("results")
        parser.add_argument("--quick", type=int, required=True)
        parser.add_argument("--rows", type=int, required=True)
        parser.add_argument("--out", required=True)
        parser.add_argument("--binary", required=True)
        options = parser.parse_args(args)
        report(options.results, options.quick, options.rows, options.out, options.binary)
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
