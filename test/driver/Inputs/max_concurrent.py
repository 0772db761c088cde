#!/usr/bin/python3
"""Prints the most evaluations that ran at once, from a sim_eval.py --counter file."""
import sys
now = most = 0
for line in open(sys.argv[1]):
    now += 1 if line.startswith("start ") else -1
    most = max(most, now)
print("most at once", most)
