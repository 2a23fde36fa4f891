/* Idle-period histogram of power blocks (idle_hist.h). */
#include "idle_hist.h"

#include <stdlib.h>

const uint64_t idle_hist_upper[IDLE_BINS] = {2, 9, 31, 99, 999, 9999, UINT64_MAX};
const char *const idle_hist_bin_name[IDLE_BINS] = {"le2", "le9", "le31", "le99", "le999", "le9999", "gt9999"};

int idle_hist_init(idle_hist *h, uint32_t n)
{
    *h = (idle_hist){0};
    h->n = n;
    h->next = calloc((size_t)n + 1, sizeof *h->next);
    return h->next ? 0 : -1;
}

void idle_hist_free(idle_hist *h)
{
    free(h->next);
    h->next = NULL;
}

void idle_hist_begin(idle_hist *h, uint64_t now)
{
    for (uint32_t b = 0; b < h->n; b++) h->next[b] = now;
    h->begin = now;
}

static void period(idle_hist *h, uint64_t len)
{
    if (!len) return;
    int k = 0;
    while (len > idle_hist_upper[k]) k++;
    h->periods[k]++;
    h->cycles[k] += len;
    h->idle_cycles += len;
}

void idle_hist_access(idle_hist *h, uint32_t block, uint64_t now)
{
    if (!h->next || block >= h->n || now < h->next[block]) return; /* a second access this cycle */
    period(h, now - h->next[block]);
    h->next[block] = now + 1;
}

void idle_hist_close(idle_hist *h, uint64_t now)
{
    if (!h->next || now < h->begin) return;
    for (uint32_t b = 0; b < h->n; b++)
        if (now > h->next[b]) {
            period(h, now - h->next[b]);
            h->next[b] = now;
        }
    h->block_cycles += (uint64_t)h->n * (now - h->begin);
    h->begin = now;
}
