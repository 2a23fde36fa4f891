/*
 * The cache core shared by the SM's L1 data cache and the L2 slices: a tag array with per-sector
 * state, a replacement policy (LRU or FIFO), a set-index function, an MSHR table that merges
 * requests to the same line, and a miss queue of requests for the next level.
 *
 * It is a passive state machine: the wrapper calls cache_access() for each request at the tag
 * stage, drains the miss queue (cache_out_*) towards the next level at its port's rate, and calls
 * cache_fill() when data returns. Nothing inside advances with time, so the wrapper needs to tick
 * the cache only while cache_needs_tick() (the miss queue holds requests).
 *
 * Configured by a gsim_cache_cfg (GPGPU-Sim's "-gpgpu_cache:dl1" fields). Semantics chosen here
 * (GPGPU-Sim documents the policies, not every corner):
 *   - Normal caches have one state bit per line; sectored ('S') caches four 32 B sectors per
 *     128 B line. A request names its sectors with a 4-bit mask (ignored for normal caches; 0 means
 *     the whole line). Writes are taken to cover whole sectors.
 *   - Read: every requested sector valid -> HIT. None missing but some pending in the line's MSHR
 *     -> HIT_RESERVED (merged). Some neither valid nor pending -> MISS: an MSHR entry is created or
 *     extended, and a read for the missing sectors is queued (a "sector miss" when the line's tag
 *     was present).
 *   - Allocation 'm' reserves the victim line at miss time (a line with pending sectors is never a
 *     victim; no free victim -> RESERVATION_FAIL(LINE_ALLOC)). 'f' and 's' (streaming) choose the
 *     victim when the fill arrives. The allocation hook is asked once per miss that would bring in a
 *     new line; BYPASS keeps the MSHR (so later requests still merge) but never allocates the line.
 *   - Writes by policy (write_policy; 'L' = B for local stores, E for global stores):
 *       B hit: sectors valid and dirty. Hit on pending sectors: merged into the MSHR and made dirty
 *         when the fill arrives.
 *       T hit: sectors valid, write queued down.  E hit: line invalidated, write queued down.
 *       R: writes are handled as E.
 *     Write miss (tag absent, or B write on absent sectors of a present line is a hit that fills
 *     them): E never allocates; B and T follow write_alloc:
 *       N: write queued down, nothing allocated.
 *       W (naive): write queued down plus a read of the written sectors (an MSHR with no waiter).
 *       F (fetch-on-write): a read of the written sectors; B: the write waits in the MSHR and
 *         dirties the sectors at fill; T: the write is queued down too and does not wait.
 *       L (lazy fetch-on-read): the line is allocated now with the written sectors valid (dirty
 *         for B, write queued down for T); unwritten sectors miss later.
 *   - A write-through/evict write that finds its sectors pending is sent down and does not wait.
 *   - Counting (cache_stats, GPGPU-Sim's probe): a write to a present line whose sectors are
 *     pending counts as HIT_RESERVED, one to sectors neither valid nor written as a sector miss,
 *     whatever the status (the timing) says; the write's handling does not change.
 *   - Evicting a line with valid sectors counts an eviction and calls on_evict; dirty sectors
 *     queue a write-back (kind CACHE_OUT_WRITEBACK, mask = dirty sectors).
 *   - MSHR merge limit counts every request in the entry, the first one included (GPGPU-Sim's).
 *   - MSHR granularity (cache_set_sector_mshr): one entry per line (default), or, in sectored
 *     caches, GPGPU-Sim 4.2's one entry per 32-byte sector: -gpgpu_cache's MSHR count bounds the
 *     pending sectors and the merge limit the requests waiting on each sector. (GPGPU-Sim keys its
 *     MSHR table by the cache's atom, the sector in a sectored cache.) A line's sectors still share
 *     one internal entry; only the limits are counted per sector.
 *   - Fail order: LINE_ALLOC, then MSHR_MERGE / MSHR_ENTRY, then MISS_QUEUE (a request needs one
 *     queue slot per outgoing message: read, write, write-back).
 *   - Owner PC hash: the pc_hash of the last load that hit the line or whose fill allocated it.
 *
 * Set-index functions (b = address / line size, k = ceil(log2(sets))):
 *   L  b mod sets.
 *   X  (b XOR (b >> k)) mod sets: the set bits XORed with the next k bits above them.
 *   H  Fermi L1 hash, for 32 or 64 sets: set[4:0] = b[4:0] XOR {a19,a17,a15,a14,a13} (address bits,
 *      a13 lowest) and, for 64 sets, set[5] = a12; other set counts use X.
 *   P  polynomial (IPOLY-style): b, read as a polynomial over GF(2), modulo an irreducible
 *      polynomial of degree k (table in cache_index.c), then mod sets. Any aligned run of `sets`
 *      consecutive blocks, and any `sets` blocks a power-of-two stride apart, land in distinct sets.
 *   C  (custom) is taken as L.
 */
#ifndef GTLM_CACHE_CORE_H
#define GTLM_CACHE_CORE_H

#include <stdint.h>

#include "../config/gpgpusim_formats.h"
#include "../power/power_mode.h"

#define CACHE_SECTORS 4
#define CACHE_SECTOR_BYTES 32
#define CACHE_FULL_MASK 0xFu

typedef enum cache_status {
    CACHE_HIT = 0,
    CACHE_HIT_RESERVED,     /* merged into the line's pending MSHR entry */
    CACHE_MISS,             /* outgoing message(s) queued; see cache_result */
    CACHE_RESERVATION_FAIL, /* nothing changed; retry later; see cache_result.fail */
    CACHE_BYPASS_DIRECT,    /* only with bypass_direct: the replacement hook protects every line and the
                               read is to skip the cache and its MSHRs (the caller sends it on) */
} cache_status;

typedef enum cache_fail_reason {
    CACHE_FAIL_NONE = 0,
    CACHE_FAIL_LINE_ALLOC,  /* every way of the set is reserved */
    CACHE_FAIL_MSHR_ENTRY,  /* no free MSHR entry */
    CACHE_FAIL_MSHR_MERGE,  /* the line's MSHR entry already holds mshr_merge requests */
    CACHE_FAIL_MISS_QUEUE,  /* not enough room in the miss queue */
    CACHE_FAIL_COUNT
} cache_fail_reason;

typedef enum cache_alloc_decision { CACHE_ALLOCATE = 0, CACHE_BYPASS = 1 } cache_alloc_decision;

typedef enum cache_out_kind { CACHE_OUT_READ = 0, CACHE_OUT_WRITE, CACHE_OUT_WRITEBACK } cache_out_kind;

typedef struct cache_req {
    uint64_t addr;
    uint64_t cookie;      /* the caller's; returned when the request wakes up */
    uint32_t pc_hash;     /* hashed PC of the instruction (loads set the line's owner) */
    uint8_t sector_mask;  /* sectors touched (sectored caches); 0 = whole line */
    uint8_t is_write;
    uint8_t is_local;     /* local-memory access: write policy 'L' treats it as write-back */
    uint8_t partial_mask; /* writes: sectors the request writes only in part (cache_set_partial_unreadable) */
    uint8_t no_allocate;  /* the caller's bypass: a miss keeps its MSHR (merges) but allocates no line */
} cache_req;

/* A message for the next level. addr is the line address. */
typedef struct cache_out {
    uint64_t addr;
    uint64_t cookie;      /* the write's cookie for CACHE_OUT_WRITE, else 0 */
    uint8_t sector_mask;
    uint8_t kind;         /* cache_out_kind */
    uint8_t prefetch;     /* a read cache_prefetch queued (marked below the cache: gtlm_mem_ext) */
    uint64_t queued;      /* the owner's cycle (cache_core.now) when it entered the miss queue */
} cache_out;

typedef struct cache_line {
    uint64_t tag;         /* line address; meaningful when valid | reserved != 0 */
    uint64_t last_use;    /* LRU stamp */
    uint64_t alloc_time;  /* FIFO stamp */
    uint32_t meta;        /* user metadata, zeroed on allocation */
    uint32_t owner_pc_hash;
    uint8_t valid;        /* sector masks */
    uint8_t reserved;     /* sectors pending a fill into this line ('m' allocation) */
    uint8_t dirty;
    uint8_t allocated;    /* tag is live (some sector valid or reserved) */
    uint8_t unreadable;   /* sectors a lazy write made present but not readable (partial_unreadable) */
    uint8_t prefetched;   /* brought in by a prefetch (cache_prefetch) */
    uint8_t demanded;     /* a demand read touched it since the fill */
} cache_line;

typedef struct cache_result {
    uint8_t status;       /* cache_status */
    uint8_t fail;         /* cache_fail_reason */
    uint8_t sector_miss;  /* MISS on a line whose tag was present */
    uint8_t bypassed;     /* the allocation hook said BYPASS */
    uint8_t n_out;        /* messages queued by this access (read, write, write-back) */
    uint8_t read_sent, write_sent, writeback_sent;
    uint8_t stat_status;  /* the outcome the counters took (GPGPU-Sim's); differs from status only
                             for writes served as hits that GPGPU-Sim counts as sector misses or
                             pending hits (see cache_stats.served_hits) */
} cache_result;

/* Hooks (DESIGN.md §10): all optional; ctx is passed back. Hooks may write line->meta. */
typedef struct cache_hooks {
    void *ctx;
    void (*on_hit)(void *ctx, cache_line *line, int set, int way, const cache_req *req);
    void (*on_fill)(void *ctx, cache_line *line, int set, int way, uint8_t sectors);
    void (*on_evict)(void *ctx, const cache_line *line, int set, int way);
    /* Asked on a miss that would bring in a new line; default (NULL) allocates. */
    cache_alloc_decision (*alloc)(void *ctx, const cache_req *req);
    /* Replacement seam: the victim way among the set's assoc lines instead of LRU/FIFO; -1 when the
       policy protects every line: the read bypasses (it keeps its MSHR, allocates nothing) unless
       every way is reserved (then RESERVATION_FAIL(LINE_ALLOC) as without the hook). Must not
       change state: it may be asked for an access that then fails. at_fill: asked when a fill
       arrives ('f'/'s' allocation) rather than by the access itself (before its on_read). */
    int (*victim)(void *ctx, int set, const cache_line *lines, int at_fill);
    /* A read that did not fail accessed `set`; hit_way is the way it hit (-1: it did not). */
    void (*on_read)(void *ctx, int set, int hit_way, const cache_req *req);
} cache_hooks;

typedef struct cache_stats {
    uint64_t accesses, reads, writes;
    /* GPGPU-Sim 4.2's outcomes: a write to a line whose tag is present counts by the written
       sectors' state (pending: hit_reserved; neither valid nor written: a sector miss) although
       the cache serves it like a hit; served_hits counts what was served as a hit (status HIT),
       the power model's data-array accesses. */
    uint64_t hits, hit_reserved, misses, sector_misses, served_hits;
    uint64_t res_fail[CACHE_FAIL_COUNT];
    uint64_t evictions, dirty_writebacks;
    uint64_t fills, sector_fills; /* fill calls; sectors that arrived for a pending MSHR */
    uint64_t writes_sent, bypasses;
    uint64_t wb_overflow;         /* write-backs at fill time that found the queue overfull (lost) */
} cache_stats;

typedef struct cache_waiter cache_waiter;
/* Prefetch statistics (cache_prefetch.c); apart from cache_stats so that caches without
 * prefetching report what they always did. */
typedef struct cache_pf_stats {
    uint64_t issued;        /* prefetches that opened an MSHR and went down */
    uint64_t redundant;     /* line present or already pending: nothing sent */
    uint64_t dropped;       /* no MSHR, line or miss-queue room: dropped, never retried */
    uint64_t useful;        /* prefetched lines demanded while resident (first demand) */
    uint64_t late_merged;   /* demand reads that merged into a prefetch's MSHR */
    uint64_t evicted_unused;/* prefetched lines evicted before any demand */
    uint64_t early_evicted; /* ... of which a demand asked for the line later */
    uint64_t correct;       /* useful + late_merged + early_evicted: the early-eviction ratio's base */
} cache_pf_stats;

#define CACHE_PF_EVICTED_SLOTS 1024 /* evicted-unused prefetch lines remembered (direct-mapped) */

typedef struct cache_mshr {
    uint64_t addr;
    cache_waiter *w;      /* its waiters, grown on demand up to mshr_merge (a config of
                             1024 x 1024 would otherwise reserve 16 MB per cache) */
    uint16_t wcap;
    uint32_t pc_hash;     /* last load merged */
    int next;             /* hash-chain or free-list link */
    uint16_t nwait;
    uint8_t pending;      /* sectors still to arrive */
    uint8_t allocate;     /* allocate the line at fill */
    uint8_t has_load;     /* pc_hash is set */
    uint8_t in_use;
    uint8_t prefetch;     /* opened by cache_prefetch */
    uint8_t demanded;     /* a demand read merged into it */
} cache_mshr;

struct cache_waiter {
    uint64_t cookie;
    uint8_t mask;
    uint8_t is_write;     /* dirties its sectors at fill (write-back fetch-on-write) */
};

typedef struct cache_core {
    gsim_cache_cfg cfg;
    int nsets, assoc, line_log2, nsect, set_bits;
    int alloc_assoc;      /* ways the arrays were allocated for (cache_set_ways may use fewer) */
    uint8_t full_mask;
    cache_line *lines;    /* nsets * assoc */
    uint64_t *tagv;       /* per line: tag | 1 while allocated, else 0 (a compact array to search) */
    uint64_t stamp;
    /* MSHRs */
    cache_mshr *mshr;
    int *buckets;
    int nbuckets, mshr_free, mshr_used;
    int sector_mshr;      /* limits per 32-byte sector (sectored caches only) */
    int mshr_sectors;     /* sectors pending over every entry */
    int read_mq_reserve;  /* a read that misses or merges needs 2 free miss-queue slots (GPGPU-Sim) */
    int partial_unreadable; /* lazy fetch-on-read: a sector a write makes present only in part stays invalid */
    /* miss queue: ring */
    cache_out *mq;
    int mq_cap, mq_head, mq_count;
    uint16_t *ipoly_tab;  /* 'P': (byte << 8j) mod poly, for j = 0..7 */
    /* The address the set index is computed from (NULL: the access's own address; an L2 bank:
       the address inside its sub-partition). Tags always compare the whole line address. */
    uint64_t (*index_addr)(const void *ctx, uint64_t addr);
    const void *index_ctx;
    cache_hooks hooks;
    int bypass_direct;    /* a hook-protected set's read returns CACHE_BYPASS_DIRECT (0: it keeps an MSHR) */
    int ways_usable;      /* victims only among the first ways_usable ways (0: every way; CacheExt / CERF) */
    cache_stats st;
    /* power modes (cache_power.c): blocks of pm_lines lines; always ON unless a policy is set */
    pm_domain pm;
    int pm_lines;         /* lines per power block (the whole cache when it has one block) */
    uint32_t *pm_live;    /* per block: allocated lines (with a policy only) */
    int pm_per_sector;    /* cache_pm_set_per_sector: a 32-byte sector per block when possible */
    int pm_sect;          /* power blocks per line: nsect in sector mode, else 1 */
    uint8_t *pm_smask;    /* sector mode, per line: the sectors live as the power blocks know it */
    uint32_t *pm_resq;    /* Snooze's reservation queue: sets whose reservation failed, until a fill */
    int pm_resq_cap;      /* its entries (cache_pm_set_resq; 0: unbounded, no queue kept) */
    int pm_resq_n;
    uint64_t pm_resq_overflows; /* reservation fails the full queue could not take (block kept ON) */
    uint64_t now;         /* the owner's cycle, set before an access (power modes only) */
    int pm_wait;          /* cycles the last access waited for its block to wake */
    /* A read that failed its reservation with no effect but counters (tag absent, no MSHR, no
     * hooks, no power modes) fails the same way while nothing changed: gen counts the changes (every
     * access, fill, pop, invalidation, hook or power call, mutable line access), and a retry of the
     * remembered line at the remembered gen only counts again (an LD/ST unit retries every cycle). */
    uint64_t gen, fail_gen, fail_line;
    uint8_t fail_why, fail_known;
    uint8_t fail_mask, fail_local; /* the remembered read's sectors (sector MSHRs count them) and kind */
    /* prefetching (cache_prefetch.c): NULL until cache_prefetch_enable */
    uint64_t *pf_evicted; /* CACHE_PF_EVICTED_SLOTS line addresses | 1 */
    cache_pf_stats pf;
    struct cache_miss_class *mclass; /* NULL until cache_miss_classes_enable (cache_miss_class.h) */
} cache_core;

/* 0 on success, -1 on a bad configuration (disabled, sizes) or no memory. */
int cache_init(cache_core *c, const gsim_cache_cfg *cfg);
void cache_free(cache_core *c);
void cache_set_hooks(cache_core *c, const cache_hooks *h);
/* Lines are allocated in ways [0, ways) only (1..assoc; sets ways_usable); lookups still see every way. */
void cache_limit_victim_ways(cache_core *c, int ways);

int cache_set_index(const cache_core *c, uint64_t addr);
/* Sets are indexed by fn(ctx, addr) instead of addr (NULL: addr); set before the first access. */
void cache_set_index_addr(cache_core *c, uint64_t (*fn)(const void *ctx, uint64_t addr), const void *ctx);
/* The degree-k polynomial used by 'P' (bit i = coefficient of x^i, x^k included); 0 if k is
   outside 1..16. */
uint32_t cache_ipoly_poly(int k);
/* Internal: fills the 8 x 256 table of 'P' for c->set_bits; -1 when no polynomial fits. */
int cache_index_build(cache_core *c, uint16_t *tab);
uint64_t cache_line_addr(const cache_core *c, uint64_t addr);

cache_status cache_access(cache_core *c, const cache_req *req, cache_result *res);
/* Sectors of line_addr arrived (mask ignored for normal caches). Writes up to max_wake cookies of
   the requests now complete into woken (max_wake >= mshr_merge is always enough); returns their
   count, or -1 when no MSHR entry waits for this line. */
int cache_fill(cache_core *c, uint64_t line_addr, uint8_t sector_mask, uint64_t *woken, int max_wake);

/* Prefetching (the DESIGN.md prefetch seam in the cache): enable allocates the evicted-prefetch
 * table (0, or -1 without memory). cache_prefetch asks for the line holding addr without a waiter:
 * CACHE_HIT when it is present or pending (redundant), CACHE_MISS when an MSHR was opened and a
 * read queued, CACHE_RESERVATION_FAIL when it was dropped (no MSHR, line or miss-queue room; a
 * prefetch is never retried). A later demand read merges into its MSHR (HIT_RESERVED). */
int cache_prefetch_enable(cache_core *c);
cache_status cache_prefetch(cache_core *c, uint64_t addr, uint32_t pc_hash);
/* Internal (cache_core.c): demand-side bookkeeping of prefetched lines. */
void cache_pf_demand_hit(cache_core *c, cache_line *l);
void cache_pf_demand_merge(cache_core *c, cache_mshr *e);
void cache_pf_demand_miss(cache_core *c, uint64_t la);
void cache_pf_evict(cache_core *c, const cache_line *l);
int cache_mshr_find(const cache_core *c, uint64_t la);
/* A whole-line read of la (absent, no MSHR) with no waiter; marks the MSHR as a prefetch's. */
cache_status cache_fetch_no_waiter(cache_core *c, const cache_req *req, uint64_t la, int set, cache_result *r);

/* Miss classification (cache_miss_class.h): enable allocates the shadow cache (0, or -1 without
 * memory); from then on every accepted access is classified. The classifier's counters are
 * c->mclass->cold etc. Internal: cache_classify (one accepted access), cache_miss_classes_free. */
int cache_miss_classes_enable(cache_core *c);
void cache_classify(cache_core *c, const cache_req *req, uint64_t la, cache_status st);
void cache_miss_classes_free(cache_core *c);
/* The write policy a write of req meets: 'B', 'T' or 'E' ('L' and 'R' resolved). */
char cache_write_policy(const cache_core *c, const cache_req *req);

/* Side-effect-free lookup: way of the line holding addr, or -1; *valid gets its valid sectors. */
int cache_probe(const cache_core *c, uint64_t addr, uint8_t *valid);
cache_line *cache_line_at(cache_core *c, int set, int way);
/* Drops every line (no write-backs) that is not reserved; kernel-boundary L1 invalidation. */
void cache_invalidate_all(cache_core *c);
/* Re-shapes an idle cache (no MSHR in use) to `ways` ways per set (1 .. the ways cache_init
 * allocated) and allocation policy alloc ('m', 'f' or 's'), dropping every line: the adaptive L1
 * carve-out at a kernel boundary. 0, or -1 (busy or out of range; nothing changes). */
int cache_set_ways(cache_core *c, int ways, char alloc);
/* With lazy fetch-on-read write allocation ('L'), GPGPU-Sim keeps a byte mask per sector and a
 * sector a write brings in only in part (cache_req.partial_mask) is not readable: a later read
 * misses and fetches it. on: that rule; 0: written sectors become valid (gtlm before). */
void cache_set_partial_unreadable(cache_core *c, int on);

/* Power modes of the data array (the seam of gating policies such as Snooze): blocks of
 * lines_per_block lines (0: the whole cache is one block), total leakage leak_mw, owner clock mhz.
 * An access to a line of a sleeping or OFF block waits its wake-up latency (pm_wait); a line of
 * an OFF block has lost its data and misses. Tags are not gated. 0, or -1 (no memory). */
int cache_pm_init(cache_core *c, const pm_table *t, double leak_mw, double mhz, const pm_policy *pol,
                  int lines_per_block);
/* Sector mode (before cache_pm_init; -power_gating_sectors_*): in a sectored cache gated per line
 * (lines_per_block 1), each 32-byte sector is a power block of its own: live while valid or
 * reserved, woken by the requests and fills that name it (the thesis' switch per 32 B). */
void cache_pm_set_per_sector(cache_core *c, int on);
/* Snooze's reservation queue (before cache_pm_init; -snooze_resq_entries, spec C.3.3 / C.9.6): a
 * reservation fail takes an entry for its set until a fill of that set pops it; with every entry
 * taken the fail is not reported (the sleep-on-reservation-fail rule is off: the block stays ON).
 * entries 0: unbounded. */
void cache_pm_set_resq(cache_core *c, int entries);
/* Whether a cache has sector blocks: the option is on and the configured -power_policy gates the
 * caches (without such a policy the blocks stay lines: an always-ON cache's statistics unchanged). */
int cache_pm_per_sector_for(const char *policy, int option);
/* Power blocks of a cache of `lines` lines with nsect sectors per line (cache_pm_init's count). */
uint32_t cache_pm_blocks(uint32_t lines, int nsect, int lines_per_block, int per_sector);
/* Internal (cache_core.c): a line's block was accessed / got a line / lost a line. touch returns 1
 * when the line's data was lost (the line is dropped, or in sector mode loses the lost sectors);
 * mask: the request's sectors (sector mode touches those of them that are valid). */
int cache_pm_touch(cache_core *c, int set, int way, uint8_t mask);
void cache_pm_alloc(cache_core *c, int set, int way);
void cache_pm_free(cache_core *c, int set, int way);
/* Sector mode: the lines of a set changed; sectors that became live are allocated, those that
 * died freed, and `written` sectors of `way` (a fill) were written (woken, then the policy's). */
void cache_pm_sync(cache_core *c, int set, int way, uint8_t written);
/* A fill response for `set` was applied (ICNT->L1 / DRAM->L2 pop): its reservation-queue entry goes;
 * way >= 0 (a line cache): the fill wrote that line, which the policy hears as PM_EV_ALLOC. */
void cache_pm_fill_done(cache_core *c, int set, int way);
static inline int cache_pm_sectored(const cache_core *c) { return c->pm_sect > 1; }
/* Snooze's look-ahead seam (model/power/policy_snooze.c): queue events for the sectors of addr
 * (0: the whole line), and the end. */
void cache_pm_queue(cache_core *c, uint64_t addr, uint8_t sectors, pm_event ev, uint64_t now);
void cache_pm_finish(cache_core *c, uint64_t now);
void cache_pm_idle(cache_core *c, uint64_t now);

/* Miss queue towards the next level. */
static inline int cache_out_count(const cache_core *c) { return c->mq_count; }
static inline int cache_needs_tick(const cache_core *c) { return c->mq_count > 0; }
const cache_out *cache_out_peek(const cache_core *c);
int cache_out_pop(cache_core *c, cache_out *out);
static inline int cache_mshr_in_use(const cache_core *c) { return c->mshr_used; }
/* MSHR limits per sector (on != 0, sectored caches only) or per line; set before the first access. */
void cache_set_sector_mshr(cache_core *c, int on);
/* GPGPU-Sim 4.2's read-miss rule: a read that misses or merges (HIT_RESERVED) is refused
   (MISS_QUEUE) unless the miss queue has 2 free slots, room for its read and a write-back. */
void cache_set_read_mq_reserve(cache_core *c, int on);
/* The most requests one fill can wake: the size cache_fill's woken buffer needs. */
int cache_mshr_max_waiters(const cache_core *c);

#endif
