//! Records the target covgate is built for, as `COVGATE_HOST_TARGET`: the target that policy
//! `when = "cfg(...)"` conditions are evaluated for unless `--target` names another
//! (see `src/platform.rs`).

fn main() {
    let target = std::env::var("TARGET").expect("cargo sets TARGET for build scripts");
    println!("cargo:rustc-env=COVGATE_HOST_TARGET={target}");
    println!("cargo:rerun-if-changed=build.rs");
}
