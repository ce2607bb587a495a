#!/bin/bash
# Event-driven against event capturing on a family whose number of events
# grows: the net capture of scenarios/capture_demo.yaml scaled to n x n
# (bench_capture: same 4.05 m square and 1 kg net for every n, so a larger n
# means more strings and points meeting the prism, more located events per
# simulated second). 3 s, the demo's span. Methods, each REPEATS times in turn:
#   moreau h 1 ms (the demo's step) and h 0.1 ms (moreau's tighter run);
#   event-driven under the same contact law as moreau (release_held: an
#   impact may release held strings and contacts, the complementarity moreau
#   solves; bench_capture --release-held): cvode-adams rtol 1e-7 and rtol
#   1e-9 (the tighter reference), rk4 h 1 ms.
# With LAW=default the event-driven runs use the demo's own law instead
# (release_held: false, held rows stay bilateral through an impact, which
# moreau does not model): cvode-adams 1e-7 and 1e-9, rk4 1 ms.
# IDA is left out: on the capture it is 48x slower than RK4 (sections/capture.md).
# One CSV line per run (fields from bench_capture's summary line; cpu_s = its
# cpu/sim_s x 3 s, 4 digits, the CPU of mbdae_run alone):
#   n,method,tol,rep,rc,cpu_s,steps,events,impacts,taut,contacts,E_end,max_violation
#   [LAW=default] benchmarks/run_bench_moreau_crossover.sh [REPEATS] [OUT.csv] [N...]
# (defaults 3, benchmarks/results/moreau_crossover/runs.csv (LAW=default:
# runs_default_law.csv), 2 3 5 6 7; n = 4 and 8 are left out: moreau stops
# there at t = 1.029 s, see sections/moreau_crossover.md)
# Needs `cmake --build build --target bench_capture`.
set -u
cd "$(dirname "$0")/.."
REP=${1:-3}
LAW=${LAW:-release_held}
if [ "$LAW" = default ]; then HELD=; DEF=runs_default_law.csv; else HELD=--release-held; DEF=runs.csv; fi
OUT=${2:-benchmarks/results/moreau_crossover/$DEF}
if [ $# -ge 2 ]; then shift 2; else shift $#; fi
NS=${*:-2 3 5 6 7}
BENCH=${BENCH:-build/benchmarks/bench_capture}
[ -x "$BENCH" ] || { echo "build $BENCH first" >&2; exit 2; }
mkdir -p "$(dirname "$OUT")"
[ -s "$OUT" ] || echo "n,method,tol,rep,rc,cpu_s,steps,events,impacts,taut,contacts,E_end,max_violation" > "$OUT"
one() { # n method tol rep [bench_capture flags]
  nice -n 5 "$BENCH" "$1" "$2" 3 "$3" ${5:-} 2>/dev/null | tail -1 | awk -v n="$1" -v m="$2" -v tol="$3" -v r="$4" '
    { for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] } }
    END { OFS = ","; print n, m, tol, r, f["rc"], f["cpu/sim_s"] * 3, f["steps"], f["events"],
          f["impacts"], f["taut"], f["contacts"], f["E_end"], f["max_violation"] }' >> "$OUT"
}
for r in $(seq "$REP"); do
  for n in $NS; do
    echo "$(date +%T) rep $r n=$n" >&2
    one "$n" moreau 1e-3 "$r"
    one "$n" moreau 1e-4 "$r"
    one "$n" cvode-adams 1e-7 "$r" $HELD
    one "$n" cvode-adams 1e-9 "$r" $HELD
    one "$n" rk4 1e-3 "$r" $HELD
  done
done
