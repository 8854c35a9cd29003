//! The examples of the README and of `docs/*.md` are tests: every ` ```console ` block runs its
//! `$ covgate …` commands from the repository root, against the shipped demo and fixtures, and
//! must print what the block shows, with the exit code of its `? N` line (trycmd). Text that
//! varies from machine to machine is redacted as docs/development.md ("The examples are tests")
//! says: `[CWD]` is the repository folder, `[VERSION]` covgate's version, `[..]` any text within
//! a line (the host's target triple) and `...` any lines; `COLUMNS=1000`, so that no facts line
//! wraps. Other blocks (`sh`, `toml`, `text`, …) are not run.

#[test]
fn readme_console_examples() {
    let cases = trycmd::TestCases::new();
    cases
        .register_bin(
            "covgate",
            std::path::Path::new(env!("CARGO_BIN_EXE_covgate")),
        )
        .env("NO_COLOR", "1")
        // Wide enough that no facts line wraps: the first one holds the repository's path,
        // which differs from machine to machine.
        .env("COLUMNS", "1000")
        .insert_var("[VERSION]", env!("CARGO_PKG_VERSION"))
        .expect("a redaction");
    cases.case("README.md");
    // Every page of the reference; a page without a `console` block runs nothing.
    cases.case("docs/*.md");
}
