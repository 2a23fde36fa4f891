// SM (Mars String Match): finds the lines of a word-per-line text equal to a keyword. Written
// for gtlm from the Mars paper's description and its StringMatch's documented behaviour (map
// only); runtime in ../common.
//
// Input records: blocks of about 1 KB (Mars; a size parameter) of the text ending at a newline. key = {text pointer,
// keyword pointer}, value = {block offset, block size, keyword size with its NUL}.
//   map: thread per block (one record per task); walks the block line by line; a line as long
//        as the keyword is compared with it byte by byte; a match emits (line offset, line
//        size with its newline). Both passes walk and compare.
#include "../common/mars_device.cuh"

struct sm_key {
    const char *text, *keyword;
};

template <class E> __device__ void mars_map(const char *keys, const char *vals, int4 rec, int, E &e)
{
    const sm_key *k = (const sm_key *)(keys + rec.x);
    const int *v = (const int *)(vals + rec.z); // {offset, size, keyword size}
    int offset = v[0], end = v[0] + v[1], keyword_size = v[2];
    const char *text = k->text;
    while (offset < end) {
        int line = offset;
        while (text[offset] != '\n') offset++;
        int size = ++offset - line;
        if (size != keyword_size) continue;
        const char *s = text + line, *w = k->keyword;
        for (; *s == *w && *w != '\0'; s++, w++) {
        }
        if (*s == '\n' && *w == '\0') e.emit_i(line, 1, size, 0);
    }
}

template <class E> __device__ void mars_reduce(const char *, const char *, const int4 *, int, int, int, E &) {}

// Map only: the sort and group kernels are built but never launched.
__device__ int mars_compare(const char *keys, const char *, int4 a, int4 b, int)
{
    int x = mars_int_at(keys, a.x), y = mars_int_at(keys, b.x);
    return x < y ? -1 : x > y;
}

__device__ bool mars_same_key(const char *keys, int4 a, int4 b, int) { return mars_compare(keys, 0, a, b, 0) == 0; }

#include "../common/mars_kernels.cuh"
