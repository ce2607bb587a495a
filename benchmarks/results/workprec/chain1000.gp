# chain1000.gp - error against CPU time of chain1000.csv (columns: benchmarks/workprec.h),
# drawn by benchmarks/plot_workprec.gp. scripts/results_pages.py runs it in
# this directory with `out` set to the PNG to write.
csv = 'chain1000.csv'
png = out
ttl = 'chain1000: error vs CPU time'
methods = 'ida-klu-o3 ida-klu cvode-adams rk4'
endpanel = 1
load '../../plot_workprec.gp'
