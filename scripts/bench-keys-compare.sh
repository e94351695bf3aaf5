#!/usr/bin/env bash
# bench:keys with an earlier commit's browser mounted beside this tree's, in
# one process, keys alternating between the two (see test/bench/keys.tsx,
# BENCH_AGAINST), so both are measured under the same load:
#
#   scripts/bench-keys-compare.sh REF
#   BENCH_REPEAT=3 BENCH_ROUNDS=200 scripts/bench-keys-compare.sh main
#
# The earlier commit is checked out with `git archive` as scripts/bench-compare.sh
# does (BENCH_COMPARE_DIR keeps and reuses the checkout with its node_modules).
# BENCH_REPEAT (default 2) runs: read the medians across runs, and the load
# average each run prints. Both browsers share one heap, so garbage one makes
# may be collected during the other's key: the ratios are, if anything, too
# close to 1. A run without BENCH_AGAINST (`npm run bench:keys`) gives this
# tree's figures alone.
set -euo pipefail

if [ "$#" -ne 1 ]; then
	echo 'Usage: scripts/bench-keys-compare.sh REF  (for example: main)' >&2
	exit 2
fi

ref="$1"
repeat="${BENCH_REPEAT:-2}"
here="$(cd "$(dirname "$0")/.." && pwd)"
script=bench-keys-compare
# shellcheck source=scripts/checkout-commit.sh
source "$here/scripts/checkout-commit.sh"

for round in $(seq 1 "$repeat"); do
	echo "=== run $round of $repeat ($(date -u +%H:%M:%S))"
	(cd "$here" && BENCH_AGAINST="$before" npm run --silent bench:keys 2>&1 | grep --line-buffered -v '^npm warn') || echo "(exited $?)"
done
