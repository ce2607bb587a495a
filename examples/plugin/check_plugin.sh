#!/bin/sh
# check_plugin.sh MBDAE PLUGIN SCENARIO OUTDIR - the plug-in model kind
# through the `mbdae` command, as a user would drive it
# (doc/first-model-kind.md): listed with its schema, run, refused with the
# file:line of a bad value, swept, checkpointed, interrupted and resumed.
set -u
MBDAE=$1 PLUGIN=$2 OUT=$4
SCENARIO=$(cd "$(dirname "$3")" && pwd)/$(basename "$3") # the study names it
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$OUT" && mkdir -p "$OUT" || fail "cannot create $OUT"

# without the plug-in the kind is unknown (and named as such)
"$MBDAE" run "$SCENARIO" --out "$OUT/none" --quiet 2>"$OUT/none.err"
[ $? -eq 2 ] || fail "run without the plug-in: exit $? (want 2)"
grep -q "unknown model kind 'double_pendulum_wall'" "$OUT/none.err" || fail "no 'unknown model kind'"

# listed, with its schema
"$MBDAE" --plugin "$PLUGIN" list >"$OUT/list.txt" || fail "list"
grep -q "^  double_pendulum_wall " "$OUT/list.txt" || fail "kind not listed"
"$MBDAE" list --plugin "$PLUGIN" --params double_pendulum_wall >"$OUT/params.txt" || fail "list --params"
grep -q "restitution" "$OUT/params.txt" || fail "schema not listed"

# a run writes what a built-in kind's run writes
"$MBDAE" run --plugin "$PLUGIN" "$SCENARIO" --out "$OUT/run" --quiet --format both || fail "run"
for f in series.csv events.csv summary.json results.mat animation.pvd; do
  [ -s "$OUT/run/$f" ] || fail "run wrote no $f"
done
grep -q '"status": "ok"' "$OUT/run/summary.json" || fail "summary status"
grep -q '"impacts"' "$OUT/run/summary.json" || fail "summary outcomes"
[ "$(grep -c ',impact,' "$OUT/run/events.csv")" -ge 3 ] || fail "fewer than 3 impacts"
ls "$OUT/run/vtk" | grep -q 'frame_000000' || fail "no VTK frames"

# a bad value: exit 2, FILE:LINE: key, nothing written
"$MBDAE" run --plugin "$PLUGIN" "$SCENARIO" --out "$OUT/bad" --set parameters.wall=2 2>"$OUT/bad.err"
[ $? -eq 2 ] || fail "bad wall: exit $? (want 2)"
grep -q "double_pendulum_wall.yaml: --set parameters.wall=2: key 'parameters.wall': the wall" \
  "$OUT/bad.err" || fail "bad wall message: $(cat "$OUT/bad.err")"
[ ! -e "$OUT/bad" ] || fail "a rejected run wrote $OUT/bad"

# a sweep over the restitution: fewer impacts never take more energy
cat >"$OUT/study.yaml" <<STUDY
study: restitution
description: "restitution sweep of the plug-in kind"
base: $SCENARIO
vary:
  - key: parameters.e
    values: [0.5, 0.8, 1.0]
outcomes:
  - name: impacts
  - name: energy_lost
STUDY
"$MBDAE" sweep --plugin "$PLUGIN" "$OUT/study.yaml" --out "$OUT/sweep" --no-plots >/dev/null \
  || fail "sweep"
[ "$(grep -c . "$OUT/sweep/runs.csv")" -eq 4 ] || fail "sweep: want 3 runs: $(cat "$OUT/sweep/runs.csv")"
# e = 1 takes no energy (round-off of a 10 J energy)
awk -F, 'NR == 4 { exit !($3 == "ok" && $5 < 1e-9 && $5 > -1e-9) }' "$OUT/sweep/runs.csv" \
  || fail "sweep: e = 1 lost energy: $(tail -n 1 "$OUT/sweep/runs.csv")"

# checkpoints: interrupted (SIGTERM) after the first checkpoint, resumed
"$MBDAE" run --plugin "$PLUGIN" "$SCENARIO" --out "$OUT/ckpt" --quiet --no-plots \
  --set solver.t_end=100 --set solver.dt_out=0.05 --checkpoint-every 1 &
pid=$!
i=0
while [ ! -e "$OUT/ckpt/checkpoint.bin" ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done
kill -TERM $pid 2>/dev/null
wait $pid
rc=$?
[ $rc -eq 143 ] || fail "interrupted run: exit $rc (want 143; the run ended before the signal?)"
grep -q '"status": "interrupted"' "$OUT/ckpt/summary.json" || fail "not interrupted"
"$MBDAE" resume "$OUT/ckpt" --quiet 2>"$OUT/resume.err"
[ $? -ne 0 ] || fail "resume without the plug-in succeeded"
grep -q "double_pendulum_wall" "$OUT/resume.err" || fail "resume error: $(cat "$OUT/resume.err")"
"$MBDAE" resume --plugin "$PLUGIN" "$OUT/ckpt" --quiet || fail "resume"
grep -q '"status": "ok"' "$OUT/ckpt/summary.json" || fail "resumed run not ok"
[ ! -e "$OUT/ckpt/checkpoint.bin" ] || fail "checkpoint left after the resumed run finished"
echo "plug-in through the command: all checks passed"
