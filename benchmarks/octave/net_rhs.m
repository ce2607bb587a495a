## dy = net_rhs (t, y, P) - right-hand side of the string net, written as the
## seed's Matlab code was (capps 2021, eqs. 2.39, 3.1, 3.2): a string is
## active while phi = |S|^2 - L^2 >= 0 (sec. 3.3; no event location), and the
## multipliers of the active strings come from the acceleration-level
## constraint with Baumgarte's term nu = -2 xi omega_n phi' - omega_n^2 phi:
##   Lambda = -(Phi_R' M^-1 Phi_R) \ (Phi_R' M^-1 F + Phidot_R' V - nu)  (3.1)
##   M V' = F + Phi_R Lambda                                               (2.39)
## Phi_R has one column per active string: -2 S at the tail, +2 S at the head.
## F = 0 here (no gravity, no drag). Counts its calls in the global NET_NFEV.
function dy = net_rhs (t, y, P)
  global NET_NFEV
  NET_NFEV += 1;
  np3 = 3 * P.np;
  R = reshape (y(1:np3), 3, P.np);
  V = reshape (y(np3+1:end), 3, P.np);
  S = R(:, P.J) - R(:, P.I);                  # string vectors (3 x ns)
  W = V(:, P.J) - V(:, P.I);
  phi = sum (S .^ 2, 1)' - P.L .^ 2;          # eq. 2.7
  act = find (phi >= 0);                      # sec. 3.3: active while phi >= 0
  acc = zeros (np3, 1);                       # M^-1 F, F = 0
  if (! isempty (act))
    na = numel (act);
    Sa = S(:, act);  Wa = W(:, act);
    ri = 3 * (P.I(act) - 1)' + (1:3)';        # rows of the tail (3 x na)
    rj = 3 * (P.J(act) - 1)' + (1:3)';
    cols = repmat (1:na, 3, 1);
    PhiR = sparse ([ri(:); rj(:)], [cols(:); cols(:)], [-2*Sa(:); 2*Sa(:)], np3, na);
    MinvPhiR = P.Minv * PhiR;                 # M^-1 Phi_R
    phid = 2 * sum (Sa .* Wa, 1)';            # eq. 2.13
    nu = -2 * P.xi(act) .* P.wn(act) .* phid - P.wn(act) .^ 2 .* phi(act);   # eq. 3.2
    PhidV = 2 * sum (Wa .^ 2, 1)';            # Phidot_R' V
    Lambda = -(PhiR' * MinvPhiR) \ (PhiR' * acc + PhidV - nu);   # eq. 3.1
    acc = acc + MinvPhiR * Lambda;            # eq. 2.39
  endif
  dy = [y(np3+1:end); acc];
endfunction
