#!/bin/sh
# run_bench_workprec.sh [BUILD_DIR] [OUTDIR] [--quick] [PART...] - the
# work-precision protocol of issue 9 for the bola, the bouncing ball, the
# stiff Baumgarte chain and nets, the Jacobian and KLU-vs-dense comparisons
# (benchmarks/bench_workprec.c; NOT part of CI). Run from the repository root.
#   1. builds bench_workprec in BUILD_DIR (default build-wp, Release);
#   2. runs the parts (default: bola ball chain reuse net netxi lose jac cross;
#      also: exact netexact), writing OUTDIR/<problem>.csv (one row per run) and
#      OUTDIR/summary.txt; (PART "plots": run nothing, only draw);
#      $WP_OPTS is passed to every part, e.g. WP_OPTS="--net-n 21" (net, netxi:
#      only 21 x 21) or "--ref-cpu-limit 1200" (bench_workprec.c, Usage);
#   3. draws OUTDIR/<problem>.png with benchmarks/plot_workprec.gp (error vs
#      CPU time, log-log, one line per method present in the CSV).
# Header of summary.txt: date, nproc, load average, git revision.
set -e
BUILD=${1:-build-wp}
OUT=${2:-/tmp/bench_workprec}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] && shift
QUICK=
if [ "$1" = "--quick" ]; then QUICK=--quick; shift; fi
PARTS=${*:-bola ball chain reuse net netxi lose jac cross}
[ -f "$BUILD/CMakeCache.txt" ] || cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build "$BUILD" --target bench_workprec -j2 > /dev/null
B=$BUILD/benchmarks/bench_workprec
mkdir -p "$OUT"
{
  echo "# run_bench_workprec.sh $BUILD $OUT $QUICK $PARTS${WP_OPTS:+ (WP_OPTS=$WP_OPTS)}"
  echo "# date $(date -u '+%Y-%m-%d %H:%M:%S UTC'), nproc $(nproc), load $(cut -d' ' -f1-3 /proc/loadavg), rev $(git rev-parse --short HEAD 2>/dev/null || echo -)"
} >> "$OUT/summary.txt"
for p in $PARTS; do
  [ "$p" = plots ] && continue # "plots" alone: only (re)draw the CSVs of OUTDIR
  start=$(date +%s)
  # shellcheck disable=SC2086 # WP_OPTS: several words
  "$B" "$p" "$OUT" $QUICK $WP_OPTS
  echo "# part $p: $(( $(date +%s) - start )) s wall, load $(cut -d' ' -f1-3 /proc/loadavg)" >> "$OUT/summary.txt"
done
command -v gnuplot > /dev/null || { echo "gnuplot not found: no plots"; exit 0; }
for csv in "$OUT"/*.csv; do
  name=$(basename "$csv" .csv)
  [ "$name" = cross ] && continue
  methods=$(tail -n +2 "$csv" | cut -d, -f2 | awk '!seen[$0]++' | tr '\n' ' ')
  # the end-point panel only when some run has a positive finite end error
  endp=$(tail -n +2 "$csv" | awk -F, '$4 == 0 && $6 != "nan" && $6 + 0 > 0 { f = 1 } END { print f + 0 }')
  gnuplot -e "csv='$csv'; png='$OUT/$name.png'; ttl='$name: error vs CPU time'; methods='$methods'; endpanel=$endp" \
    benchmarks/plot_workprec.gp || echo "plot of $name failed"
done
echo "results in $OUT (summary.txt, *.csv, *.png)"
