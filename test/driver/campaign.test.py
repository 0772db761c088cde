# Driver of campaign.test's live status: the evaluators wait for a file, so the first round is
# in flight while `qtune status` runs; then they are released.
import os, sys
qtune, tmp, ev = sys.argv[1:4]
sys.path.insert(0, os.path.dirname(ev))
from live_status import live_status

release = os.path.join(tmp, "release")
live_status(qtune, ["--write-ir", tmp + "/tiny.qspec", "--workdir", tmp + "/live", "--devices", "0-3,4-7",
                    "--no-progress", "--", "/usr/bin/python3", ev, "--scores", tmp + "/tiny-scores.yaml",
                    "--wait-for", release], tmp + "/live", release)
