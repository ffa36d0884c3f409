// Times reading a time zone's name: TimeZone.autoupdatingCurrent (looked up each time) against a fixed zone.
//   swiftc -O scripts/zone-name-read.swift -o /tmp/zone-name-read && /tmp/zone-name-read auto && /tmp/zone-name-read fixed
import Foundation

let automatic = TimeZone.autoupdatingCurrent
let fixed = TimeZone(identifier: automatic.identifier) ?? automatic
let which = CommandLine.arguments.dropFirst().first ?? "auto"
let zone = which == "auto" ? automatic : fixed
var matches = 0
let start = Date()
for _ in 0..<1_000_000 where zone.identifier == "Asia/Tokyo" { matches += 1 }
let nanoseconds = Date().timeIntervalSince(start) * 1e9 / 1_000_000
print("\(which): \(String(format: "%.1f", nanoseconds)) ns a read of the zone's name (\(matches) matches)")
