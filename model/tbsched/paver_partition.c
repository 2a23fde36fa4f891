#include "paver_partition.h"

#include <metis.h>
#include <stdlib.h>
#include <string.h>

int paver_metis_partition(const lg_graph *g, const uint32_t *vertices, uint32_t n, uint32_t nparts, int seed,
                          uint32_t *part)
{
    if (nparts <= 1 || n <= 1) { /* METIS rejects one part; nothing to cut */
        memset(part, 0, (size_t)n * sizeof *part);
        return 0;
    }
    lg_graph sub;
    if (lg_graph_subgraph(g, vertices, n, &sub)) return -1;
    uint64_t m = sub.row[n];
    idx_t *xadj = malloc(((size_t)n + 1) * sizeof *xadj), *adj = malloc((m ? m : 1) * sizeof *adj);
    idx_t *wgt = malloc((m ? m : 1) * sizeof *wgt), *out = malloc((size_t)n * sizeof *out);
    int rc = -1;
    if (xadj && adj && wgt && out) {
        for (uint32_t k = 0; k <= n; k++) xadj[k] = (idx_t)sub.row[k];
        for (uint64_t x = 0; x < m; x++) {
            adj[x] = (idx_t)sub.col[x];
            wgt[x] = sub.val[x] > (uint64_t)IDX_MAX ? IDX_MAX : (idx_t)sub.val[x];
        }
        idx_t nv = (idx_t)n, ncon = 1, np = (idx_t)nparts, cut = 0;
        idx_t options[METIS_NOPTIONS];
        METIS_SetDefaultOptions(options);
        options[METIS_OPTION_SEED] = seed;
        options[METIS_OPTION_NUMBERING] = 0;
        int r = nparts == 2 ? METIS_PartGraphRecursive(&nv, &ncon, xadj, adj, NULL, NULL, wgt, &np, NULL, NULL,
                                                       options, &cut, out)
                            : METIS_PartGraphKway(&nv, &ncon, xadj, adj, NULL, NULL, wgt, &np, NULL, NULL, options,
                                                  &cut, out);
        if (r == METIS_OK) {
            for (uint32_t k = 0; k < n; k++) part[k] = (uint32_t)out[k];
            rc = 0;
        }
    }
    free(xadj), free(adj), free(wgt), free(out);
    lg_graph_free(&sub);
    return rc;
}

static int alloc_groups(paver_groups *out, uint32_t n)
{
    memset(out, 0, sizeof *out);
    out->tbs = malloc((n ? n : 1) * sizeof *out->tbs);
    out->start = malloc(((size_t)n + 1) * sizeof *out->start);
    if (!out->tbs || !out->start) {
        paver_groups_free(out);
        return -1;
    }
    out->n_tbs = n;
    out->start[0] = 0;
    return 0;
}

/* Appends vertices[0..n) as the next group, reordered by Prim's MST when mst is set. */
static int append_group(paver_groups *out, const lg_graph *g, const uint32_t *vertices, uint32_t n, int mst)
{
    if (n == 0) return 0;
    uint64_t at = out->start[out->n_groups];
    if (mst) {
        lg_graph sub;
        uint32_t *order = malloc(n * sizeof *order);
        if (!order || lg_graph_subgraph(g, vertices, n, &sub)) {
            free(order);
            return -1;
        }
        int rc = paver_mst_order(&sub, order);
        for (uint32_t k = 0; k < n; k++) out->tbs[at + k] = vertices[order[k]];
        lg_graph_free(&sub);
        free(order);
        if (rc) return -1;
    } else {
        memcpy(out->tbs + at, vertices, (size_t)n * sizeof *vertices);
    }
    out->start[++out->n_groups] = at + n;
    return 0;
}

int paver_kway_ts_groups(const lg_graph *g, uint32_t n_sm, int seed, paver_groups *out)
{
    uint32_t n = g->n;
    uint32_t *all = malloc((n ? n : 1) * sizeof *all), *part = malloc((n ? n : 1) * sizeof *part);
    uint32_t *members = malloc((n ? n : 1) * sizeof *members);
    int rc = -1;
    if (!all || !part || !members || alloc_groups(out, n)) goto done;
    for (uint32_t v = 0; v < n; v++) all[v] = v;
    if (paver_metis_partition(g, all, n, n_sm, seed, part)) goto done;
    rc = 0;
    for (uint32_t p = 0; p < n_sm && !rc; p++) {
        uint32_t m = 0;
        for (uint32_t v = 0; v < n; v++)
            if (part[v] == p) members[m++] = v;
        rc = append_group(out, g, members, m, 1);
    }
done:
    if (rc && out->tbs) paver_groups_free(out);
    free(all), free(part), free(members);
    return rc;
}

int paver_rb_ts_groups(const lg_graph *g, uint32_t max_tb, int seed, paver_groups *out)
{
    uint32_t n = g->n;
    /* The queue Q holds groups as ranges of `pool`; a bisection rewrites its range in place. */
    uint32_t *pool = malloc((n ? n : 1) * sizeof *pool), *part = malloc((n ? n : 1) * sizeof *part);
    uint32_t *tmp = malloc((n ? n : 1) * sizeof *tmp);
    uint64_t *qlo = malloc(((size_t)n + 1) * sizeof *qlo), *qhi = malloc(((size_t)n + 1) * sizeof *qhi);
    size_t qh = 0, qt = 0;
    int rc = -1;
    if (!pool || !part || !tmp || !qlo || !qhi || alloc_groups(out, n)) goto done;
    for (uint32_t v = 0; v < n; v++) pool[v] = v;
    rc = 0;
    if (n < max_tb || n <= 1) rc = append_group(out, g, pool, n, 0);
    else qlo[qt] = 0, qhi[qt++] = n;
    while (qh < qt && !rc) {
        uint64_t lo = qlo[qh], hi = qhi[qh++];
        uint32_t size = (uint32_t)(hi - lo), a = 0, b = 0;
        if (paver_metis_partition(g, pool + lo, size, 2, seed, part)) {
            rc = -1;
            break;
        }
        for (uint32_t k = 0; k < size; k++) /* side 0 first, each in ascending TB order */
            if (part[k] == 0) tmp[a++] = pool[lo + k];
        for (uint32_t k = 0; k < size; k++)
            if (part[k] != 0) tmp[a + b++] = pool[lo + k];
        if (a == 0 || b == 0) a = size / 2, b = size - a; /* METIS left a side empty: halve */
        memcpy(pool + lo, tmp, (size_t)size * sizeof *tmp);
        uint64_t side[2][2] = {{lo, lo + a}, {lo + a, hi}};
        for (int s = 0; s < 2 && !rc; s++) {
            uint32_t sz = (uint32_t)(side[s][1] - side[s][0]);
            if (sz < max_tb || sz <= 1) rc = append_group(out, g, pool + side[s][0], sz, 0);
            else qlo[qt] = side[s][0], qhi[qt++] = side[s][1];
        }
    }
done:
    if (rc && out->tbs) paver_groups_free(out);
    free(pool), free(part), free(tmp), free(qlo), free(qhi);
    return rc;
}
