"""What parlab has and what this machine can do (list, peaks), and the harness (bench, check)."""
import builtins
import json

from . import _parlab
from ._parlab import ArgumentError, UnsupportedError, VerifyError
from ._rung import Rung, as_variant


def list(kernel=None):  # noqa: A001 (parlab.list, as `parlab list`)
    """The kernels and their ladders, as dicts: name, summary, size_help, unit, params (the
    problem's) and variants (each: name, idea, backend, peer, precision, runnable, why_not,
    params). kernel: one kernel's dict."""
    ks = _parlab.kernels()
    if kernel is None:
        return ks
    for k in ks:
        if k["name"] == kernel:
            return k
    raise ArgumentError(f"no kernel {kernel!r}: one of {', '.join(k['name'] for k in ks)}")


def machine():
    """One line on this machine and build: "x86-64 AVX2 AVX-512, 2 cores; CUDA build; GPU: ..."."""
    return _parlab.machine()[0]


def peaks(measure=False):
    """The machine's measured ceilings (FMA peaks, bandwidths; GFLOP/s, GB/s) as a dict, from
    `parlab peaks`'s cache; measure=True measures them (quick, seconds) when none are cached.
    None when none are known."""
    return _parlab.peaks(bool(measure))


_CHECKS = {"auto": 0, "full": 1, "sample": 2}


def bench(kernel, size, variants="all", peer=False, *, set=None, threads=None, device=0, warmup=None, repeats=None,
          min_time=None, seed=42, cold=False, check="auto", notes=None):
    """Run `parlab bench`: each rung on seeded inputs, verified against the float64 reference,
    timed (warm-up, then repeats until min_time), placed against the cached peaks. Returns the
    rows of the --json file (docs/output.md) as a list of dicts.

    kernel: "gemm", ...; size: "1024", "512x256x128", "small", or a list of them; variants:
    "all" (every rung that can run here), a name, or a list; a list may hold rungs of your own
    (parlab.rung(fn, ...); a bare callable is a CPU rung named as the function); peer: add the peer libraries
    (OpenBLAS, cuBLAS, ...) of the backends used; set: the problem's parameters as a dict
    ({"op": "max", "axis": 0}) as --set does. notes: a list that gets the lines of rungs that
    do not take a problem. Ctrl-C stops it between runs with KeyboardInterrupt.
    """
    k = list(kernel)
    sizes = [size] if isinstance(size, (str, int)) else [str(s) for s in size]
    sizes = [str(s) for s in sizes]
    ladder = k["variants"]
    if variants == "all":
        chosen = [v["name"] for v in ladder if not v["peer"] and v["runnable"]]
        if not chosen:
            raise UnsupportedError(f"bench: no variant of {kernel} can run here (parlab.list({kernel!r}) says why)")
    else:
        items = [variants] if isinstance(variants, (str, Rung)) or callable(variants) else variants
        chosen = [v if isinstance(v, Rung) else Rung(v) if callable(v) else str(v) for v in items]
        by_name = {v["name"]: v for v in ladder}
        for name in chosen:
            if isinstance(name, Rung):
                continue
            if name not in by_name:
                raise ArgumentError(f"bench: {kernel} has no variant {name!r} (parlab.list({kernel!r}))")
            if not by_name[name]["runnable"]:
                raise UnsupportedError(f"bench: {name} cannot run here: {by_name[name]['why_not']}")
    if peer:
        backends = {v["backend"] for v in ladder if v["name"] in chosen}
        backends |= {v.backend for v in chosen if isinstance(v, Rung)}
        chosen += [v["name"] for v in ladder
                   if v["peer"] and v["runnable"] and v["backend"] in backends and v["name"] not in chosen]
    if check not in _CHECKS:
        raise ArgumentError(f"bench: check {check!r}: one of 'auto', 'full', 'sample'")
    settings = [f"{n}={v}" for n, v in (set or {}).items()]
    chosen = [as_variant(kernel, v) for v in chosen]  # a Rung: its capsule, alive for the run
    text, lines = _parlab.bench(kernel, sizes, chosen, settings, 0 if threads is None else int(threads), int(device),
                                -1 if warmup is None else int(warmup), 0 if repeats is None else int(repeats),
                                0.0 if min_time is None else float(min_time), int(seed), bool(cold), _CHECKS[check])
    if notes is not None:
        notes.extend(line for line in lines.splitlines() if line)
    return json.loads(text)["results"]


class CheckReport(builtins.list):
    """What parlab.check found: a list with one dict per case and seed, in order: size and
    settings (the case as the kernel declares it), problem (its description), seed, verdict
    ("pass", "fail", or "skip": the rung does not take that problem), status, padding_ok,
    inputs_ok, exact (checked for equality), message (why a run failed or was skipped), and
    worst: None, or for a failure the worst element (the first of the worst in row-major
    order) of the failed check: run ("first" or "timed"), operand, row, col, value, reference,
    bound (0: exact), wrong (how many elements broke their bound; 0 when only the whole
    output's relative error passed its bound), checked, error (that relative error),
    error_bound, elem_ratio.

    .kernel, .variant, .seeds; .failures (the failed dicts); .ok (none failed); str() the lines
    `parlab check` prints; raise_for_failures() raises VerifyError naming the first failure."""

    def __init__(self, kernel, variant, seeds, outcomes):
        super().__init__(outcomes)
        self.kernel, self.variant, self.seeds = kernel, variant, builtins.list(seeds)

    @property
    def failures(self):
        return [o for o in self if o["verdict"] == "fail"]

    @property
    def ok(self):
        return not self.failures

    @staticmethod
    def _line(o):
        head = f"{o['verdict']:<4}  {o['size']}  {o['settings'] or '-'}  seed {o['seed']}"
        w = o["worst"]
        if o["verdict"] == "skip":
            return f"{head}: not taken: {o['message']}"
        if o["status"] != "ok":
            return f"{head}: run failed: {o['message']}"
        parts = []
        if w:
            where = f"{w['operand']} row {w['row']}'s residual" if w["col"] < 0 else f"{w['operand']}[{w['row']}][{w['col']}]"
            bound = f"bound {w['bound']:.3g}" if w["bound"] > 0 else "exact"
            what = (f"relative error {w['error']:.3g} above its bound {w['error_bound']:.3g}, every element within "
                    f"its own" if w["wrong"] == 0 else f"{w['wrong']} of {w['checked']} elements wrong")
            parts.append(f"{what} ({w['run']} run); worst {where} = {w['value']:.9g}, reference "
                         f"{w['reference']:.9g}, {bound}")
        if not o["padding_ok"]:
            parts.append("padding touched")
        if not o["inputs_ok"]:
            parts.append("inputs written")
        return head + (": " + "; ".join(parts) if parts else "")

    def __str__(self):
        lines = [f"{self.kernel} {self.variant}: seeds {', '.join(str(s) for s in self.seeds)}"]
        lines += ["  " + self._line(o) for o in self]
        lines.append(f"{self.kernel} {self.variant}: {len(self)} runs, {len(self.failures)} failed")
        return "\n".join(lines)

    def raise_for_failures(self):
        if self.failures:
            raise VerifyError(f"check {self.kernel} {self.variant}: {len(self.failures)} of {len(self)} runs failed; "
                              f"first: {self._line(self.failures[0])}")
        return self


def check(kernel, variant, *, seed=None, threads=None, device=0):
    """Run `parlab check`: the rung on every check case of the kernel (odd shapes, every
    problem parameter's values; parlab check KERNEL --cases lists them) at a few seeds (42,
    7919 and one new each call; seed=S or a list of seeds instead), each checked in full
    against the float64 reference (the first run and a timed one), the padding and the
    inputs. Returns a CheckReport (a list of dicts, one per case and seed); it raises only for
    what stops the suite (an unknown kernel or variant: ArgumentError; a rung that cannot run
    here: UnsupportedError). report.ok, report.failures, report.raise_for_failures()."""
    seeds = None if seed is None else [int(s) for s in (seed if isinstance(seed, (builtins.list, tuple)) else [seed])]
    v = as_variant(str(kernel), variant)  # a name, or a Python rung's capsule (parlab.rung)
    name = v if isinstance(v, str) else (getattr(variant, "name", None) or getattr(getattr(variant, "fn", variant), "__name__", "rung"))
    got, outcomes = _parlab.check(str(kernel), v, seeds, 0 if threads is None else int(threads), int(device))
    return CheckReport(kernel, name, got, outcomes)
