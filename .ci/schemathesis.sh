#!/usr/bin/env bash
# Fuzzes `pushline serve` from its own OpenAPI document with schemathesis (PyPI): the real server in front of the
# real emulator on loopback, signed in as a demo user, then with an admin key; any 5xx answer fails the check.
# Usage: .ci/schemathesis.sh PUSHLINE_BINARY [EXAMPLES]
set -euo pipefail
bin="$1"
examples="${2:-25}"
work="$(mktemp -d)"
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

command -v st >/dev/null || python3 -m pip install -q schemathesis \
  || python3 -m pip install -q --break-system-packages schemathesis

"$bin" emulator --port 0 >"$work/emulator.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do grep -q "stop with Ctrl-C" "$work/emulator.log" && break; sleep 0.1; done
connection="$(grep -m1 'SharedAccessKeyName=DefaultFullSharedAccessSignature' "$work/emulator.log" | tr -d ' ')"

admin_key="schemathesis-admin-$(date +%s%N)"
cat >"$work/service.yaml" <<YAML
version: 1
hubs:
  users: { connection: "\${env:NH_CONNECTION}", hub: myhub }
templates:
  notify-apns: { platform: apns, body: '{"aps":{"alert":"From \$(sender): \$(message)"}}' }
  request-apns: { platform: apns, body: '{"aps":{"alert":"\$(alertMessage)"},"action":"\$(alertAction)"}' }
service:
  hub: users
  listen: { port: 8088 }
  users: { htpasswd: $PWD/pipelines/data/demo-users.htpasswd }
  api-keys:
    ops: { key: "\${env:ADMIN_KEY}", scopes: [admin, send] }
  devices: { allowed-tags: "topic_[a-z]{1,20}" }
  notify: { templates: { apns: notify-apns } }
  requests: { templates: { apns: request-apns } }
  pipelines: { digest: $PWD/pipelines/seed-tutorial.yaml }
  limits: { per-identity: 100000, per-address: 100000, failed-sign-ins: 100000 }
YAML
NH_CONNECTION="$connection" NH_HUB=myhub ADMIN_KEY="$admin_key" PUSHLINE_JOURNAL="$work/journal.sqlite" \
  "$bin" serve "$work/service.yaml" --port 0 >"$work/serve.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do grep -q "stop with Ctrl-C" "$work/serve.log" && break; sleep 0.1; done
base="$(grep -o 'http://127.0.0.1:[0-9]*/' "$work/serve.log" | head -1)"
echo "schemathesis against ${base}openapi.json ($examples examples per operation)"

basic="Authorization: Basic $(printf 'alice:alice-demo-password' | base64)"
status=0
st run "${base}openapi.json" --checks not_a_server_error -n "$examples" -H "$basic" --request-timeout 20 || status=1
st run "${base}openapi.json" --checks not_a_server_error -n "$examples" -H "apikey: $admin_key" --request-timeout 20 || status=1
if grep -E '"status":5[0-9][0-9]' "$work/serve.log" | grep -v '"status":50[23]' >/dev/null; then
  echo "the server answered a 5xx other than 502/503 (the hub's):"; grep -E '"status":5' "$work/serve.log" | head -5; status=1
fi
exit "$status"
