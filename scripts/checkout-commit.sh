# Sourced by the bench comparison scripts: checks REF out into `$before` with
# its node_modules, by `git archive` (the same tree as a worktree, but nothing
# registered in the repository that a killed run could leave behind).
# BENCH_COMPARE_DIR keeps and reuses the checkout, so several benchmarks pay
# for one `npm ci`; without it the checkout is removed at exit.
# In: $ref, $here, $script (for messages). Out: $commit, $before.

commit="$(git -C "$here" rev-parse --verify --quiet "$ref^{commit}")" || {
	echo "$script: $ref is not a commit in this repository; give a commit, tag or branch." >&2
	exit 2
}

if [ -n "${BENCH_COMPARE_DIR:-}" ]; then
	before="$BENCH_COMPARE_DIR"
	mkdir -p "$before"
else
	before="$(mktemp -d)"
	trap 'rm -rf "$before"' EXIT
fi

if [ "$(cat "$before/.bench-compare-commit" 2>/dev/null)" != "$commit" ]; then
	find "$before" -mindepth 1 -maxdepth 1 -exec rm -rf {} +
	git -C "$here" archive "$commit" | tar -x -C "$before"
	(cd "$before" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
	echo "$commit" >"$before/.bench-compare-commit"
fi
