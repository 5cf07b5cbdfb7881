#!/usr/bin/env bash
# A throwaway PostgreSQL server for the tests: on loopback, on a free port, with its data in DIR, run as a
# user that is not root (initdb refuses root), password login (scram-sha-256) over TCP.
#
#   eval "$(.ci/postgres.sh start DIR)"   # exports PUSHLINE_TEST_POSTGRES=postgres://pushline:…@127.0.0.1:PORT/postgres
#   .ci/postgres.sh stop DIR
#   .ci/postgres.sh crash DIR     # pg_ctl stop -m immediate: the server dies as on a power cut (tests)
#   .ci/postgres.sh restart DIR   # starts a stopped server again on the same port
#
# Installs Debian's postgresql when no server binaries are found. With PUSHLINE_TEST_POSTGRES set, the run
# store contract suite and the end-to-end tests also run against PostgreSQL; without it they run on SQLite only.
set -euo pipefail
# Close descriptors inherited from the caller (a test runner's process monitor, say): the server outlives
# this script and would hold them open, so the caller would never see the script end.
for fd in /proc/$$/fd/*; do
  fd="${fd##*/}"
  if [ "$fd" -gt 2 ] 2>/dev/null; then eval "exec $fd<&-" 2>/dev/null || true; fi
done

command="${1:?usage: postgres.sh start|stop|crash|restart DIR}"
dir="${2:?usage: postgres.sh start|stop|crash|restart DIR}"

bindir() {
  local found
  found="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)"
  if [ -z "$found" ]; then
    local sudo_cmd=""; [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq >&2 && $sudo_cmd apt-get install -y -qq postgresql >&2
    found="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
  fi
  echo "$found"
}

# Runs a server binary as the data directory's owner.
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# Starts the server in DIR on PORT.
start_server() {
  # fsync off: the tests kill processes, never the machine, and the page cache keeps every commit. The benchmark
  # sets PUSHLINE_PG_FSYNC=on, the production default.
  as_owner "$1/pg_ctl" -D "$2/data" -l "$2/server.log" -w -t 60 start \
    -o "-c listen_addresses=127.0.0.1 -p $3 -k $2/socket -c fsync=${PUSHLINE_PG_FSYNC:-off} -c max_connections=300" >/dev/null \
    || { cat "$2/server.log" >&2; exit 1; }
}

case "$command" in
  start)
    bin="$(bindir)"
    mkdir -p "$dir"
    dir="$(cd "$dir" && pwd)"
    if [ "$(id -u)" -eq 0 ]; then
      id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
      chown postgres "$dir"
      chmod 700 "$dir"
    fi
    password="$(head -c 18 /dev/urandom | base64 | tr -d '/+=')"
    port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    printf '%s\n' "$password" > "$dir/pwfile"
    [ "$(id -u)" -eq 0 ] && chown postgres "$dir/pwfile"
    as_owner "$bin/initdb" -D "$dir/data" -U pushline --pwfile="$dir/pwfile" \
      --auth-host=scram-sha-256 --auth-local=trust -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log" >&2; exit 1; }
    rm -f "$dir/pwfile"
    mkdir -p "$dir/socket"
    [ "$(id -u)" -eq 0 ] && chown postgres "$dir/socket"
    echo "$port" > "$dir/port"
    start_server "$bin" "$dir" "$port"
    echo "export PUSHLINE_TEST_POSTGRES='postgres://pushline:$password@127.0.0.1:$port/postgres?sslmode=disable'"
    echo "export PUSHLINE_TEST_POSTGRES_DATA='$dir/data'"
    ;;
  stop)
    bin="$(bindir)"
    [ -d "$dir/data" ] && as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
    ;;
  crash)
    as_owner "$(bindir)/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null
    ;;
  restart)
    start_server "$(bindir)" "$dir" "$(cat "$dir/port")"
    ;;
  *)
    echo "usage: postgres.sh start|stop|crash|restart DIR" >&2; exit 2 ;;
esac
