"""Loading libmbdae.so with ctypes and declaring the C API it uses
(include/mbdae/simulation.h, include/mbdae/model.h)."""
import ctypes
import ctypes.util
import os

_c = ctypes.c_char_p
_int = ctypes.c_int
_long = ctypes.c_long
_size = ctypes.c_size_t
_dbl_p = ctypes.POINTER(ctypes.c_double)
_int_p = ctypes.POINTER(ctypes.c_int)
_sim_p = ctypes.c_void_p


def _candidates():
    env = os.environ.get("MBDAE_LIBRARY")
    if env:
        yield env
        return
    try:
        from . import _config  # written by CMake: the build tree's or the installed library
        path = _config.LIBRARY
        if not os.path.isabs(path):
            path = os.path.normpath(os.path.join(os.path.dirname(__file__), path))
        yield path
    except ImportError:
        pass
    found = ctypes.util.find_library("mbdae")
    if found:
        yield found


def _load():
    tried = []
    for path in _candidates():
        try:
            # RTLD_GLOBAL: a plug-in's own undefined mbdae_* symbols resolve here
            return ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL), path
        except OSError as exc:
            tried.append("%s (%s)" % (path, exc))
    raise ImportError("mbdae: cannot load libmbdae.so; tried: %s. Set MBDAE_LIBRARY to its path."
                      % ("; ".join(tried) or "nothing found"))


lib, path = _load()


def _fn(name, restype, *argtypes):
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)
    return f


_strv = ctypes.POINTER(ctypes.c_char_p)

simulation_load = _fn("mbdae_simulation_load", _int, _c, _strv, _int,
                      ctypes.POINTER(_sim_p), ctypes.c_char_p, _size)
simulation_load_text = _fn("mbdae_simulation_load_text", _int, _c, _c, _strv, _int,
                           ctypes.POINTER(_sim_p), ctypes.c_char_p, _size)
simulation_free = _fn("mbdae_simulation_free", None, ctypes.POINTER(_sim_p))
simulation_override = _fn("mbdae_simulation_override", _int, _sim_p, _strv, _int,
                          ctypes.c_char_p, _size)
simulation_model = _fn("mbdae_simulation_model", _c, _sim_p)
simulation_default_dir = _fn("mbdae_simulation_default_dir", _c, _sim_p)
simulation_set_checkpoint_every = _fn("mbdae_simulation_set_checkpoint_every", _int, _sim_p,
                                      ctypes.c_double)
simulation_run = _fn("mbdae_simulation_run", _int, _sim_p, _c, _int, ctypes.c_char_p, _size)
simulation_resume = _fn("mbdae_simulation_resume", _int, _c, _int, ctypes.POINTER(_sim_p),
                        ctypes.c_char_p, _size)
simulation_status = _fn("mbdae_simulation_status", _int, _sim_p)
simulation_message = _fn("mbdae_simulation_message", _c, _sim_p)
simulation_summary_json = _fn("mbdae_simulation_summary_json", ctypes.c_void_p, _sim_p)
simulation_series = _fn("mbdae_simulation_series", _int, _sim_p, ctypes.POINTER(_dbl_p),
                        ctypes.POINTER(_long), ctypes.POINTER(_int))
simulation_series_kinds = _fn("mbdae_simulation_series_kinds", _int_p, _sim_p)
simulation_series_column = _fn("mbdae_simulation_series_column", _c, _sim_p, _int,
                               ctypes.POINTER(_c))
simulation_events = _fn("mbdae_simulation_events", _int, _sim_p, ctypes.POINTER(_dbl_p),
                        ctypes.POINTER(_long), ctypes.POINTER(_int))
simulation_event_column = _fn("mbdae_simulation_event_column", _c, _sim_p, _int,
                              ctypes.POINTER(_c))
simulation_event_text = _fn("mbdae_simulation_event_text", _c, _sim_p, _long, _int)
sweep_study_run = _fn("mbdae_sweep_study_run", _int, _c, _c, _int, ctypes.c_char_p, _size)
plugin_load = _fn("mbdae_plugin_load", _int, _c, ctypes.c_char_p, _size)
scenario_dir = _fn("mbdae_scenario_dir", _c)
model_kinds_json = _fn("mbdae_model_kinds_json", ctypes.c_void_p)
free = _fn("mbdae_free", None, ctypes.c_void_p)
version = _fn("mbdae_version", _c)
status_name = _fn("mbdae_status_name", _c, _int)
status_message = _fn("mbdae_status_message", _c, _int)

# include/mbdae/simulation.h
SIM_NO_PLOTS = 1
SIM_PROGRESS = 2
SIM_KEEP = 4
SIM_NOTES = 8
SIM_RESUME = 16
# include/mbdae/status.h
OK = 0
STOPPED = 1
ERR_SCENARIO = -8
ERR_IO = -9
ERR_NOT_FOUND = -13


def take_string(ptr):
    """The text of a malloc'd char * the library returned, freed."""
    if not ptr:
        return None
    try:
        return ctypes.string_at(ptr).decode("utf-8")
    finally:
        free(ptr)
