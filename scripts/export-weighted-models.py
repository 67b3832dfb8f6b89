#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Exports torchvision networks with their (randomly initialised) weights embedded in the .onnx file, for the
# whole-process timings against onnx-tool (docs/performance.md). Needs Debian's python3-torch/-torchvision.
# Usage: scripts/export-weighted-models.py OUT_FOLDER
import os
import sys

import torch
import torchvision

NETWORKS = {
    "efficientnet_b0": lambda: torchvision.models.efficientnet_b0(),
    "googlenet": lambda: torchvision.models.googlenet(aux_logits=False, init_weights=True),
    "regnet_y_400mf": lambda: torchvision.models.regnet_y_400mf(),
    "resnet50": lambda: torchvision.models.resnet50(),
}


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: export-weighted-models.py OUT_FOLDER")
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(0)
    for name, build in NETWORKS.items():
        model = build().eval()
        path = os.path.join(out, name + "_weights.onnx")
        torch.onnx.export(model, torch.randn(1, 3, 224, 224), path, opset_version=13,
                          input_names=["input"], output_names=["output"])
        print(f"{path}\t{os.path.getsize(path)} bytes")


if __name__ == "__main__":
    main()
