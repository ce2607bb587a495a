#!/bin/sh
# run_bench_strings.sh BENCH_BINARY [OUTDIR] - the string-network benchmark
# protocol of benchmarks/RESULTS.md ("String networks"): for each size a
# reference run (IDA rtol 1e-10) is saved, IDA+KLU runs at rtol 1e-6, and RK4
# runs on a step ladder (halving from 4 ms) until its end-point error
# max_k |r_k - r_k,ref| / L is at most IDA's; then the KLU orderings.
B=${1:?usage: run_bench_strings.sh path/to/bench_strings [outdir]}
D=${2:-/tmp/bench_strings}
mkdir -p "$D"
ladder() { # kind size t_end
  "$B" "$1" "$2" ida amd "$3" 1e-10 --save "$D/$1$2.ref" > /dev/null || return
  line=$("$B" "$1" "$2" ida amd "$3" 1e-6 --ref "$D/$1$2.ref"); echo "$line"
  target=$(echo "$line" | sed 's/.*end_err=\([^ ]*\).*/\1/')
  for h in 4e-3 2e-3 1e-3 5e-4 2.5e-4 1.25e-4 6.25e-5; do
    line=$("$B" "$1" "$2" rk4 amd "$3" $h --ref "$D/$1$2.ref"); echo "$line"
    err=$(echo "$line" | sed 's/.*end_err=\([^ ]*\).*/\1/')
    awk -v e="$err" -v t="$target" 'BEGIN { exit !(e == e + 0 && e <= t) }' && break
  done
}
for N in 250 500 1000 2000 4000 8000; do ladder chain $N 0.5; done
for n in 10 20 30; do ladder net $n 0.7; done
for o in amd colamd metis; do "$B" chain 8000 ida $o 0.5 1e-6; done
for o in amd colamd metis; do "$B" net 20 ida $o 0.7 1e-6; done
