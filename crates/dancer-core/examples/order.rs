fn main() {
    let path = std::env::args().nth(1).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let p = dancer_formats::dlx::read_str(&text, &path).unwrap().problem;
    let order = dancer_core::engines::bitset::branching_order(&p);
    let names: Vec<&str> = order.iter().map(|&i| p.item_name(i)).collect();
    println!("{}", names.join(" "));
}
