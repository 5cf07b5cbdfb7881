#!/usr/bin/env bash
# Beyond one machine (issue #18), measured on one machine, each figure the median of BENCH_RUNS runs:
#   1. items committed per second by each run store (Benchmarks/StoreBenchmark): the journal traffic of a batch
#      send without its requests (the next 64 keys looked up together, then group commits of 8: the group before's
#      outcomes and this group's claims and `sending` marks; and every item alone), one writer, as one `pushline
#      run` makes it; with CPU time per item from rusage
#   2. 4 shards against 1 process: `pushline run pipelines/daily-digest.yaml` (concurrency 16, the default) against
#      an emulator that answers every send 50 ms late, as a distant hub does; the 4 shards run at once from one
#      journal. Rows per second, wall time from the first start to the last exit, for each store
#   3. the cost of each store in a send: `pushline run pipelines/daily-digest.yaml` of BENCH_CPU_ROWS rows against an
#      emulator that answers at once, on each store: pushline's CPU per accepted item (rusage), the PostgreSQL
#      server's CPU per item (its processes' times from /proc, those it reaped included), and what was written to
#      storage per item (SQLite: pushline's rusage block output, the WAL and its checkpoints; PostgreSQL: the
#      server's WAL bytes and data pages written)
#   4. the same as one 1,000,000-row live run on each store (BENCH_MILLION_ROWS), once
# PostgreSQL runs with its production defaults (fsync on); it is a private server on loopback that this script
# starts and stops (.ci/postgres.sh), or the one PUSHLINE_BENCH_POSTGRES names (an admin URL, as the tests use;
# the server's CPU is then not measured).
#
#   bench/shards.sh            release build (--static-swift-stdlib), then about 5 minutes of measuring
#   bench/shards.sh --quick    tiny sizes on the debug build, to check the script works (CI runs this)
#
# Sizes: BENCH_SHARD_ROWS (4000), BENCH_RUNS (3), BENCH_STORE_ITEMS (5000), BENCH_LATENCY (50ms),
# BENCH_CPU_ROWS (20000), BENCH_MILLION_ROWS (1000000; 0 skips section 4).
# PUSHLINE_BIN and STORE_BENCH_BIN measure given binaries instead of building.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/tools/common.sh
source bench/tools/common.sh
bench_mode bench/shards.sh "$@"
if [ "$quick" = 1 ]; then
  rows=${BENCH_SHARD_ROWS:-200}; runs=${BENCH_RUNS:-1}; store_items=${BENCH_STORE_ITEMS:-300}; latency=${BENCH_LATENCY:-5ms}
  cpu_rows=${BENCH_CPU_ROWS:-300}; million_rows=${BENCH_MILLION_ROWS:-500}
else
  rows=${BENCH_SHARD_ROWS:-4000}; runs=${BENCH_RUNS:-3}; store_items=${BENCH_STORE_ITEMS:-5000}; latency=${BENCH_LATENCY:-50ms}
  cpu_rows=${BENCH_CPU_ROWS:-20000}; million_rows=${BENCH_MILLION_ROWS:-1000000}
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
  pg_data="$PUSHLINE_TEST_POSTGRES_DATA"
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
# Each store twice: every item marked in a transaction of its own (group 1), and the runner's group commit of 8
# (half the pool of 16). The unsuffixed figures are the grouped ones, what a send makes of the store.
for store in sqlite postgresql; do
  for group in 1 8; do
    "$store_bin" --journal "$(journal "$store" store)" --items "$store_items" --rounds "$runs" --group "$group" \
      | tee "$work/store.out" | sed "s/^/  group $group: /"
    tail -1 "$work/store.out" > "$work/store-$store.json"
    suffix=""; [ "$group" = 1 ] && suffix="_alone"
    record "store.$store.items_per_s$suffix" "$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["items_per_s"])' "$work/store-$store.json")"
    record "store.$store.cpu_us_per_item$suffix" "$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["cpu_us_per_item"])' "$work/store-$store.json")"
  done
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

# live STORE LABEL ROWS_FILE N: one `pushline run` of the digest over ROWS_FILE (N rows) on a fresh journal of STORE,
# under GNU time; records LABEL.STORE.{rows_per_s,cpu_us_per_item,server_cpu_us_per_item,written_per_item,peak_rss_mib}
live() {
  local store=$1 label=$2 input=$3 n=$4 journal status=0 seconds kb user system blocks accepted cpu_before=0 cpu_after=0 \
    written_before=0 written_after=0
  journal="$(journal "$store" "$label")"
  if [ "$store" = postgresql ]; then
    written_before="$(python3 bench/tools/pgstat.py writes "$admin")"
    [ -n "${pg_data:-}" ] && cpu_before="$(python3 bench/tools/pgstat.py cpu "$pg_data")"
  fi
  NH_CONNECTION="$connection" NH_HUB="$hub" DIGEST_ROWS="$input" PUSHLINE_JOURNAL="$journal" \
    /usr/bin/time -f "%e %M %U %S %O" -o "$work/live.time" \
    "$bin" run pipelines/daily-digest.yaml --quiet --format json > "$work/live.json" 2> "$work/live.err" || status=$?
  [ "$status" = 0 ] || { echo "bench: the $label run on $store exited $status:" >&2; tail -20 "$work/live.err" >&2; exit 1; }
  if [ "$store" = postgresql ]; then
    # The server's checkpoints write the pages later: one now counts them with the run that dirtied them.
    psql -X -q "$admin" -c CHECKPOINT >/dev/null
    written_after="$(python3 bench/tools/pgstat.py writes "$admin")"
    [ -n "${pg_data:-}" ] && cpu_after="$(python3 bench/tools/pgstat.py cpu "$pg_data")"
  fi
  read -r seconds kb user system blocks < <(tail -1 "$work/live.time")
  accepted="$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["steps"][0]["data"]["items"]["accepted"])' "$work/live.json")"
  [ "$accepted" = "$n" ] || { echo "bench: the $label run on $store accepted $accepted of $n" >&2; exit 1; }
  local written=$((blocks * 512)); [ "$store" = postgresql ] && written=$((written_after - written_before))
  record "$label.$store.rows_per_s" "$(python3 -c "print(round($n / max($seconds, 0.01), 1))")"
  record "$label.$store.cpu_us_per_item" "$(python3 -c "print(round(($user + $system) * 1e6 / $n, 1))")"
  record "$label.$store.written_per_item" "$((written / n))"
  record "$label.$store.peak_rss_mib" "$(python3 -c "print(round($kb / 1024, 1))")"
  if [ -n "${pg_data:-}" ] && [ "$store" = postgresql ]; then
    record "$label.$store.server_cpu_us_per_item" "$(python3 -c "print(round(($cpu_after - $cpu_before) * 1e6 / $n, 1))")"
  fi
  echo "  $store: ${seconds}s, CPU ${user}s user + ${system}s system ($(python3 -c "print(round(($user + $system) * 1e6 / $n, 1))") µs per item)," \
    "$((written / n)) B written per item, peak RSS $((kb / 1024)) MiB"
}

echo "== 3. the stores' cost in a send: $cpu_rows rows, an emulator that answers at once, $runs runs"
stop_emulator
hub=fast
start_emulator "$bin" "$hub"
python3 bench/tools/hub.py rows "$work/cpu-rows.csv" "$cpu_rows"
for store in sqlite postgresql; do
  for run in $(seq "$runs"); do live "$store" "cpu_$run" "$work/cpu-rows.csv" "$cpu_rows"; done
  for figure in rows_per_s cpu_us_per_item written_per_item peak_rss_mib server_cpu_us_per_item; do
    values=(); for run in $(seq "$runs"); do
      value="$(awk -v name="cpu_$run.$store.$figure" '$1 == name { print $2 }' "$results")"; [ -n "$value" ] && values+=("$value")
    done
    [ "${#values[@]}" -gt 0 ] && record "cpu.$store.$figure" "$(median "${values[@]}")"
  done
done

if [ "$million_rows" -gt 0 ]; then
  echo "== 4. one live run of $million_rows rows on each store"
  python3 bench/tools/hub.py rows "$work/million-rows.csv" "$million_rows"
  for store in sqlite postgresql; do live "$store" million "$work/million-rows.csv" "$million_rows"; done
  rm -f "$work/million-rows.csv"
fi

echo "== results"
python3 - "$results" "$quick" "$rows" "$runs" "$store_items" "$latency" "$cpu_rows" "$million_rows" > "$work/results.json" <<'PY'
import json, sys
path, quick, rows, runs, items, latency, cpu_rows, million_rows = sys.argv[1:]
values = {}
for line in open(path):
    name, value = line.split()
    values[name] = float(value)
print(json.dumps({"quick": quick == "1", "rows": int(rows), "runs": int(runs), "store_items": int(items), "latency": latency,
                  "cpu_rows": int(cpu_rows), "million_rows": int(million_rows), "results": values}, indent=2))
for store in ("sqlite", "postgresql"):
    one, four = values[f"shards.{store}.parts_1.rows_per_s"], values[f"shards.{store}.parts_4.rows_per_s"]
    print(f"{store:>10}: {values[f'store.{store}.items_per_s']:>9,.0f} items committed/s "
          f"({values[f'store.{store}.cpu_us_per_item']:.0f} µs CPU each); 1 process {one:,.0f} rows/s, "
          f"4 shards {four:,.0f} rows/s ({four / one:.1f}x)", file=sys.stderr)
    for label, title in (("cpu", f"{int(cpu_rows):,} rows"), ("million", f"{int(million_rows):,} rows")):
        if f"{label}.{store}.cpu_us_per_item" not in values:
            continue
        server = values.get(f"{label}.{store}.server_cpu_us_per_item")
        print(f"{'':>10}  send of {title}: {values[f'{label}.{store}.rows_per_s']:,.0f} rows/s, pushline "
              f"{values[f'{label}.{store}.cpu_us_per_item']:.0f} µs CPU per item"
              + (f", server {server:.0f} µs" if server is not None else "")
              + f", {values[f'{label}.{store}.written_per_item']:,.0f} B written per item", file=sys.stderr)
if "cpu.sqlite.cpu_us_per_item" in values and "cpu.postgresql.cpu_us_per_item" in values:
    print(f"pushline's CPU per item, PostgreSQL ÷ SQLite: "
          f"{values['cpu.postgresql.cpu_us_per_item'] / values['cpu.sqlite.cpu_us_per_item']:.2f} (target ≤ 1.5)",
          file=sys.stderr)
PY
if [ "$quick" = 1 ]; then cat "$work/results.json" > /dev/null; else
  mkdir -p bench/results; out="bench/results/$(date -u +%F)-shards.json"; cp "$work/results.json" "$out"; echo "written to $out"
fi
