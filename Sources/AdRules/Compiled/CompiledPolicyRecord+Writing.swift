/// The records written as JSON. Every object's keys are written sorted, as the document's format asks
/// (docs/compiled-policy.md): the same policy always gives the same bytes.
extension AtRecord {
    func write(to json: inout JSONWriter) {
        json.array { json in
            json.int(file)
            json.int(line)
            json.int(column)
        }
    }
}

extension LocatedRecord {
    /// Writes `[value, file, line, column]`, the value written by `writeValue`.
    func write<E: Error>(to json: inout JSONWriter, _ writeValue: (inout JSONWriter, Value) throws(E) -> Void) throws(E) {
        try json.array { json throws(E) in
            try writeValue(&json, value)
            json.int(at.file)
            json.int(at.line)
            json.int(at.column)
        }
    }
}

extension WindowRecord {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("max")
            json.int(max)
            json.key("window")
            json.int(window)
        }
    }
}

extension PlacementRecord {
    func write(to json: inout JSONWriter) {
        json.object { json in
            SettingRecord.write(settings, among: ["at", "id"], to: &json) { key, json in
                json.key(key)
                if key == "at" { at.write(to: &json) } else { json.string(id) }
            }
        }
    }
}

extension GroupRecord {
    func write(to json: inout JSONWriter) {
        json.object { json in
            SettingRecord.write(settings, among: ["at", "id", "placements"], to: &json) { key, json in
                json.key(key)
                switch key {
                case "at": at.write(to: &json)
                case "id": json.string(id)
                default:
                    json.array { json in
                        for member in placements { member.write(to: &json) { json, id in json.string(id) } }
                    }
                }
            }
        }
    }
}

extension AttributeRecord {
    func write(to json: inout JSONWriter) throws(JSONWriter.NonFiniteNumber) {
        try json.object { json throws(JSONWriter.NonFiniteNumber) in
            json.key("at")
            at.write(to: &json)
            if let value = self.default {
                json.key("default")
                try value.write(to: &json)
            }
            json.key("name")
            json.string(name)
            json.key("type")
            json.string(type.rawValue)
        }
    }
}

extension RuleRecord {
    func write(to json: inout JSONWriter) throws(JSONWriter.NonFiniteNumber) {
        try json.object { json throws(JSONWriter.NonFiniteNumber) in
            json.key("at")
            at.write(to: &json)
            json.key("condition")
            try condition.write(to: &json)
            if let deny {
                json.key("deny")
                json.array { json in
                    for member in deny { member.write(to: &json) { json, id in json.string(id) } }
                }
            }
            json.key("id")
            json.string(id)
            json.key("message")
            json.string(message)
            json.key("when")
            when.write(to: &json) { json, text in json.string(text) }
        }
    }
}

extension ValueRecord {
    func write(to json: inout JSONWriter) throws(JSONWriter.NonFiniteNumber) {
        try json.object { json throws(JSONWriter.NonFiniteNumber) in
            json.key("type")
            json.string(value.type.rawValue)
            json.key("value")
            switch value {
            case .bool(let v): json.bool(v)
            case .int(let v): json.int(v)
            case .number(let v): try json.number(v)
            case .string(let v): json.string(v)
            case .duration(let v): json.int(v.milliseconds)
            case .stringList(let v): json.array { json in for item in v { json.string(item) } }
            case .intList(let v): json.array { json in for item in v { json.int(item) } }
            }
        }
    }
}

extension ExpressionRecord {
    func write(to json: inout JSONWriter) throws(JSONWriter.NonFiniteNumber) {
        try json.object { json throws(JSONWriter.NonFiniteNumber) in
            switch self {
            case .constant(let value):
                json.key("constant")
                try value.write(to: &json)
            case .builtin(let name):
                json.key("builtin")
                json.string(name)
            case .attribute(let name):
                json.key("attribute")
                json.string(name)
            case .not(let inner):
                json.key("not")
                try inner.write(to: &json)
            case .and(let operands), .or(let operands):
                let key = if case .and = self { "and" } else { "or" }
                json.key(key)
                try json.array { json throws(JSONWriter.NonFiniteNumber) in
                    for operand in operands { try operand.write(to: &json) }
                }
            case .compare(let op, let left, let right):
                json.key("compare")
                json.string(op)
                json.key("left")
                try left.write(to: &json)
                json.key("right")
                try right.write(to: &json)
            case .member(let item, let list, let negated):
                json.key("list")
                try list.write(to: &json)
                json.key("member")
                try item.write(to: &json)
                json.key("negated")
                json.bool(negated)
            }
        }
    }
}
