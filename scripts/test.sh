#!/usr/bin/env bash
# Runs the whole test suite (unit, golden files, rendering, end-to-end CLI, output/ drift, schema).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
swift build --product flowlens
swift test "$@"
# The example package of the reflection API (samples/reflection): it builds FlowLens as a dependency.
swift test --package-path samples/reflection
# The SwiftPM plugins with their example package (samples/swiftpm-plugin): `swift build` runs the
# check, `swift package flowlens` runs flowlens, and a planted defect fails both.
scripts/test-swiftpm-plugin.sh
