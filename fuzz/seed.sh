#!/usr/bin/env bash
# Copies seed inputs from the repository's fixtures into fuzz/corpus/<target>/ (gitignored).
# Existing corpus files are kept, so a corpus grown by earlier runs is not lost.
#
# Usage: fuzz/seed.sh        (from anywhere in the repository)
set -euo pipefail
cd "$(dirname "$0")/.."

corpus=fuzz/corpus
mkdir -p "$corpus"/{llvm_json,lcov,policy,ignore_scan,channels}

# Copies each file to DIR under a name made from its path, so fixtures with one name don't clash.
seed() {
    local dir=$1
    shift
    for file in "$@"; do
        cp "$file" "$corpus/$dir/$(echo "$file" | tr '/' '_')"
    done
}

mapfile -t json < <(find tests/fixtures demo -name '*.json' -type f | sort)
mapfile -t lcov < <(find tests/fixtures demo -type f \( -name '*.info' -o -name '*.lcov' -o -name '*.dat' \) -size +0 | sort)
mapfile -t policies < <(find coverage-policy.toml demo tests -name coverage-policy.toml -type f | sort)
mapfile -t sources < <(find src tests/fixtures/cases tests/crates demo -type f \
    \( -name '*.rs' -o -name '*.c' -o -name '*.py' -o -name '*.sh' \) | sort)

seed llvm_json "${json[@]}"
seed lcov "${lcov[@]}"
seed policy "${policies[@]}"
# One policy that uses every key.
cat >"$corpus/policy/every_key.toml" <<'TOML'
root = "."

[measure]
include = ["src/**/*.rs", "lib/{a,b}/[abc]?.rs"]
metrics = ["regions", "branches", "functions", "lines"]
threshold = 99.5

[[exclude]]
path = "src/main.rs"
reason = "binary entry point"

[inline]
markers = ["covgate", "lcov", "grcov"]
require-reason = false
TOML
# The ignore_scan target takes its first byte as flags (language, families, require-reason):
# byte 0x00 is Rust with all families and reasons required, 0x01 C-like, 0x02 `#` comments.
for file in "${sources[@]}"; do
    case "$file" in
        *.rs) flag='\x00' ;;
        *.py | *.sh) flag='\x02' ;;
        *) flag='\x01' ;;
    esac
    { printf "$flag"; cat "$file"; } >"$corpus/ignore_scan/$(echo "$file" | tr '/' '_')"
done

# The channels target splits its input at 0xFF bytes into names: one seed of hostile names.
printf 'https://evil.example/x\377www.evil.example\377v\n::error::x\377##[error]y\377a@b.co\377<img src=x>\377  ::warning::z\r::x\377a|b_c*d`e\377\033[1m\377' \
    >"$corpus/channels/hostile_names"

for dir in "$corpus"/*/; do
    echo "$(ls "$dir" | wc -l) seeds in $dir"
done
