//! `$` in names is not GitHub math (breaker s16, probed): GitHub renders text between `$` signs
//! (`$x$`, `$$x$$`) as a formula, so a file or function named with `$` would render as math
//! in the step summary and the pull-request comment. covgate writes each `$` as `&#36;`.

use crate::common::Sandbox;

#[test]
fn dollar_signs_in_names_are_written_as_entities_in_markdown() {
    let sb = Sandbox::new();
    sb.policy("[measure]\ninclude = [\"src/**/*.c\"]\nmetrics = [\"functions\", \"lines\"]\n");
    sb.write("src/$$PASS$$.c", "int f(void) {\n  return 0;\n}\n");
    sb.write(
        "cov.info",
        "SF:src/$$PASS$$.c\nFN:1,$\\alpha$\nFNDA:0,$\\alpha$\nDA:1,0\nDA:2,0\nend_of_record\n",
    );
    let run = sb.run(&["check", "cov.info", "--format", "markdown"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let md = &run.stdout;
    assert!(!md.contains('$'), "{md}");
    // The table row, the `<summary>` (HTML) and the function item.
    assert!(md.contains("| src/&#36;&#36;PASS&#36;&#36;.c |"), "{md}");
    assert!(
        md.contains("<summary>src/&#36;&#36;PASS&#36;&#36;.c — uncovered</summary>"),
        "{md}"
    );
    assert!(md.contains("&#36;\\\\alpha&#36;"), "{md}");
    // The table on stdout keeps the names as they are.
    let table = sb.run(&["check", "cov.info", "--show", "all"]);
    assert!(table.stdout.contains("src/$$PASS$$.c"), "{}", table.stdout);
}
