// WC (Mars Word Count): counts the words of six letters or more in an upper-case text. Written
// for gtlm from the Mars paper's description and its WordCount's documented behaviour (map and
// group; the count of a word is its group's size, no reduce); runtime in ../common.
//
// Input records: chunks of about `chunk` bytes of the text (2 KB in Mars), each ending at a
// non-letter the host replaced by a NUL (key = the chunk's bytes).
//   map:   thread per chunk (one record per task); walks the chunk byte by byte; at the end of
//          each run of letters writes a NUL into the text in place (as Mars), and emits the
//          word with its NUL as the key and its size as the value when it has six letters or
//          more (both passes walk and write).
//   sort:  by word bytes; group: runs of equal words (a word's count = its group's size).
// The per-thread walks over 2 KB chunks (a warp's lanes 2 KB apart), the byte-wise key copies
// and the string compares of the sort are the byte-granular, scattered accesses that make Mars
// cache-sensitive.
#include "../common/mars_device.cuh"

__device__ inline bool wc_letter(char ch) { return ch >= 'A' && ch <= 'Z'; }

template <class E> __device__ void mars_map(const char *keys, const char *, int4 rec, int, E &e)
{
    char *text = (char *)keys + rec.x;
    int at = 0;
    while (at < rec.y) {
        int start = at;
        while (wc_letter(text[at])) at++;
        text[at] = '\0';
        int size = ++at - start; // with the NUL
        if (size > 6) e.emit(text + start, size, 1, size, 0);
        while (at < rec.y && !wc_letter(text[at])) at++;
    }
}

template <class E> __device__ void mars_reduce(const char *, const char *, const int4 *, int, int, int, E &) {}

__device__ int mars_compare(const char *keys, const char *, int4 a, int4 b, int)
{
    return mars_strcmp(keys + a.x, a.y, keys + b.x, b.y);
}

__device__ bool mars_same_key(const char *keys, int4 a, int4 b, int) { return mars_compare(keys, 0, a, b, 0) == 0; }

#include "../common/mars_kernels.cuh"
