//! A `when-missing` program name: a name PATH can hold. An entry whose program can never be
//! found is active on every leg, so a slip in the name (`"bash "`, `"bin/bash"`) would turn a
//! conditional exemption into a permanent one; such names are refused.

/// Why `name` is not a program name a PATH lookup can find, or `None` when it is one: not
/// blank, no white space, no control, format or separator character ([`crate::text::is_hidden`]),
/// and no path separator (`/`, `\`: a path is not looked up on PATH, and a relative one depends
/// on the folder covgate runs from).
pub(crate) fn unfindable(name: &str) -> Option<&'static str> {
    if crate::text::is_blank(name) {
        Some("is empty")
    } else if name.chars().any(char::is_whitespace) {
        Some("holds white space")
    } else if name.chars().any(crate::text::is_hidden) {
        Some("holds a control or invisible character")
    } else if name.contains(['/', '\\']) {
        Some("holds a path separator")
    } else {
        None
    }
}

/// The error message for a `when-missing` program `name` that `what` (the reason
/// [`unfindable`] gives).
pub(crate) fn message(name: &str, what: &str) -> String {
    format!(
        "`when-missing` names `{name}`, which {what}: no PATH lookup can find it, so the \
         entry would exempt its files on every leg; write a bare program name as PATH holds \
         it, without spaces or folders (e.g. \"bash\", \"pwsh\")"
    )
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;

    #[test]
    fn names_a_path_lookup_can_find_or_not() {
        for name in ["bash", "pwsh.exe", "g++", "clang-18", "python3.12", "émacs"] {
            assert_eq!(unfindable(name), None, "{name}");
        }
        for (name, what) in [
            ("", "is empty"),
            ("  ", "is empty"),
            ("\u{200b}", "is empty"),
            ("bash ", "holds white space"),
            (" bash", "holds white space"),
            ("bash\n", "holds white space"),
            ("ba sh", "holds white space"),
            ("ba\u{a0}sh", "holds white space"),
            ("bash\u{7f}", "holds a control or invisible character"),
            ("ba\u{200b}sh", "holds a control or invisible character"),
            ("bin/bash", "holds a path separator"),
            ("/bin/bash", "holds a path separator"),
            ("C:\\tools\\pwsh.exe", "holds a path separator"),
        ] {
            assert_eq!(unfindable(name), Some(what), "{name:?}");
        }
    }
}
