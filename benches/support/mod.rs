//! Shared by the benchmarks: a deterministic generator of Python-like source files.
#![allow(dead_code)]

const NOUNS: &[&str] = &[
    "order", "invoice", "payment", "refund", "customer", "shipment", "basket", "coupon", "ticket",
    "report", "account", "session",
];
const STATUSES: &[&str] = &["open", "paid", "late", "void", "held", "sent"];

/// A small deterministic generator (no dependency, same file every run).
pub struct Lcg(pub u64);

impl Lcg {
    pub fn next(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n
    }
}

/// Exactly `lines` lines of Python, `header` first: classes of 10-line methods (blank lines
/// pad the end). Also the index of each method's `def` line.
pub fn generate(lines: usize, header: &[&str]) -> (Vec<String>, Vec<usize>) {
    let mut rng = Lcg(0x5eed);
    let mut out: Vec<String> = header.iter().map(|l| l.to_string()).collect();
    let mut defs = Vec::new();
    let mut i = 0;
    while out.len() + 13 <= lines {
        if i % 50 == 0 {
            out.push(format!("class Service{}:", i / 50));
            out.push(format!("    \"\"\"Handlers of group {}.\"\"\"", i / 50));
            out.push(String::new());
        }
        let noun = NOUNS[rng.next(NOUNS.len())];
        let status = STATUSES[rng.next(STATUSES.len())];
        let k = 1 + rng.next(9);
        let limit = 10 * (1 + rng.next(20));
        defs.push(out.len());
        out.push(format!("    def handle_{noun}_{i}(self, request, limit={limit}):"));
        out.push(format!("        \"\"\"Handle {noun} batch #{i}.\"\"\""));
        out.push(format!("        items = self.fetch_{noun}(request.user_id, limit)"));
        out.push("        total = 0".to_string());
        out.push("        for item in items:".to_string());
        out.push(format!("            if item.status == \"{status}\":"));
        out.push(format!("                total += item.amount * {k}"));
        out.push(format!("        log.info(\"{noun} %d done\", {i})"));
        out.push("        return total".to_string());
        out.push(String::new());
        i += 1;
    }
    while out.len() < lines {
        out.push(String::new());
    }
    (out, defs)
}
