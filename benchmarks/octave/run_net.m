## run_net (solver, n, omega_n, rtol, t_end, dt, csvfile, reffile, savefile)
## One run of the Octave peer on the n x n Baumgarte net (net_setup.m,
## net_rhs.m): solver "ode45" or "ode15s", RelTol = rtol, AbsTol = 1e-3 rtol
## (as mbdae's runs), positions sampled at dt, 2 dt, ..., t_end.
## Times: tic/toc (wall) and cputime around the solver call only. Appends one
## CSV line to csvfile (same columns as bench_peers_net):
##   tool,solver,n,omega_n,tol,rc,cpu_s,wall_s,steps,fevals,jevals,
##   factorizations,events,peak_rss_mb,err
## fevals = calls of net_rhs (counted, including ode15s's finite-difference
## Jacobian columns); steps = successful steps (solver statistics). err = max
## over samples and points of |r_k - r_k,ref| / L against reffile (text, one
## line per sample: t x_0 y_0 z_0 x_1 ..., as bench_peers_net --save writes),
## NaN without one. savefile (optional) gets the samples in that format.
function run_net (solver, n, omega_n, rtol, t_end, dt, csvfile, reffile, savefile)
  global NET_NFEV
  if (ischar (n)) n = str2double (n); endif
  if (ischar (omega_n)) omega_n = str2double (omega_n); endif
  if (ischar (rtol)) rtol = str2double (rtol); endif
  if (ischar (t_end)) t_end = str2double (t_end); endif
  if (ischar (dt)) dt = str2double (dt); endif
  P = net_setup (n, omega_n);
  tspan = (0:round (t_end / dt)) * dt;
  opt = odeset ("RelTol", rtol, "AbsTol", 1e-3 * rtol, "Stats", "on");
  f = @(t, y) net_rhs (t, y, P);
  NET_NFEV = 0;
  rc = 0;
  t0 = cputime ();  tic ();
  try
    switch (solver)
      case "ode45"
        txt = evalc ("[tt, Y] = ode45 (f, tspan, P.y0, opt);");
      case "ode15s"
        txt = evalc ("[tt, Y] = ode15s (f, tspan, P.y0, opt);");
      otherwise
        error ("run_net: unknown solver %s", solver);
    endswitch
  catch e
    rc = 1;  txt = "";  tt = [];  Y = [];
    fprintf (stderr, "run_net: %s\n", e.message);
  end_try_catch
  wall = toc ();  cpu = cputime () - t0;
  nfev = NET_NFEV;
  steps = NaN;
  tok = regexp (txt, "(?:Number of successful steps:\\s*(\\d+))|(?:(\\d+) successful steps)", "tokens", "once");
  if (! isempty (tok)) steps = str2double (tok{1}); endif
  if (rc == 0 && (numel (tt) != numel (tspan) || abs (tt(end) - t_end) > 1e-12))
    rc = 2;   # did not reach t_end
  endif
  err = NaN;
  if (rc == 0)
    Rs = Y(2:end, 1:3*P.np);      # samples at dt .. t_end
    if (nargin >= 9 && ! isempty (savefile))
      fid = fopen (savefile, "w");
      for k = 1:rows (Rs)
        fprintf (fid, "%.17g", tspan(k+1));  fprintf (fid, " %.17g", Rs(k, :));  fprintf (fid, "\n");
      endfor
      fclose (fid);
    endif
    if (nargin >= 8 && ! isempty (reffile))
      ref = dlmread (reffile);
      if (rows (ref) == rows (Rs) && all (abs (ref(:, 1)' - tspan(2:end)) < 1e-9))
        D = Rs - ref(:, 2:end);
        d = sqrt (D(:, 1:3:end) .^ 2 + D(:, 2:3:end) .^ 2 + D(:, 3:3:end) .^ 2);
        err = max (d(:)) / P.L(1);
      endif
    endif
  endif
  rss = NaN;
  st = fileread ("/proc/self/status");
  tk = regexp (st, "VmHWM:\\s*(\\d+)", "tokens", "once");
  if (! isempty (tk)) rss = str2double (tk{1}) / 1024; endif
  fid = fopen (csvfile, "a");
  fprintf (fid, "octave,%s,%d,%g,%g,%d,%.4f,%.4f,%d,%d,,,,%.1f,%.4e\n", solver, n, omega_n, ...
           rtol, rc, cpu, wall, steps, nfev, rss, err);
  fclose (fid);
endfunction
