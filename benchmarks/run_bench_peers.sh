#!/bin/sh
# run_bench_peers.sh BUILD_DIR [OUTDIR] [PART...] - issue 9: the Octave peer
# (ode45, ode15s) against mbdae (IDA+KLU, CVODE BDF/Adams, RK4) on the 10 x 10
# Baumgarte net over the stiffness sweep omega_n = 10 ... 1e4, and the model
# work-precision runs (rover, billiard, ravine, deploying net) of
# bench_peers_models. Results in benchmarks/RESULTS.md (peers, small models);
# every run in benchmarks/log/2026-11-23.md, "Peers and model work-precision".
#   PART: net (Octave + mbdae on the net), models (bench_peers_models),
#         slice (a ravine sweep slice: study I at J/m = 0.4 b^2, b = 2 m,
#         41 e x 51 speeds = 2,091 runs, per method and tolerance, against
#         CVODE Adams rtol 1e-12 -> OUTDIR/wp_ravine_slice.csv),
#         plots (gnuplot PNGs from the CSVs), ratios (speed of each mbdae
#         run against Octave ode45 at equal error -> OUTDIR/net_ratios.txt).
#         Default: all four.
# Needs: cmake --build BUILD_DIR --target bench_peers_net bench_peers_models;
#        octave-cli (Debian package octave) for the net part; gnuplot for plots.
# Environment: OMEGAS (default "10 100 1000 10000"), REPS (mbdae repeats of a
# run whose first CPU time is below 3 s, median taken; default 3),
# OCT_CPU (CPU-second cap per Octave run, default 180), MB_CPU (CPU cap per
# mbdae run, default 240). A run killed by its cap is a row with rc=124 and
# the cap as cpu_s ("did not finish in X CPU s"). Ladders (space-separated
# lists): RK4_STEPS (default "2e-5 1e-3 2.5e-4 1e-4"), IDA_TOLS ("1e-4 1e-6
# 1e-8"), ADAMS_TOLS ("1e-4 1e-6 1e-8"), BDF_TOLS ("1e-4 1e-6"), ODE45_TOLS
# ("1e-4 1e-6 1e-8"), ODE15S_TOLS ("1e-3 1e-6", run for omega_n 10 and 1e4
# only). Set a list to "none" to skip it.
B=${1:?usage: run_bench_peers.sh BUILD_DIR [OUTDIR] [PART...]}
D=${2:-/tmp/bench_peers}
shift; [ $# -gt 0 ] && shift
PARTS=${*:-net models slice plots ratios}
HERE=$(cd "$(dirname "$0")" && pwd)
case " $PARTS " in *" net "*)
  command -v octave-cli >/dev/null 2>&1 || {
    echo "run_bench_peers.sh: the net part needs octave-cli (apt-get install octave)," \
         "or leave 'net' out of PART" >&2; exit 2; } ;;
esac
NET=$B/benchmarks/bench_peers_net
MODELS=$B/benchmarks/bench_peers_models
OMEGAS=${OMEGAS:-10 100 1000 10000}
REPS=${REPS:-3}
OCT_CPU=${OCT_CPU:-180}
MB_CPU=${MB_CPU:-240}
N=10
T_END=0.7
DT=0.05
mkdir -p "$D"
CSV=$D/net_peers.csv
HDR="tool,solver,n,omega_n,tol,rc,cpu_s,wall_s,steps,fevals,jevals,factorizations,events,peak_rss_mb,err"

# median_run CSVFILE CMD... : run CMD (prints one CSV line) once; if its CPU
# time (field 7) is below 3 s, REPS times, and append the line with the
# median CPU time. A run killed by the CPU cap gets a DNF row.
median_run() {
  out=$1; shift
  tmp=$D/.runs.$$
  : > "$tmp"
  i=0
  while :; do
    line=$( (ulimit -t "$MB_CPU"; "$@") 2> "$D/.err.$$"); st=$?
    if [ -z "$line" ]; then
      echo "# failed ($st): $* : $(tail -1 "$D/.err.$$")" >> "$out"
      rm -f "$tmp"; return
    fi
    echo "$line" >> "$tmp"
    i=$((i + 1))
    cpu=$(echo "$line" | cut -d, -f7)
    awk -v c="$cpu" 'BEGIN { exit !(c < 3.0) }' || break
    [ $i -ge "$REPS" ] && break
  done
  sort -t, -k7,7g "$tmp" | awk -v n="$i" 'NR == int((n + 1) / 2)' >> "$out"
  cat "$tmp" | sed 's/^/# rep: /' >> "$out"
  rm -f "$tmp" "$D/.err.$$"
}

octave_run() { # solver omega rtol ref
  before=$(grep -c '^octave' "$CSV")
  ( ulimit -t "$OCT_CPU"
    cd "$HERE/octave" && octave-cli --no-gui -q --eval \
      "crash_dumps_octave_core (false); run_net('$1', $N, $2, $3, $T_END, $DT, '$CSV', '$4', '')" ) \
      > /dev/null 2> "$D/.oerr.$$"
  st=$?
  after=$(grep -c '^octave' "$CSV")
  if [ "$after" = "$before" ]; then
    echo "octave,$1,$N,$2,$3,124,$OCT_CPU,,,,,,,,nan" >> "$CSV"
    echo "# octave $1 omega $2 rtol $3: no result (exit $st, CPU cap $OCT_CPU s): $(grep -v ignoring "$D/.oerr.$$" | tail -1)" >> "$CSV"
  fi
  rm -f "$D/.oerr.$$"
}

part_net() {
  [ -f "$CSV" ] || echo "$HDR" > "$CSV"
  echo "# $(date -u) nproc=$(nproc) load: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$CSV"
  for w in $OMEGAS; do
    ref=$D/ref_rk4_$w.txt
    # reference: RK4 h = 1e-5 with located switches; its own uncertainty is
    # the RK4 h = 2e-5 row (error against it)
    [ -f "$ref" ] || (ulimit -t "$MB_CPU"; "$NET" $N "$w" rk4 1e-5 $T_END --save "$ref") \
      | sed 's/^/# reference: /' >> "$CSV"
    for h in ${RK4_STEPS:-2e-5 1e-3 2.5e-4 1e-4}; do
      [ "$h" = none ] || median_run "$CSV" "$NET" $N "$w" rk4 $h $T_END --ref "$ref"; done
    for r in ${IDA_TOLS:-1e-4 1e-6 1e-8}; do
      [ "$r" = none ] || median_run "$CSV" "$NET" $N "$w" ida $r $T_END --ref "$ref"; done
    for r in ${ADAMS_TOLS:-1e-4 1e-6 1e-8}; do
      [ "$r" = none ] || median_run "$CSV" "$NET" $N "$w" cvode-adams $r $T_END --ref "$ref"; done
    for r in ${BDF_TOLS:-1e-4 1e-6}; do
      [ "$r" = none ] || median_run "$CSV" "$NET" $N "$w" cvode-bdf $r $T_END --ref "$ref"; done
    if command -v octave-cli > /dev/null; then
      for r in ${ODE45_TOLS:-1e-4 1e-6 1e-8}; do [ "$r" = none ] || octave_run ode45 "$w" $r "$ref"; done
      case $w in 10|10000)
        for r in ${ODE15S_TOLS:-1e-3 1e-6}; do [ "$r" = none ] || octave_run ode15s "$w" $r "$ref"; done ;;
      esac
    fi
  done
}

# slice_run METHOD RTOL_OR_STEP: one sweep of the slice; prints the CPU
# seconds (user + sys of the whole mbdae process) and leaves runs.csv.
slice_run() {
  sd=$D/slice_$1_$2
  mkdir -p "$sd"
  if [ "$1" = rk4 ]; then tol="solver.rk4_step=$2"; else tol="solver.rtol=$2"; fi
  cat > "$sd/study.yaml" <<EOS
study: ravine_slice
description: slice of ravine_study_I (J/m = 0.4 b^2, b = 2 m) for issue 9
base: $HERE/../scenarios/ravine_shallow_valley.yaml
set:
  - solver.method=$1
  - $tol
  - solver.atol=$(awk -v r="$2" 'BEGIN { printf "%g", r * 1e-2 }')
  - solver.dt_out=300
vary:
  - key: parameters.J_ratio
    values: [0.4]
  - key: parameters.b
    values: [2]
  - key: parameters.e
    start: 0.6
    stop: 1.0
    step: 0.01
  - key: parameters.speed
    start: 2.0
    stop: 7.0
    step: 0.1
group_over: parameters.speed
outcomes:
  - name: crossed
  - name: max_height
output:
  dir: $sd/out
EOS
  /usr/bin/time -f "%U %S %e" -o "$sd/time" "$B/mbdae" sweep "$sd/study.yaml" --no-plots \
    --out "$sd/out" > "$sd/log" 2>&1
  echo "$?"
}

part_slice() {
  S=$D/wp_ravine_slice.csv
  echo "problem,method,tol,status,cpu_s,wall_s,runs,failed,crossed_diff,err_max_height" > "$S"
  echo "# $(date -u) nproc=$(nproc) load: $(cut -d' ' -f1-3 /proc/loadavg); reference cvode-adams rtol 1e-12; cpu = user+sys of the whole mbdae sweep process (median of 3 when < 3 s)" >> "$S"
  slice_run cvode-adams 1e-12 > /dev/null
  ref=$D/slice_cvode-adams_1e-12/out/runs.csv
  for mt in "cvode-adams 1e-6" "cvode-adams 1e-8" "cvode-adams 1e-10" "cvode-bdf 1e-6" \
            "cvode-bdf 1e-8" "cvode-bdf 1e-10" "rk4 1e-3"; do
    set -- $mt
    cpus=""
    for k in 1 2 3; do
      st=$(slice_run "$1" "$2")
      c=$(awk '{ print $1 + $2 }' "$D/slice_$1_$2/time"); wl=$(awk '{ print $3 }' "$D/slice_$1_$2/time")
      cpus="$cpus $c"
      awk -v c="$c" 'BEGIN { exit !(c < 3.0) }' || break
    done
    med=$(echo $cpus | tr ' ' '\n' | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
    awk -F, -v m="$1" -v t="$2" -v st="$st" -v c="$med" -v w="$wl" '
      FNR == 1 { next }
      NR == FNR { rc[$1] = $7; rh[$1] = $8; next }
      { n++; if ($6 != "stopped" && $6 != "ok") f++
        if ($7 != rc[$1]) d++
        e = $8 - rh[$1]; if (e < 0) e = -e; if (e > em) em = e }
      END { printf "ravine_slice,%s,%s,%s,%s,%s,%d,%d,%d,%.4e\n", m, t, st, c, w, n, f, d, em }' \
      "$ref" "$D/slice_$1_$2/out/runs.csv" >> "$S"
  done
  cat "$S"
}

part_models() {
  "$MODELS" "$D" > "$D/models.log" 2>&1
}

# plot CSV PNG TITLE FILTER KEYCOLS XCOL YCOL OKCOL TOLCOL: error (YCOL) vs
# CPU (XCOL), log-log, one line per distinct KEYCOLS (cut -f list) joining
# its points in the order of the tolerance/step TOLCOL, from the non-comment
# rows with OKCOL == 0, a positive error and the awk FILTER.
plot() {
  csv=$1; png=$2; title=$3; filt=$4; keys=$5; xc=$6; yc=$7; okc=$8; tc=$9
  dat=$D/.plot.$$
  grep -v '^#' "$csv" | awk -F, "NR > 1 && \$$okc == 0 && \$$yc + 0 > 0 && ($filt)" > "$dat"
  cmd="set terminal pngcairo size 900,650; set output '$png'; set logscale xy;"
  cmd="$cmd set xlabel 'CPU time [s] (median)'; set ylabel 'error'; set key outside right;"
  cmd="$cmd set title '$title' noenhanced; set datafile separator ','; set grid; set format y '%.0e';"
  p="plot"
  for s in $(cut -d, -f"$keys" "$dat" | sort -u); do
    f="$dat.$(echo "$s" | tr ',' '_')"
    awk -F, -v k="$s" -v kc="$keys" 'BEGIN { n = split(kc, c, ",") }
      { v = $c[1]; for (i = 2; i <= n; ++i) v = v "," $c[i]; if (v == k) print }' "$dat" |
      sort -t, -k"$tc,$tc"g > "$f"
    p="$p '$f' using $xc:$yc with linespoints title '$(echo "$s" | tr ',' ' ')' noenhanced,"
  done
  [ "$p" = "plot" ] || gnuplot -e "$cmd ${p%,}"
  rm -f "$dat" "$dat".*
}

part_plots() {
  if [ -f "$CSV" ]; then
    for w in $OMEGAS; do
      plot "$CSV" "$D/net_peers_w$w.png" \
        "10 x 10 Baumgarte net, omega_n = $w, t = 0..0.7 s: max |r - r_ref| / L" "\$4 == $w" 1,2 7 15 6 5
    done
  fi
  [ -f "$D/wp_ravine_slice.csv" ] && plot "$D/wp_ravine_slice.csv" "$D/wp_ravine_slice.png" \
    "ravine sweep slice (2,091 runs): max |max_height - ref| [m]" 1 2 5 10 4 3
  for f in "$D"/wp_*.csv; do
    [ "$f" = "$D/wp_ravine_slice.csv" ] && continue
    [ -f "$f" ] || continue
    plot "$f" "${f%.csv}.png" "$(basename "${f%.csv}"): err_max on the output grid" 1 2 10 7 4 3
  done
}

# ratios: for each successful mbdae run (error e, CPU c) of each omega_n, the
# CPU time Octave ode45 needs for the same error e, interpolated log-log
# between the two ode45 runs that bracket e; when e is below every ode45
# error, the CPU of ode45's most accurate run is used and the ratio is a
# lower bound (">="); when above every ode45 error, an upper bound ("<=").
part_ratios() {
  grep -v '^#' "$CSV" | awk -F, '
    NR > 1 && $6 == 0 && $15 + 0 > 0 {
      if ($1 == "octave" && $2 == "ode45") { k = $4; n45[k]++; e45[k, n45[k]] = $15; c45[k, n45[k]] = $7 }
      else if ($1 == "mbdae") { nm++; mw[nm] = $4; ms[nm] = $2; mt[nm] = $5; me[nm] = $15; mc[nm] = $7 }
    }
    END {
      printf "%-8s %-12s %-8s %-11s %-9s %-12s %s\n", "omega_n", "method", "tol", "error", "cpu_s", "ode45_cpu_s", "ode45/mbdae"
      for (i = 1; i <= nm; ++i) {
        k = mw[i]; e = me[i]; best = -1; bestc = 0; worst = -1; worstc = 0; c = -1
        for (a = 1; a <= n45[k]; ++a) {
          if (best < 0 || e45[k, a] < best) { best = e45[k, a]; bestc = c45[k, a] }
          if (worst < 0 || e45[k, a] > worst) { worst = e45[k, a]; worstc = c45[k, a] }
          for (b = 1; b <= n45[k]; ++b)
            if (e45[k, a] >= e && e45[k, b] <= e && e45[k, a] > e45[k, b]) {
              f = (log(e45[k, a]) - log(e)) / (log(e45[k, a]) - log(e45[k, b]))
              cc = exp(log(c45[k, a]) + f * (log(c45[k, b]) - log(c45[k, a])))
              if (c < 0 || cc < c) c = cc
            }
        }
        if (n45[k] == 0) continue
        q = ""
        if (c < 0 && e < best) { c = bestc; q = ">=" }
        else if (c < 0) { c = worstc; q = "<=" }
        printf "%-8s %-12s %-8s %-11.3e %-9.4g %-12.4g %s%.3g\n", k, ms[i], mt[i], e, mc[i], c, q, c / mc[i]
      }
    }' > "$D/net_ratios.txt"
  cat "$D/net_ratios.txt"
}

for part in $PARTS; do
  case $part in
  net) part_net ;;
  models) part_models ;;
  slice) part_slice ;;
  plots) part_plots ;;
  ratios) part_ratios ;;
  esac
done
