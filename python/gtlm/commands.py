"""The gtlm command's built-in workloads, sweeps and reproductions, run as child processes
(the workloads live in the command, not in libgtlm). The command is $GTLM, else `gtlm` on PATH."""
import json
import os
import re
import shutil
import subprocess
import tempfile

from ._lib import GtlmError
from .results import read_csv
from .sim import flatten


def command():
    """Path of the gtlm command."""
    path = os.environ.get("GTLM") or shutil.which("gtlm")
    if not path:
        raise GtlmError("the gtlm command was not found: install it or set GTLM to its path")
    return path


def _run(args, what):
    p = subprocess.run([command()] + args, capture_output=True, text=True)
    if p.returncode != 0:
        lines = [l for l in (p.stderr + p.stdout).splitlines() if l.strip()]
        raise GtlmError("%s failed (exit %d): %s" % (what, p.returncode, "\n".join(lines[-20:])), p.returncode)
    return p


class WorkloadRun:
    """A finished `gtlm run`: stats (every statistic of the run, {path: value}), kernels (each
    launch's statistics, a list of (name, {path: value})), headline (the summary's "name = value"
    lines under their GPGPU-Sim names: gpu_tot_sim_cycle, gpu_tot_ipc, ...), output (everything the
    command printed) and timeseries (the CSV path when one was asked for). run[name] looks a name
    up in stats, then in headline."""

    def __init__(self, stats, kernels, output, timeseries=None):
        self.stats, self.kernels, self.output, self.timeseries = stats, kernels, output, timeseries
        self.headline = {}
        for m in re.finditer(r"^([A-Za-z_][\w.\[\]]*) = (\S+)$", output, re.M):
            self.headline[m.group(1)] = float(m.group(2))

    def __getitem__(self, name):
        return self.stats[name] if name in self.stats else self.headline[name]


def run_workload(name, config=None, size="tiny", mode=None, options=None, sets=None, timeseries_interval=None):
    """Runs a built-in workload (`gtlm list`), verifies it, and returns its WorkloadRun. config: an
    option file or a list of them; options: {"-name": value}; sets: {size parameter: value};
    timeseries_interval: core cycles between rows of a time series (WorkloadRun.timeseries).
    Raises GtlmError with the command's message when the run or its verification fails."""
    args = ["run", name, "--size", size, "--quiet"]
    for f in [config] if isinstance(config, (str, os.PathLike)) else list(config or []):
        args += ["--config", os.fspath(f)]
    if mode:
        args += ["--mode", mode]
    for k, v in (options or {}).items():
        args += [k if k.startswith("-") else "-" + k, str(v)]
    for k, v in (sets or {}).items():
        args += ["--set", "%s=%s" % (k, v)]
    tmp = tempfile.mkdtemp(prefix="gtlm-py-")
    stats = os.path.join(tmp, "stats.json")
    ts = None
    if timeseries_interval:
        ts = os.path.join(tmp, "timeseries.csv")
        args += ["-stats_interval", str(timeseries_interval), "-stats_timeseries_file", ts]
    try:
        p = _run(args + ["--stats-json", stats], "gtlm run " + name)
        with open(stats) as f:
            j = json.load(f)
    finally:
        os.path.exists(stats) and os.unlink(stats)
    return WorkloadRun(flatten(j["run"]), [(k["name"], flatten(k["stats"])) for k in j.get("kernels", [])],
                       p.stdout, ts)


def sweep(spec, out, jobs=2, baseline=None):
    """Runs `gtlm sweep SPEC` (see `gtlm sweep --help`) into directory out and returns its
    results.csv (a DataFrame with pandas, else a list of dicts). spec: a spec file's path, or its
    text when it holds a newline."""
    path = spec
    if "\n" in spec:
        os.makedirs(out, exist_ok=True)
        path = os.path.join(out, "sweep.spec")
        with open(path, "w") as f:
            f.write(spec)
    args = ["sweep", path, "-j", str(jobs), "--out", out] + (["--baseline", baseline] if baseline else [])
    _run(args, "gtlm sweep")
    return read_csv(os.path.join(out, "results.csv"))


def reproduce(*args):
    """Runs `gtlm reproduce ARGS...` and returns what it printed (needs a gtlm with that command)."""
    return _run(["reproduce"] + [str(a) for a in args], "gtlm reproduce").stdout
