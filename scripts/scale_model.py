#!/usr/bin/env python3
"""scale_model.py: the alpha-beta model of docs/scale-out.md, taken on paper to 8 ... 1024 nodes.

What it computes. For each kernel of the distributed layer (Life, conv2d, entropy, SUMMA GEMM,
row-sum reduce) on two node models (a 16-core CPU node, a node of 4 H200 GPUs) and two networks
(InfiniBand HDR and NDR, the specification sheets' figures), at 8, 16, ..., 1024 nodes:
  - weak scaling (each rank keeps its block) and strong scaling (a fixed problem split finer);
  - per rank and run: the compute time (the local rung's measured rate on the rank's block, halo
    cells recomputed included), the exchange time (the busiest rank's messages, one after another,
    each alpha + n / beta, counted as the benches count them: src/distributed/*/*_bench.c,
    life_messages, conv2d_messages, entropy_messages, pl_dist_gemm_traffic, reduce_messages);
  - the parallel efficiency against the rung alone on the same block (weak: T1 / TP; strong, at a
    constant rate a rank: the same ratio on the smaller block), without overlap (compute, then
    exchange) and with it (the exchange hidden behind what does not need it).
Then the same model with the alpha and beta measured here (MPI over shared memory, NCCL over
NVLink) beside every measured row of docs/scale-out.md and docs/scale-out-nccl.md at 2-16 CPU
ranks and 4 GPUs, and the error, predicted / measured - 1.

From what. Every input is a named constant below, with the document and table it comes from.
Nothing is measured by this script; nothing but the Python standard library is imported.

Output: the markdown tables that docs/scale-out.md holds ("The model at scale"), on stdout;
--all adds one table a kernel, node model, network and scaling with all eight node counts;
--json prints everything as one JSON object instead (tests/scripts/test_scale_model.sh reads it).
"""
import argparse
import json
import math
import sys
from dataclasses import dataclass

# ---------------------------------------------------------------------------------------------
# Networks. The figures are the specification sheets' (IBTA and NVIDIA product briefs), not
# measured here.
#   HDR: 200 Gb/s a port (NVIDIA ConnectX-6 VPI adapter, Quantum QM8700 switch): 25 GB/s of data.
#        Latency: the adapter's sheet says under 0.6 us, the switch's 130 ns a hop; MPI's one-way
#        time through a leaf and a spine is commonly quoted at about 1 us. alpha = 1.0 us.
#   NDR: 400 Gb/s a port (ConnectX-7, Quantum-2 QM9700): 50 GB/s. The sheets claim no lower
#        end-to-end latency than HDR's; alpha = 1.0 us as well.
# beta is the signalling rate's data: what MPI reaches is 5-10% under it (the model is that much
# optimistic on bandwidth-bound messages).
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Link:
    name: str
    alpha: float  # seconds a message
    beta: float   # bytes a second


HDR = Link("HDR", 1.0e-6, 25e9)
NDR = Link("NDR", 1.0e-6, 50e9)
NETWORKS = (HDR, NDR)

# NCCL's own cost an operation, whatever the wire: the 4-GPU runs' model columns imply alpha
# 8.4-9.7 us over NVLink (docs/scale-out-nccl.md, "Measured on four GPUs": fitted 8-17 us), most
# of it the launch and the proxy, not NVLink. A GPU's message over InfiniBand: this plus the
# network's alpha.
NCCL_OP_ALPHA = 9e-6

# The links measured here, for the comparison with the measured rows (the model's alpha and beta
# are fitted by the benches themselves: `mpirun -n 2 parlab mem pingpong`,
# pl_dist_nccl_model_measure). Each run fitted its own; the docs give ranges, and a single value
# inside each range is used for every row of that machine.
SHM_16 = Link("MPI shared memory (16-core host)", 0.435e-6, 7.35e9)  # scale-out.md: 0.42-0.45 us, 7.2-7.5 GB/s
SHM_64 = Link("MPI shared memory (64-core host)", 0.44e-6, 8.75e9)   # scale-out.md: 0.41-0.47 us, 8.75 GB/s
NVLINK = Link("NCCL over NVLink (4 H200)", 9e-6, 250e9)              # scale-out-nccl.md: 8-17 us, 227-324 GB/s

# ---------------------------------------------------------------------------------------------
# Node models: the measured rates of the local rungs.
# CPU node: the 16-core AVX-512 Xeon host (docs/scale-out.md, "The 16-core host (the H100
# machine's), measured 2026-11-27"), one rank a node, its 16 cores on the rank's block. The rates
# are the 16-rank rows' compute (every core busy, so the clock and the shared memory bandwidth of
# a full node are in them):
#   Life cpu-bitpacked: 16 ranks x 8192^2 cells x 96 generations in 181.13 ms a rank.
#   conv2d 5x5 float32 cpu-blocked: 16 ranks x 4096^2 pixels in 31.49 ms a rank (memory-bound:
#   8 bytes a pixel, so ~68 GB/s of the node's memory bandwidth).
# GPU node: 4 H200 with NVLink between them, one InfiniBand adapter a GPU (GPUDirect RDMA), one
# rank a GPU; every message of a GPU is counted on its own adapter (an upper bound: where the
# node's 4 GPUs hold a 2x2 tile, 3 of a GPU's 8 neighbours are on NVLink). The rates are the
# one-GPU baselines (docs/scale-out-nccl.md, "Measured on four GPUs", H200):
#   Life cuda-tuned 32768^2, 160 generations: 12.697 ms
#   conv2d cuda-tuned 16384^2, K 5 float32: 0.646 ms
#   entropy cuda-tuned 16384^2, k 5, 16 bins: 1.709 ms
#   gemm cuda-tuned 16384^2 of C, K 16384: 180.503 ms (48.7 TFLOP/s FP32)
#   reduce cuda-tuned, row sums of 16384^2 float32: 0.247 ms (4.35 TB/s)
# No CPU rates are measured for entropy, GEMM or reduce under MPI: they are modelled on GPUs only.
# ---------------------------------------------------------------------------------------------
LIFE_CPU_RATE = 16 * 8192**2 * 96 / 181.13e-3      # cell-updates/s a node
CONV_CPU_RATE = 16 * 4096**2 / 31.49e-3            # pixels/s a node
LIFE_GPU_RATE = 32768**2 * 160 / 12.697e-3         # cell-updates/s a GPU
CONV_GPU_RATE = 16384**2 / 0.646e-3                # pixels/s a GPU
ENTROPY_GPU_RATE = 16384**2 / 1.709e-3             # pixels/s a GPU
GEMM_GPU_RATE = 2 * 16384**3 / 180.503e-3          # FLOP/s a GPU
REDUCE_GPU_RATE = 4 * 16384**2 / 0.247e-3          # bytes read/s a GPU
HBM_GPU_RATE = REDUCE_GPU_RATE                     # a pass over memory (SUMMA's passes over C)
GPUS_A_NODE = 4

# The halo depths the code takes by default (pl_dist_life_default_depth: 48 on a CPU rung, 32
# on a CUDA one); the stencils' radius (K = 5, k = 5: r = 2); SUMMA's panel width on GPUs
# (PL_DIST_GEMM_KB_GPU).
LIFE_DEPTH_CPU, LIFE_DEPTH_GPU = 48, 32
STENCIL_R = 2
GEMM_KB_GPU = 4096

NODES = (8, 16, 32, 64, 128, 256, 512, 1024)
DOC_NODES = (8, 64, 256, 1024)  # the columns the document shows


# ---------------------------------------------------------------------------------------------
# The grid and the messages
# ---------------------------------------------------------------------------------------------
def grid_dims(p):
    """MPI_Dims_create(p, 2): two factors as close as may be, the larger first (rows)."""
    rows = p
    for r in range(int(math.isqrt(p)), 0, -1):
        if p % r == 0:
            rows = p // r
            break
    return rows, p // rows


DIRS = [(dy, dx) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dy, dx) != (0, 0)]


def neighbours(dims, periodic):
    """The busiest rank's directions that have a neighbour. On a torus all 8 (a neighbour may be
    the rank itself, still a message: the bench counts it so); on a plane, the rank at row 1 and
    column 1 (an interior rank once both dims are >= 3)."""
    if dims[0] * dims[1] == 1:
        return []
    if periodic:
        return list(DIRS)
    r, c = min(1, dims[0] - 1), min(1, dims[1] - 1)
    return [(dy, dx) for dy, dx in DIRS if 0 <= r + dy < dims[0] and 0 <= c + dx < dims[1]]


def life_words(cells):
    return -(-cells // 64)  # pl_life_words_per_row


def send_time(link, nbytes):
    return link.alpha + nbytes / link.beta


def bcast_time(link, nbytes, q):
    """A broadcast over q ranks, pipelined: the code calls ncclBroadcast (NCCL's ring, in chunks)
    on GPUs and MPI_Ibcast on the host (Open MPI segments large ones). The bandwidth term is paid
    once; the latency term is a tree's depth. q = 2 is one message, as the bench counts it."""
    return math.ceil(math.log2(q)) * link.alpha + nbytes / link.beta


def reduce_line_time(link, nbytes, q):
    """A reduction of small messages over q ranks: a binomial tree, log2(q) hops, not pipelined."""
    return math.ceil(math.log2(q)) * (link.alpha + nbytes / link.beta)


# ---------------------------------------------------------------------------------------------
# The kernels: one run of the busiest rank. Each returns a dict:
#   base      the rung alone on the rank's block (the efficiency's baseline), s
#   compute   what the rank computes in the run (halo recomputed included), s
#   exchange  its messages, s;  messages, bytes: their count and size
#   overlap_t the run's time with the exchange hidden behind what does not need it, s
# ---------------------------------------------------------------------------------------------
def life(h, w, gens, d, rate, link, dims):
    """Life on a torus, halo depth d: a step of d generations after one exchange of d rows and
    columns (each row of a strip packed in 64-cell words); the window (h+2d) x (w+2d) is computed
    every generation, so the halo's cells are computed again by their neighbour."""
    steps = -(-gens // d)
    msgs = nbytes = t_x = 0.0
    for dy, dx in neighbours(dims, periodic=True):
        rows, cells = (d if dy else h), (d if dx else w)
        n = rows * life_words(cells) * 8
        msgs, nbytes, t_x = msgs + steps, nbytes + steps * n, t_x + steps * send_time(link, n)
    halo = d if msgs else 0
    base = h * w * gens / rate
    compute = (h + 2 * halo) * (w + 2 * halo) * gens / rate
    inner = max(h - 2 * d, 0) * max(w - 2 * d, 0) / (h * w)  # the part that needs no halo (--overlap on)
    return dict(base=base, compute=compute, exchange=t_x, messages=msgs, bytes=nbytes,
                overlap_t=max(compute, t_x + compute * (1 - inner)))


def stencil(h, w, r, elem_bytes, rate, link, dims):
    """conv2d (K x K, float32) or entropy (k x k, bytes) with a zero border: one exchange a run,
    a side r rows or columns, a corner r x r; the rim r wide waits for it under overlap."""
    msgs = nbytes = t_x = 0.0
    for dy, dx in neighbours(dims, periodic=False):
        n = elem_bytes * (r if dy else h) * (r if dx else w)
        msgs, nbytes, t_x = msgs + 1, nbytes + n, t_x + send_time(link, n)
    compute = h * w / rate
    inner = max(h - 2 * r, 0) * max(w - 2 * r, 0) / (h * w)
    return dict(base=compute, compute=compute, exchange=t_x, messages=msgs, bytes=nbytes,
                overlap_t=max(compute, t_x + compute * (1 - inner)))


def gemm_panels(K, kb, dims):
    """pl_dist_gemm_panel_at's walk: at most kb wide, cut at every block edge of A's columns (K over
    the grid's columns) and of B's rows (K over its rows)."""
    edges = sorted({K * j // dims[1] for j in range(1, dims[1] + 1)} | {K * i // dims[0] for i in range(1, dims[0] + 1)})
    k0, widths = 0, []
    for e in edges:
        while k0 < e:
            k1 = min(k0 + kb, e)
            widths.append(k1 - k0)
            k0 = k1
    return widths


def gemm(m, n, K, kb, rate, hbm, link, dims):
    """SUMMA: each panel of width w, A's m x w broadcast along the process row and B's w x n along
    the column, then C += A_panel B_panel. Every panel after the first reads and writes the rank's
    block of C once more (8 m n bytes at hbm bytes/s), which one call over the whole K does not.
    With overlap, as the code does: the next panel's broadcasts start when the current one's have
    arrived and its buffers are free (two of each), the product waits for its panel."""
    msgs = nbytes = 0.0
    comp, exch = [], []
    for w in gemm_panels(K, kb, dims):
        t = 0.0
        if dims[1] > 1:
            msgs, nbytes, t = msgs + 1, nbytes + 4 * m * w, t + bcast_time(link, 4 * m * w, dims[1])
        if dims[0] > 1:
            msgs, nbytes, t = msgs + 1, nbytes + 4 * w * n, t + bcast_time(link, 4 * w * n, dims[0])
        comp.append(2 * m * n * w / rate + (8 * m * n / hbm if comp else 0.0))
        exch.append(t)
    arrived, done = [], []
    for i, (c, e) in enumerate(zip(comp, exch)):
        start = max(arrived[i - 1] if i else 0.0, done[i - 2] if i >= 2 else 0.0)
        arrived.append(start + e)
        done.append(max(done[i - 1] if i else 0.0, arrived[i]) + c)
    return dict(base=2 * m * n * K / rate, compute=sum(comp), exchange=sum(exch), messages=msgs, bytes=nbytes,
                overlap_t=done[-1])


def reduce_rows(h, w, rate, link, dims):
    """Row sums of an (rows x h) x (cols x w) float32 matrix, the result on every rank: the block's
    h partials combined along the process row, then the other process rows' bands (h sums each)
    received. Nothing to overlap: the combine needs the partials."""
    msgs = nbytes = t_x = 0.0
    if dims[1] > 1:
        msgs, nbytes, t_x = 1, 4 * h, reduce_line_time(link, 4 * h, dims[1])
    if dims[0] > 1:
        k = dims[0] - 1
        msgs, nbytes, t_x = msgs + k, nbytes + 4 * h * k, t_x + k * send_time(link, 4 * h)
    compute = 4 * h * w / rate
    return dict(base=compute, compute=compute, exchange=t_x, messages=msgs, bytes=nbytes,
                overlap_t=compute + t_x)


# ---------------------------------------------------------------------------------------------
# The cases at scale: node model, kernel, what the code overlaps, the weak block, the strong problem.
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Case:
    key: str
    label: str          # kernel and node, for the tables
    node: str           # "CPU" or "GPU"
    ranks_a_node: int
    code_overlaps: str  # what the code does by default (`--overlap auto`)
    weak: tuple         # the block a rank (rows, cols)
    strong: tuple       # the whole problem (rows, cols)
    run: object         # run(h, w, link, dims, scaling) -> dict


def gpu_link(net):
    return Link(net.name, NCCL_OP_ALPHA + net.alpha, net.beta)


CASES = (
    Case("life-cpu", "Life cpu-bitpacked, 96 gens, halo 48 (CPU node)", "CPU", 1,
         "no (auto never overlaps Life)", (32768, 32768), (65536, 65536),
         lambda h, w, link, dims, scaling: life(h, w, 96, LIFE_DEPTH_CPU, LIFE_CPU_RATE, link, dims)),
    Case("conv2d-cpu", "conv2d 5x5 float32 cpu-blocked (CPU node)", "CPU", 1,
         "yes (auto, on the host path)", (16384, 16384), (65536, 65536),
         lambda h, w, link, dims, scaling: stencil(h, w, STENCIL_R, 4, CONV_CPU_RATE, link, dims)),
    Case("life-gpu", "Life cuda-tuned, 160 gens, halo 32 (GPU node)", "GPU", GPUS_A_NODE,
         "no", (32768, 32768), (262144, 262144),
         lambda h, w, link, dims, scaling: life(h, w, 160, LIFE_DEPTH_GPU, LIFE_GPU_RATE, gpu_link(link), dims)),
    Case("conv2d-gpu", "conv2d 5x5 float32 cuda-tuned (GPU node)", "GPU", GPUS_A_NODE,
         "no (measured slower on GPUs)", (16384, 16384), (65536, 65536),
         lambda h, w, link, dims, scaling: stencil(h, w, STENCIL_R, 4, CONV_GPU_RATE, gpu_link(link), dims)),
    Case("entropy-gpu", "entropy 5x5, 16 bins, cuda-tuned (GPU node)", "GPU", GPUS_A_NODE,
         "no (measured slower on GPUs)", (16384, 16384), (65536, 65536),
         lambda h, w, link, dims, scaling: stencil(h, w, STENCIL_R, 1, ENTROPY_GPU_RATE, gpu_link(link), dims)),
    # GEMM's weak scaling is the bench's: each rank's block of C stays 16384^2 and K stays 16384;
    # strong: M = N = K = 65536 (C's block h x w, K the whole).
    Case("gemm-gpu", "GEMM SUMMA FP32 cuda-tuned, panels 4096 (GPU node)", "GPU", GPUS_A_NODE,
         "yes (next panel's broadcasts before the product)", (16384, 16384), (65536, 65536),
         lambda h, w, link, dims, scaling: gemm(h, w, 16384 if scaling == "weak" else 65536, GEMM_KB_GPU,
                                                GEMM_GPU_RATE, HBM_GPU_RATE, gpu_link(link), dims)),
    Case("reduce-gpu", "reduce row sums float32 cuda-tuned (GPU node)", "GPU", GPUS_A_NODE,
         "no (nothing to overlap)", (16384, 16384), (65536, 65536),
         lambda h, w, link, dims, scaling: reduce_rows(h, w, REDUCE_GPU_RATE, gpu_link(link), dims)),
)


def predict(case, net, nodes, scaling):
    ranks = nodes * case.ranks_a_node
    dims = grid_dims(ranks)
    if scaling == "weak":
        h, w = case.weak
    else:
        h, w = case.strong[0] // dims[0], case.strong[1] // dims[1]
    r = case.run(h, w, net, dims, scaling)
    return dict(case=case.key, node=case.node, network=net.name, scaling=scaling, nodes=nodes, ranks=ranks,
                grid=f"{dims[0]}x{dims[1]}", block=f"{h}x{w}", messages=r["messages"], bytes=r["bytes"],
                alpha=(gpu_link(net) if case.node == "GPU" else net).alpha,
                beta=net.beta, base_s=r["base"], compute_s=r["compute"], exchange_s=r["exchange"],
                eff_no_overlap=r["base"] / (r["compute"] + r["exchange"]),
                eff_overlap=r["base"] / r["overlap_t"], code_overlaps=case.code_overlaps)


# ---------------------------------------------------------------------------------------------
# The measured rows the same model is held against (the data as the documents print it).
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Measured:
    source: str        # document, table
    label: str
    ranks: int
    link: Link
    model: tuple       # (kernel function name, its arguments but link and dims)
    base_ms: float     # the baseline (one process, one GPU) of the same run; None: not given
    bench_model_ms: float
    exch_wait_ms: float
    efficiency: float  # measured, as a fraction; None: not given


S16 = "scale-out.md, 16-core host 2026-11-27"
S64 = "scale-out.md, 64-core host 2026-11-27"
NC = "scale-out-nccl.md, four GPUs (H200)"
NS = "scale-out.md, several GPUs (H100)"
LIFE_CPU_8192 = ("life", 8192, 8192, 96, LIFE_DEPTH_CPU)
CONV_CPU_4096 = ("stencil", 4096, 4096, STENCIL_R, 4)
MEASURED = (
    Measured(S16, "life cpu-bitpacked 8192^2", 2, SHM_16, LIFE_CPU_8192, 136.40, 0.103, 8.42, 1.104),
    Measured(S16, "life cpu-bitpacked 8192^2", 4, SHM_16, LIFE_CPU_8192, 101.17, 0.070, 28.23, 0.668),
    Measured(S16, "life cpu-bitpacked 8192^2", 8, SHM_16, LIFE_CPU_8192, 108.42, 0.064, 26.62, 0.744),
    Measured(S16, "life cpu-bitpacked 8192^2", 16, SHM_16, LIFE_CPU_8192, 110.31, 0.067, 45.57, 0.599),
    Measured(S16, "conv2d cpu-blocked 4096^2", 2, SHM_16, CONV_CPU_4096, 15.42, 0.005, 0.174, 1.095),
    Measured(S16, "conv2d cpu-blocked 4096^2", 4, SHM_16, CONV_CPU_4096, 18.40, 0.010, 4.35, 0.898),
    Measured(S16, "conv2d cpu-blocked 4096^2", 8, SHM_16, CONV_CPU_4096, 18.67, 0.014, 11.42, 0.658),
    Measured(S16, "conv2d cpu-blocked 4096^2", 16, SHM_16, CONV_CPU_4096, 17.18, 0.020, 10.25, 0.541),
    Measured(S64, "life cpu-bitpacked 8192^2", 2, SHM_64, LIFE_CPU_8192, 91.60, 0.086, 6.793, 0.619),
    Measured(S64, "life cpu-bitpacked 8192^2", 4, SHM_64, LIFE_CPU_8192, 92.43, 0.058, 25.430, 0.664),
    Measured(S64, "life cpu-bitpacked 8192^2", 8, SHM_64, LIFE_CPU_8192, 142.24, 0.061, 49.818, 0.642),
    Measured(S64, "life cpu-bitpacked 8192^2", 16, SHM_64, LIFE_CPU_8192, 92.90, 0.082, 48.206, 0.449),
    Measured(NC, "life cuda-tuned 32768^2", 4, NVLINK, ("life", 32768, 32768, 160, LIFE_DEPTH_GPU),
             12.697, 0.350, 0.78 + 0.42, 0.911),
    Measured(NC, "conv2d cuda-tuned 16384^2", 4, NVLINK, ("stencil", 16384, 16384, STENCIL_R, 4),
             0.646, 0.030, 0.022 + 0.040, 0.869),
    Measured(NS, "conv2d cuda-tuned 8192^2", 4, NVLINK, ("stencil", 8192, 8192, STENCIL_R, 4),
             None, 0.032, 0.036, 0.778),
    Measured(NC, "entropy cuda-tuned 16384^2", 4, NVLINK, ("stencil", 16384, 16384, STENCIL_R, 1),
             1.709, 0.028, 0.019 + 0.018, 0.976),
    Measured(NS, "entropy cuda-tuned 8192^2", 4, NVLINK, ("stencil", 8192, 8192, STENCIL_R, 1),
             None, 0.034, 0.035, 0.908),
    Measured(NC, "gemm SUMMA cuda-tuned 16384^2, K 16384", 4, NVLINK, ("gemm", 16384, 16384, 16384, GEMM_KB_GPU),
             180.503, 8.675, 162.3 + 5.1, 0.863),
    Measured(NC, "reduce cuda-tuned 16384^2", 4, NVLINK, ("reduce", 16384, 16384),
             0.247, 0.019, 0.022 + 0.000, 0.859),
)


def validate(m):
    """The model's exchange and efficiency for a measured row. The compute rate is the row's own
    baseline (so the efficiency's error is the exchange's and what the model leaves out)."""
    dims = grid_dims(m.ranks)
    kind, *args = m.model
    base = (m.base_ms if m.base_ms is not None else 1.0) * 1e-3
    if kind == "life":
        h, w, gens, d = args
        r = life(h, w, gens, d, h * w * gens / base, m.link, dims)
    elif kind == "stencil":
        h, w, rad, eb = args
        r = stencil(h, w, rad, eb, h * w / base, m.link, dims)
    elif kind == "gemm":
        mm, nn, K, kb = args
        r = gemm(mm, nn, K, kb, 2 * mm * nn * K / base, HBM_GPU_RATE, m.link, dims)
    else:
        h, w = args
        r = reduce_rows(h, w, 4 * h * w / base, m.link, dims)
    # What `--overlap auto` did on these rows: SUMMA always, conv2d on the host path (its rim is
    # under a tenth of the block), Life and the GPU stencils never.
    overlapped = kind == "gemm" or (kind == "stencil" and m.link is not NVLINK)
    eff = r["base"] / (r["overlap_t"] if overlapped else r["compute"] + r["exchange"])
    if m.base_ms is None:
        eff = None
    model_ms = r["exchange"] * 1e3
    return dict(source=m.source, label=m.label, ranks=m.ranks, grid="%dx%d" % dims, link=m.link.name,
                alpha=m.link.alpha, beta=m.link.beta, model_exchange_ms=model_ms,
                bench_model_ms=m.bench_model_ms, measured_exchange_wait_ms=m.exch_wait_ms,
                exchange_error=model_ms / m.exch_wait_ms - 1,
                model_efficiency=eff, measured_efficiency=m.efficiency,
                efficiency_error=None if eff is None else eff / m.efficiency - 1)


# ---------------------------------------------------------------------------------------------
# Tables
# ---------------------------------------------------------------------------------------------
def ms(seconds):
    x = seconds * 1e3
    for bound, fmt in ((100, "%.0f"), (10, "%.1f"), (1, "%.2f"), (0.01, "%.3f")):
        if x >= bound:
            return fmt % x
    return "%.4f" % x


def pct(f):
    return "%.1f" % (100 * f)


def signed_pct(f):
    return "%+.1f%%" % (100 * f)


def row(cells):
    return "| " + " | ".join(cells) + " |"


def heading(out, title, header, align):
    """A table's title line, a blank line, its header and its alignment row."""
    out += [title, "", row(header), row(align)]


def across(ps, key, fmt):
    """One cell holding a figure at each of the document's node counts: "a / b / c / d"."""
    return " / ".join(fmt(p[key]) for p in ps)


def doc_tables(preds, checks):
    by = {(p["case"], p["network"], p["scaling"], p["nodes"]): p for p in preds}
    cols = " / ".join(str(n) for n in DOC_NODES)
    out = []
    heading(out, "**Weak scaling** (each rank keeps its block; columns: %s nodes)" % cols,
            ["kernel (node), block a rank", "network", "compute a run (ms)", "exchange a run (ms)",
             "efficiency without overlap (%)", "with overlap (%)", "the code overlaps"],
            ["---", "---", "---:", "---:", "---:", "---:", "---"])
    for c in CASES:
        for net in NETWORKS:
            ps = [by[(c.key, net.name, "weak", n)] for n in DOC_NODES]
            out.append(row([f"{c.label}, {c.weak[0]}x{c.weak[1]}", net.name, ms(ps[0]["compute_s"]),
                            across(ps, "exchange_s", ms), across(ps, "eff_no_overlap", pct),
                            across(ps, "eff_overlap", pct), c.code_overlaps]))
    out.append("")
    heading(out, "**Strong scaling** (a fixed problem split finer; columns: %s nodes)" % cols,
            ["kernel (node), whole problem", "network", "block a rank", "compute a run (ms)",
             "exchange a run (ms)", "efficiency without overlap (%)", "with overlap (%)"],
            ["---", "---", "---", "---:", "---:", "---:", "---:"])
    for c in CASES:
        for net in NETWORKS:
            ps = [by[(c.key, net.name, "strong", n)] for n in DOC_NODES]
            whole = f"{c.strong[0]}x{c.strong[1]}" + ("x65536" if c.key == "gemm-gpu" else "")
            out.append(row([f"{c.label}, {whole}", net.name, across(ps, "block", str), across(ps, "compute_s", ms),
                            across(ps, "exchange_s", ms), across(ps, "eff_no_overlap", pct),
                            across(ps, "eff_overlap", pct)]))
    out.append("")
    heading(out, "**Model against measurement** (the same model, alpha and beta measured here; "
            "error = model / measured - 1)",
            ["measured row (where)", "ranks", "alpha, beta", "exchange: model (ms)", "bench's model (ms)",
             "measured exchange + wait (ms)", "error", "measured / model", "efficiency: model", "measured", "error"],
            ["---", "---:", "---", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:"])
    for v in checks:
        ab = "%.2g us, %.3g GB/s" % (v["alpha"] * 1e6, v["beta"] / 1e9)
        out.append(row([f"{v['label']} ({v['source']})", f"{v['ranks']} ({v['grid']})", ab,
                        "%.3f" % v["model_exchange_ms"], "%.3f" % v["bench_model_ms"],
                        "%.3f" % v["measured_exchange_wait_ms"], signed_pct(v["exchange_error"]),
                        "%.3g" % (v["measured_exchange_wait_ms"] / v["model_exchange_ms"]),
                        "—" if v["model_efficiency"] is None else pct(v["model_efficiency"]) + "%",
                        pct(v["measured_efficiency"]) + "%",
                        "—" if v["efficiency_error"] is None else signed_pct(v["efficiency_error"])]))
    return "\n".join(out) + "\n"


def full_tables(preds):
    out = []
    for c in CASES:
        for scaling in ("weak", "strong"):
            for net in NETWORKS:
                out.append("")
                heading(out, f"{c.label}, {scaling} scaling, {net.name}",
                        ["nodes", "ranks (grid)", "block a rank", "messages a run", "bytes a run", "compute (ms)",
                         "exchange (ms)", "efficiency without overlap (%)", "with overlap (%)"],
                        ["---:", "---", "---", "---:", "---:", "---:", "---:", "---:", "---:"])
                for p in preds:
                    if (p["case"], p["scaling"], p["network"]) == (c.key, scaling, net.name):
                        out.append(row([str(p["nodes"]), f"{p['ranks']} ({p['grid']})", p["block"],
                                        "%.0f" % p["messages"], "%.4g" % p["bytes"], ms(p["compute_s"]),
                                        ms(p["exchange_s"]), pct(p["eff_no_overlap"]), pct(p["eff_overlap"])]))
    return "\n".join(out) + "\n"


def main(argv):
    ap = argparse.ArgumentParser(description="The alpha-beta scale-out model at 8 to 1024 nodes (docs/scale-out.md).")
    ap.add_argument("--all", action="store_true", help="also print every node count, kernel, network and scaling")
    ap.add_argument("--json", action="store_true", help="print the predictions and the checks as JSON")
    args = ap.parse_args(argv)
    preds = [predict(c, net, n, s) for c in CASES for s in ("weak", "strong") for net in NETWORKS for n in NODES]
    checks = [validate(m) for m in MEASURED]
    if args.json:
        nets = [dict(name=n.name, alpha=n.alpha, beta=n.beta) for n in NETWORKS]
        json.dump(dict(networks=nets, nccl_op_alpha=NCCL_OP_ALPHA, nodes=list(NODES), predictions=preds,
                       checks=checks), sys.stdout, indent=1)
        sys.stdout.write("\n")
        return 0
    sys.stdout.write(doc_tables(preds, checks))
    if args.all:
        sys.stdout.write(full_tables(preds))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
