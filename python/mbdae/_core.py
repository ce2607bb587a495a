"""Scenarios, runs, results, sweeps and model schemas over libmbdae."""
import ctypes
import csv
import json
import os
import re
import shutil
import tempfile

import numpy as np

from . import _lib, _yaml

try:  # DataFrames when pandas is there
    import pandas as _pd
except ImportError:  # pragma: no cover - depends on the machine
    _pd = None

ROW_KINDS = ("sample", "pre-event", "post-event")
_EVENT_TEXT = ("label", "mode_before", "mode_after", "action")


class MbdaeError(Exception):
    """A run or an output that failed (status, message)."""

    def __init__(self, message, status=None):
        super().__init__(message)
        self.status = status
        self.status_name = _lib.status_name(status).decode() if status is not None else None


class ScenarioError(MbdaeError, ValueError):
    """A scenario (or study) that is refused: the one-line message
    "FILE:LINE: key 'KEY': why", split into file, line, key and why."""

    _form = re.compile(r"^(?P<file>.*?):(?:(?P<line>\d+)|\s--set [^:]*?):\s*key '(?P<key>[^']*)':\s*(?P<why>.*)$")

    def __init__(self, message, status=_lib.ERR_SCENARIO):
        super().__init__(message, status)
        m = self._form.match(message)
        self.file = m.group("file") if m else None
        self.line = int(m.group("line")) if m and m.group("line") else None
        self.key = m.group("key") if m else None
        self.why = m.group("why") if m else message


def _raise(rc, err):
    msg = err.value.decode("utf-8", "replace") if err.value else _lib.status_message(rc).decode()
    if rc == _lib.ERR_SCENARIO:
        raise ScenarioError(msg)
    if rc == _lib.ERR_IO and not os.path.exists(msg.split(":")[0]):
        raise FileNotFoundError(msg)
    raise MbdaeError(msg, rc)


def _overrides(set):
    """KEY=VALUE strings from a dict {key: value} or an iterable of strings."""
    if set is None:
        return []
    if isinstance(set, dict):
        return [_yaml.override(k, v) for k, v in set.items()]
    if isinstance(set, str):
        return [set]
    return [str(s) for s in set]


def _strv(strings):
    arr = (ctypes.c_char_p * (len(strings) + 1))()
    for i, s in enumerate(strings):
        arr[i] = s.encode("utf-8")
    return arr


def _table(columns, units, data, text_columns=None, frame=None):
    """A DataFrame (pandas, frame not False) or a numpy structured array."""
    text_columns = text_columns or {}
    use_pandas = _pd is not None if frame is None else bool(frame)
    if use_pandas:
        if _pd is None:
            raise ImportError("mbdae: frame=True needs pandas")
        df = _pd.DataFrame(data, columns=_unique(columns))
        for name, values in text_columns.items():
            df[name] = _pd.Categorical(values) if name == "row_kind" else values
        df.attrs["units"] = dict(zip(_unique(columns), units))
        return df
    names = _unique(columns)
    width = max([1] + [len(v) for vals in text_columns.values() for v in vals])
    dtype = [(n, "f8") for n in names] + [(n, "U%d" % width) for n in text_columns]
    out = np.zeros(data.shape[0], dtype=dtype)
    for j, n in enumerate(names):
        out[n] = data[:, j]
    for n, values in text_columns.items():
        out[n] = values
    return out


def _unique(names):
    seen, out = {}, []
    for n in names:
        k = seen.get(n, 0)
        seen[n] = k + 1
        out.append(n if k == 0 else "%s_%d" % (n, k + 1))
    return out


class Result:
    """The outcome of one run: status, message, summary (dict), series and
    events (DataFrames with pandas, numpy structured arrays without; the
    raw float arrays in series_array / events_array), units per column, and
    the output directory (None when nothing was written)."""

    def __init__(self, sim, out, frame):
        h = sim._h
        self.status = _lib.simulation_status(h)
        self.status_name = _lib.status_name(self.status).decode()
        self.message = (_lib.simulation_message(h) or b"").decode("utf-8", "replace")
        self.model = _lib.simulation_model(h).decode()
        self.out = out
        text = _lib.take_string(_lib.simulation_summary_json(h))
        self.summary = json.loads(text) if text else {}
        self.series_columns, self.series_units, self.series_array, kinds = _series(h)
        self.row_kind = np.array([ROW_KINDS[k] for k in kinds], dtype="U10") if kinds is not None else None
        self.event_columns, self.event_units, self.events_array, texts = _events(h)
        self._event_texts = texts
        self._frame = frame
        self._series = self._events = None

    @property
    def ok(self):
        """True when the run reached its end or a model's stop."""
        return self.status in (_lib.OK, _lib.STOPPED)

    @property
    def units(self):
        """{column: unit} of the series."""
        return dict(zip(_unique(self.series_columns), self.series_units))

    @property
    def series(self):
        """One row per written sample, pre-event and post-event state; the
        row_kind column says which (so t repeats only across kinds)."""
        if self._series is None and self.series_array is not None:
            self._series = _table(self.series_columns, self.series_units, self.series_array,
                                  {"row_kind": self.row_kind}, self._frame)
        return self._series

    @property
    def events(self):
        """One row per event: index, t, invariants before/after, the model's
        event data, and label, mode_before, mode_after, action."""
        if self._events is None and self.events_array is not None:
            self._events = _table(self.event_columns, self.event_units, self.events_array,
                                  self._event_texts, self._frame)
        return self._events

    def outcome(self, name):
        """An outcome's value from the summary (model outcomes, e.g. impacts)."""
        return self.summary["outcomes"][name]["value"]

    def __repr__(self):
        n = 0 if self.series_array is None else self.series_array.shape[0]
        ne = 0 if self.events_array is None else self.events_array.shape[0]
        return "<mbdae.Result %s %s: %d rows, %d events%s>" % (
            self.model, self.summary.get("status", self.status_name), n, ne,
            ", out=%s" % self.out if self.out else "")


def _series(h):
    rows = ctypes.POINTER(ctypes.c_double)()
    nrows, ncols = ctypes.c_long(), ctypes.c_int()
    if _lib.simulation_series(h, ctypes.byref(rows), ctypes.byref(nrows), ctypes.byref(ncols)):
        return [], [], None, None
    names, units = _columns(_lib.simulation_series_column, h, ncols.value)
    data = _copy(rows, nrows.value, ncols.value)
    kp = _lib.simulation_series_kinds(h)
    kinds = np.ctypeslib.as_array(kp, shape=(nrows.value,)).copy() if nrows.value else np.zeros(0, int)
    return names, units, data, kinds


def _events(h):
    vals = ctypes.POINTER(ctypes.c_double)()
    nev, ncols = ctypes.c_long(), ctypes.c_int()
    if _lib.simulation_events(h, ctypes.byref(vals), ctypes.byref(nev), ctypes.byref(ncols)):
        return [], [], None, {}
    names, units = _columns(_lib.simulation_event_column, h, ncols.value)
    data = _copy(vals, nev.value, ncols.value)
    texts = {w: [(_lib.simulation_event_text(h, i, k) or b"").decode() for i in range(nev.value)]
             for k, w in enumerate(_EVENT_TEXT)}
    return names, units, data, texts


def _columns(fn, h, n):
    names, units = [], []
    for j in range(n):
        u = ctypes.c_char_p()
        names.append(fn(h, j, ctypes.byref(u)).decode())
        units.append((u.value or b"").decode())
    return names, units


def _copy(ptr, n, m):
    if n == 0 or m == 0:
        return np.zeros((n, m))
    return np.ctypeslib.as_array(ptr, shape=(n, m)).copy()


class Simulation:
    """A scenario loaded and checked against its model's schema (a file, a
    shipped scenario's name, YAML text or a dict), with overrides. Run it
    as often as you like; each run starts from the initial state."""

    def __init__(self, scenario, set=None, name=None):
        self._h = ctypes.c_void_p()
        ov = _overrides(set)
        err = ctypes.create_string_buffer(2048)
        if isinstance(scenario, dict):
            text = _yaml.dump(scenario)
            rc = _lib.simulation_load_text((name or "scenario").encode(), text.encode(),
                                           _strv(ov), len(ov), ctypes.byref(self._h), err,
                                           len(err))
        elif isinstance(scenario, str) and "\n" in scenario:
            rc = _lib.simulation_load_text((name or "scenario").encode(), scenario.encode(),
                                           _strv(ov), len(ov), ctypes.byref(self._h), err,
                                           len(err))
        else:
            rc = _lib.simulation_load(os.fspath(scenario).encode(), _strv(ov), len(ov),
                                      ctypes.byref(self._h), err, len(err))
        if rc:
            _raise(rc, err)

    @classmethod
    def _adopt(cls, handle):
        self = cls.__new__(cls)
        self._h = handle
        return self

    def __del__(self):
        h = getattr(self, "_h", None)
        if h:
            _lib.simulation_free(ctypes.byref(h))

    @property
    def model(self):
        """The model kind's name."""
        return _lib.simulation_model(self._h).decode()

    @property
    def default_out(self):
        """Where `mbdae run` would write: output.dir, else out/<stem>."""
        return _lib.simulation_default_dir(self._h).decode()

    def override(self, set):
        """Apply more overrides (all or nothing; ScenarioError if refused)."""
        ov = _overrides(set)
        err = ctypes.create_string_buffer(2048)
        rc = _lib.simulation_override(self._h, _strv(ov), len(ov), err, len(err))
        if rc:
            _raise(rc, err)
        return self

    def run(self, out=None, plots=False, progress=False, keep=True, checkpoint_every=0.0,
            frame=None, check=True):
        """Run; write the output directory out (None: no files) and keep the
        series and events (keep). Returns a Result; raises ScenarioError when
        the input is refused before the run, MbdaeError when the run failed
        (check=False returns the failed Result instead)."""
        flags = (0 if plots else _lib.SIM_NO_PLOTS) | (_lib.SIM_PROGRESS if progress else 0)
        flags |= _lib.SIM_KEEP if keep else 0
        if _lib.simulation_set_checkpoint_every(self._h, float(checkpoint_every)):
            raise ValueError("mbdae: checkpoint_every must be >= 0")
        err = ctypes.create_string_buffer(2048)
        out_b = os.fspath(out).encode() if out is not None else None
        rc = _lib.simulation_run(self._h, out_b, flags, err, len(err))
        if rc == _lib.ERR_SCENARIO:
            _raise(rc, err)
        if rc == _lib.ERR_IO or (rc < 0 and _lib.simulation_status(self._h) >= 0):
            _raise(rc, err)
        result = Result(self, os.fspath(out) if out is not None else None, frame)
        if check and not result.ok:
            e = MbdaeError("%s: run failed (%s): %s" % (self.model, result.status_name,
                                                      result.message), result.status)
            e.result = result
            raise e
        return result


def load(scenario, set=None, name=None):
    """Load and check a scenario: a file, a shipped scenario's name
    ("ball.yaml"), YAML text, or a dict. set: overrides {key: value}."""
    return Simulation(scenario, set=set, name=name)


def run(scenario, set=None, out=None, plots=False, progress=False, keep=True,
        checkpoint_every=0.0, frame=None, check=True, name=None):
    """Load, check and run a scenario (see load and Simulation.run)."""
    return Simulation(scenario, set=set, name=name).run(
        out=out, plots=plots, progress=progress, keep=keep, checkpoint_every=checkpoint_every,
        frame=frame, check=check)


def resume(rundir, keep=True, plots=False, frame=None, check=True):
    """Continue a checkpointed or interrupted run in rundir (`mbdae resume`)."""
    h = ctypes.c_void_p()
    err = ctypes.create_string_buffer(2048)
    flags = (0 if plots else _lib.SIM_NO_PLOTS) | (_lib.SIM_KEEP if keep else 0)
    rc = _lib.simulation_resume(os.fspath(rundir).encode(), flags, ctypes.byref(h), err, len(err))
    if not h:
        _raise(rc, err)
    sim = Simulation._adopt(h)
    result = Result(sim, os.fspath(rundir), frame)
    if check and not result.ok:
        raise MbdaeError("resume failed (%s): %s" % (result.status_name, result.message),
                         result.status)
    return result


def load_plugin(path):
    """Load model kinds from a plug-in (a shared object exporting
    mbdae_plugin_init, doc/first-model-kind.md)."""
    err = ctypes.create_string_buffer(1024)
    rc = _lib.plugin_load(os.fspath(path).encode(), err, len(err))
    if rc:
        raise MbdaeError(err.value.decode("utf-8", "replace"), rc)


def _schema():
    text = _lib.take_string(_lib.model_kinds_json())
    if text is None:
        raise MemoryError("mbdae: no schema text")
    return json.loads(text)


def models():
    """{kind name: {"summary": ..., "parameters": [spec, ...]}} for every
    model kind (built-in and registered). A spec is a dict: key, type,
    default, min, max (None: unbounded), min_open, max_open, required, len,
    choices, unit, doc."""
    return {m["name"]: {"summary": m["summary"], "parameters": m["parameters"]}
            for m in _schema()["models"]}


def schema(model):
    """The parameter specs of one model kind (a list of dicts)."""
    kinds = models()
    if model not in kinds:
        raise KeyError("mbdae: unknown model kind %r (known: %s)" % (model, ", ".join(kinds)))
    return kinds[model]["parameters"]


def solver_keys():
    """The keys of the solver: and output: sections with their defaults."""
    s = _schema()
    return {"solver": s["solver"], "output": s["output"]}


def scenario_dir():
    """Where the shipped scenarios are."""
    return _lib.scenario_dir().decode()


def scenarios():
    """The shipped scenario files (names to pass to run/load)."""
    d = scenario_dir()
    try:
        return sorted(f for f in os.listdir(d) if f.endswith(".yaml"))
    except OSError:
        return []


class SweepResult:
    """A parameter study's tables: runs (one row per run: the varied keys,
    status, outcomes) and sets (statistics per design set), as DataFrames
    with pandas or numpy structured arrays, and critical when asked for."""

    def __init__(self, out, frame, keep_dir):
        self.out = out if keep_dir else None
        self.runs = _read_csv(os.path.join(out, "runs.csv"), frame)
        self.sets = _read_csv(os.path.join(out, "sets.csv"), frame)
        self.critical = _read_csv(os.path.join(out, "critical.csv"), frame)

    def __repr__(self):
        return "<mbdae.SweepResult %d runs%s>" % (len(self.runs), ", out=%s" % self.out if self.out else "")


def _read_csv(path, frame):
    if not os.path.exists(path):
        return None
    use_pandas = _pd is not None if frame is None else bool(frame)
    if use_pandas:
        return _pd.read_csv(path)
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    cols = []
    for j, name in enumerate(header):
        vals = [r[j] for r in body]
        try:
            cols.append((name, np.array([float(v) for v in vals])))
        except ValueError:
            cols.append((name, np.array(vals)))
    out = np.zeros(len(body), dtype=[(n, v.dtype) for n, v in cols])
    for n, v in cols:
        out[n] = v
    return out


def sweep(study, out=None, plots=False, frame=None, resume=False):
    """Run a parameter study (doc/sweep.md) in this process: a study file, or
    a dict (its base scenario relative to the current directory). out: where
    runs.csv and sets.csv go (None: a temporary directory, read and removed).
    resume: run only the runs the journal in out does not hold (a sweep that
    was killed goes on)."""
    tmp = None
    try:
        if isinstance(study, dict):
            study = dict(study)
            if "base" in study:
                study["base"] = os.path.abspath(os.fspath(study["base"]))
            tmp = tempfile.mkdtemp(prefix="mbdae_study_")
            path = os.path.join(tmp, "%s.yaml" % study.get("study", "study"))
            with open(path, "w") as f:
                f.write(_yaml.dump(study))
        else:
            path = os.fspath(study)
        where = out
        if where is None:
            tmp = tmp or tempfile.mkdtemp(prefix="mbdae_study_")
            where = os.path.join(tmp, "out")
        err = ctypes.create_string_buffer(2048)
        flags = (0 if plots else _lib.SIM_NO_PLOTS) | (_lib.SIM_RESUME if resume else 0)
        rc = _lib.sweep_study_run(path.encode(), os.fspath(where).encode(), flags, err,
                                  len(err))
        if rc:
            _raise(rc, err)
        return SweepResult(os.fspath(where), frame, out is not None)
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
