// HMCT's node sensitivity (hmct.quantizer.debugger.get_sensitivity_of_nodes): for every
// quantized node, the cosine similarity of the output against the float model when that node
// alone is int8, on the calibration inputs. Writes it in HMCT's JSON form, most sensitive
// (lowest cosine) first, values as strings with five decimals as HMCT prints them:
//   {"p2o.Conv.0": {"cosine-similarity": "0.99475"}, ...}
//
//   node sensitivity.js OUT.json [INPUTS]      INPUTS: how many calibration inputs (default 2)
'use strict';
const fs = require('fs');
const path = require('path');
const lib = require('./lib');

async function main() {
  const [out, pages = '2'] = process.argv.slice(2);
  if (!out) throw new Error('usage: node sensitivity.js OUT.json [INPUTS]');
  const gates = lib.readJson(path.join(lib.CACHE, 'sens.onnx.gates.json'));
  const session = await lib.session(path.join(lib.CACHE, 'sens.onnx'));
  const images = lib.loadImages('calib').slice(0, Number(pages));
  const off = {};
  for (const g of Object.keys(gates)) off[g] = new lib.ort.Tensor('float32', Float32Array.from([0]), [1]);
  const float = await lib.outputs(session, images, off);
  const rows = [];
  for (const [g, node] of Object.entries(gates)) {
    const on = { ...off, [g]: new lib.ort.Tensor('float32', Float32Array.from([1]), [1]) };
    rows.push([node, lib.meanCosine(await lib.outputs(session, images, on), float)]);
  }
  rows.sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1));
  const result = {};
  for (const [node, c] of rows) result[node] = { 'cosine-similarity': c.toFixed(5) };
  fs.writeFileSync(out, JSON.stringify(result, null, 4) + '\n');
  console.log(`sensitivity: ${rows.length} nodes, most sensitive ${rows[0][0]} (${rows[0][1].toFixed(5)})`);
}

main().catch((e) => { console.error(`sensitivity.js: ${e.message}`); process.exit(1); });
