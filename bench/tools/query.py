"""bench/query.sh's fixture and report, with Python's standard library only.

    query.py database PATH N               a SQLite file with table users (user_id, headline): user-1 … user-N
    query.py report RESULTS.txt --quick 0|1 --rows N --out PATH --binary PATH
                                           print the table, write the results JSON
"""
import argparse
import datetime
import json
import os
import sqlite3
import sys

sys.dont_write_bytecode = True   # no __pycache__ in bench/tools
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report as run_report  # noqa: E402  (machine() and commit(), as bench/run.sh's results record them)

RSS_TARGET_MIB = 64


def database(path, n):
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE users (user_id TEXT, headline TEXT)")
    connection.executemany("INSERT INTO users VALUES (?, ?)",
                           ((f"user-{i}", f"Your digest for day 1, user {i}: 3 new stories") for i in range(1, n + 1)))
    connection.commit()
    connection.close()


def report(results, quick, n, out, binary):
    figures = {}
    with open(results) as file:
        for line in file:
            name, value = line.split()
            figures[name] = float(value)
    rss = figures["run.peak_rss_mib"]
    accepted = figures.get("run.count.accepted", 0)
    targets = [("peak RSS of the run (query spooled, then sent)", f"≤ {RSS_TARGET_MIB} MiB", rss, rss <= RSS_TARGET_MIB)]
    print(f"{n:,} rows queried from SQLite, spooled into the journal and sent: {figures['run.seconds']:,.1f} s wall, "
          f"CPU user {figures['run.cpu_user_s']:,.1f} s + system {figures['run.cpu_system_s']:,.1f} s, peak RSS {rss:,.1f} MiB")
    print(f"  the query and its spool: {figures['query.ms'] / 1000:,.1f} s; the send: {figures['send.ms'] / 1000:,.1f} s, "
          f"{accepted:,.0f} accepted; journal {figures['journal_bytes'] / n:,.1f} B per row after the run")
    for name, target, value, met, in [t[:4] for t in targets]:
        print(f"  {name}: {value:,.1f} MiB (target {target}: {'met' if met else 'MISSED'})")
    document = {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "command": "bench/query.sh" + (" --quick" if quick else ""),
        "commit": os.environ.get("BENCH_COMMIT") or run_report.commit(),
        "binary": binary,
        "machine": run_report.machine(),
        "sizes": {"rows": n},
        "figures": figures,
        "targets": [{"measure": name, "target": target, "measured": round(value, 3), "met": met} for name, target, value, met in targets],
        "every_row_sent": accepted == n,
    }
    with open(out, "w") as file:
        json.dump(document, file, indent=2, sort_keys=True)
        file.write("\n")


def main():
    command, args = sys.argv[1], sys.argv[2:]
    if command == "database":
        database(args[0], int(args[1]))
    elif command == "report":
        parser = argparse.ArgumentParser(prog="query.py report")
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
