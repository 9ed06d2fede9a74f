#!/usr/bin/env bash
# FlowLens's tests, in tiers (CONTRIBUTING.md):
#
#   scripts/test.sh --quick          the inner loop: the unit and golden tests, no external tool, no
#                                    package build, no fuzzer (FLOWLENS_SKIP_TOOLS=1; the end-to-end
#                                    suites that spawn the CLI hundreds of times are left to CI).
#   scripts/test.sh --filter X       only `swift test --filter X` (any number of --filter/--skip X),
#                                    after the build; tests whose tools are missing are skipped.
#   scripts/test.sh                  CI (.ci/run): installs the test tools (bootstrap.sh --test), then
#                                    every test with FLOWLENS_REQUIRE_TOOLS=1 (a tool it installed that
#                                    is missing fails, never skips), the review page and every Mermaid
#                                    diagram in headless Chromium, and the binary plugins' example package.
#   scripts/test.sh --all            CI, then what costs most and finds least, for a release or a
#                                    nightly job: the example packages that compile FlowLens and
#                                    swift-syntax again (samples/reflection, the plugins from source)
#                                    and the fuzz smoke with its own libFuzzer/ASan release build
#                                    (scripts/fuzz.sh --smoke FLOWLENS_FUZZ_SMOKE_SECONDS, default 10).
#   scripts/test.sh --packages       only those two example packages (after the debug build).
#
# Arguments after `--` go to `swift test` as they are (for example `-- --parallel`).
set -euo pipefail
cd "$(dirname "$0")/.."

mode=ci
swift_test_arguments=()
usage() { sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) mode=quick ;;
    --all) mode=all ;;
    --packages) mode=packages ;;
    --filter | --skip)
      [ $# -ge 2 ] || { echo "test.sh: $1 needs a pattern" >&2; exit 2; }
      swift_test_arguments+=("$1" "$2")
      shift
      ;;
    --filter=* | --skip=*) swift_test_arguments+=("$1") ;;
    --) shift; swift_test_arguments+=("$@"); break ;;
    -h | --help) usage; exit 0 ;;
    *) echo "test.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
  esac
  shift
done
# --filter alone: only the filtered tests (with --quick: the filtered tests of the quick tier).
if [ "$mode" = ci ] && [ ${#swift_test_arguments[@]} -gt 0 ]; then mode=filter; fi

# The test tiers' timings, on stderr as each step ends (the CI log shows where the time goes).
started=$SECONDS
step() { echo "test.sh: $1 ($((SECONDS - started)) s)" >&2; }

# What the quick tier leaves to CI: FlowLensTests' end-to-end suites, which run the `flowlens` binary
# (265 tests spawn it, some hundreds of times; SIGKILL timing; sharded runs; diff with git), about two
# thirds of the suite's CPU time. Its suites that work in-process stay. A regex over the tests'
# identifiers (`Module.Type/test()`), for `swift test --skip`.
in_process_suites='ConfigurationDocumentTests|DiagramTruthTests|GraphvizHistoryTests|RecordedRunsTests|StateMachineDiagramTests'
quick_skip="^FlowLensTests\\.(?!($in_process_suites)\\b)"

# The build the tests run on: the test bundle and what it depends on (the `flowlens` binary among
# them), then the other executables, so that each still compiles. Not `swift build --build-tests`: that
# also compiles FlowLens and swift-syntax a second time for the host ("-tool" modules), for the
# SwiftPM plugins that the root package declares but never runs on itself.
build() {
  swift build --product FlowLensPackageTests
  swift build --product flowlens-fuzz
  swift build --product FlowLensBenchmarks
}

# The example packages that compile FlowLens and swift-syntax again in their own .build, each a
# complete build of the package as a dependency.
example_packages() {
  # The example package of the reflection API (samples/reflection): it builds FlowLens as a dependency.
  swift test --package-path samples/reflection
  step "samples/reflection passes"
  # The SwiftPM plugins built from source with their example package (examples/swiftpm-plugin): the
  # same plugin code as the binary plugins CI checks, on a flowlens built from source.
  scripts/test-swiftpm-plugin.sh
  step "the source plugins' example package passes"
}

case "$mode" in
  quick)
    build
    step "built"
    FLOWLENS_SKIP_TOOLS=1 swift test --skip-build --skip "$quick_skip" "${swift_test_arguments[@]}"
    step "quick tier passes"
    exit 0
    ;;
  filter)
    build
    swift test --skip-build "${swift_test_arguments[@]}"
    exit 0
    ;;
  packages)
    swift build --product flowlens
    example_packages
    exit 0
    ;;
esac

# CI (and --all): every tool installed, and required.
scripts/bootstrap.sh --test
export FLOWLENS_REQUIRE_TOOLS=1
step "tools installed"
build
step "built"
# The man page, as swift-argument-parser's generate-manual plugin writes it (the tests check it names
# every subcommand; the README says how to install it): its tool run on the debug binary, into the
# plugin's output folder. Not `swift package plugin generate-manual`: the plugin builds every product
# first, which compiles FlowLens and swift-syntax a second time for the host (4 minutes here).
swift build --product generate-manual
mkdir -p .build/plugins/GenerateManual/outputs/flowlens
.build/debug/generate-manual .build/debug/flowlens --output-directory .build/plugins/GenerateManual/outputs/flowlens
step "man page generated"
swift test --skip-build "${swift_test_arguments[@]}"
step "swift test passes"
scratch_dirs=()
cleanup() { if [ ${#scratch_dirs[@]} -gt 0 ]; then rm -rf "${scratch_dirs[@]}"; fi; }
trap cleanup EXIT
# The review page of the samples in a real headless Chromium (output/review, which the tests compare
# with what export writes); its screenshot, the README's picture, is written aside, not over it.
review_dir=$(mktemp -d)
scratch_dirs+=("$review_dir")
python3 scripts/check-review-page.py output/review/index.html --flow "Login Flow" --screenshot "$review_dir/login-flow.png"
echo "check-review-page: output/review/index.html passes in headless Chromium" >&2
# Every Mermaid diagram of the samples, rendered by the real Mermaid in headless Chromium (bootstrap.sh
# installed chromium and mmdc's mermaid.js: a missing one fails here).
mermaid_dir=$(mktemp -d)
scratch_dirs+=("$mermaid_dir")
.build/debug/flowlens export samples --output "$mermaid_dir/mmd" --format mermaid > /dev/null 2>&1 || [ $? -le 2 ]
.build/debug/flowlens export samples --output "$mermaid_dir/md" --format md > /dev/null 2>&1 || [ $? -le 2 ]
python3 scripts/validate-mermaid.py "$mermaid_dir" output/mermaid > "$mermaid_dir/result.txt" \
  || { grep -v '^ok ' "$mermaid_dir/result.txt"; exit 1; }
echo "validate-mermaid: $(grep -c '^ok ' "$mermaid_dir/result.txt") diagrams render in Mermaid" >&2
step "review page and Mermaid pass in Chromium"
# The one example package CI builds: the binary plugins (FlowLensPlugins, whose plugin code is the
# root package's) with examples/swiftpm-binary-plugin, on an artifact bundle of the debug binary built
# above: `swift build` runs the check, `swift package flowlens` runs flowlens, a planted defect fails
# both. It compiles nothing of FlowLens, so it costs seconds where the other examples cost a build.
scripts/test-swiftpm-plugin.sh --binary
step "the binary plugins' example package passes"
[ "$mode" = all ] || exit 0

# --all: the example packages that compile FlowLens again, and the fuzz smoke (README "Fuzzing"): a
# release build with libFuzzer and AddressSanitizer in .build/fuzz, then FLOWLENS_FUZZ_SMOKE_SECONDS
# (10) seconds a target from its seeds and saved regressions; a crash or an input slower than 1 s fails.
# The saved regressions are replayed by `swift test` in every tier (FlowLensFuzzingTests).
example_packages
scripts/fuzz.sh --smoke "${FLOWLENS_FUZZ_SMOKE_SECONDS:-10}"
step "fuzz smoke passes"
