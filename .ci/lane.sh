#!/usr/bin/env bash
# One lane of .ci/run: runs COMMAND at the lowest CPU priority, each line of its output stamped with the minutes since
# CI_STARTED_AT (epoch seconds) into DIR/NAME.log, then writes its exit status to DIR/NAME.status.
#
#   .ci/lane.sh NAME DIR COMMAND...     (in a process group of its own: `set -m` before starting it in the background)
set -uo pipefail
name=$1 dir=$2
shift 2
nice -n 19 "$@" 2>&1 | while IFS= read -r line; do
  elapsed=$(($(date +%s) - ${CI_STARTED_AT:-$(date +%s)}))
  printf '[%2dm%02ds] %s\n' $((elapsed / 60)) $((elapsed % 60)) "$line"
done > "$dir/$name.log"
echo "${PIPESTATUS[0]}" > "$dir/$name.status"
