"""The SD-card image of scripts/pi-image.sh, read and changed without mounting anything.

The partition table through ``sfdisk --json``; the FAT partition through mtools
(``IMAGE@@OFFSET``); the ext4 root partition through e2fsprogs (``IMAGE?offset=BYTES``:
``debugfs``, ``e2fsck``, ``dumpe2fs``).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

SECTOR = 512
MTOOLS_ENV = {**os.environ, "MTOOLS_SKIP_CHECK": "1"}


class CardError(Exception):
    """One sentence saying what is wrong with the card."""


@dataclass(frozen=True)
class Partition:
    start: int  # bytes
    size: int  # bytes
    type: str
    bootable: bool


def partitions(image: Path) -> tuple[str, list[Partition]]:
    """The card's partition table: its label ("dos", "gpt") and partitions."""
    out = subprocess.run(["sfdisk", "--json", str(image)], capture_output=True, text=True,
                         timeout=60)
    if out.returncode != 0:
        raise CardError(f"sfdisk cannot read a partition table on {image.name}.")
    table = json.loads(out.stdout)["partitiontable"]
    parts = [Partition(p["start"] * SECTOR, p["size"] * SECTOR, p["type"].lower(),
                       bool(p.get("bootable"))) for p in table.get("partitions", [])]
    return table["label"], parts


def card_layout(image: Path) -> tuple[Partition, Partition]:
    """(FAT, root) of a card laid out as pi-image.sh does, or :class:`CardError`."""
    label, parts = partitions(image)
    if label != "dos":
        raise CardError(f"the card has a {label} partition table; the Pi 3's boot ROM reads "
                        "only an MS-DOS (MBR) one.")
    if len(parts) != 2:
        raise CardError(f"the card has {len(parts)} partitions, not 2 (FAT, root).")
    fat, root = parts
    if fat.type != "c" or not fat.bootable:
        raise CardError(f"partition 1 is of type {fat.type}{'' if fat.bootable else ', not bootable'}; "
                        "the Pi's firmware wants a bootable FAT32 (LBA) one, type c.")
    if root.type != "83":
        raise CardError(f"partition 2 is of type {root.type}, not 83 (Linux).")
    if fat.start % (1 << 20) or root.start < fat.start + fat.size:
        raise CardError("the partitions are not aligned to 1 MiB or overlap.")
    if root.start + root.size > image.stat().st_size:
        raise CardError("partition 2 ends after the end of the image.")
    return fat, root


# --- the FAT partition ------------------------------------------------------------------------


def _mtools(image: Path, part: Partition) -> str:
    return f"{image}@@{part.start}"


def fat_names(image: Path, part: Partition) -> list[str]:
    """The names in the FAT partition's top folder."""
    out = subprocess.run(["mdir", "-b", "-i", _mtools(image, part), "::/"], capture_output=True,
                         text=True, env=MTOOLS_ENV, timeout=60)
    if out.returncode != 0:
        raise CardError(f"mtools cannot read the FAT partition ({out.stderr.strip()}).")
    return sorted(line.strip().removeprefix("::/") for line in out.stdout.splitlines()
                  if line.strip())


def fat_read(image: Path, part: Partition, name: str) -> bytes:
    out = subprocess.run(["mcopy", "-n", "-i", _mtools(image, part), f"::/{name}", "-"],
                         capture_output=True, env=MTOOLS_ENV, timeout=120)
    if out.returncode != 0:
        raise CardError(f"{name} cannot be read from the FAT partition.")
    return out.stdout


def fat_write(image: Path, part: Partition, name: str, data: bytes) -> None:
    with tempfile.NamedTemporaryFile() as tmp:
        tmp.write(data)
        tmp.flush()
        subprocess.run(["mcopy", "-o", "-i", _mtools(image, part), tmp.name, f"::/{name}"],
                       check=True, capture_output=True, env=MTOOLS_ENV, timeout=120)


def fat_check(image: Path, part: Partition) -> None:
    """fsck.fat, read-only, on the FAT partition (copied out: it takes no offset)."""
    with tempfile.TemporaryDirectory(dir=image.parent) as tmp:
        copy = Path(tmp) / "fat.img"
        extract(image, part, copy)
        out = subprocess.run(["fsck.fat", "-n", str(copy)], capture_output=True, text=True,
                             timeout=120)
    if out.returncode != 0:
        raise CardError(f"fsck.fat finds faults on the FAT partition: {out.stdout.strip()[-200:]}")


def extract(image: Path, part: Partition, dest: Path) -> None:
    subprocess.run(["dd", f"if={image}", f"of={dest}", "bs=1M", "conv=sparse", "status=none",
                    f"skip={part.start}", f"count={part.size}", "iflag=skip_bytes,count_bytes"],
                   check=True, timeout=600)


# --- the root partition -----------------------------------------------------------------------


def _ext(image: Path, part: Partition) -> str:
    return f"{image}?offset={part.start}"


def debugfs(image: Path, part: Partition, *requests: str, write: bool = False) -> str:
    """Run ``debugfs`` requests on the root partition; their output."""
    with tempfile.NamedTemporaryFile("w", suffix=".debugfs") as cmds:
        cmds.write("\n".join(requests) + "\n")
        cmds.flush()
        out = subprocess.run(["debugfs", *(["-w"] if write else []), "-f", cmds.name,
                              _ext(image, part)], capture_output=True, text=True, timeout=300)
    if out.returncode != 0:
        raise CardError(f"debugfs cannot open the root partition ({out.stderr.strip()[-200:]}).")
    return out.stdout


def ext_read(image: Path, part: Partition, path: str) -> bytes:
    with tempfile.TemporaryDirectory() as tmp:
        dest = Path(tmp) / "file"
        debugfs(image, part, f"dump {path} {dest}")
        if not dest.exists():
            raise CardError(f"{path} is not on the root partition.")
        return dest.read_bytes()


def ext_exists(image: Path, part: Partition, path: str) -> bool:
    out = debugfs(image, part, f"stat {path}")
    return "Inode:" in out


def ext_symlink(image: Path, part: Partition, path: str) -> str | None:
    """Where the symlink ``path`` points, or None."""
    out = debugfs(image, part, f"stat {path}")
    m = re.search(r'Fast link dest: "([^"]*)"', out)
    return m.group(1) if m else None


def ext_superblock(image: Path, part: Partition) -> dict[str, str]:
    out = subprocess.run(["dumpe2fs", "-h", _ext(image, part)], capture_output=True, text=True,
                         timeout=120)
    if out.returncode != 0:
        raise CardError("partition 2 holds no ext4 file system.")
    fields = {}
    for line in out.stdout.splitlines():
        key, sep, value = line.partition(":")
        if sep:
            fields[key.strip()] = value.strip()
    return fields


def ext_check(image: Path, part: Partition) -> None:
    out = subprocess.run(["e2fsck", "-f", "-n", _ext(image, part)], capture_output=True,
                         text=True, timeout=900)
    if out.returncode != 0:
        raise CardError(f"e2fsck finds faults on the root partition: {out.stdout.strip()[-200:]}")


def passwd_ids(image: Path, part: Partition, user: str) -> tuple[int, int]:
    """(uid, gid) of ``user`` in the root partition's /etc/passwd."""
    for line in ext_read(image, part, "/etc/passwd").decode().splitlines():
        fields = line.split(":")
        if fields[0] == user:
            return int(fields[2]), int(fields[3])
    raise CardError(f"the root partition has no user {user}.")


def ext_put(image: Path, part: Partition, files: dict[str, tuple[bytes, int, int, int]],
            folders: dict[str, tuple[int, int, int]]) -> None:
    """Write folders (path -> (mode, uid, gid)) and files (path -> (data, mode, uid, gid)) into
    the root partition (folders first, in the order given; existing ones are kept)."""
    with tempfile.TemporaryDirectory() as tmp:
        requests = []
        for path, (mode, uid, gid) in folders.items():
            requests += [f"mkdir {path}", f"sif {path} mode 0{0o40000 | mode:o}",
                         f"sif {path} uid {uid}", f"sif {path} gid {gid}"]
        for n, (path, (data, mode, uid, gid)) in enumerate(files.items()):
            local = Path(tmp) / str(n)
            local.write_bytes(data)
            requests += [f"rm {path}", f"write {local} {path}",
                         f"sif {path} mode 0{0o100000 | mode:o}",
                         f"sif {path} uid {uid}", f"sif {path} gid {gid}"]
        debugfs(image, part, *requests, write=True)
        for path, (data, _, _, _) in files.items():
            if ext_read(image, part, path) != data:
                raise CardError(f"{path} could not be written into the root partition.")
