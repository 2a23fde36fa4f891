/*
 * gtlm — cycle-level GPU timing model (SystemC/TLM-2.0) behind a plain C API.
 *
 * Conventions (as libgit2 and LLVM-C): opaque handles; functions that can fail return an int,
 * 0 on success and a negative GTLM_E* code on failure, with a message from gtlm_last_error()
 * (per thread, valid until the next gtlm call on that thread); out-parameters come first;
 * option structs carry a version and are set up by their *_init function. Objects returned
 * through an out-parameter belong to the caller, who frees them with their own function.
 * No C++ exception and no SystemC report ever crosses this interface.
 *
 * Contract (in full: docs/api-contract.md):
 * - States: a simulator exists from gtlm_sim_create until gtlm_sim_destroy; every call is valid
 *   on it in between. A failed call changes nothing (a failed launch: see gtlm_launch).
 * - Threads: different simulators may be used from different threads at once; their SystemC
 *   work (creation, timing runs, destruction) takes turns under one process-wide lock, since
 *   SystemC has one global kernel. One simulator must be used by one thread at a time; a
 *   changing call made while another runs on the same simulator gets GTLM_EBUSY.
 * - Callbacks: inside the memory callback, read-only calls on its simulator work (statistics,
 *   options, describe, symbol address, kernel resources, gtlm_module_describe_instr); calls that
 *   change it (launch, run_trace, malloc, free, copies, memset, module loads, set_ptxas_info,
 *   set_mem_callback, synchronize, destroy) return GTLM_EBUSY, and so does any use of another
 *   simulator that needs SystemC (create, launch, destroy).
 * - Limits: launch shapes as CUDA's (grid x < 2^31, y and z <= 65535; block x, y <= 1024,
 *   z <= 64, at most 1024 threads; shared memory within the SM's); module text up to
 *   -gtlm_max_module_bytes; kernels bounded by -gpgpu_max_cycle and -gpgpu_max_insn (both modes).
 */
#ifndef GTLM_GTLM_H
#define GTLM_GTLM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define GTLM_EXTERN(type) __attribute__((visibility("default"))) type
#else
#define GTLM_EXTERN(type) type
#endif

#define GTLM_VERSION_MAJOR 0
#define GTLM_VERSION_MINOR 1
#define GTLM_VERSION_PATCH 0
/* major * 10000 + minor * 100 + patch */
#define GTLM_VERSION_NUMBER (GTLM_VERSION_MAJOR * 10000 + GTLM_VERSION_MINOR * 100 + GTLM_VERSION_PATCH)

/* Status codes. */
typedef enum gtlm_status {
    GTLM_OK = 0,
    GTLM_EINVAL = -1,      /* a bad argument: NULL handle, NULL out-parameter, bad flags */
    GTLM_ENOTFOUND = -2,   /* no such name: statistic, option, file */
    GTLM_ECONFIG = -3,     /* malformed or inconsistent configuration */
    GTLM_EIO = -4,         /* a file could not be read or written */
    GTLM_ENOMEM = -5,
    GTLM_ESIM = -6,        /* the simulation failed (deadlock, out-of-bounds access, ...) */
    GTLM_EINTERNAL = -7,   /* a bug in gtlm: please report it with the message */
    GTLM_EVERSION = -8,    /* an options struct of a version this library does not know */
    GTLM_EUNSUPPORTED = -9,
    GTLM_EBUSY = -10       /* the simulator is running: a call from inside its own callback, or from a
                              second thread while another uses it (see "Contract" below) */
} gtlm_status;

/* Library version; any out-parameter may be NULL. Returns GTLM_VERSION_NUMBER of the library. */
GTLM_EXTERN(int) gtlm_version(int *major, int *minor, int *patch);
/* "gtlm 0.1.0 (SystemC 2.3.x)", owned by the library. */
GTLM_EXTERN(const char *) gtlm_version_string(void);

/* Message of the last failure on this thread ("" when none). Owned by the library. */
GTLM_EXTERN(const char *) gtlm_last_error(void);
/* Short name of a status code ("GTLM_ECONFIG"). */
GTLM_EXTERN(const char *) gtlm_status_name(int status);

/* ---- simulator ---- */

typedef struct gtlm_sim gtlm_sim;

#define GTLM_SIM_OPTIONS_VERSION 1
typedef struct gtlm_sim_options {
    unsigned int version;              /* GTLM_SIM_OPTIONS_VERSION */
    const char *const *config_files;   /* option files applied in order, later ones override */
    size_t n_config_files;
    const char *const *overrides;      /* "-name", "value", ... applied after the files */
    size_t n_overrides;
    int gpgpusim_compat;               /* 1: GPGPU-Sim options gtlm does not model only warn */
} gtlm_sim_options;

/* Fills opts with defaults for the given version (no files, no overrides). */
GTLM_EXTERN(int) gtlm_sim_options_init(gtlm_sim_options *opts, unsigned int version);

/* Creates a simulator from configuration files plus overrides. opts may be NULL (all defaults).
 * On a configuration error returns GTLM_ECONFIG and gtlm_last_error() lists every problem
 * as "file:line:col: option '-name': what was expected". */
GTLM_EXTERN(int) gtlm_sim_create(gtlm_sim **out, const gtlm_sim_options *opts);
/* Frees a simulator; NULL is accepted. From inside a callback (or while another thread runs a call
 * on sim) it does nothing and gtlm_last_error() says why (status GTLM_EBUSY). */
GTLM_EXTERN(void) gtlm_sim_destroy(gtlm_sim *sim);
/* Warnings produced while loading the configuration ("" when none); owned by sim. */
GTLM_EXTERN(const char *) gtlm_sim_warnings(const gtlm_sim *sim);

/* A few lines describing the configured GPU (SMs, caches, DRAM, clocks); owned by sim. */
GTLM_EXTERN(const char *) gtlm_sim_describe(const gtlm_sim *sim);

/* ---- options ---- */

typedef struct gtlm_option_info {
    const char *name;        /* "-gpgpu_n_clusters" */
    const char *block;       /* owning block: "gpu", "sm", "l1", "l2", "icnt", "dram", ... */
    const char *type;        /* "int in [1, 4096]" (numbers with their range), "bool", "string", "enum", "cache", ... */
    const char *description;
    const char *default_value;
    const char *source;      /* "default", "file:line:col", "command line (argument N)" */
} gtlm_option_info;

/* Number of options the simulator knows. */
GTLM_EXTERN(int) gtlm_option_count(const gtlm_sim *sim, size_t *out);
/* Facts about option index (0 .. count-1); the strings are owned by sim. */
GTLM_EXTERN(int) gtlm_option_info_get(const gtlm_sim *sim, size_t index, gtlm_option_info *out);
/* Current value of an option in the option-file syntax, written into buf (NUL-terminated,
 * truncated to len). GTLM_ENOTFOUND for an unknown name. */
GTLM_EXTERN(int) gtlm_option_value(const gtlm_sim *sim, const char *name, char *buf, size_t len);

/* ---- statistics ---- */

/* Value of a statistic by hierarchical path ("gpu.cycles", "gpu.sm[0].l1d.misses") or by its
 * GPGPU-Sim name ("gpu_sim_cycle", "gpu_tot_sim_cycle", "L1D_total_cache_miss_rate").
 * A path gives the run total; a GPGPU-Sim name gives the scope that name has in GPGPU-Sim. */
GTLM_EXTERN(int) gtlm_stat_get(const gtlm_sim *sim, const char *name, double *out);
/* The same statistic for the current or last finished kernel. */
GTLM_EXTERN(int) gtlm_stat_get_kernel(const gtlm_sim *sim, const char *name, double *out);

/* Per-load-PC record of the L1 data cache (timing mode), one per static load instruction of
 * every kernel run so far, summed over SMs, in kernel order then function and instruction order.
 * Strings are owned by sim and live until the next launch. */
typedef struct gtlm_load_pc_stat {
    const char *kernel;          /* the launched kernel */
    const char *function;        /* the function holding the load (the kernel or a callee) */
    unsigned pc;                 /* instruction index in that function */
    unsigned line;               /* PTX source line */
    unsigned long long accesses; /* L1 tag lookups that were not reservation failures */
    unsigned long long hits, misses, merged; /* merged: joined a pending miss (MSHR merge) */
} gtlm_load_pc_stat;
GTLM_EXTERN(size_t) gtlm_load_pc_count(const gtlm_sim *sim);
GTLM_EXTERN(int) gtlm_load_pc_get(const gtlm_sim *sim, size_t index, gtlm_load_pc_stat *out);

#define GTLM_STATS_TEXT 0x1u /* GPGPU-Sim style "name = value" lines */
#define GTLM_STATS_JSON 0x2u /* every statistic, hierarchical, with units and descriptions */
/* Writes statistics to path ("-" for standard output). With both flags, the text goes to
 * path and the JSON to path + ".json". */
GTLM_EXTERN(int) gtlm_stats_write(const gtlm_sim *sim, const char *path, unsigned int flags);

/* ---- device memory ---- */

/* A device address (64-bit, as CUDA's). 0 is never a valid allocation. */
typedef uint64_t gtlm_devptr;

/* Allocates bytes of device memory (aligned to 256 bytes, like cudaMalloc); bytes may be 0. */
GTLM_EXTERN(int) gtlm_malloc(gtlm_sim *sim, size_t bytes, gtlm_devptr *out);
/* Frees an allocation made by gtlm_malloc; 0 is accepted. GTLM_EINVAL for any other address. */
GTLM_EXTERN(int) gtlm_free(gtlm_sim *sim, gtlm_devptr ptr);
/* Copies between host and device memory. The device range must lie inside one allocation. */
GTLM_EXTERN(int) gtlm_memcpy_htod(gtlm_sim *sim, gtlm_devptr dst, const void *src, size_t bytes);
GTLM_EXTERN(int) gtlm_memcpy_dtoh(gtlm_sim *sim, void *dst, gtlm_devptr src, size_t bytes);
/* Sets bytes of device memory to (unsigned char)value. */
GTLM_EXTERN(int) gtlm_memset(gtlm_sim *sim, gtlm_devptr dst, int value, size_t bytes);

/* ---- modules and launches ---- */

typedef struct gtlm_module gtlm_module;

/* Loads a PTX module (text as nvcc -ptx writes it). name is used in messages and
 * descriptions of instructions. A malformed module or an instruction gtlm cannot run gives
 * GTLM_ECONFIG with every problem as "name:line:col: message". The module belongs to sim and
 * lives until sim is destroyed. Text (or a file) longer than -gtlm_max_module_bytes (default
 * 512 MiB) gives GTLM_EINVAL without reading further; a file that cannot be read, GTLM_EIO. */
GTLM_EXTERN(int) gtlm_module_load_ptx(gtlm_sim *sim, const char *text, const char *name, gtlm_module **out);
GTLM_EXTERN(int) gtlm_module_load_ptx_file(gtlm_sim *sim, const char *path, gtlm_module **out);
/* Copies bytes into a module-scope .const or .global variable at offset (cudaMemcpyToSymbol). */
GTLM_EXTERN(int) gtlm_memcpy_to_symbol(gtlm_sim *sim, gtlm_module *module, const char *symbol, const void *src,
                                      size_t bytes, size_t offset);
/* Device address of a module-scope .global variable. */
GTLM_EXTERN(int) gtlm_symbol_address(gtlm_sim *sim, gtlm_module *module, const char *symbol, gtlm_devptr *out);

/* Attaches the `ptxas -v -arch=sm_XX` report of the module's PTX: physical registers, shared
 * memory and stack per kernel, which occupancy is computed from. GTLM_ECONFIG when the report
 * is malformed or names a kernel the module does not have. */
GTLM_EXTERN(int) gtlm_module_set_ptxas_info(gtlm_sim *sim, gtlm_module *module, const char *ptxas_report);

typedef struct gtlm_kernel_resources {
    unsigned registers;          /* per thread, from ptxas (0 when no report was attached) */
    unsigned barriers;
    unsigned long shared_bytes;  /* static shared memory (ptxas, else from the PTX declarations) */
    unsigned long stack_bytes;   /* per-thread stack frame (local memory) */
    unsigned long param_bytes;   /* size of the parameter buffer */
} gtlm_kernel_resources;

/* Resources of one kernel of a module. */
GTLM_EXTERN(int) gtlm_kernel_resources_get(gtlm_sim *sim, gtlm_module *module, const char *kernel,
                                          gtlm_kernel_resources *out);

/* Launches kernel on a grid of grid[0] x grid[1] x grid[2] CTAs of block[0] x block[1] x block[2]
 * threads with dynamic_shared_bytes of dynamic shared memory. args[i] points at arg_sizes[i]
 * bytes holding the i-th kernel parameter; sizes must match the kernel's .param list.
 * The launch runs to completion before the call returns (in both modes). A kernel that fails
 * (an access outside any allocation, a misaligned access, a trap, a deadlock) gives GTLM_ESIM
 * with the kernel, instruction (pc and source line), warp, lane and address; so does one stopped
 * by -gpgpu_max_cycle or -gpgpu_max_insn (functional mode: -gpgpu_max_cycle N allows the warp
 * instructions the GPU could issue in N cycles). A failed launch leaves every statistic as before
 * it, and the timing model as on a new simulator (empty queues, cold caches, time 0), so the next
 * launch gives what it gives on a fresh simulator; only stores the kernel made before it failed
 * stay in device memory. A launch outside CUDA's limits or that does not fit on an SM gives
 * GTLM_EINVAL and runs nothing. */
GTLM_EXTERN(int) gtlm_launch(gtlm_sim *sim, gtlm_module *module, const char *kernel, const unsigned grid[3],
                            const unsigned block[3], size_t dynamic_shared_bytes, const void *const *args,
                            const size_t *arg_sizes, size_t n_args);
/* Trace-driven mode (timing mode only; a kernel that fails is undone as by gtlm_launch, the
 * kernels before it in DIR keep their statistics): runs every command of DIR/kernelslist.g, Accel-Sim SASS
 * traces (.traceg, tracer versions 3 to 5 and the older format), through the same SMs, memory
 * hierarchy and statistics as gtlm_launch; each kernel's statistics are kept under its name.
 * report (may be NULL) receives one line per kernel ("kernel NAME cycles N warp_insn N ctas N
 * seconds S") and, when -gtlm_trace_unknown_opcode_as_alu let unknown opcodes through, a line
 * "unknown_opcodes LINES NAME...". A malformed trace gives GTLM_EINVAL with file:line and what
 * was expected; a kernel that cannot finish gives GTLM_ESIM. */
GTLM_EXTERN(int) gtlm_run_trace(gtlm_sim *sim, const char *dir, char *report, size_t report_len);

/* ---- observing execution ---- */

/* State spaces of memory events. */
enum { GTLM_SPACE_GLOBAL = 1, GTLM_SPACE_SHARED = 2, GTLM_SPACE_LOCAL = 3, GTLM_SPACE_CONST = 4, GTLM_SPACE_PARAM = 5 };

/* One executed warp memory instruction. The pointers are valid during the callback only. */
typedef struct gtlm_mem_event {
    gtlm_module *module;
    const char *kernel;
    const char *function;      /* the function executing (the kernel or a called .func) */
    unsigned pc;               /* instruction index in function */
    unsigned line;             /* its line in the PTX text */
    int space;                 /* GTLM_SPACE_* after generic addresses are resolved */
    int is_store, is_atomic;
    unsigned bytes;            /* per lane */
    unsigned cta[3];
    unsigned warp;             /* warp index within its CTA */
    unsigned long long global_warp; /* (linear CTA index * threads per CTA) / 32 + warp */
    uint32_t mask;             /* lanes that accessed */
    const uint64_t *addr;      /* 32 addresses, valid for lanes in mask (device addresses for global) */
    unsigned grid[3];          /* the launch's grid */
    unsigned long long cta_linear; /* (cta[2] * grid[1] + cta[1]) * grid[0] + cta[0] */
    unsigned long long launch; /* the launch's sequence number in this simulator */
} gtlm_mem_event;

typedef void (*gtlm_mem_callback)(const gtlm_mem_event *event, void *payload);

/* Calls cb after every executed memory instruction of later launches (NULL turns it off), in
 * both modes: the same events, in execution order (functional: CTA by CTA; timing: issue order).
 * See the contract above for the calls allowed inside cb. */
GTLM_EXTERN(int) gtlm_set_mem_callback(gtlm_sim *sim, gtlm_mem_callback cb, void *payload);

/* LocalityGuru (docs/paver.md): before each later launch runs, the syntax trees of its kernel's
 * global-load addresses and, when every load resolves, the static TB locality graph
 * L[i][j] = |refs(TB i) & refs(TB j)| (elements, or 128-byte lines when lines is 1). */
typedef struct gtlm_locality_event {
    const char *kernel;
    unsigned grid[3], block[3];
    unsigned long long launch;  /* as gtlm_mem_event.launch */
    unsigned loads;             /* global loads of the kernel (calls count: their loads are not analysed) */
    unsigned unresolved;        /* of them, with a data-dependent address or control */
    const char *report;         /* one line per load: "line N: resolved: TREE" or "line N: unresolved: WHY" */
    int has_graph;              /* 1 when unresolved == 0 and the graph below was built */
    unsigned n_tbs;             /* CSR of the symmetric graph (both triangles, no diagonal) */
    const uint64_t *row;        /* n_tbs + 1 offsets */
    const uint32_t *col;
    const uint64_t *val;
    double seconds;             /* host wall time of the analysis and the graph */
} gtlm_locality_event;

typedef void (*gtlm_locality_callback)(const gtlm_locality_event *event, void *payload);

/* Calls cb once per later launch (both modes; NULL turns it off). A failing analysis (out of
 * memory, an endless address loop) is reported in report with has_graph = 0. */
GTLM_EXTERN(int) gtlm_set_locality_callback(gtlm_sim *sim, gtlm_locality_callback cb, void *payload, int lines);

/* "ld.global.f32 %f1, [%rd4]"-style text of an instruction, written into buf. */
GTLM_EXTERN(int) gtlm_module_describe_instr(gtlm_sim *sim, gtlm_module *module, const char *function, unsigned pc,
                                           char *buf, size_t len);

/* Waits for outstanding work; returns the first error of work since the last call. */
GTLM_EXTERN(int) gtlm_synchronize(gtlm_sim *sim);

/* ---- progress ---- */

/* Where a run is. Filled by the library (version GTLM_PROGRESS_VERSION); valid during the callback. */
#define GTLM_PROGRESS_VERSION 1
typedef struct gtlm_progress {
    unsigned int version;
    int kernel_done;                  /* 1: the kernel just finished; gtlm_stat_get_kernel reads its statistics */
    unsigned long long kernel;        /* 1-based: launch number, or the kernel's number within a trace */
    unsigned long long n_kernels;     /* kernels of the trace being run; 0 for gtlm_launch (unknown) */
    const char *kernel_name;
    unsigned long long cycles;        /* core cycles of this kernel so far (0 in functional mode) */
    unsigned long long warp_insn;     /* warp instructions of this kernel so far */
    unsigned long long total_cycles;  /* since the simulator was created, this kernel's so far included */
    unsigned long long total_warp_insn;
} gtlm_progress;

typedef void (*gtlm_progress_callback)(const gtlm_progress *progress, void *payload);

/* Calls cb during later timing-mode kernels at the first core tick at or after every every_cycles
 * core cycles (0 counts as 1), and once when any kernel finishes (kernel_done = 1). The callback
 * only observes: statistics are the same with or without it. It may read statistics and options
 * but must not launch, copy memory or destroy sim. NULL cb turns it off. */
GTLM_EXTERN(int) gtlm_set_progress_callback(gtlm_sim *sim, gtlm_progress_callback cb, void *payload,
                                           unsigned long long every_cycles);

#ifdef __cplusplus
}
#endif

#endif
