#include "gpu_config.h"

#include "../common/name_match.h"
#include "../config/opt_check.h"
#include "../config/opt_limits.h"
#include "../log/log.h"

int gpu_top_options_register(opt_registry *r, gpu_top_config *c, strbuf *e);
int gpu_top_config_check(const opt_registry *r, const gpu_top_config *c, strbuf *e);

static const char *const modes[] = {"functional", "timing", NULL};

int gpu_top_options_register(opt_registry *r, gpu_top_config *c, strbuf *e)
{
    const char *b = "gpu";
    int rc = 0;
    rc |= opt_add_int(r, b, "-gpgpu_n_clusters", &c->n_clusters, "15", 1, GPU_MAX_SMS, "SM clusters", e);
    rc |= opt_add_int(r, b, "-gpgpu_n_cores_per_cluster", &c->cores_per_cluster, "1", 1, GPU_MAX_SMS, "SMs per cluster", e);
    rc |= opt_add_int(r, b, "-gpgpu_n_mem", &c->n_mem, "6", 1, GPU_MAX_MEM_CHANNELS, "memory channels (memory partitions)", e);
    rc |= opt_add_int(r, b, "-gpgpu_n_sub_partition_per_mchannel", &c->sub_partitions_per_channel, "2", 1, 2,
                      "L2 slices (sub-partitions) per memory channel", e);
    rc |= opt_add_custom(r, b, "-gpgpu_clock_domains", &gsim_opt_clocks, &c->clocks, "700.0:700.0:700.0:924.0",
                         "clock frequencies in MHz core:interconnect:L2:DRAM", e);
    rc |= opt_add_i64(r, b, "-gpgpu_max_cycle", &c->max_cycles, "0", 0, GPU_MAX_CYCLES, "stop after this many core cycles (0: no limit)", e);
    rc |= opt_add_i64(r, b, "-gpgpu_max_insn", &c->max_insn, "0", 0, INT64_MAX, "stop after this many warp instructions (0: no limit)", e);
    rc |= opt_add_i64(r, b, "-gpgpu_kernel_launch_latency", &c->launch_latency, "0", 0, 100000000,
                      "core cycles from each kernel launch to its first CTA dispatch (counted in the kernel's cycles)", e);
    rc |= opt_add_bool(r, b, "-gpgpu_deadlock_detect", &c->deadlock_detect, "1", "stop with a report when no unit makes progress", e);
    rc |= opt_add_i64(r, b, "-gtlm_watchdog_cycles", &c->watchdog_cycles, "100000", 1, GPU_MAX_CYCLES,
                      "core cycles without any progress before the deadlock watchdog stops the run", e);
    rc |= opt_add_i64(r, b, "-stats_interval", &c->stats_interval, "0", 0, GPU_MAX_CYCLES,
                      "core cycles between time-series samples written to -stats_timeseries_file (0: off)", e);
    rc |= opt_add_string(r, b, "-stats_timeseries_file", &c->timeseries_file, "gtlm_timeseries.csv",
                         "CSV file of the time series (one row per unit per interval and at each kernel end)", e);
    rc |= opt_add_string(r, b, "-vcd_file", &c->vcd_file, "",
                         "VCD waveform file (SystemC tracing; empty: off). gtlm run --vcd FILE sets it", e);
    rc |= opt_add_string(r, b, "-vcd_signals", &c->vcd_signals, "*",
                         "signals written to the VCD: comma-separated name patterns, e.g. 'gpu.sm[0-3].*,gpu.dram*' "
                         "(* any text, ? one character, [a-b] an index range)", e);
    rc |= opt_add_i64(r, b, "-vcd_start", &c->vcd_start, "0", 0, GPU_MAX_CYCLES, "first core cycle written to the VCD", e);
    rc |= opt_add_i64(r, b, "-vcd_end", &c->vcd_end, "0", 0, GPU_MAX_CYCLES, "core cycle the VCD stops at (exclusive; 0: the end of the run)", e);
    rc |= opt_add_bool(r, b, "-gtlm_check_protocol", &c->check_protocol, "0",
                       "put a TLM-2.0 base-protocol checker on every link between SMs, interconnect, L2 and DRAM", e);
    rc |= opt_add_bool(r, b, "-gtlm_retry_sleep", &c->retry_sleep, "1",
                       "skip an SM's edges while its LD/ST unit only retries a read the L1 refused and no warp can "
                       "issue, counting them at its next tick (exact: statistics identical; 0 ticks every edge)", e);
    rc |= opt_add_int(r, b, "-gtlm_threads", &c->threads, "1", 1, 256,
                      "host threads ticking the SMs of one core-clock edge in parallel (statistics identical for "
                      "every value; forced to 1 with -rtl_sched/-rtl_power)", e);
    rc |= opt_add_int(r, b, "-gtlm_threads_min_sms", &c->threads_min_sms, "4", 1, 4096,
                      "SMs due at a core edge below which it is ticked on one thread (the barrier costs more)", e);
    rc |= opt_add_i64(r, b, "-gtlm_seed", &c->seed, "1", INT64_MIN, INT64_MAX, "seed of every pseudo-random choice in the model", e);
    rc |= opt_add_enum(r, b, "-gtlm_mode", &c->mode, modes, "timing",
                       "functional: run kernels to completion without timing; timing: the cycle-level model", e);
    rc |= opt_add_string(r, b, "-gtlm_trace_out", &c->trace_out, "",
                         "directory to write Accel-Sim traces of every kernel launch to (kernelslist.g, "
                         "kernel-N.traceg; functional mode only), empty: off", e);
    rc |= opt_add_int(r, b, "-gtlm_trace_binary_version", &c->trace_binary_version, "70", 1, 999,
                      "'-binary version' of written Accel-Sim traces: the SASS generation Accel-Sim decodes them as", e);
    rc |= opt_add_bool(r, b, "-gtlm_gpgpusim_compat", &c->gpgpusim_compat, "0",
                       "GPGPU-Sim options gtlm does not model are ignored with a warning instead of an error", e);
    rc |= opt_add_enum(r, b, "-gtlm_log_level", &c->log_level, log_level_names, "warn",
                       "log level of every block: off, error, warn, info, debug, trace", e);
    rc |= opt_add_string(r, b, "-gtlm_log_blocks", &c->log_blocks, "",
                         "per-block log levels by path prefix, e.g. \"gpu.sm=debug,gpu.dram=info\"", e);
    rc |= opt_add_i64(r, b, "-gtlm_max_module_bytes", &c->max_module_bytes, "536870912", 1, INT64_C(1) << 40,
                      "largest PTX module gtlm_module_load_ptx(_file) accepts, in bytes (a bound on reading a file)", e);
    return rc ? -1 : 0;
}

int gpu_top_config_check(const opt_registry *r, const gpu_top_config *c, strbuf *e)
{
    char why[256] = "";
    int bad = 0;
    /* Ranges of single values are in the declarations; these are the checks between options. */
    bad |= opt_check(r, e, "-gpgpu_n_cores_per_cluster", c->n_clusters * c->cores_per_cluster <= GPU_MAX_SMS,
                     "%d clusters x %d SMs is more than the %d SMs a GPU may have", c->n_clusters,
                     c->cores_per_cluster, GPU_MAX_SMS);
    strbuf pat;
    strbuf_init(&pat);
    int pat_ok = name_pattern_check(c->vcd_signals, &pat) == 0;
    bad |= opt_check(r, e, "-vcd_signals", pat_ok, "%s", strbuf_str(&pat));
    strbuf_free(&pat);
    bad |= opt_check(r, e, "-vcd_end", c->vcd_end == 0 || c->vcd_end > c->vcd_start,
                     "must be 0 (the end of the run) or after -vcd_start");
    bad |= opt_check(r, e, "-gtlm_trace_out", !c->trace_out || !c->trace_out[0] || c->mode == GPU_MODE_FUNCTIONAL,
                     "trace writing needs -gtlm_mode functional");
    bad |= opt_check(r, e, "-gtlm_log_blocks", log_overrides_check(c->log_blocks, why, sizeof why) == 0, "%s", why);
    return bad ? -1 : 0;
}
