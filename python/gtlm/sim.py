"""A simulator in this process: configuration, options, device memory as numpy arrays, PTX
modules and launches, traces, statistics."""
import ctypes
import json
import os
import tempfile

import numpy as np

from ._lib import PROGRESS_CALLBACK, GtlmError, OptionInfo, SimOptions, c_devptr, check, lib, text

STATS_JSON = 0x2


def flatten(tree, prefix=""):
    """{"gpu": {"cycles": {"value": 5, ...}}} -> {"gpu.cycles": 5}: a JSON statistics tree as paths."""
    out = {}
    if isinstance(tree, dict) and "value" in tree:
        out[prefix] = tree["value"]
    elif isinstance(tree, dict):
        for k, v in tree.items():
            out.update(flatten(v, prefix + "." + k if prefix else k))
    elif isinstance(tree, list):
        for i, v in enumerate(tree):
            out.update(flatten(v, "%s[%d]" % (prefix, i)))
    else:  # the kernels' statistics are already {path: value}
        out[prefix] = tree
    return out


class DeviceArray:
    """A numpy-shaped allocation in the simulated GPU's memory. ptr is its device address, which a
    launch argument list takes directly."""

    def __init__(self, sim, shape, dtype):
        self.sim = sim
        self.shape = tuple(shape) if np.ndim(shape) else (int(shape),)
        self.dtype = np.dtype(dtype)
        self.nbytes = int(np.prod(self.shape)) * self.dtype.itemsize
        ptr = c_devptr()
        check(lib.gtlm_malloc(sim._h, self.nbytes, ctypes.byref(ptr)))
        self.ptr = ptr.value

    def set(self, host):
        """Copies a host array of the same size (converted to this dtype) to the device."""
        a = np.ascontiguousarray(host, dtype=self.dtype)
        if a.nbytes != self.nbytes:
            raise GtlmError("DeviceArray.set: %d bytes for an allocation of %d" % (a.nbytes, self.nbytes))
        check(lib.gtlm_memcpy_htod(self.sim._h, self.ptr, a.ctypes.data, a.nbytes))
        return self

    def get(self):
        """A host copy of the device memory as a numpy array."""
        a = np.empty(self.shape, dtype=self.dtype)
        check(lib.gtlm_memcpy_dtoh(self.sim._h, a.ctypes.data, self.ptr, self.nbytes))
        return a


class Module:
    """A loaded PTX module; launch() runs one of its kernels to completion."""

    def __init__(self, sim, handle, name):
        self.sim, self._h, self.name = sim, handle, name

    def set_ptxas_info(self, report):
        """Attaches `ptxas -v` output (registers and shared memory per kernel: occupancy)."""
        check(lib.gtlm_module_set_ptxas_info(self.sim._h, self._h, report.encode()))

    def launch(self, kernel, grid, block, args, shared=0):
        """grid and block: ints or up to three ints. args, one per kernel parameter: a DeviceArray
        (its address), a numpy scalar (np.int32(n), np.float32(x): its bytes), an int (a 32-bit
        integer) or a float (a 32-bit float). Raises GtlmError when the kernel fails."""
        def dim3(d):
            d = [int(x) for x in (d if np.ndim(d) else [d])] + [1, 1]
            return (ctypes.c_uint * 3)(*d[:3])

        blobs = []
        for a in args:
            if isinstance(a, DeviceArray):
                blobs.append(np.uint64(a.ptr).tobytes())
            elif isinstance(a, np.generic):
                blobs.append(a.tobytes())
            elif isinstance(a, bool) or not isinstance(a, (int, float)):
                raise GtlmError("launch: argument %r is not a DeviceArray, numpy scalar, int or float" % (a,))
            elif isinstance(a, int):
                blobs.append(np.int32(a).tobytes())
            else:
                blobs.append(np.float32(a).tobytes())
        bufs = [ctypes.create_string_buffer(b, len(b)) for b in blobs]
        ptrs = (ctypes.c_void_p * max(1, len(bufs)))(*[ctypes.addressof(b) for b in bufs])
        sizes = (ctypes.c_size_t * max(1, len(bufs)))(*[len(b) for b in blobs])
        check(lib.gtlm_launch(self.sim._h, self._h, kernel.encode(), dim3(grid), dim3(block), shared, ptrs, sizes,
                              len(bufs)))


class Simulator:
    """One simulated GPU. config: an option file or a list of them (later ones override);
    options: {"-name": value} applied after the files; gpgpusim_compat: GPGPU-Sim options gtlm
    does not model only warn. Raises GtlmError with every configuration problem."""

    def __init__(self, config=None, options=None, gpgpusim_compat=False):
        files = [config] if isinstance(config, (str, os.PathLike)) else list(config or [])
        over = []
        for k, v in (options or {}).items():
            over += [k if k.startswith("-") else "-" + k, str(v)]
        o = SimOptions()
        check(lib.gtlm_sim_options_init(ctypes.byref(o), 1))
        self._keep = [os.fsencode(f) for f in files], [s.encode() for s in over]
        fa = (ctypes.c_char_p * max(1, len(files)))(*self._keep[0])
        oa = (ctypes.c_char_p * max(1, len(over)))(*self._keep[1])
        o.config_files, o.n_config_files = fa, len(files)
        o.overrides, o.n_overrides = oa, len(over)
        o.gpgpusim_compat = 1 if gpgpusim_compat else 0
        h = ctypes.c_void_p()
        check(lib.gtlm_sim_create(ctypes.byref(h), ctypes.byref(o)))
        self._h = h
        self._progress = None
        self.warnings = text(lib.gtlm_sim_warnings(h))

    def close(self):
        if getattr(self, "_h", None):
            lib.gtlm_sim_destroy(self._h)
            self._h = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()

    def describe(self):
        """The configured GPU in a few lines (SMs, caches, DRAM, clocks)."""
        return text(lib.gtlm_sim_describe(self._h))

    def option(self, name):
        """An option's current value as text, e.g. option("-gpgpu_n_clusters") -> "15"."""
        buf = ctypes.create_string_buffer(4096)
        check(lib.gtlm_option_value(self._h, name.encode(), buf, len(buf)))
        return text(buf.value)

    def options(self):
        """Every option: {name: {"value", "block", "type", "description", "default", "source"}}."""
        n = ctypes.c_size_t()
        check(lib.gtlm_option_count(self._h, ctypes.byref(n)))
        out = {}
        for i in range(n.value):
            info = OptionInfo()
            check(lib.gtlm_option_info_get(self._h, i, ctypes.byref(info)))
            name = text(info.name)
            out[name] = {"value": self.option(name), "block": text(info.block), "type": text(info.type),
                         "description": text(info.description), "default": text(info.default_value),
                         "source": text(info.source)}
        return out

    # ---- device memory ----
    def empty(self, shape, dtype=np.float32):
        return DeviceArray(self, shape, dtype)

    def to_device(self, host):
        """A new device allocation holding a copy of the numpy array host."""
        a = np.ascontiguousarray(host)
        return DeviceArray(self, a.shape, a.dtype).set(a)

    def free(self, arr):
        check(lib.gtlm_free(self._h, arr.ptr))
        arr.ptr = 0

    # ---- modules, launches, traces ----
    def load_ptx(self, ptx, name=None):
        """A PTX module from its text, or from a file when ptx names one."""
        if name is None and os.path.exists(ptx):
            name = os.path.basename(ptx)
            with open(ptx) as f:
                ptx = f.read()
        h = ctypes.c_void_p()
        check(lib.gtlm_module_load_ptx(self._h, ptx.encode(), (name or "module.ptx").encode(), ctypes.byref(h)))
        return Module(self, h, name)

    def run_trace(self, directory):
        """Runs the Accel-Sim traces of directory (kernelslist.g); returns the per-kernel report lines."""
        buf = ctypes.create_string_buffer(1 << 16)
        check(lib.gtlm_run_trace(self._h, os.fsencode(directory), buf, len(buf)))
        return text(buf.value).splitlines()

    def on_progress(self, fn, every_cycles=1000):
        """Calls fn(dict) every every_cycles core cycles of a timing-mode kernel and when a kernel
        ends (kernel_done True). Keys: kernel, n_kernels, kernel_name, cycles, warp_insn,
        total_cycles, total_warp_insn, kernel_done. None turns it off. Statistics do not change."""
        if fn is None:
            self._progress = None
            check(lib.gtlm_set_progress_callback(self._h, PROGRESS_CALLBACK(), None, 0))
            return

        def call(p, _payload):
            c = p.contents
            fn({"kernel": c.kernel, "n_kernels": c.n_kernels, "kernel_name": text(c.kernel_name),
                "cycles": c.cycles, "warp_insn": c.warp_insn, "total_cycles": c.total_cycles,
                "total_warp_insn": c.total_warp_insn, "kernel_done": bool(c.kernel_done)})

        self._progress = PROGRESS_CALLBACK(call)  # kept alive while the library holds it
        check(lib.gtlm_set_progress_callback(self._h, self._progress, None, every_cycles))

    # ---- statistics ----
    def stat(self, name, kernel=False):
        """One statistic by path ("gpu.cycles") or GPGPU-Sim name ("gpu_tot_sim_cycle"); kernel=True:
        the last kernel's value."""
        v = ctypes.c_double()
        fn = lib.gtlm_stat_get_kernel if kernel else lib.gtlm_stat_get
        check(fn(self._h, name.encode(), ctypes.byref(v)))
        return v.value

    def _stats_json(self):
        fd, path = tempfile.mkstemp(suffix=".json", prefix="gtlm-stats-")
        os.close(fd)
        try:
            check(lib.gtlm_stats_write(self._h, path.encode(), STATS_JSON))
            with open(path) as f:
                return json.load(f)
        finally:
            os.unlink(path)

    def stats(self):
        """Every statistic of the run so far as {path: value}."""
        return flatten(self._stats_json()["run"])

    def kernel_stats(self):
        """Every kernel's statistics: a list of (kernel name, {path: value})."""
        return [(k["name"], flatten(k["stats"])) for k in self._stats_json().get("kernels", [])]

    def dataframe(self):
        """The run's statistics as a pandas DataFrame (name, value, unit, description); needs pandas."""
        from .results import stats_frame
        return stats_frame(self._stats_json()["run"])
