#!/usr/bin/env bash
# Runs one benchmark in a checkout of an earlier commit and in this tree,
# alternately, so a before/after figure is measured on the same machine under
# the same load:
#
#   scripts/bench-compare.sh REF BENCH [ARGS...]
#   scripts/bench-compare.sh 5414faa bench:walk --curl-runs 0
#
# ARGS go to both runs (`npm run BENCH -- ARGS`). BENCH_REPEAT (default 2) is
# how many times each side runs; the runs alternate (before, after, before,
# ...) so drift in the machine's load hits both alike. Read the medians of the
# repeated figures: one run on a shared machine is not a measurement.
#
# The earlier commit is checked out with `git archive` into a temporary
# directory rather than `git worktree add`: the result is the same tree, and
# nothing is registered in the repository that another checkout could see or
# that a killed run would leave behind. BENCH_COMPARE_DIR keeps (and reuses)
# that checkout with its node_modules, so several benchmarks pay for one
# `npm ci`; without it the checkout is removed at exit.
set -euo pipefail

if [ "$#" -lt 2 ]; then
	echo 'Usage: scripts/bench-compare.sh REF BENCH [ARGS...]  (for example: 5414faa bench:startup)' >&2
	exit 2
fi

ref="$1"
bench="$2"
shift 2
repeat="${BENCH_REPEAT:-2}"
here="$(cd "$(dirname "$0")/.." && pwd)"
script=bench-compare
# shellcheck source=scripts/checkout-commit.sh
source "$here/scripts/checkout-commit.sh"

if ! grep -q "\"$bench\"" "$before/package.json"; then
	echo "bench-compare: $ref has no script $bench." >&2
	exit 2
fi

after_label="$(git -C "$here" rev-parse --short HEAD)$(git -C "$here" diff --quiet HEAD -- source test package.json || echo '+changes')"
echo "$bench $*: before = $(git -C "$here" rev-parse --short "$commit"), after = $after_label; $repeat run(s) each, alternating; load average $(cut -d ' ' -f 1-3 /proc/loadavg)"
for round in $(seq 1 "$repeat"); do
	for side in before after; do
		dir="$before"
		[ "$side" = after ] && dir="$here"
		echo "=== $side, run $round ($(date -u +%H:%M:%S), load $(cut -d ' ' -f 1 /proc/loadavg))"
		(cd "$dir" && npm run --silent "$bench" -- "$@" 2>&1 | grep --line-buffered -v '^npm warn') || echo "(exited $?)"
	done
done
