# net21_xi2_w10000.gp - error against CPU time of net21_xi2_w10000.csv (columns: benchmarks/workprec.h),
# drawn by benchmarks/plot_workprec.gp. scripts/results_pages.py runs it in
# this directory with `out` set to the PNG to write.
csv = 'net21_xi2_w10000.csv'
png = out
ttl = 'net21_xi2_w10000: error vs CPU time'
methods = 'ida-klu-metis-o3 ida-klu-metis ida-klu-metis-o3-reuse0 cvode-adams rk4'
endpanel = 1
load '../../plot_workprec.gp'
