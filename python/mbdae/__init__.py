"""mbdae from Python: constrained multibody systems with non-smooth events.

    import mbdae
    r = mbdae.run("ball.yaml", set={"parameters.e": 0.5})
    r.series          # DataFrame (numpy structured array without pandas)
    r.events          # one row per event
    r.summary         # summary.json as a dict
    mbdae.models()    # every model kind and its parameter schema
    mbdae.sweep("scenarios/studies/ravine_study_I.yaml")

A scenario is a file, the name of a shipped scenario, YAML text or a dict;
a refused one raises ScenarioError carrying "FILE:LINE: key 'KEY': why".
Built on libmbdae.so with ctypes (include/mbdae/simulation.h)."""
from ._core import (MbdaeError, Result, ScenarioError, Simulation, SweepResult, load,
                    load_plugin, models, resume, run, scenario_dir, scenarios, schema,
                    solver_keys, sweep)
from . import _lib

__version__ = _lib.version().decode()
library_path = _lib.path

__all__ = ["MbdaeError", "Result", "ScenarioError", "Simulation", "SweepResult", "load",
           "load_plugin", "models", "resume", "run", "scenario_dir", "scenarios", "schema",
           "solver_keys", "sweep", "library_path"]
