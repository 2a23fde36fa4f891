"""The shared library libgtlm through ctypes: where it is found and the C functions' signatures."""
import ctypes
import ctypes.util
import glob
import os

c_devptr = ctypes.c_uint64


class GtlmError(Exception):
    """A failed gtlm call: status is the C API's code (e.g. -3), name its GTLM_E* name,
    message the library's gtlm_last_error() text (or the command's error output)."""

    def __init__(self, message, status=None, name=None):
        super().__init__(message)
        self.message = message
        self.status = status
        self.name = name


class OptionInfo(ctypes.Structure):
    _fields_ = [(n, ctypes.c_char_p) for n in ("name", "block", "type", "description", "default_value", "source")]


class SimOptions(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint), ("config_files", ctypes.POINTER(ctypes.c_char_p)),
                ("n_config_files", ctypes.c_size_t), ("overrides", ctypes.POINTER(ctypes.c_char_p)),
                ("n_overrides", ctypes.c_size_t), ("gpgpusim_compat", ctypes.c_int)]


class Progress(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint), ("kernel_done", ctypes.c_int), ("kernel", ctypes.c_ulonglong),
                ("n_kernels", ctypes.c_ulonglong), ("kernel_name", ctypes.c_char_p), ("cycles", ctypes.c_ulonglong),
                ("warp_insn", ctypes.c_ulonglong), ("total_cycles", ctypes.c_ulonglong),
                ("total_warp_insn", ctypes.c_ulonglong)]


PROGRESS_CALLBACK = ctypes.CFUNCTYPE(None, ctypes.POINTER(Progress), ctypes.c_void_p)

_P = ctypes.c_void_p
_S = ctypes.c_char_p
_SIGNATURES = {
    "gtlm_version_string": (_S, []),
    "gtlm_last_error": (_S, []),
    "gtlm_status_name": (_S, [ctypes.c_int]),
    "gtlm_sim_options_init": (ctypes.c_int, [ctypes.POINTER(SimOptions), ctypes.c_uint]),
    "gtlm_sim_create": (ctypes.c_int, [ctypes.POINTER(_P), ctypes.POINTER(SimOptions)]),
    "gtlm_sim_destroy": (None, [_P]),
    "gtlm_sim_warnings": (_S, [_P]),
    "gtlm_sim_describe": (_S, [_P]),
    "gtlm_option_count": (ctypes.c_int, [_P, ctypes.POINTER(ctypes.c_size_t)]),
    "gtlm_option_info_get": (ctypes.c_int, [_P, ctypes.c_size_t, ctypes.POINTER(OptionInfo)]),
    "gtlm_option_value": (ctypes.c_int, [_P, _S, ctypes.c_char_p, ctypes.c_size_t]),
    "gtlm_stat_get": (ctypes.c_int, [_P, _S, ctypes.POINTER(ctypes.c_double)]),
    "gtlm_stat_get_kernel": (ctypes.c_int, [_P, _S, ctypes.POINTER(ctypes.c_double)]),
    "gtlm_stats_write": (ctypes.c_int, [_P, _S, ctypes.c_uint]),
    "gtlm_malloc": (ctypes.c_int, [_P, ctypes.c_size_t, ctypes.POINTER(c_devptr)]),
    "gtlm_free": (ctypes.c_int, [_P, c_devptr]),
    "gtlm_memcpy_htod": (ctypes.c_int, [_P, c_devptr, _P, ctypes.c_size_t]),
    "gtlm_memcpy_dtoh": (ctypes.c_int, [_P, _P, c_devptr, ctypes.c_size_t]),
    "gtlm_memset": (ctypes.c_int, [_P, c_devptr, ctypes.c_int, ctypes.c_size_t]),
    "gtlm_module_load_ptx": (ctypes.c_int, [_P, _S, _S, ctypes.POINTER(_P)]),
    "gtlm_module_set_ptxas_info": (ctypes.c_int, [_P, _P, _S]),
    "gtlm_launch": (ctypes.c_int, [_P, _P, _S, ctypes.POINTER(ctypes.c_uint), ctypes.POINTER(ctypes.c_uint),
                                   ctypes.c_size_t, ctypes.POINTER(_P), ctypes.POINTER(ctypes.c_size_t),
                                   ctypes.c_size_t]),
    "gtlm_run_trace": (ctypes.c_int, [_P, _S, ctypes.c_char_p, ctypes.c_size_t]),
    "gtlm_synchronize": (ctypes.c_int, [_P]),
    "gtlm_set_progress_callback": (ctypes.c_int, [_P, PROGRESS_CALLBACK, _P, ctypes.c_ulonglong]),
}


def _candidates():
    env = os.environ.get("GTLM_LIBRARY")
    if env:
        yield env
    # installed: <prefix>/lib/python3/dist-packages/gtlm beside <prefix>/lib[/<arch>]/libgtlm.so.0
    libdir = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
    yield from sorted(glob.glob(os.path.join(libdir, "libgtlm.so.0")) + glob.glob(os.path.join(libdir, "*", "libgtlm.so.0")))
    found = ctypes.util.find_library("gtlm")
    if found:
        yield found
    yield "libgtlm.so.0"


def _load():
    errors = []
    for path in _candidates():
        try:
            lib = ctypes.CDLL(path)
        except OSError as e:
            errors.append(str(e))
            continue
        for name, (res, args) in _SIGNATURES.items():
            fn = getattr(lib, name)
            fn.restype = res
            fn.argtypes = args
        return lib
    raise ImportError("gtlm: cannot load libgtlm (set GTLM_LIBRARY to its path): " + "; ".join(errors))


lib = _load()


def text(b):
    return b.decode("utf-8", "replace") if b is not None else ""


def check(status):
    """Raises GtlmError with the library's message for a failed call."""
    if status != 0:
        raise GtlmError(text(lib.gtlm_last_error()), status, text(lib.gtlm_status_name(status)))
    return status
