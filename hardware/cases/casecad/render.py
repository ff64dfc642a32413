"""PNG pictures of the parts and of the assembly steps, drawn with matplotlib (no GPU, no
display): the triangles that face the viewer, each shaded by how much it faces a light above the viewer."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import trimesh  # noqa: E402
from mpl_toolkits.mplot3d.art3d import Poly3DCollection  # noqa: E402


def render(meshes: list[tuple[trimesh.Trimesh, str]], path: Path, title: str,
           elev: float = 28.0, azim: float = -60.0, size: float = 6.0) -> None:
    """Draw ``meshes`` (each with a colour) into ``path``, one light, equal axes."""
    fig = plt.figure(figsize=(size, size), dpi=110)
    ax = fig.add_subplot(111, projection="3d", computed_zorder=False)
    lows, highs = [], []
    e, a = np.radians(elev), np.radians(azim)
    towards_viewer = np.array([np.cos(e) * np.cos(a), np.cos(e) * np.sin(a), np.sin(e)])
    light = towards_viewer + np.array([0.3, -0.2, 0.9])
    light /= np.linalg.norm(light)
    triangles, colours = [], []
    extent = max(float(np.max(m.bounds[1] - m.bounds[0])) for m, _ in meshes)
    for mesh, colour in meshes:
        # small triangles, so that ordering them by depth draws what is in front on top
        v, f = trimesh.remesh.subdivide_to_size(mesh.vertices, mesh.faces, extent / 24,
                                                max_iter=12)
        mesh = trimesh.Trimesh(v, f, process=False)
        base = np.array(matplotlib.colors.to_rgb(colour))
        facing = mesh.face_normals @ towards_viewer > 1e-6      # the faces the viewer sees
        normals = mesh.face_normals[facing]
        shade = 0.25 + 0.75 * np.clip(normals @ light, 0, 1)
        colours.append(np.clip(base[None, :] * shade[:, None], 0, 1))
        triangles.append(mesh.triangles[facing])
        lows.append(mesh.bounds[0])
        highs.append(mesh.bounds[1])
    # one collection, so that matplotlib orders every triangle by depth, whichever part
    ax.add_collection3d(Poly3DCollection(np.concatenate(triangles),
                                         facecolors=np.concatenate(colours),
                                         edgecolors=np.concatenate(colours),
                                         linewidths=0.3))
    lo, hi = np.min(lows, axis=0), np.max(highs, axis=0)
    centre, half = (lo + hi) / 2, float(np.max(hi - lo)) / 2
    ax.set_xlim(centre[0] - half, centre[0] + half)
    ax.set_ylim(centre[1] - half, centre[1] + half)
    ax.set_zlim(centre[2] - half, centre[2] + half)
    ax.set_box_aspect((1, 1, 1))
    ax.view_init(elev=elev, azim=azim)
    ax.set_axis_off()
    ax.set_title(title, fontsize=11)
    fig.subplots_adjust(0, 0, 1, 0.95)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)
