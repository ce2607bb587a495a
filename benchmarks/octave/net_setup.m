## P = net_setup (n, omega_n) - the n x n net of point masses deploying from
## one point with Baumgarte-compliant strings (capps 2021 sec. 3.2-3.3), the
## same problem as mbdae's string_net (topology grid, mode baumgarte; see
## benchmarks/bench_peers_net.c and models/strings/string_net_topology.c,
## sn_describe_grid): 0.01 kg points, 0.05 kg corners, strings of L = 0.1 m
## joining each point to its lateral (b+1) and transverse (a+1) neighbour,
## xi = 0.5, no gravity, no drag. Point (a, b) (0-based, k = a n + b) leaves
## the origin with v = v_common + x_ab / t_deploy (1 + jitter p_k), x_ab its
## place in the flat net, p_k = sin (1 + 2.399963229728653 k).
## State y = [R; V], R = [x_0 y_0 z_0 x_1 ...]' (3 np), V likewise.
function P = net_setup (n, omega_n)
  L = 0.1;  m = 0.01;  m_corner = 0.05;  t_deploy = 0.5;  jitter = 0.02;
  v_common = [0; 0; 5];
  np = n * n;
  [b, a] = meshgrid (0:n-1, 0:n-1);    # a: row, b: column
  a = reshape (a', [], 1);  b = reshape (b', [], 1);   # k = a n + b order
  k = (0:np-1)';
  mass = m * ones (np, 1);
  corner = (a == 0 | a == n-1) & (b == 0 | b == n-1);
  mass(corner) = m_corner;
  X = [(a - 0.5*(n-1)) * L, (b - 0.5*(n-1)) * L, zeros(np, 1)]';   # 3 x np
  pk = sin (1 + 2.399963229728653 * k)';
  V0 = v_common + X ./ t_deploy .* (1 + jitter * pk);
  R0 = zeros (3, np);
  ## strings in mbdae's order: for each point, lateral then transverse
  I = [];  J = [];
  for kk = 0:np-1
    aa = floor (kk / n);  bb = mod (kk, n);
    if (bb + 1 < n)  I(end+1) = kk;  J(end+1) = kk + 1;  endif
    if (aa + 1 < n)  I(end+1) = kk;  J(end+1) = kk + n;  endif
  endfor
  P.n = n;  P.np = np;  P.ns = numel (I);
  P.I = I' + 1;  P.J = J' + 1;             # 1-based tail, head
  P.L = L * ones (P.ns, 1);
  P.mass = mass;
  P.Minv = spdiags (reshape (repmat (1 ./ mass', 3, 1), [], 1), 0, 3*np, 3*np);   # M^-1
  P.xi = 0.5 * ones (P.ns, 1);
  P.wn = omega_n * ones (P.ns, 1);
  P.y0 = [R0(:); V0(:)];
endfunction
