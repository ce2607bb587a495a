"""pytest suite of the Python package (ctest: python_mbdae). Numbers asserted
come from closed forms: the bouncing ball's impact times and its Zeno count
(scenarios/ball.yaml), the tank of the sweep, the pendulum's energy."""
import math
import os

import numpy as np
import pytest

import mbdae

G = 9.81
H0 = 1.0
ZENO_VELOCITY = 0.15  # scenarios/ball.yaml


def ball_impact_times(e, n):
    """t_k = t1 + (2 V1 / g) e (1 - e^(k-1)) / (1 - e), t1 = sqrt(2 h0 / g)."""
    t1 = math.sqrt(2 * H0 / G)
    v1 = G * t1
    return [t1 + 2 * v1 / G * e * (1 - e ** (k - 1)) / (1 - e) for k in range(1, n + 1)]


def ball_impacts(e):
    """Impacts until the rebound speed e^k V1 falls below the Zeno speed."""
    v1 = math.sqrt(2 * G * H0)
    return math.ceil(math.log(ZENO_VELOCITY / v1) / math.log(e))


@pytest.fixture
def tmp_out(tmp_path):
    return tmp_path / "out"


def test_run_by_name_with_override():
    r = mbdae.run("ball.yaml", set={"parameters.e": 0.5})
    assert r.ok and r.model == "bouncing_ball"
    assert r.summary["status"] == "ok"
    n = ball_impacts(0.5)
    assert r.outcome("impacts") == n
    ev = r.events
    hits = ev[ev["label"].isin(["impact", "rest"])] if hasattr(ev, "iloc") else \
        ev[np.isin(ev["label"], ["impact", "rest"])]
    assert len(hits) == n
    np.testing.assert_allclose(np.asarray(hits["t"]), ball_impact_times(0.5, n), rtol=1e-8)
    # the invariant's columns carry the unit the model declares, one name each
    units = dict(zip(r.event_columns, r.event_units))
    assert units["energy_before"] == units["energy_after"] == "J"
    assert len(set(r.event_columns)) == len(r.event_columns)
    # at an impact on the ground (height 0) the energy is kinetic: e^2 of it stays
    imp = ev[ev["label"] == "impact"]
    assert len(imp) > 0
    np.testing.assert_allclose(np.asarray(imp["energy_after"]),
                               0.25 * np.asarray(imp["energy_before"]), rtol=1e-6)


def test_series_row_kinds_make_time_unique():
    r = mbdae.run("ball.yaml", frame=False)
    s = r.series
    assert isinstance(s, np.ndarray) and "row_kind" in s.dtype.names
    kinds = set(s["row_kind"])
    assert kinds == {"sample", "pre-event", "post-event"}
    samples = s[s["row_kind"] == "sample"]
    assert np.all(np.diff(samples["t"]) > 0)          # a unique time index
    pre = s[s["row_kind"] == "pre-event"]
    post = s[s["row_kind"] == "post-event"]
    assert len(pre) == len(post) == len(r.events)
    np.testing.assert_array_equal(pre["t"], post["t"])  # t repeats only across kinds
    np.testing.assert_array_equal(pre["t"], r.events["t"])
    # np.interp on the samples: the free fall h0 - g t^2 / 2 before the first impact
    t = 0.3
    assert np.interp(t, samples["t"], samples["height"]) == pytest.approx(H0 - G * t * t / 2, abs=2e-5)
    assert r.units["height"] == "m"


def test_dataframes_when_pandas():
    pd = pytest.importorskip("pandas")
    r = mbdae.run("ball.yaml", set={"solver.t_end": 1.0})
    assert isinstance(r.series, pd.DataFrame) and isinstance(r.events, pd.DataFrame)
    assert r.series.attrs["units"]["velocity"] == "m/s"
    assert list(r.series["row_kind"].cat.categories) == ["post-event", "pre-event", "sample"]


def test_scenario_from_dict_and_text(tmp_out):
    scenario = {
        "model": "pendulum",
        "description": "a dict scenario",
        "solver": {"method": "ida", "linear_solver": "dense", "t_end": 2.0, "dt_out": 0.01,
                   "rtol": 1e-10, "atol": 1e-12},
        "parameters": {"formulation": "baumgarte", "length": 1.0, "theta0": 0.5},
    }
    r = mbdae.run(scenario, set={"parameters.mass": 2.0}, out=tmp_out)
    assert r.ok and r.out == str(tmp_out)
    for f in ("series.csv", "events.csv", "summary.json"):
        assert (tmp_out / f).exists()
    s = r.series
    m, L, th0 = 2.0, 1.0, 0.5
    # energy zero at the pivot level: m g y + m v^2 / 2, conserved
    assert np.asarray(s["energy"]) == pytest.approx(-m * G * L * math.cos(th0), rel=1e-6)
    text = "model: pendulum\nparameters:\n  formulation: baumgarte\n  theta0: 0.25\n"
    sim = mbdae.load(text, name="inline.yaml")
    assert sim.model == "pendulum" and sim.default_out == "out/inline"


def test_bad_scenario_raises_with_file_line_key(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("model: bouncing_ball\nsolver:\n  t_end: 1.0\nparameters:\n  e: 0.5\n  ee: 1\n")
    with pytest.raises(mbdae.ScenarioError) as exc:
        mbdae.run(bad)
    e = exc.value
    assert e.file == str(bad) and e.line == 6 and e.key == "parameters.ee"
    assert str(e).startswith("%s:6: key 'parameters.ee':" % bad)
    with pytest.raises(mbdae.ScenarioError) as exc:
        mbdae.load("ball.yaml", set={"parameters.e": 2})
    assert exc.value.key == "parameters.e" and exc.value.line is None
    assert "--set parameters.e=2" in str(exc.value)
    with pytest.raises(mbdae.ScenarioError) as exc:
        mbdae.run({"model": "no_such_model"})
    assert exc.value.key == "model" and exc.value.line == 1
    with pytest.raises(FileNotFoundError):
        mbdae.load(tmp_path / "missing.yaml")


def test_failed_run():
    sim = mbdae.load("ball.yaml", set={"solver.max_steps": 3})
    with pytest.raises(mbdae.MbdaeError) as exc:
        sim.run()
    assert exc.value.status_name == "MBDAE_ERR_TOO_MUCH_WORK"
    r = sim.run(check=False)
    assert not r.ok and r.summary["status"] == "failed" and r.message


def test_models_and_schemas():
    kinds = mbdae.models()
    assert {"bouncing_ball", "pendulum", "net_capture"} <= set(kinds)
    e = next(p for p in mbdae.schema("bouncing_ball") if p["key"] == "e")
    assert e["type"] == "double" and e["min"] == 0 and e["max"] == 1 and e["unit"] == "-"
    form = next(p for p in mbdae.schema("pendulum") if p["key"] == "formulation")
    assert form["choices"] == ["ggl", "baumgarte"]
    method = next(p for p in mbdae.solver_keys()["solver"] if p["key"] == "method")
    assert "moreau" in method["choices"]
    with pytest.raises(KeyError):
        mbdae.schema("no_such_model")
    assert "ball.yaml" in mbdae.scenarios()


def test_sweep_from_dict():
    base = os.path.join(mbdae.scenario_dir(), "ball.yaml")
    study = {"study": "ball_e", "base": base, "vary": [{"key": "parameters.e", "values": [0.5, 0.7]}],
             "outcomes": [{"name": "impacts"}, {"name": "rest_time"}]}
    res = mbdae.sweep(study, frame=False)
    runs = res.runs
    assert len(runs) == 2 and list(runs["status"]) == ["ok", "ok"]
    assert list(runs["impacts"]) == [ball_impacts(0.5), ball_impacts(0.7)]
    # resting when the rebounds' sum accumulates: t_rest = t_(n), the last impact
    for e, t in zip([0.5, 0.7], runs["rest_time"]):
        assert t == pytest.approx(ball_impact_times(e, ball_impacts(e))[-1], rel=1e-8)
    assert res.out is None  # a temporary directory, read and removed


def test_names_of_shipped_studies_and_scenarios():
    res = mbdae.sweep("ravine_study_ci", frame=False)  # scenarios/studies/ravine_study_ci.yaml
    assert len(res.runs) == 20  # 2 widths x 5 restitutions x 2 speeds
    with pytest.raises(FileNotFoundError, match="nor among the shipped studies"):
        mbdae.sweep("no_such_study")
    with pytest.raises(FileNotFoundError, match="nor among the shipped scenarios"):
        mbdae.run("no_such_scenario")


def test_sweep_resume(tmp_path):
    base = os.path.join(mbdae.scenario_dir(), "ball.yaml")
    study = {"study": "ball_e", "base": base, "vary": [{"key": "parameters.e", "values": [0.5, 0.6, 0.7]}],
             "outcomes": [{"name": "impacts"}]}
    out = tmp_path / "study"
    full = mbdae.sweep(study, out=out, frame=False).runs
    journal = out / "journal" / "rank_0.csv"
    lines = journal.read_text().splitlines(keepends=True)
    assert len(lines) == 2 + 3  # fingerprint, column names, one line per run
    assert lines[2].startswith("0,0.5,")
    # as if killed after the first run, in the middle of writing the second
    # line; the first run's outcome marked, to see that it is taken from the
    # journal and not run again
    first = lines[2].rsplit(",", 1)[0] + ",12345\n"
    journal.write_text(lines[0] + lines[1] + first + lines[3][:5])
    os.remove(out / "runs.csv")
    again = mbdae.sweep(study, out=out, frame=False, resume=True).runs
    assert list(again["impacts"]) == [12345] + list(full["impacts"])[1:]
    after = journal.read_text().splitlines()
    assert len(after) == 5 and after[2] == first.strip()  # the torn line cut off, run 0 kept
    # a changed study (another fixed override) does not mix in the journal's
    # results: refused, nothing written
    os.remove(out / "runs.csv")
    changed = dict(study, set=["solver.t_end=2.0"])
    with pytest.raises(mbdae.MbdaeError) as exc:
        mbdae.sweep(changed, out=out, frame=False, resume=True)
    assert "the journal of another study, or the study or its base scenario changed" in str(exc.value)
    assert not (out / "runs.csv").exists()
    assert journal.read_text().splitlines() == after
    # without resume, a new sweep: the journal is started afresh
    fresh = mbdae.sweep(changed, out=out, frame=False).runs
    assert len(fresh) == 3 and 12345 not in list(fresh["impacts"])


def test_plugin_kind():
    plugin = os.environ.get("MBDAE_TEST_PLUGIN")
    if not plugin:
        pytest.skip("MBDAE_TEST_PLUGIN not set (ctest sets it)")
    with pytest.raises(mbdae.MbdaeError):
        mbdae.load_plugin("/nonexistent/libnothing.so")
    mbdae.load_plugin(plugin)
    assert "double_pendulum_wall" in mbdae.models()
    src = os.environ["MBDAE_SOURCE_DIR"]
    r = mbdae.run(os.path.join(src, "examples/plugin/double_pendulum_wall.yaml"),
                  set={"parameters.e": 1.0, "solver.t_end": 2.0})
    E = np.asarray(r.series["energy"])
    assert r.outcome("impacts") >= 1
    assert E[-1] == pytest.approx(E[0], abs=1e-7 * 2 * G)  # elastic: nothing taken
