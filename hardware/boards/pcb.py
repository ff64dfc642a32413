#!/usr/bin/python3
"""The printed circuit board of one board, made by KiCad 6's pcbnew (run by /usr/bin/python3,
the Python that KiCad's module is built for): ``pcb.py JOB.json``.

The job (written by :mod:`boards.build`) names the netlist, the placement, the outline, the
fab's rules and the output folder.  Steps: footprints placed and their pads put on the
netlist's nets; the outline on Edge.Cuts; the fab's rules in the board's design settings;
Specctra DSN out, routed by ``freeroute``, the session (SES) read back into tracks and vias;
saved; the design rules check written; Gerbers and Excellon drill files plotted (dates
removed, so that the same sources give the same bytes) and zipped; the pick-and-place CSV;
the copper and silkscreen geometry for the PNG picture.
"""

import json
import math
import os
import re
import subprocess
import sys
import zipfile

import pcbnew

KICAD_FP = "/usr/share/kicad/footprints"
HERE = os.path.dirname(os.path.abspath(__file__))
COMPANION = os.path.join(HERE, "footprints", "Companion.pretty")
FIXED_DATE = (1980, 1, 1, 0, 0, 0)


def mm(v):
    return pcbnew.FromMM(v)


def pt(x, y):
    return pcbnew.wxPoint(mm(x), mm(y))


def load_fp(spec):
    lib, name = spec.split(":")
    path = COMPANION if lib == "Companion" else os.path.join(KICAD_FP, lib + ".pretty")
    fp = pcbnew.FootprintLoad(path, name)
    if fp is None:
        raise SystemExit(f"footprint {spec} not found")
    fp.SetFPID(pcbnew.LIB_ID(lib, name))
    return fp


def body_center(fp):
    box = fp.GetBoundingBox(False, False)
    return box.Centre()


def place(fp, x, y, rot, side):
    fp.SetPosition(pcbnew.wxPoint(0, 0))
    if side == "B":
        fp.Flip(pcbnew.wxPoint(0, 0), False)
    fp.SetOrientationDegrees(rot)
    c = body_center(fp)
    fp.SetPosition(pcbnew.wxPoint(mm(x) - c.x, mm(y) - c.y))


def place_by_pins(fp, pins, side):
    """Rotate and move ``fp`` so that its pads land where ``pins`` says ({number: [x, y]}),
    on the ``side`` given ("B": flipped to the bottom, as a HAT's header socket)."""
    nums = list(pins)
    if side == "B":
        fp.Flip(pcbnew.wxPoint(0, 0), False)
    for rot in (0, 90, 180, 270):
        fp.SetPosition(pcbnew.wxPoint(0, 0))
        fp.SetOrientationDegrees(rot)
        pads = {p.GetNumber(): p.GetPosition() for p in fp.Pads()}
        a = pads[nums[0]]
        ok = True
        for n in nums[1:]:
            want = (pins[n][0] - pins[nums[0]][0], pins[n][1] - pins[nums[0]][1])
            got = (pcbnew.ToMM(pads[n].x - a.x), pcbnew.ToMM(pads[n].y - a.y))
            ok = ok and abs(want[0] - got[0]) < 0.01 and abs(want[1] - got[1]) < 0.01
        if ok:
            fp.SetPosition(pcbnew.wxPoint(mm(pins[nums[0]][0]) - a.x, mm(pins[nums[0]][1]) - a.y))
            return
    raise SystemExit(f"{fp.GetReference()}: no rotation puts its pins as asked")


def outline(board, w, h, r):
    def seg(x1, y1, x2, y2):
        s = pcbnew.PCB_SHAPE(board)
        s.SetShape(pcbnew.SHAPE_T_SEGMENT)
        s.SetStart(pt(x1, y1))
        s.SetEnd(pt(x2, y2))
        s.SetLayer(pcbnew.Edge_Cuts)
        s.SetWidth(mm(0.1))
        board.Add(s)

    def arc(cx, cy, a0):
        s = pcbnew.PCB_SHAPE(board)
        s.SetShape(pcbnew.SHAPE_T_ARC)
        p = [(cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a)))
             for a in (a0, a0 + 45, a0 + 90)]
        s.SetArcGeometry(pt(*p[0]), pt(*p[1]), pt(*p[2]))
        s.SetLayer(pcbnew.Edge_Cuts)
        s.SetWidth(mm(0.1))
        board.Add(s)

    seg(r, 0, w - r, 0)
    seg(w, r, w, h - r)
    seg(w - r, h, r, h)
    seg(0, h - r, 0, r)
    if r > 0:
        arc(w - r, r, 270)
        arc(w - r, h - r, 0)
        arc(r, h - r, 90)
        arc(r, r, 180)


def rules(board, r):
    ds = board.GetDesignSettings()
    ds.m_TrackMinWidth = mm(r["track"])
    ds.m_MinClearance = mm(r["clearance"])
    ds.m_ViasMinSize = mm(r["via"])
    ds.m_MinThroughDrill = mm(r["drill"])
    ds.m_ViasMinAnnularWidth = mm(r["annular"])
    ds.m_CopperEdgeClearance = mm(r["edge"])
    ds.m_HoleClearance = mm(r["hole_clearance"])
    ds.m_HoleToHoleMin = mm(r["hole_to_hole"])
    ds.m_SilkClearance = 0
    nc = ds.GetNetClasses().GetDefault()
    nc.SetClearance(mm(r["clearance"]))  # the fab's; the router keeps route_clearance
    nc.SetTrackWidth(mm(r["route_track"]))
    nc.SetViaDiameter(mm(r["via"]))
    nc.SetViaDrill(mm(r["drill"]))


# ---- the Specctra session ---------------------------------------------------------------

def sexp(text):
    tokens = re.findall(r'\(|\)|"[^"]*"|[^\s()]+', text)
    stack = [[]]
    for t in tokens:
        if t == "(":
            stack.append([])
        elif t == ")":
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append(t.strip('"'))
    return stack[0][0]


def find(node, key):
    for child in node[1:]:
        if isinstance(child, list) and child and child[0] == key:
            yield child


def read_ses(board, path, nets, via_d, via_drill):
    tree = sexp(open(path).read())
    routes = next(find(tree, "routes"))
    res = next(find(routes, "resolution"))
    # the coordinates are in the resolution's unit (KiCad's DSN writes um with decimals; the
    # count after the unit is the grid, not a scale)
    per_mm = 1000.0 if res[1] == "um" else 1.0 if res[1] == "mm" else 1 / 0.0254
    layers = {board.GetLayerName(pcbnew.F_Cu): pcbnew.F_Cu, board.GetLayerName(pcbnew.B_Cu): pcbnew.B_Cu,
              "F.Cu": pcbnew.F_Cu, "B.Cu": pcbnew.B_Cu}
    tracks = vias = 0
    net_out = next(find(routes, "network_out"), ["network_out"])
    for net in find(net_out, "net"):
        info = nets[net[1]]
        for wire in find(net, "wire"):
            path_ = next(find(wire, "path"))
            layer, width = layers[path_[1]], float(path_[2]) / per_mm
            xy = [float(v) / per_mm for v in path_[3:]]
            points = [(xy[i], -xy[i + 1]) for i in range(0, len(xy), 2)]
            for (x1, y1), (x2, y2) in zip(points, points[1:], strict=False):
                t = pcbnew.PCB_TRACK(board)
                t.SetStart(pt(x1, y1))
                t.SetEnd(pt(x2, y2))
                t.SetWidth(mm(width))
                t.SetLayer(layer)
                t.SetNet(info)
                board.Add(t)
                tracks += 1
        for via in find(net, "via"):
            v = pcbnew.PCB_VIA(board)
            v.SetPosition(pt(float(via[2]) / per_mm, -float(via[3]) / per_mm))
            v.SetWidth(mm(via_d))
            v.SetDrill(mm(via_drill))
            v.SetLayerPair(pcbnew.F_Cu, pcbnew.B_Cu)
            v.SetNet(info)
            board.Add(v)
            vias += 1
    return tracks, vias


# ---- the companion's own router (boards/route.py) -----------------------------------------

class PadShape:
    """A pad as boards.route sees it (millimetres)."""

    def __init__(self, pad):
        self.net = pad.GetNetname() or None
        self.layers = tuple(layer for layer, cu in ((0, pcbnew.F_Cu), (1, pcbnew.B_Cu))
                            if pad.IsOnLayer(cu))
        self.drill = pcbnew.ToMM(pad.GetDrillSize().x) / 2 if pad.GetDrillSize().x else 0.0
        bb = pad.GetBoundingBox()
        self.bbox = (pcbnew.ToMM(bb.GetX()), pcbnew.ToMM(bb.GetY()),
                     pcbnew.ToMM(bb.GetRight()), pcbnew.ToMM(bb.GetBottom()))
        c = pad.GetPosition()
        self.center = (pcbnew.ToMM(c.x), pcbnew.ToMM(c.y))
        self.poly = pad.GetEffectivePolygon()
        if pad.GetAttribute() == pcbnew.PAD_ATTRIB_NPTH and not self.layers:
            self.layers = (0, 1)

    def hit(self, x, y, margin):
        v = pcbnew.VECTOR2I(mm(x), mm(y))
        if margin <= 0:
            return self.poly.Contains(v)
        return self.poly.Collide(v, mm(margin))


def route_own(board, job):
    sys.path.insert(0, HERE)
    from route import Router

    r = job["rules"]
    w, h = job["size"]
    pads = [PadShape(p) for fp in board.GetFootprints() for p in fp.Pads()]
    router = Router(w, h, pads, track=r["route_track"], clearance=r["route_clearance"],
                    via=r["via"], via_drill=r["drill"], edge=r["edge"],
                    hole_to_hole=r["hole_to_hole"], wide=job.get("power_nets", []),
                    wide_track=r["power_track"])
    failed = router.route_all()
    tracks = vias = 0
    for net in router.nets:
        info = board.FindNet(net)
        for layer, a, b in router.segments(net) + router.stubs.get(net, []):
            t = pcbnew.PCB_TRACK(board)
            t.SetStart(pt(*a))
            t.SetEnd(pt(*b))
            t.SetWidth(mm(router.width(net)))
            t.SetLayer(pcbnew.F_Cu if layer == 0 else pcbnew.B_Cu)
            t.SetNet(info)
            board.Add(t)
            tracks += 1
        for x, y in router.via_points(net):
            v = pcbnew.PCB_VIA(board)
            v.SetPosition(pt(x, y))
            v.SetWidth(mm(r["via"]))
            v.SetDrill(mm(r["drill"]))
            v.SetLayerPair(pcbnew.F_Cu, pcbnew.B_Cu)
            v.SetNet(info)
            board.Add(v)
            vias += 1
    return tracks, vias, failed


# ---- fabrication outputs ----------------------------------------------------------------

DATE_LINE = re.compile(r"(CreationDate|^G04 Created by|^; DRILL file|^;FORMAT|TF\.GenerationSoftware)")


def plot(board, out, name):
    gerber_dir = os.path.join(out, "gerber-tmp")
    os.makedirs(gerber_dir, exist_ok=True)
    for f in os.listdir(gerber_dir):
        os.remove(os.path.join(gerber_dir, f))
    pc = pcbnew.PLOT_CONTROLLER(board)
    po = pc.GetPlotOptions()
    po.SetOutputDirectory(gerber_dir)
    po.SetPlotFrameRef(False)
    po.SetUseGerberProtelExtensions(True)
    po.SetCreateGerberJobFile(False)
    po.SetUseGerberX2format(False)
    po.SetIncludeGerberNetlistInfo(False)
    po.SetSubtractMaskFromSilk(True)
    po.SetExcludeEdgeLayer(True)
    layers = [(pcbnew.F_Cu, "F_Cu"), (pcbnew.B_Cu, "B_Cu"), (pcbnew.F_SilkS, "F_Silkscreen"),
              (pcbnew.B_SilkS, "B_Silkscreen"), (pcbnew.F_Mask, "F_Mask"), (pcbnew.B_Mask, "B_Mask"),
              (pcbnew.F_Paste, "F_Paste"), (pcbnew.B_Paste, "B_Paste"), (pcbnew.Edge_Cuts, "Edge_Cuts")]
    for layer, suffix in layers:
        pc.SetLayer(layer)
        pc.OpenPlotfile(suffix, pcbnew.PLOT_FORMAT_GERBER, suffix)
        pc.PlotLayer()
    pc.ClosePlot()
    ew = pcbnew.EXCELLON_WRITER(board)
    ew.SetOptions(False, False, pcbnew.wxPoint(0, 0), False)
    ew.SetFormat(True)
    ew.CreateDrillandMapFilesSet(gerber_dir, True, False)
    fab = os.path.join(out, "fab")
    os.makedirs(fab, exist_ok=True)
    zpath = os.path.join(fab, f"{name}-gerbers.zip")
    with zipfile.ZipFile(zpath, "w", zipfile.ZIP_DEFLATED) as z:
        for f in sorted(os.listdir(gerber_dir)):
            lines = open(os.path.join(gerber_dir, f), encoding="latin-1").read().splitlines()
            body = "\n".join(line for line in lines if not DATE_LINE.search(line)) + "\n"
            info = zipfile.ZipInfo(f.replace("gerber-tmp", name), FIXED_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, body)
    for f in os.listdir(gerber_dir):
        os.remove(os.path.join(gerber_dir, f))
    os.rmdir(gerber_dir)
    return zpath


def drc(board, path):
    pcbnew.WriteDRCReport(board, path, pcbnew.EDA_UNITS_MILLIMETRES, True)
    text = open(path).read()
    v = int(re.search(r"Found (\d+) DRC violations", text).group(1))
    u = int(re.search(r"Found (\d+) unconnected pads", text).group(1))
    # the report's first lines carry the date and the path: drop them for a stable file
    lines = [line for line in text.splitlines() if not line.startswith(("** Created on", "** Drc report for"))]
    open(path, "w").write("\n".join(lines) + "\n")
    return v, u


def geometry(board):
    """What the PNG picture draws: pads, tracks, vias, the outline and the silk texts."""
    g = {"pads": [], "tracks": [], "vias": [], "edges": [], "texts": [], "silk": []}
    for fp in board.GetFootprints():
        for p in fp.Pads():
            poly = p.GetEffectivePolygon()
            outline_ = poly.Outline(0)
            pts = [pcbnew.ToMM(outline_.CPoint(i)) for i in range(outline_.PointCount())]
            layers = "both" if p.GetAttribute() in (pcbnew.PAD_ATTRIB_PTH, pcbnew.PAD_ATTRIB_NPTH) else (
                "F" if p.IsOnLayer(pcbnew.F_Cu) else "B")
            drill = pcbnew.ToMM(p.GetDrillSize().x) if p.GetDrillSize().x else 0
            g["pads"].append({"pts": [list(q) for q in pts], "layer": layers, "drill": drill,
                              "at": list(pcbnew.ToMM(p.GetPosition()))})
        for item in [fp.Reference()] + list(fp.GraphicalItems()):
            if item.GetLayer() != pcbnew.F_SilkS or not item.IsVisible() if hasattr(item, "IsVisible") else False:
                continue
            if isinstance(item, pcbnew.FP_TEXT):
                g["texts"].append({"at": list(pcbnew.ToMM(item.GetTextPos())), "text": item.GetShownText(),
                                   "size": pcbnew.ToMM(item.GetTextHeight()),
                                   "angle": item.GetDrawRotation() / 10})
            elif isinstance(item, pcbnew.FP_SHAPE) and item.GetShape() == pcbnew.SHAPE_T_SEGMENT:
                g["silk"].append([list(pcbnew.ToMM(item.GetStart())), list(pcbnew.ToMM(item.GetEnd()))])
    for d in board.GetDrawings():
        if d.GetLayer() == pcbnew.Edge_Cuts and d.GetShape() == pcbnew.SHAPE_T_ARC:
            a, m, b = (list(pcbnew.ToMM(p)) for p in (d.GetStart(), d.GetArcMid(), d.GetEnd()))
            g["edges"] += [[a, m], [m, b]]
        elif d.GetLayer() == pcbnew.Edge_Cuts:
            g["edges"].append([list(pcbnew.ToMM(d.GetStart())), list(pcbnew.ToMM(d.GetEnd()))])
        elif d.GetLayer() == pcbnew.F_SilkS and isinstance(d, pcbnew.PCB_TEXT):
            g["texts"].append({"at": list(pcbnew.ToMM(d.GetTextPos())), "text": d.GetShownText(),
                               "size": pcbnew.ToMM(d.GetTextHeight()), "angle": d.GetTextAngle() / 10})
    for t in board.GetTracks():
        if isinstance(t, pcbnew.PCB_VIA):
            g["vias"].append({"at": list(pcbnew.ToMM(t.GetPosition())), "d": pcbnew.ToMM(t.GetWidth())})
        else:
            g["tracks"].append({"a": list(pcbnew.ToMM(t.GetStart())), "b": list(pcbnew.ToMM(t.GetEnd())),
                                "w": pcbnew.ToMM(t.GetWidth()),
                                "layer": "F" if t.GetLayer() == pcbnew.F_Cu else "B"})
    return g


def silk_text(board, text, x, y, size=1.0, rot=0):
    t = pcbnew.PCB_TEXT(board)
    t.SetText(text)
    t.SetPosition(pt(x, y))
    t.SetLayer(pcbnew.F_SilkS)
    t.SetTextSize(pcbnew.wxSize(mm(size), mm(size)))
    t.SetTextThickness(mm(size * 0.15))
    t.SetTextAngle(rot * 10)
    board.Add(t)


def main(job_path):
    job = json.load(open(job_path))
    pcbnew.KIID.SeedGenerator(1)  # the same item ids on every run: the same board file
    netlist = json.load(open(job["netlist"]))
    out = job["out"]
    name = netlist["name"]
    board = pcbnew.BOARD()
    rules(board, job["rules"])
    nets = {}
    for net in netlist["nets"]:
        info = pcbnew.NETINFO_ITEM(board, net)
        board.Add(info)
        nets[net] = info
    fps = {}
    for part in netlist["parts"]:
        fp = load_fp(part["footprint"])
        fp.SetReference(part["ref"])
        fp.SetValue(part["value"])
        if part["footprint"].startswith("MountingHole:"):
            fp.Reference().SetVisible(False)
        board.Add(fp)
        for pad in fp.Pads():
            pin = part["pins"].get(pad.GetNumber())
            if pin and pin["net"]:
                pad.SetNet(nets[pin["net"]])
        fps[part["ref"]] = fp
    for ref, spec in job["placement"].items():
        fp = fps[ref]
        if "pins" in spec:
            place_by_pins(fp, spec["pins"], spec.get("side", "F"))
        else:
            place(fp, spec["x"], spec["y"], spec.get("rot", 0), spec.get("side", "F"))
    missing = sorted(set(fps) - set(job["placement"]))
    if missing:
        raise SystemExit(f"{name}: no place for {', '.join(missing)}")
    w, h = job["size"]
    outline(board, w, h, job.get("corner", 0))
    for t in job.get("texts", []):
        silk_text(board, t["text"], t["x"], t["y"], t.get("size", 1.0), t.get("rot", 0))
    board.BuildConnectivity()
    pcb_path = os.path.join(out, f"{name}.kicad_pcb")
    dsn = os.path.join(job["tmp"], f"{name}.dsn")
    ses = os.path.join(job["tmp"], f"{name}.ses")
    board.Save(pcb_path)
    board = pcbnew.LoadBoard(pcb_path)
    if job.get("router", "own") == "own":
        tracks, vias, failed = route_own(board, job)
        if failed:
            print(f"{name}: not routed: {', '.join(failed)}", file=sys.stderr)
    else:
        tracks, vias = route_freeroute(board, job, name, dsn, ses, netlist)
    board.BuildConnectivity()
    board.Save(pcb_path)
    for extra in (".kicad_prl",):
        junk = pcb_path.replace(".kicad_pcb", extra)
        if os.path.exists(junk):
            os.remove(junk)
    board = pcbnew.LoadBoard(pcb_path)
    violations, unconnected = drc(board, os.path.join(job["tmp"], f"{name}-drc.txt"))
    finish(board, job, name, out, h, tracks, vias, violations, unconnected)


def route_freeroute(board, job, name, dsn, ses, netlist):
    """The same board routed by the freeroute package through Specctra DSN/SES (kept to
    compare: hardware/boards.md gives its measured design-rule counts)."""
    if not pcbnew.ExportSpecctraDSN(board, dsn):
        raise SystemExit("the Specctra DSN export failed")
    cache = os.environ.get("HARDWARE_SES_CACHE")  # a folder of routed sessions, for trying placements
    cached = os.path.join(cache, f"{name}.ses") if cache else None
    def design(path):  # the DSN without the lines that name its own file
        return [line for line in open(path) if job["tmp"] not in line]

    if cached and os.path.exists(cached) and design(cached + ".dsn") == design(dsn):
        ses = cached
    else:
        args = os.environ.get("HARDWARE_FREEROUTE_ARGS")
        args = args.split() if args is not None else job.get("freeroute_args", [])
        subprocess.run([job["freeroute"], dsn, "-o", ses] + args,
                       check=True, stdout=subprocess.DEVNULL)
        if cached:
            import shutil
            shutil.copy(ses, cached)
            shutil.copy(dsn, cached + ".dsn")
    nets = {n: board.FindNet(n) for n in netlist["nets"]}
    return read_ses(board, ses, nets, job["rules"]["via"], job["rules"]["drill"])


def finish(board, job, name, out, h, tracks, vias, violations, unconnected):
    zpath = plot(board, out, name)
    pos = []
    for fp in sorted(board.GetFootprints(), key=lambda f: f.GetReference()):
        c = fp.GetPosition()
        pos.append({"ref": fp.GetReference(), "x": round(pcbnew.ToMM(c.x), 3),
                    "y": round(h - pcbnew.ToMM(c.y), 3),
                    "rot": round(fp.GetOrientationDegrees() % 360, 1),
                    "side": "bottom" if fp.IsFlipped() else "top",
                    "package": fp.GetFPID().GetLibItemName().wx_str()})
    parts = {}
    for fp in sorted(board.GetFootprints(), key=lambda f: f.GetReference()):
        box = fp.GetBoundingBox(False, False)
        c = box.Centre()
        parts[fp.GetReference()] = {
            "origin": [round(v, 3) for v in pcbnew.ToMM(fp.GetPosition())],
            "center": [round(pcbnew.ToMM(c.x), 3), round(pcbnew.ToMM(c.y), 3)],
            "size": [round(pcbnew.ToMM(box.GetWidth()), 3), round(pcbnew.ToMM(box.GetHeight()), 3)],
            "rotation": round(fp.GetOrientationDegrees() % 360, 1),
            "side": "bottom" if fp.IsFlipped() else "top",
            "footprint": fp.GetFPID().GetUniStringLibId(),
        }
    mech = {"units": "mm, x right and y down from the board's top-left corner (as in the .kicad_pcb)",
            "board": [w_ for w_ in job["size"]], "parts": parts}
    with open(os.path.join(out, "mechanical.json"), "w") as f:
        json.dump(mech, f, indent=1, sort_keys=True)
        f.write("\n")
    report = {"tracks": tracks, "vias": vias, "drc_violations": violations,
              "unconnected": unconnected, "zip": zpath, "pos": pos,
              "layers": board.GetCopperLayerCount(), "geometry": geometry(board)}
    bb = board.GetBoardEdgesBoundingBox()
    line = 0.1  # the outline's own width, which the bounding box includes
    report["size"] = [round(pcbnew.ToMM(bb.GetWidth()) - line, 2), round(pcbnew.ToMM(bb.GetHeight()) - line, 2)]
    json.dump(report, open(os.path.join(job["tmp"], f"{name}-pcb.json"), "w"))


if __name__ == "__main__":
    main(sys.argv[1])
