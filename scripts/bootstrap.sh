#!/usr/bin/env bash
# bootstrap.sh - install what is missing (Debian 12, as root), build, and run
# either the main demo or the whole test suite.
#
#   bash scripts/bootstrap.sh demo   # install and build what the demo needs (the command:
#                                    # no tests, examples, MPI, clang), run the net capture
#   bash scripts/bootstrap.sh test   # install, build, run every test (plain and ASan+UBSan)
#   bash scripts/bootstrap.sh plan demo|test   # print what that mode installs and builds, do nothing
#
# Environment: BUILD_DIR (default build), JOBS (default nproc),
# MBDAE_SKIP_SANITIZE=1 skips the sanitizer pass of `test`, MBDAE_SKIP_FUZZ=1
# its 60 s libFuzzer runs of the scenario loader and of checkpoint loading
# (tests/fuzz, clang).
set -euo pipefail

mode=${1:-}
plan=0
if [ "$mode" = plan ]; then plan=1; mode=${2:-}; fi
case "$mode" in
  demo|test|install|build) ;;
  *) echo "usage: bash scripts/bootstrap.sh [plan] demo|test|install|build" >&2; exit 2 ;;
esac

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${BUILD_DIR:-$root/build}
jobs=${JOBS:-$(nproc)}

# Debian 12 packages: the library, the command and the demo ...
packages=(build-essential cmake pkg-config
          libsundials-dev libsuitesparse-dev libmetis-dev
          libyaml-dev libmatio-dev gnuplot-nox)
# ... and, for everything else (test, build, install), the test suite's
if [ "$mode" != demo ]; then
  packages+=(libcunit1-dev
             libopenmpi-dev openmpi-bin          # mbdae sweep under mpirun
             python3 python3-numpy python3-pytest # python/ (ctest python_mbdae), results_pages
             python3-pandas                      # python/: DataFrames (tests skip without)
             python3-matplotlib                  # python/examples/net_capture.py's figure
             python3-vtk9                        # VTK frames read back (python/tests/test_vtk.py)
             help2man                            # the installed man page (cmake/Docs.cmake)
             clang libclang-rt-14-dev)           # the libFuzzer run of `test`
fi

# the demo's build: the command only - no tests, examples or MPI (a separate
# build directory, so a test build next to it is not reconfigured)
demo_configure=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DMBDAE_TESTS=OFF -DMBDAE_MPI=OFF)
demo_targets=(mbdae_cli)

if [ $plan = 1 ]; then # tests/bootstrap_plan_test.sh reads this
  echo "packages: ${packages[*]}"
  if [ "$mode" = demo ]; then
    echo "configure: ${demo_configure[*]}"
    echo "targets: ${demo_targets[*]}"
  else
    echo "configure: -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMBDAE_WERROR=ON"
    echo "targets: all"
  fi
  exit 0
fi

install_missing() {
  local missing=()
  for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$p")
    fi
  done
  if [ ${#missing[@]} -eq 0 ]; then
    echo "bootstrap: all ${#packages[@]} Debian packages present"
    return
  fi
  echo "bootstrap: installing ${missing[*]}"
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq "${missing[@]}"
}

configure_build() { # dir, extra cmake args...
  local dir=$1; shift
  cmake -S "$root" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
  cmake --build "$dir" -j "$jobs"
}

run_ctest() { # dir
  local rc=0
  (cd "$1" && ctest --output-on-failure -j "$jobs" --timeout 1500) || rc=$?
  # each CUnit suite's own summary line ("<suite>: N tests run, M failed ...")
  echo "bootstrap: CUnit suite summaries ($1)"
  grep -hE "^[A-Za-z0-9_ -]+: [0-9]+ tests run, [0-9]+ failed" \
    "$1/Testing/Temporary/LastTest.log" | sed 's/^/  /' || true
  return $rc
}

install_missing
[ "$mode" = install ] && exit 0

if [ "$mode" = demo ]; then
  cmake -S "$root" -B "$build-demo" "${demo_configure[@]}" >/dev/null
  cmake --build "$build-demo" -j "$jobs" --target "${demo_targets[@]}"
  build="$build-demo"
fi
[ "$mode" = demo ] || configure_build "$build" -DMBDAE_WERROR=ON
[ "$mode" = build ] && exit 0

if [ "$mode" = demo ]; then
  scenario="$root/scenarios/capture_demo.yaml"
  out="$root/out/demo"
  # the scene as pictures too: animation/frame_*.png and animation.gif (gnuplot);
  # under event capturing (moreau, h 1 ms): 6.5x less CPU than the scenario's
  # event-driven CVODE Adams, the net wraps the prism either way
  # (benchmarks/results/sections/moreau_crossover.md, doc/choosing-a-method.md)
  "$build/mbdae" run "$scenario" --out "$out" --set output.animation=true \
    --set solver.method=moreau
  echo "bootstrap: demo results in $out (series.csv, events.csv, summary.json, *.png," \
       "animation.gif, animation/frame_*.png, vtk/ + animation.pvd for ParaView)"
  echo "bootstrap: the command is $build/mbdae (try: $build/mbdae list)"
  exit 0
fi

echo "bootstrap: test suite (RelWithDebInfo, -Werror)"
run_ctest "$build"
if [ "${MBDAE_SKIP_SANITIZE:-0}" != 1 ]; then
  echo "bootstrap: test suite under AddressSanitizer + UndefinedBehaviorSanitizer"
  configure_build "$build-sanitize" -DMBDAE_SANITIZE=ON
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    run_ctest "$build-sanitize"
fi
if [ "${MBDAE_SKIP_FUZZ:-0}" != 1 ]; then
  echo "bootstrap: 60 s libFuzzer runs: the scenario loader with cmd_run's file reading (40 s)" \
       "and checkpoint loading (20 s) (ASan + UBSan, tests/fuzz)"
  fuzz="$build-libfuzzer"
  CC=clang cmake -S "$root" -B "$fuzz" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMBDAE_FUZZ=ON >/dev/null
  cmake --build "$fuzz" -j "$jobs" --target fuzz_scenario fuzz_checkpoint
  rm -rf "$fuzz/corpus" && mkdir -p "$fuzz/corpus"   # a copy: the seeds stay untouched
  # seeds: the shipped scenarios and studies, and past findings (tests/fuzz/regressions)
  cp "$root"/scenarios/*.yaml "$root"/scenarios/studies/*.yaml \
     "$root"/tests/fuzz/regressions/*.yaml "$fuzz/corpus/"
  # a crash, leak, UB report or a > 10 s input ends it non-zero (set -e)
  "$fuzz/tests/fuzz/fuzz_scenario" -dict="$root/tests/fuzz/scenario.dict" -max_total_time=40 \
    -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$fuzz/" -print_final_stats=1 "$fuzz/corpus"
  # checkpoint seeds: runs that fail at max_events keep their last checkpoint
  # (every kind whose resume the harness sets up, and a net)
  rm -rf "$fuzz/ck-corpus" "$fuzz/ck-runs" && mkdir -p "$fuzz/ck-corpus" "$fuzz/ck-runs"
  for spec in "ball 0.5 5" "billiard_parabola_4p5 1 20" "ravine_case_6_3 1 5" \
              "wheel_beta03 0.1 5" "pendulum_ggl 2 3" "capture_ida 0.2 20"; do
    read -r name every max <<< "$spec"
    "$build/mbdae" run "$root/scenarios/$name.yaml" --out "$fuzz/ck-runs/$name" -q --no-plots \
      --checkpoint-every "$every" --set solver.max_events="$max" >/dev/null 2>&1 || true
    cp "$fuzz/ck-runs/$name/checkpoint.bin" "$fuzz/ck-corpus/$name.bin"   # none: set -e fails
  done
  "$fuzz/tests/fuzz/fuzz_checkpoint" -max_total_time=20 -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$fuzz/ck-" -print_final_stats=1 "$fuzz/ck-corpus"
fi
echo "bootstrap: all tests passed"
