#!/usr/bin/env bash
# Runs one libFuzzer fuzz target of FlowLens (docs/reliability.md):
#
#   scripts/fuzz.sh TARGET SECONDS [libFuzzer options...]   e.g. scripts/fuzz.sh plantuml 600 -runs=1000000
#   scripts/fuzz.sh --build                                  only build the fuzzer
#   scripts/fuzz.sh --smoke SECONDS                          every target for SECONDS each, after the build
#                                                            (scripts/test.sh --all; not in the default CI run)
#   scripts/fuzz.sh --save-corpus TARGET                     keep a long run's corpus in the repository
#
# Targets: yaml json flowios flowstate syrup elevate plantuml (loaders), dot svg mermaid review reports
# (writers). The fuzzer is a release build with libFuzzer and AddressSanitizer in its own scratch path
# (.build/fuzz), so it never disturbs the normal debug build. Each target's corpus is
# .build/fuzz-corpus/TARGET, seeded from samples/, the tests' fixtures and the rules' examples
# (scripts/fuzz/seeds.sh); what libFuzzer finds is kept there across runs. A long run also starts
# from the corpus a run on another machine saved (scripts/fuzz/corpora/TARGET.tar.xz, written by
# --save-corpus: the corpus minimised by libFuzzer's -merge=1), so a campaign of several runs goes on
# where the last one stopped, on any clone; the smoke runs start from the seeds alone. A crash, a broken
# invariant or an input slower than 1 s stops the run with the input saved under
# .build/fuzz-artifacts/TARGET/: copy it to Tests/FlowLensFuzzingTests/Regressions/TARGET/, where
# the normal test suite replays it, and fix the bug.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=.build/fuzz
binary=$scratch/release/flowlens-fuzz
targets=(yaml json flowios flowstate syrup elevate plantuml dot svg mermaid review reports)

build() {
  # -sanitize=fuzzer instruments every Swift module for coverage and links libFuzzer's main;
  # -parse-as-library because the fuzz build's entry point is a function, not top-level code;
  # the C module of Yams (libyaml) is instrumented too (-Xcc), so the fuzzer sees its branches.
  swift build -c release --product flowlens-fuzz --scratch-path "$scratch" \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -parse-as-library \
    -Xcc -fsanitize=fuzzer-no-link,address >&2
}

dictionary() {
  case "$1" in
    yaml) echo scripts/fuzz/yaml.dict ;;
    json) echo scripts/fuzz/json.dict ;;
    flowios | flowstate | syrup) echo "scripts/fuzz/$1.dict" ;;
    elevate) echo scripts/fuzz/ruby.dict ;;
    plantuml) echo scripts/fuzz/plantuml.dict ;;
    *) echo scripts/fuzz/graph.dict ;;
  esac
}

# The fuzz build on TARGET with the rest of the arguments. detect_leaks=0: Graphviz and the Swift
# runtime keep caches LeakSanitizer reports; asan.supp: a use-after-free read inside Graphviz's pango
# plugin (see the file).
fuzzer() {
  local target=$1
  shift
  FLOWLENS_FUZZ_TARGET=$target ASAN_OPTIONS=detect_leaks=0:suppressions=scripts/fuzz/asan.supp:${ASAN_OPTIONS:-} "$binary" "$@"
}

# Stops with a usage error unless TARGET is one of the targets.
known() { [[ " ${targets[*]} " == *" $1 "* ]] || { echo "fuzz.sh: unknown target '$1' (${targets[*]})" >&2; exit 2; }; }

# TARGET's corpus from its seeds, when it has none yet.
seed() { [ -d ".build/fuzz-corpus/$1" ] || scripts/fuzz/seeds.sh "$1" ".build/fuzz-corpus/$1"; }

run() {
  local target=$1 seconds=$2
  shift 2
  local corpus=.build/fuzz-corpus/$target artifacts=.build/fuzz-artifacts/$target
  mkdir -p "$artifacts"
  seed "$target"
  # -timeout=1: an input slower than a second is a finding; -rss_limit_mb: a runaway allocation is
  # one too. libFuzzer's -detect_leaks=0 with the sanitizer's (`fuzzer`): otherwise it runs every
  # input whose mallocs and frees differ in number (with the Swift runtime's caches, nearly every
  # one) a second time for a leak check that LeakSanitizer, switched off, never makes: 38 to 51% of
  # the CPU of a target (docs/reliability.md).
  fuzzer "$target" \
    -max_total_time="$seconds" -timeout=1 -rss_limit_mb=2048 -max_len=16384 -detect_leaks=0 \
    -dict="$(dictionary "$target")" -artifact_prefix="$artifacts/" -print_final_stats=1 "$@" "$corpus"
}

archive() { echo "scripts/fuzz/corpora/$1.tar.xz"; }

# The inputs of a saved corpus, added to TARGET's (their names are libFuzzer's, a hash of the
# contents, so an input both hold is one file).
restore() {
  local target=$1 corpus=.build/fuzz-corpus/$1
  [ -f "$(archive "$target")" ] || return 0
  mkdir -p "$corpus"
  tar -xJf "$(archive "$target")" -C "$corpus" --skip-old-files
  echo "fuzz.sh: $target's corpus holds $(find "$corpus" -type f | wc -l) inputs with the saved ones ($(archive "$target"))" >&2
}

# TARGET's corpus minimised (a subset that keeps every feature libFuzzer saw, chosen greedily; merge runs
# each input in a child process, so one that crashes stops nothing) and archived with fixed names,
# times and owners, so the same inputs make the same bytes.
save_corpus() {
  local target=$1 corpus=.build/fuzz-corpus/$1 minimal
  [ -d "$corpus" ] || { echo "fuzz.sh: no corpus for $target in $corpus" >&2; exit 2; }
  minimal=$(mktemp -d)
  # Deterministic hashing: with the Swift runtime's per-process seed, which inputs cover a feature
  # first (dictionary walks differ) changed from one merge to the next.
  SWIFT_DETERMINISTIC_HASHING=1 fuzzer "$target" -merge=1 -timeout=5 -rss_limit_mb=4096 -max_len=16384 -detect_leaks=0 "$minimal" "$corpus" >&2
  mkdir -p scripts/fuzz/corpora
  (cd "$minimal" && find . -type f -printf '%P\n' | LC_ALL=C sort \
    | tar -cf - --no-recursion --mtime=@0 --owner=0 --group=0 --numeric-owner -T - | xz -9e > "$OLDPWD/$(archive "$target").tmp")
  mv "$(archive "$target").tmp" "$(archive "$target")"
  echo "fuzz.sh: saved $(find "$minimal" -type f | wc -l) of $(find "$corpus" -type f | wc -l) inputs of $target in $(archive "$target") ($(du -k "$(archive "$target")" | cut -f1) KiB)" >&2
  rm -rf "$minimal"
}

case "${1:-}" in
  --build) build ;;
  --save-corpus)
    target=${2:?usage: scripts/fuzz.sh --save-corpus TARGET}
    known "$target"
    build
    save_corpus "$target"
    ;;
  --smoke)
    seconds=${2:?usage: scripts/fuzz.sh --smoke SECONDS}
    build
    mkdir -p .build/fuzz-logs
    for target in "${targets[@]}"; do
      log=.build/fuzz-logs/smoke-$target.log
      # A fixed seed: every smoke (CI's included) tries the same mutations in the same order, so
      # the test command's result does not depend on luck; the long runs explore with random seeds.
      run "$target" "$seconds" -seed=1 > "$log" 2>&1 \
        || { tail -40 "$log" >&2; echo "fuzz target $target failed: the input is in .build/fuzz-artifacts/$target/ (log: $log)" >&2; exit 1; }
      echo "fuzz smoke: $target: $(sed -n 's/^stat::number_of_executed_units: *//p' "$log") runs in ${seconds}s, no crash" >&2
    done
    ;;
  "" | -h | --help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *)
    target=$1
    seconds=${2:?usage: scripts/fuzz.sh TARGET SECONDS [libFuzzer options...]}
    shift 2
    known "$target"
    build
    # Seeded before the restore, which creates the corpus folder (seed leaves an existing one alone).
    seed "$target"
    restore "$target"
    # svg lays every diagram out with Graphviz in the fuzzer's process, and Graphviz never frees part
    # of each layout (see RenderWorkerPool: about 20 KB an input with AddressSanitizer), so one
    # process passes -rss_limit_mb after some 60,000 inputs. libFuzzer's fork mode runs it in
    # short-lived child processes instead, their executions counted together; an out-of-memory, a
    # timeout or a crash in a child still stops the run. (The smoke runs are too short to need it.)
    fork=()
    [ "$target" = svg ] && fork=(-fork=1 -ignore_ooms=0 -ignore_timeouts=0 -ignore_crashes=0)
    run "$target" "$seconds" "${fork[@]}" "$@"
    ;;
esac
