//! The policy parser on arbitrary text: a policy or an error that names the file, never a
//! panic; a policy it returns is valid (threshold in 0–100, at least one metric and include).
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;

use covgate::policy::Policy;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    match Policy::parse(Path::new("fuzz.toml"), &text) {
        Ok(policy) => {
            assert!(
                (0.0..=100.0).contains(&policy.threshold.as_f64()),
                "{}",
                policy.threshold
            );
            assert!(!policy.metrics.is_empty());
            assert!(!policy.include.is_empty());
            for exclude in &policy.excludes {
                assert!(!exclude.reason.trim().is_empty());
                let _ = exclude.pattern.is_match("src/lib.rs");
            }
            for include in &policy.include {
                let _ = include.is_match("src/lib.rs");
            }
        }
        Err(err) => assert!(
            err.message().starts_with("fuzz.toml"),
            "error does not name the file: {err}"
        ),
    }
});
