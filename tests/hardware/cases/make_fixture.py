"""Writes hat_fixture.kicad_pcb and hat_fixture_pads.json beside this file, with KiCad's own
pcbnew (run it with the system Python that has KiCad's module: ``/usr/bin/python3``).

A HAT-sized board placed away from the page origin, with footprints on both sides and in all
four rotations, so that the cases' board reader is checked against what pcbnew itself says
the pads' positions are.
"""

import json
from pathlib import Path

import pcbnew

HERE = Path(__file__).resolve().parent
LIBS = Path("/usr/share/kicad/footprints")
OX, OY = 100.0, 80.0          # the board's top-left corner on the page


def mm(v: float) -> int:
    return pcbnew.FromMM(v)


def main() -> None:
    board = pcbnew.BOARD()
    corners = [(0, 0), (65, 0), (65, 56.5), (0, 56.5)]
    for (x1, y1), (x2, y2) in zip(corners, corners[1:] + corners[:1], strict=True):
        seg = pcbnew.PCB_SHAPE(board)
        seg.SetShape(pcbnew.SHAPE_T_SEGMENT)
        seg.SetLayer(pcbnew.Edge_Cuts)
        seg.SetStart(pcbnew.wxPoint(mm(OX + x1), mm(OY + y1)))
        seg.SetEnd(pcbnew.wxPoint(mm(OX + x2), mm(OY + y2)))
        board.Add(seg)
    # reference, library, footprint, (x, y) from the top-left corner, rotation, bottom side
    placed = [
        ("J1", "Connector_PinSocket_2.54mm", "PinSocket_2x20_P2.54mm_Vertical",
         (56.63, 2.23), 270, True),
        ("H1", "MountingHole", "MountingHole_2.7mm_M2.5", (3.5, 3.5), 0, False),
        ("H2", "MountingHole", "MountingHole_2.7mm_M2.5", (61.5, 3.5), 0, False),
        ("H3", "MountingHole", "MountingHole_2.7mm_M2.5", (3.5, 52.5), 0, False),
        ("H4", "MountingHole", "MountingHole_2.7mm_M2.5", (61.5, 52.5), 0, False),
        ("SW1", "Button_Switch_THT", "SW_PUSH_6mm", (14.75, 44.75), 0, False),
        ("SW2", "Button_Switch_THT", "SW_PUSH_6mm", (30.25, 50.75), 90, False),
        ("SW3", "Button_Switch_THT", "SW_PUSH_6mm", (50.25, 49.25), 180, False),
        ("J2", "Connector_JST", "JST_XH_B4B-XH-A_1x04_P2.50mm_Vertical", (28.75, 12.5), 0,
         False),
        ("J3", "Connector_JST", "JST_XH_B4B-XH-A_1x04_P2.50mm_Vertical", (5.5, 22.75), 90,
         False),
        ("J4", "Connector_JST", "JST_XH_B4B-XH-A_1x04_P2.50mm_Vertical", (5.5, 39.75), 90,
         False),
    ]
    for ref, lib, name, (x, y), rot, bottom in placed:
        fp = pcbnew.FootprintLoad(str(LIBS / f"{lib}.pretty"), name)
        fp.SetReference(ref)
        fp.SetPosition(pcbnew.wxPoint(mm(OX + x), mm(OY + y)))
        fp.SetOrientationDegrees(rot)
        board.Add(fp)
        if bottom:
            fp.Flip(fp.GetPosition(), False)
    path = HERE / "hat_fixture.kicad_pcb"
    board.Save(str(path))
    loaded = pcbnew.LoadBoard(str(path))
    pads = {fp.GetReference(): [[pcbnew.ToMM(p.GetPosition().x), pcbnew.ToMM(p.GetPosition().y)]
                                for p in fp.Pads()]
            for fp in loaded.GetFootprints()}
    (HERE / "hat_fixture_pads.json").write_text(json.dumps(pads, indent=1) + "\n")


if __name__ == "__main__":
    main()
