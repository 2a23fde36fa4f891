#include "coalescer.h"

#include "../simt/simt.h"

coal_mode coal_mode_of(int coalesce_arch)
{
    return coalesce_arch >= 20 ? COAL_SECTORED : COAL_FERMI;
}

/* Per-line scratch: which sectors and which lanes per sector. Kept sorted by line address. */
typedef struct coal_line {
    uint64_t line;
    uint32_t sector_lanes[4];
    uint32_t sector_bytes[4]; /* bit b: byte b of the sector is accessed by some lane */
} coal_line;

/* Returns the entry for `line`, inserting it in order; lines[] holds at most COAL_MAX_REQS. */
static coal_line *coal_find_or_insert(coal_line *lines, int *n, uint64_t line)
{
    int lo = 0, hi = *n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (lines[mid].line < line) lo = mid + 1;
        else hi = mid;
    }
    if (lo < *n && lines[lo].line == line) return &lines[lo];
    for (int i = *n; i > lo; i--) lines[i] = lines[i - 1];
    lines[lo].line = line;
    for (int s = 0; s < 4; s++) lines[lo].sector_lanes[s] = lines[lo].sector_bytes[s] = 0;
    (*n)++;
    return &lines[lo];
}

/* The entry for `line` when the previous lane's was another: lanes mostly ascend, so a line
 * after the last is appended without a search. The entries stay sorted. */
static coal_line *line_entry(coal_line *lines, int *n, uint64_t line)
{
    if (*n == 0 || lines[*n - 1].line < line) {
        coal_line *e = &lines[(*n)++];
        *e = (coal_line){.line = line};
        return e;
    }
    return coal_find_or_insert(lines, n, line);
}

/* Smallest aligned 32/64/128-byte segment of the line covering the sector mask. */
static void coal_reduce(uint64_t line, uint8_t sectors, coal_req *r)
{
    int first = 0, last = 3;
    while (!(sectors >> first & 1)) first++;
    while (!(sectors >> last & 1)) last--;
    if (first == last) {
        r->bytes = 32;
        r->addr = line + (uint64_t)first * COAL_SECTOR_BYTES;
    } else if (first / 2 == last / 2) {
        r->bytes = 64;
        r->addr = line + (uint64_t)(first / 2) * 64u;
    } else {
        r->bytes = 128;
        r->addr = line;
    }
}

int coal_coalesce(coal_mode mode, const uint64_t addr[COAL_LANES], uint32_t mask, unsigned bytes,
                  coal_result *out)
{
    out->n = 0;
    out->n_lines = 0;
    if (bytes == 0 || bytes > COAL_MAX_BYTES) return -1;

    coal_line lines[COAL_MAX_REQS];
    int nl = 0;
    coal_line *prev = NULL; /* the line the previous sector went to: neighbouring lanes mostly share it */
    uint32_t bmask = bytes == 32 ? 0xFFFFFFFFu : (1u << bytes) - 1u; /* a lane's bytes at sector offset 0 */
    uint32_t m = mask;
    /* Lanes whose bytes lie in one sector (every aligned access), until the first that straddles. */
    for (; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        uint64_t a = addr[l];
        unsigned off = (unsigned)(a % COAL_SECTOR_BYTES);
        if (off + bytes > COAL_SECTOR_BYTES) break;
        uint64_t la = a & ~(uint64_t)(COAL_LINE_BYTES - 1);
        if (!prev || prev->line != la) prev = line_entry(lines, &nl, la);
        unsigned si = (unsigned)(a % COAL_LINE_BYTES) / COAL_SECTOR_BYTES;
        prev->sector_lanes[si] |= 1u << l;
        prev->sector_bytes[si] |= bmask << off;
    }
    /* The rest, sector by sector. */
    for (; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        uint64_t first = addr[l], last = addr[l] + bytes - 1;
        /* bytes <= 32 <= sector size: at most two sectors, hence at most two lines */
        for (uint64_t sec = first / COAL_SECTOR_BYTES; sec <= last / COAL_SECTOR_BYTES; sec++) {
            uint64_t sa = sec * COAL_SECTOR_BYTES;
            uint64_t la = sa & ~(uint64_t)(COAL_LINE_BYTES - 1);
            if (!prev || prev->line != la) prev = line_entry(lines, &nl, la);
            int si = (int)((sa % COAL_LINE_BYTES) / COAL_SECTOR_BYTES);
            prev->sector_lanes[si] |= 1u << l;
            uint64_t lo = first > sa ? first - sa : 0, hi = last < sa + COAL_SECTOR_BYTES - 1 ? last - sa : COAL_SECTOR_BYTES - 1;
            uint32_t span = hi - lo == 31 ? 0xFFFFFFFFu : ((1u << (hi - lo + 1)) - 1u) << lo;
            prev->sector_bytes[si] |= span;
        }
    }

    out->n_lines = nl;
    for (int i = 0; i < nl; i++) {
        const coal_line *e = &lines[i];
        if (mode == COAL_FERMI) {
            coal_req *r = &out->req[out->n++];
            r->line = e->line;
            r->lanes = 0;
            r->sectors = 0;
            r->full = 0;
            for (int s = 0; s < 4; s++) {
                if (!e->sector_lanes[s]) continue;
                r->sectors |= (uint8_t)(1u << s);
                r->lanes |= e->sector_lanes[s];
                if (e->sector_bytes[s] == 0xFFFFFFFFu) r->full |= (uint8_t)(1u << s);
            }
            coal_reduce(e->line, r->sectors, r);
        } else {
            for (int s = 0; s < 4; s++) {
                if (!e->sector_lanes[s]) continue;
                coal_req *r = &out->req[out->n++];
                r->line = e->line;
                r->addr = e->line + (uint64_t)s * COAL_SECTOR_BYTES;
                r->lanes = e->sector_lanes[s];
                r->sectors = (uint8_t)(1u << s);
                r->full = e->sector_bytes[s] == 0xFFFFFFFFu ? r->sectors : 0;
                r->bytes = COAL_SECTOR_BYTES;
            }
        }
    }
    return 0;
}

int coal_coalesce_access(coal_mode mode, const struct simt_mem_access *acc, coal_result *out)
{
    return coal_coalesce(mode, acc->addr, acc->mask, acc->bytes, out);
}
