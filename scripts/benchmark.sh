#!/usr/bin/env bash
# Every figure is a ratio of two times measured in the same run (release build; `uptime` first, as
# the machine may be shared).
# 1. `flowlens check` on two 100k-line Swift corpora (all flows; app-shaped, one file in ten touching
#    a flow library) against swift-syntax parsing every file, and against `check` with the pre-filter
#    off (the reports must be identical), with the peak memory of a `flowlens check` child process.
#    Extra arguments go to this benchmark (--lines N, default 100000; --runs N, default 5).
#    The same run then times a generated 1000-step flow's diagram: the standard ("naive") DOT laid out
#    and rendered to SVG in-process and by the `dot` program, against the large-flow layout
#    (--steps N for another size), times `check` on generated 1k, 10k and 100k-step flows
#    (--flow-sizes N,N,...), and `flowlens export` of 200 generated flows with --jobs 2 against
#    --jobs 1, and replays 1,000,000 recorded events on a large flow's graph (events a second and
#    peak memory; --events N) (--only check, diagram, flows, export or trace for one of the five).
# 2. Exporting samples/flowkit to SVG: `flowlens export --format svg` (reading, checking and
#    drawing every machine, Graphviz in-process) against `plantuml -tsvg` on the same files, both
#    as one command, median of 5 runs each, in the same run.
set -euo pipefail
cd "$(dirname "$0")/.."
uptime
# The benchmark runs the flowlens binary beside it (peak memory, export): build it first.
swift build -c release --product flowlens >/dev/null
swift run -c release FlowLensBenchmarks "$@"

bin=$(swift build -c release --show-bin-path)/flowlens
command -v plantuml >/dev/null || { echo "benchmark: plantuml is not installed (run scripts/bootstrap.sh --test)" >&2; exit 1; }
python3 - "$bin" <<'PY'
import glob, os, statistics, subprocess, sys, tempfile, time
flowlens = sys.argv[1]
files = sorted(glob.glob("samples/flowkit/**/*.puml", recursive=True))
def run(command):
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start
def median(make, runs=5):
    times = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as out:
            times.append(run(make(out)))
    return statistics.median(times)
ours = median(lambda out: [flowlens, "export", *files, "--output", out, "--format", "svg"])
theirs = median(lambda out: ["plantuml", "-tsvg", "-o", out, *files])
print(f"\nFlowKit samples: {len(files)} .puml files, median of 5 runs, one command each")
print(f"flowlens export --format svg   {ours:.3f} s")
print(f"plantuml -tsvg                 {theirs:.3f} s")
print(f"ratio plantuml / flowlens: {theirs / ours:.1f}x")
PY
