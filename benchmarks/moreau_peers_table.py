#!/usr/bin/python3
"""moreau_peers_table.py - summarise benchmarks/run_bench_moreau_peers.sh runs.

    /usr/bin/python3 benchmarks/moreau_peers_table.py RUNS.jsonl

Groups the JSON lines by problem (bola / net n, h, e) and code (mbdae moreau,
Siconos with each LCP solver), takes the minimum and the median of the loop CPU
times over the repeats, writes every configuration (both codes, metrics) to
  benchmarks/results/moreau_peers/table.csv
and prints it as a markdown table. The Siconos baseline of a configuration is
its fastest solver (smallest median); speedup = baseline median / mbdae median.
The headline rows of this comparison live in benchmarks/results/headline/
peers.csv (the peers' topic, read by scripts/results_pages.py); update them
from this table, then regenerate the pages.
"""
import argparse
import csv
import json
import os
import statistics
import sys


def key(d):
    if d["problem"] == "bola":
        return ("bola", 2, d["h"], 0.15, d["t_end"])
    return ("net", int(d["n"]), d["h"], float(d["e"]), d["t_end"])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("runs")
    ap.add_argument("--root", default=os.path.join(os.path.dirname(__file__), "results"))
    a = ap.parse_args()
    groups = {}
    for ln, line in enumerate(open(a.runs), 1):
        line = line.strip()
        if not line:
            continue
        try:
            d = json.loads(line)
        except json.JSONDecodeError as e:
            sys.exit(f"{a.runs}:{ln}: not JSON ({e})")
        if d.get("status", 0) not in (0, None):
            continue
        code = "mbdae" if d["code"].startswith("mbdae") else "siconos-" + d.get("solver", "?")
        groups.setdefault(key(d), {}).setdefault(code, []).append(d)
    rows = []
    print("| problem | h | e | mbdae CPU s (min / median) | Siconos best (min / median) | "
          "speedup (medians) | runs | accuracy mbdae / Siconos |")
    print("|---|---|---|---|---|---|---|---|")
    for k in sorted(groups):
        g = groups[k]
        if "mbdae" not in g:
            continue
        ours = [d["cpu_s"] for d in g["mbdae"]]
        sico = {c: [d["cpu_s"] for d in v] for c, v in g.items() if c != "mbdae"}
        if not sico:
            continue
        best = min(sico, key=lambda c: statistics.median(sico[c]))
        om, omin = statistics.median(ours), min(ours)
        sm, smin = statistics.median(sico[best]), min(sico[best])
        o0, s0 = g["mbdae"][0], g[best][0]
        if k[0] == "bola":
            name, size = "bola (exact strings, e = 0.15)", "2 points"
            metric = "E(2) - 120.608125 J; stretch on [1.4, 3] s"
            acc_o = f"{o0['E_t2_err']:.3g}; {o0['dist_err_max_abs_1.4_3']:.2g}"
            acc_s = f"{s0['E_t2_err']:.3g}; {s0['dist_err_max_abs_1.4_3']:.2g}"
            cmd = f"build/benchmarks/bench_moreau_peers bola {k[2]:g} 0.5 {k[4]:g}"
        else:
            n = k[1]
            name, size = f"deploying net (Siconos peer), e = {k[3]:g}", f"{n} x {n} ({2*n*(n-1)} strings)"
            metric = "E_end - analytic [J]; max stretch [m]"
            acc_o = f"{o0['E_end'] - o0['E_end_exact']:.2g}; {o0['viol_max']:.3g}"
            ex = o0["E_end_exact"]
            acc_s = f"{s0.get('E_end', float('nan')) - ex:.2g}; {s0.get('violation_max_run', float('nan')):.3g}"
            cmd = f"build/benchmarks/bench_moreau_peers net {n} {k[2]:g} {k[4]:g} {k[3]:g} 0.5"
        print(f"| {name}, {size} | {k[2]:g} | {k[3]:g} | {omin:.4g} / {om:.4g} | {best}: "
              f"{smin:.4g} / {sm:.4g} | {sm / om:.0f}x | {len(ours)} / {len(sico[best])} | "
              f"{acc_o} / {acc_s} |")
        rows.append({"problem": k[0], "n": k[1], "h": k[2], "e": k[3], "t_end": k[4],
                     "mbdae_cpu_min": omin, "mbdae_cpu_median": om, "mbdae_runs": len(ours),
                     "siconos_solver": best, "siconos_cpu_min": smin, "siconos_cpu_median": sm,
                     "siconos_runs": len(sico[best]), "speedup_median": sm / om,
                     "accuracy_metric": metric, "accuracy_mbdae": acc_o,
                     "accuracy_siconos": acc_s, "command": cmd,
                     "other_siconos": " ".join(f"{c}:{statistics.median(v):.4g}"
                                              for c, v in sorted(sico.items()) if c != best)})
    os.makedirs(os.path.join(a.root, "moreau_peers"), exist_ok=True)
    with open(os.path.join(a.root, "moreau_peers", "table.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()) if rows else ["problem"])
        w.writeheader()
        w.writerows(rows)


if __name__ == "__main__":
    main()
