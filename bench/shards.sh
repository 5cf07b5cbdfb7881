#!/usr/bin/env bash
# Beyond one machine (issue #18), measured on one machine, each figure the median of BENCH_RUNS runs:
#   1. items committed per second by each run store (Benchmarks/StoreBenchmark): the journal traffic of a batch
#      send without its requests (duplicate check, `sending` before each request, outcomes 64 at a time), one
#      writer, as one `pushline run` makes it; with CPU time per item from rusage
#   2. 4 shards against 1 process: `pushline run pipelines/daily-digest.yaml` (concurrency 16, the default) against
#      an emulator that answers every send 50 ms late, as a distant hub does; the 4 shards run at once from one
#      journal. Rows per second, wall time from the first start to the last exit, for each store
# PostgreSQL runs with its production defaults (fsync on); it is a private server on loopback that this script
# starts and stops (.ci/postgres.sh), or the one PUSHLINE_BENCH_POSTGRES names (an admin URL, as the tests use).
#
#   bench/shards.sh            release build (--static-swift-stdlib), then about 5 minutes of measuring
#   bench/shards.sh --quick    tiny sizes on the debug build, to check the script works (CI runs this)
#
# Sizes: BENCH_SHARD_ROWS (4000), BENCH_RUNS (3), BENCH_STORE_ITEMS (5000), BENCH_LATENCY (50ms).
# PUSHLINE_BIN and STORE_BENCH_BIN measure given binaries instead of building.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/tools/common.sh
source bench/tools/common.sh
bench_mode bench/shards.sh "$@"
if [ "$quick" = 1 ]; then
  rows=${BENCH_SHARD_ROWS:-200}; runs=${BENCH_RUNS:-1}; store_items=${BENCH_STORE_ITEMS:-300}; latency=${BENCH_LATENCY:-5ms}
else
  rows=${BENCH_SHARD_ROWS:-4000}; runs=${BENCH_RUNS:-3}; store_items=${BENCH_STORE_ITEMS:-5000}; latency=${BENCH_LATENCY:-50ms}
fi

echo "== build"
bin="$(bench_binary "${PUSHLINE_BIN:-}" pushline)"
store_bin="$(bench_binary "${STORE_BENCH_BIN:-}" StoreBenchmark)"
echo "pushline: $bin"

bench_workdir
chmod 755 "$work"   # the postgres user reaches its data directory inside
pg_started=0
bench_on_exit() { if [ "$pg_started" = 1 ]; then .ci/postgres.sh stop "$work/pg" || true; fi; }

echo "== PostgreSQL"
admin="${PUSHLINE_BENCH_POSTGRES:-}"
if [ -z "$admin" ]; then
  PUSHLINE_PG_FSYNC=on .ci/postgres.sh start "$work/pg" > "$work/pg.env"
  pg_started=1
  # shellcheck disable=SC1091
  source "$work/pg.env"
  admin="$PUSHLINE_TEST_POSTGRES"
fi
# A fresh database per measurement: a run must not find the one before it.
database() {
  local name="pushline_bench_$(head -c 6 /dev/urandom | od -An -tx1 | tr -d ' \n')"
  psql -X -q -v ON_ERROR_STOP=1 "$admin" -c "CREATE DATABASE $name" >/dev/null
  local base="${admin%%\?*}"; local query=""; [ "$base" != "$admin" ] && query="?${admin#*\?}"
  echo "${base%/*}/$name$query"
}
journal() {   # journal STORE RUN: a fresh journal of that kind
  if [ "$1" = sqlite ]; then echo "$work/journal-$2-$RANDOM.sqlite"; else database; fi
}

echo "== 1. items committed per second by each store: $store_items items, $runs runs"
for store in sqlite postgresql; do
  "$store_bin" --journal "$(journal "$store" store)" --items "$store_items" --rounds "$runs" | tee "$work/store.out" | sed 's/^/  /'
  tail -1 "$work/store.out" > "$work/store-$store.json"
  record "store.$store.items_per_s" "$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["items_per_s"])' "$work/store-$store.json")"
  record "store.$store.cpu_us_per_item" "$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["cpu_us_per_item"])' "$work/store-$store.json")"
done

echo "== emulator (each send answered $latency late)"
hub=bench
start_emulator "$bin" "$hub" "latency: { delay: $latency, operations: [send] }"
python3 bench/tools/hub.py users "$connection" "$hub" "$rows"
python3 bench/tools/hub.py rows "$work/rows.csv" "$rows"

# send PARTS JOURNAL: runs the digest as PARTS processes at once (1: no --shard); prints the wall seconds.
send() {
  local parts=$1 journal=$2 pids=() start end accepted=0
  start=$(date +%s.%N)
  for index in $(seq 0 $((parts - 1))); do
    local shard=(); [ "$parts" -gt 1 ] && shard=(--shard "$index/$parts")
    NH_CONNECTION="$connection" NH_HUB="$hub" DIGEST_ROWS="$work/rows.csv" PUSHLINE_JOURNAL="$journal" \
      "$bin" run pipelines/daily-digest.yaml "${shard[@]}" --quiet --format json > "$work/part-$index.json" 2> "$work/part-$index.err" &
    pids+=($!)
  done
  for index in "${!pids[@]}"; do
    wait "${pids[$index]}" || { echo "bench: part $index failed:" >&2; tail -n 5 "$work/part-$index.err" "$work/part-$index.json" >&2; exit 1; }
  done
  end=$(date +%s.%N)
  for index in $(seq 0 $((parts - 1))); do
    accepted=$((accepted + $(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["steps"][0]["data"]["items"]["accepted"])' "$work/part-$index.json")))
  done
  [ "$accepted" = "$rows" ] || { echo "bench: $parts parts accepted $accepted of $rows" >&2; exit 1; }
  python3 -c "print(round($end - $start, 2))"
}

echo "== 2. $rows rows, 1 process against 4 shards, $runs runs each"
for store in sqlite postgresql; do
  for parts in 1 4; do
    rates=()
    for run in $(seq "$runs"); do
      python3 bench/tools/hub.py clear "$connection"
      seconds="$(send "$parts" "$(journal "$store" "$parts")")"
      delivered="$(deliveries)"
      [ "$delivered" = "$rows" ] || { echo "bench: $parts parts delivered $delivered of $rows" >&2; exit 1; }
      rates+=("$(python3 -c "print(round($rows / max($seconds, 0.01), 1))")")
      echo "  $store, $parts part(s), run $run: ${seconds}s, ${rates[-1]} rows/s"
    done
    record "shards.$store.parts_$parts.rows_per_s" "$(median "${rates[@]}")"
  done
done

echo "== results"
python3 - "$results" "$quick" "$rows" "$runs" "$store_items" "$latency" > "$work/results.json" <<'PY'
import json, sys
path, quick, rows, runs, items, latency = sys.argv[1:]
values = {}
for line in open(path):
    name, value = line.split()
    values[name] = float(value)
print(json.dumps({"quick": quick == "1", "rows": int(rows), "runs": int(runs), "store_items": int(items), "latency": latency,
                  "results": values}, indent=2))
for store in ("sqlite", "postgresql"):
    one, four = values[f"shards.{store}.parts_1.rows_per_s"], values[f"shards.{store}.parts_4.rows_per_s"]
    print(f"{store:>10}: {values[f'store.{store}.items_per_s']:>9,.0f} items committed/s "
          f"({values[f'store.{store}.cpu_us_per_item']:.0f} µs CPU each); 1 process {one:,.0f} rows/s, "
          f"4 shards {four:,.0f} rows/s ({four / one:.1f}x)", file=sys.stderr)
PY
if [ "$quick" = 1 ]; then cat "$work/results.json" > /dev/null; else
  mkdir -p bench/results; out="bench/results/$(date -u +%F)-shards.json"; cp "$work/results.json" "$out"; echo "written to $out"
fi
