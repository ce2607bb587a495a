# Linearised longitudinal tether of tow.yaml under uniform tension T:
# RK4's largest stable step (all h*lambda inside |R(z)| <= 1).
# Run: /usr/bin/python3 benchmarks/results/elastic/tow_rk4_stability.py
import numpy as np
EA, eta, Ltot, N, rho = 2.2e5, 8.5e6, 100.0, 50, 4.5e-3
L = Ltot / (N + 1)
m = np.full(N + 2, rho * Ltot / N); m[0] = 500.0; m[-1] = 1000.0  # chaser, nodes, body (tow_model.c)
def R(z): return 1 + z + z**2 / 2 + z**3 / 6 + z**4 / 24
def hmax(lams):
    lo, hi = 1e-8, 1e-2
    for _ in range(60):
        h = np.sqrt(lo * hi)
        big = lams[np.abs(lams) > 1e-6 * np.abs(lams).max()]
        if np.all(np.abs(R(h * big)) <= 1 + 1e-12): lo = h
        else: hi = h
    return lo
for T in [1, 2, 5, 10, 20, 30, 40, 60, 100]:
    k = EA / L
    eps = T / EA
    c = eta * eps / L          # Tv = d T / d delta' = eta eps / L
    kd = k                      # dT/ddelta = EA/L + eta eps'/L^2 (eps' = 0)
    n = N + 2
    K = np.zeros((n, n)); C = np.zeros((n, n))
    for j in range(N + 1):
        for A, v in ((K, kd), (C, c)):
            A[j, j] += v; A[j + 1, j + 1] += v; A[j, j + 1] -= v; A[j + 1, j] -= v
    Mi = np.diag(1 / m)
    Jm = np.block([[np.zeros((n, n)), np.eye(n)], [-Mi @ K, -Mi @ C]])
    lam = np.linalg.eigvals(Jm)
    lr = lam[np.argmax(np.abs(lam))]
    print(f"T {T:6.1f} N: c {c:8.1f} N s/m, largest |lambda| {abs(lr):9.3g} ({lr.real:9.3g}{lr.imag:+9.3g}i), "
          f"RK4 stable h <= {hmax(lam):8.3g} s")
# undamped check: omega_max = 2 sqrt(k/m)
w = 2 * np.sqrt(EA / L / (rho * Ltot / N))
print(f"undamped omega_max {w:.3g} rad/s: RK4 h <= 2.83/omega = {2.828 / w:.3g} s")
