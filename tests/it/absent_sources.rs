//! A measured file that its reports name with records but that is not on disk under the walked
//! root (breaker s19): its verdict is of other sources, so the check says so, naming the
//! entries of its folder that differ from it only by case (a report written on a
//! case-insensitive system and read on a case-sensitive one).

use crate::common::Sandbox;

const POLICY: &str =
    "[measure]\ninclude = [\"src/**/*.c\"]\nmetrics = [\"functions\", \"lines\"]\n";

/// An LCOV section for `path`: function `f` at line 1, lines 1–2, all run.
fn section(path: &str) -> String {
    format!("SF:{path}\nFN:1,f\nFNDA:1,f\nDA:1,1\nDA:2,1\nend_of_record\n")
}

const SOURCE: &str = "int f(void) {\n  return 0;\n}\n";

#[test]
fn a_file_spelled_with_other_case_than_on_disk_is_said_not_to_be_there() {
    let sb = Sandbox::new();
    sb.policy(POLICY);
    sb.write("src/Mixed.c", SOURCE);
    sb.write("src/MIXED.c", SOURCE);
    sb.write("src/plain.c", SOURCE);
    sb.write(
        "cov.info",
        &(section("src/mixed.c") + &section("src/plain.c")),
    );
    let run = sb.run(&["check", "cov.info", "--path-case", "sensitive"]);
    // The files on disk are unmeasured: the check fails.
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let said: Vec<&str> = (run.stderr.lines())
        .filter(|l| l.contains("not on disk"))
        .collect();
    assert_eq!(said.len(), 1, "{}", run.stderr);
    assert!(
        said[0].contains(
            "src/mixed.c: the reports measure it, but it is not on disk under the root (its \
             folder holds MIXED.c, Mixed.c, which differ only by case)"
        ),
        "{}",
        said[0]
    );
    // One file of another case: named alone.
    std::fs::remove_file(sb.path().join("src/MIXED.c")).expect("rm");
    let run = sb.run(&["check", "cov.info", "--path-case", "sensitive"]);
    assert!(
        run.stderr
            .contains("(its folder holds Mixed.c, which differs only by case)"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_file_that_is_not_on_disk_at_all_is_said_not_to_be_there() {
    let sb = Sandbox::new();
    sb.policy(POLICY);
    sb.write("src/plain.c", SOURCE);
    sb.write(
        "cov.info",
        &(section("src/gone.c") + &section("src/plain.c")),
    );
    let run = sb.run(&["check", "cov.info"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains(
            "src/gone.c: the reports measure it, but it is not on disk under the root: its \
             verdict is of sources that are not these"
        ),
        "{}",
        run.stderr
    );
    assert!(
        !run.stderr.contains("plain.c: the reports"),
        "{}",
        run.stderr
    );
    // Without the walk, sources are not looked at: nothing is said.
    let run = sb.run(&["check", "cov.info", "--no-walk"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(!run.stderr.contains("not on disk"), "{}", run.stderr);
}
