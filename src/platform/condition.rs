//! A `when` condition: parsed in Rust's cfg syntax, refused when it can hold on no known target
//! or names a misspelt cfg, and evaluated for a target and a set of free cfgs.

use std::collections::BTreeSet;

use cfg_expr::targets::{rustc_version, TargetInfo, ALL_BUILTINS};
use cfg_expr::{Expression, Predicate, TargetPredicate};

/// [`can_hold`] tries every combination of a condition's free cfgs up to this many (1024
/// combinations); beyond it, the condition is assumed to be able to hold.
pub(super) const MAX_FREE: usize = 10;

/// A cfg that no target sets: `(key, value)` as in `--cfg key` (`None`) or `--cfg key="value"`;
/// a feature is `("feature", Some(name))`.
pub(super) type Free = (String, Option<String>);

/// A parsed, satisfiable `when` condition. Two are equal when they are written alike.
#[derive(Debug, Clone)]
pub struct Cfg {
    /// The condition as written in the policy.
    pub text: String,
    pub(super) expr: Expression,
}

impl Cfg {
    /// True when the condition names a cfg that no target sets (a feature, `test`, a custom
    /// cfg): its truth on a leg comes from the `--features` and `--cfg` given to covgate, which
    /// must be the ones the leg gave cargo.
    pub fn names_free_cfgs(&self) -> bool {
        self.expr
            .predicates()
            .any(|pred| matches!(atom(&pred), Atom::Free(_)))
    }
}

impl PartialEq for Cfg {
    fn eq(&self, other: &Cfg) -> bool {
        self.text == other.text
    }
}

impl Eq for Cfg {}

impl Cfg {
    /// Parses a condition in Rust's cfg syntax (`cfg(...)`, or the predicate alone).
    ///
    /// Errors (as a message, which the policy locates): a syntax error, or a condition that
    /// holds on no target of cfg-expr's list whatever the features and custom cfgs
    /// (`cfg(all(windows, unix))`, `target_os = "macoss"`).
    pub fn parse(text: &str) -> std::result::Result<Cfg, String> {
        let expr = Expression::parse(text).map_err(|e| {
            format!(
                "bad condition `{text}`: {} (write Rust's cfg syntax, e.g. \"cfg(not(windows))\")",
                e.reason
            )
        })?;
        if !can_hold(&expr) {
            return Err(format!(
                "the condition `{text}` can hold on no known target ({} built-in targets of rustc {}), \
                 whatever the features and --cfg values; fix it or remove the entry",
                ALL_BUILTINS.len(),
                rustc_version()
            ));
        }
        // A misspelt value inside `not()` makes the whole always hold, inside `any()` it is
        // dead: each target predicate must be able to hold by itself, as a bare one must.
        if let Some(leaf) = leaves(text)
            .into_iter()
            .find(|leaf| Expression::parse(leaf).is_ok_and(|e| !can_hold(&e)))
        {
            return Err(format!(
                "`{leaf}` in the condition `{text}` holds on no known target ({} built-in \
                 targets of rustc {}): a misspelt value? fix it or remove the entry",
                ALL_BUILTINS.len(),
                rustc_version()
            ));
        }
        if let Some((key, near)) = expr.predicates().find_map(|pred| misspelt(&pred)) {
            return Err(format!(
                "`{key}` in the condition `{text}` is not a cfg name rustc knows{near} (a custom \
                 cfg holds only on a leg that sets it with --cfg, so a misspelt name makes \
                 `not({key})` hold everywhere); fix it, or rename the custom cfg"
            ));
        }
        Ok(Cfg {
            text: text.to_string(),
            expr,
        })
    }
}

/// rustc's well-known cfg names (the Rust Reference, "Conditional compilation", and rustc's
/// `--check-cfg` list of well-known names): `--check-cfg` warns about any other name that is
/// not declared, as `unexpected_cfgs`.
pub(super) const WELL_KNOWN: [&str; 32] = [
    "clippy",
    "debug_assertions",
    "doc",
    "doctest",
    "feature",
    "fmt_debug",
    "miri",
    "overflow_checks",
    "panic",
    "proc_macro",
    "relocation_model",
    "rustfmt",
    "sanitize",
    "sanitizer_cfi_generalize_pointers",
    "sanitizer_cfi_normalize_integers",
    "target_abi",
    "target_arch",
    "target_endian",
    "target_env",
    "target_family",
    "target_feature",
    "target_has_atomic",
    "target_has_atomic_equal_alignment",
    "target_has_atomic_load_store",
    "target_os",
    "target_pointer_width",
    "target_thread_local",
    "target_vendor",
    "test",
    "ub_checks",
    "unix",
    "windows",
];

/// A custom cfg name (`widows`, `targetos = "linux"`) that is not a well-known name but lies
/// within a few edits of one (case ignored): the name and `; did you mean `NAME`?`. A custom
/// name far from every well-known one (`tokio_unstable`, `loom`) is a custom cfg, as rustc's
/// `--cfg` takes it.
pub(super) fn misspelt(pred: &Predicate<'_>) -> Option<(String, String)> {
    let key = match pred {
        Predicate::Flag(key) | Predicate::KeyValue { key, .. } => *key,
        _ => return None,
    };
    let near = crate::hint::did_you_mean(key, &WELL_KNOWN);
    (!WELL_KNOWN.contains(&key) && !near.is_empty()).then(|| (key.to_string(), near))
}

/// The predicates of a condition as written (`target_os = "linux"`, `unix`, `cfg`-less), without
/// the functions around them: the text split at `(`, `)` and `,` outside quotes, keeping what
/// comes before a `)`, a `,` or the end (what comes before a `(` names a function).
pub(super) fn leaves(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut start, mut quoted) = (0, false);
    for (at, c) in text.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '(' if !quoted => start = at + 1,
            ')' | ',' if !quoted => {
                out.push(text.get(start..at).unwrap_or_default().trim());
                start = at + 1;
            }
            _ => {}
        }
    }
    out.push(text.get(start..).unwrap_or_default().trim());
    out.retain(|leaf| !leaf.is_empty());
    out
}

/// One predicate of a condition: set by the target, or free (set by `--cfg` or `--features`).
pub(super) enum Atom<'a> {
    Target(&'a TargetPredicate),
    Free(Free),
}

pub(super) fn atom<'a>(pred: &'a Predicate<'_>) -> Atom<'a> {
    let free =
        |key: &str, value: Option<&str>| Atom::Free((key.to_string(), value.map(str::to_string)));
    match pred {
        Predicate::Target(tp) => Atom::Target(tp),
        Predicate::Test => free("test", None),
        Predicate::DebugAssertions => free("debug_assertions", None),
        Predicate::ProcMacro => free("proc_macro", None),
        Predicate::Feature(name) => free("feature", Some(name)),
        Predicate::TargetFeature(name) => free("target_feature", Some(name)),
        Predicate::Flag(key) => free(key, None),
        Predicate::KeyValue { key, val } => free(key, Some(val)),
    }
}

/// Evaluates `expr` for `target` with exactly the free cfgs in `free` set.
pub(super) fn holds(expr: &Expression, target: &TargetInfo, free: &BTreeSet<Free>) -> bool {
    expr.eval(|pred| match atom(pred) {
        Atom::Target(tp) => tp.matches(target),
        Atom::Free(key) => free.contains(&key),
    })
}

/// True when `expr` holds on at least one built-in target for some choice of its free cfgs
/// (each set or not). Targets that agree on every target predicate of `expr` are tried once.
/// A condition with more than [`MAX_FREE`] distinct free cfgs is assumed to be able to hold.
pub(crate) fn can_hold(expr: &Expression) -> bool {
    let mut target_preds: Vec<TargetPredicate> = Vec::new();
    let mut free: Vec<Free> = Vec::new();
    for pred in expr.predicates() {
        match atom(&pred) {
            Atom::Target(tp) if !target_preds.contains(tp) => target_preds.push(tp.clone()),
            Atom::Free(key) if !free.contains(&key) => free.push(key),
            _ => {}
        }
    }
    if free.len() > MAX_FREE {
        return true;
    }
    let outcomes: BTreeSet<Vec<bool>> = ALL_BUILTINS
        .iter()
        .map(|target| target_preds.iter().map(|tp| tp.matches(target)).collect())
        .collect();
    outcomes.iter().any(|outcome| {
        (0u32..1 << free.len()).any(|mask| {
            expr.eval(|pred| match atom(pred) {
                // `outcome` has one entry per predicate of `target_preds`, in the same order.
                Atom::Target(tp) => target_preds
                    .iter()
                    .zip(outcome)
                    .find(|(t, _)| *t == tp)
                    .is_some_and(|(_, &holds)| holds),
                Atom::Free(key) => free
                    .iter()
                    .position(|k| *k == key)
                    .is_some_and(|i| mask & (1 << i) != 0),
            })
        })
    })
}
