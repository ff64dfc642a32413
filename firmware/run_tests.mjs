// Runs the dice firmware's logic tests (tests/firmware) under real MicroPython:
// the WebAssembly port from npm, in Node.  `make firmware-check` calls it.
//
//   node firmware/run_tests.mjs [--root DIR] [-k SUBSTRING] [-v]
//
// The firmware (firmware/**/*.py, the protocol vectors) and the tests are
// copied into MicroPython's in-memory filesystem under /repo with the same
// layout as the checkout, then every test_* function of every tests/firmware
// module is called, except modules whose first line is "# cpython-only".
// Exit code 0 when all passed, 1 when any failed or none ran.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

const here = path.dirname(fileURLToPath(import.meta.url));
let root = path.resolve(here, "..");
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

const pyOrJson = (name) => name.endsWith(".py") || name.endsWith(".json");
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
sys.path.insert(0, "/repo/firmware")
passed = 0
failed = 0
skipped = []
for name in sorted(os.listdir("/repo/tests/firmware")):
    if not (name.startswith("test_") and name.endswith(".py")):
        continue
    with open("/repo/tests/firmware/" + name) as handle:
        first = handle.readline()
    if first.startswith("# cpython-only"):
        skipped.append(name)
        continue
    module_name = "tests.firmware." + name[:-3]
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
