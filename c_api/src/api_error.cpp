#include <string>

#include "api_guard.h"

namespace gtlm_api {

namespace {
thread_local std::string last_error;
}

int set_error(int status, const std::string &msg)
{
    try {
        last_error = msg;
    } catch (...) {
        // Keep whatever was there: a message could not even be stored.
    }
    return status;
}

void clear_error() { last_error.clear(); }

const char *get_error() { return last_error.c_str(); }

} // namespace gtlm_api

extern "C" const char *gtlm_last_error(void) { return gtlm_api::get_error(); }

extern "C" const char *gtlm_status_name(int status)
{
    switch (status) {
    case GTLM_OK: return "GTLM_OK";
    case GTLM_EINVAL: return "GTLM_EINVAL";
    case GTLM_ENOTFOUND: return "GTLM_ENOTFOUND";
    case GTLM_ECONFIG: return "GTLM_ECONFIG";
    case GTLM_EIO: return "GTLM_EIO";
    case GTLM_ENOMEM: return "GTLM_ENOMEM";
    case GTLM_ESIM: return "GTLM_ESIM";
    case GTLM_EINTERNAL: return "GTLM_EINTERNAL";
    case GTLM_EVERSION: return "GTLM_EVERSION";
    case GTLM_EUNSUPPORTED: return "GTLM_EUNSUPPORTED";
    case GTLM_EBUSY: return "GTLM_EBUSY";
    default: return "GTLM_UNKNOWN_STATUS";
    }
}
