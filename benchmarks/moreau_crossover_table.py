#!/usr/bin/python3
"""moreau_crossover_table.py - summarise benchmarks/run_bench_moreau_crossover.sh.

    /usr/bin/python3 benchmarks/moreau_crossover_table.py [RUNS.csv]

Groups the runs by (n, method, tol); per group: the median and the spread of
the CPU seconds over the repeats, the end statistics (identical across
repeats: the runs are deterministic; a difference is reported), located
events per simulated second (3 s runs). Writes medians*.csv next to
runs*.csv (runs_default_law.csv -> medians_default_law.csv) and prints a
markdown table.
A group whose runs did not all end with rc 0 is reported as failed.
"""
import csv
import os
import statistics
import sys

T_END = 3.0


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    runs = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        here, "results", "moreau_crossover", "runs.csv")
    groups = {}
    for r in csv.DictReader(open(runs)):
        groups.setdefault((int(r["n"]), r["method"], float(r["tol"])), []).append(r)
    rows = []
    for (n, m, tol), g in sorted(groups.items()):
        ok = all(r["rc"] == "0" for r in g)
        cpu = [float(r["cpu_s"]) for r in g]
        ends = {(r["taut"], r["contacts"], r["E_end"]) for r in g}
        r0 = g[0]
        rows.append({
            "n": n, "method": m, "tol": f"{tol:g}", "runs": len(g), "ok": int(ok),
            "cpu_median": statistics.median(cpu), "cpu_min": min(cpu), "cpu_max": max(cpu),
            "events_per_sim_s": int(r0["events"] or 0) / T_END if m != "moreau" else 0.0,
            "impacts": r0["impacts"], "steps": r0["steps"], "taut": r0["taut"],
            "contacts": r0["contacts"], "E_end": r0["E_end"],
            "max_violation": r0["max_violation"], "deterministic": int(len(ends) == 1)})
    base = os.path.basename(runs)
    out = os.path.join(os.path.dirname(runs), base.replace("runs", "medians", 1)
                       if base.startswith("runs") else "medians_" + base)
    with open(out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    print("| n | method | tol | CPU s median (min-max) | events/sim s | impacts | taut | "
          "contacts | E_end J | ok |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['n']} | {r['method']} | {r['tol']} | {r['cpu_median']:.4g} "
              f"({r['cpu_min']:.3g}-{r['cpu_max']:.3g}) | {r['events_per_sim_s']:.0f} | "
              f"{r['impacts']} | {r['taut']} | {r['contacts']} | {r['E_end']} | "
              f"{'yes' if r['ok'] else 'FAILED'} |")


if __name__ == "__main__":
    main()
