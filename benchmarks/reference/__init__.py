"""Hand-written pure-Python games with Regola's driver API, the baselines of benchmarks/peers.py."""
