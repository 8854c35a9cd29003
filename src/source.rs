//! Reading the files covgate finds on disk (source files and the policy): only regular files,
//! and only up to a stated size.
//!
//! Everything under the root is controlled by the change being checked. A FIFO there would
//! block a read forever, a link to `/dev/zero` never ends, a socket cannot be read at all, and
//! a generated file of gigabytes would cost as much memory. So a file is read only when it is a
//! regular file (after following symbolic links) and no larger than the limit its use states:
//! [`MAX_SOURCE`] for the inline-marker scan, [`MAX_NOCODE`] for the no-code parse,
//! [`MAX_POLICY`] for the policy and its debt ledger, [`MAX_MANIFEST`] for a `Cargo.toml` at
//! or above the root. Every file covgate reads that is
//! not a report goes through [`read`]. Reports are read elsewhere ([`crate::report`]), and may be
//! pipes.

use std::fs::FileType;
use std::io::Read;
use std::path::Path;

/// The largest source file scanned for inline markers: 16 MiB. A larger source is still
/// measured, with its numbers as the reports give them, and a note says it was not scanned.
pub(crate) const MAX_SOURCE: u64 = 16 << 20;

/// The largest Rust source file parsed to decide whether it holds code (see [`crate::nocode`]):
/// 1 MiB. The parse holds the file's whole syntax tree, about 80 times the file's size, so a
/// larger file that no report names is unmeasured, with a note saying why, instead of parsed.
pub(crate) const MAX_NOCODE: u64 = 1 << 20;

/// The largest policy file: 1 MiB (a policy is a short TOML file).
pub(crate) const MAX_POLICY: u64 = 1 << 20;

/// The largest `Cargo.toml` read while looking for the cargo workspace above the root: 1 MiB.
pub(crate) const MAX_MANIFEST: u64 = 1 << 20;

/// Why a file was not read.
#[derive(Debug)]
pub(crate) enum Refused {
    /// It is not a regular file: what it is instead (`a FIFO`, `a device`, `a socket`, `a
    /// folder`), as a phrase for messages.
    NotRegular(&'static str),
    /// It is larger than the limit: its size in bytes.
    TooLarge(u64),
    /// It could not be read (missing, no permission, …).
    Io(std::io::Error),
}

impl std::fmt::Display for Refused {
    /// `it is a FIFO, not a regular file`, `it is larger than N bytes (M bytes)` (for the caller
    /// to put after the file's name), or the read error.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::NotRegular(kind) => write!(f, "it is {kind}, not a regular file"),
            Refused::TooLarge(size) => write!(f, "it is larger than the limit ({size} bytes)"),
            Refused::Io(err) => write!(f, "{err}"),
        }
    }
}

/// Reads the file at `path` when it is a regular file (a symbolic link is followed) of at most
/// `limit` bytes. The type and size are checked before the file is opened, so a FIFO is never
/// opened (which would block) and a device never read; a file that grows while it is read is
/// read up to `limit` bytes.
///
/// Errors: [`Refused`].
pub(crate) fn read(path: &Path, limit: u64) -> Result<Vec<u8>, Refused> {
    std::fs::metadata(path)
        .map_err(Refused::Io)
        .and_then(|meta| admit(&meta, limit))
        .and_then(|size| {
            // Room for the whole file and the read that finds its end.
            let mut bytes = Vec::with_capacity(size.saturating_add(1));
            std::fs::File::open(path)
                .and_then(|file| file.take(limit).read_to_end(&mut bytes))
                .map(|_| bytes)
                .map_err(Refused::Io)
        })
}

/// The size of a regular file of at most `limit` bytes (a size that does not fit memory is
/// taken as 0: the read then grows as it goes).
fn admit(meta: &std::fs::Metadata, limit: u64) -> Result<usize, Refused> {
    if !meta.is_file() {
        return Err(Refused::NotRegular(kind(meta.file_type())));
    }
    if meta.len() > limit {
        return Err(Refused::TooLarge(meta.len()));
    }
    Ok(usize::try_from(meta.len()).unwrap_or_default())
}

/// What a file that is not a regular file is, as a phrase: `a folder`, `a FIFO`, `a socket`,
/// `a device`, or `not a regular file` for anything else.
pub(crate) fn kind(file_type: FileType) -> &'static str {
    kinds(file_type)
        .into_iter()
        .find(|(is, _)| *is)
        .map_or("something else", |(_, name)| name)
}

#[cfg(unix)]
fn kinds(file_type: FileType) -> [(bool, &'static str); 5] {
    use std::os::unix::fs::FileTypeExt;
    [
        (file_type.is_dir(), "a folder"),
        (file_type.is_fifo(), "a FIFO"),
        (file_type.is_socket(), "a socket"),
        (file_type.is_char_device(), "a device"),
        (file_type.is_block_device(), "a device"),
    ]
}

#[cfg(not(unix))]
fn kinds(file_type: FileType) -> [(bool, &'static str); 1] {
    [(file_type.is_dir(), "a folder")]
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;

    fn refused(path: &Path, limit: u64) -> String {
        match read(path, limit) {
            Ok(bytes) => panic!("read {} bytes", bytes.len()),
            Err(why) => why.to_string(),
        }
    }

    #[test]
    fn regular_files_are_read_up_to_the_limit() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("a.rs");
        std::fs::write(&path, "fn a() {}\n").expect("write");
        assert_eq!(read(&path, 10).expect("read"), b"fn a() {}\n");
        assert_eq!(refused(&path, 9), "it is larger than the limit (10 bytes)");
        assert_eq!(refused(dir.path(), 9), "it is a folder, not a regular file");
        let missing = refused(&dir.path().join("missing.rs"), 9);
        assert!(missing.contains("No such file"), "{missing}");
    }

    #[cfg(unix)]
    #[test]
    fn fifos_devices_and_sockets_are_never_opened() {
        let dir = tempfile::tempdir().expect("tempdir");
        let fifo = dir.path().join("fifo.rs");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo");
        assert!(made.success());
        // Opening the FIFO would block this test for ever: it is refused from its type.
        assert_eq!(refused(&fifo, 9), "it is a FIFO, not a regular file");
        let zero = dir.path().join("zero.rs");
        std::os::unix::fs::symlink("/dev/zero", &zero).expect("symlink");
        assert_eq!(refused(&zero, 9), "it is a device, not a regular file");
        let socket = dir.path().join("socket.rs");
        let _listener = std::os::unix::net::UnixListener::bind(&socket).expect("bind");
        assert_eq!(refused(&socket, 9), "it is a socket, not a regular file");
        let meta = std::fs::metadata(&fifo).expect("stat");
        assert_eq!(kind(meta.file_type()), "a FIFO");
        let file = std::fs::metadata(dir.path().join(".")).expect("stat");
        assert_eq!(kind(file.file_type()), "a folder");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn read_errors_after_the_checks_are_reported() {
        // A regular file of size 0 whose first byte cannot be read.
        let e = refused(Path::new("/proc/self/mem"), 9);
        assert!(e.contains("Input/output error"), "{e}");
    }
}
