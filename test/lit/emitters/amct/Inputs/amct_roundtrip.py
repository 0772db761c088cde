# amct_roundtrip.py PROTO_DIR CFG ptq|qat: compiles qspec's AMCT .proto files with protoc for
# Python, parses CFG strictly (text_format.Parse: unknown fields, repeated singular fields and
# missing required fields are errors) and prints what AMCT will read: one JSON line per skip
# entry and per override, names JSON-escaped (ASCII) so FileCheck can match hostile names.
import importlib
import json
import os
import subprocess
import sys
import tempfile

proto_dir, cfg, kind = sys.argv[1], sys.argv[2], sys.argv[3]
out = tempfile.mkdtemp()
protos = [os.path.join(proto_dir, p) for p in sorted(os.listdir(proto_dir)) if p.endswith(".proto")]
subprocess.run(["protoc", "-I" + proto_dir, "--python_out=" + out] + protos, check=True)
sys.path.insert(0, out)
from google.protobuf import text_format  # noqa: E402

pb = importlib.import_module("amct_calibration_pb2")
msg = pb.AMCTRetrainConfig() if kind == "qat" else pb.AMCTConfig()
with open(cfg, encoding="utf-8") as f:
    text_format.Parse(f.read(), msg)
if not msg.IsInitialized():
    sys.exit("missing required fields")
for name in msg.skip_layers:
    print("skip " + json.dumps(name))
for o in msg.override_layer_types:
    print("type " + json.dumps(o.layer_type))
for o in msg.override_layer_configs:
    print("name " + json.dumps(o.layer_name))
