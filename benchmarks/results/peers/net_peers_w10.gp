# net_peers_w10.gp - net_peers.gnu at omega_n = 10.
w = 10
load "net_peers.gnu"
