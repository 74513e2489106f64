"""reduce_torch.py: a PyTorch reduction as your own rung on parlab's reduce ladder: the row
sums (one value per row, axis 1) and the column sums (axis 0) of a float32 matrix on the GPU,
verified against parlab's float64 reference and timed beside parlab's CUDA rungs and the CUB
peer in one run. Any op of the kernel works: sum, mean, min, max, sumsq.

parlab.rung(fn, backend="cuda", arrays="torch") calls fn with the kernel's operands in order as
PyTorch tensors on the GPU (A, M x N; r, M values for axis 1 or N for axis 0, to be written)
and the problem's parameters as keyword arguments (op, axis, ...); fn works on the current
CUDA stream (parlab's, which it times) and writes r (or returns a tensor of r's shape).

    python3 examples/reduce_torch.py                  # size 4096 and 4097x1023, op sum
    python3 examples/reduce_torch.py max 1000x3001    # an op and sizes of your own

Needs a GPU, PyTorch with CUDA, and parlab's Python package (pip install .).
"""
import sys

from rows import print_rows  # rows.py, beside this script

OPS = ["sum", "mean", "min", "max", "sumsq"]  # parlab's pl_reduce_op, in its order


def my_reduce(A, r, *, op="sum", axis=1, **params):
    """r = op over each row (axis 1) or each column (axis 0) of A, as NumPy's axis."""
    op = OPS[op] if isinstance(op, int) else op
    dim = int(axis)
    if op == "sum":
        value = A.sum(dim=dim)
    elif op == "mean":
        value = A.mean(dim=dim)
    elif op == "min":
        value = A.amin(dim=dim)
    elif op == "max":
        value = A.amax(dim=dim)
    elif op == "sumsq":
        value = A.square().sum(dim=dim)
    else:
        raise ValueError(f"my_reduce: op {op!r} is not one of {', '.join(OPS)}")
    r.copy_(value)


def main(argv):
    try:
        import torch
        import parlab
    except ImportError as e:
        sys.exit(f"reduce_torch.py: needs PyTorch and parlab's Python package ({e})")
    if not torch.cuda.is_available():
        sys.exit("reduce_torch.py: needs a GPU (torch.cuda.is_available() is False)")
    args = argv[1:]
    op = args.pop(0) if args and args[0] in OPS else "sum"
    sizes = args or ["4096", "4097x1023"]
    mine = parlab.rung(my_reduce, backend="cuda", name="mine", arrays="torch")
    status = 0
    for axis in (1, 0):
        print(f"reduce op={op} axis={axis} ({'one value per row' if axis else 'one value per column'})")
        rows = parlab.bench("reduce", sizes, ["cuda-naive", "cuda-warp", "cuda-tuned", mine], peer=True,
                            set={"op": op, "axis": axis})
        status |= print_rows(rows)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
