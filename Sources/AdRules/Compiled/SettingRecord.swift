/// One setting of a placement or group in the compiled document, under its rule-file key: a value with its
/// location (`[value, file, line, column]`, durations in milliseconds), or a list of windows.
struct SettingRecord: Sendable {
    enum Value: Sendable {
        case flag(LocatedRecord<Bool>)
        case count(LocatedRecord<Int>)
        case duration(LocatedRecord<Int64>)
        case format(LocatedRecord<AdFormat>)
        case text(LocatedRecord<String>)
        case windows([LocatedRecord<WindowRecord>])
    }

    var setting: PlacementSetting
    var value: Value

    /// The most `caps` windows a placement or group may have: the same in a compiled policy as in rule files, since
    /// every ask scans the history once per window (1000 windows of 100,000 shows made an ask take 0.15 s).
    static let maxWindows = PlacementSetting.maxWindowCaps

    /// Reads the value of `setting` in the form its kind takes.
    static func read(_ setting: PlacementSetting, from json: inout RecordReader) throws(CompiledPolicyError) -> Value {
        switch setting.kind {
        case .flag: return .flag(try json.located { json throws(CompiledPolicyError) in try json.bool() })
        case .count: return .count(try json.located { json throws(CompiledPolicyError) in try json.int() })
        case .duration: return .duration(try json.located { json throws(CompiledPolicyError) in try json.int64() })
        case .format: return .format(try json.located { json throws(CompiledPolicyError) in try json.oneOf("an ad format") })
        case .text: return .text(try json.located { json throws(CompiledPolicyError) in try json.string() })
        case .windows:
            return .windows(try json.array(entries: 0...maxWindows) { json throws(CompiledPolicyError) in
                try json.located { json throws(CompiledPolicyError) in try WindowRecord(from: &json) }
            })
        }
    }

    /// Writes the setting as a member of an object.
    func write(to json: inout JSONWriter) {
        json.key(setting.key)
        switch value {
        case .flag(let v): v.write(to: &json) { json, value in json.bool(value) }
        case .count(let v): v.write(to: &json) { json, value in json.int(value) }
        case .duration(let v): v.write(to: &json) { json, value in json.int(value) }
        case .format(let v): v.write(to: &json) { json, value in json.string(value.rawValue) }
        case .text(let v): v.write(to: &json) { json, value in json.string(value) }
        case .windows(let caps):
            json.array { json in
                for cap in caps { cap.write(to: &json) { json, window in window.write(to: &json) } }
            }
        }
    }

    /// Writes settings as members of an object in key order, with the object's own `keys` (sorted) in their
    /// places among them: `member` writes the member of each of those.
    static func write(
        _ records: [SettingRecord], among keys: [String], to json: inout JSONWriter, _ member: (String, inout JSONWriter) -> Void
    ) {
        var next = keys.startIndex
        // Records made for writing are in key order already; sorting them would cost more than the check.
        let isSorted = zip(records, records.dropFirst()).allSatisfy { $0.setting.key < $1.setting.key }
        for record in isSorted ? records : records.sorted(by: { $0.setting.key < $1.setting.key }) {
            while next < keys.endIndex, keys[next] < record.setting.key {
                member(keys[next], &json)
                next += 1
            }
            record.write(to: &json)
        }
        for key in keys[next...] { member(key, &json) }
    }
}

/// The settings a placement or a group may have: each one's key, and whether it may be absent.
struct SettingTable: Sendable {
    let settings: [(setting: PlacementSetting, isOptional: Bool)]
    /// The positions in `settings` in the order of their keys, the order a document lists them in.
    let sorted: [Int]
    /// Where in `sorted` each key is.
    let ranks: [String: Int]
    /// The settings in the order of their keys.
    let keyOrder: [PlacementSetting]

    init(_ settings: [(setting: PlacementSetting, isOptional: Bool)]) {
        self.settings = settings
        sorted = settings.indices.sorted { settings[$0].setting.key < settings[$1].setting.key }
        ranks = Dictionary(uniqueKeysWithValues: sorted.enumerated().map { (settings[$0.element].setting.key, $0.offset) })
        keyOrder = sorted.map { settings[$0].setting }
    }

    /// Every setting, as a placement has them.
    static let placement = SettingTable(PlacementSetting.allCases.map { ($0, $0.access.isOptional) })
    /// Pacing and caps, as a group has them.
    static let group = SettingTable(PlacementSetting.groupSettings.compactMap { setting in setting.groupAccess.map { (setting, $0.isOptional) } })

    /// The settings of one object, filled in as their keys are read.
    struct Values {
        let table: SettingTable
        private var values: [SettingRecord.Value?]
        /// Where in `table.sorted` the next key is likely to be: the one after the last key read.
        private var next = 0

        init(_ table: SettingTable) {
            self.table = table
            values = Array(repeating: nil, count: table.settings.count)
        }

        /// Reads the value of `key` when it names a setting of the table (`null` for an optional one is
        /// absent); false when it names none.
        mutating func read(_ key: String, from json: inout RecordReader) throws(CompiledPolicyError) -> Bool {
            // A document lists keys sorted, so the key is most often the next one in key order; when it is
            // not (a setting left out), it is looked up.
            let rank: Int
            if next < table.sorted.count, table.settings[table.sorted[next]].setting.key == key {
                rank = next
            } else if let found = table.ranks[key] {
                rank = found
            } else {
                return false
            }
            next = rank + 1
            let position = table.sorted[rank]
            let (setting, isOptional) = table.settings[position]
            if isOptional {
                values[position] = try json.optional { json throws(CompiledPolicyError) in try SettingRecord.read(setting, from: &json) }
            } else {
                values[position] = try SettingRecord.read(setting, from: &json)
            }
            return true
        }

        /// The settings read, in table order.
        /// - Throws: the first setting missing that may not be.
        func records() throws(CompiledPolicyError) -> [SettingRecord] {
            var records: [SettingRecord] = []
            records.reserveCapacity(values.count)
            for (position, value) in values.enumerated() {
                let (setting, isOptional) = table.settings[position]
                if let value {
                    records.append(SettingRecord(setting: setting, value: value))
                } else if !isOptional {
                    throw CompiledPolicyError.missing(setting.key)
                }
            }
            return records
        }
    }
}
