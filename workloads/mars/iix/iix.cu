// IIX (Mars Inverted Index): for every link target in a set of HTML files, the files that link
// to it. Written for gtlm from the Mars paper's description and its InvertedIndex's documented
// behaviour (map and group, no reduce); runtime in ../common.
//
// Each file is its own device buffer. Input records: blocks of about 1 KB of a file ending at
// a newline the host replaced by a NUL; key = {file pointer, url offset, url hash}, value =
// {block offset, block size, file id}.
//   map:   thread per block (one record per task); a byte-wise state machine finds `<a`,
//          `href`, `=` and the opening quote (spaces allowed between), then walks the url to
//          its closing quote; the write pass writes a NUL there, puts the url's offset and hash
//          into the input key in place and emits (key, file id), as Mars does.
//   sort:  by url hash, then url bytes up to the NUL; group: one group per url, whose values
//          are the files linking to it.
#include "../common/mars_device.cuh"

struct iix_key {
    char *file;
    int url;  // offset of the url in the file
    int hash; // of its bytes
};

enum { IIX_START, IIX_TAG, IIX_ATAG, IIX_HREF, IIX_LINK };

template <class E> __device__ void mars_map(const char *keys, const char *vals, int4 rec, int, E &e)
{
    iix_key *k = (iix_key *)(keys + rec.x);
    const int *v = (const int *)(vals + rec.z); // {block offset, block size, file id}
    char *buf = k->file + v[0];
    int size = v[1], state = IIX_START;
    for (int j = 0; j < size; j++) {
        char ch = buf[j];
        switch (state) {
        case IIX_START:
            if (ch == '<') state = IIX_TAG;
            break;
        case IIX_TAG:
            state = ch == 'a' ? IIX_ATAG : ch == ' ' ? IIX_TAG : IIX_START;
            break;
        case IIX_ATAG:
            if (ch == 'h') {
                bool href = buf[j + 1] == 'r' && buf[j + 2] == 'e' && buf[j + 3] == 'f';
                state = href ? IIX_HREF : IIX_START;
                if (href) j += 3;
            } else {
                state = ch == ' ' ? IIX_ATAG : IIX_START;
            }
            break;
        case IIX_HREF:
            state = ch == ' ' || ch == '=' ? IIX_HREF : ch == '"' ? IIX_LINK : IIX_START;
            break;
        default: { // IIX_LINK: the url starts here
            int end = j;
            while (buf[end] != '"') end++;
            if (E::counting) {
                e.emit(0, sizeof(iix_key), 1, 0, 0);
            } else {
                buf[end] = '\0';
                k->url = v[0] + j;
                k->hash = mars_hash(buf + j, end - j);
                e.emit((const char *)k, sizeof(iix_key), 1, v[2], 0);
            }
            j = end;
            state = IIX_START;
        }
        }
    }
}

template <class E> __device__ void mars_reduce(const char *, const char *, const int4 *, int, int, int, E &) {}

__device__ int mars_compare(const char *keys, const char *, int4 a, int4 b, int)
{
    const iix_key *x = (const iix_key *)(keys + a.x), *y = (const iix_key *)(keys + b.x);
    if (x->hash != y->hash) return x->hash > y->hash ? 1 : -1;
    const char *p = x->file + x->url, *q = y->file + y->url;
    for (; *p == *q && *p != '\0'; p++, q++) {
    }
    return *p > *q ? 1 : *p < *q ? -1 : 0;
}

__device__ bool mars_same_key(const char *keys, int4 a, int4 b, int) { return mars_compare(keys, 0, a, b, 0) == 0; }

#include "../common/mars_kernels.cuh"
