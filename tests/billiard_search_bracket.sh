#!/usr/bin/env bash
# billiard_search_bracket.sh BENCH - the search of bench_billiard_search
# verifies its bracket (issue: at amplitude 25.4 mm it returned e = 0.30000
# for both frictionless cases, taking [0.30, 0.32] as a bracket without
# evaluating 0.30, where the orbit is already locked above the 7.5 cm
# target). Every line must give an e whose lower end was evaluated and found
# not above the target ("locked lower" or "not locked"), or say "no
# bracket"; the frictionless e must lie below 0.30. Short runs (N = 300).
# Registered with ctest as billiard_search_bracket (tests/CMakeLists.txt).
set -u
out=$("$1" 300 25.4) || { echo "bench_billiard_search failed"; exit 1; }
echo "$out"
echo "$out" | awk '
  /^#/ { next }
  { n++ }
  /no bracket/ { next }
  {
    e = $4; h = $5; fr = $2
    if ($0 !~ /\[[0-9.]+: (locked lower|not locked)\]$/) { print "FAIL: lower end not checked: " $0; bad++ }
    if (h < 0.075 - 1e-6) { print "FAIL: h below the target at e: " $0; bad++ }
    if (fr == 0 && e >= 0.30) { print "FAIL: frictionless e not below 0.30: " $0; bad++ }
  }
  END { if (n != 4) { print "FAIL: " n " result lines, 4 expected"; bad++ } exit bad > 0 }'
