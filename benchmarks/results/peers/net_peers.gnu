# net_peers.gnu - the 10 x 10 Baumgarte deploying net against Octave: error
# (max |r - r_ref| / L) against CPU time, log-log, one line per tool and
# solver, from net_peers.csv (rows with rc = 0 and omega_n = w). Loaded by
# net_peers_w*.gp, which set w; scripts/results_pages.py sets `out`.
set datafile separator ","
set terminal pngcairo size 900,650 noenhanced font ",10"
set output out
set logscale xy
set format y "%.0e"
set grid
set key outside right
set xlabel "CPU time [s] (median of repeats for mbdae runs under 3 s)"
set ylabel "max error / L"
set title sprintf("10 x 10 Baumgarte net, omega_n = %g, t = 0..0.7 s", w)
keys = "mbdae:rk4 mbdae:ida mbdae:cvode-adams mbdae:cvode-bdf octave:ode45 octave:ode15s"
key(i) = word(keys, i)
tool(i) = key(i)[1:strstrt(key(i), ":") - 1]
solver(i) = key(i)[strstrt(key(i), ":") + 1:]
sel(i) = (strcol(1) eq tool(i) && strcol(2) eq solver(i) && $4 == w && $6 == 0 && $15 > 0)
plot for [i=1:words(keys)] "net_peers.csv" using (sel(i) ? $7 : NaN):(sel(i) ? $15 : NaN) \
     smooth unique with linespoints pointtype 7 title key(i)
