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

    /// Reads the settings listed, in their order (the first one missing is the one reported); an optional
    /// setting may be absent.
    static func decode(
        _ settings: [(setting: PlacementSetting, isOptional: Bool)], from c: KeyedDecodingContainer<RecordKey>
    ) throws -> [SettingRecord] {
        func read<T: Decodable>(_ type: T.Type, _ key: RecordKey, optional: Bool) throws -> T? {
            optional ? try c.decodeIfPresent(T.self, forKey: key) : try c.decode(T.self, forKey: key)
        }
        var records: [SettingRecord] = []
        for (setting, optional) in settings {
            let key = RecordKey(setting.key)
            let value: Value?
            switch setting.kind {
            case .flag: value = try read(LocatedRecord<Bool>.self, key, optional: optional).map(Value.flag)
            case .count: value = try read(LocatedRecord<Int>.self, key, optional: optional).map(Value.count)
            case .duration: value = try read(LocatedRecord<Int64>.self, key, optional: optional).map(Value.duration)
            case .format: value = try read(LocatedRecord<AdFormat>.self, key, optional: optional).map(Value.format)
            case .text: value = try read(LocatedRecord<String>.self, key, optional: optional).map(Value.text)
            case .windows: value = try read([LocatedRecord<WindowRecord>].self, key, optional: optional).map(Value.windows)
            }
            if let value { records.append(SettingRecord(setting: setting, value: value)) }
        }
        return records
    }

    static func encode(_ records: [SettingRecord], to c: inout KeyedEncodingContainer<RecordKey>) throws {
        for record in records {
            let key = RecordKey(record.setting.key)
            switch record.value {
            case .flag(let v): try c.encode(v, forKey: key)
            case .count(let v): try c.encode(v, forKey: key)
            case .duration(let v): try c.encode(v, forKey: key)
            case .format(let v): try c.encode(v, forKey: key)
            case .text(let v): try c.encode(v, forKey: key)
            case .windows(let v): try c.encode(v, forKey: key)
            }
        }
    }
}

/// A key of a placement or group record: `id`, `at`, or a setting's rule-file key.
struct RecordKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }

    init(_ key: String) { stringValue = key }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
