#!/usr/bin/env bash
# Throughput of `flowlens check` on Swift sources against swift-syntax parsing alone, in one run.
# Release build: swift-syntax parses ~37x slower in debug. Extra arguments go to the benchmark
# (--lines N, default 100000; --runs N, default 5).
set -euo pipefail
cd "$(dirname "$0")/.."
swift run -c release FlowLensBenchmarks "$@"
