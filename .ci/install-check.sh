#!/usr/bin/env bash
# The install as a user does it: `make install` (the release build, static Swift standard library) into PREFIX, the
# binary run from an empty environment (no toolchain library linked, `init` and a dry run of its project), its
# PostgreSQL run store reached without the password ever printed (PUSHLINE_TEST_POSTGRES), then `make uninstall`.
#
#   .ci/install-check.sh PREFIX
set -euo pipefail
cd "$(dirname "$0")/.."
prefix="${1:?usage: .ci/install-check.sh PREFIX}"
# A build folder of its own: the tests run beside this lane on the debug build in .build, and SwiftPM locks a build folder.
make install PREFIX="$prefix" BUILD_FLAGS="-c release --static-swift-stdlib --scratch-path .build-release"
# ldd's own failure stops the script (set -e); only then is its output searched.
deps="$(ldd "$prefix/bin/pushline")"
if grep -E "libswift|libFoundation|lib_Foundation|libdispatch|libBlocksRuntime" <<<"$deps"; then
  echo "the installed binary links Swift toolchain libraries; it must not need the toolchain"; exit 1
fi
env -i PATH=/usr/bin:/bin "$prefix/bin/pushline" --version
env -i PATH=/usr/bin:/bin HOME="$prefix" "$prefix/bin/pushline" init "$prefix/project"
(cd "$prefix/project" && env -i PATH=/usr/bin:/bin HOME="$prefix" "$prefix/bin/pushline" run pipelines/digest.yaml --dry-run --env-file .env.example)
test -s "$prefix/share/man/man1/pushline.1" && test -s "$prefix/share/bash-completion/completions/pushline"
# The binary the Containerfile's image would hold reaches a PostgreSQL run store (no Docker engine here to build it).
# It reads the store without creating it (exit 2: nothing has run there), and never prints the password.
pg_out="$(env -i PATH=/usr/bin:/bin HOME="$prefix" "$prefix/bin/pushline" runs list --journal "$PUSHLINE_TEST_POSTGRES" 2>&1 && exit 1 || true)"
grep -q "no run journal at 'postgres://pushline@127.0.0.1:" <<<"$pg_out" || { echo "$pg_out"; exit 1; }
pg_password="${PUSHLINE_TEST_POSTGRES#postgres://pushline:}"; pg_password="${pg_password%%@*}"
if grep -qF "$pg_password" <<<"$pg_out"; then echo "the password was printed"; exit 1; fi
env -i PATH=/usr/bin:/bin HOME="$prefix" PUSHLINE_JOURNAL="$PUSHLINE_TEST_POSTGRES" \
  "$prefix/bin/pushline" run "$prefix/project/pipelines/digest.yaml" --dry-run --env-file "$prefix/project/.env.example" >/dev/null
make uninstall PREFIX="$prefix"
test ! -e "$prefix/bin/pushline" && test ! -e "$prefix/share/man/man1/pushline.1"
echo "installed, run from an empty environment, and uninstalled"
