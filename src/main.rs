fn main() {
    println!("redline");
}
