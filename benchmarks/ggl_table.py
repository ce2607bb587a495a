#!/usr/bin/python3
"""ggl_table.py - tables of benchmarks/run_bench_ggl.sh: the error of every run
against the reference run (max over the output grid and points of |r_k - r_k,ref|,
m) and the headline rows (RK4 at equal accuracy as the baseline).

    /usr/bin/python3 benchmarks/ggl_table.py OUT_DIR COMMIT DATE

Writes benchmarks/results/ggl/runs.csv (every run, with its error) and
benchmarks/results/headline/ggl.csv. Debian's python3 standard library only."""
import csv
import math
import sys

HEAD = ("question,problem,size,t_end_s,method,settings,accuracy_metric,accuracy,cpu_s,"
        "baseline_method,speedup_vs_baseline,command,date,commit").split(",")


def positions(path):
    with open(path) as f:
        rows = list(csv.reader(f))
    head = rows[0]
    cols = [i for i, h in enumerate(head) if h.split(" ")[0][:2] in ("x_", "y_", "z_")]
    out = {}
    for r in rows[1:]:
        out[round(float(r[0]), 9)] = [float(r[i]) for i in cols]
    return out


def error(run, ref):
    worst = 0.0
    for t, q in ref.items():
        if t not in run:
            return math.nan
        p = run[t]
        for k in range(0, len(q), 3):
            d = math.sqrt(sum((p[k + a] - q[k + a]) ** 2 for a in range(3)))
            worst = max(worst, d)
    return worst


def main():
    out, commit, date = sys.argv[1], sys.argv[2], sys.argv[3]
    with open(out + "/runs.csv") as f:
        runs = list(csv.DictReader(f))
    ref = positions(next(r for r in runs if r["label"] == "ref")["dir"] + "/series.csv")
    for r in runs:
        r["err_m"] = ""
        if r["label"] != "ref" and r["status"] == "ok":
            r["err_m"] = "%.3e" % error(positions(r["dir"] + "/series.csv"), ref)
    keys = ["label", "scenario", "method", "tol", "status", "cpu_s", "steps", "lin_setups",
            "newton_fails", "err_test_fails", "mean_order", "order1_share", "err_m"]
    with open("benchmarks/results/ggl/runs.csv", "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(keys)
        for r in runs:
            w.writerow([r[k] for k in keys])
    rk4 = [r for r in runs if r["label"].startswith("rk4") and r["err_m"]]
    cmd = ("benchmarks/run_bench_ggl.sh build OUT && /usr/bin/python3 "
           "benchmarks/ggl_table.py OUT COMMIT DATE")
    q = "Do exact strings in the GGL form escape IDA's order-1 trap, and beat RK4?"
    rows = []
    for r in runs:
        if r["label"] == "ref":
            continue
        base, speed = "", ""
        e = float(r["err_m"]) if r["err_m"] else math.nan
        if not r["label"].startswith("rk4") and r["err_m"]:
            ok = [b for b in rk4 if float(b["err_m"]) <= e]
            if ok:
                b = min(ok, key=lambda b: float(b["cpu_s"]))
                base = "%s h %s" % (b["label"], b["tol"])
                speed = "%.2f" % (float(b["cpu_s"]) / float(r["cpu_s"]))
        if r["method"] == "h":
            settings = "h %s" % r["tol"]
        else:
            settings = "rtol %s, atol 1e-3 rtol, KLU METIS" % r["tol"]
        if r["status"] != "ok":
            settings += " (%s at %s CPU s)" % (r["status"], r["cpu_s"])
        elif r["method"] != "h":
            settings += "; mean order %s, %s steps, %s factorizations" % (
                r["mean_order"], r["steps"], r["lin_setups"])
        rows.append([q, "spinning net xi 0.5 omega_n 1e4 (%s)" % r["scenario"], "21x21", "0.2",
                     r["label"], settings, "max grid |r - r_ref| (m)", r["err_m"], r["cpu_s"],
                     base, speed, cmd, date, commit])
    with open("benchmarks/results/headline/ggl.csv", "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(HEAD)
        w.writerows(rows)
    for r in runs:
        print(",".join(r[k] for k in keys))


if __name__ == "__main__":
    main()
