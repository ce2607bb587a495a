# plot_workprec.gp - work-precision plot of one bench_workprec CSV (issue 9):
# error against CPU time, log-log, one line per method; left the error at the
# end point, right the largest error on the output grid. Only runs that
# finished (status 0) with a finite error are drawn.
# Usage: gnuplot -e "csv='DIR/P.csv'; png='DIR/P.png'; ttl='P'; methods='ida-klu rk4'" \
#        benchmarks/plot_workprec.gp
# (endpanel=0 drops the end-point panel, e.g. for the ball, which ends at rest
# exactly: every end-point error is 0.)
# CSV columns (benchmarks/workprec.h, wp_csv_header): 2 method, 4 status,
# 6 err_end, 7 err_max, 10 cpu_s.
if (!exists("csv") || !exists("png")) { print "set csv and png"; exit }
if (!exists("ttl")) ttl = csv
if (!exists("methods")) methods = "ida-klu ida-klu-o3 ida-klu-metis ida-dense ida-dense-dq cvode-bdf-dense cvode-bdf-klu cvode-adams rk4"
set datafile separator ","
array LC[10] = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", \
                "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"]
do for [i=1:10] { set linetype i linecolor rgb LC[i] linewidth 1.5 }
set terminal pngcairo size 1400,560 noenhanced font ",10"
set output png
set logscale xy
set format x "%.0e"
set format y "%.0e"
set grid
set key top right
set xlabel "CPU time [s] (median of the runs of each setting)"
ok(st, e) = (st == 0 && e == e && e > 0) ? e : NaN
if (!exists("endpanel")) endpanel = 1
set multiplot layout 1,(endpanel ? 2 : 1) title ttl
if (endpanel) {
set ylabel "error at the end point [m]"
plot for [i=1:words(methods)] csv using (strcol(2) eq word(methods, i) ? $10 : NaN):(ok($4, $6)) \
     with linespoints linetype i pointtype 7 pointsize 0.8 title word(methods, i)
}
set ylabel "max error on the output grid [m]"
plot for [i=1:words(methods)] csv using (strcol(2) eq word(methods, i) ? $10 : NaN):(ok($4, $7)) \
     with linespoints linetype i pointtype 7 pointsize 0.8 title word(methods, i)
unset multiplot
