// Measures the range (max |x|) of every tensor entering a quantization point on the calibration
// inputs, as HMCT's `max` calibration does, and keeps the float model's outputs on the
// evaluation inputs as the reference. Reads $QSIM_CACHE/tap.onnx and points.json (onnx_sim.py
// tap); writes $QSIM_CACHE/ranges.json and reference.f32.
//
//   node calibrate.js MODEL.onnx
'use strict';
const fs = require('fs');
const path = require('path');
const lib = require('./lib');

async function main() {
  if (process.argv.length !== 3) throw new Error('usage: node calibrate.js MODEL.onnx');
  const points = lib.readJson(path.join(lib.CACHE, 'points.json'));
  const tap = await lib.session(path.join(lib.CACHE, 'tap.onnx'));
  const tensors = [...new Set(points.points.map((p) => p.tensor))];
  const ranges = {};
  for (const x of lib.loadImages('calib')) {
    const r = await tap.run({ [tap.inputNames[0]]: x });
    for (const t of tensors) {
      const d = r[points.taps[t]].data;
      let m = ranges[t] || 0;
      for (let i = 0; i < d.length; ++i) { const v = Math.abs(d[i]); if (v > m) m = v; }
      ranges[t] = m;
    }
  }
  const sorted = {};
  for (const t of tensors.sort()) sorted[t] = ranges[t];
  fs.writeFileSync(path.join(lib.CACHE, 'ranges.json'), JSON.stringify(sorted, null, 1) + '\n');

  const model = await lib.session(process.argv[2]);
  const outs = await lib.outputs(model, lib.loadImages('eval'));
  const all = new Float32Array(outs.reduce((n, o) => n + o.length, 0));
  let at = 0;
  for (const o of outs) { all.set(o, at); at += o.length; }
  fs.writeFileSync(path.join(lib.CACHE, 'reference.f32'), Buffer.from(all.buffer));
  console.log(`calibrate: ${tensors.length} tensors, ${outs.length} reference outputs`);
}

main().catch((e) => { console.error(`calibrate.js: ${e.message}`); process.exit(1); });
