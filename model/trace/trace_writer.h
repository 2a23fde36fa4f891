/*
 * Writes Accel-Sim traces (tracer version 5, text .traceg) of functional launches: one
 * kernel-N.traceg per launch and a kernelslist.g listing the host-to-device copies and the
 * kernels in program order, so a workload run through gtlm can be replayed in Accel-Sim and in
 * gtlm's trace-driven mode. The format and the choices made are in docs/traces.md.
 *
 * Use: trace_writer_open once per simulated device; trace_writer_memcpy per host-to-device copy;
 * around each functional launch trace_writer_kernel_begin (installs the launch's on_insn hook),
 * simt_run_functional, trace_writer_kernel_end. Functional mode runs CTAs one after another,
 * so the writer keeps one CTA's warps buffered (a warp's lines spill to a temporary file past
 * opts.spill_bytes) and writes the CTA when the next one starts or the kernel ends.
 */
#ifndef GTLM_TRACE_WRITER_H
#define GTLM_TRACE_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "../simt/simt.h"

/* Where shared and local accesses appear in the trace: an access at offset o of its space is
 * written as base + o, the address of the same byte in simt's generic windows. */
#define TRACE_SHMEM_BASE SIMT_SHARED_WINDOW
#define TRACE_LOCAL_BASE SIMT_LOCAL_WINDOW
#define TRACE_DEFAULT_BINARY_VERSION 70u
#define TRACE_DEFAULT_SPILL_BYTES (2u << 20)

typedef struct trace_writer trace_writer;

typedef struct trace_writer_opts {
    unsigned binary_version; /* "-binary version" (Accel-Sim's opcode map); 0: 70 (Volta) */
    uint64_t spill_bytes;    /* per warp, buffered bytes before spilling to a temporary file; 0: 2 MiB */
} trace_writer_opts;

typedef struct trace_written_kernel {
    uint32_t kernel_id;  /* 1-based launch number: kernel-<id>.traceg */
    uint64_t warp_insn;  /* instruction lines written (the sum of its "insts =") */
    uint64_t ctas;       /* #BEGIN_TB blocks written */
} trace_written_kernel;

/* Creates dir if needed and starts an empty dir/kernelslist.g. opts may be NULL. Returns 0,
 * or -1 with the reason in err. */
int trace_writer_open(trace_writer **out, const char *dir, const trace_writer_opts *opts, char *err, size_t len);
void trace_writer_close(trace_writer *tw);

/* Appends "MemcpyHtoD,0x<addr>,<bytes>" to kernelslist.g. */
int trace_writer_memcpy(trace_writer *tw, uint64_t addr, uint64_t bytes, char *err, size_t len);

/* Opens kernel-<id>.traceg for a prepared launch (simt_launch_prepare done), writes its header
 * and points l->on_insn at the writer. nregs is the "-nregs" value. */
int trace_writer_kernel_begin(trace_writer *tw, simt_launch *l, unsigned nregs, char *err, size_t len);
/* Finishes the current kernel. keep = 0 (the launch failed): the file is removed and not
 * listed. Otherwise the kernel is listed in kernelslist.g and *info (may be NULL) filled.
 * Returns -1 with the reason when writing failed at any point of the kernel. */
int trace_writer_kernel_end(trace_writer *tw, int keep, trace_written_kernel *info, char *err, size_t len);

/* The address part of a memory line for the lanes in mask: "1 0x<base> <stride> " when those
 * lanes are one contiguous run whose addresses step by a constant 32-bit stride (Accel-Sim's
 * base_stride decoding fills exactly such a run), else "0 " and every lane's address. Returns
 * the length written (the text is cut at len - 1). */
size_t trace_format_addresses(char *buf, size_t len, uint32_t mask, const uint64_t addr[SIMT_WARP]);

/* Total kernels listed and instruction lines written since open. */
uint32_t trace_writer_kernels(const trace_writer *tw);
uint64_t trace_writer_warp_insn(const trace_writer *tw);

#endif
