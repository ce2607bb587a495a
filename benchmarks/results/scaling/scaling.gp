# scaling.gp - CPU per simulated second against points (scaling.csv), log-log,
# with a slope-1.5 guide. scripts/results_pages.py runs it in this directory
# with `out` set to the PNG to write.
set datafile separator ","
set terminal pngcairo size 900,600 noenhanced font ",10"
set output out
set logscale xy
set grid
set key outside right
set xlabel "points"
set ylabel "CPU s per simulated second"
set title "Cost against size: taut chains and nets (linear algebra) vs deploying nets (events)"
array S[7] = ["chain exact: IDA+KLU AMD", "chain exact: RK4 largest stable step", \
              "spinning net: IDA+KLU METIS", "spinning net: IDA+KLU AMD", "spinning net: RK4 4 ms", \
              "deploying net: IDA+KLU METIS", "deploying net: RK4 4 ms located"]
guide(x) = 1.34 * (x / 900.0)**1.5
plot for [i=1:7] "scaling.csv" using (strcol(1) eq S[i] ? $2 : NaN):(strcol(1) eq S[i] ? $3 : NaN) \
       with linespoints pointtype 7 title S[i], \
     [100:10000] guide(x) with lines dashtype 2 linecolor "gray" title "slope 1.5"
