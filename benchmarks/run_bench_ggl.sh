#!/bin/sh
# run_bench_ggl.sh - exact taut strings in the GGL form (formulation: ggl, IDA)
# against stiff Baumgarte strings (IDA, RK4) and exact strings under RK4 on the
# bench_workprec `netxi` net: 21 x 21 spinning grid (1 m wide, 1 kg, 2 rad/s,
# 0.2 m/s out-of-plane bump), t = 0 ... 0.2 s, Baumgarte xi 0.5, omega_n 1e4,
# release_band 1e-3. Every string stays taut, so the Baumgarte solution IS the
# exact-string solution (phi = phi' = 0 at t0); the reference is CVODE Adams
# at rtol 1e-11 on the exact strings (ODE form, another method than the ones
# measured). Error: max over the output grid (every 0.02 s) and points of
# |r_k - r_k,ref| (m). CPU: user + system of the whole `mbdae run` (model
# set-up and output included), median of REPEATS runs; a run is stopped after
# CAP CPU seconds (ulimit -t; reported as "capped").
#   usage: benchmarks/run_bench_ggl.sh BUILD_DIR OUT_DIR   (from the source root)
#   env:   REPEATS (3), CAP (60), RTOLS ("1e-4 1e-5 1e-6 1e-7 1e-8")
# Writes OUT_DIR/runs.csv; benchmarks/ggl_table.py makes the tables from it.
set -eu
BUILD=${1:?build dir}
OUT=${2:?out dir}
REPEATS=${REPEATS:-3}
CAP=${CAP:-60}
RTOLS=${RTOLS:-"1e-4 1e-5 1e-6 1e-7 1e-8"}
MBDAE="$BUILD/mbdae"
mkdir -p "$OUT"
n=21
L=$(awk "BEGIN{printf \"%.17g\", 1/($n-1)}")
m=$(awk "BEGIN{printf \"%.17g\", 1/($n*$n)}")
base() { # $1: parameters block tail
  cat <<YAML
model: string_net
solver: {method: ida, linear_solver: klu, ordering: metis, t0: 0.0, t_end: 0.2, dt_out: 0.02,
         rtol: 1.0e-6, atol: 1.0e-9}
parameters:
  topology: spinning_grid
  grid_n: $n
  grid_m: $n
  length: $L
  grid_mass: $m
  corner_mass: $m
  grid_spin: 2.0
  grid_wave: 0.2
  max_output_columns: 100000
$1
YAML
}
base "  mode: event
  formulation: ggl" > "$OUT/net_ggl.yaml"
base "  mode: event" > "$OUT/net_exact.yaml"
base "  mode: baumgarte
  xi: 0.5
  omega_n: 1.0e4
  release_band: 1.0e-3" > "$OUT/net_baumgarte.yaml"
echo "label,scenario,method,tol,status,cpu_s,steps,lin_setups,newton_fails,err_test_fails,mean_order,order1_share,dir" > "$OUT/runs.csv"
# one measured run: label scenario tol-kind tol extra-sets...
run() {
  label=$1; scen=$2; kind=$3; tol=$4; shift 4
  if [ "$kind" = h ]; then sets="--set solver.method=rk4 --set solver.rk4_step=$tol"
  else
    atol=$(awk "BEGIN{printf \"%.3g\", $tol*1e-3}")
    sets="--set solver.rtol=$tol --set solver.atol=$atol"
  fi
  cpus=""
  for r in $(seq 1 "$REPEATS"); do
    d="$OUT/run_${label}_$tol"
    rm -rf "$d"
    t0=$(awk '{print $14+$15+$16+$17}' /proc/$$/stat)
    st=ok
    ( ulimit -t "$CAP"; exec "$MBDAE" run "$OUT/$scen.yaml" --out "$d" --quiet --no-plots $sets "$@" ) \
      > /dev/null 2> "$OUT/err_${label}_$tol.txt" || st=failed
    t1=$(awk '{print $14+$15+$16+$17}' /proc/$$/stat)
    cpu=$(awk "BEGIN{printf \"%.3f\", ($t1-$t0)/$(getconf CLK_TCK)}")
    [ -f "$d/summary.json" ] || st=capped
    cpus="$cpus $cpu"
    [ "$st" = ok ] || break
    # a run longer than 10 s is not repeated
    awk "BEGIN{exit !($cpu > 10)}" && break
  done
  med=$(echo $cpus | tr ' ' '\n' | sort -g | awk '{a[NR]=$1} END{print (NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2}')
  stats=$(/usr/bin/python3 - "$d/summary.json" <<'PY'
import json, sys
try:
    s = json.load(open(sys.argv[1]))["stats"]
    n = sum(s["steps_by_order"])
    print("%d,%d,%d,%d,%.3f,%.4f" % (s["steps"], s["lin_setups"], s["newton_fails"],
          s["err_test_fails"], s["mean_order"], s["steps_by_order"][0] / n if n else 0))
except Exception:
    print(",,,,,")
PY
)
  echo "$label,$scen,$kind,$tol,$st,$med,$stats,$d" >> "$OUT/runs.csv"
  echo "$label $tol: $st cpu $med s ($cpus) $stats"
}
# reference: CVODE Adams, exact strings (ODE form)
run ref net_exact rtol 1e-11 --set solver.method=cvode-adams --set solver.atol=1e-14
for r in $RTOLS; do run ida-ggl net_ggl rtol "$r"; done
for r in $RTOLS; do run ida-baumgarte net_baumgarte rtol "$r"; done
for r in $RTOLS; do run ida-index1-exact net_exact rtol "$r"; done
for h in 2e-4 1e-4 5e-5 2.5e-5; do run rk4-baumgarte net_baumgarte h "$h"; done
for h in 4e-3 2e-3 1e-3 5e-4 2.5e-4; do run rk4-exact net_exact h "$h"; done
