// Runs the boards' firmware tests (tests/firmware/<board>/) under real
// MicroPython: the WebAssembly port from npm, in Node.  `make firmware-check`
// calls it.
//
//   node tests/firmware/run_tests.mjs [--root DIR] [-k SUBSTRING] [-v]
//
// The firmware (firmware/**) and the tests with their data (this
// folder, the protocol vectors among it; not the Node files) are copied into
// MicroPython's in-memory filesystem under /repo with the same layout as the
// checkout (.py and .json files), then
// every test_* function of every module in tests/firmware and its board
// folders is called, except modules whose first line is "# cpython-only".
// Each board's test package puts its board folder on sys.path itself.
// Exit code 0 when all passed, 1 when any failed or none ran.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

const here = path.dirname(fileURLToPath(import.meta.url));
let root = path.resolve(here, "..", "..");
let filter = "";
let verbose = false;
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--root") root = path.resolve(args[++i]);
  else if (args[i] === "-k") filter = args[++i];
  else if (args[i] === "-v") verbose = true;
  else {
    console.error(`run_tests: unknown argument ${args[i]}`);
    process.exit(2);
  }
}

const mp = await loadMicroPython({
  heapsize: 64 * 1024 * 1024,
  stdout: (line) => process.stdout.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
});

function copyTree(from, to, keep) {
  mp.FS.mkdirTree(to);
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name === "__pycache__") continue;
    const source = path.join(from, entry.name);
    const target = `${to}/${entry.name}`;
    if (entry.isDirectory()) copyTree(source, target, keep);
    else if (keep(entry.name)) mp.FS.writeFile(target, fs.readFileSync(source));
  }
}

const pyOrJson = (name) =>
  (name.endsWith(".py") || name.endsWith(".json")) && !name.startsWith("package");
copyTree(path.join(root, "firmware"), "/repo/firmware", pyOrJson);
copyTree(path.join(root, "tests", "firmware"), "/repo/tests/firmware", pyOrJson);
mp.FS.writeFile("/repo/tests/__init__.py", "");

mp.globals.set("test_filter", filter);
mp.globals.set("verbose", verbose);
try {
  mp.runPython(`
import os
import sys
import time

sys.path.insert(0, "/repo")
TESTS = "/repo/tests/firmware"


def test_files():
    """(relative path, module name) of every test module: tests/firmware and its board folders."""
    found = []
    for name in sorted(os.listdir(TESTS)):
        if name.startswith("test_") and name.endswith(".py"):
            found.append((name, "tests.firmware." + name[:-3]))
        elif os.stat(TESTS + "/" + name)[0] & 0x4000:  # a board's folder
            for inner in sorted(os.listdir(TESTS + "/" + name)):
                if inner.startswith("test_") and inner.endswith(".py"):
                    found.append((name + "/" + inner, "tests.firmware." + name + "." + inner[:-3]))
    return found


passed = 0
failed = 0
skipped = []
for name, module_name in test_files():
    with open(TESTS + "/" + name) as handle:
        first = handle.readline()
    if first.startswith("# cpython-only"):
        skipped.append(name)
        continue
    try:
        module = __import__(module_name, None, None, ["_"])
    except Exception as exc:
        failed += 1
        print("FAIL " + module_name + " (import)")
        sys.print_exception(exc)
        continue
    for attr in sorted(dir(module)):
        test = getattr(module, attr)
        if not attr.startswith("test_") or not callable(test):
            continue
        full = module_name + "::" + attr
        if test_filter and test_filter not in full:
            continue
        start = time.ticks_ms()
        try:
            test()
        except Exception as exc:
            failed += 1
            print("FAIL " + full)
            sys.print_exception(exc)
        else:
            passed += 1
            if verbose:
                print("ok   " + full + " (" + str(time.ticks_diff(time.ticks_ms(), start)) + " ms)")
impl = sys.implementation
print("MicroPython " + ".".join(str(v) for v in impl.version[:3]) + " (" + impl._machine + "); left to CPython: " + (", ".join(skipped) or "none"))
print("firmware tests under MicroPython: " + str(passed) + " passed, " + str(failed) + " failed")
`);
} catch (error) {
  console.error(error.message || error);
  process.exit(1);
}
const passed = mp.globals.get("passed");
const failed = mp.globals.get("failed");
process.exit(failed === 0 && passed > 0 ? 0 : 1);
