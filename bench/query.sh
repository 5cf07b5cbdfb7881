#!/usr/bin/env bash
# Rows from a database, at scale: a `query` of N rows from a SQLite file, spooled into the run journal, then a
# template send per row to `pushline emulator` on loopback (bench/pipelines/query-digest.yaml), in one live run
# under GNU time: wall time, CPU (user + system from the kernel's rusage), peak RSS, each step's time from the JSON
# report, the send's counts, and the journal's bytes per row afterwards. One run, not a median. The check is that all
# N rows were accepted; the script fails if not, after printing the figures. Target (printed, not enforced): peak RSS
# ≤ 64 MiB for 1,000,000 rows. Writes JSON to bench/results/DATE-query.json.
#
#   bench/query.sh           release build (--static-swift-stdlib), then 1,000,000 rows (about 6 minutes)
#   bench/query.sh --quick   2,000 rows on the debug build, to check the script works
#
# Needs: python3 (standard library only), GNU time (apt-get install time). Size: BENCH_QUERY_ROWS (1000000; 2000
# with --quick). PUSHLINE_BIN measures a given binary instead of building (BENCH_COMMIT then names its commit).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/tools/common.sh
source bench/tools/common.sh
bench_mode bench/query.sh "$@"
if [ "$quick" = 1 ]; then rows=${BENCH_QUERY_ROWS:-2000}; else rows=${BENCH_QUERY_ROWS:-1000000}; fi
[ -x /usr/bin/time ] || { echo "bench: missing GNU time (apt-get install time)" >&2; exit 2; }

echo "== build"
bin="$(bench_binary "${PUSHLINE_BIN:-}" pushline)"
echo "pushline: $bin"

bench_workdir
hub=bench
journal="$work/journal.sqlite"
echo "== emulator"
start_emulator "$bin" "$hub"
echo "writing a SQLite file of $rows users"
python3 bench/tools/query.py database "$work/app.sqlite" "$rows"

echo "== the run: $rows rows queried, spooled and sent"
status=0
NH_CONNECTION="$connection" NH_HUB="$hub" QUERY_DATABASE="$work/app.sqlite" \
  /usr/bin/time -f "%e %M %U %S" -o "$work/run.time" \
  "$bin" run bench/pipelines/query-digest.yaml --journal "$journal" --quiet --format json > "$work/run.json" 2> "$work/run.err" || status=$?
if [ "$status" != 0 ]; then echo "bench: the run exited $status:" >&2; tail -20 "$work/run.err" >&2; exit 1; fi
read -r seconds kb user system < <(tail -1 "$work/run.time")
record run.seconds "$seconds"
record run.cpu_user_s "$user"
record run.cpu_system_s "$system"
record run.peak_rss_mib "$(python3 -c "print(round($kb / 1024, 1))")"
python3 - "$work/run.json" >> "$results" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
query, send = report["steps"][0], report["steps"][1]
print(f"query.ms {query['durationMs']}")
print(f"send.ms {send['durationMs']}")
for name, value in sorted(send.get("items", {}).items()):
    print(f"run.count.{name} {value}")
PY
stop_emulator
record journal_bytes "$(python3 -c "import os, sqlite3; c = sqlite3.connect('$journal'); c.execute('PRAGMA wal_checkpoint(TRUNCATE)'); c.close(); print(os.path.getsize('$journal'))")"

echo "== results"
if [ "$quick" = 1 ]; then out="$work/results.json"; else mkdir -p bench/results; out="bench/results/$(date -u +%F)-query.json"; fi
python3 bench/tools/query.py report "$results" --quick "$quick" --rows "$rows" --out "$out" --binary "$bin"
[ "$quick" = 1 ] || echo "written to $out"
accepted="$(awk '$1 == "run.count.accepted" { print $2 }' "$results")"
if [ "${accepted%.*}" != "$rows" ]; then
  echo "bench: FAILED: $accepted of $rows rows accepted" >&2
  exit 1
fi
echo "all $rows rows were queried, spooled and accepted"
