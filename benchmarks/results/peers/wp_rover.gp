# wp_rover.gp - error against CPU time of wp_rover.csv (columns: benchmarks/workprec.h),
# drawn by benchmarks/plot_workprec.gp. scripts/results_pages.py runs it in
# this directory with `out` set to the PNG to write.
csv = 'wp_rover.csv'
png = out
ttl = 'wp_rover: error vs CPU time'
methods = 'cvode-bdf cvode-adams ida rk4'
endpanel = 0
load '../../plot_workprec.gp'
