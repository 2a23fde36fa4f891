// Runs the gtlm command for the CLI tests: exit code and everything it printed.
#ifndef GTLM_TESTBENCHES_CLI_RUN_H
#define GTLM_TESTBENCHES_CLI_RUN_H

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

struct Result {
    int code = -1;
    std::string out; // stdout and stderr together
};

// Runs a shell command line (its stderr joined to stdout by the caller's "2>&1").
inline Result run_command(const std::string &cmd)
{
    Result r;
    FILE *p = popen(cmd.c_str(), "r");
    if (!p) return r;
    std::array<char, 4096> buf;
    size_t n;
    while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
    int st = pclose(p);
    r.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return r;
}

inline Result run(const std::string &args) { return run_command(std::string(GTLM_CLI) + " " + args + " 2>&1"); }

// The value of statistic `name` in --stats text ("name = value" lines), or -1 when it is absent.
inline double stat_number(const std::string &out, const std::string &name)
{
    size_t at = out.find("\n" + name + " = ");
    if (at == std::string::npos) return -1;
    return std::strtod(out.c_str() + at + name.size() + 4, nullptr);
}

} // namespace

#endif
