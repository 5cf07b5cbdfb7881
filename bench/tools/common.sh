# What bench/run.sh and bench/shards.sh share; sourced by them, not run. Each script sets `quick` (0 or 1) with
# bench_mode first, then builds with bench_binary, takes a scratch directory with bench_workdir, and starts the
# emulator with start_emulator.

# bench_mode SCRIPT [ARG]: quick=1 for --quick (tiny sizes on the debug build), 0 for nothing; anything else is
# a usage error.
bench_mode() {
  quick=0
  case "${2:-}" in
    --quick) quick=1 ;;
    "") ;;
    *) echo "usage: $1 [--quick]" >&2; exit 2 ;;
  esac
}

# bench_binary GIVEN PRODUCT: GIVEN when set (PUSHLINE_BIN and the like), else PRODUCT built for this mode: the
# debug build with --quick, a release build with the static standard library otherwise. Prints the path.
bench_binary() {
  local given=$1 product=$2 build
  if [ -n "$given" ]; then echo "$given"; return; fi
  if [ "$quick" = 1 ]; then build=(swift build); else build=(swift build -c release --static-swift-stdlib); fi
  "${build[@]}" --product "$product" >/dev/null
  echo "$("${build[@]}" --show-bin-path)/$product"
}

# bench_workdir: $work, a scratch directory removed on exit (after stopping the emulator and running
# bench_on_exit, when the script defines one), and $results, the "name value" lines record adds to.
bench_workdir() {
  work="$(mktemp -d)"
  emulator_pid=""
  results="$work/results.txt"
  : > "$results"
  trap bench_cleanup EXIT
}

bench_cleanup() {
  stop_emulator
  if declare -F bench_on_exit >/dev/null; then bench_on_exit; fi
  rm -rf "$work"
}

record() { echo "$1 $2" >> "$results"; }
median() { python3 bench/tools/hub.py median "$@"; }

# start_emulator BIN HUB [YAML]: `pushline emulator` on a free loopback port with HUB and a fresh full-rights key,
# YAML appended to its configuration (e.g. a latency: line). Sets emulator_pid, port and connection.
start_emulator() {
  local bin=$1 hub=$2 extra=${3:-} key
  key="$(python3 -c 'import base64, secrets; print(base64.b64encode(secrets.token_bytes(32)).decode())')"
  cat > "$work/emulator.yaml" <<YAML
namespace: bench
tier: standard
hubs:
  $hub:
    policies:
      DefaultFullSharedAccessSignature: { key: "$key", rights: [Listen, Manage, Send] }
$extra
YAML
  "$bin" emulator --port 0 --config "$work/emulator.yaml" > "$work/emulator.log" 2>&1 &
  emulator_pid=$!
  port=""
  for _ in $(seq 100); do
    port="$(sed -n 's|.*listening on http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$work/emulator.log")"
    [ -n "$port" ] && break
    sleep 0.1
  done
  [ -n "$port" ] || { echo "bench: the emulator did not start:" >&2; cat "$work/emulator.log" >&2; exit 1; }
  connection="Endpoint=http://127.0.0.1:$port/;SharedAccessKeyName=DefaultFullSharedAccessSignature;SharedAccessKey=$key"
  echo "emulator listening on port $port (pid $emulator_pid)"
}

stop_emulator() {
  if [ -n "${emulator_pid:-}" ]; then kill "$emulator_pid" 2>/dev/null || true; wait "$emulator_pid" 2>/dev/null || true; fi
  emulator_pid=""
}

# deliveries: how many notifications the emulator delivered.
deliveries() { curl -s "http://127.0.0.1:$port/_emulator/deliveries" | python3 -c 'import json, sys; print(len(json.load(sys.stdin)))'; }
