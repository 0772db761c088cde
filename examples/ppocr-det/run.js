// Runs one configuration's model (build_sim.py apply) on the evaluation pages and prints HMCT's
// metric against the float model: {"cosine": C}.
//
//   node run.js MODEL.onnx
'use strict';
const lib = require('./lib');

async function main() {
  if (process.argv.length !== 3) throw new Error('usage: node run.js MODEL.onnx');
  const images = lib.loadImages('eval');
  const outs = await lib.outputs(await lib.session(process.argv[2]), images);
  process.stdout.write(JSON.stringify({ cosine: lib.meanCosine(outs, lib.reference(images.length)) }) + '\n');
}

main().catch((e) => { console.error(`run.js: ${e.message}`); process.exit(1); });
