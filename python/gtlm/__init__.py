"""gtlm: the cycle-level GPU timing model from Python (pure Python over libgtlm with ctypes).

    import gtlm, numpy as np
    with gtlm.Simulator("configs/gtx480.config", {"-gpgpu_n_clusters": 4}) as sim:
        mod = sim.load_ptx("vectoradd.ptx")
        a, b = sim.to_device(np.ones(1024, np.float32)), sim.to_device(np.arange(1024, dtype=np.float32))
        c = sim.empty(1024, np.float32)
        mod.launch("vector_add", grid=4, block=256, args=[a, b, c, np.int32(1024)])
        print(c.get()[:4], sim.stat("gpu_tot_sim_cycle"))
    run = gtlm.run_workload("rodinia/BFS", config="configs/gtx480.config")   # built-in workloads
    run.stats["gpu_tot_ipc"]

docs/python.md is the tutorial. Every failure raises gtlm.GtlmError with the C API's message.
"""
from ._lib import GtlmError, lib as _lib, text as _text
from .commands import WorkloadRun, command, reproduce, run_workload, sweep
from .results import read_csv, read_timeseries
from .sim import DeviceArray, Module, Simulator

__all__ = ["GtlmError", "Simulator", "Module", "DeviceArray", "WorkloadRun", "run_workload", "sweep", "reproduce",
           "read_timeseries", "read_csv", "command", "version"]


def version():
    """"gtlm 0.1.0 (SystemC 2.3.x)" of the loaded library."""
    return _text(_lib.gtlm_version_string())
