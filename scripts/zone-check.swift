// Compares Foundation's time zone data, which adrules counts days and hours with, with the system's zoneinfo (through
// `zdump`) for every change of offset from 2025 to 2027: `swift scripts/zone-check.swift [ZONE...]` (default: the 35
// zones below). Prints the zones that differ and exits 1 if any does.
import Foundation

let defaultZones = [
    "UTC", "Europe/London", "Europe/Dublin", "Europe/Lisbon", "Europe/Berlin", "Europe/Paris", "Europe/Helsinki",
    "Europe/Moscow", "Europe/Istanbul", "Africa/Cairo", "Africa/Casablanca", "Africa/Johannesburg", "Asia/Jerusalem",
    "Asia/Beirut", "Asia/Tehran", "Asia/Kolkata", "Asia/Kathmandu", "Asia/Shanghai", "Asia/Tokyo", "Asia/Seoul",
    "Australia/Sydney", "Australia/Adelaide", "Australia/Lord_Howe", "Australia/Perth", "Pacific/Auckland",
    "Pacific/Chatham", "Pacific/Apia", "America/New_York", "America/Chicago", "America/Denver", "America/Phoenix",
    "America/Los_Angeles", "America/Havana", "America/Santiago", "America/Sao_Paulo",
]
let zones = CommandLine.arguments.count > 1 ? Array(CommandLine.arguments.dropFirst()) : defaultZones
var differences = 0
for name in zones {
    guard let zone = TimeZone(identifier: name) else { print("\(name): Foundation does not know it"); differences += 1; continue }
    // Foundation: each change of offset from 2025-01-01 to 2028-01-01 UTC, as "unix seconds offset".
    var ours: [String] = []
    var t = Date(timeIntervalSince1970: 1_735_689_600)
    let end = Date(timeIntervalSince1970: 1_830_297_600)
    while let next = zone.nextDaylightSavingTimeTransition(after: t), next < end {
        ours.append("\(Int(next.timeIntervalSince1970)) \(zone.secondsFromGMT(for: next))")
        t = next
    }
    // zdump -v prints each change as two lines, the second at the change: keep those.
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/zdump")
    process.arguments = ["-v", "-c", "2025,2028", name]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "EEE MMM d HH:mm:ss yyyy"
    var theirs: [String] = []
    for line in output.split(separator: "\n") where !line.contains("NULL") {
        // "Europe/Berlin  Sun Mar 30 01:00:00 2025 UT = … gmtoff=7200"
        guard let ut = line.range(of: " UT = "), let off = line.range(of: "gmtoff=") else { continue }
        let stamp = line[line.index(line.startIndex, offsetBy: name.count)..<ut.lowerBound].trimmingCharacters(in: .whitespaces)
        guard let date = formatter.date(from: stamp.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")) else { continue }
        if Int(date.timeIntervalSince1970) % 60 == 59 { continue }  // the second before the change
        theirs.append("\(Int(date.timeIntervalSince1970)) \(line[off.upperBound...])")
    }
    // SHOW=1 prints how many changes each side found (none for a zone without daylight saving).
    if ProcessInfo.processInfo.environment["SHOW"] != nil { print(name, ours.count, theirs.count) }
    if ours != theirs {
        differences += 1
        print("\(name): Foundation \(ours) zoneinfo \(theirs)")
    }
}
print("\(zones.count) zones, \(differences) differ")
exit(differences == 0 ? 0 : 1)
