#!/usr/bin/env python3
"""Writes a project whose policy has many `[[exclude]]` entries and whose LCOV tracefile names
many files, for timing the scope decisions (docs/performance.md, "Exclusions matched by literal
parts"):

    python3 ci/gen-exclusions.py DIR [--modules 1000] [--stale 0]
    cd DIR && covgate check big.lcov --format json

DIR gets `src/mNNN/` for each module (100 files each: 90 `fileFF.rs`, 5 `vendor/vFF.rs`, 5
`gen/gen_NNN_F.rs`), `big.lcov` (every file, one covered line) and `coverage-policy.toml` with
5 entries per module (1,000 modules: 5,000 entries): a literal path, `**/gen_NNN_0.rs`,
`src/mNNN/vendor/**`, `src/mNNN/file1?.rs` and `src/mNNN/{file2[0-4],file3[5-9]}.rs`. With
`--stale N`, N more entries match nothing (`**/gone_N.rs`), so the check fails listing them."""

import argparse
import pathlib


def main() -> None:
    args = argparse.ArgumentParser()
    args.add_argument("dir", type=pathlib.Path)
    args.add_argument("--modules", type=int, default=1000)
    args.add_argument("--stale", type=int, default=0)
    a = args.parse_args()
    root = a.dir
    files = []
    for m in range(a.modules):
        base = root / "src" / f"m{m:03}"
        (base / "vendor").mkdir(parents=True, exist_ok=True)
        (base / "gen").mkdir(parents=True, exist_ok=True)
        names = [f"file{f:02}.rs" for f in range(90)]
        names += [f"vendor/v{f:02}.rs" for f in range(5)]
        names += [f"gen/gen_{m:03}_{f}.rs" for f in range(5)]
        for name in names:
            path = base / name
            path.write_text("fn f() {}\n")
            files.append(path.relative_to(root).as_posix())
    with open(root / "big.lcov", "w") as out:
        for rel in files:
            out.write(f"SF:{rel}\nFN:1,f\nFNDA:1,f\nFNF:1\nFNH:1\nDA:1,1\nLF:1\nLH:1\nend_of_record\n")
    entries = []
    for m in range(a.modules):
        entries.append((f"src/m{m:03}/file0{m % 10}.rs", "literal"))
        entries.append((f"**/gen_{m:03}_0.rs", "generated"))
        entries.append((f"src/m{m:03}/vendor/**", "vendored"))
        entries.append((f"src/m{m:03}/file1?.rs", "wild name"))
        entries.append((f"src/m{m:03}/{{file2[0-4],file3[5-9]}}.rs", "alternation"))
    entries += [(f"**/gone_{n}.rs", "stale") for n in range(a.stale)]
    with open(root / "coverage-policy.toml", "w") as out:
        out.write('[measure]\ninclude = ["src/**/*.rs"]\nmetrics = ["functions", "lines"]\n')
        out.write("threshold = 100\n")
        for glob, reason in entries:
            out.write(f'\n[[exclude]]\npath = "{glob}"\nreason = "{reason}"\n')


if __name__ == "__main__":
    main()
