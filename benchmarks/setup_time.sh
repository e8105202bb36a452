#!/usr/bin/env bash
# The README's first command from a fresh clone, old and new build alternating (issue 64):
#   bash benchmarks/setup_time.sh OLD_COMMIT NEW_COMMIT [RUNS]
# Each run clones this repository afresh, removes any cached wheel of the project, and times
# `python3 -m venv .venv && .venv/bin/pip install . && .venv/bin/scoundrel-solve --seed 42`
# (wall, and the CPU of all its processes).  Pause other jobs first: the figure is a quiet machine's.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
old="$1"; new="$2"; runs="${3:-3}"
work="$(mktemp -d "${TMPDIR:-/tmp}/setup-time.XXXXXX")"
trap 'rm -rf "$work"' EXIT
for i in $(seq 1 "$runs"); do
  for commit in "$old" "$new"; do
    rm -rf "$work/clone"
    git clone -q "$repo" "$work/clone"
    git -C "$work/clone" checkout -q "$commit"
    python3 -m pip cache remove scoundrel_solver >/dev/null 2>&1 || true
    load=$(cut -d' ' -f1 /proc/loadavg)
    start=$(date +%s.%N)
    (cd "$work/clone" && /usr/bin/time -f "%U %S" -o "$work/cpu" bash -c \
      "python3 -m venv .venv && .venv/bin/pip install -q . && .venv/bin/scoundrel-solve --seed 42 > /dev/null")
    end=$(date +%s.%N)
    read -r user sys < "$work/cpu"
    python3 -c "print(f'run $i  $commit  load $load  wall {$end - $start:.1f} s  CPU {$user + $sys:.1f} s')"
  done
done
