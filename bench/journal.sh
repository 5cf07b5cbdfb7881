#!/usr/bin/env bash
# The run journal at scale: what a big for-each send leaves in its SQLite journal, and what running it again after
# fixing one bad row costs. Against `pushline emulator` on loopback, one run of each (not a median):
#   1. a first live run of bench/pipelines/journal-digest.yaml (a template send per row, bad-rows: skip) over N
#      rows of which exactly one has no userId (counted bad, not sent). Wall time, CPU (user + system from the
#      kernel's rusage, GNU time), peak RSS, the report's counts, and the journal's size: the -wal file as the run
#      left it, then the main file after `PRAGMA wal_checkpoint(TRUNCATE)`. Figure: journal bytes per accepted item.
#   2. the same pipeline again, on a copy of the rows where only that row is fixed: its CPU, CPU per unchanged row
#      (CPU / (N - 1)), the report's counts as it gives them, and the journal's growth (checkpointed again) as a
#      percentage of its size after run 1. The emulator's deliveries are followed throughout (bench/tools/journal.py
#      watch); the check is that after both runs every one of the N users got exactly one notification: N in all.
#      The script fails if not, after printing the figures.
#   3. a copy of that journal with both runs moved 40 days into the past (bench/tools/journal.py age), pruned for
#      real by `pushline runs prune --older-than 30d --unfinished` (the first run is partial, so without that flag it stays
#      to resume): time, CPU, runs and items removed, and the journal's bytes
#      before and after (it vacuums). Skipped, and said so, for a binary without `runs prune`.
# Prints measured against target (≤ 120 B of journal per accepted item, ≤ 10 µs CPU per unchanged row, ≤ 5 % growth
# on the re-run) without failing on a missed one; writes JSON to bench/results/DATE-journal.json.
#
#   bench/journal.sh           release build (--static-swift-stdlib), then 1,000,000 rows (about 10 minutes)
#   bench/journal.sh --quick   2,000 rows on the debug build, to check the script works
#
# Needs: python3 (standard library only), GNU time (apt-get install time). Sizes: BENCH_JOURNAL_ROWS
# (1000000; 2000 with --quick). BENCH_JOURNAL_KEEP=DIR keeps the journal in DIR. PUSHLINE_BIN measures a given binary instead of building (BENCH_COMMIT then names
# the commit it was built from, for the results; by default they name this work tree's).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/tools/common.sh
source bench/tools/common.sh
bench_mode bench/journal.sh "$@"
if [ "$quick" = 1 ]; then rows=${BENCH_JOURNAL_ROWS:-2000}; else rows=${BENCH_JOURNAL_ROWS:-1000000}; fi
[ "$rows" -ge 2 ] || { echo "bench: BENCH_JOURNAL_ROWS must be at least 2" >&2; exit 2; }

missing=()
[ -x /usr/bin/time ] || missing+=("GNU time (apt-get install time)")
if [ "${#missing[@]}" -gt 0 ]; then
  printf 'bench: missing %s\n' "${missing[@]}" >&2
  exit 2
fi

echo "== build"
bin="$(bench_binary "${PUSHLINE_BIN:-}" pushline)"
echo "pushline: $bin"

bench_workdir
# What this script starts besides the emulator: the deliveries watcher, and the command it is waiting for (see
# waited). On exit, however it comes, both are stopped before bench_cleanup stops the emulator and removes $work.
watcher_pid=""
child_pid=""
journal_cleanup() {
  if [ -n "$child_pid" ]; then
    pkill -TERM -P "$child_pid" 2>/dev/null || true   # the pushline under GNU time, which does not pass signals on
    kill -TERM "$child_pid" 2>/dev/null || true
    wait "$child_pid" 2>/dev/null || true
  fi
  if [ -n "$watcher_pid" ]; then kill -KILL "$watcher_pid" 2>/dev/null || true; wait "$watcher_pid" 2>/dev/null || true; fi
  # BENCH_JOURNAL_KEEP=DIR keeps the journal after both runs (DIR/journal.sqlite), to look into with sqlite3.
  if [ -n "${BENCH_JOURNAL_KEEP:-}" ] && [ -f "${journal:-}" ]; then mkdir -p "$BENCH_JOURNAL_KEEP"; cp "$journal" "$BENCH_JOURNAL_KEEP/"; fi
  bench_cleanup
}
trap journal_cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
# waited COMMAND...: runs it in the background and waits, so that a signal to this script stops it too (a
# foreground command would hold the trap until it ended, or be left running); returns its status.
waited() {
  local status=0
  "$@" &
  child_pid=$!
  wait "$child_pid" || status=$?
  child_pid=""
  return "$status"
}
hub=bench
journal="$work/journal.sqlite"
pipeline=bench/pipelines/journal-digest.yaml
bad_row=$(( (rows + 1) / 2 ))   # the row without a userId: user-$bad_row, in the middle of the file

echo "== emulator"
start_emulator "$bin" "$hub"
echo "registering $rows installations; writing $rows rows (row $bad_row without its userId) and the fixed copy"
waited python3 bench/tools/journal.py users "$connection" "$hub" "$rows"
python3 bench/tools/journal.py rows "$work/rows.csv" "$work/fixed.csv" "$rows" "$bad_row"
python3 bench/tools/journal.py watch "$port" "$work/deliveries.json" 2> "$work/watch.err" &
watcher_pid=$!

# run LABEL INPUT: `pushline run` of the pipeline over the rows file INPUT under GNU time; records LABEL.seconds, .cpu_user_s,
# .cpu_system_s, .peak_rss_mib, .written_bytes (rusage's block output: what the process sent to storage, the
# journal's WAL writes and checkpoints), .exit and .count.* (the step's item counts from the JSON report). Exit 0
# and 3 (partial: some items bad or failed) are runs that finished; anything else stops the benchmark.
run() {
  local label=$1 input=$2 status=0 seconds kb user system blocks
  NH_CONNECTION="$connection" NH_HUB="$hub" JOURNAL_ROWS="$input" \
    waited /usr/bin/time -f "%e %M %U %S %O" -o "$work/$label.time" \
    "$bin" run "$pipeline" --journal "$journal" --quiet --format json > "$work/$label.json" 2> "$work/$label.err" || status=$?
  if [ "$status" != 0 ] && [ "$status" != 3 ]; then
    echo "bench: the $label run exited $status:" >&2; tail -20 "$work/$label.err" >&2; exit 1
  fi
  read -r seconds kb user system blocks < <(tail -1 "$work/$label.time")   # GNU time puts "Command exited with…" first
  record "$label.seconds" "$seconds"
  record "$label.cpu_user_s" "$user"
  record "$label.cpu_system_s" "$system"
  record "$label.peak_rss_mib" "$(python3 -c "print(round($kb / 1024, 1))")"
  record "$label.written_bytes" "$((blocks * 512))"
  record "$label.exit" "$status"
  python3 - "$work/$label.json" "$label" >> "$results" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
for name, value in sorted(report["steps"][0]["items"].items()):
    print(f"{sys.argv[2]}.count.{name} {value}")
PY
  echo "  ${seconds}s wall, CPU user ${user}s + system ${system}s, peak RSS $((kb / 1024)) MiB," \
    "$((blocks * 512 / 1048576)) MiB written, exit $status;" \
    "report: $(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["steps"][0]["summary"])' "$work/$label.json")"
}

# sizes LABEL: the journal's -wal bytes as the run left it (0 when there is none: the last connection to close
# checkpoints and removes it), then its main file's bytes after a TRUNCATE checkpoint.
sizes() {
  local measured wal main
  measured="$(python3 bench/tools/journal.py checkpoint "$journal")"
  read -r wal main <<< "$measured"
  record "$1.wal_bytes" "$wal"
  record "$1.journal_bytes" "$main"
  echo "  journal: -wal $wal B before the checkpoint, $main B after it"
}

figure() { awk -v name="$1" '$1 == name { print $2 }' "$results"; }

echo "== 1. first run: $rows rows, one of them bad"
run first "$work/rows.csv"
sizes first
bad="$(figure first.count.bad)"
[ "$bad" = 1 ] || { echo "bench: the first run counted $bad bad rows, not 1; the input is not what this benchmark needs" >&2; exit 1; }

echo "== 2. re-run on the fixed copy (only row $bad_row changed)"
run rerun "$work/fixed.csv"
sizes rerun

echo "== deliveries"
kill -TERM "$watcher_pid"
watch_status=0
wait "$watcher_pid" || watch_status=$?
watcher_pid=""
[ "$watch_status" = 0 ] || { echo "bench: following the deliveries failed:" >&2; tail -5 "$work/watch.err" >&2; exit 1; }
python3 - "$work/deliveries.json" >> "$results" <<'PY'
import json, sys
summary = json.load(open(sys.argv[1]))
for name in ["total", "users", "users_more_than_once", "missed", "last_id"]:
    print(f"deliveries.{name} {summary[name]}")
PY
echo "  $(cat "$work/deliveries.json")"

echo "== 3. runs prune of a copy of the journal aged 40 days"
# Before the command exists, `runs prune --help` prints the help of `runs` and exits 0, so its usage line is
# what tells.
if "$bin" runs prune --help 2>/dev/null | grep -q "^USAGE: pushline runs prune"; then
  status=0
  aged="$work/aged.sqlite"
  cp "$journal" "$aged"
  python3 bench/tools/journal.py age "$aged" 40
  waited /usr/bin/time -f "%e %M %U %S" -o "$work/prune.time" \
    "$bin" runs prune --older-than 30d --unfinished --journal "$aged" --format json > "$work/prune.out" 2> "$work/prune.err" || status=$?
  [ "$status" = 0 ] || { echo "bench: runs prune exited $status:" >&2; tail -20 "$work/prune.err" >&2; exit 1; }
  read -r seconds _ user system < <(tail -1 "$work/prune.time")
  record prune.seconds "$seconds"
  record prune.cpu_s "$(python3 -c "print(round($user + $system, 2))")"
  python3 - "$work/prune.out" >> "$results" <<'PY'
import json, sys
pruned = json.load(open(sys.argv[1]))
print(f"prune.runs {pruned['runs']}")
print(f"prune.items {pruned['items']}")
print(f"prune.bytes_before {pruned.get('bytesBefore') or 0}")
print(f"prune.bytes_after {pruned.get('bytesAfter') or 0}")
PY
  echo "  ${seconds}s wall, CPU user ${user}s + system ${system}s: $(cat "$work/prune.out")"
else
  echo "  skipped: this binary has no \`runs prune\`"
fi
stop_emulator

echo "== results"
if [ "$quick" = 1 ]; then out="$work/results.json"; else mkdir -p bench/results; out="bench/results/$(date -u +%F)-journal.json"; fi
python3 bench/tools/journal.py report "$results" --quick "$quick" --rows "$rows" --out "$out" --binary "$bin"
[ "$quick" = 1 ] || echo "written to $out"

# The correctness check: every user exactly once over both runs.
total="$(figure deliveries.total)"; users="$(figure deliveries.users)"
again="$(figure deliveries.users_more_than_once)"; missed="$(figure deliveries.missed)"
if [ "$total" != "$rows" ] || [ "$users" != "$rows" ] || [ "$again" != 0 ] || [ "$missed" != 0 ]; then
  echo "bench: FAILED: $total deliveries to $users users ($again of them more than once; $missed not seen) after both runs; expected each of the $rows users exactly once" >&2
  exit 1
fi
echo "every one of the $rows users got exactly one notification"
