// Shared by the simulator's scripts: the inputs, sessions, the float reference and the metric.
// QSIM_CACHE is the example's cache folder (inputs, points, ranges, reference); onnxruntime-node
// is found through NODE_PATH (the example's node_modules), as hmct_config.py and build-cache.sh
// set them.
'use strict';
const fs = require('fs');
const path = require('path');
const ort = require('onnxruntime-node');

if (!process.env.QSIM_CACHE) throw new Error('QSIM_CACHE is not set (the example\'s cache folder)');
const CACHE = process.env.QSIM_CACHE;

function readJson(file) {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

// One set of preprocessed inputs (the example's image script): an array of [1, C, H, W] tensors.
function loadImages(name) {
  const shape = readJson(path.join(CACHE, 'meta.json'))[name];
  const raw = fs.readFileSync(path.join(CACHE, `${name}.f32`));
  const all = new Float32Array(raw.buffer, raw.byteOffset, raw.length / 4);
  const per = shape[1] * shape[2] * shape[3];
  const out = [];
  for (let i = 0; i < shape[0]; ++i)
    out.push(new ort.Tensor('float32', all.slice(i * per, (i + 1) * per), [1, shape[1], shape[2], shape[3]]));
  return out;
}

async function session(file) {
  return ort.InferenceSession.create(file, { intraOpNumThreads: 1, interOpNumThreads: 1, logSeverityLevel: 3 });
}

// ---- The metric -----------------------------------------------------------------------------
// HMCT's: cosine similarity of the model output against the float model. Per image over the
// flattened output, then the mean over the images.
function cosine(a, b) {
  let ab = 0, aa = 0, bb = 0;
  for (let i = 0; i < a.length; ++i) { ab += a[i] * b[i]; aa += a[i] * a[i]; bb += b[i] * b[i]; }
  return aa === 0 || bb === 0 ? (aa === bb ? 1 : 0) : ab / Math.sqrt(aa * bb);
}

// The output of `session` on each of `images` (the array's `dims` are the last output's).
async function outputs(session, images, feeds = {}) {
  const outs = [];
  for (const x of images) {
    const r = await session.run({ ...feeds, [session.inputNames[0]]: x });
    outs.push(r[session.outputNames[0]].data);
    outs.dims = r[session.outputNames[0]].dims;
  }
  return outs;
}

// The float model's outputs on the evaluation inputs (calibrate.js writes them).
function reference(count) {
  const raw = fs.readFileSync(path.join(CACHE, 'reference.f32'));
  const all = new Float32Array(raw.buffer, raw.byteOffset, raw.length / 4);
  const per = all.length / count;
  return Array.from({ length: count }, (_, i) => all.subarray(i * per, (i + 1) * per));
}

function meanCosine(outs, refs) {
  let s = 0;
  for (let i = 0; i < outs.length; ++i) s += cosine(outs[i], refs[i]);
  return s / outs.length;
}

// Greedy CTC decoding of one [T, C] probability sequence: the best class per step, repeats
// merged, class 0 (the blank) dropped; class k is keys[k - 1] (PaddleOCR's dictionary, whose
// last class is the space). Surrounding spaces are trimmed.
function ctcDecode(probs, classes, keys) {
  let out = '';
  let last = 0;
  for (let t = 0; t * classes < probs.length; ++t) {
    let best = 0;
    for (let c = 1; c < classes; ++c) if (probs[t * classes + c] > probs[t * classes + best]) best = c;
    if (best !== 0 && best !== last) out += keys[best - 1] ?? '?';
    last = best;
  }
  return out.trim();
}

// The fraction of outputs whose CTC decoding reads exactly as `texts` (text recognizers).
function textAccuracy(outs, texts, classes, keys) {
  let same = 0;
  for (let i = 0; i < outs.length; ++i) same += ctcDecode(outs[i], classes, keys) === texts[i] ? 1 : 0;
  return same / outs.length;
}

module.exports = { ort, CACHE, readJson, loadImages, session, outputs, reference, meanCosine, textAccuracy };
