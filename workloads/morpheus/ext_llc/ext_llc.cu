// Morpheus' extended-LLC helper kernel (Darabi et al., MICRO 2022, §4.2), written for gtlm from
// the document's description: one warp per extended set, polling its row of the warp status table
// (WST) in memory, serving one request at a time.
//
// RF sets (warps < rf_warps of each CTA, Fig. 8): 32 ways, block i in data register d[i] (lane l
// holds word l of every block), lane i's metadata register holds block i's
//   [31:20] LRU counter, [19] valid, [18] dirty, [17:0] tag (the line number)   (G7)
// Tag lookup is Algorithm 1 (valid & tag compare per lane, ballot, ffs); the data move is
// Algorithm 2's brx.idx switch, one site reading a data register and one writing it (G9).
// LRU: the touched block's counter becomes 0xfff and only the blocks *more recent* than it count
// down, so the valid counters stay distinct (0xfff - k for the k-th most recent) and never saturate:
// exact LRU, which the Bloom filters' swap rule needs (docs/morpheus.md, "Why exact LRU"); an
// invalid way counts as older than every block. Victim: the first invalid way, else counter 0xfe0.
// L1 sets (the other warps, §4.2.2): the request is forwarded to the L1 with ordinary loads and
// stores of the line; the L1's own tags decide hit or miss, so the warp answers "served".
//
// A WST slot is 8 words: [0] busy (the controller sets it, the warp clears it when done), [1] op,
// [2] line, [3] argument (write: sector mask; atomic: lane; fill: dirty), [4] result (bit 0 hit,
// bit 1 write-back, bits 8-15 way), [5] victim line, [6] atomic operand, [7] atomic old value.
// A warp's row holds `slots` slots used in order (a scripted stream; op 0 ends the warp). Each
// slot has a 128-byte read and write data buffer entry. Accesses to the WST, the buffers and
// memory bypass the L1 (.cg), as the document's own measurement does (fn. 5).
#include <stdint.h>

enum { OP_END = 0, OP_READ = 1, OP_WRITE = 2, OP_ATOMIC = 3, OP_FILL = 4 };

#define META_VALID (1u << 19)
#define META_DIRTY (1u << 18)
#define META_TAG 0x3ffffu
#define LRU_TOP 0xfffu

#define RCASE(i, o) "$ELLC_R" #i ": mov.b32 %0, %" #o "; bra.uni $ELLC_RD;\n"
#define WCASE(i) "$ELLC_W" #i ": @ep mov.b32 %" #i ", %32; bra.uni $ELLC_WD;\n"

// Alg. 2, read direction: v = d[way] (brx.idx over 32 targets, a mov, a branch back).
__device__ __forceinline__ uint32_t imov_read(const uint32_t d[32], uint32_t way)
{
    uint32_t v;
    asm volatile("{\n\t"
                 "$ELLC_RT: .branchtargets $ELLC_R0, $ELLC_R1, $ELLC_R2, $ELLC_R3, $ELLC_R4, $ELLC_R5, $ELLC_R6, "
                 "$ELLC_R7, $ELLC_R8, $ELLC_R9, $ELLC_R10, $ELLC_R11, $ELLC_R12, $ELLC_R13, $ELLC_R14, $ELLC_R15, "
                 "$ELLC_R16, $ELLC_R17, $ELLC_R18, $ELLC_R19, $ELLC_R20, $ELLC_R21, $ELLC_R22, $ELLC_R23, "
                 "$ELLC_R24, $ELLC_R25, $ELLC_R26, $ELLC_R27, $ELLC_R28, $ELLC_R29, $ELLC_R30, $ELLC_R31;\n\t"
                 "brx.idx %33, $ELLC_RT;\n"
                 RCASE(0, 1) RCASE(1, 2) RCASE(2, 3) RCASE(3, 4) RCASE(4, 5) RCASE(5, 6) RCASE(6, 7) RCASE(7, 8)
                 RCASE(8, 9) RCASE(9, 10) RCASE(10, 11) RCASE(11, 12) RCASE(12, 13) RCASE(13, 14) RCASE(14, 15)
                 RCASE(15, 16) RCASE(16, 17) RCASE(17, 18) RCASE(18, 19) RCASE(19, 20) RCASE(20, 21) RCASE(21, 22)
                 RCASE(22, 23) RCASE(23, 24) RCASE(24, 25) RCASE(25, 26) RCASE(26, 27) RCASE(27, 28) RCASE(28, 29)
                 RCASE(29, 30) RCASE(30, 31) RCASE(31, 32)
                 "$ELLC_RD:\n\t}"
                 : "=r"(v)
                 : "r"(d[0]), "r"(d[1]), "r"(d[2]), "r"(d[3]), "r"(d[4]), "r"(d[5]), "r"(d[6]), "r"(d[7]),
                   "r"(d[8]), "r"(d[9]), "r"(d[10]), "r"(d[11]), "r"(d[12]), "r"(d[13]), "r"(d[14]), "r"(d[15]),
                   "r"(d[16]), "r"(d[17]), "r"(d[18]), "r"(d[19]), "r"(d[20]), "r"(d[21]), "r"(d[22]),
                   "r"(d[23]), "r"(d[24]), "r"(d[25]), "r"(d[26]), "r"(d[27]), "r"(d[28]), "r"(d[29]),
                   "r"(d[30]), "r"(d[31]), "r"(way));
    return v;
}

// Alg. 2, write direction (G9): d[way] = v in the lanes where put != 0.
__device__ __forceinline__ void imov_write(uint32_t d[32], uint32_t way, uint32_t v, uint32_t put)
{
    asm volatile("{\n\t.reg .pred ep;\n\tsetp.ne.u32 ep, %33, 0;\n\t"
                 "$ELLC_WT: .branchtargets $ELLC_W0, $ELLC_W1, $ELLC_W2, $ELLC_W3, $ELLC_W4, $ELLC_W5, $ELLC_W6, "
                 "$ELLC_W7, $ELLC_W8, $ELLC_W9, $ELLC_W10, $ELLC_W11, $ELLC_W12, $ELLC_W13, $ELLC_W14, $ELLC_W15, "
                 "$ELLC_W16, $ELLC_W17, $ELLC_W18, $ELLC_W19, $ELLC_W20, $ELLC_W21, $ELLC_W22, $ELLC_W23, "
                 "$ELLC_W24, $ELLC_W25, $ELLC_W26, $ELLC_W27, $ELLC_W28, $ELLC_W29, $ELLC_W30, $ELLC_W31;\n\t"
                 "brx.idx %34, $ELLC_WT;\n"
                 WCASE(0) WCASE(1) WCASE(2) WCASE(3) WCASE(4) WCASE(5) WCASE(6) WCASE(7) WCASE(8) WCASE(9)
                 WCASE(10) WCASE(11) WCASE(12) WCASE(13) WCASE(14) WCASE(15) WCASE(16) WCASE(17) WCASE(18)
                 WCASE(19) WCASE(20) WCASE(21) WCASE(22) WCASE(23) WCASE(24) WCASE(25) WCASE(26) WCASE(27)
                 WCASE(28) WCASE(29) WCASE(30)
                 "$ELLC_W31: @ep mov.b32 %31, %32;\n"
                 "$ELLC_WD:\n\t}"
                 : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]),
                   "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]), "+r"(d[12]), "+r"(d[13]),
                   "+r"(d[14]), "+r"(d[15]), "+r"(d[16]), "+r"(d[17]), "+r"(d[18]), "+r"(d[19]), "+r"(d[20]),
                   "+r"(d[21]), "+r"(d[22]), "+r"(d[23]), "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]),
                   "+r"(d[28]), "+r"(d[29]), "+r"(d[30]), "+r"(d[31])
                 : "r"(v), "r"(put), "r"(way));
}

// One persistent CTA per cache-mode SM; set g = blockIdx.x * warps per CTA + warp.
// wst: slots x 8 words per set; rbuf, wbuf: 32 words per slot; mem: 32 words per line;
// stamp: 8 words per slot, 5 clocks (poll start, request seen, lookup done, data moved, busy cleared), for
// the measurement only (an L1 set's access counts as its data move).
// At most 40 registers per thread: 48 warps of 32 threads fit a 64K-register file (the document's
// 42-register budget per warp, Fig. 8, rounded down to the allocation granule of 8).
extern "C" __global__ void __maxnreg__(40)
    ext_llc(uint32_t *wst, uint32_t *rbuf, const uint32_t *wbuf, uint32_t *mem, uint32_t *stamp, int slots,
            int rf_warps)
{
    const uint32_t lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const uint32_t g = blockIdx.x * (blockDim.x >> 5) + warp;
    const bool rf = (int)warp < rf_warps;
    uint32_t meta = 0; // lane i: block i's metadata (all invalid)
    uint32_t d[32];
#pragma unroll
    for (int i = 0; i < 32; i++) d[i] = 0;
    // Per-warp pointers, advanced one slot per request (32-bit work in the loop, no 64-bit index math).
    uint32_t *slot = wst + (size_t)g * slots * 8, *rb = rbuf + (size_t)g * slots * 32, *st = stamp + (size_t)g * slots * 8;
    const uint32_t *wp = wbuf + (size_t)g * slots * 32; // the write data buffer entries
    for (int s = 0; s < slots; s++, slot += 8, rb += 32, wp += 32, st += 8) {
        const uint32_t t0 = (uint32_t)clock();
        // Poll the WST row: every lane loads the slot's first 16 bytes (one address: one access)
        // until its busy word is set; op, line and argument come with it.
        uint4 h;
        do {
            h = __ldcg((const uint4 *)slot);
        } while (h.x == 0);
        const uint32_t t1 = (uint32_t)clock();
        const uint32_t op = h.y, line = h.z, arg = h.w;
        if (op == OP_END) break;
        uint32_t *ml = mem + (size_t)line * 32;
        uint32_t res = 0, victim = 0, old = 0, ta = t1, tb = t1;
        if (rf) {
            // Algorithm 1: every lane checks its block; ballot; ffs.
            const uint32_t hits = __ballot_sync(0xffffffffu, (meta & META_VALID) && (meta & META_TAG) == line);
            uint32_t way;
            bool touch = true, wb = false, put = false;
            uint32_t newv = 0;
            if (op == OP_FILL && !hits) {
                const uint32_t inv = __ballot_sync(0xffffffffu, !(meta & META_VALID));
                way = inv ? __ffs(inv) - 1 : __ffs(__ballot_sync(0xffffffffu, (meta >> 20) == LRU_TOP - 31)) - 1;
                const uint32_t vm = __shfl_sync(0xffffffffu, meta, way);
                wb = (vm & META_VALID) && (vm & META_DIRTY);
                victim = wb ? vm & META_TAG : 0u;
                newv = __ldcg(ml + lane); // the line from memory (a DRAM access once the LLC is bypassed)
                put = true;
            } else if (hits) {
                way = __ffs(hits) - 1;
                res = 1;
            } else {
                way = 0;
                touch = false; // a miss changes nothing: the controller fetches the line
            }
            ta = (uint32_t)clock();
            // The one indirect read: a read hit's block, an atomic's word, a dirty victim.
            uint32_t v = 0;
            if ((hits && op != OP_FILL) || wb) v = imov_read(d, way);
            if (wb) __stcg(mem + (size_t)victim * 32 + lane, v); // write-back of the dirty victim
            if (hits && op == OP_READ) __stcg(rb + lane, v);
            if (hits && op == OP_WRITE) {
                newv = __ldcg(wp + lane);
                put = (arg >> (lane >> 3)) & 1; // 32-byte sectors of the mask
            }
            if (hits && op == OP_ATOMIC) {
                old = __shfl_sync(0xffffffffu, v, arg & 31);
                newv = v + __ldcg(slot + 6); // the operand
                put = lane == (arg & 31);
            }
            // The one indirect write: a fill's line, a write's sectors, an atomic's word.
            if (__any_sync(0xffffffffu, put)) imov_write(d, way, newv, put);
            if (touch) {
                // Exact LRU: a hit counts down only the blocks more recent than the hit one; a block
                // filled into a new way is younger than every block, so all of them count down.
                const uint32_t tl = __shfl_sync(0xffffffffu, meta, way) >> 20;
                if (lane != way && (meta & META_VALID) && (!hits || (meta >> 20) > tl)) meta -= 1u << 20;
                if (lane == way) {
                    bool dirty = hits && (meta & META_DIRTY);
                    if (op == OP_WRITE || op == OP_ATOMIC || (op == OP_FILL && (arg & 1))) dirty = true;
                    meta = (LRU_TOP << 20) | META_VALID | (dirty ? META_DIRTY : 0u) | line;
                }
            }
            res |= (wb ? 2u : 0u) | (way << 8);
            tb = (uint32_t)clock();
        } else {
            // L1 set: the L1 hardware keeps the tags; the warp forwards the access.
            // (a volatile load: a fill's value is not used, the line only has to reach the L1)
            uint32_t v = 0;
            if (op != OP_WRITE) asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(v) : "l"(ml + lane) : "memory");
            if (op == OP_READ) __stcg(rb + lane, v);
            if (op == OP_WRITE && ((arg >> (lane >> 3)) & 1)) ml[lane] = __ldcg(wp + lane);
            if (op == OP_ATOMIC) {
                old = __shfl_sync(0xffffffffu, v, arg & 31);
                if (lane == (arg & 31)) ml[lane] = v + __ldcg(slot + 6);
            }
            res = op == OP_FILL ? 0u : 1u;
            tb = (uint32_t)clock();
        }
        // Every lane stores the same words (one access, no divergent branch).
        __stcg((uint2 *)(slot + 4), make_uint2(res, victim));
        if (op == OP_ATOMIC) __stcg(slot + 7, old);
        __threadfence(); // the result and data before the busy bit clears
        __stcg(slot, 0u);
        __stcg((uint4 *)st, make_uint4(t0, t1, ta, tb));
        st[4] = (uint32_t)clock();
    }
}

// Brings `words` words at p into the L2 (every 32-byte sector, bypassing the L1), so that the WST
// and the write data buffer are LLC-resident before ext_llc runs, as in the document's own
// measurement (fn. 5: "all accesses (after the initialization phase ...) hit in the conventional LLC").
extern "C" __global__ void ext_llc_warm(const uint32_t *p, unsigned words, uint32_t *sink)
{
    uint32_t acc = 0;
    for (size_t i = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * 8; i < words; i += (size_t)gridDim.x * blockDim.x * 8)
        acc ^= __ldcg(p + i);
    if (acc == 1u) sink[0] = acc; // keeps the loads
}
