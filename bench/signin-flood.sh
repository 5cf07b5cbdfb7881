#!/usr/bin/env bash
# A distributed flood of failed sign-ins against `pushline serve` (pipelines/notify-users.service.yaml), with 20
# legitimate first sign-ins during it: 40 attacker addresses on loopback (127.0.1.N) send HTTP Basic sign-ins with a
# new user name and a wrong password each, as fast as they are answered, for 30 s; each user signs in once, for the
# first time, from an address of its own, and counts as served when it is answered (not 401, 429 or 503) within 2 s.
# /healthz is asked every 0.25 s meanwhile. The users file (bench/data/flood-users.htpasswd) holds bcrypt hashes of
# cost 10, as `htpasswd -B` writes them. Target (printed, not enforced): at least 90 % of the legitimate sign-ins
# served within 2 s. Writes JSON to bench/results/DATE-signin-flood.json.
#
#   bench/signin-flood.sh           release build (--static-swift-stdlib), then the 30 s flood
#   bench/signin-flood.sh --quick   a 4 s flood on the debug build, to check the script works
#
# Needs: python3 (standard library only), Linux (the attackers' 127.0.1.N source addresses). Size: BENCH_FLOOD_SECONDS
# (30; 4 with --quick), BENCH_FLOOD_ATTACKERS (40). PUSHLINE_BIN measures a given binary instead of building
# (BENCH_COMMIT then names its commit).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/tools/common.sh
source bench/tools/common.sh
bench_mode bench/signin-flood.sh "$@"
if [ "$quick" = 1 ]; then seconds=${BENCH_FLOOD_SECONDS:-4}; else seconds=${BENCH_FLOOD_SECONDS:-30}; fi
attackers=${BENCH_FLOOD_ATTACKERS:-40}

echo "== build"
bin="$(bench_binary "${PUSHLINE_BIN:-}" pushline)"
echo "pushline: $bin"

bench_workdir
server_pid=""
bench_on_exit() { if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi; }
echo "== emulator and serve"
start_emulator "$bin" myhub
NH_CONNECTION="$connection" NH_HUB=myhub PUSHLINE_USERS="$PWD/bench/data/flood-users.htpasswd" \
  PUSHLINE_API_KEY=bench-key-not-a-secret-0123456789 \
  "$bin" serve pipelines/notify-users.service.yaml --port 0 > "$work/serve.log" 2>&1 &
server_pid=$!
base=""
for _ in $(seq 100); do
  base="$(grep -o 'http://127.0.0.1:[0-9]*/' "$work/serve.log" | head -1 || true)"
  [ -n "$base" ] && break
  sleep 0.1
done
[ -n "$base" ] || { echo "bench: serve did not start:" >&2; cat "$work/serve.log" >&2; exit 1; }
echo "serve listening at $base (pid $server_pid)"

echo "== the flood: $attackers addresses for $seconds s, 20 first sign-ins during it"
python3 bench/tools/signin_flood.py --base "$base" --users bench/data/flood-users.txt --attackers "$attackers" \
  --seconds "$seconds" > "$work/flood.json"
cat "$work/flood.json"
share="$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["legit_share"])' "$work/flood.json")"
echo "legitimate first sign-ins served within 2 s: $share (target: at least 0.9)"

if [ "$quick" = 0 ]; then
  out="bench/results/$(date +%F)-signin-flood.json"
  python3 - "$work/flood.json" "$out" "${BENCH_COMMIT:-$(git rev-parse --short HEAD)}" <<'PY'
import json, platform, sys
figures = json.load(open(sys.argv[1]))
figures["commit"] = sys.argv[3]
figures["machine"] = platform.machine()
json.dump(figures, open(sys.argv[2], "w"), indent=2)
PY
  echo "wrote $out"
fi
