/* Status codes shared by every model/ block; the public C API uses the same values. */
#ifndef GTLM_MODEL_STATUS_H
#define GTLM_MODEL_STATUS_H

enum {
    GTLM_ST_OK = 0,
    GTLM_ST_EINVAL = -1,    /* bad argument from the caller */
    GTLM_ST_ENOTFOUND = -2, /* no such name (option, statistic, file) */
    GTLM_ST_ECONFIG = -3,   /* malformed or inconsistent configuration */
    GTLM_ST_EIO = -4,       /* a file could not be read or written */
    GTLM_ST_ENOMEM = -5,
    GTLM_ST_ESIM = -6,      /* the simulation failed (deadlock, bad access, ...) */
    GTLM_ST_EINTERNAL = -7, /* a bug in gtlm */
    GTLM_ST_EVERSION = -8,  /* options struct of an unknown version */
    GTLM_ST_EUNSUPPORTED = -9,
    GTLM_ST_EBUSY = -10     /* the simulator is in use (a call from its own callback, or from a second thread) */
};

#endif
