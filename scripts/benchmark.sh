#!/usr/bin/env bash
# 1. Throughput of `flowlens check` on Swift sources against swift-syntax parsing alone, in one run.
#    Release build: swift-syntax parses ~37x slower in debug. Extra arguments go to this benchmark
#    (--lines N, default 100000; --runs N, default 5).
#    The same run then times a generated 1000-step flow's diagram: the standard ("naive") DOT laid out
#    and rendered to SVG in-process and by the `dot` program, against the large-flow layout
#    (--steps N for another size), then times `check` on generated 1k, 10k and 100k-step flows
#    (--flow-sizes N,N,...; --only check, diagram or flows for one of the three).
# 2. Exporting samples/flowkit to SVG: `flowlens export --format svg` (reading, checking and
#    drawing every machine, Graphviz in-process) against `plantuml -tsvg` on the same files, both
#    as one command, median of 5 runs each, in the same run.
set -euo pipefail
cd "$(dirname "$0")/.."
swift run -c release FlowLensBenchmarks "$@"

swift build -c release --product flowlens >/dev/null
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
