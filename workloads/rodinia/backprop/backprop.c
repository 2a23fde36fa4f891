/* Backprop driver (Rodinia): one training step of an in -> 16 -> 1 network as the original's
 * bpnn_train_cuda: random inputs and weights in [0,1), target 0.1; GPU forward pass of the
 * input layer (partial sums per CTA), host hidden/output layers and error terms, weights
 * re-uploaded, GPU weight update. The partial sums and the final input weights are compared
 * with a CPU version of the same steps. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "workload.h"

extern const char workload_rodinia_backprop_ptx[], workload_rodinia_backprop_ptxas[];

#define HID 16
#define OUT 1
#define ETA 0.3
#define MOMENTUM 0.3

static float squash(float x) { return (float)(1.0 / (1.0 + exp(-x))); }

/* The host part of a training step, from the input layer's partial sums to hidden_delta (as
 * the original, in float with the same summation order). Returns nothing; fills delta. */
static void host_layers(const float *partial, int blocks, const float *w_in, float (*w_hid)[OUT + 1],
                        float *delta)
{
    float hidden[HID + 1], out[OUT + 1], out_delta[OUT + 1];
    hidden[0] = 1.0f;
    for (int j = 1; j <= HID; j++) {
        float sum = 0;
        for (int k = 0; k < blocks; k++) sum += partial[k * HID + j - 1];
        sum += w_in[j];
        hidden[j] = squash(sum);
    }
    for (int j = 1; j <= OUT; j++) {
        float sum = 0;
        for (int k = 0; k <= HID; k++) sum += w_hid[k][j] * hidden[k];
        out[j] = squash(sum);
        out_delta[j] = out[j] * (1.0f - out[j]) * (0.1f - out[j]);
    }
    delta[0] = 0;
    for (int j = 1; j <= HID; j++) {
        float sum = 0;
        for (int k = 1; k <= OUT; k++) sum += out_delta[k] * w_hid[j][k];
        delta[j] = hidden[j] * (1.0f - hidden[j]) * sum;
    }
    /* (The original then updates the hidden->output weights on the host; they do not feed
     * back into this step, so that is left out.) */
}

static int run(wl_ctx *c)
{
    int in = (int)wl_param(c, "in");
    if (in % 16) return wl_fail(c, "in must be a multiple of 16 (got %d)", in);
    int blocks = in / 16;
    size_t nw = (size_t)(in + 1) * (HID + 1);
    float *x = malloc((size_t)(in + 1) * 4), *w = malloc(nw * 4), *got = malloc(nw * 4), *want = malloc(nw * 4);
    float *oldw = calloc(nw, 4), *part = malloc((size_t)blocks * HID * 4), *rpart = malloc((size_t)blocks * HID * 4);
    float w_hid[HID + 1][OUT + 1], delta[HID + 1], rdelta[HID + 1];
    int rc = (x && w && got && want && oldw && part && rpart) ? WL_OK : WL_ERROR;
    wl_rng r;
    wl_rng_seed(&r, 7);
    if (rc == WL_OK) {
        x[0] = 0;
        for (int i = 1; i <= in; i++) x[i] = (float)wl_rng_unit(&r);
        for (size_t i = 0; i < nw; i++) w[i] = (float)wl_rng_unit(&r);
        for (int k = 0; k <= HID; k++)
            for (int j = 0; j <= OUT; j++) w_hid[k][j] = (float)wl_rng_unit(&r);
    }
    gtlm_devptr d_x = 0, d_w = 0, d_part = 0, d_delta = 0, d_oldw = 0;
    int hid = HID;
    if (rc == WL_OK) rc = wl_upload(c, &d_x, x, (size_t)(in + 1) * 4);
    if (rc == WL_OK) rc = wl_upload(c, &d_w, w, nw * 4);
    if (rc == WL_OK) rc = wl_alloc(c, &d_part, (size_t)blocks * HID * 4);
    const void *a1[] = {&d_x, &d_w, &d_part, &in, &hid};
    const size_t s1[] = {8, 8, 8, 4, 4};
    if (rc == WL_OK) rc = wl_launch(c, "bp_layer_forward", 1, (unsigned)blocks, 1, 16, 16, 1, 0, a1, s1, 5);
    if (rc == WL_OK) rc = wl_download(c, part, d_part, (size_t)blocks * HID * 4);
    if (rc == WL_OK) {
        host_layers(part, blocks, w, w_hid, delta);
        rc = wl_upload(c, &d_delta, delta, sizeof delta);
    }
    if (rc == WL_OK) rc = wl_upload(c, &d_oldw, oldw, nw * 4);
    if (rc == WL_OK) rc = wl_check(c, gtlm_memcpy_htod(c->sim, d_w, w, nw * 4), "gtlm_memcpy_htod");
    const void *a2[] = {&d_delta, &hid, &d_x, &in, &d_w, &d_oldw};
    const size_t s2[] = {8, 4, 8, 4, 8, 8};
    if (rc == WL_OK) rc = wl_launch(c, "bp_adjust_weights", 1, (unsigned)blocks, 1, 16, 16, 1, 0, a2, s2, 6);
    if (rc == WL_OK) rc = wl_corrupt(c, d_w, 4);
    if (rc == WL_OK) rc = wl_download(c, got, d_w, nw * 4);
    if (rc == WL_OK) {
        /* CPU reference: the same products and the same tree order per CTA column. */
        for (int b = 0; b < blocks; b++)
            for (int j = 0; j < HID; j++) {
                float p[16];
                for (int t = 0; t < 16; t++) p[t] = w[(size_t)(16 * b + t + 1) * (HID + 1) + j + 1] * x[16 * b + t + 1];
                for (int span = 2; span <= 16; span *= 2)
                    for (int t = 0; t < 16; t += span) p[t] = p[t] + p[t + span / 2];
                rpart[b * HID + j] = p[0];
            }
        host_layers(rpart, blocks, w, w_hid, rdelta);
        memcpy(want, w, nw * 4);
        for (int i = 1; i <= in; i++)
            for (int j = 1; j <= HID; j++) {
                size_t k = (size_t)i * (HID + 1) + j;
                double step = ETA * rdelta[j] * x[i] + MOMENTUM * oldw[k];
                want[k] = (float)(want[k] + step);
            }
        for (int j = 1; j <= HID; j++) want[j] = (float)(want[j] + (ETA * rdelta[j] + MOMENTUM * oldw[j]));
        /* Partial sums: same float operations in the same order, exact up to an executor's
         * rounding; weights: one f64 update rounded to float (the device may fuse a multiply
         * and an add), so a few float ulps: 1e-4 %. */
        if (wl_compare_f32(c, "partial", part, rpart, (size_t)blocks * HID, 1e-4, 1e-30)) rc = WL_WRONG;
        if (wl_compare_f32(c, "w", got, want, nw, 1e-4, 1e-30)) rc = WL_WRONG;
    }
    gtlm_devptr all[] = {d_x, d_w, d_part, d_delta, d_oldw};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) gtlm_free(c->sim, all[i]);
    free(x);
    free(w);
    free(got);
    free(want);
    free(oldw);
    free(part);
    free(rpart);
    return rc;
}

/* The sizes the kernels handle; others would run and fail verification. */
static const char *supported_sizes(const long *p)
{
    return p[0] % 16 ? "in must be a multiple of 16" : NULL;
}

const wl_desc workload_rodinia_backprop = {
    .name = "Backprop",
    .suite = "rodinia",
    .description = "one training step of an in x 16 x 1 perceptron: GPU input-layer forward pass and weight update (in a multiple of 16)",
    .kernels = "bp_layer_forward, bp_adjust_weights",
    .ptx = workload_rodinia_backprop_ptx,
    .ptxas = workload_rodinia_backprop_ptxas,
    .params = {"in"},
    .tiny = {4096},
    .sim = {65536},
    .paper = {65536},
    .doc = {65536},
    .doc_source = "Morpheus (Accel-Sim app-collection input, spec Sec. 5 proposal): 65536 input units",
    .run = run,
    .check = supported_sizes,
};
