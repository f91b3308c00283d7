//! Every problem in `../shared/data/dlx/` must give exactly the solutions,
//! nodes and updates that Knuth's DLX1/DLX2 report for it (figures from
//! `shared/README.md`), and so must `bitmrv` with Knuth's ties (his tree
//! on bitmaps). Skipped, with a message, when `shared/` is absent.

use dancer_core::engines::bitmrv::{BitMrv, Ties};
use dancer_core::{verify, Dlx, Engine};

fn check(file: &str, solutions: u64, nodes: u64, updates: u64) {
    let Some(path) = dancer_testdata::shared_file("dlx", file) else {
        return;
    };
    let text = std::fs::read_to_string(&path).unwrap();
    let parsed = dancer_formats::dlx::read_str(&text, file).unwrap();
    let p = parsed.problem;
    let mut e = Dlx::new(&p).unwrap();
    let mut n = 0;
    while let Some(sol) = e.next_solution() {
        verify(&p, sol).unwrap_or_else(|err| panic!("{file}: bad solution {sol:?}: {err}"));
        n += 1;
    }
    assert!(e.is_complete());
    let s = e.stats();
    assert_eq!(
        (n, s.solutions, s.nodes, s.updates),
        (solutions, solutions, nodes, updates),
        "{file}"
    );
    assert_eq!(
        s.profile.iter().sum::<u64>(),
        s.nodes,
        "{file}: profile adds up to nodes"
    );
    // The compact layout (used for very large problems) walks the same tree.
    let mut c = Dlx::new_compact(&p).unwrap();
    let mut m = 0;
    while c.next_solution().is_some() {
        m += 1;
    }
    assert_eq!(
        (m, c.stats().nodes, c.stats().updates),
        (solutions, nodes, updates),
        "{file} (compact)"
    );
    // bitmrv with Knuth's ties: his tree, on bitmaps; his updates too
    // without colours
    let mut b = BitMrv::with_ties(&p, Ties::Knuth).unwrap();
    let mut m = 0;
    while let Some(sol) = b.next_solution() {
        verify(&p, sol).unwrap_or_else(|err| panic!("{file}: bitmrv: bad solution: {err}"));
        m += 1;
    }
    assert_eq!((m, b.stats().nodes), (solutions, nodes), "{file} (bitmrv)");
    if !p.has_colors() {
        assert_eq!(b.stats().updates, updates, "{file} (bitmrv)");
    }
}

/// One test a shared file: `name: "file" => solutions, nodes, updates;`,
/// attributes (`#[ignore]`, documentation) before the name.
macro_rules! shared_files {
    ($($(#[$attr:meta])* $name:ident: $file:literal => $solutions:expr, $nodes:expr, $updates:expr;)*) => {
        $(
            #[test]
            $(#[$attr])*
            fn $name() {
                check($file, $solutions, $nodes, $updates);
            }
        )*
    };
}

shared_files! {
    toy: "toy.dlx" => 1, 6, 30;
    toycolor: "toycolor.dlx" => 1, 4, 14;
    queens_8: "queens-8.dlx" => 92, 1_049, 16_680;
    queens_10: "queens-10.dlx" => 724, 11_578, 198_264;
    queens_12: "queens-12.dlx" => 14_200, 211_716, 3_594_752;
    queens_13: "queens-13.dlx" => 73_712, 1_046_319, 17_463_157;
    langford_11: "langford-11.dlx" => 35_584, 439_747, 5_974_979;
    langford_11_sym: "langford-11-sym.dlx" => 17_792, 223_510, 3_035_452;
    sudoku_inkala: "sudoku-inkala.dlx" => 1, 2_741, 49_765;
    /// 1.2 billion updates: seconds in release, minutes in debug builds. Run with
    /// `cargo test --release -- --ignored`; the benchmarks cover it too.
    #[ignore]
    pent_6x10_sym: "pent-6x10-sym.dlx" => 2_339, 904_970, 309_134_131;
    #[ignore]
    pent_6x10: "pent-6x10.dlx" => 9_356, 3_620_988, 1_235_724_537;
}
