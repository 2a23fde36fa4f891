// PVC (Mars Page View Count): distinct visits per page of a web log <url, ip, cookie>, as two
// MapReduce jobs (the Mars paper: the first removes duplicate entries, the second counts page
// views). Written for gtlm from the Mars paper's description and its PageViewCount's
// documented behaviour; runtime in ../common.
//
// The log stays in one device buffer, its lines NUL-terminated by the host. A key is a small
// record pointing into it, {log, entry offset, hash}; the hash is computed by the map and
// written into the key in place before the key is emitted, as Mars does. Keys order by hash,
// then by the bytes they point to, up to a NUL.
//   job 1 (map, sort, group, reduce), input value {phase 0, entry size}:
//     map:    thread per entry; hashes the whole entry, emits (key, {0, size}).
//     reduce: thread per distinct entry; emits its first (key, {1, size}).
//   job 2 (map, sort, group), input = job 1's output:
//     map:    thread per distinct entry; walks to the first tab and writes a NUL there (the
//             url ends), walks on to the second tab and writes a NUL (the ip ends), hashes the
//             url and emits (key, ip offset). A url's group size is its count of distinct
//             visitors.
// The count passes only count (one pair per record), as in Mars.
#include "../common/mars_device.cuh"

struct pvc_key {
    char *log;
    int entry; // offset of the entry (job 2: of its url) in the log
    int hash;
};

template <class E> __device__ void mars_map(const char *keys, const char *vals, int4 rec, int stage, E &e)
{
    pvc_key *k = (pvc_key *)(keys + rec.x);
    const int *v = (const int *)(vals + rec.z);
    if (E::counting) {
        e.emit(0, sizeof(pvc_key), stage == 0 ? 2 : 1, 0, 0);
        return;
    }
    char *entry = k->log + k->entry;
    if (stage == 0) {
        k->hash = mars_hash(entry, v[1]);
        e.emit((const char *)k, sizeof(pvc_key), 2, v[0], v[1]);
        return;
    }
    char *p = entry;
    int url_size = 1;
    for (; *p != '\t'; p++) url_size++;
    *p = '\0';
    int ip = k->entry + url_size;
    for (; *p != '\t'; p++) {
    }
    *p = '\0';
    k->hash = mars_hash(entry, url_size);
    e.emit((const char *)k, sizeof(pvc_key), 1, ip, 0);
}

template <class E>
__device__ void mars_reduce(const char *keys, const char *vals, const int4 *index, int first, int, int, E &e)
{
    if (E::counting) {
        e.emit(0, sizeof(pvc_key), 2, 0, 0);
        return;
    }
    int4 r = index[first];
    e.emit(keys + r.x, sizeof(pvc_key), 2, 1, mars_int_at(vals, r.z + 4));
}

__device__ int mars_compare(const char *keys, const char *, int4 a, int4 b, int)
{
    const pvc_key *x = (const pvc_key *)(keys + a.x), *y = (const pvc_key *)(keys + b.x);
    if (x->hash != y->hash) return x->hash > y->hash ? 1 : -1;
    const char *p = x->log + x->entry, *q = y->log + y->entry;
    for (; *p == *q && *p != '\0'; p++, q++) {
    }
    return *p > *q ? 1 : *p < *q ? -1 : 0;
}

__device__ bool mars_same_key(const char *keys, int4 a, int4 b, int) { return mars_compare(keys, 0, a, b, 0) == 0; }

#include "../common/mars_kernels.cuh"
