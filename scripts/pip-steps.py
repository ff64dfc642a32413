"""Run ``pip install ARGS...`` and show how far it is: one line per package it collects.

`make run` and `make test` call it on their first run, which installs the companion and its
libraries into .venv (a minute or two): without it the terminal showed nothing meanwhile.
pip's own lines go to .venv/pip.log; a failure prints the log's tail and pip's exit code.
"""

from __future__ import annotations

import subprocess
import sys
from collections import deque
from pathlib import Path


def main(argv: list[str]) -> int:
    log = Path(".venv") / "pip.log"
    cmd = [sys.executable, "-m", "pip", "install", "--disable-pip-version-check",
           "--progress-bar", "off", *argv]
    tail: deque[str] = deque(maxlen=30)
    count = 0
    with log.open("w", encoding="utf-8") as out, subprocess.Popen(
            cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1) as pip:
        assert pip.stdout is not None
        for line in pip.stdout:
            out.write(line)
            tail.append(line)
            words = line.split()
            if line.startswith("Collecting ") and len(words) > 1:
                count += 1
                print(f"  {count:3d}. {words[1]}", flush=True)
            elif line.startswith("Installing collected packages"):
                print(f"  installing {count} packages into .venv…", flush=True)
            elif line.startswith("Successfully installed"):
                print("  done.", flush=True)
    if pip.returncode:
        sys.stderr.write("".join(tail))
        print(f"pip failed (exit {pip.returncode}); its whole output is in {log}.",
              file=sys.stderr)
    return pip.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
