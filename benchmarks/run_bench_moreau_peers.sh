#!/bin/bash
# Event capturing against the Siconos peer (/work/shared/peers/siconos): the same
# problems, h, theta and activation rule, run in turn (Siconos, then mbdae) REPEATS
# times each; one JSON line per run with the stepping loop's CPU time (cpu_s).
#   benchmarks/run_bench_moreau_peers.sh [REPEATS] [OUT.jsonl]     (defaults 3, results)
# then: /usr/bin/python3 benchmarks/moreau_peers_table.py OUT.jsonl
# Needs python3-siconos (Debian) and `cmake --build build --target bench_moreau_peers`.
set -u
cd "$(dirname "$0")/.."
REP=${1:-3}
OUT=${2:-benchmarks/results/moreau_peers/runs.jsonl}
PEER=${SICONOS_PEER:-/work/shared/peers/siconos}
PY=/usr/bin/python3
BENCH=${BENCH:-build/benchmarks/bench_moreau_peers}
[ -x "$BENCH" ] || { echo "build $BENCH first" >&2; exit 2; }
[ -d "$PEER" ] || { echo "no Siconos peer at $PEER" >&2; exit 2; }
sico() { (cd "$PEER" && nice -n 5 "$PY" "$@" --mute-cout | tail -1) >> "$OUT"; }
ours() { nice -n 5 "$BENCH" "$@" >> "$OUT"; }
for r in $(seq "$REP"); do
  for h in 1e-3 1e-4; do
    echo "$(date +%T) rep $r bola h=$h" >&2
    sico bola_siconos.py $h 0.5 3 --solver lemke; ours bola $h 0.5 3
  done
  for n in 10 20 30; do for h in 1e-3 1e-4; do for e in 0 0.15; do
    echo "$(date +%T) rep $r net n=$n h=$h e=$e" >&2
    sico net_siconos.py $n $h 0.7 $e 0.5 --solver nsgs
    if [ "$n" -le 20 ] && [ "$e" = 0 ]; then
      sico net_siconos.py $n $h 0.7 $e 0.5 --solver lemke
    fi
    ours net $n $h 0.7 $e 0.5
  done; done; done
done
