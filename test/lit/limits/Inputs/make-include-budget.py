# Writes the include-budget test's inputs into the folder argv[1].
import os, sys
d = sys.argv[1]
def w(name, text):
    open(os.path.join(d, name), "w").write(text)
w("empty.qspec", "qspec 1\n")
w("mid.qspec", "qspec 1\n" + 'include "empty.qspec"\n' * 100)
w("top.qspec", "qspec 1\n" + 'include "mid.qspec"\n' * 100 + "target hmct { march nash-p }\n")
w("big.qspec", "qspec 1\n" + ("// " + "x" * 1020 + "\n") * 1024)
w("big-top.qspec", "qspec 1\n" + 'include "big.qspec"\n' * 70)
