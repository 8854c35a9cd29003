//! Tests of the names: a thread's cache of them stays bounded and gives the same names.

use super::*;

#[test]
fn a_full_cache_of_names_is_emptied_and_gives_the_same_names_again() {
    let mut names = Names;
    let first = names.get("cache-test-first");
    for i in 0..CACHED_NAMES + 10 {
        assert_eq!(
            names.get(&format!("cache-test-{i}")).as_str(),
            format!("cache-test-{i}")
        );
    }
    let again = names.get("cache-test-first");
    assert_eq!(again.number(), first.number());
    assert_eq!(again, first);
    let cached = CACHE.with_borrow(HashSet::len);
    assert!(cached > 0 && cached < 20, "{cached} names cached");
}
