fn main() {
    for path in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&path).unwrap();
        let p = dancer_formats::dlx::read_str(&text, &path).unwrap().problem;
        let t = std::time::Instant::now();
        let (dn, du) = match dancer_core::Dlx::new(&p) {
            Ok(mut d) => d.estimate(400, 0x9e3779b97f4a7c15),
            Err(e) => {
                println!("{path}: {e}");
                continue;
            }
        };
        let b = dancer_core::bitset::estimate(&p, 400, 0x9e3779b97f4a7c15).ok();
        println!(
            "{path}: dlx nodes {dn:.3e} updates {du:.3e}; bitset {b:?}; choice {:?}; {:.3} s",
            dancer_core::choose_engine(&p),
            t.elapsed().as_secs_f64()
        );
    }
}
