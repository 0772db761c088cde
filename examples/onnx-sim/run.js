// Runs one configuration's model (onnx_sim.py apply) on the evaluation inputs and prints HMCT's
// metric against the float model: {"cosine": C}. With --ctc KEYS.txt (text recognizers, whose
// output is [1, T, classes] CTC probabilities; KEYS.txt has one character per line, the space
// class last) also {"text": F}: the fraction of inputs whose greedy CTC decoding reads exactly
// as $QSIM_CACHE/text.json's "eval" list says they read.
//
//   node run.js MODEL.onnx [--ctc KEYS.txt]
'use strict';
const fs = require('fs');
const path = require('path');
const lib = require('./lib');

async function main() {
  const args = process.argv.slice(2);
  if (!(args.length === 1 || (args.length === 3 && args[1] === '--ctc')))
    throw new Error('usage: node run.js MODEL.onnx [--ctc KEYS.txt]');
  const images = lib.loadImages('eval');
  const outs = await lib.outputs(await lib.session(args[0]), images);
  const result = { cosine: lib.meanCosine(outs, lib.reference(images.length)) };
  if (args[1] === '--ctc') {
    const keys = fs.readFileSync(args[2], 'utf8').split('\n').filter((k) => k.length > 0);
    keys.push(' ');
    const texts = lib.readJson(path.join(lib.CACHE, 'text.json')).eval;
    result.text = lib.textAccuracy(outs, texts, outs.dims[outs.dims.length - 1], keys);
  }
  process.stdout.write(JSON.stringify(result) + '\n');
}

main().catch((e) => { console.error(`run.js: ${e.message}`); process.exit(1); });
