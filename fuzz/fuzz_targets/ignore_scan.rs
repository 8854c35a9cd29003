//! The inline-marker scanner on arbitrary text, in each language and with and without
//! `require-reason`: ignores or an error naming the file and a line, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

use covgate::markers::{self, Lang};
use covgate::policy::Family;

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let langs = [
        Lang::Rust,
        Lang::CLike,
        Lang::JavaScript,
        Lang::Jsx,
        Lang::Go,
        Lang::Java,
        Lang::Kotlin,
        Lang::Scala,
        Lang::Swift,
        Lang::CSharp,
        Lang::Dart,
        Lang::TextBlocks,
        Lang::Python,
        Lang::Shell,
        Lang::Ruby,
        Lang::Perl,
        Lang::R,
        Lang::Elixir,
        Lang::CMake,
        Lang::Unknown,
    ];
    let lang = langs[usize::from(flags) % langs.len()];
    let families: Vec<Family> = Family::ALL
        .into_iter()
        .enumerate()
        .filter(|(i, _)| flags & (8 << i) == 0)
        .map(|(_, f)| f)
        .collect();
    let require_reason = flags & 4 == 0;
    let lines = u32::try_from(text.lines().count()).unwrap_or(u32::MAX);
    for (line, _) in markers::comments(&text, lang) {
        assert!(
            line >= 1 && line <= lines.saturating_add(1),
            "comment line {line} of {lines}"
        );
    }
    match markers::scan("fuzz.rs", &text, lang, &families, require_reason) {
        Ok(found) => {
            if families.is_empty() {
                assert!(found.is_empty());
            }
        }
        Err(err) => assert!(
            err.message().starts_with("fuzz.rs:"),
            "error does not name the file: {err}"
        ),
    }
});
