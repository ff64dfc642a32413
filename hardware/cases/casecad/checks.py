"""Measurements the tests make on the parts: wall thickness, overlaps, gaps."""

from __future__ import annotations

import numpy as np
import trimesh
from manifold3d import Manifold

from .shapes import to_trimesh

FACING = 0.5   # cos 60°: the far face must face back along the ray within 60°


def wall_thickness(mesh: trimesh.Trimesh) -> np.ndarray:
    """For every triangle, the distance straight into the material from its centre to the
    next surface (a ray along the inward normal): the wall's thickness there.

    A ray that leaves through a surface turned more than 60° away from it has crossed a
    rounded edge or a taper, not a wall (near a fillet such a ray is as short as one
    likes); those triangles read infinity."""
    normals = mesh.face_normals
    origins = mesh.triangles_center - normals * 1e-4
    locations, index_ray, index_tri = mesh.ray.intersects_location(origins, -normals,
                                                                   multiple_hits=False)
    thickness = np.full(len(origins), np.inf)
    distances = np.linalg.norm(locations - origins[index_ray], axis=1) + 1e-4
    across = np.einsum("ij,ij->i", mesh.face_normals[index_tri], -normals[index_ray]) >= FACING
    np.minimum.at(thickness, index_ray[across], distances[across])
    return thickness


def thinnest_wall(solid: Manifold) -> tuple[float, np.ndarray]:
    """The thinnest wall of ``solid`` and where it is (the triangle's centre)."""
    mesh = to_trimesh(solid)
    thickness = wall_thickness(mesh)
    i = int(np.argmin(thickness))
    return float(thickness[i]), mesh.triangles_center[i]


def overlap(a: Manifold, b: Manifold) -> float:
    """The volume two solids share (mm³)."""
    return float((a ^ b).volume())


def overlapping_pairs(parts: dict[str, Manifold], tolerance: float = 1e-3
                      ) -> list[tuple[str, str, float]]:
    """Every pair of parts that share more than ``tolerance`` mm³."""
    names = sorted(parts)
    found = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            volume = overlap(parts[a], parts[b])
            if volume > tolerance:
                found.append((a, b, volume))
    return found


def gap(a: Manifold, b: Manifold, search: float = 20.0) -> float:
    """The smallest distance between two solids (``search`` if they are further apart)."""
    return float(a.min_gap(b, search))
