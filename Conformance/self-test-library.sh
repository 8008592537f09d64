#!/usr/bin/env bash
# The oracle's library self-test: one-line defects planted in the library's own Sources/, one at a
# time, in a scratch copy of the repository (never in the checkout, never in the runner). Each must
# be reported as a divergence on the extended seeds, with at most a fixed share of the cases it
# changes excused by the rules (Conformance/README.md, "The library self-test").
#
#   bash Conformance/self-test-library.sh            # every defect, seeds 0–9,999 (--extended)
#   bash Conformance/self-test-library.sh zipAsksOnlyTheSender   # one defect
#   SEEDS=3000 bash Conformance/self-test-library.sh  # fewer seeds
#   WITH_QUICK_RUN=1 bash Conformance/self-test-library.sh  # CI: also the quick extended run and
#                                                           # --self-test, on the clean debug build
#
# The scratch copy lives in Conformance/.build/library-self-test (SCRATCH to move it): its
# Conformance package's `..` is the copy, so its Ripple is the patched one. The clean copy is built
# and its Ripple histories fingerprinted first; each defect is then a one-line patch, an
# incremental debug build and a run that compares, with OpenCombine, only the cases whose Ripple
# history the defect changed. Debug builds: an incremental rebuild of one file costs less than a
# release build's whole-module recompile, and the few thousand cases run fast enough unoptimized.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
scratch=${SCRATCH:-$repo/Conformance/.build/library-self-test}
seeds=${SEEDS:-10000}
share=${MAX_EXCUSED:-0.5}
only=${1:-}

# name | file | the line as it is | the line with the defect
defects=(
  "zipAsksOnlyTheSender|Sources/RippleCore/Combiners/CombinerMachine.swift|        DemandRoute(toSender: returned > 0 ? returned : requestedDuringDelivery, toOthers: returned)|        DemandRoute(toSender: returned > 0 ? returned : requestedDuringDelivery, toOthers: .none)"
  "bufferDropsItsLastHeldElement|Sources/RippleCore/Buffer/BufferState.swift|        self.completion = completion|        self.completion = completion; if !buffer.isEmpty { buffer.storage.removeLast() }"
  "assignToPublishedReleaseCancelsNothing|Sources/RippleCore/ObservableObject/Publisher+AssignToPublished.swift|        box.keep(AnyCancellable(object: subscriber))|        box.keep(AnyCancellable { withExtendedLifetime(subscriber) {} })"
  "throttleLatestInverted|Sources/RippleCore/Scheduling/Publishers.Throttle.swift|                if latest { state.extra.pending = input }|                if !latest { state.extra.pending = input }"
  "prefixFinishesOneElementLate|Sources/RippleCore/Operators/Publishers.Output.swift|        if remainingCount == 0 { finish() }|        if remainingCount < 0 { finish() }"
)

copy() {
  # Only files that differ are written (with their times), so an unchanged file is not rebuilt and a
  # file patched before is put back.
  python3 - "$repo" "$scratch/repo" <<'EOF'
import filecmp, os, shutil, sys
src, dst = sys.argv[1:]
skip = {".git", ".build", ".swiftpm", "Package.resolved", "Benchmarks", "Examples", "Compatibility", "Integrations"}
seen = set()
for root, dirs, files in os.walk(src):
    dirs[:] = [d for d in dirs if d not in skip]
    rel = os.path.relpath(root, src)
    os.makedirs(os.path.join(dst, rel), exist_ok=True)
    for f in files:
        if f in skip:
            continue
        a, b = os.path.join(root, f), os.path.join(dst, rel, f)
        seen.add(os.path.normpath(b))
        if os.path.islink(a):
            if not (os.path.islink(b) and os.readlink(b) == os.readlink(a)):
                if os.path.lexists(b): os.remove(b)
                os.symlink(os.readlink(a), b)
        elif not os.path.isfile(b) or os.path.islink(b) or not filecmp.cmp(a, b, shallow=False):
            if os.path.lexists(b): os.remove(b)
            shutil.copy2(a, b)
for root, dirs, files in os.walk(dst):
    dirs[:] = [d for d in dirs if d not in skip]
    for f in files:
        b = os.path.normpath(os.path.join(root, f))
        if f not in skip and b not in seen:
            os.remove(b)
EOF
}

plant() { # file, old line, new line: exactly one line must match
  python3 - "$scratch/repo/$1" "$2" "$3" <<'EOF'
import sys
path, old, new = sys.argv[1:]
lines = open(path).read().split("\n")
hits = [i for i, line in enumerate(lines) if line == old]
if len(hits) != 1:
    sys.exit(f"error: {path}: the line to patch occurs {len(hits)} times (expected once): {old!r}")
lines[hits[0]] = new
open(path, "w").write("\n".join(lines))
EOF
}

build() {
  if ! swift build --package-path "$scratch/repo/Conformance" --product Conformance >"$scratch/build.log" 2>&1; then
    grep -E "error" "$scratch/build.log" | head -20
    echo "error: the scratch copy does not build (log: $scratch/build.log)" >&2
    exit 1
  fi
}

bin() { echo "$(swift build --package-path "$scratch/repo/Conformance" --show-bin-path)/Conformance"; }

started=$SECONDS
copy
echo "== clean copy: build, fingerprint Ripple's histories ($seeds extended seeds)"
t=$SECONDS; build; echo "   built in $((SECONDS - t)) s"
if [[ -n ${WITH_QUICK_RUN:-} && -z $only ]]; then
  # CI: the quick extended run and the runner's own self-test on the same (debug) build; their
  # verdicts match the release build's (Conformance/README.md).
  echo "== the quick extended run (the clean copy)"
  "$(bin)" --quick --extended
  echo "== the runner's self-test (defects planted in the runner's model of the pipeline)"
  "$(bin)" --self-test
fi
"$(bin)" --record-clean "$scratch/clean.txt" --count "$seeds" --extended

failed=0
for entry in "${defects[@]}"; do
  IFS='|' read -r name file old new <<<"$entry"
  if [[ -n $only && $only != "$name" ]]; then continue; fi
  echo "== $name ($file)"
  cp -p "$scratch/repo/$file" "$scratch/original"
  plant "$file" "$old" "$new"
  t=$SECONDS; build; echo "   built in $((SECONDS - t)) s"
  "$(bin)" --planted "$name" --against "$scratch/clean.txt" --count "$seeds" --extended --max-excused "$share" \
    ${VERBOSE:+--verbose} || failed=1
  # Put the clean line back (the copy's other files stay as the clean run saw them).
  rm -f "$scratch/repo/$file"
  cp -p "$scratch/original" "$scratch/repo/$file"
done
echo "Library self-test done in $((SECONDS - started)) s"
exit $failed
