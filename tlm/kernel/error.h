// The exception every tlm/ block throws for a failure the C API reports with a status code.
#ifndef GTLM_TLM_ERROR_H
#define GTLM_TLM_ERROR_H

#include <stdexcept>
#include <string>

namespace gtlm {

// A failure with the C API status it maps to (GTLM_ST_* of model/common/status.h).
class Error : public std::runtime_error {
public:
    Error(int status, const std::string &msg) : std::runtime_error(msg), status_(status) {}
    int status() const { return status_; }

private:
    int status_;
};

} // namespace gtlm

#endif
