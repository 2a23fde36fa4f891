/*
 * Reader of Accel-Sim SASS traces (kernelslist.g + kernel-N.traceg[.xz]), as written by
 * Accel-Sim's NVBit tracer and its post-processing:
 *
 *   kernel file = header lines "-key = value" (kernel name, id, grid/block dim, shmem, nregs,
 *                 binary version, cuda stream id, shmem/local mem base_addr, nvbit version,
 *                 accelsim tracer version, enable lineinfo), a "#traces format" line, then per
 *                 thread block: "#BEGIN_TB", "thread block = x,y,z", per warp "warp = w",
 *                 "insts = n" and n instruction lines, "#END_TB".
 *   instruction = [tb_x tb_y tb_z warpid_tb] [line_num] PC mask dest_num [Rd...] OPCODE
 *                 src_num [Rs...] mem_width [mode addresses] [immediate]
 *     - the tb/warp prefix is there when the header has no tracer version or one below 3
 *       (the "old format"; it must name the current block and warp);
 *     - line_num is there when "-enable lineinfo = 1";
 *     - PC is hex, mask is exactly 8 hex digits (active & predicated-on lanes, lane 0 = bit 0);
 *     - registers are R0..R255; R255 is the zero register and is dropped; numbers up to
 *       R65535 are accepted too (traces gtlm writes number PTX virtual registers this way);
 *     - when mem_width > 0, mode 0 lists popcount(mask) hex addresses in lane order; mode 1 is
 *       "0xBASE STRIDE": the k-th active lane (k = 0, 1, ...) reads BASE + k * STRIDE (the
 *       tracer uses it only when the active lanes are contiguous with a constant stride);
 *       mode 2 is "0xBASE d1 ... d(popcount-1)": the first active lane reads BASE and each
 *       following active lane the previous active lane's address plus its signed delta;
 *     - tracer version 5 and later end every line with an immediate (decimal, ignored);
 *       version 4 and older have none. Anything after the expected tokens is an error.
 * Lines are streamed with getline; at most one thread block is held in memory.
 */
#ifndef GTLM_TRACE_READER_H
#define GTLM_TRACE_READER_H

#include <stddef.h>
#include <stdint.h>

#include "../common/strbuf.h"
#include "trace_opcodes.h"

#define TRACE_MAX_DST 4
#define TRACE_MAX_SRC 8
#define TRACE_NO_ADDR UINT32_MAX
#define TRACE_RZ 255 /* register 255 is the zero register: dropped by the reader */
#define TRACE_MAX_REG 65535

typedef struct trace_insn {
    uint64_t pc;
    uint32_t mask;    /* active lanes */
    uint32_t addr_at; /* memory instructions: index in trace_tb.addrs of the first of
                         popcount(mask) addresses (lane order); else TRACE_NO_ADDR. A memory
                         instruction with mask 0 has addr_at = the current end (no addresses). */
    uint16_t op;      /* id in the kernel's opcode table (trace_opcodes.h) */
    uint8_t ndst, nsrc; /* RZ removed */
    uint8_t mem_width;  /* bytes per lane: from the opcode suffix when it has one
                           (.64 -> 8, .128 -> 16, .U8/.S8 -> 1, .U16/.S16 -> 2), else the
                           line's mem_width, 0 for non-memory (and for an unknown opcode read
                           as ALU, whose addresses are checked and dropped) */
    uint16_t dst[TRACE_MAX_DST], src[TRACE_MAX_SRC];
} trace_insn;

typedef struct trace_warp { uint32_t first, n; } trace_warp; /* range in trace_tb.insns */

typedef struct trace_tb {  /* one thread block, fully read */
    uint32_t ctaid[3];
    uint32_t n_warps;      /* = warps of the block shape; a warp absent from the trace has n = 0 */
    trace_warp *warps;     /* by warp id within the block */
    trace_insn *insns; uint32_t n_insns, cap_insns;
    uint64_t *addrs; uint32_t n_addrs, cap_addrs;
    uint32_t cap_warps;    /* allocated entries of warps (added field) */
} trace_tb;

typedef struct trace_kernel_info {
    char name[256];        /* truncated to 255 characters */
    uint32_t id, grid[3], block[3], shmem, nregs, binary_version, stream, tracer_version; /* 0 = old format */
    uint64_t shmem_base, local_base; /* 0 when absent */
    uint64_t n_tbs;                  /* grid size */
    /* Added fields: */
    uint64_t stream_id;    /* the full "-cuda stream id" (a CUstream handle); stream holds it
                              when it fits in 32 bits, else UINT32_MAX */
    uint32_t lineinfo;     /* "-enable lineinfo": lines start with a source line number */
    uint32_t warps_per_tb; /* ceil(block threads / 32) */
} trace_kernel_info;

typedef struct trace_kernel trace_kernel; /* opaque: an open .traceg being streamed */

/* Opens a kernel trace and reads its header. .traceg, or .traceg.xz through `xz -dc` (popen).
 * ops: opcode table to intern opcodes into (shared across kernels of a run). unknown_as_alu: an
 * opcode with no mapping is an error naming it and its file:line (0) or is counted and treated as
 * an integer ALU op (1). Returns NULL with err set ("path:line: expected ..., found ...").
 * The header must give grid dim, block dim and a binary version in 60..90. */
trace_kernel *trace_kernel_open(const char *path, trace_opcode_table *ops, int unknown_as_alu, strbuf *err);
const trace_kernel_info *trace_kernel_info_of(const trace_kernel *k);
/* Reads the next thread block into tb (tb's buffers are reused/grown; zero-init tb before the first
 * call). Returns 1 (got one), 0 (end of file, all blocks read), -1 (error in err with file:line).
 * Checks: `insts = n` matches the lines that follow; warp ids < warps per block and not repeated
 * within a block; block ids inside the grid; masks are 8 hex digits; mem_width/compression
 * mode/address counts consistent (mem_width > 0 exactly for memory opcodes); registers
 * R0..R65535; dest/src counts; no more and no fewer thread blocks than the grid has. */
int trace_kernel_next_tb(trace_kernel *k, trace_tb *tb, strbuf *err);
void trace_kernel_close(trace_kernel *k);
void trace_tb_free(trace_tb *tb);
/* Opcodes seen that had no mapping (when unknown_as_alu): count via trace_opcode_table. */

typedef enum trace_cmd_kind { TRACE_CMD_KERNEL = 0, TRACE_CMD_MEMCPY_HTOD } trace_cmd_kind;
typedef struct trace_cmd { int kind; char *path; uint64_t addr, bytes; uint32_t line; } trace_cmd;
/* Reads DIR/kernelslist.g: kernel lines (path made DIR/name; names end in .traceg or
 * .traceg.xz) and MemcpyHtoD,0xADDR,BYTES lines; blank lines are skipped.
 * Other lines: error with kernelslist.g:line. Returns 0 or -1. */
int trace_list_read(const char *dir, trace_cmd **cmds, size_t *n, strbuf *err);
void trace_list_free(trace_cmd *cmds, size_t n);

#endif
