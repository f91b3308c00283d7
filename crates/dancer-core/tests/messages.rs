//! Messages that print a count before a noun say `1 unit`, never `1 units`.

use dancer_core::{plural, EngineError, EngineKind, Unsupported, VerifyError};

#[test]
fn plural_says_one_in_the_singular() {
    assert_eq!(plural(0u32, "unit", "units"), "0 units");
    assert_eq!(plural(1usize, "unit", "units"), "1 unit");
    assert_eq!(plural(2u64, "unit", "units"), "2 units");
    assert_eq!(plural(11, "unit", "units"), "11 units");
    assert_eq!(plural(21, "unit", "units"), "21 units");
}

#[test]
fn library_messages_agree_with_their_counts() {
    let once = VerifyError::Multiplicity {
        item: "a".into(),
        count: 1,
        lo: 2,
        hi: 3,
    };
    assert_eq!(
        once.to_string(),
        "primary item a is covered 1 time, not between 2 and 3"
    );
    let thrice = VerifyError::Multiplicity {
        item: "a".into(),
        count: 3,
        lo: 1,
        hi: 2,
    };
    assert!(thrice.to_string().contains("covered 3 times"));
    let e = EngineError::Unsupported {
        engine: EngineKind::Bitset,
        reason: Unsupported::TooManyItems { items: 600, max: 1 },
    };
    assert!(e.to_string().contains("at most 1 item, not 600"), "{e}");
}
