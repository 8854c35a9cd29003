//! One pull-request comment for every leg of a CI matrix (`covgate comment`, used by the
//! repository's GitHub Action, `action.yml`).
//!
//! The comment is owned by covgate: its body starts with [`MARKER`], a hidden HTML comment, and
//! holds one section per leg, each between `<!-- covgate:leg=NAME -->` and `<!-- covgate:end -->`.
//! A leg rewrites only its own section and keeps the others as they are; sections are ordered by
//! leg name, so legs that finish in any order converge on the same body. A leg that passes is one
//! line; a failing leg carries covgate's Markdown result; a leg where covgate could not judge
//! (exit code 2) says so and points to the job log.
//!
//! The body stays within [`LIMIT`] characters (GitHub's comment limit is 65,536), shared by all
//! legs: when it would not, the largest sections first lose their `<details>` lists, then become
//! one line that points to the leg's step summary.

use serde::Deserialize;

use crate::error::{Error, Result};
use crate::source::Refused;

/// The hidden first line that marks covgate's comment.
pub(crate) const MARKER: &str = "<!-- covgate:comment -->";

/// The largest body composed, in characters (GitHub's comment limit is 65,536).
pub(crate) const LIMIT: usize = 65_000;

/// The largest `--markdown` or `--comments` file read: 256 MiB. covgate's own Markdown of a
/// failing gigabyte is a few tens of MiB, and a listing of a pull request's comments (100 a
/// page, each at most 65,536 characters) stays far below it.
pub(crate) const MAX_INPUT: u64 = 256 << 20;

const LEG_OPEN: &str = "<!-- covgate:leg=";
const LEG_CLOSE: &str = " -->";
const LEG_END: &str = "<!-- covgate:end -->";

/// One leg's section of the comment: its name and its Markdown body (without the markers).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Section {
    /// The leg's name, as [`leg_name`] spells it.
    pub leg: String,
    /// The section's Markdown.
    pub body: String,
    /// Who wrote it, `RUN/JOB` as [`stored_leg_name`] keeps it (empty: not said).
    pub writer: String,
}

/// A leg name safe inside an HTML comment and a Markdown line, and distinct for distinct names:
/// ASCII letters, digits, `.`, `_`, `/`, `(`, `)`, `+`, `,`, `:`, a single `-` and a space
/// between words are kept; every other byte (a second `-` in a row, `%`, `<`, `>`, `*`, `@`,
/// `#`, a space at either end, non-ASCII text) becomes `%XX`, as in a URL. A name longer than
/// [`LEG_MAX`] characters keeps its first 71 and then `~` and 8 hex digits of a hash of the whole
/// name (FNV-1a), so long names that share a beginning stay apart. An empty name is `default`.
pub(crate) fn leg_name(raw: &str) -> String {
    let bytes = raw.as_bytes();
    let mut out = String::new();
    for (i, &b) in bytes.iter().enumerate() {
        let edge = i == 0 || i + 1 == bytes.len();
        let keep = b.is_ascii_alphanumeric()
            || b"._/()+,:".contains(&b)
            || (b == b'-' && !out.ends_with('-'))
            || (b == b' ' && !edge);
        if keep {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    if out.len() > LEG_MAX {
        let hash = bytes.iter().fold(0x811c_9dc5_u32, |h, &b| {
            (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
        });
        out = format!("{}~{hash:08x}", out.get(..LEG_MAX - 9).unwrap_or_default());
    }
    if out.is_empty() {
        "default".to_string()
    } else {
        out
    }
}

/// The longest leg name, in characters.
const LEG_MAX: usize = 80;

/// A leg name as read from an existing comment: kept as written when [`leg_name`] could have
/// written it (only the characters it keeps, `%` and `~`, within [`LEG_MAX`]), so names stay
/// the same from one leg to the next; anything else is spelled anew.
fn stored_leg_name(name: &str) -> String {
    let spelled = !name.is_empty()
        && name.len() <= LEG_MAX
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._/()+,:-%~ ".contains(&b));
    if spelled {
        name.to_string()
    } else {
        leg_name(name)
    }
}

/// The section a leg writes, from covgate's exit `code` and its Markdown result (`None` when
/// covgate wrote none). Exit 0: one line, with the Markdown's summary line (`N measured: …`)
/// when it has one. Exit 1: the Markdown, with any line that could pose as a section marker
/// neutralised. Any other code: a line saying covgate could not judge.
pub(crate) fn section(leg: &str, code: i32, markdown: Option<&str>) -> Section {
    let leg = leg_name(leg);
    let body = match (code, markdown) {
        (0, md) => {
            let summary = md
                .and_then(summary_line)
                .unwrap_or("every measured file at its bar");
            let warnings = md.map(warnings).unwrap_or_default();
            format!("✅ **{leg}**: covgate passed — {summary}\n{warnings}")
        }
        (1, Some(md)) => format!("**{leg}**\n\n{}", neutralise(md)),
        (1, None) => format!(
            "❌ **{leg}**: covgate failed this leg, but its Markdown result was not found; see the \
             job log\n"
        ),
        _ => format!(
            "⚠️ **{leg}**: covgate could not judge this leg (exit code {code}); see the job log\n"
        ),
    };
    Section {
        leg,
        body,
        writer: String::new(),
    }
}

/// How many of a passing leg's warnings its one-line section carries; the rest are counted.
const PASSING_WARNINGS: usize = 5;

/// The warning lines of covgate's Markdown (`> ⚠️ warning: …`, already escaped), for a passing
/// leg's section: a pass with warnings (a folder not walked, a section cut short) must not read
/// as a clean pass. At most [`PASSING_WARNINGS`], then a line that counts the rest; preceded by
/// a blank line; empty without warnings.
fn warnings(markdown: &str) -> String {
    let all: Vec<&str> = markdown
        .lines()
        .filter(|l| l.starts_with("> ⚠️ warning: "))
        .collect();
    let mut out: String = all
        .iter()
        .take(PASSING_WARNINGS)
        .map(|l| format!("\n{l}"))
        .collect();
    if all.len() > PASSING_WARNINGS {
        let more = all.len() - PASSING_WARNINGS;
        out.push_str(&format!(
            "\n> ⚠️ and {more} more warnings: see this leg's step summary"
        ));
    }
    if !out.is_empty() {
        out.push('\n');
    }
    out
}

/// The line of covgate's Markdown that counts the files (`2 measured: 1 passed, …`).
fn summary_line(markdown: &str) -> Option<&str> {
    markdown.lines().find(|l| {
        l.split_once(" measured: ")
            .is_some_and(|(n, _)| n.parse::<u64>().is_ok())
    })
}

/// Escapes a line that starts like a covgate marker, so report-controlled text can never open or
/// close a section (covgate's Markdown already escapes `<` in names; this holds for any input).
fn neutralise(markdown: &str) -> String {
    let mut out = String::with_capacity(markdown.len() + 1);
    for line in markdown.lines() {
        if line.trim_start().starts_with("<!--") {
            out.push('\\');
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The sections of an existing comment body, in the order they appear. Text outside sections
/// (the heading) and a section left open are dropped: the body is composed anew.
pub(crate) fn parse(body: &str) -> Vec<Section> {
    let mut sections = Vec::new();
    let mut open: Option<Section> = None;
    for line in body.lines() {
        let opened = line
            .strip_prefix(LEG_OPEN)
            .and_then(|rest| rest.strip_suffix(LEG_CLOSE));
        match (opened, &mut open) {
            (Some(marker), _) => {
                let (leg, writer) = marker.split_once(WRITER).unwrap_or((marker, ""));
                open = Some(Section {
                    leg: stored_leg_name(leg),
                    body: String::new(),
                    writer: written_by(writer),
                })
            }
            (None, Some(_)) if line == LEG_END => sections.extend(open.take()),
            (None, Some(section)) => {
                section.body.push_str(line);
                section.body.push('\n');
            }
            (None, None) => {}
        }
    }
    sections
}

/// Between a section's leg name and its writer in the marker (a name holds no `=`).
const WRITER: &str = " by=";

/// A writer as read from a marker: as [`stored_leg_name`] keeps it, empty when not said.
fn written_by(writer: &str) -> String {
    if writer.is_empty() {
        String::new()
    } else {
        stored_leg_name(writer)
    }
}

/// True when `old` and `new` (`RUN/JOB`) are two jobs of one run: two legs gave one name.
fn collides(old: &str, new: &str) -> bool {
    let run = |w: &str| w.split_once('/').map(|(run, _)| run.to_string());
    old != new && run(old).is_some() && run(old) == run(new)
}

/// Replaces (or adds) `new`'s section among `existing`, ordered by leg name. When the section
/// it replaces was written in the same run by another job, two legs share the name: the new
/// section begins with a warning that says so, rather than hiding the other leg's result.
pub(crate) fn merge(mut existing: Vec<Section>, mut new: Section) -> Vec<Section> {
    let other = existing
        .iter()
        .find(|s| s.leg == new.leg && collides(&s.writer, &new.writer));
    if let Some(other) = other {
        new.body = format!(
            "⚠️ **{}**: another leg of this run ({}) wrote a section of this name, and this leg \
             replaced it: give each leg its own `leg` name.\n\n{}",
            new.leg, other.writer, new.body
        );
    }
    existing.retain(|s| s.leg != new.leg);
    existing.push(new);
    existing.sort_by(|a, b| a.leg.cmp(&b.leg));
    existing
}

/// The comment body for `sections`, within `limit` characters when the sections can be made to
/// fit: the largest sections first lose their `<details>` lists, then become one line.
pub(crate) fn compose(sections: &[Section], limit: usize) -> String {
    let mut parts: Vec<(&Section, String)> = sections.iter().map(|s| (s, s.body.clone())).collect();
    let mut total = assemble(&parts).chars().count();
    for shrink in [without_details as fn(&Section) -> String, one_line] {
        let mut order: Vec<&mut (&Section, String)> = parts.iter_mut().collect();
        order.sort_by_key(|part| std::cmp::Reverse(part.1.chars().count()));
        for part in order {
            if total <= limit {
                break;
            }
            let shorter = shrink(part.0);
            total = total + shorter.chars().count() - part.1.chars().count();
            part.1 = shorter;
        }
    }
    assemble(&parts)
}

fn assemble(parts: &[(&Section, String)]) -> String {
    let mut out = format!("{MARKER}\n## covgate\n\n");
    for (section, body) in parts {
        let writer = match section.writer.as_str() {
            "" => String::new(),
            writer => format!("{WRITER}{writer}"),
        };
        out.push_str(&format!(
            "{LEG_OPEN}{}{writer}{LEG_CLOSE}\n{body}{LEG_END}\n\n",
            section.leg
        ));
    }
    out
}

/// A section cut before its first `<details>` list, with a note.
fn without_details(section: &Section) -> String {
    let kept = section
        .body
        .split_once("\n<details>")
        .map_or(section.body.as_str(), |(head, _)| head);
    format!(
        "{}\n_The uncovered items of {} are cut to fit this comment: see that leg's step summary._\n",
        kept.trim_end(),
        section.leg
    )
}

/// A section as one line that points to the leg's step summary.
fn one_line(section: &Section) -> String {
    format!(
        "**{}**: the result does not fit this comment: see that leg's step summary.\n",
        section.leg
    )
}

/// One comment as the GitHub REST API lists it (`GET /repos/{owner}/{repo}/issues/{n}/comments`).
#[derive(Debug, Deserialize)]
struct ApiComment {
    id: u64,
    #[serde(default)]
    body: Option<String>,
    #[serde(default)]
    user: Option<ApiUser>,
}

#[derive(Debug, Deserialize)]
struct ApiUser {
    login: String,
}

/// covgate's comment among the API's listing (`text`: one JSON array, or the arrays of several
/// pages one after another as `gh api --paginate` prints them): the first whose body starts with
/// [`MARKER`] and, when `author` is not empty, whose author's login is `author`. Returns its id
/// and body. Errors when the text is not such a listing.
pub(crate) fn find(text: &str, author: &str) -> Result<Option<(u64, String)>> {
    let mut found = None;
    for page in serde_json::Deserializer::from_str(text).into_iter::<Vec<ApiComment>>() {
        let page = page.map_err(|e| listing_error(&e))?;
        found = found.or_else(|| page.into_iter().find_map(|c| owned(c, author)));
    }
    Ok(found)
}

/// The error for a listing that cannot be read: cut short (it ends inside its JSON: the
/// comments after the cut, covgate's own perhaps, are missing, so no comment is composed from
/// it, lest a second one be created), or not the API's list at all.
fn listing_error(e: &serde_json::Error) -> Error {
    if e.is_eof() {
        return Error::new(format!(
            "the comment listing is cut short (it ends inside its JSON: {e}): the comments after \
             the cut are missing, and covgate's own may be among them, so no comment is composed \
             from it; list them all again with `gh api --paginate \
             repos/OWNER/REPO/issues/N/comments`"
        ));
    }
    Error::new(format!(
        "the comment listing is not the GitHub API's list of comments: {e}"
    ))
}

fn owned(comment: ApiComment, author: &str) -> Option<(u64, String)> {
    let by_author = author.is_empty() || comment.user.as_ref().is_some_and(|u| u.login == author);
    let body = comment.body.filter(|b| b.starts_with(MARKER))?;
    by_author.then_some((comment.id, body))
}

/// What `covgate comment` is given (see [`run`]).
#[derive(Debug, Clone, Default)]
pub(crate) struct CommentOptions {
    /// The leg's name (any text; spelled by [`leg_name`]).
    pub leg: String,
    /// The exit code of the leg's `covgate check`.
    pub code: i32,
    /// covgate's Markdown result of the leg (`--output-markdown`); a file that does not exist is
    /// taken as no result (covgate stopped before writing it).
    pub markdown: Option<std::path::PathBuf>,
    /// The pull request's comments as the GitHub API lists them; `None` when there are none yet.
    pub comments: Option<std::path::PathBuf>,
    /// The login that owns covgate's comment (e.g. `github-actions[bot]`); empty: any.
    pub author: String,
    /// Where the new body is written.
    pub body_out: std::path::PathBuf,
    /// Who writes the section, `RUN/JOB` (any text; spelled by [`leg_name`]); empty: not said.
    pub writer: String,
}

/// Composes the comment for one leg: reads the existing comment (if any) from the listing,
/// replaces the leg's section, writes the body to `body_out`, and returns what to do with it:
/// `update ID` (edit comment `ID`) or `create`. Errors (exit 2) when a file cannot be read or
/// written, or the listing is not the API's.
pub(crate) fn run(opts: &CommentOptions) -> Result<String> {
    let markdown = opts
        .markdown
        .as_deref()
        .map(read_optional)
        .transpose()?
        .flatten();
    let listing = opts
        .comments
        .as_deref()
        .map(read_optional)
        .transpose()?
        .flatten();
    let existing = find(listing.as_deref().unwrap_or("[]"), &opts.author)?;
    let sections = parse(existing.as_ref().map_or("", |(_, body)| body.as_str()));
    let new = Section {
        writer: match opts.writer.as_str() {
            "" => String::new(),
            writer => leg_name(writer),
        },
        ..section(&opts.leg, opts.code, markdown.as_deref())
    };
    let body = compose(&merge(sections, new), LIMIT);
    // Written as every output is: never into a FIFO, which would block for ever.
    crate::output::write_atomically(&opts.body_out, &mut |file| file.write_all(body.as_bytes()))?;
    Ok(existing.map_or("create".to_string(), |(id, _)| format!("update {id}")))
}

/// A file's text, or `None` when it does not exist. Read as every non-report file is
/// ([`crate::source::read`]): a regular file of at most [`MAX_INPUT`] bytes, so a FIFO or a
/// device given as `--markdown` or `--comments` is refused instead of blocking or filling
/// memory. Errors (exit 2): not a regular file, larger than the limit, unreadable, not UTF-8.
fn read_optional(path: &std::path::Path) -> Result<Option<String>> {
    match crate::source::read(path, MAX_INPUT) {
        Ok(bytes) => crate::text::utf8(bytes)
            .map(Some)
            .map_err(|why| Error::new(format!("cannot read {}: {why}", path.display()))),
        Err(Refused::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(why) => Err(Error::new(format!("cannot read {}: {why}", path.display()))),
    }
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;

    const FAIL_MD: &str = "### covgate: ❌ fail\n\n| File |\n|---|\n| src/lib.rs |\n\n\
        2 measured: 1 passed, 1 failed\n\n<details><summary>src/lib.rs</summary>\n\n- lines: 3\n\n</details>\n";

    #[test]
    fn leg_names_are_safe_in_comments() {
        assert_eq!(leg_name("ubuntu-latest"), "ubuntu-latest");
        // Names that differ stay apart (they once folded into `windows-x86_64`).
        assert_eq!(leg_name("windows (x86_64)"), "windows (x86_64)");
        assert_eq!(leg_name("windows x86_64"), "windows x86_64");
        assert_eq!(leg_name("windows-x86_64"), "windows-x86_64");
        assert_eq!(leg_name("a-->b"), "a-%2D%3Eb");
        assert_eq!(leg_name("--x--"), "-%2Dx-%2D");
        assert_eq!(leg_name("<>"), "%3C%3E");
        assert_eq!(leg_name(" @me #1 *é\n"), "%20%40me %231 %2A%C3%A9%0A");
        assert_eq!(leg_name("%3C"), "%253C");
        assert_eq!(leg_name(""), "default");
        let long = leg_name(&"y".repeat(200));
        assert_eq!(long.len(), 80);
        assert_eq!(long, format!("{}~e8433edd", "y".repeat(71)));
        assert_ne!(long, leg_name(&"y".repeat(201)));
        // Names read back from a comment are kept as written, or spelled anew.
        for name in ["Linux x86_64 920cdc9f", "a-%2Db", &long] {
            assert_eq!(stored_leg_name(name), name);
        }
        assert_eq!(stored_leg_name("a<b"), "a%3Cb");
        assert_eq!(stored_leg_name(""), "default");
        assert_eq!(stored_leg_name(&"z".repeat(81)).len(), 80);
    }

    #[test]
    fn sections_by_exit_code() {
        let pass = section("linux", 0, Some("x\n3 measured: 3 passed, 0 failed\n"));
        assert_eq!(
            pass.body,
            "✅ **linux**: covgate passed — 3 measured: 3 passed, 0 failed\n"
        );
        let warned = section(
            "linux",
            0,
            Some("> ⚠️ warning: a\n> ⚠️ warning: b\n\n1 measured: 1 passed, 0 failed\n"),
        );
        assert_eq!(
            warned.body,
            "✅ **linux**: covgate passed — 1 measured: 1 passed, 0 failed\n\n> ⚠️ warning: a\n> \
             ⚠️ warning: b\n"
        );
        let many: String = (0..7).map(|i| format!("> ⚠️ warning: w{i}\n")).collect();
        let many = section("linux", 0, Some(&many));
        assert!(
            many.body
                .contains("warning: w4\n> ⚠️ and 2 more warnings: see this leg's step summary\n"),
            "{}",
            many.body
        );
        assert!(!many.body.contains("w5"), "{}", many.body);
        let bare = section("linux", 0, None);
        assert_eq!(
            bare.body,
            "✅ **linux**: covgate passed — every measured file at its bar\n"
        );
        let fail = section("mac", 1, Some("a\n<!-- covgate:end -->\n"));
        assert_eq!(fail.body, "**mac**\n\na\n\\<!-- covgate:end -->\n");
        let error = section("win", 2, None);
        assert!(error.body.contains("exit code 2"), "{}", error.body);
        let missing = section("win", 1, None);
        assert!(
            missing
                .body
                .starts_with("❌ **win**: covgate failed this leg"),
            "{}",
            missing.body
        );
    }

    #[test]
    fn legs_in_any_order_converge() {
        let a = section("a", 0, None);
        let b = section("b", 1, Some(FAIL_MD));
        let c = section("c", 2, None);
        let mut bodies = Vec::new();
        for order in [[&a, &b, &c], [&c, &a, &b], [&b, &c, &a]] {
            let mut body = String::new();
            for s in order {
                body = compose(&merge(parse(&body), (*s).clone()), LIMIT);
            }
            bodies.push(body);
        }
        assert_eq!(bodies[0], bodies[1]);
        assert_eq!(bodies[1], bodies[2]);
        assert!(bodies[0].starts_with(MARKER));
        assert_eq!(parse(&bodies[0]), vec![a, b, c]);
    }

    #[test]
    fn a_leg_rewrites_only_its_section() {
        let body = compose(
            &[section("a", 1, Some(FAIL_MD)), section("b", 0, None)],
            LIMIT,
        );
        let again = compose(&merge(parse(&body), section("a", 0, None)), LIMIT);
        let legs = parse(&again);
        assert!(legs[0].body.starts_with("✅ **a**"), "{}", legs[0].body);
        assert_eq!(legs[1], section("b", 0, None));
    }

    #[test]
    fn parse_drops_unclosed_and_outside_text() {
        let body = "junk\n<!-- covgate:leg=x -->\nkept\n<!-- covgate:end -->\nmore\n\
                    <!-- covgate:leg=y -->\nopen";
        assert_eq!(
            parse(body),
            vec![Section {
                leg: "x".into(),
                body: "kept\n".into(),
                writer: String::new(),
            }]
        );
    }

    #[test]
    fn compose_fits_the_limit() {
        let big = FAIL_MD.replace("- lines: 3", &"- lines: 3\n".repeat(500));
        let sections = vec![section("a", 1, Some(&big)), section("b", 1, Some(FAIL_MD))];
        let full = compose(&sections, LIMIT);
        assert!(full.contains("<details>"));
        let cut = compose(&sections, 600);
        assert!(cut.chars().count() <= 600, "{cut}");
        assert!(cut.contains("uncovered items of a are cut"), "{cut}");
        assert!(cut.contains("src/lib.rs |"), "{cut}");
        let tiny = compose(&sections, 450);
        assert!(tiny.contains("**a**: the result does not fit"), "{tiny}");
        assert!(tiny.chars().count() <= 450, "{tiny}");
        assert!(tiny.contains("uncovered items of b are cut"), "{tiny}");
    }

    #[test]
    fn find_takes_the_marked_comment_of_the_author() {
        let pages = format!(
            r#"[{{"id":1,"body":"hello","user":{{"login":"bot"}}}},
                {{"id":2,"body":"{MARKER} fake","user":{{"login":"mallory"}}}}]
               [{{"id":3,"body":"{MARKER}\nx","user":{{"login":"bot"}}}},
                {{"id":4,"body":null}}]"#
        );
        assert_eq!(
            find(&pages, "bot").unwrap(),
            Some((3, format!("{MARKER}\nx")))
        );
        assert_eq!(find(&pages, "").unwrap().unwrap().0, 2);
        assert_eq!(find("[]", "bot").unwrap(), None);
        let err = find("{", "bot").unwrap_err().to_string();
        assert!(err.contains("not the GitHub API's list"), "{err}");
    }

    #[test]
    fn a_listing_cut_short_says_so_and_how_to_list_all() {
        // Cut inside a comment, and after a whole page: either way comments are missing.
        for cut in [
            r#"[{"id":1,"body":"x","user":{"login":"a"}},{"id":2,"bo"#,
            r#"[{"id":1}] ["#,
        ] {
            let err = find(cut, "bot").unwrap_err().to_string();
            assert!(
                err.starts_with(
                    "the comment listing is cut short (it ends inside its JSON: EOF while parsing"
                ),
                "{err}"
            );
            assert!(
                err.ends_with("the comments after the cut are missing, and covgate's own may be among them, so no comment is composed from it; list them all again with `gh api --paginate repos/OWNER/REPO/issues/N/comments`"),
                "{err}"
            );
        }
    }
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod run_tests {
    use super::*;

    #[test]
    fn run_creates_then_updates() {
        let dir = tempfile::tempdir().unwrap();
        let md = dir.path().join("result.md");
        std::fs::write(&md, "### covgate: fail\n\n1 measured: 0 passed, 1 failed\n").unwrap();
        let mut opts = CommentOptions {
            leg: "linux".into(),
            code: 1,
            markdown: Some(md),
            comments: Some(dir.path().join("absent.json")),
            author: "bot".into(),
            body_out: dir.path().join("body.md"),
            writer: "41.1/cov GitHub Actions 2".into(),
        };
        assert_eq!(run(&opts).unwrap(), "create");
        let body = std::fs::read_to_string(&opts.body_out).unwrap();
        let listing = serde_json::json!([{"id": 7, "body": body, "user": {"login": "bot"}}]);
        let comments = dir.path().join("comments.json");
        std::fs::write(&comments, listing.to_string()).unwrap();
        opts.comments = Some(comments);
        opts.leg = "mac".into();
        opts.code = 0;
        assert_eq!(run(&opts).unwrap(), "update 7");
        let body = std::fs::read_to_string(&opts.body_out).unwrap();
        assert_eq!(parse(&body).len(), 2, "{body}");
        assert!(
            body.contains("<!-- covgate:leg=linux by=41.1/cov GitHub Actions 2 -->\n"),
            "{body}"
        );
        // Another job of run 41 writes a section named `linux`: the collision shows.
        let listing = serde_json::json!([{"id": 7, "body": body, "user": {"login": "bot"}}]);
        std::fs::write(opts.comments.as_ref().unwrap(), listing.to_string()).unwrap();
        opts.leg = "linux".into();
        opts.writer = "41.1/cov GitHub Actions 3".into();
        assert_eq!(run(&opts).unwrap(), "update 7");
        let body = std::fs::read_to_string(&opts.body_out).unwrap();
        let linux = &parse(&body)[0];
        assert_eq!(
            linux.body,
            "⚠️ **linux**: another leg of this run (41.1/cov GitHub Actions 2) wrote a section of \
             this name, and this leg replaced it: give each leg its own `leg` name.\n\n\
             ✅ **linux**: covgate passed — 1 measured: 0 passed, 1 failed\n"
        );
        assert_eq!(linux.writer, "41.1/cov GitHub Actions 3");
    }

    #[test]
    fn only_another_job_of_the_same_run_collides() {
        let by = |writer: &str| Section {
            writer: writer.to_string(),
            ..section("linux", 1, Some("x\n"))
        };
        let warned = |old: &str, new: &str| {
            merge(vec![by(old)], by(new))[0]
                .body
                .starts_with("⚠️ **linux**: another leg of this run")
        };
        assert!(warned("9.1/a", "9.1/b"));
        // The same job again, a later run or attempt, or a writer not said: a plain update.
        assert!(!warned("9.1/a", "9.1/a"));
        assert!(!warned("9.1/a", "9.2/b"));
        assert!(!warned("8.1/a", "9.1/a"));
        assert!(!warned("", "9.1/a"));
        assert!(!warned("9.1/a", ""));
        assert!(!warned("x", "x/y"));
        // A marker's writer is read back as written, or spelled anew.
        let body = "<!-- covgate:leg=l by=9.1/a b -->\nx\n<!-- covgate:end -->\n\
                    <!-- covgate:leg=m by=<b> -->\ny\n<!-- covgate:end -->\n";
        let sections = parse(body);
        assert_eq!(sections[0].writer, "9.1/a b");
        assert_eq!(sections[1].writer, "%3Cb%3E");
    }

    #[test]
    fn inputs_are_regular_utf8_files() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("missing.md");
        assert_eq!(read_optional(&missing).unwrap(), None);
        let latin1 = dir.path().join("latin1.md");
        std::fs::write(&latin1, b"caf\xe9\n").unwrap();
        assert_eq!(
            read_optional(&latin1).unwrap_err().to_string(),
            format!("cannot read {}: it is not UTF-8 text", latin1.display())
        );
        // Any other failure to read (here: a path through a file) is an error, not "missing".
        let through = latin1.join("x.md");
        let err = read_optional(&through).unwrap_err().to_string();
        assert!(
            err.starts_with(&format!("cannot read {}: ", through.display())),
            "{err}"
        );
        let folder = read_optional(dir.path()).unwrap_err().to_string();
        assert!(
            folder.ends_with("it is a folder, not a regular file"),
            "{folder}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_input_is_refused_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("comments.json");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let opts = CommentOptions {
            comments: Some(fifo.clone()),
            body_out: dir.path().join("body.md"),
            ..CommentOptions::default()
        };
        assert_eq!(
            run(&opts).unwrap_err().to_string(),
            format!(
                "cannot read {}: it is a FIFO, not a regular file",
                fifo.display()
            )
        );
    }

    #[test]
    fn run_reports_unreadable_and_unwritable_files() {
        let dir = tempfile::tempdir().unwrap();
        let opts = CommentOptions {
            markdown: Some(dir.path().to_path_buf()),
            body_out: dir.path().join("body.md"),
            ..CommentOptions::default()
        };
        assert!(run(&opts)
            .unwrap_err()
            .to_string()
            .starts_with("cannot read"));
        let opts = CommentOptions {
            comments: Some(dir.path().to_path_buf()),
            body_out: dir.path().join("body.md"),
            ..CommentOptions::default()
        };
        assert!(run(&opts)
            .unwrap_err()
            .to_string()
            .starts_with("cannot read"));
        let listing = dir.path().join("listing.json");
        std::fs::write(&listing, "{\"message\": \"Bad credentials\"}").unwrap();
        let opts = CommentOptions {
            comments: Some(listing),
            body_out: dir.path().join("body.md"),
            ..CommentOptions::default()
        };
        let err = run(&opts).unwrap_err().to_string();
        assert!(err.contains("not the GitHub API's list"), "{err}");
        let opts = CommentOptions {
            body_out: dir.path().to_path_buf(),
            ..CommentOptions::default()
        };
        // A folder (as a FIFO, which would block) is refused before anything is written.
        let err = run(&opts).unwrap_err().to_string();
        assert!(
            err.starts_with(&format!(
                "{}: cannot write the result: ",
                dir.path().display()
            )) && err.contains("is not a regular file"),
            "{err}"
        );
    }
}
