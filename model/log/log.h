/*
 * Logging for every block: one branch when a message's level is off. Lines look like
 *   [warn 1234] gpu.sm[3].l1d: MSHR full
 * where the number is the simulated time given by the sink's clock (core cycles by default).
 * Levels come from the configuration: a global level and per-block overrides matched by the
 * longest path prefix ("gpu.sm=debug,gpu.sm[3].l1d=trace,gpu.dram=info").
 */
#ifndef GTLM_LOG_H
#define GTLM_LOG_H

#include <stdint.h>
#include <stdio.h>

typedef enum log_level { LOG_OFF = 0, LOG_ERROR, LOG_WARN, LOG_INFO, LOG_DEBUG, LOG_TRACE } log_level;

/* NULL-terminated names in level order, usable as an OPT_ENUM choice list. */
extern const char *const log_level_names[];

typedef struct log_sink {
    FILE *out;                        /* stderr when NULL */
    uint64_t (*now)(const void *ctx); /* simulated time for the line; 0 when NULL */
    const void *now_ctx;
    log_level level;   /* global level */
    char *overrides;   /* "prefix=level,..." (owned copy) */
} log_sink;

typedef struct logger {
    log_level level;
    const log_sink *sink;
    char path[128];
} logger;

/* Sets up a sink; overrides may be NULL or "". Returns 0, or -1 with a message in err when
 * an override is malformed ("expected prefix=level"). */
int log_sink_init(log_sink *s, FILE *out, log_level level, const char *overrides, char *err, size_t errlen);
void log_sink_free(log_sink *s);
/* Checks an override string without a sink (configuration validation). */
int log_overrides_check(const char *overrides, char *err, size_t errlen);

/* A block's logger: its level is the sink's level for its path. */
void logger_init(logger *lg, const log_sink *s, const char *path);

void log_emit(const logger *lg, log_level lvl, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#define GTLM_LOG(lg, lvl, ...)                                                                     \
    do {                                                                                           \
        if ((lvl) <= (lg)->level) log_emit((lg), (lvl), __VA_ARGS__);                             \
    } while (0)
#define LOG_E(lg, ...) GTLM_LOG(lg, LOG_ERROR, __VA_ARGS__)
#define LOG_W(lg, ...) GTLM_LOG(lg, LOG_WARN, __VA_ARGS__)
#define LOG_I(lg, ...) GTLM_LOG(lg, LOG_INFO, __VA_ARGS__)
#define LOG_D(lg, ...) GTLM_LOG(lg, LOG_DEBUG, __VA_ARGS__)
#define LOG_T(lg, ...) GTLM_LOG(lg, LOG_TRACE, __VA_ARGS__)

#endif
