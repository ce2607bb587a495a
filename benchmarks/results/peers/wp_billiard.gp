# wp_billiard.gp - error against CPU time of wp_billiard.csv (columns: benchmarks/workprec.h),
# drawn by benchmarks/plot_workprec.gp. scripts/results_pages.py runs it in
# this directory with `out` set to the PNG to write.
csv = 'wp_billiard.csv'
png = out
ttl = 'wp_billiard: error vs CPU time'
methods = 'cvode-adams cvode-bdf rk4'
endpanel = 0
load '../../plot_workprec.gp'
