/* Misuse of every C API function from a C program: NULL handles and out-parameters, values out
 * of range, calls in the wrong state, calls after a failed launch and from inside a callback.
 * Each must return its documented code (never crash) and leave the simulator usable. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <gtlm/gtlm.h>

static int failures;

#define EXPECT_RC(call, want)                                                                      \
    do {                                                                                           \
        int rc_ = (call);                                                                          \
        if (rc_ != (want)) {                                                                       \
            fprintf(stderr, "c_misuse: line %d: %s gave %s, expected %s (%s)\n", __LINE__, #call,  \
                    gtlm_status_name(rc_), gtlm_status_name(want), gtlm_last_error());             \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "c_misuse: line %d: %s\n", __LINE__, #cond);                           \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

static const char *ptx = ".version 7.5\n.target sm_75\n.address_size 64\n"
                         ".global .u32 counter;\n"
                         ".visible .entry put(.param .u64 p)\n{\n.reg .b64 %rd<4>;\n.reg .b32 %r<2>;\n"
                         "ld.param.u64 %rd1, [p];\nmov.u32 %r1, %tid.x;\nmul.wide.u32 %rd2, %r1, 4;\n"
                         "add.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r1;\nret;\n}\n";

static gtlm_sim *create(const char *config, const char *mode)
{
    gtlm_sim_options o;
    gtlm_sim_options_init(&o, GTLM_SIM_OPTIONS_VERSION);
    const char *files[1];
    const char *ov[2];
    files[0] = config;
    ov[0] = "-gtlm_mode";
    ov[1] = mode;
    o.config_files = files;
    o.n_config_files = 1;
    o.overrides = ov;
    o.n_overrides = 2;
    gtlm_sim *sim = NULL;
    EXPECT_RC(gtlm_sim_create(&sim, &o), GTLM_OK);
    return sim;
}

struct cb_state {
    gtlm_sim *sim;
    int calls, destroy_refused, launch_rc;
};

static void destroy_from_callback(const gtlm_mem_event *e, void *payload)
{
    struct cb_state *s = payload;
    (void)e;
    if (s->calls++) return;
    gtlm_sim_destroy(s->sim);
    s->destroy_refused = strstr(gtlm_last_error(), "gtlm_sim_destroy") != NULL;
    unsigned g[3] = {1, 1, 1}, b[3] = {32, 1, 1};
    s->launch_rc = gtlm_launch(s->sim, NULL, "put", g, b, 0, NULL, NULL, 0);
}

static void null_handles(void)
{
    double d;
    size_t n;
    char buf[16];
    gtlm_option_info info;
    gtlm_load_pc_stat lp;
    gtlm_devptr p;
    gtlm_module *m;
    gtlm_kernel_resources res;
    unsigned g[3] = {1, 1, 1};
    EXPECT_RC(gtlm_sim_options_init(NULL, GTLM_SIM_OPTIONS_VERSION), GTLM_EINVAL);
    EXPECT_RC(gtlm_sim_create(NULL, NULL), GTLM_EINVAL);
    gtlm_sim_destroy(NULL);
    CHECK(strcmp(gtlm_sim_warnings(NULL), "") == 0);
    CHECK(strcmp(gtlm_sim_describe(NULL), "") == 0);
    EXPECT_RC(gtlm_option_count(NULL, &n), GTLM_EINVAL);
    EXPECT_RC(gtlm_option_info_get(NULL, 0, &info), GTLM_EINVAL);
    EXPECT_RC(gtlm_option_value(NULL, "-gpgpu_n_mem", buf, sizeof buf), GTLM_EINVAL);
    EXPECT_RC(gtlm_stat_get(NULL, "gpu.cycles", &d), GTLM_EINVAL);
    EXPECT_RC(gtlm_stat_get_kernel(NULL, "gpu.cycles", &d), GTLM_EINVAL);
    CHECK(gtlm_load_pc_count(NULL) == 0);
    EXPECT_RC(gtlm_load_pc_get(NULL, 0, &lp), GTLM_EINVAL);
    EXPECT_RC(gtlm_stats_write(NULL, "-", GTLM_STATS_TEXT), GTLM_EINVAL);
    EXPECT_RC(gtlm_malloc(NULL, 4, &p), GTLM_EINVAL);
    EXPECT_RC(gtlm_free(NULL, 0), GTLM_EINVAL);
    EXPECT_RC(gtlm_memcpy_htod(NULL, 256, buf, 4), GTLM_EINVAL);
    EXPECT_RC(gtlm_memcpy_dtoh(NULL, buf, 256, 4), GTLM_EINVAL);
    EXPECT_RC(gtlm_memset(NULL, 256, 0, 4), GTLM_EINVAL);
    EXPECT_RC(gtlm_module_load_ptx(NULL, ptx, "x", &m), GTLM_EINVAL);
    EXPECT_RC(gtlm_module_load_ptx_file(NULL, "x.ptx", &m), GTLM_EINVAL);
    EXPECT_RC(gtlm_memcpy_to_symbol(NULL, NULL, "counter", buf, 4, 0), GTLM_EINVAL);
    EXPECT_RC(gtlm_symbol_address(NULL, NULL, "counter", &p), GTLM_EINVAL);
    EXPECT_RC(gtlm_module_set_ptxas_info(NULL, NULL, ""), GTLM_EINVAL);
    EXPECT_RC(gtlm_kernel_resources_get(NULL, NULL, "put", &res), GTLM_EINVAL);
    EXPECT_RC(gtlm_launch(NULL, NULL, "put", g, g, 0, NULL, NULL, 0), GTLM_EINVAL);
    EXPECT_RC(gtlm_run_trace(NULL, ".", NULL, 0), GTLM_EINVAL);
    EXPECT_RC(gtlm_set_mem_callback(NULL, NULL, NULL), GTLM_EINVAL);
    EXPECT_RC(gtlm_module_describe_instr(NULL, NULL, "put", 0, buf, sizeof buf), GTLM_EINVAL);
    EXPECT_RC(gtlm_synchronize(NULL), GTLM_EINVAL);
    CHECK(strcmp(gtlm_status_name(GTLM_EBUSY), "GTLM_EBUSY") == 0);
    CHECK(strcmp(gtlm_status_name(12345), "GTLM_UNKNOWN_STATUS") == 0);
}

/* NULL out-parameters and arguments, values out of range, the wrong state, on a live simulator. */
static void bad_arguments(gtlm_sim *sim, gtlm_sim *other)
{
    double d;
    size_t n;
    char buf[64];
    gtlm_option_info info;
    gtlm_load_pc_stat lp;
    gtlm_devptr p = 0;
    gtlm_module *m = NULL, *om = NULL;
    gtlm_kernel_resources res;
    unsigned g[3] = {1, 1, 1}, b[3] = {32, 1, 1}, huge[3] = {UINT_MAX, UINT_MAX, UINT_MAX};
    EXPECT_RC(gtlm_option_count(sim, NULL), GTLM_EINVAL);
    EXPECT_RC(gtlm_option_count(sim, &n), GTLM_OK);
    EXPECT_RC(gtlm_option_info_get(sim, n, &info), GTLM_ENOTFOUND);
    EXPECT_RC(gtlm_option_info_get(sim, 0, NULL), GTLM_EINVAL);
    EXPECT_RC(gtlm_option_value(sim, "-no_such_option", buf, sizeof buf), GTLM_ENOTFOUND);
    EXPECT_RC(gtlm_option_value(sim, "-gpgpu_n_mem", buf, 0), GTLM_EINVAL);
    EXPECT_RC(gtlm_stat_get(sim, "gpu.nothing", &d), GTLM_ENOTFOUND);
    EXPECT_RC(gtlm_stat_get(sim, NULL, &d), GTLM_EINVAL);
    EXPECT_RC(gtlm_stat_get_kernel(sim, "gpu.cycles", NULL), GTLM_EINVAL);
    EXPECT_RC(gtlm_load_pc_get(sim, 0, &lp), GTLM_ENOTFOUND);
    EXPECT_RC(gtlm_stats_write(sim, "-", 0), GTLM_EINVAL);
    EXPECT_RC(gtlm_stats_write(sim, "/nonexistent/dir/stats.txt", GTLM_STATS_TEXT), GTLM_EIO);
    EXPECT_RC(gtlm_malloc(sim, 4, NULL), GTLM_EINVAL);
    EXPECT_RC(gtlm_malloc(sim, SIZE_MAX, &p), GTLM_ENOMEM);
    EXPECT_RC(gtlm_malloc(sim, 256, &p), GTLM_OK);
    EXPECT_RC(gtlm_free(sim, p + 4), GTLM_EINVAL);
    EXPECT_RC(gtlm_memcpy_htod(sim, p, NULL, 4), GTLM_EINVAL);
    EXPECT_RC(gtlm_memcpy_htod(sim, p + 250, buf, 8), GTLM_EINVAL);
    EXPECT_RC(gtlm_memcpy_dtoh(sim, buf, p, SIZE_MAX), GTLM_EINVAL);
    EXPECT_RC(gtlm_memset(sim, p + 1, 0, 256), GTLM_EINVAL);
    EXPECT_RC(gtlm_module_load_ptx(sim, NULL, "x", &m), GTLM_EINVAL);
    EXPECT_RC(gtlm_module_load_ptx(sim, "not ptx at all", "bad.ptx", &m), GTLM_ECONFIG);
    CHECK(m == NULL);
    EXPECT_RC(gtlm_module_load_ptx_file(sim, NULL, &m), GTLM_EINVAL);
    EXPECT_RC(gtlm_module_load_ptx_file(sim, "/nonexistent.ptx", &m), GTLM_EIO);
    EXPECT_RC(gtlm_module_load_ptx(sim, ptx, "c.ptx", &m), GTLM_OK);
    EXPECT_RC(gtlm_module_load_ptx(other, ptx, "o.ptx", &om), GTLM_OK);
    EXPECT_RC(gtlm_memcpy_to_symbol(sim, m, "nothing", buf, 4, 0), GTLM_ENOTFOUND);
    EXPECT_RC(gtlm_memcpy_to_symbol(sim, m, "counter", buf, 4, SIZE_MAX), GTLM_EINVAL);
    EXPECT_RC(gtlm_memcpy_to_symbol(sim, om, "counter", buf, 4, 0), GTLM_EINVAL); /* another sim's module */
    EXPECT_RC(gtlm_symbol_address(sim, m, "counter", NULL), GTLM_EINVAL);
    EXPECT_RC(gtlm_module_set_ptxas_info(sim, m, NULL), GTLM_EINVAL);
    EXPECT_RC(gtlm_module_set_ptxas_info(sim, m, "garbage"), GTLM_ECONFIG);
    EXPECT_RC(gtlm_kernel_resources_get(sim, m, "nope", &res), GTLM_ENOTFOUND);
    EXPECT_RC(gtlm_kernel_resources_get(sim, m, "put", NULL), GTLM_EINVAL);
    EXPECT_RC(gtlm_launch(sim, m, NULL, g, b, 0, NULL, NULL, 0), GTLM_EINVAL);
    EXPECT_RC(gtlm_launch(sim, m, "put", NULL, b, 0, NULL, NULL, 0), GTLM_EINVAL);
    EXPECT_RC(gtlm_launch(sim, m, "put", g, b, 0, NULL, NULL, 1), GTLM_EINVAL);
    EXPECT_RC(gtlm_launch(sim, m, "nope", g, b, 0, NULL, NULL, 0), GTLM_ENOTFOUND);
    EXPECT_RC(gtlm_launch(sim, om, "put", g, b, 0, NULL, NULL, 0), GTLM_EINVAL);
    {
        const void *args[1];
        size_t sizes[1] = {8};
        args[0] = &p;
        EXPECT_RC(gtlm_launch(sim, m, "put", huge, b, 0, args, sizes, 1), GTLM_EINVAL);
        EXPECT_RC(gtlm_launch(sim, m, "put", g, huge, 0, args, sizes, 1), GTLM_EINVAL);
        EXPECT_RC(gtlm_launch(sim, m, "put", g, b, SIZE_MAX, args, sizes, 1), GTLM_EINVAL);
        sizes[0] = 4;
        EXPECT_RC(gtlm_launch(sim, m, "put", g, b, 0, args, sizes, 1), GTLM_EINVAL);
    }
    EXPECT_RC(gtlm_run_trace(sim, NULL, NULL, 0), GTLM_EINVAL);
    EXPECT_RC(gtlm_run_trace(sim, ".", buf, 0), GTLM_EINVAL);
    EXPECT_RC(gtlm_module_describe_instr(sim, m, "put", 1000, buf, sizeof buf), GTLM_ENOTFOUND);
    EXPECT_RC(gtlm_module_describe_instr(sim, m, NULL, 0, buf, sizeof buf), GTLM_EINVAL);
    EXPECT_RC(gtlm_free(sim, p), GTLM_OK);
    EXPECT_RC(gtlm_free(sim, p), GTLM_EINVAL); /* twice */
    EXPECT_RC(gtlm_synchronize(sim), GTLM_OK);
}

/* After a failed launch and from inside a callback. */
static void after_failure_and_callback(gtlm_sim *sim)
{
    gtlm_module *m = NULL;
    gtlm_devptr p = 0, bogus = 16;
    unsigned g[3] = {2, 1, 1}, b[3] = {64, 1, 1};
    const void *args[1];
    size_t sizes[1] = {8};
    uint32_t out[64];
    struct cb_state s;
    EXPECT_RC(gtlm_module_load_ptx(sim, ptx, "f.ptx", &m), GTLM_OK);
    args[0] = &bogus;
    EXPECT_RC(gtlm_launch(sim, m, "put", g, b, 0, args, sizes, 1), GTLM_ESIM);
    CHECK(strstr(gtlm_last_error(), "put") != NULL);
    EXPECT_RC(gtlm_synchronize(sim), GTLM_ESIM);
    EXPECT_RC(gtlm_synchronize(sim), GTLM_OK);
    EXPECT_RC(gtlm_malloc(sim, sizeof out, &p), GTLM_OK);
    args[0] = &p;
    g[0] = 1;
    EXPECT_RC(gtlm_launch(sim, m, "put", g, b, 0, args, sizes, 1), GTLM_OK);
    EXPECT_RC(gtlm_memcpy_dtoh(sim, out, p, sizeof out), GTLM_OK);
    CHECK(out[0] == 0 && out[63] == 63);

    memset(&s, 0, sizeof s);
    s.sim = sim;
    EXPECT_RC(gtlm_set_mem_callback(sim, destroy_from_callback, &s), GTLM_OK);
    EXPECT_RC(gtlm_launch(sim, m, "put", g, b, 0, args, sizes, 1), GTLM_OK);
    CHECK(s.calls > 0);
    CHECK(s.destroy_refused);
    CHECK(s.launch_rc == GTLM_EBUSY);
    EXPECT_RC(gtlm_set_mem_callback(sim, NULL, NULL), GTLM_OK);
    EXPECT_RC(gtlm_launch(sim, m, "put", g, b, 0, args, sizes, 1), GTLM_OK);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: c_misuse CONFIG\n");
        return 2;
    }
    null_handles();
    const char *modes[2] = {"timing", "functional"};
    for (int i = 0; i < 2; i++) {
        gtlm_sim *sim = create(argv[1], modes[i]);
        gtlm_sim *other = create(argv[1], modes[i]);
        if (!sim || !other) return 1;
        bad_arguments(sim, other);
        after_failure_and_callback(sim);
        gtlm_sim_destroy(other);
        gtlm_sim_destroy(sim);
    }
    if (failures) fprintf(stderr, "c_misuse: %d failures\n", failures);
    return failures ? 1 : 0;
}
