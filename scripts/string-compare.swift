// Times String == on long texts, composed and decomposed (the figures in README.md and docs/performance.md):
//   swiftc -O scripts/string-compare.swift -o /tmp/string-compare && /tmp/string-compare
import Foundation
@inline(never) func eq(_ a: String, _ b: String) -> Bool { a == b }
func time(_ name: String, _ a: String, _ b: String) {
    let n = 400
    let xs = [a, a + ""], ys = [b, String(b)]
    let t0 = DispatchTime.now().uptimeNanoseconds
    var count = 0
    for i in 0..<n { if eq(xs[i & 1], ys[(i >> 1) & 1]) { count += 1 } }
    let t1 = DispatchTime.now().uptimeNanoseconds
    print(name, Double(t1 - t0) / Double(n), "ns per compare", a.utf8.count, b.utf8.count, count)
}
let nfc = String(repeating: "\u{e9}", count: 2040)
let nfd = String(repeating: "e\u{301}", count: 2040)
let kata = String(repeating: "\u{30AB}", count: 2040)
let jp = "\u{30AB}\u{30E9}\u{30AA}\u{30B1}\u{753B}\u{9762}\u{30BF}\u{30A4}\u{30C8}\u{30EB}\u{4E00}\u{89A7}\u{8868}"
time("nfc vs nfc+x", nfc + "0000", nfc + "zz")
time("nfd vs nfd+x", nfd + "0000", nfd + "zz")
time("nfc vs nfd", nfc + "0000", nfd + "zz")
time("kata vs kata", kata + "0", kata + "z")
time("nfc vs nfc differ early", "a" + nfc, "b" + nfc)
time("nfd vs nfc differ early", "a" + nfd, "b" + nfc)
let q = String(repeating: "q\u{301}", count: 2040)
time("q+acute vs same", q + "0", q + "z")
time("jp13 vs jp13x", jp, jp + "x")
time("jp13 vs jp13", jp, String(jp.reversed()))
