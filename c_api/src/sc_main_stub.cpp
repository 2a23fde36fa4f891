// Debian's libsystemc defines main() and needs an sc_main() from its host. gtlm's users write
// their own main() (which takes precedence) and drive the simulator through the C API, so this
// sc_main only satisfies the linker; it runs only for a program that has no main of its own.
#include <cstdio>

extern "C" int sc_main(int argc, char *argv[]);

extern "C" int sc_main(int argc, char *argv[])
{
    std::fprintf(stderr, "%s: gtlm programs provide their own main() and use the gtlm C API\n",
                 argc > 0 && argv[0] ? argv[0] : "gtlm");
    return 2;
}
