"""The Python module against the real library and command: configuration and options, a built-in
workload, a PTX kernel on numpy buffers checked against numpy, progress, a trace, a sweep, errors.
Environment: GTLM_LIBRARY (libgtlm.so), GTLM (the command), GTLM_SOURCE_DIR (the source tree)."""
import os
import tempfile
import unittest

import numpy as np

import gtlm

SRC = os.environ.get("GTLM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
CONFIGS = os.path.join(SRC, "configs")
TINY = os.path.join(CONFIGS, "tiny.config")
VECTOR_ADD = os.path.join(SRC, "workloads", "sdk", "vectoradd", "vectoradd.ptx")


class ConfigurationAndOptions(unittest.TestCase):
    def test_options_apply_after_files(self):
        with gtlm.Simulator(os.path.join(CONFIGS, "gtx480.config"), {"-gpgpu_n_clusters": 3}) as sim:
            self.assertEqual(sim.option("-gpgpu_n_clusters"), "3")
            self.assertIn("GPU: 3 SMs", sim.describe())
            opts = sim.options()
            self.assertEqual(opts["-gpgpu_n_clusters"]["source"], "command line (argument 1)")
            self.assertEqual(opts["-gpgpu_scheduler"]["value"], "gto")  # from gtx480.config
            self.assertEqual(sim.stat("gpu_tot_sim_cycle"), 0.0)
        self.assertTrue(gtlm.version().startswith("gtlm "))

    def test_bad_configuration_raises_with_file_line_col(self):
        with tempfile.NamedTemporaryFile("w", suffix=".config", delete=False) as f:
            f.write("-gpgpu_n_clusters 4\n-gpgpu_cache:dl1 nonsense\n")
        try:
            with self.assertRaises(gtlm.GtlmError) as e:
                gtlm.Simulator(f.name)
            self.assertEqual(e.exception.name, "GTLM_ECONFIG")
            self.assertIn(f.name + ":2:", e.exception.message)
        finally:
            os.unlink(f.name)
        with self.assertRaises(gtlm.GtlmError) as e:
            gtlm.Simulator(TINY, {"-no_such_option": 1})
        self.assertIn("no_such_option", str(e.exception))

    def test_unknown_statistic_and_option_raise(self):
        with gtlm.Simulator(TINY) as sim:
            with self.assertRaises(gtlm.GtlmError) as e:
                sim.stat("no.such.stat")
            self.assertEqual(e.exception.name, "GTLM_ENOTFOUND")
            with self.assertRaises(gtlm.GtlmError):
                sim.option("-nope")


class PtxKernelOnNumpyBuffers(unittest.TestCase):
    def run_vector_add(self, mode, progress=None):
        n = 3000
        rng = np.random.default_rng(7)
        a, b = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
        with gtlm.Simulator(TINY, {"-gtlm_mode": mode}) as sim:
            if progress is not None:
                sim.on_progress(progress.append, every_cycles=100)
            mod = sim.load_ptx(VECTOR_ADD)
            da, db, dc = sim.to_device(a), sim.to_device(b), sim.empty(n, np.float32)
            mod.launch("vector_add", grid=(n + 255) // 256, block=256, args=[da, db, dc, np.int32(n)])
            got = dc.get()
            np.testing.assert_array_equal(got, a + b)  # IEEE single-precision adds, as numpy's
            return sim.stats()

    def test_vector_add_matches_numpy_in_both_modes(self):
        functional = self.run_vector_add("functional")
        timing = self.run_vector_add("timing")
        self.assertEqual(functional["gpu.warp_insn"], timing["gpu.warp_insn"])
        self.assertGreater(timing["gpu.cycles"], 0)
        self.assertGreater(len(timing), 100)  # every statistic, per unit included
        self.assertIn("gpu.sm[0].l1d.accesses", timing)

    def test_progress_reports_and_leaves_statistics_identical(self):
        reports = []
        with_progress = self.run_vector_add("timing", reports)
        without = self.run_vector_add("timing")
        host = {k for k in without if k.startswith("host.")}
        self.assertEqual({k: v for k, v in with_progress.items() if k not in host},
                         {k: v for k, v in without.items() if k not in host})
        self.assertGreater(len(reports), 2)
        last = reports[-1]
        self.assertTrue(last["kernel_done"])
        self.assertEqual(last["kernel_name"], "vector_add")
        self.assertEqual(last["cycles"], without["gpu.cycles"])
        self.assertEqual(last["warp_insn"], without["gpu.warp_insn"])
        cycles = [r["cycles"] for r in reports]
        self.assertEqual(cycles, sorted(cycles))

    def test_progress_can_be_turned_off(self):
        reports = []
        with gtlm.Simulator(TINY) as sim:
            sim.on_progress(reports.append, every_cycles=10)
            sim.on_progress(None)
            mod = sim.load_ptx(VECTOR_ADD)
            mod.launch("vector_add", 1, 64, [sim.empty(64), sim.empty(64), sim.empty(64), np.int32(64)])
        self.assertEqual(reports, [])

    def test_bad_input_raises_with_the_library_message(self):
        with gtlm.Simulator(TINY) as sim:
            with self.assertRaises(gtlm.GtlmError) as e:
                sim.load_ptx(".version 9.0\n.target sm_75\n.address_size 64\n.visible .entry k() { bogus; }\n", "bad.ptx")
            self.assertIn("bad.ptx:", e.exception.message)
            mod = sim.load_ptx(VECTOR_ADD)
            with self.assertRaises(gtlm.GtlmError):  # three arguments for four parameters
                mod.launch("vector_add", 1, 32, [sim.empty(32), sim.empty(32), sim.empty(32)])
            with self.assertRaises(gtlm.GtlmError):
                mod.launch("no_such_kernel", 1, 32, [])
            d = sim.empty(8, np.int32)
            with self.assertRaises(gtlm.GtlmError):
                d.set(np.zeros(9, np.int32))


class Tables(unittest.TestCase):
    def test_dataframe_or_a_clear_import_error(self):
        with gtlm.Simulator(TINY) as sim:
            try:
                import pandas  # noqa: F401
            except ImportError:
                with self.assertRaises(ImportError) as e:
                    sim.dataframe()
                self.assertIn("python3-pandas", str(e.exception))
            else:
                df = sim.dataframe()
                self.assertEqual(df.loc["gpu.cycles", "value"], 0)
                self.assertEqual(df.loc["gpu.cycles", "unit"], "cycles")


class CommandLevel(unittest.TestCase):
    def test_builtin_workload_and_its_statistics(self):
        run = gtlm.run_workload("rodinia/BFS", config=TINY, timeseries_interval=500)
        self.assertIn("BFS: verified", run.output)
        self.assertEqual(run["gpu_tot_sim_cycle"], run.stats["gpu.cycles"])  # the headline's GPGPU-Sim name
        self.assertGreater(run["gpu.cycles"], 0)
        self.assertEqual(len(run.kernels), 16)  # BFS tiny: 8 levels, two kernels each
        self.assertEqual(sum(k[1]["gpu.cycles"] for k in run.kernels), run.stats["gpu.cycles"])
        ts = gtlm.read_timeseries(run.timeseries)
        self.assertGreater(len(ts["cycle"]), 2)
        self.assertEqual(ts["warp_insn"].sum(), run.stats["gpu.warp_insn"])

    def test_failing_workload_raises(self):
        with self.assertRaises(gtlm.GtlmError) as e:
            gtlm.run_workload("no/such_workload", config=TINY)
        self.assertIn("no workload named", e.exception.message)

    def test_reproduce_usage_error_raises(self):
        with self.assertRaises(gtlm.GtlmError) as e:  # a wrong flag: exit 2 (or no such command: also 2)
            gtlm.reproduce("--no-such-flag")
        self.assertEqual(e.exception.status, 2)

    def test_trace_in_process(self):
        with gtlm.Simulator(TINY) as sim:
            lines = sim.run_trace(os.path.join(SRC, "testbenches", "data", "traces", "microgpusim-matrixmul-32-32"))
            self.assertTrue(lines[0].startswith("kernel "))
            self.assertEqual(sim.stat("gpgpu_n_tot_w_icount"), 4416)
        with gtlm.Simulator(TINY) as sim, self.assertRaises(gtlm.GtlmError):
            sim.run_trace("/no/such/trace")

    def test_sweep_returns_its_results(self):
        out = tempfile.mkdtemp(prefix="gtlm-py-sweep-")
        spec = "workload sdk/VectorAdd\nconfig small %s\nconfig big %s -gpgpu_n_clusters 4\n" % (TINY, TINY)
        rows = gtlm.sweep(spec, out, jobs=2)
        records = rows.to_dict("records") if hasattr(rows, "to_dict") else rows
        self.assertEqual(len(records), 2)
        self.assertEqual(sorted(str(r["config"]) for r in records), ["big", "small"])


if __name__ == "__main__":
    unittest.main()
