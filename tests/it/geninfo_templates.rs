//! geninfo (gcc's gcov through lcov) C++ shards: a template's instantiations at one start line
//! are functions of their own for gcov and lcov (`FNF`/`FNH`, and `lcov -a`'s merge), so a
//! merge of shards is never judged better than `lcov -a` judges it (breaker s16, finding 6).

use crate::common::{metric, Sandbox};

/// `src/t.cpp`, as the tracefiles below measure it (gcc 12, `g++ --coverage`, `gcov -j`:
/// `twice<int>` and `twice<double>` both start on line 2).
const SOURCE: &str = "template <typename T>\nT twice(T x) { return x + x; }\n\n\
     // f calls twice(1.5) only when b\n\
     int f(int a, bool b) { return b ? (int)twice(1.5) : twice(a); }\n\
     int g(int a) { return twice(a); }\n";

/// geninfo's section of `src/t.cpp` (lcov 1.x, no branch data) for a run of `f` (`f(3,
/// false)`: `twice<int>` ran) or of `g` (`g(3)`: `twice<int>` ran); `twice<double>` never ran.
fn shard(ran_f: bool) -> String {
    let (f, g) = (u64::from(ran_f), u64::from(!ran_f));
    format!(
        "TN:\nSF:src/t.cpp\nFN:2,_Z5twiceIiET_S0_\nFN:2,_Z5twiceIdET_S0_\nFN:5,_Z1fib\n\
         FN:6,_Z1gi\nFNDA:1,_Z5twiceIiET_S0_\nFNDA:0,_Z5twiceIdET_S0_\nFNDA:{f},_Z1fib\n\
         FNDA:{g},_Z1gi\nFNF:4\nFNH:2\nDA:2,1\nDA:5,{f}\nDA:6,{g}\nLF:3\nLH:2\nend_of_record\n"
    )
}

#[test]
fn template_instantiations_of_geninfo_shards_stay_apart_in_the_merge() {
    let sb = Sandbox::new();
    sb.write("src/t.cpp", SOURCE);
    sb.policy("[measure]\ninclude = [\"src/**\"]\nmetrics = [\"functions\", \"lines\"]\n");
    sb.write("shard1.info", &shard(true));
    sb.write("shard2.info", &shard(false));
    // What `lcov -a shard1.info shard2.info` writes: FNF 4, FNH 3.
    let lcov_a = shard(true)
        .replace("FNDA:1,_Z5twiceIiET_S0_", "FNDA:2,_Z5twiceIiET_S0_")
        .replace("FNDA:0,_Z1gi", "FNDA:1,_Z1gi")
        .replace("FNH:2", "FNH:3")
        .replace("DA:2,1", "DA:2,2")
        .replace("DA:6,0", "DA:6,1")
        .replace("LH:2", "LH:3");
    sb.write("lcov-a.info", &lcov_a);
    sb.write("both.info", &format!("{}{}", shard(true), shard(false)));
    let cases: [(&[&str], &str, &str); 5] = [
        // Each shard alone: 2 of 4 (`twice<double>` and the other of `f`, `g` never ran).
        (&["shard1.info"], "2/4 fail", "2/3 fail"),
        (&["shard2.info"], "2/4 fail", "2/3 fail"),
        // Merged as two reports, as one tracefile (`cat`), or by `lcov -a`: 3 of 4, never the
        // 3 of 3 of instantiations taken as one function.
        (&["shard1.info", "shard2.info"], "3/4 fail", "3/3 pass"),
        (&["both.info"], "3/4 fail", "3/3 pass"),
        (&["lcov-a.info"], "3/4 fail", "3/3 pass"),
    ];
    for (reports, functions, lines) in cases {
        let mut args = vec!["check", "--format", "json"];
        args.extend(reports);
        let run = sb.run(&args);
        assert_eq!(run.code, 1, "{reports:?}: {}{}", run.stdout, run.stderr);
        let doc = run.json();
        assert_eq!(
            metric(&doc, "src/t.cpp", "functions"),
            functions,
            "{reports:?}"
        );
        assert_eq!(metric(&doc, "src/t.cpp", "lines"), lines, "{reports:?}");
    }
}
