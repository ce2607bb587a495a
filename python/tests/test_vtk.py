"""VTK frames read back with VTK itself (Debian's python3-vtk9): the net
capture's frames through vtkXMLPolyDataReader, against the series of the
same run (net centre, string constraints phi = |r_j - r_i|^2 - L^2) and the
.pvd index (TimeValue). Skipped, with the reason, when python3-vtk9 is not
installed."""
import os
import re

import numpy as np
import pytest

import mbdae

vtk = pytest.importorskip("vtk", reason="python3-vtk9 is not installed: VTK frames not read back")
from vtk.util.numpy_support import vtk_to_numpy  # noqa: E402

SPACING = 0.45  # scenarios/capture_demo.yaml: strings of 0.45 m, 10 x 10 points


def read(path):
    r = vtk.vtkXMLPolyDataReader()
    r.SetFileName(path)
    r.Update()
    assert r.GetErrorCode() == 0
    return r.GetOutput()


def test_capture_frames_read_by_vtk(tmp_path):
    out = tmp_path / "capture"
    res = mbdae.run("capture_demo.yaml", set={"solver.t_end": 1.2}, out=out)
    pvd = (out / "animation.pvd").read_text()
    entries = re.findall(r'timestep="([^"]+)" file="([^"]+)"', pvd)
    assert len(entries) == 61  # 0 .. 1.2 every 0.02
    s = res.series
    samples = s[s["row_kind"] == "sample"]
    for t_text, name in (entries[0], entries[-1]):
        pd = read(str(out / name))
        t = float(t_text)
        # the time of the frame, as ParaView reads it
        tv = pd.GetFieldData().GetArray("TimeValue")
        assert tv is not None and tv.GetValue(0) == pytest.approx(t, abs=0)
        pts = vtk_to_numpy(pd.GetPoints().GetData())
        assert pd.GetNumberOfVerts() == 100  # the net points, visible in Surface mode
        ncells = pd.GetNumberOfCells()
        part = vtk_to_numpy(pd.GetCellData().GetArray("part"))
        taut = vtk_to_numpy(pd.GetCellData().GetArray("taut"))
        assert len(part) == len(taut) == ncells
        assert list(np.bincount(part.astype(int))) == [100, 180, pd.GetNumberOfPolys()]
        contact = vtk_to_numpy(pd.GetPointData().GetArray("in_contact"))
        assert len(contact) == pts.shape[0]
        row = samples[np.isclose(samples["t"], t, rtol=0, atol=1e-12)]
        assert len(row) == 1
        center = pts[:100].mean(axis=0)
        np.testing.assert_allclose(center, [row["net_center_x"].iloc[0], row["net_center_y"].iloc[0],
                                            row["net_center_z"].iloc[0]], rtol=0, atol=1e-9)
        lines = vtk_to_numpy(pd.GetLines().GetConnectivityArray()).reshape(-1, 2)
        d = pts[lines[:, 1]] - pts[lines[:, 0]]
        phi = (d * d).sum(axis=1) - SPACING ** 2
        np.testing.assert_allclose(phi, [row["phi_%d" % k].iloc[0] for k in range(len(lines))],
                                   rtol=0, atol=1e-9)
        if t >= 1.1:  # the net has gone taut at t = 1 s
            assert taut[part == 1].sum() > 0


def test_vtk_switch_and_stale_frames(tmp_path):
    out = tmp_path / "pend"
    mbdae.run("pendulum_baumgarte.yaml", set={"solver.t_end": 0.5}, out=out)
    first = sorted(os.listdir(out / "vtk"))
    assert len(first) == 51
    mbdae.run("pendulum_baumgarte.yaml", set={"solver.t_end": 0.2}, out=out)
    second = sorted(os.listdir(out / "vtk"))
    assert len(second) == 21  # the longer run's frames are gone
    assert len(re.findall("<DataSet", (out / "animation.pvd").read_text())) == 21
    mbdae.run("pendulum_baumgarte.yaml", set={"solver.t_end": 0.2, "output.vtk": False}, out=out)
    assert not (out / "vtk").exists() and not (out / "animation.pvd").exists()
