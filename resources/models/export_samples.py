#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Rooftop - export the sample ONNX models used by the tests and the demo.
#
# This program is free software: you can redistribute it and/or modify it under
# the terms of the GNU General Public License as published by the Free Software
# Foundation, either version 3 of the License, or (at your option) any later
# version. This program is distributed in the hope that it will be useful, but
# WITHOUT ANY WARRANTY; without even the implied warranty of MERCHANTABILITY or
# FITNESS FOR A PARTICULAR PURPOSE. See the GNU General Public License for more
# details. You should have received a copy of the GNU General Public License
# along with this program. If not, see <https://www.gnu.org/licenses/>.
"""Export the sample networks to ONNX with random weights, then strip them.

Usage: python3 export_samples.py [OUTDIR]     (default: this script's folder)

Every model is built with random weights (nothing is downloaded), exported at
opset 17 in eval mode with a symbolic "batch" dimension, and saved with all
tensors of 1 KiB or more moved to external data, which is then deleted: the
.onnx files keep the graph, the tensor metadata and the small constants only.
"""
import io
import itertools
import math
import os
import sys
import warnings

import onnx
import torch
import torchvision
from torch import nn

OPSET = 17


# --- torchvision image classifiers ------------------------------------------

def torchvision_models():
    for name in ("resnet18", "resnet50", "mobilenet_v2", "mobilenet_v3_large",
                 "efficientnet_b0", "vit_b_16"):
        model = getattr(torchvision.models, name)(weights=None)
        yield name, model, torch.randn(1, 3, 224, 224), ["input"], ["logits"], \
            {"input": {0: "batch"}, "logits": {0: "batch"}}


# --- BERT-base encoder, written out by hand -----------------------------------

class SelfAttention(nn.Module):
    def __init__(self, hidden, heads):
        super().__init__()
        self.heads, self.head_dim = heads, hidden // heads
        self.q, self.k, self.v, self.o = (nn.Linear(hidden, hidden) for _ in range(4))

    def split(self, x):  # (b, s, hidden) -> (b, heads, s, head_dim)
        return x.view(x.size(0), x.size(1), self.heads, self.head_dim).transpose(1, 2)

    def forward(self, x):
        q, k, v = self.split(self.q(x)), self.split(self.k(x)), self.split(self.v(x))
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.head_dim)
        ctx = torch.matmul(torch.softmax(scores, dim=-1), v)
        return self.o(ctx.transpose(1, 2).reshape(x.shape))


class BertLayer(nn.Module):
    def __init__(self, hidden, heads, ffn):
        super().__init__()
        self.attention = SelfAttention(hidden, heads)
        self.norm1 = nn.LayerNorm(hidden, eps=1e-12)
        self.ffn_in, self.ffn_out = nn.Linear(hidden, ffn), nn.Linear(ffn, hidden)
        self.act = nn.GELU()
        self.norm2 = nn.LayerNorm(hidden, eps=1e-12)

    def forward(self, x):
        x = self.norm1(x + self.attention(x))
        return self.norm2(x + self.ffn_out(self.act(self.ffn_in(x))))


class BertEncoder(nn.Module):
    def __init__(self, vocab=30522, max_len=512, hidden=768, layers=12, heads=12, ffn=3072):
        super().__init__()
        self.tokens = nn.Embedding(vocab, hidden)
        self.positions = nn.Embedding(max_len, hidden)
        self.norm = nn.LayerNorm(hidden, eps=1e-12)
        self.layers = nn.ModuleList(BertLayer(hidden, heads, ffn) for _ in range(layers))

    def forward(self, input_ids):
        pos = torch.arange(input_ids.size(1), device=input_ids.device).unsqueeze(0)
        x = self.norm(self.tokens(input_ids) + self.positions(pos))
        for layer in self.layers:
            x = layer(x)
        return x


def bert_models():
    ids = torch.randint(0, 30522, (1, 128), dtype=torch.int64)
    yield "bert_base", BertEncoder(), ids, ["input_ids"], ["last_hidden_state"], \
        {"input_ids": {0: "batch", 1: "sequence"},
         "last_hidden_state": {0: "batch", 1: "sequence"}}


# --- 2-layer LSTM language model ----------------------------------------------

class LstmLanguageModel(nn.Module):
    def __init__(self, vocab=29423, hidden=256, layers=2):
        super().__init__()
        self.embedding = nn.Embedding(vocab, hidden)
        self.lstm = nn.LSTM(hidden, hidden, num_layers=layers, batch_first=True)
        self.decoder = nn.Linear(hidden, vocab)

    def forward(self, input_ids):
        out, _ = self.lstm(self.embedding(input_ids))
        return self.decoder(out)


def lstm_models():
    ids = torch.randint(0, 29423, (1, 32), dtype=torch.int64)
    yield "lstm", LstmLanguageModel(), ids, ["input_ids"], ["logits"], \
        {"input_ids": {0: "batch"}, "logits": {0: "batch"}}


# --- export -------------------------------------------------------------------

def make_tensors_distinct(model):
    """Default inits leave many equal tensors (BatchNorm/LayerNorm ones and zeros,
    zero biases); the exporter would merge them into Identity nodes. Nudge them."""
    with torch.no_grad():
        for tensor in itertools.chain(model.parameters(), model.buffers()):
            if tensor.is_floating_point():
                tensor.add_(torch.rand_like(tensor) * 0.01)


def export(name, model, example, inputs, outputs, dynamic_axes, outdir):
    make_tensors_distinct(model)
    model.eval()
    buffer = io.BytesIO()
    torch.onnx.export(model, (example,), buffer, opset_version=OPSET,
                      do_constant_folding=True, input_names=inputs,
                      output_names=outputs, dynamic_axes=dynamic_axes)
    proto = onnx.load_from_string(buffer.getvalue())
    path = os.path.join(outdir, name + ".onnx")
    data = name + ".onnx.data"
    onnx.save_model(proto, path, save_as_external_data=True,
                    all_tensors_to_one_file=True, location=data, size_threshold=1024)
    os.remove(os.path.join(outdir, data))  # keep the tensor metadata, drop the weights
    print(f"{path}: {os.path.getsize(path)} bytes")


def main():
    outdir = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    os.makedirs(outdir, exist_ok=True)
    torch.manual_seed(0)
    for category in (UserWarning, torch.jit.TracerWarning):  # tracer/exporter chatter
        warnings.filterwarnings("ignore", category=category)
    for family in (torchvision_models, bert_models, lstm_models):
        for sample in family():
            export(*sample, outdir)


if __name__ == "__main__":
    main()
