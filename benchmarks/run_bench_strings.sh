#!/bin/sh
# run_bench_strings.sh BENCH_BINARY [OUTDIR] [PART...] - the string-network
# benchmark protocol of benchmarks/RESULTS.md ("String networks").
# PART: chain, spin, deploy, orderings (default: all). For each size a
# reference run is saved, IDA+KLU runs at rtol 1e-6, and RK4 runs on a step
# ladder (halving from 4 ms) until its end-point error
# max_k |r_k - r_k,ref| / L is at most IDA's. A reference already in OUTDIR
# is reused.
#   chain:  spinning chain, all strings taut (no events); reference IDA rtol 1e-10.
#   spin:   n x n net spinning flat, all strings taut (no events); IDA with
#           AMD, COLAMD and METIS (the nested-dissection floor); reference
#           IDA rtol 1e-10 up to n = 50.
#   deploy: n x n net deploying from one point, Baumgarte strings switching
#           on and off (events); reference RK4 h = 0.125 ms with located
#           switches.
B=${1:?usage: run_bench_strings.sh path/to/bench_strings [outdir] [part...]}
D=${2:-/tmp/bench_strings}
shift; [ $# -gt 0 ] && shift
PARTS=${*:-chain spin deploy orderings}
mkdir -p "$D"
ladder() { # kind size t_end reference-method reference-tol [ida-ordering]
  [ -f "$D/$1$2.ref" ] ||
    "$B" "$1" "$2" "$4" amd "$3" "$5" --save "$D/$1$2.ref" > /dev/null || return
  line=$("$B" "$1" "$2" ida "${6:-amd}" "$3" 1e-6 --ref "$D/$1$2.ref"); echo "$line"
  target=$(echo "$line" | sed 's/.*end_err=\([^ ]*\).*/\1/')
  for h in 4e-3 2e-3 1e-3 5e-4 2.5e-4 1.25e-4 6.25e-5; do
    line=$("$B" "$1" "$2" rk4 amd "$3" $h --ref "$D/$1$2.ref"); echo "$line"
    err=$(echo "$line" | sed 's/.*end_err=\([^ ]*\).*/\1/')
    awk -v e="$err" -v t="$target" 'BEGIN { exit !(e == e + 0 && e <= t) }' && break
  done
}
for part in $PARTS; do
  case $part in
  chain) for N in 250 500 1000 2000 4000 8000; do ladder chain $N 0.5 ida 1e-10; done ;;
  spin)
    for n in 10 20 30 50; do ladder spin $n 0.5 ida 1e-10 metis; done
    for n in 10 20 30 50 70 100; do
      for o in amd colamd metis; do "$B" spin $n ida $o 0.5 1e-6; done
    done ;;
  deploy)
    for n in 10 20 30; do ladder net $n 0.7 rk4 1.25e-4 metis; done
    for n in 10 20; do "$B" net $n ida amd 0.7 1e-6 --ref "$D/net$n.ref"; done ;;
  orderings)
    for o in amd colamd metis; do "$B" chain 8000 ida $o 0.5 1e-6; done
    for o in amd colamd metis; do "$B" net 20 ida $o 0.7 1e-6; done ;;
  esac
done
