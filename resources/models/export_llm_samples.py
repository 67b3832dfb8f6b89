#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Rooftop - export the sample LLM decoder used by the tests, the README and `rooftop llm`.
#
# This program is free software: you can redistribute it and/or modify it under
# the terms of the GNU General Public License as published by the Free Software
# Foundation, either version 3 of the License, or (at your option) any later
# version. This program is distributed in the hope that it will be useful, but
# WITHOUT ANY WARRANTY; without even the implied warranty of MERCHANTABILITY or
# FITNESS FOR A PARTICULAR PURPOSE. See the GNU General Public License for more
# details. You should have received a copy of the GNU General Public License
# along with this program. If not, see <https://www.gnu.org/licenses/>.
"""Export a small Llama-like decoder with a KV cache, as torch.onnx / optimum do.

Usage: /usr/bin/python3 export_llm_samples.py [OUTDIR]     (default: this script's folder)

The decoder has RMSNorm, rotary embeddings read from cos/sin tables by
position_ids, grouped-query attention (the KV heads repeated with
unsqueeze/expand/reshape), a SiLU MLP, a causal mask built from the past and
total lengths (Range arithmetic) and from attention_mask, and past_key_values.N
inputs concatenated into present.N outputs, with optimum's dynamic axes
(batch_size, sequence_length, past_sequence_length, total_sequence_length).
Weights are random, exported in fp32 at opset 17, then moved to external data
that is deleted: the file keeps the graph and tensor metadata only.
"""
import io
import os
import sys
import warnings

import onnx
import torch
from torch import nn

OPSET = 17
SHAPE = dict(vocab=256, hidden=64, layers=2, heads=4, kv_heads=2, intermediate=172, max_positions=512)


class RMSNorm(nn.Module):
    def __init__(self, width, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(width))
        self.eps = eps

    def forward(self, x):
        variance = x.pow(2).mean(-1, keepdim=True)
        return self.weight * (x * torch.rsqrt(variance + self.eps))


def rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


class Layer(nn.Module):
    def __init__(self, s):
        super().__init__()
        self.heads, self.kv_heads = s["heads"], s["kv_heads"]
        self.head_dim = s["hidden"] // s["heads"]
        h, kv = s["hidden"], s["kv_heads"] * (s["hidden"] // s["heads"])
        self.input_layernorm = RMSNorm(h)
        self.q_proj = nn.Linear(h, h, bias=False)
        self.k_proj = nn.Linear(h, kv, bias=False)
        self.v_proj = nn.Linear(h, kv, bias=False)
        self.o_proj = nn.Linear(h, h, bias=False)
        self.post_attention_layernorm = RMSNorm(h)
        self.gate_proj = nn.Linear(h, s["intermediate"], bias=False)
        self.up_proj = nn.Linear(h, s["intermediate"], bias=False)
        self.down_proj = nn.Linear(s["intermediate"], h, bias=False)

    def repeat_kv(self, x):
        b, kvh, t, d = x.shape
        rep = self.heads // self.kv_heads
        return x[:, :, None, :, :].expand(b, kvh, rep, t, d).reshape(b, kvh * rep, t, d)

    def forward(self, x, cos, sin, mask, past_key, past_value):
        b, s, _ = x.shape
        n = self.input_layernorm(x)
        q = self.q_proj(n).view(b, s, self.heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(n).view(b, s, self.kv_heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(n).view(b, s, self.kv_heads, self.head_dim).transpose(1, 2)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        key = torch.cat([past_key, k], dim=2)
        value = torch.cat([past_value, v], dim=2)
        scores = torch.matmul(q, self.repeat_kv(key).transpose(2, 3)) / (self.head_dim ** 0.5) + mask
        out = torch.matmul(torch.softmax(scores, dim=-1), self.repeat_kv(value))
        x = x + self.o_proj(out.transpose(1, 2).reshape(b, s, self.heads * self.head_dim))
        n2 = self.post_attention_layernorm(x)
        x = x + self.down_proj(nn.functional.silu(self.gate_proj(n2)) * self.up_proj(n2))
        return x, key, value


class TinyLlama(nn.Module):
    def __init__(self, s):
        super().__init__()
        self.embed_tokens = nn.Embedding(s["vocab"], s["hidden"])
        self.layers = nn.ModuleList(Layer(s) for _ in range(s["layers"]))
        self.norm = RMSNorm(s["hidden"])
        self.lm_head = nn.Linear(s["hidden"], s["vocab"], bias=False)
        head_dim = s["hidden"] // s["heads"]
        inv_freq = 1.0 / (10000 ** (torch.arange(0, head_dim, 2).float() / head_dim))
        angles = torch.outer(torch.arange(s["max_positions"]).float(), inv_freq)
        angles = torch.cat((angles, angles), dim=-1)
        self.register_buffer("cos_cached", angles.cos())
        self.register_buffer("sin_cached", angles.sin())

    def forward(self, input_ids, attention_mask, position_ids, *past):
        x = self.embed_tokens(input_ids)
        cos = self.cos_cached[position_ids].unsqueeze(1).to(x.dtype)
        sin = self.sin_cached[position_ids].unsqueeze(1).to(x.dtype)
        s = input_ids.shape[1]
        t = attention_mask.shape[1]
        past_length = t - s
        query_pos = torch.arange(past_length, t, device=input_ids.device)
        key_pos = torch.arange(t, device=input_ids.device)
        causal = (key_pos[None, :] > query_pos[:, None]).to(x.dtype) * -10000.0
        padding = (1.0 - attention_mask[:, None, None, :].to(x.dtype)) * -10000.0
        mask = causal[None, None, :, :] + padding
        presents = []
        for i, layer in enumerate(self.layers):
            x, key, value = layer(x, cos, sin, mask, past[2 * i], past[2 * i + 1])
            presents += [key, value]
        return (self.lm_head(self.norm(x)), *presents)


def main():
    outdir = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    warnings.filterwarnings("ignore")
    torch.manual_seed(0)
    s = SHAPE
    model = TinyLlama(s).eval()
    with torch.no_grad():
        for p in model.parameters():
            p.add_(torch.rand_like(p) * 0.01)
    batch, seq, past_len = 2, 3, 5
    head_dim = s["hidden"] // s["heads"]
    past = []
    names_in = ["input_ids", "attention_mask", "position_ids"]
    names_out = ["logits"]
    axes = {"input_ids": {0: "batch_size", 1: "sequence_length"},
            "attention_mask": {0: "batch_size", 1: "total_sequence_length"},
            "position_ids": {0: "batch_size", 1: "sequence_length"},
            "logits": {0: "batch_size", 1: "sequence_length"}}
    for i in range(s["layers"]):
        for kind in ("key", "value"):
            past.append(torch.rand(batch, s["kv_heads"], past_len, head_dim))
            name_in, name_out = f"past_key_values.{i}.{kind}", f"present.{i}.{kind}"
            names_in.append(name_in)
            names_out.append(name_out)
            axes[name_in] = {0: "batch_size", 2: "past_sequence_length"}
            axes[name_out] = {0: "batch_size", 2: "total_sequence_length"}
    ids = torch.randint(0, s["vocab"], (batch, seq))
    mask = torch.ones(batch, past_len + seq, dtype=torch.int64)
    positions = torch.arange(past_len, past_len + seq).unsqueeze(0).expand(batch, seq)
    example = (ids, mask, positions, *past)
    buffer = io.BytesIO()
    torch.onnx.export(model, example, buffer, opset_version=OPSET, do_constant_folding=True,
                      input_names=names_in, output_names=names_out, dynamic_axes=axes)
    proto = onnx.load_from_string(buffer.getvalue())
    path = os.path.join(outdir, "tiny_llama.onnx")
    data = "tiny_llama.onnx.data"
    onnx.save_model(proto, path, save_as_external_data=True, all_tensors_to_one_file=True,
                    location=data, size_threshold=1024)
    os.remove(os.path.join(outdir, data))
    print(f"{path}: {os.path.getsize(path)} bytes")


if __name__ == "__main__":
    main()
