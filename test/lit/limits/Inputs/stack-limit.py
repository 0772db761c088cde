# stack-limit.py KIB CMD ARGS...: runs CMD with its stack limited to KIB KiB (RLIMIT_STACK, which
# glibc also takes as the default size of each thread's stack), exit status and output unchanged.
# A deep-input test can then use a proportionally shallower input: unbounded recursion
# overflows 2 MiB at 25,000 levels exactly when it overflows the usual 8 MiB at 100,000.
import os
import resource
import sys

limit = int(sys.argv[1]) * 1024
resource.setrlimit(resource.RLIMIT_STACK, (limit, limit))
os.execv(sys.argv[2], sys.argv[2:])
