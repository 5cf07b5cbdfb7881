#!/usr/bin/env bash
# Peak memory of a for-each dry run over N rows (default 1,000,000): the daily digest, signed and
# rendered row by row, nothing sent. Streaming keeps it flat in N; this prints the peak RSS for a
# small and a large N side by side so that is visible.
#
#   bench/dry-run-memory.sh [ROWS]        (builds a release binary first; needs /usr/bin/time)
#   PUSHLINE_BIN=path/to/pushline bench/dry-run-memory.sh [ROWS]   (measures that binary instead)
set -euo pipefail
cd "$(dirname "$0")/.."
rows="${1:-1000000}"
small=$(( rows / 100 > 0 ? rows / 100 : 1 ))
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

bin="${PUSHLINE_BIN:-}"
if [ -z "$bin" ]; then
  swift build -c release --product pushline >/dev/null
  bin="$(swift build -c release --show-bin-path)/pushline"
fi

make_rows() {  # make_rows N FILE
  python3 - "$1" "$2" <<'PY'
import sys
n, path = int(sys.argv[1]), sys.argv[2]
with open(path, "w") as f:
    f.write("userId,headline\n")
    for i in range(1, n + 1):
        f.write(f'user-{i},"Your digest for today, item {i}"\n')
PY
}

measure() {  # measure N -> "seconds peak_kb"
  make_rows "$1" "$work/rows-$1.csv"
  NH_CONNECTION='Endpoint=sb://bench.servicebus.windows.net/;SharedAccessKeyName=DefaultFullSharedAccessSignature;SharedAccessKey=bench-key-not-a-secret' \
  NH_HUB=bench DIGEST_ROWS="$work/rows-$1.csv" \
    /usr/bin/time -f "%e %M" -o "$work/time-$1" "$bin" run pipelines/daily-digest.yaml --dry-run --quiet >/dev/null
  cat "$work/time-$1"
}

read -r small_s small_kb <<<"$(measure "$small")"
read -r large_s large_kb <<<"$(measure "$rows")"
printf '%-12s %10s %14s %12s\n' rows seconds "peak RSS MiB" "rows/s"
for pair in "$small $small_s $small_kb" "$rows $large_s $large_kb"; do
  awk -v n="${pair%% *}" -v rest="${pair#* }" 'BEGIN { split(rest, a, " "); printf "%-12s %10s %14.1f %12.0f\n", n, a[1], a[2] / 1024, (a[1] > 0 ? n / a[1] : 0) }'
done
