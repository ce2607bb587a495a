# wp_deploy10.gp - error against CPU time of wp_deploy10.csv (columns: benchmarks/workprec.h),
# drawn by benchmarks/plot_workprec.gp. scripts/results_pages.py runs it in
# this directory with `out` set to the PNG to write.
csv = 'wp_deploy10.csv'
png = out
ttl = 'wp_deploy10: error vs CPU time'
methods = 'ida-klu cvode-adams rk4'
endpanel = 0
load '../../plot_workprec.gp'
