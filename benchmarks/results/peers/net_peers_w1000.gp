# net_peers_w1000.gp - net_peers.gnu at omega_n = 1000.
w = 1000
load "net_peers.gnu"
