"""Small solid-building helpers over manifold3d, and the mesh form the checks and files use."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import trimesh
from manifold3d import CrossSection, JoinType, Manifold

SEGMENTS = 64


def box(x0: float, y0: float, z0: float, x1: float, y1: float, z1: float) -> Manifold:
    """The axis-aligned box between two corners."""
    return Manifold.cube((x1 - x0, y1 - y0, z1 - z0)).translate((x0, y0, z0))


def rounded_box(x0: float, y0: float, z0: float, x1: float, y1: float, z1: float,
                radius: float) -> Manifold:
    """A box whose vertical edges are rounded with ``radius``."""
    inner = CrossSection.square((x1 - x0 - 2 * radius, y1 - y0 - 2 * radius))
    outline = inner.offset(radius, JoinType.Round, circular_segments=SEGMENTS)
    return outline.extrude(z1 - z0).translate((x0 + radius, y0 + radius, z0))


def cylinder(x: float, y: float, z0: float, z1: float, diameter: float,
             segments: int = SEGMENTS) -> Manifold:
    """An upright cylinder standing on (x, y, z0)."""
    return Manifold.cylinder(z1 - z0, diameter / 2, circular_segments=segments).translate(
        (x, y, z0))


def union(parts: Iterable[Manifold]) -> Manifold:
    items = list(parts)
    return Manifold.batch_boolean(items, _add()) if items else Manifold()


def _add():  # type: ignore[no-untyped-def]
    from manifold3d import OpType
    return OpType.Add


def to_trimesh(solid: Manifold) -> trimesh.Trimesh:
    mesh = solid.to_mesh()
    vertices = np.asarray(mesh.vert_properties)[:, :3].astype(np.float64)
    faces = np.asarray(mesh.tri_verts).astype(np.int64)
    return trimesh.Trimesh(vertices=vertices, faces=faces, process=True)


def from_trimesh(mesh: trimesh.Trimesh) -> Manifold:
    from manifold3d import Mesh
    return Manifold(Mesh(vert_properties=np.asarray(mesh.vertices, dtype=np.float32),
                         tri_verts=np.asarray(mesh.faces, dtype=np.uint32)))
