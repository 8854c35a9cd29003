//! The two commands of the library, each a pipeline over the layers below: [`check`] judges
//! reports against the policy (`covgate check`); [`roster`] verifies the exempt-suite roster or
//! derives the arguments of the two runs (`covgate roster`).

pub mod check;
pub mod init;
pub mod roster;
pub mod tighten;
