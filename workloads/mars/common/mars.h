/* Mars MapReduce runtime, host side: the phases (map, sort, group, reduce) as sequences of
 * launches of the kernels in mars_kernels.cuh, and the input generators and verification
 * helpers the six applications share. */
#ifndef GTLM_MARS_H
#define GTLM_MARS_H

#include <stdint.h>

#include "workload.h"

/* A key/value set on the device: key bytes, value bytes, one int4 record per pair
 * {key offset, key size, value offset, value size}. index has room for cap records (cap >= n,
 * the tail padded with key size -1 so that the bitonic sort can run on cap records). */
typedef struct mars_kv {
    gtlm_devptr keys, vals, index;
    int n, cap;
    long key_bytes, val_bytes;
} mars_kv;

/* The same on the host. */
typedef struct mars_host_kv {
    char *keys, *vals;
    int32_t *index; /* 4 ints per record */
    int n;
    long key_bytes, val_bytes;
} mars_host_kv;

int mars_kv_upload(wl_ctx *c, mars_kv *kv, const mars_host_kv *h);
int mars_kv_download(wl_ctx *c, const mars_kv *kv, mars_host_kv *h);
void mars_kv_free(wl_ctx *c, mars_kv *kv);
void mars_host_kv_free(mars_host_kv *h);

/* Map (stage selects the application's map function): count, three scans, write. */
int mars_map_phase(wl_ctx *c, const mars_kv *in, int stage, mars_kv *out);
/* Bitonic sort of kv->index by the application's compare, then the values and keys copied
 * into new buffers in sorted order (as Mars). */
int mars_sort_phase(wl_ctx *c, mars_kv *kv, int stage);
/* Group boundaries of a sorted set: starts[0 .. *groups] (starts[*groups] = kv->n). */
int mars_group_phase(wl_ctx *c, const mars_kv *kv, int stage, gtlm_devptr *starts, int *groups);
/* Reduce over the groups: count, scans, write. */
int mars_reduce_phase(wl_ctx *c, const mars_kv *in, gtlm_devptr starts, int groups, int stage, mars_kv *out);

/* A MapReduce job as Mars runs one: map in -> inter; MARS_SORT sorts inter; MARS_GROUP also
 * finds its groups (starts[0 .. groups], starts[groups] = inter.n); MARS_REDUCE also reduces
 * the groups into out. */
enum { MARS_MAP_ONLY = 0, MARS_SORT = 1, MARS_GROUP = 2, MARS_REDUCE = 3 };
typedef struct mars_job {
    mars_kv in, inter, out;
    gtlm_devptr starts;
    int groups;
} mars_job;
int mars_run_job(wl_ctx *c, mars_job *j, int kind, int stage);
void mars_job_free(wl_ctx *c, mars_job *j);

/* The kernels each kind of job launches (for wl_desc.kernels). */
#define MARS_KERNELS_MAP "mars_map_count, mars_map, mars_prescan, mars_uniform_add"
#define MARS_KERNELS_SORT MARS_KERNELS_MAP ", mars_sort_chunk, mars_sort_step, mars_sort_merge, mars_chunk_sizes, mars_copy_chunks"
#define MARS_KERNELS_GROUP MARS_KERNELS_SORT ", mars_group_flags, mars_group_starts"
#define MARS_KERNELS_REDUCE MARS_KERNELS_GROUP ", mars_reduce_count, mars_reduce"

/* Zipf(s) distribution over ranks 0 .. n-1 (P(r) proportional to 1 / (r + 1)^s). */
typedef struct mars_zipf {
    double *cdf;
    int n;
} mars_zipf;
int mars_zipf_init(mars_zipf *z, int n, double s);
int mars_zipf_draw(const mars_zipf *z, wl_rng *r);
void mars_zipf_free(mars_zipf *z);

/* The vocabulary word of a rank: lower-case letters derived from the rank, 2..4 of them at
 * the top ranks growing to about 8 at rank 1000 (at most 12; distinct ranks may spell the same
 * word, which only merges their counts). buf: 16 bytes. Returns its length. */
int mars_word(int rank, char *buf);

/* A growing text buffer. */
typedef struct mars_text {
    char *s;
    long len, cap;
} mars_text;
int mars_text_add(mars_text *t, const char *s, long n);
int mars_text_printf(mars_text *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* English-like text: lines of 4..16 words drawn from a Zipf(1.0) vocabulary of vocab ranks
 * (mars_word spellings), separated by spaces (a comma after one word in eight), the first
 * word capitalised, each line ending in ".\n". */
int mars_zipf_text(uint64_t seed, int lines, int vocab, mars_text *t);

/* A web server log: lines "<url>\t<ip>\t<cookie>\n" with the page drawn from Zipf(1.0) over
 * pages ranks and the visitor from Zipf(0.8) over visitors (ip 10.x.y.z encodes it; the cookie,
 * 0..999, is the visitor's, so a visitor's repeated view of a page is a duplicate entry). Mars'
 * generator draws pages uniformly from 1024; real page popularity is Zipf-like. page[] and
 * visitor[] (optional) receive each line's draws. */
int mars_url(int page, char *buf); /* the page's URL (buf: 64 bytes); returns its length */
int mars_web_log(uint64_t seed, int lines, int pages, int visitors, mars_text *t, int32_t *page, int32_t *visitor);

/* Lines of text as a key/value set: one record per line (key = the line's bytes without the
 * newline, in the shared text buffer; no value). Takes ownership of text. */
int mars_lines_kv(mars_text *text, mars_host_kv *h);

/* Compares the verification listings line by line: reports the first mismatches through
 * wl_fail; returns the number of differing lines. */
long mars_compare_text(wl_ctx *c, const char *what, const char *got, const char *want);

/* One line per record: the key (bytes, or one int when int_keys) and the value's ints. */
int mars_list_kv(const mars_host_kv *h, int int_keys, mars_text *t);

/* The device's string hash (mars_device.cuh), and the order of hashed keys: hash, then bytes. */
int32_t mars_hash(const char *s, int n);
int mars_hashed_cmp(int32_t ha, const char *a, int na, int32_t hb, const char *b, int nb);

/* Byte-string order as the device's mars_strcmp. */
int mars_bytes_cmp(const char *a, int na, const char *b, int nb);

/* Downloads a grouped job's sorted set and its group starts (after wl_corrupt on main when
 * given), checking that the groups are non-empty and in order. *starts: malloc'ed. */
int mars_download_groups(wl_ctx *c, const mars_job *j, gtlm_devptr main, mars_host_kv *h, int32_t **starts);

/* Downloads a set (after wl_corrupt on main, the output to corrupt, when given), lists it
 * with mars_list_kv and compares the listing with want. Returns WL_OK, WL_WRONG or WL_ERROR. */
int mars_check_kv(wl_ctx *c, const mars_kv *kv, int int_keys, gtlm_devptr main, const char *what,
                  const mars_text *want);

/* Downloads a grouped job's sorted set and its group starts (after wl_corrupt on main when
 * given), checking that the groups are non-empty and in order. *starts: malloc'ed. */
int mars_download_groups(wl_ctx *c, const mars_job *j, gtlm_devptr main, mars_host_kv *h, int32_t **starts);

/* Downloads a set (after wl_corrupt on main, the output to corrupt, when given), lists it
 * with mars_list_kv and compares the listing with want. Returns WL_OK, WL_WRONG or WL_ERROR. */
int mars_check_kv(wl_ctx *c, const mars_kv *kv, int int_keys, gtlm_devptr main, const char *what,
                  const mars_text *want);

#endif
