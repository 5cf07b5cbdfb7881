#!/usr/bin/env bash
# Builds one libFuzzer harness (fuzz/Harnesses/HARNESS) with the fuzzer's coverage and the address sanitizer, then
# fuzzes it for SECONDS starting from its committed seeds (fuzz/corpus/HARNESS). What it learns accumulates in
# fuzz/.build/corpus/HARNESS; a crash, leak-free timeout or out-of-memory input is saved in fuzz/findings/HARNESS/
# and the script exits 1. Prints one line: harness, seconds, executions, corpus size, findings.
#
#   fuzz/run.sh HARNESS SECONDS      e.g. fuzz/run.sh TemplateFuzz 600
#   fuzz/run.sh --list               the harnesses
#   fuzz/run.sh --all SECONDS        every harness in turn
#   fuzz/run.sh --replay [BUILD]     every harness built plainly (a replayer, no sanitizer), each committed seed run
#                                    through it once: what CI does, in the product's debug build folder BUILD (an
#                                    absolute path; only the harnesses are compiled there), so it costs a minute
#
# SECONDS 0 runs every seed (and what earlier runs learnt) through the sanitized harness once and stops. (libFuzzer's
# own -max_total_time=0 would mean "no limit".)
#
# Reproduce a finding without the fuzzer: swift run --package-path fuzz HARNESS fuzz/findings/HARNESS/crash-…
set -euo pipefail
cd "$(dirname "$0")"

harnesses() { ls Harnesses; }
case "${1:-}" in
  --list) harnesses; exit 0 ;;
  --all)
    seconds=${2:?usage: fuzz/run.sh --all SECONDS}
    status=0
    for harness in $(harnesses); do ./run.sh "$harness" "$seconds" || status=1; done
    exit $status ;;
  --replay)
    build=${2:-$PWD/.build/replay}
    swift build --scratch-path "$build" >&2
    bin="$(swift build --scratch-path "$build" --show-bin-path)"
    status=0
    for harness in $(harnesses); do
      seeds=(corpus/"$harness"/*)
      if "$bin/$harness" "${seeds[@]}" >/dev/null; then echo "$harness: ${#seeds[@]} seeds replayed"; else echo "$harness: a seed failed"; status=1; fi
    done
    exit $status ;;
  ""|-*) echo "usage: fuzz/run.sh HARNESS SECONDS | --list | --all SECONDS | --replay [BUILD]" >&2; exit 2 ;;
esac
harness=$1
seconds=${2:?usage: fuzz/run.sh HARNESS SECONDS}
[ -d "Harnesses/$harness" ] || { echo "fuzz: no harness '$harness' (fuzz/run.sh --list)" >&2; exit 2; }

# Release code with coverage and ASan: the speed of the product's own build, every edge counted. A build path of
# its own, since every module is compiled with these flags. PUSHLINE_FUZZ_CONFIGURATION=debug builds in a third of
# the time and runs slower: what CI's brief runs use.
configuration=${PUSHLINE_FUZZ_CONFIGURATION:-release}
case "$configuration" in
  release) build_path=.build/fuzzing ;;
  debug) build_path=.build/fuzzing-debug ;;
  *) echo "fuzz: PUSHLINE_FUZZ_CONFIGURATION is release or debug" >&2; exit 2 ;;
esac
flags=(-c "$configuration" --build-path "$build_path" -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -D -Xswiftc FUZZING)
swift build "${flags[@]}" --product "$harness" >&2
binary="$(swift build "${flags[@]}" --show-bin-path)/$harness"

corpus=".build/corpus/$harness"
findings="findings/$harness"
mkdir -p "$corpus" "$findings"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
# New inputs go to the first directory; the seeds are read, never changed. -timeout: one input taking 10 s is a
# finding (a hang); -rss_limit_mb: so is one that needs 2 GB. Leak detection is off, in libFuzzer (-detect_leaks) and
# at exit (ASAN_OPTIONS): LeakSanitizer counts the Swift globals a process creates once (a decoder's key tables) as
# leaked when it exits, which ended a 10-minute run with an empty "crash".
status=0
if [ "$seconds" -eq 0 ]; then limit=(-runs=0); else limit=(-max_total_time="$seconds"); fi
ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" "$binary" "$corpus" "corpus/$harness" "${limit[@]}" -timeout=10 -rss_limit_mb=2048 -max_len=16384 -detect_leaks=0 \
  -artifact_prefix="$findings/" -print_final_stats=1 > "$log" 2>&1 || status=$?
executions="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)"
found="$(find "$findings" -type f | wc -l | tr -d ' ')"
echo "$harness: ${seconds}s, ${executions:-?} executions, $(find "$corpus" -type f | wc -l | tr -d ' ') corpus inputs, $found findings"
if [ "$status" -ne 0 ] || [ "$found" -ne 0 ]; then
  grep -E "ERROR|Fatal error|Precondition|SUMMARY|Test unit written" "$log" | head -20 >&2 || true
  exit 1
fi
[ -n "$executions" ] || { echo "fuzz: $harness did not run:" >&2; tail -20 "$log" >&2; exit 1; }
