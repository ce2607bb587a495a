#!/usr/bin/python3
"""The net capture from Python: run it with two methods, plot the energy
ledger and the string constraints, compare.

    PYTHONPATH=build/python /usr/bin/python3 python/examples/net_capture.py
    (installed: PYTHONPATH=<prefix>/lib/python3.X/site-packages, or nothing
    under /usr and /usr/local)

scenarios/capture_demo.yaml: a 10 x 10 net launched at a tumbling octagonal
prism; strings go taut at t = 1 s and wrap the body. Two methods:
  - cvode-adams, event-driven: every string switch and contact is a located
    root and a restart (events.csv lists them);
  - moreau, event capturing (doc/moreau.md): a fixed step, impulses solved
    per step, no events; its series carries the energy ledger
    kinetic(t) - kinetic(0) = work_applied + work_impulses - dissipated_scheme.
The figure (OUT/net_capture.png): the ledger of the moreau run, the largest
string constraint phi = |r_j - r_i|^2 - L^2 (<= 0 when no string is
stretched; plotted as the stretch above 1e-16) and the taut strings of both runs, the body's angular momentum of
both. The table: CPU time, steps, events, largest stretch, final energy.
"""
import argparse
import os
import sys
import time

import numpy as np

import mbdae


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--t-end", type=float, default=3.0, help="simulated time [s] (default 3)")
    ap.add_argument("--methods", nargs=2, default=["cvode-adams", "moreau"],
                    help="the two methods to compare")
    ap.add_argument("--out", default="out/net_capture_py", help="where the figure goes")
    ap.add_argument("--no-plot", action="store_true", help="print the comparison only")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)

    results = {}
    for method in args.methods:
        t0 = time.process_time()
        r = mbdae.run("capture_demo.yaml", set={"solver.method": method,
                                                "solver.t_end": args.t_end})
        cpu = time.process_time() - t0
        s = r.series
        samples = s[s["row_kind"] == "sample"]  # one row per output time
        phi = samples.filter(like="phi_").to_numpy() if hasattr(samples, "filter") else \
            np.column_stack([samples[c] for c in samples.dtype.names if c.startswith("phi_")])
        results[method] = (r, samples, phi, cpu)

    print("%-12s %8s %7s %7s %12s %10s %10s" % ("method", "CPU [s]", "steps", "events",
                                                 "max phi[m^2]", "KE end [J]", "|L| end"))
    for method, (r, s, phi, cpu) in results.items():
        L = np.array([s["angmom_x"], s["angmom_y"], s["angmom_z"]])[:, -1]
        print("%-12s %8.2f %7d %7d %12.3g %10.6f %10.6f" % (
            method, cpu, r.summary["stats"]["steps"], r.summary["events"], phi.max(),
            np.asarray(s["kinetic_energy"])[-1], np.linalg.norm(L)))

    ledger = next((m for m in results if "work_impulses" in results[m][0].series_columns), None)
    if ledger:
        s = results[ledger][1]
        ke = np.asarray(s["energy_kinetic"]) + np.asarray(s["energy_potential"])
        budget = np.asarray(s["work_applied"]) + np.asarray(s["work_impulses"]) - \
            np.asarray(s["dissipated_scheme"])
        print("%s energy ledger: largest |E(t) - E(0) - (W_applied + W_impulses - D_scheme)|"
              " = %.3g J" % (ledger, np.max(np.abs(ke - ke[0] - budget))))

    if args.no_plot:
        return 0
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib not installed (Debian: python3-matplotlib): no figure")
        return 0
    fig, ax = plt.subplots(2, 2, figsize=(11, 7.5), constrained_layout=True)
    if ledger:
        s = results[ledger][1]
        t = np.asarray(s["t"])
        for col, label in [("energy_kinetic", "kinetic energy"),
                           ("work_impulses", "work of the impulses (cumulative)"),
                           ("work_applied", "work of the applied forces"),
                           ("dissipated_scheme", "scheme damping")]:
            ax[0, 0].plot(t, np.asarray(s[col]), label=label)
        ax[0, 0].set_title("energy ledger (%s)" % ledger)
        ax[0, 0].set_xlabel("t [s]")
        ax[0, 0].set_ylabel("J")
        ax[0, 0].legend(fontsize=8)
    for method, (r, s, phi, cpu) in results.items():
        t = np.asarray(s["t"])
        ax[0, 1].semilogy(t, np.maximum(phi.max(axis=1), 1e-16), label=method)
        ax[1, 0].plot(t, np.asarray(s["taut_strings"]), label=method)
        L = np.sqrt(sum(np.asarray(s[c]) ** 2 for c in ("angmom_x", "angmom_y", "angmom_z")))
        ax[1, 1].plot(t, L, label="%s (%.1f s CPU)" % (method, cpu))
    ax[0, 1].set_title("largest string stretch: max(phi, 1e-16), phi = |r_j - r_i|^2 - L^2")
    ax[0, 1].set_ylabel("m^2")
    ax[0, 1].set_ylim(1e-16, 1.0)
    ax[1, 0].set_title("taut strings")
    ax[1, 1].set_title("body angular momentum |L|")
    ax[1, 1].set_ylabel("kg m^2/s")
    for a in (ax[0, 1], ax[1, 0], ax[1, 1]):
        a.set_xlabel("t [s]")
        a.legend(fontsize=8)
    path = os.path.join(args.out, "net_capture.png")
    fig.savefig(path, dpi=90)
    print("figure: %s" % path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
